//! The program as a transition system over the reachability logic: cut points, the paths
//! between them, and their transition formulas by the wlp rules of Table 5.
//!
//! Consumes the inlined program ([`Flat`]); produces a [`System`]: the list struct and its
//! pointer fields, the pointer variables (the vocabulary), the cut points (the entry and every
//! loop head) with the variables live there, and the loop-free paths between cut points.
//! [`System::explore`] executes the paths from a cut point symbolically over one copy of the
//! vocabulary and returns each path's transition (EA^R: the side conditions introduce fresh
//! nodes for loads and allocations and fresh relations for stores, each defined by a
//! universal formula, so the transition occurs only positively in a query) and every fault
//! a path may meet (null or dangling dereference, invalid free, error call) together with the
//! ways of leaving the logic (a store closing a cycle or sharing a tree node, a load from a
//! node whose path does not end in `null`, a tree link of a node from `malloc` read or left
//! unwritten), which make the engine give up rather than answer.
//!
//! The semantics follow Table 5 with the paper's lowering of a store into store-null then
//! store; `malloc` returns a fresh unallocated node (or `null` when allocation may fail).
//! Along tree backbones unallocated nodes have `null` children (an axiom; `free` cuts them).
//! A call left in the graph goes through the callee's contract ([`Summary`]): its
//! precondition checked, then the heap and the globals it writes havocked but for its
//! postcondition.
//! Integer variables and data fields are not tracked: their conditions are nondeterministic.

use super::contract::Summary;
use super::epr::{self, Rel, Voc, app1, app2, forall};
use super::logic::{Formula, Names};
use crate::program::ir::{Builtin, Callee, Expr, ExprKind, Op, StructId, Type, VarId};
use crate::program::property::{Property, PropertySet};
use crate::techniques::seed002::flat::Flat;
use std::collections::{BTreeMap, BTreeSet};
use z3::FuncDecl;
use z3::ast::{Bool, Dynamic};

/// The most paths leaving one cut point.
const MAX_PATHS: usize = 2_000;

/// What a path may do wrong.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Fault {
    /// A dereference of `null` or of a node not allocated (valid-deref).
    Deref,
    /// `free` of a node not allocated (valid-free).
    Free,
    /// An error call (unreach-call).
    Error,
    /// A store that closes a cycle: the logic covers acyclic lists only.
    Cycle,
    /// A store along a tree backbone that gives a node a second parent or closes a cycle:
    /// the logic covers forests only.
    Shared,
    /// A load from a node whose path does not end in `null` (uninitialised link), or a
    /// store into such a link along a tree backbone (its old child is unknown).
    Unterminated,
    /// A load of a backbone field of a node from `malloc` before the path stores into it,
    /// or the end of a path with such a field still unwritten (the logic gives the fresh
    /// node `null` children; the real node holds garbage until the program writes them).
    Unwritten,
    /// An allocated node that no variable in scope reaches any more (valid-memtrack).
    Leak,
    /// A return from the function that breaks its contract's postcondition.
    Postcondition,
    /// A call, through the callee's contract, that may break the callee's precondition.
    Precondition,
}

impl Fault {
    /// Whether reaching it is a violation (rather than leaving the logic).
    pub fn is_violation(self) -> bool {
        !matches!(
            self,
            Fault::Cycle
                | Fault::Shared
                | Fault::Unterminated
                | Fault::Unwritten
                | Fault::Precondition
        )
    }

    /// What it is, for reports.
    pub fn describe(self) -> &'static str {
        match self {
            Fault::Deref => "a dereference of null or of unallocated memory",
            Fault::Free => "a free of unallocated memory",
            Fault::Error => "a call of the error function",
            Fault::Leak => "allocated memory that no variable reaches any more (a leak)",
            Fault::Postcondition => "a return that breaks the contract's postcondition",
            Fault::Precondition => {
                "a call that may break the precondition of the callee's contract (which \
                 stands for the callee)"
            }
            Fault::Cycle => "a store that makes a list cyclic (outside the logic)",
            Fault::Shared => {
                "a store that gives a tree node a second parent or closes a cycle (outside the \
                 logic)"
            }
            Fault::Unterminated => {
                "a load through a link, or a store into one along a tree backbone, that does \
                 not end in null (outside the logic)"
            }
            Fault::Unwritten => {
                "a tree link of a node from malloc read, or left unwritten where the path \
                 ends, before the program stores into it (outside the logic)"
            }
        }
    }
}

/// A fault one path from a cut point may meet.
#[derive(Clone, Debug)]
pub struct Bad {
    /// Which fault.
    pub fault: Fault,
    /// The source line of the operation.
    pub line: u32,
    /// The condition on the cut point's state (with the path's fresh symbols).
    pub cond: Bool,
    /// What exactly breaks, when the fault alone does not say (the postcondition's
    /// conjunct); empty otherwise.
    pub what: String,
}

impl Bad {
    /// The fault, and what breaks, for reports.
    pub fn describe(&self) -> String {
        match self.what.as_str() {
            "" => self.fault.describe().to_string(),
            what => format!("{} ({what})", self.fault.describe()),
        }
    }
}

/// A path from a cut point to a cut point, executed over one copy of the vocabulary.
#[derive(Clone, Debug)]
pub struct Leaf {
    /// The target cut point.
    pub to: usize,
    /// The state at the end of the path (with the path's side conditions).
    pub end: Sym,
}

impl Leaf {
    /// The transition formula to the copy `post` of the vocabulary.
    pub fn transition(&self, post: &Voc) -> Bool {
        let mut out = self.end.cons.clone();
        out.extend(self.end.link(post));
        Bool::and(&out)
    }

    /// The variables and the fields the path may change, starting from `pre` (the copy of
    /// the vocabulary it was explored from): those whose symbol at the end is not `pre`'s.
    pub fn changes(&self, pre: &Voc) -> (BTreeSet<usize>, BTreeSet<usize>) {
        let vars = (self.end.vars.iter().zip(&pre.vars).enumerate())
            .filter(|(_, (a, b))| a != b)
            .map(|(i, _)| i)
            .collect();
        let fields = (self.end.reach.iter().zip(&pre.reach).enumerate())
            .filter(|(_, (a, b))| !std::rc::Rc::ptr_eq(a, b))
            .map(|(i, _)| i)
            .collect();
        (vars, fields)
    }
}

/// The symbolic state along a path: the current node of each variable, the current
/// relations, and the side conditions so far.
#[derive(Clone, Debug)]
pub struct Sym {
    vars: Vec<Dynamic>,
    reach: Vec<Rel>,
    alloc: Rel,
    dle: Option<Rel>,
    null: Dynamic,
    cons: Vec<Bool>,
    /// The results of this path's calls of `malloc` (a fresh node, or `null` when it
    /// fails), each with the backbone fields the path has not written yet (`null` in the
    /// logic, garbage in the program).
    unwritten: Vec<(Dynamic, Vec<usize>)>,
}

