//! Lazy shape analysis with explicit-heap-guided refinement of shape-class generators
//! (seed 000, Algorithms 1-3).
//!
//! Consumes a program, a checked spec and an [`Explicit`] oracle that evaluates the spec's
//! structure invariants on explicit heap samples (SCGsFromExplicit: compiled code for the
//! standard library, the interpreter for `--spec` files); produces a [`LazyResult`]: a
//! re-checked certificate (TRUE), a replayed counterexample (FALSE), or the reason refinement
//! stopped (UNKNOWN), with the refinement history.
//!
//! ModelCheck starts from `m0` and the empty tracking definition for every recursive struct.
//! Each round builds the shape ART ([`crate::techniques::seed000::shape::analysis`]). An abstract error path is
//! checked by the explicit engine ([`crate::engine::feasibility`]): feasible means FALSE; infeasible
//! gives the atoms of an unsat core. Refine adds the core's pointers (with their aliases:
//! pointers of the same type they are assigned from or to) to the tracked and separating
//! pointers, and the field assertions its operations state (`data == 1`, see
//! [`crate::techniques::seed000::shape::data::atoms`]) to `Φ`, whose field predicates are
//! abstraction predicates of every shape class. A type still at `m0` then gets explicit-heap samples (Abstract: k samples of at
//! least d nodes), the SCGs whose structure invariants fail on them are disabled, and the
//! coarsest enabled SCG whose fields cover the fields in the core is chosen. When the core
//! brings no new pointer, FineTune searches the enabled SCGs finer than the current one for
//! the coarsest (fewest predicates) whose abstract post along the path is empty, simulating
//! the analysis along that path and every spurious path of earlier rounds (a choice that
//! let an old path back would be undone by the next round); a failed search widens the
//! enabled set to every SCG not coarser than the current one. When nothing changes:
//! UNKNOWN, refinement failed.
//! The SCG and the tracked pointers are global (one shape type per struct); `Φ` is per
//! location as in the paper: each field assertion belongs to the precision on its region
//! only ([`Lazy::span`]), elsewhere the ART's graphs hold its predicate at 1/2, and a spurious
//! path that needs it further widens the region before new assertions are tried. Each
//! round still builds the ART from the root.

use crate::engine::domain::Domain;
use crate::engine::feasibility::{self, PathStep};
use crate::engine::refine::{self, Exploration};
use crate::engine::{Budget, Task};
use crate::explicit::explore::{Counterexample, Limits};
use crate::explicit::sample::{self, TypeSamples};
use crate::program::ir::*;
use crate::program::property::{Property, PropertySet};
use crate::techniques::seed000::shape::alias::RefParams;
use crate::techniques::seed000::shape::analysis::{
    Art, Bounds, CertificateStats, Ending, address_taken,
};
use crate::techniques::seed000::shape::coerce::Constraints;
use crate::techniques::seed000::shape::data;
use crate::techniques::seed000::shape::vocab::{self, Assertion, Region, ShapeType, Vocab};
use petgraph::graph::NodeIndex;
use shapecheck_dsl::ir::{Generator, Spec, Tracking};
use shapecheck_dsl::lattice;
use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

/// A structure of the spec with its roles bound to fields of a C struct.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Binding {
    /// The spec structure.
    pub structure: shapecheck_dsl::ir::StructId,
    /// Fields bound to its roles.
    pub fields: Vec<String>,
}

/// An SCG for one struct: a generator with its binding.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Scg {
    /// The binding.
    pub binding: Binding,
    /// The generator (families of the binding's structure).
    pub generator: Generator,
}

/// Configuration of a run.
#[derive(Clone, Debug)]
pub struct LazyConfig {
    /// Samples per type before Abstract.
    pub samples: usize,
    /// Nodes per sample.
    pub min_nodes: usize,
    /// Most refinements.
    pub max_refinements: usize,
    /// Overall time limit.
    pub timeout: Option<Duration>,
    /// Time limit of the explicit-heap sampling (SCGsFromExplicit).
    pub sample_timeout: Duration,
    /// Step limit of the explicit-heap sampling: unlike the time limit, it samples the same
    /// heaps on every run, however loaded the machine.
    pub sample_steps: u64,
    /// The "maximal SCG" configuration: every struct starts at its finest sampled SCG with
    /// every pointer of its type tracked; no refinement needed.
    pub maximal: bool,
    /// Whether a proof's shape graphs are drawn (`shapes.svg`), which only `--draw`/`--svg`
    /// read.
    pub pictures: bool,
}

impl Default for LazyConfig {
    fn default() -> Self {
        LazyConfig {
            samples: 5,
            min_nodes: 4,
            max_refinements: 24,
            timeout: None,
            sample_timeout: Duration::from_secs(10),
            // About 3 s at the explicit engine's speed: the time limit stays a safety net
            // that a loaded machine does not reach first (3 million steps took 20 s).
            sample_steps: 500_000,
            maximal: false,
            pictures: false,
        }
    }
}

/// One refinement, for the report.
#[derive(Clone, Debug)]
pub enum Refinement {
    /// Tracking-definition refinement: pointers added.
    Tracking(Vec<String>),
    /// Abstract: explicit samples chose an SCG for a struct.
    Abstract(String, String),
    /// FineTune chose a finer SCG.
    Scg(String, String),
    /// Tracking-definition refinement: field assertions added (`struct node: data == 1`),
    /// each with the lines of its region.
    Assertions(Vec<String>),
    /// Tracking-definition refinement: field assertions of `Φ` made part of the precision at
    /// more locations.
    Regions(Vec<String>),
}

