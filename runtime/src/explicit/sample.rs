//! Explicit-heap samples of a program's recursive data structures, for `shapecheck classify`
//! (seed 000, Algorithm 2: the explicit heaps that `SCGsFromExplicit` tests invariants on).
//!
//! Consumes a [`Program`] and a [`Config`] (k samples of at least d nodes per type, where to
//! sample); produces a [`Collection`]: for every recursive struct type (a struct with a field
//! of type pointer-to-itself), up to k pairwise non-isomorphic rooted [`Shape`]s. A [`Sampler`]
//! is an exploration [`Observer`]: at the states it samples (loop heads, function entries and
//! returns by default), every pointer variable in scope (at function entries and returns: the
//! parameters and the returned variable) and every global whose type is `struct T *` with T
//! recursive and whose value is the start of a live heap block roots a sample: the blocks
//! reachable from it through T's self-pointer fields, numbered breadth-first from the root
//! (node 0). A field that is NULL, uninitialised, or does not point to the start of a live heap
//! block gives no edge; a field that points to a freed block makes the sample inconsistent (a
//! structure in the middle of its destruction) and it is not taken. Samples are kept per
//! [`Site`] (function entry or return, loop head), and those at function boundaries are
//! preferred when there are any: loop heads can be in the middle of an update. The exploration
//! runs with no property checked, so that no violation ends it, follows the states with the
//! larger heaps first (up to 2d blocks; then the fewest choices), and stops once every recursive
//! type that program variables point to has k samples at its preferred site.

use crate::explicit::exec::State;
use crate::explicit::explore::{Explorer, Limits, OBSERVER_STOP, Observer, Order, Outcome, Stats};
use crate::explicit::memory::{BlockId, BlockKind, Memory, Ptr, Val};
use crate::program::ir::{Expr, ExprKind, FuncId, Op, Program, StructId, Type, VarId};
use crate::program::property::PropertySet;
use petgraph::graph::NodeIndex;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::time::Instant;

/// Arrays of self-pointers longer than this are not expanded into fields.
const MAX_ARRAY_FIELDS: u64 = 16;

/// A self-pointer field of a recursive struct (a member of an array or nested struct is named
/// `a[1]`, `s.next`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelfField {
    /// Field name.
    pub name: String,
    /// Byte offset in the struct.
    pub offset: u64,
}

/// A recursive struct type with its self-pointer fields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecursiveType {
    /// The struct.
    pub id: StructId,
    /// Its name, e.g. `struct node`.
    pub name: String,
    /// Self-pointer fields in declaration order.
    pub fields: Vec<SelfField>,
    /// The smallest block size that holds every self-pointer field.
    pub min_size: u64,
    /// The size of a pointer.
    pub ptr_bytes: u64,
    /// Where in a block a cell of the type may start: 0, and the offsets at which other
    /// structs hold one as a member (a Linux-style `list_head` inside its element).
    pub offsets: Vec<u64>,
}

/// The recursive struct types of a program, in definition order.
pub fn recursive_types(prog: &Program) -> Vec<RecursiveType> {
    (0..prog.structs.len() as u32)
        .map(StructId)
        .filter_map(|id| {
            let fields = self_fields(prog, id, &Type::Struct(id), "", 0);
            let ptr = prog.model.ptr_bytes();
            let min_size = fields.iter().map(|f| f.offset + ptr).max()?;
            let mut offsets: Vec<u64> = prog
                .structs
                .iter()
                .flat_map(|s| s.fields.iter())
                .filter(|f| f.ty == Type::Struct(id))
                .map(|f| f.offset)
                .chain([0])
                .collect();
            offsets.sort_unstable();
            offsets.dedup();
            Some(RecursiveType {
                id,
                name: prog.strukt(id).name.clone(),
                fields,
                min_size,
                ptr_bytes: ptr,
                offsets,
            })
        })
        .collect()
}