impl Sym {
    fn new(v: &Voc) -> Sym {
        Sym {
            vars: v.vars.clone(),
            reach: v.reach.clone(),
            alloc: v.alloc.clone(),
            dle: v.dle.clone(),
            null: v.null.clone(),
            cons: vec![],
            unwritten: vec![],
        }
    }

    /// Equates `post` with this state.
    fn link(&self, post: &Voc) -> Vec<Bool> {
        let mut out: Vec<Bool> = (self.vars.iter().zip(&post.vars))
            .map(|(a, b)| b.eq(a))
            .collect();
        let (a, b) = (epr::constant("a"), epr::constant("b"));
        for (r, p) in self.reach.iter().zip(&post.reach) {
            out.push(forall(&[&a, &b], &app2(p, &a, &b).iff(app2(r, &a, &b))));
        }
        out.push(forall(
            &[&a],
            &app1(&post.alloc, &a).iff(app1(&self.alloc, &a)),
        ));
        if let (Some(d), Some(p)) = (&self.dle, &post.dle) {
            out.push(forall(&[&a, &b], &app2(p, &a, &b).iff(app2(d, &a, &b))));
        }
        out
    }

    fn guard(&self) -> Bool {
        Bool::and(&self.cons)
    }

    /// `E_f(y, a)` in the current relation.
    fn edge(&self, f: usize, y: &Dynamic, a: &Dynamic) -> Bool {
        let r = &self.reach[f];
        let g = epr::constant("g");
        let plus = |x: &Dynamic, z: &Dynamic| Bool::and(&[app2(r, x, z), x.eq(z).not()]);
        Bool::and(&[
            plus(y, a),
            forall(&[&g], &plus(y, &g).implies(app2(r, a, &g))),
        ])
    }

    /// Replaces relation `f` by a fresh one defined by `body`.
    fn redefine(&mut self, f: usize, body: impl Fn(&FuncDecl, &Dynamic, &Dynamic) -> Bool) {
        let old = self.reach[f].clone();
        let new = epr::relation(&format!("R{f}"));
        let (a, b) = (epr::constant("a"), epr::constant("b"));
        self.cons.push(forall(
            &[&a, &b],
            &app2(&new, &a, &b).iff(body(&old, &a, &b)),
        ));
        self.reach[f] = new;
    }

    fn set_alloc(&mut self, body: impl Fn(&FuncDecl, &Dynamic) -> Bool) {
        let old = self.alloc.clone();
        let new = epr::set("alloc");
        let a = epr::constant("a");
        self.cons
            .push(forall(&[&a], &app1(&new, &a).iff(body(&old, &a))));
        self.alloc = new;
    }

    /// The data of `x` becomes unknown: a fresh order that agrees with the old one away
    /// from `x` (and is again a total preorder).
    fn havoc_data(&mut self, x: &Dynamic) {
        let Some(old) = self.dle.clone() else { return };
        let new = epr::relation("dle");
        let (a, b) = (epr::constant("a"), epr::constant("b"));
        let away = Bool::and(&[a.eq(x).not(), b.eq(x).not()]);
        self.cons.push(forall(
            &[&a, &b],
            &away.implies(app2(&new, &a, &b).iff(app2(&old, &a, &b))),
        ));
        let c = epr::constant("c");
        self.cons.push(forall(
            &[&a, &b],
            &Bool::or(&[app2(&new, &a, &b), app2(&new, &b, &a)]),
        ));
        self.cons.push(forall(
            &[&a, &b, &c],
            &Bool::and(&[app2(&new, &a, &b), app2(&new, &b, &c)]).implies(app2(&new, &a, &c)),
        ));
        self.dle = Some(new);
    }
}

/// The program as a transition system.
pub struct System {
    /// The inlined program.
    pub flat: Flat,
    /// The list struct.
    pub strukt: StructId,
    /// Its pointer fields (to the struct itself), by name.
    pub fields: Vec<String>,
    /// The tree backbones a contract declares: a name and the member fields; backbone `j`
    /// is relation `fields.len() + j` of the logic.
    pub backbones: Vec<(String, Vec<usize>)>,
    /// The names of the relations: the fields', then the backbones'.
    pub relations: Vec<String>,
    /// The pointer variables, in vocabulary order.
    pub vars: Vec<VarId>,
    /// Their names.
    pub names: Vec<String>,
    /// The cut points (flat nodes); the first is the entry.
    pub cuts: Vec<usize>,
    /// The vocabulary variables live at each cut point (one of each class of variables equal
    /// there on every path).
    pub live: Vec<Vec<usize>>,
    /// The other live variables of those classes, each with the one that stands for it.
    pub aliases: Vec<Vec<(usize, usize)>>,
    /// The integer field whose values `dle` orders (the one field compared between nodes).
    pub data_field: Option<String>,
    /// The initial states, when not the empty heap: a contract's precondition.
    pub pre: Option<Formula>,
    /// The condition every return must meet: a contract's postcondition.
    pub post: Option<Formula>,
    /// The contracts that stand for the calls left in the graph (assume–guarantee).
    pub summaries: BTreeMap<crate::program::ir::FuncId, Summary>,
    /// The spec's predicate families: what a contract's family instance means, and what PDR
    /// instantiates.
    pub families: Vec<shapecheck_dsl::ir::PredFamily>,
    index: BTreeMap<VarId, usize>,
    cut_of: BTreeMap<usize, usize>,
    props: PropertySet,
}

/// Whether control goes on after an operation.
enum Flow {
    Go,
    /// The path ends (an error call).
    Stop,
    /// The program ends (`abort`, `exit`).
    Halt,
}