/// The verdict of a run.
#[derive(Debug)]
pub enum LazyVerdict {
    /// Safe, with the certificate's sizes.
    True(CertificateStats),
    /// A replayed counterexample.
    False(Box<Counterexample>),
    /// Unknown, with the reason.
    Unknown(String),
}

/// What a run found.
#[derive(Debug)]
pub struct LazyResult {
    /// The verdict.
    pub verdict: LazyVerdict,
    /// Refinements, in order.
    pub refinements: Vec<Refinement>,
    /// The final abstraction: per struct, its SCG (text) and predicates.
    pub abstraction: Vec<(String, String, Vec<String>)>,
    /// Tracked pointers at the end.
    pub tracked: Vec<String>,
    /// The slots (`struct s **` cursors over links, see `shape::slots`), each with the
    /// struct whose fields it addresses.
    pub slots: Vec<String>,
    /// The raw fields through which cells own blocks (`struct record: data`).
    pub owned: Vec<String>,
    /// The raw fields that may point into their own cell (`struct msg: body = &inline`).
    pub inner: Vec<String>,
    /// Shape graphs of the final ART as text (for `--dump-shapes`).
    pub shapes_text: String,
    /// The same as DOT.
    pub shapes_dot: String,
    /// The same as an SVG picture (for `--draw`).
    pub shapes_svg: String,
    /// The certificate's facts in C, for a correctness witness.
    pub invariants: Vec<crate::witness::correctness::LocatedInvariant>,
    /// ART rounds.
    pub rounds: usize,
    /// Seconds.
    pub seconds: f64,
}

impl LazyResult {
    /// Number of tracking-definition refinements.
    pub fn td(&self) -> usize {
        self.refinements
            .iter()
            .filter(|r| matches!(r, Refinement::Tracking(_)))
            .count()
    }

    /// Number of SCG refinements (FineTune).
    pub fn scg(&self) -> usize {
        self.refinements
            .iter()
            .filter(|r| matches!(r, Refinement::Scg(..)))
            .count()
    }
}

/// The state of the refinement loop for one recursive struct.
#[derive(Clone, Debug)]
struct TypeState {
    strukt: StructId,
    /// Self-pointer field names.
    fields: Vec<String>,
    current: Option<Scg>,
    enabled: BTreeSet<Scg>,
    all: BTreeSet<Scg>,
    widened: bool,
}

/// The lazy shape analysis of one program.
pub struct Lazy<'a> {
    prog: &'a Program,
    /// The program's reference parameters (`*pp` read as the caller's variable).
    refs: RefParams,
    spec: &'a Spec,
    checks: &'a PropertySet,
    domain: &'a dyn Domain,
    cfg: LazyConfig,
    types: Vec<TypeState>,
    /// The structs embedding a recursive type once (Linux-style elements), by that type.
    carriers: std::collections::BTreeMap<StructId, StructId>,
    tracked: BTreeSet<VarId>,
    /// The field assertions `Φ` of the tracking definition, each with its region: where it
    /// belongs to the precision, the locations of the spurious paths it was learned from
    /// (see [`Lazy::span`]).
    assertions: BTreeMap<Assertion, Region>,
    /// Field assertions the stores of earlier cores stated, held back while their conditions
    /// gave new ones, with their regions: added when no other refinement is left.
    deferred: BTreeMap<Assertion, Region>,
    /// The spurious paths of earlier rounds: a choice of FineTune must rule them out too, or
    /// the next rounds find them again (a tree over `next` and `inner` rules out one leak
    /// of a list with optional inner cells and lets back the one a list with ownership
    /// predicates had ruled out).
    spurious: Vec<Vec<PathStep>>,
    refinements: Vec<Refinement>,
    start: Instant,
    rounds: usize,
}

impl<'a> Lazy<'a> {
    /// A run on the task's program, properties and domain.
    pub fn new(task: &Task<'a>, cfg: LazyConfig) -> Self {
        let (prog, checks, domain) = (task.program, task.properties, task.domain);
        let spec = domain.spec();
        let timeout = match (task.budget.remaining(), cfg.timeout) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let cfg = LazyConfig { timeout, ..cfg };
        // Unions (a store to one member changes the others) and self-pointers nested in
        // members or arrays are outside the shape domain: such types stay at m0. Structs the
        // code never mentions (a C library's internal lists, declared by its headers) have
        // no cells in the program's runs: they are left out, so that no refinement tries them.
        let mentioned = mentioned_structs(prog);
        let types = sample::recursive_types(prog)
            .into_iter()
            .filter(|t| !prog.strukt(t.id).is_union && mentioned.contains(&t.id))
            .map(|t| {
                let fields: Vec<String> = t
                    .fields
                    .iter()
                    .map(|f| f.name.clone())
                    .filter(|f| !f.contains(['.', '[']))
                    .collect();
                let all = all_scgs(spec, &fields);
                TypeState {
                    strukt: t.id,
                    fields,
                    current: None,
                    enabled: all.clone(),
                    all,
                    widened: false,
                }
            })
            .collect::<Vec<TypeState>>();
        let carriers = vocab::carriers(prog, |s| types.iter().any(|t| t.strukt == s))
            .into_iter()
            .map(|(e, c)| (e, c.strukt))
            .collect();
        Lazy {
            prog,
            carriers,
            refs: RefParams::new(prog),
            spec,
            checks,
            domain,
            cfg,
            types,
            tracked: BTreeSet::new(),
            assertions: BTreeMap::new(),
            deferred: BTreeMap::new(),
            spurious: vec![],
            refinements: vec![],
            start: Instant::now(),
            rounds: 0,
        }
    }