/// The fields of type `struct me *` inside a value of type `ty` at `base`, named after `path`.
fn self_fields(prog: &Program, me: StructId, ty: &Type, path: &str, base: u64) -> Vec<SelfField> {
    match ty {
        Type::Ptr(t) if **t == Type::Struct(me) => vec![SelfField {
            name: path.to_string(),
            offset: base,
        }],
        Type::Struct(s) if path.is_empty() || *s != me => {
            let sep = if path.is_empty() { "" } else { "." };
            prog.strukt(*s)
                .fields
                .iter()
                .flat_map(|f| {
                    let name = format!("{path}{sep}{}", f.name);
                    self_fields(prog, me, &f.ty, &name, base + f.offset)
                })
                .collect()
        }
        Type::Array(t, n) if *n <= MAX_ARRAY_FIELDS => {
            let size = prog.size_of(t);
            (0..*n)
                .flat_map(|i| self_fields(prog, me, t, &format!("{path}[{i}]"), base + i * size))
                .collect()
        }
        _ => vec![],
    }
}

/// A rooted explicit heap over one type's self-pointer fields: node 0 is the root, nodes are
/// numbered breadth-first following the fields in order, and `edges[n][i]` is the target of
/// field `i` of node `n`. Every node is reachable from the root, so the numbering is canonical:
/// two samples are isomorphic exactly when their shapes are equal. A node is a cell: a live
/// block (a heap block, or a variable) at one of the offsets where the type may start.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    /// Per node, per field: the target node.
    pub edges: Vec<Vec<Option<usize>>>,
}

impl Shape {
    /// The cells reachable from `root` through `ty`'s self-pointer fields, if `root` is a
    /// cell and no reachable field dangles.
    pub fn build(mem: &Memory, root: Cell, ty: &RecursiveType) -> Option<Shape> {
        node_cell(mem, root, ty)?;
        let mut index = HashMap::from([(root, 0usize)]);
        let mut order = vec![root];
        let mut edges = vec![];
        while let Some(&(b, start)) = order.get(edges.len()) {
            let mut row = vec![];
            for f in &ty.fields {
                let t = match target(mem, b, start + f.offset, ty) {
                    Target::Dangling => return None,
                    Target::None => None,
                    Target::Node(t) => Some(*index.entry(t).or_insert_with(|| {
                        order.push(t);
                        order.len() - 1
                    })),
                };
                row.push(t);
            }
            edges.push(row);
        }
        Some(Shape { edges })
    }

    /// Number of nodes.
    pub fn nodes(&self) -> usize {
        self.edges.len()
    }

    /// The edges as (node, field index, target).
    pub fn edge_list(&self) -> impl Iterator<Item = (usize, usize, usize)> + '_ {
        self.edges.iter().enumerate().flat_map(|(n, row)| {
            row.iter()
                .enumerate()
                .filter_map(move |(i, t)| t.map(|t| (n, i, t)))
        })
    }

    /// Text such as `0 -next-> 1, 1 -next-> 2` (field names by index).
    pub fn describe(&self, fields: &[SelfField]) -> String {
        let edges: Vec<String> = self
            .edge_list()
            .map(|(n, i, t)| format!("{n} -{}-> {t}", fields[i].name))
            .collect();
        if edges.is_empty() {
            "no edges".into()
        } else {
            edges.join(", ")
        }
    }
}

/// A block and the offset in it where a cell starts.
pub type Cell = (BlockId, u64);

/// `c` if it is a cell of `ty`: a live block that holds every self-pointer field of `ty` from
/// one of the offsets where `ty` may start.
fn node_cell(mem: &Memory, c: Cell, ty: &RecursiveType) -> Option<Cell> {
    let blk = mem.block(c.0)?;
    let fits = blk.size >= c.1.saturating_add(ty.min_size);
    (blk.alive && fits && ty.offsets.contains(&c.1)).then_some(c)
}

/// What a self-pointer field holds.
enum Target {
    /// A cell.
    Node(Cell),
    /// Anything else but a freed block: no edge.
    None,
    /// A pointer into a freed heap block.
    Dangling,
}

/// What the pointer field at `offset` of block `b` points to.
fn target(mem: &Memory, b: BlockId, offset: u64, ty: &RecursiveType) -> Target {
    let Some(Val::Ptr(Ptr::Addr(t, off))) = mem.read(b, offset, ty.ptr_bytes) else {
        return Target::None;
    };
    match mem.block(t) {
        Some(blk) if !blk.alive && blk.kind == BlockKind::Heap => Target::Dangling,
        _ => u64::try_from(off)
            .ok()
            .and_then(|off| node_cell(mem, (t, off), ty))
            .map_or(Target::None, Target::Node),
    }
}

/// Which states are sampled.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Points {
    /// Function entries, locations that return, and loop heads: where data structures are
    /// usually consistent.
    Boundaries,
    /// Every state (also in the middle of updates).
    Every,
}