impl System {
    /// The transition system of `flat`, or the construct it cannot express.
    pub fn new(flat: Flat, props: &PropertySet, data: bool) -> Result<System, String> {
        let strukt = list_struct(&flat)?;
        let def = &flat.prog.structs[strukt.0 as usize];
        if def.is_union {
            return Err(format!("`{}` is a union", def.name));
        }
        let fields: Vec<String> = (def.fields.iter())
            .filter(|f| is_node_ptr(&f.ty, strukt))
            .map(|f| f.name.clone())
            .collect();
        if fields.is_empty() {
            return Err(format!("`{}` has no pointer field to itself", def.name));
        }
        let vars: Vec<VarId> = (used_vars(&flat).into_iter())
            .filter(|v| holds_node(&flat.prog.vars[v.0 as usize].ty, strukt))
            .collect();
        let names = unique_names(&flat, &vars);
        let index: BTreeMap<VarId, usize> = vars.iter().enumerate().map(|(i, v)| (*v, i)).collect();
        let mut cuts = vec![flat.entry];
        cuts.extend(flat.loops.keys().copied().filter(|h| *h != flat.entry));
        let cut_of = cuts.iter().enumerate().map(|(i, n)| (*n, i)).collect();
        let liveness = flat.liveness();
        let equal = must_equal(&flat, &index);
        let mut live = vec![];
        let mut aliases = vec![];
        for c in &cuts {
            let vs: Vec<usize> = (liveness[*c].iter())
                .filter_map(|v| index.get(v).copied())
                .collect();
            // Of variables equal on every path, one stands for all in the predicates, and an
            // equality predicate keeps each of the others tied to it.
            let rep = |v: usize| {
                vs.iter()
                    .copied()
                    .find(|&u| u < v && equal[*c].contains(&(u, v)))
            };
            live.push(vs.iter().copied().filter(|&v| rep(v).is_none()).collect());
            aliases.push(vs.iter().filter_map(|&v| rep(v).map(|u| (u, v))).collect());
        }
        let data_field = compared_field(&flat);
        let sys = System {
            flat,
            strukt,
            relations: fields.clone(),
            fields,
            backbones: vec![],
            vars,
            names,
            cuts,
            live,
            aliases,
            data_field: if data { data_field } else { None },
            pre: None,
            post: None,
            summaries: BTreeMap::new(),
            families: vec![],
            index,
            cut_of,
            props: props.clone(),
        };
        sys.check_supported()?;
        Ok(sys)
    }

    /// Declares tree backbones, each a name and the names of its member fields.
    pub fn set_backbones(&mut self, decls: &[(String, Vec<String>)]) -> Result<(), String> {
        self.backbones.clear();
        for (name, members) in decls {
            let fs = (members.iter())
                .map(|m| {
                    self.field_index(m).ok_or_else(|| {
                        format!(
                            "the backbone `{name}` names `{m}`, not a pointer field of the \
                             list struct (its fields: {})",
                            self.fields.join(", ")
                        )
                    })
                })
                .collect::<Result<Vec<_>, _>>()?;
            self.backbones.push((name.clone(), fs));
        }
        self.relations = (self.fields.iter())
            .chain(self.backbones.iter().map(|(n, _)| n))
            .cloned()
            .collect();
        Ok(())
    }

    /// The vocabulary index of a program variable, if it is a pointer variable of the logic.
    pub fn index_of(&self, v: VarId) -> Option<usize> {
        self.index.get(&v).copied()
    }

    /// The initial states over `v`: the precondition, or else nothing allocated.
    pub fn initial(&self, v: &Voc) -> Bool {
        match &self.pre {
            Some(pre) => v.encode(pre),
            None => {
                let a = epr::constant("a");
                forall(&[&a], &app1(&v.alloc, &a).not())
            }
        }
    }

    /// A fresh copy of the vocabulary.
    pub fn voc(&self, tag: &str, null: &Dynamic) -> Voc {
        let members: Vec<Vec<usize>> = self.backbones.iter().map(|(_, m)| m.clone()).collect();
        Voc::fresh(
            tag,
            &self.names,
            self.fields.len(),
            &members,
            self.data_field.is_some(),
            null,
        )
    }

    /// Every path from cut point `c` over the copy `pre`: the ones that reach a cut point,
    /// and the faults met on the way.
    pub fn explore(&self, c: usize, pre: &Voc) -> Result<(Vec<Leaf>, Vec<Bad>), String> {
        let mut leaves = vec![];
        let mut bads = vec![];
        let start = self.cuts[c];
        let mut stack: Vec<(usize, Sym)> = vec![(start, Sym::new(pre))];
        let mut paths = 0usize;
        while let Some((node, st)) = stack.pop() {
            if self.flat.out[node].is_empty() {
                // The end of the program: only the globals remain.
                self.leak(&st, node, self.line_of(node), &mut bads);
                self.unwritten(&st, self.line_of(node), &mut bads);
                if node == self.flat.exit {
                    self.postcondition(&st, &mut bads);
                }
            }
            for &e in &self.flat.out[node] {
                let edge = &self.flat.edges[e];
                let mut st = st.clone();
                let flow = self.op(&mut st, &edge.op, edge.line, &mut bads)?;
                match flow {
                    Flow::Go => {}
                    Flow::Stop => continue,
                    Flow::Halt => {
                        // `abort` and `exit` end the run with every variable in scope.
                        self.leak(&st, node, edge.line, &mut bads);
                        continue;
                    }
                }
                paths += 1;
                if paths > MAX_PATHS {
                    return Err(format!(
                        "more than {MAX_PATHS} paths leave the loop head at line {}",
                        self.line_of(start)
                    ));
                }
                match self.cut_of.get(&edge.to) {
                    Some(&to) => {
                        self.leak(&st, edge.to, edge.line, &mut bads);
                        self.unwritten(&st, edge.line, &mut bads);
                        leaves.push(Leaf { to, end: st });
                    }
                    None => stack.push((edge.to, st)),
                }
            }
        }
        Ok((leaves, bads))
    }

    /// At the exit: a fault when the state breaks the postcondition, if there is one.
    fn postcondition(&self, st: &Sym, bads: &mut Vec<Bad>) {
        let Some(post) = &self.post else { return };
        let now = self.view(st, st.vars.clone());
        let names = Names {
            vars: &self.names,
            fields: &self.relations,
        };
        for conjunct in post.conjuncts() {
            bads.push(Bad {
                fault: Fault::Postcondition,
                line: self.line_of(self.flat.exit),
                cond: Bool::and(&[st.guard(), now.encode(conjunct).not()]),
                what: format!("`{}`", names.formula(conjunct)),
            });
        }
    }

    /// The valid-memtrack check at `node` (the end of a path): a fault when an allocated node
    /// is reached from no variable in scope there by a chain of allocated nodes along one
    /// field. Leaks are checked where paths end (cut points, `abort`, `exit`, the end of the
    /// program) only: a lost node stays allocated and unreachable, since only reachable
    /// nodes can be freed or linked again. Chains mixing fields are not followed, so the
    /// check may report a node that is reachable (the engine then fails to prove, soundly).
    fn leak(&self, st: &Sym, node: usize, line: u32, bads: &mut Vec<Bad>) {
        if !self.props.0.contains(&Property::ValidMemtrack) {
            return;
        }
        let u = epr::constant("lost");
        let mut lost = vec![u.eq(&st.null).not(), app1(&st.alloc, &u)];
        for (i, &v) in self.vars.iter().enumerate() {
            if !self.flat.in_scope(v, node) {
                continue;
            }
            for r in &st.reach {
                // No chain of allocated nodes from the variable to `u`: either no chain, or
                // one through a node `w` (the variable's own, perhaps) not allocated.
                let w = epr::constant("via");
                let x = &st.vars[i];
                lost.push(Bool::or(&[
                    app2(r, x, &u).not(),
                    Bool::and(&[
                        app2(r, x, &w),
                        app2(r, &w, &u),
                        w.eq(&u).not(),
                        app1(&st.alloc, &w).not(),
                    ]),
                ]));
            }
        }
        bads.push(Bad {
            fault: Fault::Leak,
            line,
            cond: Bool::and(&[st.guard(), Bool::and(&lost)]),
            what: String::new(),
        });
    }