    fn shape_types(&self) -> Vec<ShapeType> {
        self.types
            .iter()
            .map(|t| ShapeType {
                strukt: t.strukt,
                generator: t.current.as_ref().map(|s| s.generator.clone()),
                fields: t
                    .current
                    .as_ref()
                    .map(|s| s.binding.fields.clone())
                    .unwrap_or_default(),
            })
            .collect()
    }

    fn deadline(&self) -> Option<Instant> {
        crate::engine::budget::earlier(self.cfg.timeout.map(|t| self.start + t))
    }

    /// Algorithm 1, ModelCheck: the generic refinement loop over the lazy shape analysis.
    pub fn run(mut self, task: &Task) -> LazyResult {
        if self.cfg.maximal
            && let Err(why) = self.maximal()
        {
            return self.finish(LazyVerdict::Unknown(why), None);
        }
        if !self.cfg.maximal && self.checks.has(Property::ValidMemtrack) {
            self.memtrack_start();
        }
        let task = task.with_budget(Budget {
            deadline: self.deadline(),
            ..task.budget
        });
        let max = self.cfg.max_refinements;
        match refine::run(&mut self, &task, max) {
            refine::Outcome::Proved(p) => self.finish(LazyVerdict::True(p.stats), Some(p)),
            refine::Outcome::Refuted(cex) => self.finish(LazyVerdict::False(cex), None),
            refine::Outcome::Unknown(why) => self.finish(LazyVerdict::Unknown(why), None),
        }
    }

    /// The maximal configuration: sample every type, take its finest enabled SCG, track every
    /// pointer to it.
    fn maximal(&mut self) -> Result<(), String> {
        let coll = self.collect();
        for t in &mut self.types {
            let Some(ts) = coll
                .types
                .iter()
                .find(|s| s.ty.id == t.strukt && !s.used().is_empty())
            else {
                continue;
            };
            let bindings = enabled(self.domain, ts);
            t.enabled.retain(|s| bindings.contains(&s.binding));
            let spec = self.spec;
            let finest = t
                .enabled
                .iter()
                .filter(|s| {
                    s.generator.families.len()
                        == spec.structures[s.binding.structure.0].families.len()
                })
                .max_by_key(|s| (size(spec, s), std::cmp::Reverse((*s).clone())))
                .cloned();
            t.current = finest;
        }
        self.track_all_pointers();
        Ok(())
    }

    /// Tracks every pointer to a type with an SCG, and every pointer to plain data (`void *`,
    /// `int *`: see [`Lazy::type_of`]); returns the new ones.
    fn track_all_pointers(&mut self) -> BTreeSet<VarId> {
        let mut new = BTreeSet::new();
        for (i, v) in self.prog.vars.iter().enumerate() {
            let wanted = match v.ty.pointee() {
                Some(t) if vocab::plain(self.prog, t, 0) => true,
                Some(Type::Struct(s)) => {
                    let s = self.shape_struct(*s);
                    self.types
                        .iter()
                        .any(|t| t.strukt == s && t.current.is_some())
                }
                _ => false,
            };
            if wanted && self.tracked.insert(VarId(i as u32)) {
                new.insert(VarId(i as u32));
            }
        }
        new
    }

    /// The start for valid-memtrack: every memory block must stay reachable from tracked
    /// pointers, so every type with explicit samples gets its coarsest enabled SCG (Abstract)
    /// and every pointer to such a type (or `void *`) is tracked from the first round, instead
    /// of waiting for spurious leaks to name them.
    fn memtrack_start(&mut self) {
        let all: Vec<usize> = (0..self.types.len()).collect();
        self.abstract_types(&all, &BTreeSet::new());
        let new = self.track_all_pointers();
        if !new.is_empty() {
            let names = new
                .iter()
                .map(|x| crate::techniques::seed000::shape::vocab::qualified_name(self.prog, *x))
                .collect();
            self.refinements.push(Refinement::Tracking(names));
        }
    }

    /// Explicit-heap samples of every recursive type.
    fn collect(&self) -> sample::Collection {
        let cfg = sample::Config {
            k: self.cfg.samples,
            d: self.cfg.min_nodes,
            ..sample::Config::default()
        };
        let cap = self.cfg.sample_timeout;
        let left = self
            .deadline()
            .map(|d| d.saturating_duration_since(Instant::now()));
        let limits = Limits {
            timeout: Some(left.map_or(cap, |l| l.min(cap))),
            max_steps: self.cfg.sample_steps,
            ..Limits::default()
        };
        sample::collect(self.prog, cfg, limits)
    }

    /// SCGsFromExplicit: the bindings whose structure invariants hold on every sample.
    fn enabled(&self, ts: &TypeSamples) -> Vec<Binding> {
        enabled(self.domain, ts)
    }

    /// Prints a spurious path and its core (with `SHAPECHECK_DEBUG`).
    fn debug_core(&self, path: &[PathStep], core: &feasibility::Core) {
        for (i, st) in path.iter().enumerate() {
            let edge = &self.prog.func(st.func).cfa[st.edge];
            let op = crate::program::cfa::op(self.prog, &edge.op);
            eprintln!("  step {i}: line {}: {op}", edge.line);
        }
        let names: Vec<String> = core
            .pointers
            .iter()
            .map(|p| crate::techniques::seed000::shape::vocab::qualified_name(self.prog, *p))
            .collect();
        eprintln!("core: steps {:?}, pointers {names:?}", core.steps);
        for t in self.types.iter() {
            if let Some(s) = &t.current {
                let name = &self.prog.strukt(t.strukt).name;
                eprintln!("  under {name} => {}", describe_scg(self.spec, s));
            }
        }
    }