/// Where a sample was taken. Samples at calls are preferred: a loop head can be in the middle
/// of an update (a list that is closed into a cycle after its construction loop, a reversal
/// in progress), while functions usually leave their data structures consistent.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Site {
    /// A function entry or a location that returns.
    Call,
    /// A loop head.
    Loop,
    /// Any other location (with [`Points::Every`]).
    Other,
}

impl Site {
    /// `function entry or return`, `loop head`, `other location`.
    pub fn describe(self) -> &'static str {
        match self {
            Site::Call => "function entry or return",
            Site::Loop => "loop head",
            Site::Other => "other location",
        }
    }

    /// `function entries and returns`, `loop heads`, `other locations`.
    pub fn plural(self) -> &'static str {
        match self {
            Site::Call => "function entries and returns",
            Site::Loop => "loop heads",
            Site::Other => "other locations",
        }
    }
}

/// What to collect.
#[derive(Clone, Debug)]
pub struct Config {
    /// Samples wanted per recursive type.
    pub k: usize,
    /// Minimum number of nodes of a sample.
    pub d: usize,
    /// Where to sample.
    pub points: Points,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            k: 5,
            d: 4,
            points: Points::Boundaries,
        }
    }
}

/// One sample and where it was taken.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The heap.
    pub shape: Shape,
    /// The root pointer variable.
    pub root: String,
    /// The function whose state was sampled.
    pub func: String,
    /// The source line of the sampled location.
    pub line: u32,
    /// The kind of location.
    pub site: Site,
}

/// The samples of one recursive type: up to k non-isomorphic ones per [`Site`].
#[derive(Clone, Debug)]
pub struct TypeSamples {
    /// The type.
    pub ty: RecursiveType,
    /// Whether some program variable points to it (only those types are waited for).
    pub wanted: bool,
    /// All samples, in the order they were found.
    pub samples: Vec<Sample>,
}

impl TypeSamples {
    /// The preferred site that has samples.
    pub fn site(&self) -> Option<Site> {
        self.samples.iter().map(|s| s.site).min()
    }

    /// The samples to classify on: those of the preferred site.
    pub fn used(&self) -> Vec<&Sample> {
        let site = self.site();
        self.samples
            .iter()
            .filter(|s| Some(s.site) == site)
            .collect()
    }

    fn count(&self, site: Site) -> usize {
        self.samples.iter().filter(|s| s.site == site).count()
    }

    /// Whether the samples suffice: k at the preferred site that has any.
    fn enough(&self, k: usize) -> bool {
        self.site().is_some_and(|s| self.count(s) >= k)
    }
}

/// The exploration observer that collects samples.
pub struct Sampler<'p> {
    prog: &'p Program,
    cfg: Config,
    types: Vec<TypeSamples>,
    seen: HashSet<(usize, Site, Shape)>,
    /// Per root variable: its type's index, and whether the variable is itself a cell
    /// (a struct variable) rather than a pointer.
    var_type: HashMap<VarId, (usize, bool)>,
    /// Number of states sampled.
    pub sampled: u64,
}

impl<'p> Sampler<'p> {
    /// A sampler for the recursive types of `prog`.
    pub fn new(prog: &'p Program, cfg: Config) -> Self {
        let rec = recursive_types(prog);
        let var_type: HashMap<VarId, (usize, bool)> = (0..prog.vars.len() as u32)
            .map(VarId)
            .filter_map(|v| {
                let (t, cell) = match &prog.var(v).ty {
                    Type::Ptr(t) => (&**t, false),
                    t @ Type::Struct(_) => (t, true),
                    _ => return None,
                };
                let i = rec.iter().position(|r| *t == Type::Struct(r.id))?;
                Some((v, (i, cell)))
            })
            .collect();
        let wanted: BTreeSet<usize> = var_type.values().map(|(i, _)| *i).collect();
        let types = rec
            .into_iter()
            .enumerate()
            .map(|(i, ty)| TypeSamples {
                ty,
                wanted: wanted.contains(&i),
                samples: vec![],
            })
            .collect::<Vec<_>>();
        Sampler {
            prog,
            cfg,
            seen: HashSet::new(),
            types,
            var_type,
            sampled: 0,
        }
    }

    /// Whether every wanted type has k samples at its preferred site.
    pub fn enough(&self) -> bool {
        self.types.iter().all(|t| !t.wanted || t.enough(self.cfg.k))
    }