    /// The state `st` seen through the slots `vars` (its variables, or a contract's
    /// bindings), for encoding a contract's formulas.
    fn view(&self, st: &Sym, vars: Vec<Dynamic>) -> Voc {
        Voc {
            vars,
            null: st.null.clone(),
            reach: st.reach.clone(),
            alloc: st.alloc.clone(),
            dle: st.dle.clone(),
            backbones: self.backbones.iter().map(|(_, m)| m.clone()).collect(),
        }
    }

    /// At the end of a path: a fault for each node the path took from `malloc` that is
    /// still allocated with a backbone field not yet written.
    fn unwritten(&self, st: &Sym, line: u32, bads: &mut Vec<Bad>) {
        for (a, fs) in st.unwritten.iter().filter(|(_, fs)| !fs.is_empty()) {
            let names: Vec<&str> = fs.iter().map(|&f| self.fields[f].as_str()).collect();
            bads.push(Bad {
                fault: Fault::Unwritten,
                line,
                cond: Bool::and(&[st.guard(), app1(&st.alloc, a)]),
                what: format!("`{}` unwritten", names.join("`, `")),
            });
        }
    }

    /// The backbone fields: the pointer fields some backbone has as a member.
    fn backbone_fields(&self) -> Vec<usize> {
        let fs: BTreeSet<usize> = (self.backbones.iter())
            .flat_map(|(_, m)| m.iter().copied())
            .collect();
        fs.into_iter().collect()
    }

    /// The source line of a flat node (of an edge leaving it).
    pub fn line_of(&self, node: usize) -> u32 {
        (self.flat.out[node].first())
            .or(self.flat.inc[node].first())
            .map_or(0, |&e| self.flat.edges[e].line)
    }

    fn check_supported(&self) -> Result<(), String> {
        for e in &self.flat.edges {
            self.supported(&e.op)
                .map_err(|what| format!("{what} at line {}", e.line))?;
        }
        Ok(())
    }

    fn supported(&self, op: &Op) -> Result<(), String> {
        let mut exprs: Vec<&Expr> = vec![];
        match op {
            Op::Skip | Op::Return(None) => {}
            Op::Havoc(v) => self.scalar_var(*v)?,
            Op::Assign { lhs, rhs } => {
                self.lvalue(lhs)?;
                exprs.push(rhs);
            }
            Op::Assume { cond, .. } => exprs.push(cond),
            Op::Return(Some(e)) => exprs.push(e),
            Op::Call {
                lhs,
                callee: Callee::Builtin(b),
                args,
            } => {
                match b {
                    Builtin::Nondet | Builtin::Assume | Builtin::Error(_) => {}
                    Builtin::Abort | Builtin::Exit => {}
                    Builtin::Alloc(_) | Builtin::Free => {}
                    other => return Err(format!("the library call {other:?}")),
                }
                if let Some(l) = lhs {
                    self.lvalue(l)?;
                    if matches!(b, Builtin::Nondet) && l.ty.pointee().is_some() {
                        return Err("a nondeterministic pointer".into());
                    }
                }
                exprs.extend(args);
            }
            // Left by the graph for a contract to stand for (see `Ctx::call`).
            Op::Call {
                lhs,
                callee: Callee::Func(_),
                args,
            } => {
                if let Some(l) = lhs {
                    self.lvalue(l)?;
                }
                exprs.extend(args);
            }
            Op::CallPtr { .. } => return Err("a call left after inlining".into()),
            Op::Unsupported(what) => return Err(what.clone()),
        }
        exprs.into_iter().try_for_each(|e| self.rvalue(e))
    }

    fn scalar_var(&self, v: VarId) -> Result<(), String> {
        let info = &self.flat.prog.vars[v.0 as usize];
        match &info.ty {
            Type::Int(_) => Ok(()),
            t if holds_node(t, self.strukt) => Ok(()),
            _ => Err(format!(
                "the variable `{}` of a type outside the logic",
                info.name
            )),
        }
    }

    fn lvalue(&self, e: &Expr) -> Result<(), String> {
        match &e.kind {
            ExprKind::Var(v) => self.scalar_var(*v),
            ExprKind::Field(base, _, name) => match &base.kind {
                ExprKind::Deref(p) => {
                    self.rvalue(p)?;
                    self.field_ok(name, &e.ty)
                }
                _ => Err("a struct held in a variable".into()),
            },
            _ => Err("a store through a pointer that is not a list node".into()),
        }
    }

    fn field_ok(&self, name: &str, ty: &Type) -> Result<(), String> {
        if matches!(ty, Type::Int(_)) || self.fields.iter().any(|f| f == name) {
            Ok(())
        } else {
            Err(format!("the field `{name}` of a type outside the logic"))
        }
    }

    fn rvalue(&self, e: &Expr) -> Result<(), String> {
        match &e.kind {
            ExprKind::Const(_) => {
                if e.ty.pointee().is_some() && !e.is_null_constant() {
                    Err("an absolute address".into())
                } else {
                    Ok(())
                }
            }
            ExprKind::Var(v) => self.scalar_var(*v),
            ExprKind::Field(..) => self.lvalue(e),
            ExprKind::Unary(_, a) => self.rvalue(a),
            ExprKind::Binary(_, a, b) | ExprKind::Cmp(_, a, b) => {
                self.rvalue(a)?;
                self.rvalue(b)
            }
            ExprKind::Cast(a) => {
                let ok = |t: &Type| is_node_ptr(t, self.strukt) || t.pointee() == Some(&Type::Void);
                let pointer = e.ty.pointee().is_some() || a.ty.pointee().is_some();
                if pointer && !a.is_null_constant() && !(ok(&e.ty) && ok(&a.ty)) {
                    return Err("a pointer cast".into());
                }
                self.rvalue(a)
            }
            ExprKind::Deref(_) => Err("a dereference of a whole struct".into()),
            ExprKind::AddrOf(_) => Err("the address of a variable or field".into()),
            ExprKind::PtrAdd(..) | ExprKind::PtrDiff(..) => Err("pointer arithmetic".into()),
            ExprKind::BitField(..) => Err("a bit-field".into()),
            ExprKind::FuncAddr(_) => Err("a function pointer".into()),
            ExprKind::Str(_) => Err("a string literal".into()),
        }
    }