    /// Algorithm 3, Refine: true if the abstraction changed.
    fn refine(&mut self, path: &[PathStep], core: &feasibility::Core) -> bool {
        if std::env::var_os("SHAPECHECK_DEBUG").is_some() {
            self.debug_core(path, core);
        }
        self.spurious.push(path.to_vec());
        let fields: BTreeSet<String> = core.fields.iter().map(|(_, f)| f.clone()).collect();
        let mut new: BTreeSet<VarId> = BTreeSet::new();
        for &p in &core.pointers {
            if self.type_of(p).is_some() && !self.tracked.contains(&p) {
                new.insert(p);
                new.extend(
                    self.aliases(p)
                        .into_iter()
                        .filter(|a| !self.tracked.contains(a)),
                );
            }
        }
        let asserted = self.refine_assertions(path, core);
        if !new.is_empty() {
            let names = new
                .iter()
                .map(|x| crate::techniques::seed000::shape::vocab::qualified_name(self.prog, *x))
                .collect();
            self.tracked.extend(new.iter().copied());
            self.refinements.push(Refinement::Tracking(names));
            // Types still at m0 that the new pointers point to: explicit heap analysis.
            let todo = self.at_m0(new.iter().filter_map(|x| self.type_of(*x)));
            self.abstract_types(&todo, &fields);
            return true;
        }
        // Struct variables in the core whose type is still at m0: their cells are nodes once
        // the type (or the type they embed) is abstracted.
        let cells = self.at_m0(
            core.pointers
                .iter()
                .filter_map(|x| match self.prog.var(*x).ty {
                    Type::Struct(s) => Some(s),
                    _ => None,
                }),
        );
        if !cells.is_empty() {
            self.abstract_types(&cells, &fields);
            if cells.iter().any(|i| self.types[*i].current.is_some()) {
                return true;
            }
        }
        if asserted {
            return true;
        }
        // No new pointer or assertion: FineTune every type in shape mode, first among the
        // SCGs finer than each type's current one, then (widened) among all the others. A
        // finer SCG of one type comes before a widened one of another: the predicate a path
        // needs may belong to the other type (a stack item's non-null link to a tree).
        for widen in [false, true] {
            for i in 0..self.types.len() {
                if self.types[i].current.is_none() {
                    continue;
                }
                if let Some(s) = self.fine_tune(i, widen) {
                    let t = &mut self.types[i];
                    let what = describe_scg(self.spec, &s);
                    t.current = Some(s);
                    let name = self.prog.strukt(t.strukt).name.clone();
                    self.refinements.push(Refinement::Scg(name, what));
                    return true;
                }
            }
        }
        self.refine_deferred()
    }

    /// The recursive type whose shape graphs hold the cells of struct `s`: the type it
    /// embeds for a carrier, `s` itself otherwise.
    fn shape_struct(&self, s: StructId) -> StructId {
        *self.carriers.get(&s).unwrap_or(&s)
    }

    /// The types still at m0 among `structs` (a struct embedding a recursive type stands for
    /// that type), as indices into `types`.
    fn at_m0(&self, structs: impl Iterator<Item = StructId>) -> Vec<usize> {
        let wanted: BTreeSet<StructId> = structs.map(|s| self.shape_struct(s)).collect();
        (0..self.types.len())
            .filter(|i| self.types[*i].current.is_none() && wanted.contains(&self.types[*i].strukt))
            .collect()
    }

    /// Algorithm 3's field assertions: those the core's operations state about data fields of
    /// types in shape mode and not yet in `Φ`; true if there were any. The conditions' atoms
    /// come first: a store's value is known to the field predicates the conditions ask for
    /// (storing 0 makes `f == 7` false), and every predicate added multiplies the shape graphs
    /// (a list whose cells hold three kinds of values). The stores' atoms are added when the
    /// conditions have nothing new, and are otherwise kept in `deferred`.
    ///
    /// Precision is per location, as in the paper's Refine: an assertion belongs to the
    /// precision only on the path's [`Lazy::span`], and an assertion of `Φ` the core states
    /// again has its region extended by the span (a refinement too).
    fn refine_assertions(&mut self, path: &[PathStep], core: &feasibility::Core) -> bool {
        let (conditions, stores): (Vec<&Op>, Vec<&Op>) = core
            .steps
            .iter()
            .filter_map(|&i| path.get(i))
            .map(|st| &self.prog.func(st.func).cfa[st.edge].op)
            .partition(|op| matches!(op, Op::Assume { .. }));
        let span = self.span(path, core);
        let extended = self.extend_regions(conditions.iter().chain(&stores).copied(), core, &span);
        let from_conditions = self.new_assertions(conditions.into_iter());
        let from_stores = self.new_assertions(stores.into_iter());
        if extended {
            // The path may have lost a fact of `Φ` where it was no part of the precision:
            // the new assertions wait until the path is seen again with the wider regions.
            for a in from_conditions.into_iter().chain(from_stores) {
                self.deferred.entry(a).or_insert_with(|| span.clone());
            }
            return true;
        }
        if from_conditions.is_empty() {
            return self.add_assertions(from_stores.into_iter().map(|a| (a, span.clone())));
        }
        for a in from_stores.difference(&from_conditions) {
            self.deferred.insert(a.clone(), span.clone());
        }
        self.add_assertions(from_conditions.into_iter().map(|a| (a, span.clone())))
    }