    /// The samples collected so far.
    pub fn types(&self) -> &[TypeSamples] {
        &self.types
    }

    /// The samples, consuming the sampler.
    pub fn into_types(self) -> Vec<TypeSamples> {
        self.types
    }

    /// The kind of a location, if states there are sampled.
    fn site(&self, func: FuncId, loc: NodeIndex) -> Option<Site> {
        let f = self.prog.func(func);
        let call = loc == f.entry
            || f.cfa
                .edges(loc)
                .any(|e| matches!(e.weight().op, Op::Return(_)));
        match (call, f.cfa[loc].loop_head, self.cfg.points) {
            (true, _, _) => Some(Site::Call),
            (_, true, _) => Some(Site::Loop),
            (_, _, Points::Every) => Some(Site::Other),
            _ => None,
        }
    }

    /// The local variables whose values root samples: at a function boundary the parameters
    /// and the returned variable (what the function's contract is about), elsewhere all.
    fn roots(&self, func: FuncId, loc: NodeIndex, site: Site) -> Vec<VarId> {
        let f = self.prog.func(func);
        if site != Site::Call {
            return f.locals.clone();
        }
        let returned = f.cfa.edges(loc).filter_map(|e| match &e.weight().op {
            Op::Return(Some(x)) => returned_var(x),
            _ => None,
        });
        f.params.iter().copied().chain(returned).collect()
    }

    /// Samples the root variables of the innermost frame and every global of `st`.
    fn sample(&mut self, st: &State, func: FuncId, loc: NodeIndex, site: Site) {
        self.sampled += 1;
        let f = self.prog.func(func);
        let line = f.cfa.edges(loc).next().map_or(f.line, |e| e.weight().line);
        let roots = self.roots(func, loc, site);
        let frame = st.frames.last().map(|fr| &fr.vars);
        let locals = roots.iter().filter_map(|v| Some((v, frame?.get(v)?)));
        for (v, b) in locals.chain(st.globals.iter()) {
            let Some(&(ti, cell)) = self.var_type.get(v) else {
                continue;
            };
            if self.types[ti].count(site) >= self.cfg.k {
                continue;
            }
            let root = if cell {
                (*b, 0)
            } else {
                match st.mem.read(*b, 0, self.types[ti].ty.ptr_bytes) {
                    Some(Val::Ptr(Ptr::Addr(root, off))) if off >= 0 => (root, off as u64),
                    _ => continue,
                }
            };
            let Some(shape) = Shape::build(&st.mem, root, &self.types[ti].ty) else {
                continue;
            };
            if shape.nodes() < self.cfg.d || !self.seen.insert((ti, site, shape.clone())) {
                continue;
            }
            self.types[ti].samples.push(Sample {
                shape,
                root: self.prog.var(*v).name.clone(),
                func: f.name.clone(),
                line,
                site,
            });
        }
    }
}

/// The variable a `return` expression reads, through casts.
fn returned_var(e: &Expr) -> Option<VarId> {
    match &e.kind {
        ExprKind::Var(v) => Some(*v),
        ExprKind::Cast(x) => returned_var(x),
        _ => None,
    }
}

impl Observer for Sampler<'_> {
    fn observe(&mut self, st: &State) -> bool {
        // Function boundaries are sampled only for operations main calls directly (frames:
        // the initialiser, main, the callee): a helper called in the middle of an operation
        // (list_link inside list_insert_after) sees its structure half updated.
        if let Some(top) = st.frames.last()
            && let Some(site) = self.site(top.func, top.loc)
            && (site != Site::Call || st.frames.len() <= 3)
        {
            self.sample(st, top.func, top.loc, site);
        }
        self.enough()
    }
}