    fn field_index(&self, name: &str) -> Option<usize> {
        self.fields.iter().position(|f| f == name)
    }

    /// Executes one operation; faults go to `bads`.
    fn op(&self, st: &mut Sym, op: &Op, line: u32, bads: &mut Vec<Bad>) -> Result<Flow, String> {
        let mut ctx = Ctx {
            sys: self,
            line,
            bads,
        };
        match op {
            Op::Skip | Op::Return(_) => {}
            Op::Havoc(v) => {
                if let Some(&i) = self.index.get(v) {
                    st.vars[i] = epr::constant(&self.names[i]);
                }
            }
            Op::Assign { lhs, rhs } => ctx.assign(st, lhs, rhs)?,
            Op::Assume { cond, positive } => {
                if let Some(b) = ctx.cond(st, cond)? {
                    st.cons.push(if *positive { b } else { b.not() });
                }
            }
            Op::Call {
                lhs,
                callee: Callee::Builtin(b),
                args,
            } => return ctx.builtin(st, *b, lhs.as_ref(), args),
            Op::Call {
                lhs,
                callee: Callee::Func(g),
                args,
            } => ctx.call(st, *g, lhs.as_ref(), args)?,
            _ => return Err("an operation outside the logic".into()),
        }
        Ok(Flow::Go)
    }
}

/// The execution of one operation.
struct Ctx<'a> {
    sys: &'a System,
    line: u32,
    bads: &'a mut Vec<Bad>,
}