    /// The region of the assertions a core of `path` states: the locations the path visits
    /// from the core's first step to its last (where the fact is stored, carried and used),
    /// closed under the other routes between them: per function, every location on a CFA
    /// path from a location of the span to one, and every function called there, whole. The
    /// shape graphs of one location are joined, so a route the path did not take still
    /// feeds the graphs along it.
    fn span(&self, path: &[PathStep], core: &feasibility::Core) -> Region {
        let lo = core.steps.iter().min().copied().unwrap_or(0);
        let hi = core.steps.iter().max().copied().unwrap_or(0);
        let mut region = Region::new();
        for st in path.iter().take(hi + 1).skip(lo) {
            let cfa = &self.prog.func(st.func).cfa;
            if let Some((a, b)) = cfa.edge_endpoints(st.edge) {
                region.extend([(st.func, a), (st.func, b)]);
            }
        }
        let funcs: BTreeSet<FuncId> = region.iter().map(|l| l.0).collect();
        let mut callees = vec![];
        for f in funcs {
            let cfa = &self.prog.func(f).cfa;
            let here: Vec<NodeIndex> = region.iter().filter(|l| l.0 == f).map(|l| l.1).collect();
            let ahead = reachable(cfa, &here);
            let behind = reachable(petgraph::visit::Reversed(cfa), &here);
            for n in ahead.intersection(&behind) {
                region.insert((f, *n));
                callees.extend(cfa.edges(*n).filter_map(|e| e.weight().op.callee()));
            }
        }
        let mut seen = BTreeSet::new();
        while let Some(g) = callees.pop() {
            if !seen.insert(g) {
                continue;
            }
            let cfa = &self.prog.func(g).cfa;
            region.extend(cfa.node_indices().map(|n| (g, n)));
            callees.extend(cfa.edge_weights().filter_map(|e| e.op.callee()));
        }
        region
    }