/// The result of [`collect`].
#[derive(Clone, Debug)]
pub struct Collection {
    /// Samples per recursive type.
    pub types: Vec<TypeSamples>,
    /// Whether every wanted type got k samples (the exploration stopped because of that).
    pub enough: bool,
    /// Why the exploration ended otherwise: it was complete (empty), or hit these limits.
    pub reasons: Vec<String>,
    /// Exploration counters.
    pub stats: Stats,
    /// Number of states sampled.
    pub sampled: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// Explores `prog` with no property checked until every wanted recursive type has `cfg.k`
/// samples, the exploration is complete, or a limit is reached.
pub fn collect(prog: &Program, cfg: Config, limits: Limits) -> Collection {
    let start = Instant::now();
    let checks = PropertySet(BTreeSet::new());
    // Heaps of d nodes come from long runs: larger heaps first, up to twice that size.
    let order = Order::LargestHeap(2 * cfg.d);
    let mut sampler = Sampler::new(prog, cfg);
    let (outcome, stats) = if sampler.enough() {
        (Outcome::Complete, Stats::default())
    } else {
        let mut ex = Explorer::new(prog, &checks, limits)
            .with_order(order)
            .with_observer(&mut sampler);
        let outcome = ex.run();
        let stats = ex.stats.clone();
        // As in `report::verify`: dropping millions of shared states takes long; leak them.
        std::mem::forget(ex);
        (outcome, stats)
    };
    let reasons = match outcome {
        Outcome::Incomplete(r) => r.into_iter().filter(|x| x != OBSERVER_STOP).collect(),
        _ => vec![],
    };
    Collection {
        enough: sampler.enough(),
        sampled: sampler.sampled,
        types: sampler.into_types(),
        reasons,
        stats,
        seconds: start.elapsed().as_secs_f64(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::frontend::{Source, lower_source};

    const DECLS: &str = "extern int __VERIFIER_nondet_int(void);\nextern void *calloc(unsigned, unsigned);\nextern void *malloc(unsigned);\n";

    fn program(body: &str) -> Program {
        let text = format!("{DECLS}{body}");
        lower_source(&Source::from_text(text, "t.c"), "t.c").unwrap()
    }

    fn limits() -> Limits {
        Limits {
            max_steps: 200_000,
            ..Limits::default()
        }
    }

    const DLL: &str = "struct node { int data; struct node *succ; struct node *pred; };\n\
        int main(void) {\n\
          struct node *h = calloc(1, sizeof(struct node));\n\
          if (!h) return 0;\n\
          struct node *p = h;\n\
          while (__VERIFIER_nondet_int()) {\n\
            struct node *t = calloc(1, sizeof(struct node));\n\
            if (!t) return 0;\n\
            p->succ = t; t->pred = p; p = t;\n\
          }\n\
          return 0;\n\
        }\n";

    /// Every iteration of the loop forks four times before it allocates: breadth-first over
    /// choices needs thousands of steps for a list of five, larger heaps first a few hundred.
    #[test]
    fn larger_heaps_are_followed_first() {
        let p = program(
            "struct node { int a; int b; struct node *next; };\n\
             int main(void) {\n\
               struct node *h = 0;\n\
               while (__VERIFIER_nondet_int()) {\n\
                 int a = 0, b = 0;\n\
                 if (__VERIFIER_nondet_int()) a = 1;\n\
                 if (__VERIFIER_nondet_int()) b = 1;\n\
                 if (__VERIFIER_nondet_int()) a = a + b;\n\
                 struct node *t = malloc(sizeof(struct node));\n\
                 if (!t) return 0;\n\
                 t->a = a; t->b = b; t->next = h; h = t;\n\
               }\n\
               return 0;\n\
             }\n",
        );
        let cfg = Config {
            k: 3,
            d: 5,
            points: Points::Boundaries,
        };
        let bounded = Limits {
            max_steps: 1_500,
            ..Limits::default()
        };
        let c = collect(&p, cfg, bounded);
        assert!(c.enough, "{} steps: {:?}", c.stats.steps, c.reasons);
        let t = c.types.iter().find(|t| t.ty.name == "struct node").unwrap();
        assert!(t.used().iter().all(|s| s.shape.nodes() >= 5));
    }

    #[test]
    fn recursive_types_are_structs_with_self_pointers() {
        let p = program(
            "struct pair { int a; int *b; };\n\
             struct tree { int key; struct tree *kids[2]; struct pair *x; struct tree *up; };\n\
             int main(void) { struct pair q; struct tree *t = 0; return 0; }\n",
        );
        let rec = recursive_types(&p);
        assert_eq!(rec.len(), 1);
        assert_eq!(rec[0].name, "struct tree");
        let names: Vec<_> = rec[0].fields.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["kids[0]", "kids[1]", "up"]);
        assert_eq!(rec[0].fields[2].offset, 16);
    }

    #[test]
    fn lp64_samples_read_pointers_at_their_width_and_list_heads_in_variables_and_elements() {
        let text = format!(
            "{DECLS}struct list_head {{ struct list_head *next, *prev; }};\n\
             struct item {{ long key; struct list_head link; }};\n\
             void add(struct list_head *n, struct list_head *h) {{\n\
               n->next = h->next; n->prev = h; h->next->prev = n; h->next = n;\n\
             }}\n\
             int main(void) {{\n\
               struct list_head head; head.next = &head; head.prev = &head;\n\
               while (__VERIFIER_nondet_int()) {{\n\
                 struct item *it = malloc(sizeof(struct item));\n\
                 if (!it) return 0;\n\
                 add(&it->link, &head);\n\
               }}\n\
               return 0;\n\
             }}\n"
        );
        let p = crate::program::frontend::lower_source_with(
            &Source::from_text(text, "t.c"),
            "t.c",
            crate::program::ir::DataModel::Lp64,
        )
        .unwrap();
        let cfg = Config {
            k: 2,
            d: 3,
            points: Points::Boundaries,
        };
        let c = collect(&p, cfg, limits());
        let t = c
            .types
            .iter()
            .find(|t| t.ty.name == "struct list_head")
            .unwrap();
        assert_eq!(t.ty.ptr_bytes, 8);
        assert_eq!(t.ty.offsets, [0, 8]);
        assert!(t.used().len() >= 2, "{:?}", c.reasons);
        // The ring through the head and the elements' embedded links: every next edge is
        // matched by a prev edge back.
        for s in t.used() {
            for (n, i, m) in s.shape.edge_list() {
                let back = 1 - i;
                assert_eq!(
                    s.shape.edges[m][back],
                    Some(n),
                    "{}",
                    s.shape.describe(&t.ty.fields)
                );
            }
        }
    }

    #[test]
    fn samples_of_a_dll_are_rooted_and_consistent() {
        let p = program(DLL);
        let cfg = Config {
            k: 3,
            d: 3,
            points: Points::Boundaries,
        };
        let c = collect(&p, cfg, limits());
        assert!(c.enough, "{:?}", c.reasons);
        assert_eq!(c.types.len(), 1);
        let t = &c.types[0];
        assert!(t.wanted);
        assert_eq!(t.used().len(), 3);
        for s in &t.samples {
            assert!(s.shape.nodes() >= 3);
            // Every succ edge is matched by a pred edge back, and vice versa.
            for (n, i, m) in s.shape.edge_list() {
                assert_eq!(
                    s.shape.edges[m][1 - i],
                    Some(n),
                    "{}",
                    s.shape.describe(&t.ty.fields)
                );
            }
        }
        let roots: BTreeSet<_> = t.samples.iter().map(|s| s.root.as_str()).collect();
        assert!(roots.contains("h"), "{roots:?}");
    }

    #[test]
    fn samples_at_function_boundaries_are_preferred() {
        // The construction loop's head sees a lasso (the last node points to itself); the
        // list is circular only when the function returns.
        let p = program(
            "struct node { struct node *next; };\n\
             struct node *create(void) {\n\
               struct node *last = malloc(sizeof(struct node));\n\
               if (!last) return 0;\n\
               last->next = last;\n\
               struct node *head = last;\n\
               while (__VERIFIER_nondet_int()) {\n\
                 struct node *n = malloc(sizeof(struct node));\n\
                 if (!n) return 0;\n\
                 n->next = head;\n\
                 head = n;\n\
               }\n\
               last->next = head;\n\
               return head;\n\
             }\n\
             int main(void) { struct node *l = create(); return 0; }\n",
        );
        let c = collect(&p, Config::default(), limits());
        let t = &c.types[0];
        assert!(c.enough);
        assert_eq!(t.site(), Some(Site::Call));
        assert!(t.samples.iter().any(|s| s.site == Site::Loop));
        let used = t.used();
        assert_eq!(used.len(), 5);
        for s in used {
            // Every node is on the cycle: following next from any node returns to the root.
            assert!(s.shape.edges.iter().all(|row| row[0].is_some()));
            assert_eq!(s.shape.edges[s.shape.nodes() - 1][0], Some(0));
        }
    }

    #[test]
    fn no_samples_without_recursive_types() {
        let p = program("int main(void) { int *x = malloc(4); return 0; }\n");
        let c = collect(&p, Config::default(), limits());
        assert!(c.types.is_empty());
        assert!(c.enough);
        assert_eq!(c.stats.steps, 0);
    }

    /// A list of `n` nodes over field offset 0, allocated in the given order of list positions.
    fn list(mem: &mut Memory, alloc_order: &[usize]) -> Vec<BlockId> {
        let mut blocks = vec![0; alloc_order.len()];
        for &pos in alloc_order {
            blocks[pos] = mem.alloc(BlockKind::Heap, 8, false, 1, "");
        }
        for w in blocks.windows(2) {
            mem.write(w[0], 0, 4, Val::Ptr(Ptr::Addr(w[1], 0))).unwrap();
        }
        blocks
    }

    fn sll_type() -> RecursiveType {
        RecursiveType {
            id: StructId(0),
            name: "struct node".into(),
            fields: vec![SelfField {
                name: "next".into(),
                offset: 0,
            }],
            min_size: 4,
            ptr_bytes: 4,
            offsets: vec![0],
        }
    }

    #[test]
    fn isomorphic_heaps_have_equal_shapes() {
        let ty = sll_type();
        let mut m = Memory::default();
        let a = list(&mut m, &[0, 1, 2, 3]);
        let b = list(&mut m, &[3, 1, 0, 2]);
        let sa = Shape::build(&m, (a[0], 0), &ty).unwrap();
        let sb = Shape::build(&m, (b[0], 0), &ty).unwrap();
        assert_eq!(sa, sb);
        assert_eq!(sa.nodes(), 4);
        assert_eq!(
            sa.describe(&ty.fields),
            "0 -next-> 1, 1 -next-> 2, 2 -next-> 3"
        );
        // A different root, or a cycle, is a different shape.
        assert_ne!(Shape::build(&m, (a[1], 0), &ty).unwrap(), sa);
        m.write(b[3], 0, 4, Val::Ptr(Ptr::Addr(b[0], 0))).unwrap();
        let cyc = Shape::build(&m, (b[0], 0), &ty).unwrap();
        assert_ne!(cyc, sa);
        assert_eq!(cyc.edges[3], vec![Some(0)]);
    }

    #[test]
    fn variables_and_embedded_cells_are_nodes_other_interior_targets_and_freed_ones_are_not() {
        let mut ty = sll_type();
        let mut m = Memory::default();
        let s = m.alloc(BlockKind::Stack, 8, false, 1, "local");
        let a = list(&mut m, &[0, 1, 2]);
        m.write(a[2], 0, 4, Val::Ptr(Ptr::Addr(s, 0))).unwrap();
        // The variable is a cell (a list's head or sentinel on the stack).
        assert_eq!(Shape::build(&m, (a[0], 0), &ty).unwrap().nodes(), 4);
        assert_eq!(Shape::build(&m, (s, 0), &ty).unwrap().nodes(), 1);
        // Offset 4 is no place where the type starts, until a struct embeds it there.
        m.write(a[1], 0, 4, Val::Ptr(Ptr::Addr(a[2], 4))).unwrap();
        assert_eq!(Shape::build(&m, (a[0], 0), &ty).unwrap().nodes(), 2);
        ty.offsets = vec![0, 4];
        assert_eq!(Shape::build(&m, (a[0], 0), &ty).unwrap().nodes(), 3);
        ty.offsets = vec![0];
        // A pointer to a freed node: the structure is being torn down, no sample.
        m.kill(a[1]);
        assert!(Shape::build(&m, (a[0], 0), &ty).is_none());
        m.write(a[0], 0, 4, Val::Ptr(Ptr::Null)).unwrap();
        assert_eq!(Shape::build(&m, (a[0], 0), &ty).unwrap().nodes(), 1);
    }

    #[test]
    fn identical_samples_are_kept_once() {
        let p = program(DLL);
        let mut sampler = Sampler::new(
            &p,
            Config {
                k: 100,
                d: 1,
                points: Points::Every,
            },
        );
        let checks = PropertySet(BTreeSet::new());
        let lim = Limits {
            max_steps: 20_000,
            ..Limits::default()
        };
        let mut ex = Explorer::new(&p, &checks, lim).with_observer(&mut sampler);
        ex.run();
        drop(ex);
        let t = &sampler.types()[0];
        let shapes: HashSet<_> = t.samples.iter().map(|s| (s.site, &s.shape)).collect();
        assert_eq!(shapes.len(), t.samples.len());
        assert!(t.samples.len() > 3);
    }
}