impl Ctx<'_> {
    fn fault(&mut self, st: &Sym, fault: Fault, cond: Bool) {
        if fault == Fault::Error && !self.sys.props.0.contains(&Property::UnreachCall) {
            return;
        }
        self.bads.push(Bad {
            fault,
            line: self.line,
            cond: Bool::and(&[st.guard(), cond]),
            what: String::new(),
        });
    }

    /// Checks that `x` may be dereferenced.
    fn deref(&mut self, st: &Sym, x: &Dynamic) {
        let bad = Bool::or(&[x.eq(&st.null), app1(&st.alloc, x).not()]);
        self.fault(st, Fault::Deref, bad);
    }

    /// The node a pointer expression denotes (loads go through fresh nodes).
    fn ptr(&mut self, st: &mut Sym, e: &Expr) -> Result<Dynamic, String> {
        match &e.kind {
            _ if e.is_null_constant() => Ok(st.null.clone()),
            ExprKind::Var(v) => (self.sys.index.get(v))
                .map(|&i| st.vars[i].clone())
                .ok_or_else(|| "a pointer variable outside the logic".into()),
            ExprKind::Cast(a) => self.ptr(st, a),
            ExprKind::Field(base, _, name) => {
                let ExprKind::Deref(p) = &base.kind else {
                    return Err("a struct held in a variable".into());
                };
                let f = (self.sys.field_index(name)).ok_or("a pointer field outside the logic")?;
                let y = self.ptr(st, p)?;
                self.deref(st, &y);
                let ends = app2(&st.reach[f], &y, &st.null);
                let live = Bool::and(&[y.eq(&st.null).not(), app1(&st.alloc, &y)]);
                self.fault(st, Fault::Unterminated, Bool::and(&[live, ends.not()]));
                let fresh: Vec<Bool> = (st.unwritten.iter())
                    .filter(|(_, fs)| fs.contains(&f))
                    .map(|(a, _)| Bool::and(&[y.eq(a), a.eq(&st.null).not()]))
                    .collect();
                if !fresh.is_empty() {
                    self.fault(st, Fault::Unwritten, Bool::or(&fresh));
                }
                let a = epr::constant("ld");
                st.cons.push(st.edge(f, &y, &a));
                Ok(a)
            }
            _ => Err("a pointer expression outside the logic".into()),
        }
    }

    /// Checks the dereferences an integer expression makes.
    fn reads(&mut self, st: &mut Sym, e: &Expr) -> Result<(), String> {
        match &e.kind {
            ExprKind::Field(base, _, name) => {
                if let ExprKind::Deref(p) = &base.kind {
                    if self.sys.field_index(name).is_some() {
                        self.ptr(st, e)?;
                    } else {
                        let x = self.ptr(st, p)?;
                        self.deref(st, &x);
                    }
                }
                Ok(())
            }
            _ if e.ty.pointee().is_some() => self.ptr(st, e).map(|_| ()),
            ExprKind::Unary(_, a) | ExprKind::Cast(a) => self.reads(st, a),
            ExprKind::Binary(_, a, b) | ExprKind::Cmp(_, a, b) => {
                self.reads(st, a)?;
                self.reads(st, b)
            }
            _ => Ok(()),
        }
    }

    /// The condition `cond != 0` when it is a pointer comparison or a data comparison the
    /// logic tracks; `None` for conditions on untracked integers.
    fn cond(&mut self, st: &mut Sym, cond: &Expr) -> Result<Option<Bool>, String> {
        use crate::program::ir::CmpOp;
        match &cond.kind {
            ExprKind::Cmp(op, a, b) if a.ty.pointee().is_some() => {
                let (x, y) = (self.ptr(st, a)?, self.ptr(st, b)?);
                Ok(match op {
                    CmpOp::Eq => Some(x.eq(&y)),
                    CmpOp::Ne => Some(x.eq(&y).not()),
                    _ => None,
                })
            }
            ExprKind::Cmp(op, a, b) if st.dle.is_some() => {
                let (x, y) = (self.data_of(st, a)?, self.data_of(st, b)?);
                let (Some(x), Some(y)) = (x, y) else {
                    return Ok(None);
                };
                let d = st.dle.clone().ok_or("no data order")?;
                let le = |p: &Dynamic, q: &Dynamic| app2(&d, p, q);
                Ok(match op {
                    CmpOp::Le => Some(le(&x, &y)),
                    CmpOp::Ge => Some(le(&y, &x)),
                    CmpOp::Lt => Some(le(&y, &x).not()),
                    CmpOp::Gt => Some(le(&x, &y).not()),
                    CmpOp::Eq => Some(Bool::and(&[le(&x, &y), le(&y, &x)])),
                    CmpOp::Ne => Some(Bool::and(&[le(&x, &y), le(&y, &x)]).not()),
                })
            }
            _ if cond.ty.pointee().is_some() => {
                let x = self.ptr(st, cond)?;
                Ok(Some(x.eq(&st.null).not()))
            }
            _ => {
                self.reads(st, cond)?;
                Ok(None)
            }
        }
    }

    /// For `p->d` with `d` an integer field: the node `p` (after its dereference check).
    fn data_of(&mut self, st: &mut Sym, e: &Expr) -> Result<Option<Dynamic>, String> {
        let inner = match &e.kind {
            ExprKind::Cast(a) => a,
            _ => e,
        };
        if let ExprKind::Field(base, _, name) = &inner.kind
            && let ExprKind::Deref(p) = &base.kind
            && self.sys.data_field.as_deref() == Some(name.as_str())
        {
            let x = self.ptr(st, p)?;
            self.deref(st, &x);
            return Ok(Some(x));
        }
        self.reads(st, e)?;
        Ok(None)
    }

    fn assign(&mut self, st: &mut Sym, lhs: &Expr, rhs: &Expr) -> Result<(), String> {
        match &lhs.kind {
            ExprKind::Var(v) => match self.sys.index.get(v) {
                Some(&i) => {
                    let t = self.ptr(st, rhs)?;
                    st.vars[i] = t;
                    Ok(())
                }
                None => self.reads(st, rhs),
            },
            ExprKind::Field(base, _, name) => {
                let ExprKind::Deref(p) = &base.kind else {
                    return Err("a struct held in a variable".into());
                };
                let x = self.ptr(st, p)?;
                match self.sys.field_index(name) {
                    Some(f) => {
                        let y = self.ptr(st, rhs)?;
                        self.deref(st, &x);
                        self.store(st, f, &x, &y);
                        for (_, fs) in st.unwritten.iter_mut().filter(|(a, _)| *a == x) {
                            fs.retain(|&g| g != f);
                        }
                    }
                    None => {
                        self.reads(st, rhs)?;
                        self.deref(st, &x);
                        if self.sys.data_field.as_deref() == Some(name.as_str()) {
                            st.havoc_data(&x);
                        }
                    }
                }
                Ok(())
            }
            _ => Err("a store outside the logic".into()),
        }
    }

    /// `x->f = y`, lowered to `x->f = null; x->f = y` (Table 5), with the backbones over
    /// `f` updated alongside.
    fn store(&mut self, st: &mut Sym, f: usize, x: &Dynamic, y: &Dynamic) {
        let trees: Vec<usize> = (self.sys.backbones.iter().enumerate())
            .filter(|(_, (_, m))| m.contains(&f))
            .map(|(j, _)| self.sys.fields.len() + j)
            .collect();
        let child = (!trees.is_empty()).then(|| self.old_child(st, f, x));
        if let Some(c) = &child {
            let null = st.null.clone();
            for &t in &trees {
                st.redefine(t, |r, a, b| cut(r, a, b, x, c, &null));
            }
        }
        self.store_field(st, f, x, y);
        if child.is_some() {
            for &t in &trees {
                self.graft(st, t, x, y);
            }
        }
    }

    /// The node `x->f` before a store into it along a backbone field (`null` when `x`'s
    /// path along `f` does not end, which the fault reported here leaves the logic for).
    fn old_child(&mut self, st: &mut Sym, f: usize, x: &Dynamic) -> Dynamic {
        let ends = app2(&st.reach[f], x, &st.null);
        let live = Bool::and(&[x.eq(&st.null).not(), app1(&st.alloc, x)]);
        self.fault(st, Fault::Unterminated, Bool::and(&[live, ends.not()]));
        let c = epr::constant("child");
        let known = Bool::and(&[x.eq(&st.null).not(), ends]);
        st.cons.push(known.ite(&st.edge(f, x, &c), &c.eq(&st.null)));
        c
    }

    /// A call of `g` through its contract: each precondition conjunct that names no ghost
    /// must hold (else the run leaves the logic), then the heap, the globals `g` may write
    /// and the assigned variable become arbitrary but for the postcondition, known of the
    /// ghost values that meet the rest of the precondition; the ghosts are instantiated with
    /// the caller's own ghosts and the pointer arguments (a sound, incomplete choice).
    fn call(
        &mut self,
        st: &mut Sym,
        g: crate::program::ir::FuncId,
        lhs: Option<&Expr>,
        args: &[Expr],
    ) -> Result<(), String> {
        let s = (self.sys.summaries.get(&g)).ok_or("a call left after inlining")?;
        let mut slots = vec![];
        let mut pointers = vec![];
        for a in args {
            if a.ty.pointee().is_some() {
                let x = self.ptr(st, a)?;
                pointers.push(x.clone());
                slots.push(x);
            } else {
                self.reads(st, a)?;
                slots.push(epr::constant("arg"));
            }
        }
        let global = |st: &Sym, v: &VarId| match self.sys.index.get(v) {
            Some(&i) => st.vars[i].clone(),
            None => epr::constant("global"),
        };
        slots.extend(s.globals.iter().map(|v| global(st, v)));
        self.sys.unwritten(st, self.line, self.bads);
        st.unwritten.clear();
        let pre = self.sys.view(st, slots.clone());
        for (req, text) in &s.requires {
            let holds = pre.encode(req);
            self.bads.push(Bad {
                fault: Fault::Precondition,
                line: self.line,
                cond: Bool::and(&[st.guard(), holds.not()]),
                what: format!("`{}` of `{}`", text, s.function),
            });
            st.cons.push(holds);
        }
        // The call: a fresh heap, fresh written globals, a fresh result.
        let after = self.sys.voc("call", &st.null);
        st.cons.extend(after.axioms());
        st.reach = after.reach.clone();
        st.alloc = after.alloc.clone();
        st.dle = after.dle.clone();
        for v in &s.writes {
            if let Some(&i) = self.sys.index.get(v) {
                st.vars[i] = epr::constant(&self.sys.names[i]);
            }
        }
        let result = epr::constant("result");
        if let Some(l) = lhs {
            match &l.kind {
                ExprKind::Var(v) => {
                    if let Some(&i) = self.sys.index.get(v) {
                        st.vars[i] = result.clone();
                    }
                }
                _ => return Err("a call's result stored outside a variable".into()),
            }
        }
        let exits: Vec<Dynamic> = s.globals.iter().map(|v| global(st, v)).collect();
        for ghosts in self.instances(st, s.ghosts, &pointers) {
            let mut at_entry = slots.clone();
            at_entry.extend(ghosts.iter().cloned());
            let mut at_exit = at_entry.clone();
            at_exit.extend(exits.iter().cloned());
            at_exit.push(result.clone());
            let given = Voc {
                vars: at_entry,
                ..pre.clone()
            }
            .encode(&s.given);
            let ensures = self.sys.view(st, at_exit).encode(&s.ensures);
            st.cons.push(given.implies(ensures));
        }
        Ok(())
    }

    /// The values a call's `n` ghosts are instantiated with: every choice among the
    /// caller's own ghosts and the pointer arguments (at most 64 choices; none when there
    /// are no ghosts but the one empty choice).
    fn instances(&self, st: &Sym, n: usize, pointers: &[Dynamic]) -> Vec<Vec<Dynamic>> {
        let mut terms: Vec<Dynamic> = pointers.to_vec();
        for (i, v) in self.sys.vars.iter().enumerate() {
            if self.sys.flat.prog.vars[v.0 as usize]
                .name
                .ends_with("#ghost")
            {
                terms.push(st.vars[i].clone());
            }
        }
        let mut out: Vec<Vec<Dynamic>> = vec![vec![]];
        for _ in 0..n {
            out = (out.iter())
                .flat_map(|pre| {
                    terms.iter().map(move |t| {
                        let mut p = pre.clone();
                        p.push(t.clone());
                        p
                    })
                })
                .take(64)
                .collect();
        }
        out
    }

    /// A freed node `a` gets `null` children along every backbone field (`members`), as
    /// the logic's axiom for unallocated nodes demands (their contents are undefined in C,
    /// and no path reads them without a dereference fault): each field's relation loses
    /// the pairs through `a`'s edge, and each backbone the pairs from at or above `a` to
    /// strictly below it (in a forest, exactly the paths through `a`'s children, so no old
    /// child is needed).
    fn detach(&mut self, st: &mut Sym, a: &Dynamic, members: &[usize]) {
        let null = st.null.clone();
        for &f in members {
            self.store_field(st, f, a, &null);
        }
        for j in 0..self.sys.backbones.len() {
            let t = self.sys.fields.len() + j;
            st.redefine(t, |r, p, q| {
                let through = Bool::and(&[app2(r, p, a), app2(r, a, q), q.eq(a).not()]);
                Bool::and(&[app2(r, p, q), through.not()])
            });
        }
    }

    /// The second half of a store `x->f = y` on backbone relation `t`: a fault when `y` has
    /// a parent or lies above `x` (the store would break the forest), and else the paths
    /// through the new edge.
    fn graft(&mut self, st: &mut Sym, t: usize, x: &Dynamic, y: &Dynamic) {
        let r = st.reach[t].clone();
        let some = y.eq(&st.null).not();
        let z = epr::constant("parent");
        let above = Bool::and(&[some.clone(), app2(&r, y, x)]);
        let parent = |z: &Dynamic| Bool::and(&[some.clone(), z.eq(y).not(), app2(&r, z, y)]);
        self.fault(st, Fault::Shared, Bool::or(&[above.clone(), parent(&z)]));
        st.cons.push(above.not());
        let w = epr::constant("w");
        st.cons.push(forall(&[&w], &parent(&w).not()));
        st.redefine(t, |r, a, b| {
            Bool::or(&[
                app2(r, a, b),
                Bool::and(&[some.clone(), app2(r, a, x), app2(r, y, b)]),
            ])
        });
    }

    /// The list-field part of `x->f = y`.
    fn store_field(&mut self, st: &mut Sym, f: usize, x: &Dynamic, y: &Dynamic) {
        sever(st, f, x);
        if *y != st.null {
            let cycle = Bool::and(&[y.eq(&st.null).not(), app2(&st.reach[f], y, x)]);
            self.fault(st, Fault::Cycle, cycle.clone());
            st.cons.push(cycle.not());
        }
        st.redefine(f, |r, a, b| {
            Bool::or(&[app2(r, a, b), Bool::and(&[app2(r, a, x), app2(r, y, b)])])
        });
    }

    fn builtin(
        &mut self,
        st: &mut Sym,
        b: Builtin,
        lhs: Option<&Expr>,
        args: &[Expr],
    ) -> Result<Flow, String> {
        match b {
            Builtin::Nondet => {}
            Builtin::Assume => {
                if let Some(c) = args.first()
                    && let Some(b) = self.cond(st, c)?
                {
                    st.cons.push(b);
                }
            }
            Builtin::Error(_) => {
                self.fault(st, Fault::Error, Bool::from_bool(true));
                return Ok(Flow::Stop);
            }
            Builtin::Abort | Builtin::Exit => return Ok(Flow::Halt),
            Builtin::Alloc(kind) => self.alloc(st, kind, lhs)?,
            Builtin::Free => {
                let x = self.ptr(st, args.first().ok_or("free without argument")?)?;
                let bad = Bool::and(&[x.eq(&st.null).not(), app1(&st.alloc, &x).not()]);
                self.fault(st, Fault::Free, bad);
                let members = self.sys.backbone_fields();
                if !members.is_empty() {
                    self.detach(st, &x, &members);
                }
                st.set_alloc(|old, a| Bool::and(&[app1(old, a), a.eq(&x).not()]));
            }
            _ => return Err("a library call outside the logic".into()),
        }
        Ok(Flow::Go)
    }

    fn alloc(
        &mut self,
        st: &mut Sym,
        kind: crate::program::ir::AllocKind,
        lhs: Option<&Expr>,
    ) -> Result<(), String> {
        use crate::program::ir::AllocKind;
        if kind == AllocKind::Alloca {
            return Err("alloca".into());
        }
        let a = epr::constant("new");
        st.cons.push(a.eq(&st.null).not());
        st.cons.push(app1(&st.alloc, &a).not());
        // The result: the fresh node, or null when allocation may fail (and then nothing
        // is allocated).
        let result = if self.sys.flat.prog.alloc_may_fail {
            let r = epr::constant("res");
            st.cons.push(Bool::or(&[r.eq(&a), r.eq(&st.null)]));
            r
        } else {
            a.clone()
        };
        st.set_alloc(|old, b| Bool::or(&[app1(old, b), Bool::and(&[b.eq(&a), result.eq(&a)])]));
        st.havoc_data(&a);
        // Unallocated nodes have no children along a backbone (an axiom of the logic), so
        // the fresh node's backbone fields are `null` here and unwritten in the program.
        let members = self.sys.backbone_fields();
        if kind == AllocKind::Calloc {
            for f in (0..self.sys.fields.len()).filter(|f| !members.contains(f)) {
                let null = st.null.clone();
                self.store(st, f, &a, &null);
            }
        } else if !members.is_empty() {
            st.unwritten.push((result.clone(), members));
        }
        if let Some(l) = lhs {
            match &l.kind {
                ExprKind::Var(v) => {
                    if let Some(&i) = self.sys.index.get(v) {
                        st.vars[i] = result;
                    }
                }
                _ => return Err("an allocation stored outside a variable".into()),
            }
        }
        Ok(())
    }
}