    /// Extends by `span` the regions of the assertions of `Φ` that `ops` state or that are
    /// about a field the core reads (`itr->data == bcki->data` needs the assertions on
    /// `data` that tell the cells apart); true if one grew.
    fn extend_regions<'o>(
        &mut self,
        ops: impl Iterator<Item = &'o Op>,
        core: &feasibility::Core,
        span: &Region,
    ) -> bool {
        let stated: BTreeSet<Assertion> = ops.flat_map(|op| data::atoms(self.prog, op)).collect();
        let about = |a: &Assertion| {
            stated.contains(a) || core.fields.contains(&(a.strukt, a.field.clone()))
        };
        let mut grown = vec![];
        for (a, r) in self.assertions.iter_mut().filter(|(a, _)| about(a)) {
            if !span.is_subset(r) {
                r.extend(span.iter().copied());
                grown.push(a.clone());
            }
        }
        let grown: Vec<String> = grown
            .iter()
            .map(|a| self.describe_assertion(a, &self.assertions[a]))
            .collect();
        if grown.is_empty() {
            return false;
        }
        self.refinements.push(Refinement::Regions(grown));
        true
    }

    /// Adds the field assertions the stores of earlier cores stated; true if there were any.
    fn refine_deferred(&mut self) -> bool {
        let new: Vec<(Assertion, Region)> = std::mem::take(&mut self.deferred)
            .into_iter()
            .filter(|(a, _)| !self.assertions.contains_key(a))
            .collect();
        self.add_assertions(new.into_iter())
    }

    /// Adds `new` to `Φ`, each on its region, as one refinement; true if it was not empty.
    fn add_assertions(&mut self, new: impl Iterator<Item = (Assertion, Region)>) -> bool {
        let mut names = vec![];
        for (a, r) in new {
            names.push(self.describe_assertion(&a, &r));
            self.assertions.insert(a, r);
        }
        if names.is_empty() {
            return false;
        }
        self.refinements.push(Refinement::Assertions(names));
        true
    }

    /// `struct node: data == 1 (lines 12-30)`: an assertion and the source lines of its
    /// region.
    fn describe_assertion(&self, a: &Assertion, r: &Region) -> String {
        let lines: BTreeSet<u32> = r
            .iter()
            .flat_map(|(f, n)| {
                let cfa = &self.prog.func(*f).cfa;
                cfa.edges(*n).map(|e| e.weight().line).collect::<Vec<_>>()
            })
            .filter(|l| *l > 0)
            .collect();
        let name = &self.prog.strukt(a.strukt).name;
        match (lines.first(), lines.last()) {
            (Some(lo), Some(hi)) => format!("{name}: {} (lines {lo}-{hi})", a.describe()),
            _ => format!("{name}: {}", a.describe()),
        }
    }

    /// The field assertions `ops` state about data fields of types in shape mode and not yet
    /// in `Φ`.
    fn new_assertions<'o>(&self, ops: impl Iterator<Item = &'o Op>) -> BTreeSet<Assertion> {
        ops.flat_map(|op| data::atoms(self.prog, op))
            .filter(|a| {
                let s = self.shape_struct(a.strukt);
                self.types.iter().any(|t| t.strukt == s)
            })
            .filter(|a| !self.assertions.contains_key(a))
            .collect()
    }

    /// Algorithm 2, Abstract, for the given types: sample, restrict the enabled SCGs, choose
    /// the coarsest whose fields cover `fields` (the fields in the core) when there is one.
    fn abstract_types(&mut self, idx: &[usize], fields: &BTreeSet<String>) {
        if idx.is_empty() {
            return;
        }
        let coll = self.collect();
        for &i in idx {
            let strukt = self.types[i].strukt;
            let ts = coll.types.iter().find(|t| t.ty.id == strukt);
            let sampled: Vec<Binding> = match ts {
                Some(ts) if !ts.used().is_empty() => self.enabled(ts),
                _ => vec![],
            };
            // No samples, or samples no structure's invariants accept (e.g. heaps after a
            // bug broke the structure): every structure stays possible.
            let bindings: Vec<Binding> = if sampled.is_empty() {
                self.types[i]
                    .all
                    .iter()
                    .map(|s| s.binding.clone())
                    .collect()
            } else {
                sampled
            };
            let t = &mut self.types[i];
            t.enabled.retain(|s| bindings.contains(&s.binding));
            let covering: Vec<&Scg> = t
                .enabled
                .iter()
                .filter(|s| {
                    fields
                        .iter()
                        .all(|f| s.binding.fields.contains(f) || !t.fields.contains(f))
                })
                .collect();
            let pool: Vec<&Scg> = if covering.is_empty() {
                t.enabled.iter().collect()
            } else {
                covering
            };
            let choice = pool
                .into_iter()
                .min_by_key(|s| (size(self.spec, s), (*s).clone()))
                .cloned();
            if let Some(c) = &choice {
                let name = self.prog.strukt(t.strukt).name.clone();
                self.refinements
                    .push(Refinement::Abstract(name, describe_scg(self.spec, c)));
            }
            t.current = choice;
        }
    }

    /// The constraints of a vocabulary, with reachability transitivity for valid-memtrack.
    fn constraints(&self, vocab: &Vocab) -> Constraints {
        let cons = Constraints::new(vocab);
        if self.checks.has(Property::ValidMemtrack) {
            cons.with_reach_transitivity(vocab)
        } else {
            cons
        }
    }

    /// FineTune: the coarsest enabled SCG finer than the current one that rules the path out
    /// (`widen` false), or after widening the coarsest of those not coarser than it.
    fn fine_tune(&mut self, i: usize, widen: bool) -> Option<Scg> {
        let spec = self.spec;
        if !widen {
            return self.search(i, |c, cur| c != cur && finer_eq(spec, c, cur));
        }
        let t = &mut self.types[i];
        if !t.widened {
            t.widened = true;
            let cur = t.current.clone()?;
            let extra: Vec<Scg> = t
                .all
                .iter()
                .filter(|c| !finer_eq(spec, &cur, c))
                .cloned()
                .collect();
            t.enabled.extend(extra);
        }
        // Widened: every candidate that is not coarser than the current SCG, also those of
        // other structures or role bindings (samples taken early may look like a list of
        // what is a tree). Each choice rules out every spurious path so far, so the
        // choices cannot go round in a circle.
        self.search(i, |c, cur| c != cur && !finer_eq(spec, cur, c))
    }

    /// The search of FineTune over the candidates (strictly finer than the current SCG, or
    /// after widening not coarser): probe
    /// the median candidate (by predicate count) of the undecided ones; a failure discards it
    /// and every coarser candidate (monotonicity), a success discards every finer one; the
    /// answer is the smallest success.
    fn search(&self, i: usize, candidate: impl Fn(&Scg, &Scg) -> bool) -> Option<Scg> {
        let t = &self.types[i];
        let cur = t.current.clone()?;
        let mut cands: Vec<Scg> = t
            .enabled
            .iter()
            .filter(|c| candidate(c, &cur))
            .cloned()
            .collect();
        cands.sort_by_key(|c| (size(self.spec, c), c.clone()));
        let mut winners: Vec<Scg> = vec![];
        while !cands.is_empty() {
            if self.deadline().is_some_and(|d| Instant::now() >= d) {
                break;
            }
            let s = cands[cands.len() / 2].clone();
            if self.rules_out(i, &s) {
                cands.retain(|c| *c != s && !finer_eq(self.spec, c, &s));
                winners.push(s);
            } else {
                cands.retain(|c| !finer_eq(self.spec, &s, c));
            }
        }
        winners
            .into_iter()
            .min_by_key(|c| (size(self.spec, c), c.clone()))
    }

    /// Whether the shape analysis with `s` for type `i` eliminates every spurious path so
    /// far, the latest first.
    fn rules_out(&self, i: usize, s: &Scg) -> bool {
        let mut types = self.shape_types();
        types[i] = ShapeType {
            strukt: self.types[i].strukt,
            generator: Some(s.generator.clone()),
            fields: s.binding.fields.clone(),
        };
        let vocab = Vocab::new(self.prog, self.domain, &types, &self.tracked)
            .with_assertions(self.assertions.iter().map(|(a, r)| (a, Some(r))));
        let cons = self.constraints(&vocab);
        let art = Art::new(self.prog, &vocab, &cons, self.checks);
        let out = (self.spurious.iter().rev()).all(|path| !art.reaches_error_along(path));
        if std::env::var_os("SHAPECHECK_DEBUG").is_some() {
            eprintln!("probe {}: rules out {out}", describe_scg(self.spec, s));
        }
        out
    }

    /// The analysable type a pointer variable points to: a recursive struct, or raw memory
    /// for a pointer to plain data (`void *` also carries nodes out of allocation wrappers).
    fn type_of(&self, x: VarId) -> Option<StructId> {
        match self.prog.var(x).ty.pointee()? {
            t if vocab::plain(self.prog, t, 0) => {
                Some(crate::techniques::seed000::shape::transfer::RAW)
            }
            Type::Struct(s) if self.types.iter().any(|t| t.strukt == self.shape_struct(*s)) => {
                Some(*s)
            }
            _ => None,
        }
    }

    /// Pointers of the same type (or `void *`) connected to `p` by assignments, parameter
    /// passing and returns, transitively.
    fn aliases(&self, p: VarId) -> BTreeSet<VarId> {
        let ty = self.type_of(p);
        let mut out: BTreeSet<VarId> = [p].into();
        let links = assignment_links(self.prog, &self.refs);
        loop {
            let before = out.len();
            // `void *` carries cells of any type (out of allocation wrappers).
            let same = |x: &VarId| {
                let t = self.type_of(*x);
                t == ty || t == Some(crate::techniques::seed000::shape::transfer::RAW)
            };
            for (a, b) in &links {
                if out.contains(a) && same(b) {
                    out.insert(*b);
                }
                if out.contains(b) && same(a) {
                    out.insert(*a);
                }
            }
            if out.len() == before {
                break;
            }
        }
        out.remove(&p);
        out
    }

    fn finish(&self, verdict: LazyVerdict, proof: Option<Proof>) -> LazyResult {
        let abstraction = self
            .types
            .iter()
            .map(|t| {
                let name = self.prog.strukt(t.strukt).name.clone();
                match &t.current {
                    Some(s) => {
                        let d = Tracking {
                            tracked: self.tracked_names(t.strukt),
                            separating: self.tracked_names(t.strukt),
                            assertions: self
                                .assertions
                                .keys()
                                .filter(|a| self.shape_struct(a.strukt) == t.strukt)
                                .map(Assertion::describe)
                                .collect(),
                        };
                        let class =
                            lattice::shape_class(self.spec, &s.generator, &s.binding.fields, &d);
                        let preds = class
                            .core
                            .iter()
                            .chain(&class.instr)
                            .map(lattice::describe)
                            .collect();
                        (name, describe_scg(self.spec, s), preds)
                    }
                    None => (name, "m0".to_string(), vec![]),
                }
            })
            .collect();
        let node = |s: StructId| {
            self.types
                .iter()
                .any(|t| t.strukt == self.shape_struct(s) && t.current.is_some())
        };
        let owned = vocab::raw_fields(self.prog, node)
            .into_iter()
            .map(|(s, f)| format!("{}: {f}", self.prog.strukt(s).name))
            .collect();
        let vocab = Vocab::new(self.prog, self.domain, &self.shape_types(), &self.tracked);
        let inner = (vocab.inner.iter())
            .map(|i| {
                let f = &vocab.fields[i.field];
                let name = &self.prog.strukt(f.strukt).name;
                format!("{name}: {} = &{}", f.name, i.member)
            })
            .collect();
        LazyResult {
            verdict,
            refinements: self.refinements.clone(),
            abstraction,
            owned,
            inner,
            tracked: self
                .tracked
                .iter()
                .map(|x| crate::techniques::seed000::shape::vocab::qualified_name(self.prog, *x))
                .collect(),
            slots: crate::techniques::seed000::shape::slots::Slots::new(self.prog, &self.refs)
                .bases()
                .filter(|(x, _)| !self.prog.var(*x).name.starts_with("__"))
                .map(|(x, t)| {
                    let name = crate::techniques::seed000::shape::vocab::qualified_name;
                    format!("{} (into {})", name(self.prog, x), self.prog.strukt(t).name)
                })
                .collect(),
            shapes_text: proof.as_ref().map(|p| p.text.clone()).unwrap_or_default(),
            shapes_dot: proof.as_ref().map(|p| p.dot.clone()).unwrap_or_default(),
            shapes_svg: proof.as_ref().map(|p| p.svg.clone()).unwrap_or_default(),
            invariants: proof.map(|p| p.invariants).unwrap_or_default(),
            rounds: self.rounds,
            seconds: self.start.elapsed().as_secs_f64(),
        }
    }

    /// The pointers tracked for struct `s`: to it or to a struct embedding it, and the
    /// addresses of its variables and of its embedding structs' (cell variables).
    fn tracked_names(&self, s: StructId) -> BTreeSet<String> {
        let ours = |t: Option<StructId>| t.is_some_and(|t| self.shape_struct(t) == s);
        let name =
            |x: VarId| crate::techniques::seed000::shape::vocab::qualified_name(self.prog, x);
        let pointers = self
            .tracked
            .iter()
            .filter(|x| ours(self.type_of(**x)))
            .map(|x| name(*x));
        let cells = (0..self.prog.vars.len() as u32)
            .map(VarId)
            .filter(|x| match &self.prog.var(*x).ty {
                Type::Struct(t) => ours(Some(*t)),
                _ => false,
            })
            .map(|x| format!("&{}", name(x)));
        pointers.chain(cells).collect()
    }
}

/// The locations of `cfa` (or of its reverse) reachable from `from`.
fn reachable<G>(cfa: G, from: &[NodeIndex]) -> BTreeSet<NodeIndex>
where
    G: petgraph::visit::IntoNeighbors<NodeId = NodeIndex> + petgraph::visit::Visitable,
{
    let mut out = BTreeSet::new();
    let mut dfs = petgraph::visit::Dfs::empty(cfa);
    for n in from {
        dfs.move_to(*n);
        while let Some(m) = dfs.next(cfa) {
            out.insert(m);
        }
    }
    out
}

/// The bindings the samples of one type enable (SCGsFromExplicit).
fn enabled(domain: &dyn Domain, ts: &TypeSamples) -> Vec<Binding> {
    super::classify::classify(domain, ts)
        .enabled
        .into_iter()
        .map(|(b, _)| b)
        .collect()
}

/// A proof of the lazy shape analysis: the re-checked certificate's sizes and its shape
/// graphs (text, DOT and SVG).
pub struct Proof {
    /// The certificate's sizes.
    pub stats: CertificateStats,
    /// The shape graphs per location, as text.
    pub text: String,
    /// The same, as Graphviz DOT.
    pub dot: String,
    /// The same, drawn as SVG.
    pub svg: String,
    /// What the graphs at the loop heads say in C.
    pub invariants: Vec<crate::witness::correctness::LocatedInvariant>,
}