/// `x->f = null`, first half: relation `f` without the pairs through `x`'s edge.
fn sever(st: &mut Sym, f: usize, x: &Dynamic) {
    st.redefine(f, |r, a, b| {
        Bool::and(&[
            app2(r, a, b),
            Bool::or(&[app2(r, a, x).not(), app2(r, b, x)]),
        ])
    });
}

/// A backbone relation `r` without the paths through the edge from `x` to its child `c`
/// (none when `c` is `null`): in a forest, exactly the pairs `(a, b)` with `a` at or above
/// `x` and `b` at or below `c`.
fn cut(r: &FuncDecl, a: &Dynamic, b: &Dynamic, x: &Dynamic, c: &Dynamic, null: &Dynamic) -> Bool {
    let through = Bool::and(&[c.eq(null).not(), app2(r, a, x), app2(r, c, b)]);
    Bool::and(&[app2(r, a, b), through.not()])
}

/// The pairs `(u, v)`, `u < v`, of vocabulary variables equal at each flat node on every
/// path (a forward must analysis of pointer copies).
fn must_equal(flat: &Flat, index: &BTreeMap<VarId, usize>) -> Vec<BTreeSet<(usize, usize)>> {
    let mut at: Vec<Option<BTreeSet<(usize, usize)>>> = vec![None; flat.nodes];
    at[flat.entry] = Some(BTreeSet::new());
    let mut work = vec![flat.entry];
    while let Some(n) = work.pop() {
        let Some(here) = at[n].clone() else { continue };
        for &e in &flat.out[n] {
            let edge = &flat.edges[e];
            let out = copy_transfer(&here, &edge.op, index);
            let to = edge.to;
            let next = match &at[to] {
                None => out,
                Some(old) => old.intersection(&out).copied().collect(),
            };
            if at[to].as_ref() != Some(&next) {
                at[to] = Some(next);
                work.push(to);
            }
        }
    }
    at.into_iter().map(Option::unwrap_or_default).collect()
}

fn copy_transfer(
    eq: &BTreeSet<(usize, usize)>,
    op: &Op,
    index: &BTreeMap<VarId, usize>,
) -> BTreeSet<(usize, usize)> {
    let var = |e: &Expr| -> Option<usize> {
        let mut e = e;
        while let ExprKind::Cast(a) = &e.kind {
            e = a;
        }
        match e.kind {
            ExprKind::Var(v) => index.get(&v).copied(),
            _ => None,
        }
    };
    let (target, source) = match op {
        // A call through a contract may write any global: no copy survives it.
        Op::Call {
            callee: Callee::Func(_),
            ..
        } => return BTreeSet::new(),
        Op::Assign { lhs, rhs } => (var(lhs), var(rhs)),
        Op::Call { lhs: Some(l), .. } => (var(l), None),
        Op::Havoc(v) => (index.get(v).copied(), None),
        _ => return eq.clone(),
    };
    let Some(x) = target else { return eq.clone() };
    let mut out: BTreeSet<(usize, usize)> = (eq.iter())
        .filter(|(a, b)| *a != x && *b != x)
        .copied()
        .collect();
    if let Some(y) = source.filter(|y| *y != x) {
        let pair = |a: usize, b: usize| (a.min(b), a.max(b));
        let mut class: Vec<usize> = (out.iter())
            .filter_map(|&(a, b)| (a == y).then_some(b).or((b == y).then_some(a)))
            .collect();
        class.push(y);
        for z in class {
            out.insert(pair(x, z));
        }
    }
    out
}

/// Whether a variable of type `t` holds a node: a pointer to the list struct, or `void *`
/// (`safe_malloc`-style helpers; the program has no other pointers, so such a variable
/// holds a node or `null`).
fn holds_node(t: &Type, s: StructId) -> bool {
    is_node_ptr(t, s) || t.pointee() == Some(&Type::Void)
}

fn is_node_ptr(t: &Type, s: StructId) -> bool {
    matches!(t.pointee(), Some(Type::Struct(x)) if *x == s)
}

/// The integer field compared between two nodes (`p->d < q->d`, the same field on both
/// sides), if any: the field whose order `dle` tracks. Comparisons of two different fields
/// stay nondeterministic.
pub fn compared_field(flat: &Flat) -> Option<String> {
    let mut found = None;
    for e in &flat.edges {
        for x in e.op.exprs() {
            x.visit(&mut |x| {
                if let ExprKind::Cmp(_, a, b) = &x.kind
                    && let (Some(f), Some(g)) = (int_field(a), int_field(b))
                    && f == g
                    && found.is_none()
                {
                    found = Some(f.to_string());
                }
            });
        }
    }
    found
}

/// The name of the integer field an expression reads (`p->d`, through casts).
fn int_field(e: &Expr) -> Option<&str> {
    match &e.kind {
        ExprKind::Cast(a) => int_field(a),
        ExprKind::Field(base, _, name)
            if matches!(base.kind, ExprKind::Deref(_)) && matches!(e.ty, Type::Int(_)) =>
        {
            Some(name)
        }
        _ => None,
    }
}

/// The variables the operations of the inlined program mention.
fn used_vars(flat: &Flat) -> BTreeSet<VarId> {
    let mut out: BTreeSet<VarId> = flat.extra_vars.union(&flat.exit_uses).copied().collect();
    for e in &flat.edges {
        if let Op::Havoc(v) = &e.op {
            out.insert(*v);
        }
        for x in e.op.exprs() {
            x.visit(&mut |x| {
                if let ExprKind::Var(v) = x.kind {
                    out.insert(v);
                }
            });
        }
    }
    out
}

/// The one struct the program's pointers point to.
fn list_struct(flat: &Flat) -> Result<StructId, String> {
    let mut found = None;
    for v in used_vars(flat)
        .into_iter()
        .map(|v| &flat.prog.vars[v.0 as usize])
    {
        let mut t = &v.ty;
        let mut depth = 0;
        while let Some(p) = t.pointee() {
            t = p;
            depth += 1;
        }
        match (t, depth) {
            (Type::Struct(s), 1) => {
                if found.is_some_and(|f| f != *s) {
                    return Err("pointers to two struct types".into());
                }
                found = Some(*s);
            }
            (_, 0) => {}
            (Type::Void, 1) => {}
            (Type::Int(_), _) | (Type::Void, _) | (Type::Struct(_), _) => {
                return Err(format!(
                    "the variable `{}` of a pointer type outside the logic (line {})",
                    v.name, v.line
                ));
            }
            _ => {
                return Err(format!(
                    "the variable `{}` of a type outside the logic (line {})",
                    v.name, v.line
                ));
            }
        }
    }
    found.ok_or_else(|| "no pointer to a struct".into())
}

/// Readable, distinct names for the vocabulary variables (inlined copies get a suffix).
fn unique_names(flat: &Flat, vars: &[VarId]) -> Vec<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    vars.iter()
        .map(|v| {
            let base = flat.prog.vars[v.0 as usize].name.replace('#', "_");
            let n = seen.entry(base.clone()).or_default();
            *n += 1;
            if *n == 1 { base } else { format!("{base}_{n}") }
        })
        .collect()
}