impl refine::Refinement for Lazy<'_> {
    type Proof = Proof;

    /// One ART round with the current abstraction; a complete ART is re-checked as a
    /// certificate before it is a proof.
    fn explore(&mut self, _: &Task) -> Exploration<Proof> {
        self.rounds += 1;
        let vocab = Vocab::new(self.prog, self.domain, &self.shape_types(), &self.tracked)
            .with_assertions(self.assertions.iter().map(|(a, r)| (a, Some(r))));
        if let Some(why) = address_taken(self.prog, &self.refs, &vocab) {
            return Exploration::Incomplete(why);
        }
        let cons = self.constraints(&vocab);
        let mut art = Art::new(self.prog, &vocab, &cons, self.checks);
        let bounds = Bounds {
            deadline: self.deadline(),
            ..Bounds::default()
        };
        match art.build(bounds) {
            Ending::Complete => match art.recheck() {
                Ok(stats) => Exploration::Proof(Proof {
                    stats,
                    text: art.dump_text(),
                    dot: art.dump_dot(),
                    svg: if self.cfg.pictures {
                        art.dump_svg()
                    } else {
                        String::new()
                    },
                    invariants: art.c_invariants(),
                }),
                Err(why) => {
                    Exploration::Incomplete(format!("the certificate does not re-check: {why}"))
                }
            },
            Ending::Incomplete(why) => Exploration::Incomplete(why.join("; ")),
            Ending::Error(path, err) => Exploration::Counterexample {
                path,
                end: err.end,
                message: err.message,
            },
        }
    }

    fn refine(
        &mut self,
        _: &Task,
        path: &[PathStep],
        core: &feasibility::Core,
    ) -> Result<(), String> {
        if self.refine(path, core) {
            Ok(())
        } else {
            Err(String::new())
        }
    }
}

/// The structs the program's code mentions: the struct (or a pointer or array of it) is the
/// type of some expression on some edge of a function other than the one initialising the
/// globals (which also zeroes the globals a C library's headers declare: `stdin`).
fn mentioned_structs(prog: &Program) -> BTreeSet<StructId> {
    fn base(ty: &Type) -> Option<StructId> {
        match ty {
            Type::Struct(s) => Some(*s),
            Type::Ptr(t) | Type::Array(t, _) => base(t),
            _ => None,
        }
    }
    let mut out = BTreeSet::new();
    prog.visit_exprs(&mut |f, y| {
        if f != prog.init {
            out.extend(base(&y.ty));
        }
    });
    out
}

/// Every SCG of every structure under every injective binding of its roles to `fields`.
pub fn all_scgs(spec: &Spec, fields: &[String]) -> BTreeSet<Scg> {
    let mut out = BTreeSet::new();
    for (i, st) in spec.structures.iter().enumerate() {
        let sid = shapecheck_dsl::ir::StructId(i);
        for b in super::classify::assignments(fields.len(), st.roles.len()) {
            let binding = Binding {
                structure: sid,
                fields: b.iter().map(|f| fields[*f].clone()).collect(),
            };
            for g in lattice::generators(spec, sid) {
                out.insert(Scg {
                    binding: binding.clone(),
                    generator: g,
                });
            }
        }
    }
    out
}

/// `a ⊑ b`: `a` refines `b` (has all of `b`'s predicates for every tracking definition).
fn finer_eq(spec: &Spec, a: &Scg, b: &Scg) -> bool {
    lattice::refines(
        spec,
        &a.generator,
        &a.binding.fields,
        &b.generator,
        &b.binding.fields,
    )
}

/// Predicates an SCG generates for the probe tracking definition (FineTune's cost).
fn size(spec: &Spec, s: &Scg) -> usize {
    lattice::shape_class(
        spec,
        &s.generator,
        &s.binding.fields,
        &lattice::probe_tracking(),
    )
    .size()
}

/// `dll[f=succ, b=pred] {cancellation}`.
pub fn describe_scg(spec: &Spec, s: &Scg) -> String {
    let st = &spec.structures[s.binding.structure.0];
    let roles: Vec<String> = st
        .roles
        .iter()
        .zip(&s.binding.fields)
        .map(|(r, f)| format!("{r}={f}"))
        .collect();
    let fams: Vec<&str> = s
        .generator
        .families
        .iter()
        .map(|f| st.families[*f].name.as_str())
        .collect();
    format!(
        "{}[{}] {{{}}} ({}/{} families)",
        st.name,
        roles.join(", "),
        fams.join(", "),
        fams.len(),
        st.families.len()
    )
}

/// Pairs of pointer variables connected by an assignment `a = b` (`*pp = b` when `pp` is a
/// reference parameter to `a`), a parameter passing or a return into a variable.
fn assignment_links(prog: &Program, refs: &RefParams) -> Vec<(VarId, VarId)> {
    let var = |e: &Expr| match &e.kind {
        ExprKind::Var(x) => Some(*x),
        ExprKind::Cast(inner) => match inner.kind {
            ExprKind::Var(x) => Some(x),
            _ => None,
        },
        _ => None,
    };
    let mut out = vec![];
    for f in &prog.functions {
        for e in f.cfa.edge_references() {
            match &*refs.rewrite(&e.weight().op) {
                Op::Assign { lhs, rhs } => {
                    if let (Some(a), Some(b)) = (var(lhs), var(rhs)) {
                        out.push((a, b));
                    }
                }
                Op::Call {
                    lhs,
                    callee: Callee::Func(g),
                    args,
                } => {
                    let callee = prog.func(*g);
                    for (p, a) in callee.params.iter().zip(args) {
                        if let Some(b) = var(a) {
                            out.push((*p, b));
                        }
                    }
                    if let Some(l) = lhs.as_ref().and_then(var) {
                        for ce in callee.cfa.edge_references() {
                            if let Op::Return(Some(r)) = &ce.weight().op
                                && let Some(b) = var(r)
                            {
                                out.push((l, b));
                            }
                        }
                    }
                }
                _ => {}
            }
        }
    }
    out
}
