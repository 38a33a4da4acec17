//! Heap holders: a struct of scalar fields allocated once per run and reached only through
//! variables (`struct list_t *list = malloc(sizeof *list); list->first = NULL;`, passed to
//! `append(list, c)`) keeps its fields in global variables, one per field (`list->first`,
//! `list->last`), so that the engines see the pointers it keeps as pointer variables; the
//! block itself stays, as a block of bytes, for what its lifetime means to the properties.
//!
//! Consumes a lowered [`Program`] (after [`super::sra`]); produces the same program with
//! every qualifying holder rewritten. A holder block is a fresh block of at least the size
//! of a struct of scalar fields, some of them pointers and none to the struct itself (see
//! `sra::leaves`), assigned to a variable `v` by `malloc`, `calloc` or an allocating
//! wrapper (`safe_malloc(n)`: one `p = malloc(n)`, `p` only tested and returned), on an
//! edge in no loop of a function that runs at most once per run (the entry, or a function
//! called from exactly one such place). A variable defined once, by the call of a function
//! whose returns return that block or NULL (a constructor), names the block too. Holder
//! variables must occur only in their definition, in `v = NULL`, in a `Havoc`, as
//! `v->f...` ending at a scalar field, compared with a constant or tested as a condition,
//! freed, returned by a constructor, or passed to a holder parameter: a never assigned
//! parameter of a function called only directly that occurs only in the same ways and to
//! which every call passes a holder of the same struct.
//!
//! The rewrite: `v` and the holder parameters become `char *` (the block is a plain block
//! of bytes); each access `x->f` first writes `*x = 0` (a check that `x` points to a live
//! block, whose failure is the access's own valid-deref violation; a write, since reading
//! the uninitialised block would make up an input), then reads or writes the
//! global of `x`'s field. A function with holder parameters is specialised per holder its
//! calls bind them to (a copy of the function for each other binding; the first keeps the
//! original), so that every holder parameter names one holder. The allocation havocs the
//! globals (zeroes them for `calloc`), and `free(x)` sets the pointer globals to NULL, since
//! what a freed block held keeps nothing reachable. Since `v` only ever holds the one block
//! of its site (or NULL or garbage), and the block is accessed only through these fields,
//! every run of the original program is a run of the rewritten one with the same
//! violations, and back.

use super::ir::{
    AllocKind, Builtin, Callee, CmpOp, Expr, ExprKind, FuncId, IntTy, Op, Program, Type, VarId,
    VarInfo, VarKind,
};
use super::sra::{Base, CallFacts, Leaf, expand_cfa, leaf_access};
use petgraph::algo::kosaraju_scc;
use std::collections::{BTreeMap, BTreeSet};

/// A holder variable: its struct's leaves and the global standing for each field.
struct Holder {
    leaves: Vec<Leaf>,
    fields: Vec<VarId>,
}

/// Functions with more specialised copies than this leave the program unchanged.
const MAX_COPIES: usize = 64;

/// One specialised function: the original, and the holder each holder parameter (of the
/// original) names.
type Instance = (FuncId, BTreeMap<VarId, VarId>);

/// Rewrites every qualifying heap holder of `prog`.
pub fn localize(prog: &mut Program) {
    let c = candidates(prog);
    if c.sites.is_empty() {
        return;
    }
    let Some(plan) = specialise(prog, &c) else {
        return;
    };
    let holders = create_fields(prog, &c.sites);
    let originals = prog.functions.clone();
    let mut ids: BTreeMap<Instance, FuncId> = BTreeMap::new();
    for inst in &plan {
        let id = if ids.keys().any(|(f, _)| *f == inst.0) {
            let copy = originals[inst.0.0 as usize].clone();
            prog.functions.push(copy);
            FuncId(prog.functions.len() as u32 - 1)
        } else {
            inst.0
        };
        ids.insert(inst.clone(), id);
    }
    let byte = Type::Int(IntTy::CHAR).ptr_to();
    for v in c.sites.keys().chain(c.aliases.keys()) {
        prog.vars[v.0 as usize].ty = byte.clone();
    }
    for (inst, id) in &ids {
        let orig = &originals[inst.0.0 as usize];
        let remap = locals_of(prog, orig, *id, *id != inst.0);
        for p in inst.1.keys() {
            prog.vars[remap[p].0 as usize].ty = byte.clone();
        }
        let rw = Rewrite {
            prog,
            holders: &holders,
            cands: &c,
            context: &inst.1,
            remap: &remap,
            instances: &ids,
        };
        let cfa = expand_cfa(orig, |op| rw.op(op));
        prog.functions[id.0 as usize].cfa = cfa;
        prog.functions[id.0 as usize]
            .rename_in_scope(|x| vec![remap.get(&x).copied().unwrap_or(x)]);
    }
}

/// The specialised functions to build: every function without holder parameters as it is,
/// then every function with some, once per binding of them that a built function's call
/// makes. None when there would be too many.
fn specialise(prog: &Program, c: &Cands) -> Option<Vec<Instance>> {
    let with_params = |f: &FuncId| {
        prog.func(*f)
            .params
            .iter()
            .any(|p| c.params.contains_key(p))
    };
    let all = (0..prog.functions.len()).map(|i| FuncId(i as u32));
    let mut plan: Vec<Instance> = all
        .clone()
        .filter(|f| !with_params(f))
        .map(|f| (f, BTreeMap::new()))
        .collect();
    let mut k = 0;
    while k < plan.len() {
        let (f, ctx) = plan[k].clone();
        k += 1;
        for e in prog.func(f).cfa.edge_weights() {
            if let Some(inst) = callee_instance(prog, c, &ctx, &e.op)
                && !plan.contains(&inst)
            {
                plan.push(inst);
            }
        }
        if plan.len() > prog.functions.len() + MAX_COPIES {
            return None;
        }
    }
    // Functions no built function calls with holders stay as they are (their holder
    // parameters name nothing), so that their accesses to holder variables are rewritten.
    for f in all {
        if !plan.iter().any(|(g, _)| *g == f) {
            plan.push((f, BTreeMap::new()));
        }
    }
    Some(plan)
}

/// The instance a call in a function specialised to `ctx` goes to, if its callee has holder
/// parameters.
fn callee_instance(
    prog: &Program,
    c: &Cands,
    ctx: &BTreeMap<VarId, VarId>,
    op: &Op,
) -> Option<Instance> {
    let Op::Call {
        callee: Callee::Func(g),
        args,
        ..
    } = op
    else {
        return None;
    };
    let mut binding = BTreeMap::new();
    for (p, a) in prog.func(*g).params.iter().zip(args) {
        if c.params.contains_key(p) {
            let x = holder_operand(a).expect("a holder parameter is bound to a holder");
            let site = c.site(x).or_else(|| ctx.get(&x).copied())?;
            binding.insert(*p, site);
        }
    }
    (!binding.is_empty()).then_some((*g, binding))
}

/// The variables of function `id` standing for `orig`'s parameters and locals: the same
/// ones for the original, fresh copies (made here) for a copy.
fn locals_of(
    prog: &mut Program,
    orig: &super::ir::Function,
    id: FuncId,
    copy: bool,
) -> BTreeMap<VarId, VarId> {
    let vars: Vec<VarId> = orig.params.iter().chain(&orig.locals).copied().collect();
    let mut remap = BTreeMap::new();
    for v in vars {
        let info = prog.var(v).clone();
        let x = if copy && info.kind != VarKind::Global {
            new_var(prog, &info.name, info.ty, VarKind::Local(id), info.line)
        } else {
            v
        };
        remap.insert(v, x);
    }
    if copy {
        let f = &mut prog.functions[id.0 as usize];
        f.params = orig.params.iter().map(|p| remap[p]).collect();
        f.locals = orig.locals.iter().map(|l| remap[l]).collect();
        f.va_area = orig.va_area.map(|v| remap[&v]);
    }
    remap
}

// ----- which holders qualify -----

/// The holders: variables assigned a holder block (with the struct's leaves), variables
/// assigned a holder by the one call of a function that returns it (with that block's
/// variable), and parameters (with the struct's leaves).
#[derive(Default)]
struct Cands {
    sites: BTreeMap<VarId, Vec<Leaf>>,
    aliases: BTreeMap<VarId, VarId>,
    params: BTreeMap<VarId, Vec<Leaf>>,
}

impl Cands {
    fn is_holder(&self, x: VarId) -> bool {
        self.site(x).is_some() || self.params.contains_key(&x)
    }

    /// The block variable a holder variable names.
    fn site(&self, x: VarId) -> Option<VarId> {
        if self.sites.contains_key(&x) {
            Some(x)
        } else {
            self.aliases.get(&x).copied()
        }
    }
}

/// The holders of `prog`: the candidates by their definitions, less those used otherwise,
/// until no more are dropped.
fn candidates(prog: &Program) -> Cands {
    let defs = definitions(prog);
    let facts = CallFacts::of(prog);
    let mut c = Cands {
        sites: allocation_sites(prog, &defs, &facts),
        aliases: BTreeMap::new(),
        params: typed_params(prog, &facts),
    };
    loop {
        c.aliases = aliases(prog, &c.sites, &defs);
        let banned = misuses(prog, &c);
        if banned.is_empty() {
            return c;
        }
        c.sites.retain(|v, _| !banned.contains(v));
        c.params.retain(|p, _| !banned.contains(p));
    }
}

/// Per variable, the edges that define it other than by NULL or a `Havoc`: allocations and
/// calls storing into it (function, edge index); an assignment of anything else counts as
/// two, so that such a variable is never a holder.
fn definitions(prog: &Program) -> BTreeMap<VarId, Vec<(FuncId, usize)>> {
    let mut out: BTreeMap<VarId, Vec<(FuncId, usize)>> = BTreeMap::new();
    for (i, f) in prog.functions.iter().enumerate() {
        for (k, e) in f.cfa.edge_weights().enumerate() {
            let (lhs, twice) = match &e.op {
                Op::Call { lhs: Some(l), .. } | Op::CallPtr { lhs: Some(l), .. } => (l, false),
                Op::Assign { lhs, rhs } if !rhs.is_null_constant() => (lhs, true),
                _ => continue,
            };
            if let ExprKind::Var(v) = lhs.kind {
                let d = out.entry(v).or_default();
                d.push((FuncId(i as u32), k));
                if twice {
                    d.push((FuncId(i as u32), k));
                }
            }
        }
    }
    out
}

/// Functions that return one holder block: every `return e` returns NULL or a holder
/// variable of the same block, and one does.
fn returning(prog: &Program, site: &dyn Fn(VarId) -> Option<VarId>) -> BTreeMap<FuncId, VarId> {
    let mut out = BTreeMap::new();
    for (i, f) in prog.functions.iter().enumerate() {
        let mut block = None;
        let mut ok = f.defined;
        for e in f.cfa.edge_weights() {
            if let Op::Return(Some(r)) = &e.op {
                match holder_operand(r).and_then(site) {
                    Some(b) if block.is_none_or(|x| x == b) => block = Some(b),
                    _ if r.is_null_constant() => {}
                    _ => ok = false,
                }
            }
        }
        if let (true, Some(b)) = (ok, block) {
            out.insert(FuncId(i as u32), b);
        }
    }
    out
}

/// Variables defined once, by a call of a function returning a holder block, of that
/// block's type: they name the block.
fn aliases(
    prog: &Program,
    sites: &BTreeMap<VarId, Vec<Leaf>>,
    defs: &BTreeMap<VarId, Vec<(FuncId, usize)>>,
) -> BTreeMap<VarId, VarId> {
    let mut out: BTreeMap<VarId, VarId> = BTreeMap::new();
    loop {
        let site = |x: VarId| {
            if sites.contains_key(&x) {
                Some(x)
            } else {
                out.get(&x).copied()
            }
        };
        let returns = returning(prog, &site);
        let mut next = BTreeMap::new();
        for (w, d) in defs {
            let [(f, k)] = d.as_slice() else { continue };
            let e = prog.func(*f).cfa.edge_weights().nth(*k).expect("edge");
            if let Op::Call {
                callee: Callee::Func(g),
                ..
            } = &e.op
                && let Some(b) = returns.get(g)
                && prog.var(*w).ty == prog.var(*b).ty
                && !sites.contains_key(w)
            {
                next.insert(*w, *b);
            }
        }
        if next == out {
            return out;
        }
        out = next;
    }
}

/// The functions that run at most once per run: the initialiser and the entry, then every
/// function whose only call (direct, and its address never taken) lies outside loops of a
/// function that runs at most once.
fn run_once(prog: &Program, facts: &CallFacts) -> BTreeSet<FuncId> {
    let mut calls: BTreeMap<FuncId, Vec<(FuncId, bool)>> = BTreeMap::new();
    let by_pointer = &facts.by_pointer;
    for (i, f) in prog.functions.iter().enumerate() {
        let looping = looping_edges(f);
        for (k, e) in f.cfa.edge_weights().enumerate() {
            if let Op::Call {
                callee: Callee::Func(g),
                ..
            } = &e.op
            {
                calls
                    .entry(*g)
                    .or_default()
                    .push((FuncId(i as u32), looping[k]));
            }
        }
    }
    let mut once = BTreeSet::from([prog.init, prog.main]);
    loop {
        let before = once.len();
        for (g, sites) in &calls {
            if let [(caller, false)] = sites.as_slice()
                && once.contains(caller)
                && !by_pointer.contains(g)
                && *g != prog.main
            {
                once.insert(*g);
            }
        }
        if once.len() == before {
            return once;
        }
    }
}

/// Per edge of `f` (in index order), whether it lies on a cycle of the automaton.
fn looping_edges(f: &super::ir::Function) -> Vec<bool> {
    let mut comp = vec![0; f.cfa.node_count()];
    for (c, nodes) in kosaraju_scc(&f.cfa).into_iter().enumerate() {
        for n in nodes {
            comp[n.index()] = c;
        }
    }
    f.cfa
        .edge_indices()
        .map(|e| {
            let (a, b) = f.cfa.edge_endpoints(e).expect("edge of the graph");
            comp[a.index()] == comp[b.index()]
        })
        .collect()
}

/// Variables assigned a fresh block for a holder struct exactly once, by an allocation or
/// a call of an allocating function, outside loops of a function that runs at most once.
fn allocation_sites(
    prog: &Program,
    defs: &BTreeMap<VarId, Vec<(FuncId, usize)>>,
    facts: &CallFacts,
) -> BTreeMap<VarId, Vec<Leaf>> {
    let once = run_once(prog, facts);
    let wrappers = allocators(prog, facts);
    let params: BTreeSet<VarId> = prog
        .functions
        .iter()
        .flat_map(|f| f.params.clone())
        .collect();
    let mut out = BTreeMap::new();
    for (v, d) in defs {
        let [(f, k)] = d.as_slice() else { continue };
        let Some(Type::Struct(s)) = prog.var(*v).ty.pointee() else {
            continue;
        };
        let ty = Type::Struct(*s);
        let e = prog.func(*f).cfa.edge_weights().nth(*k).expect("edge");
        let size = match &e.op {
            Op::Call {
                callee: Callee::Builtin(Builtin::Alloc(kind)),
                args,
                ..
            } => match (kind, args.as_slice()) {
                (AllocKind::Malloc, [n]) => constant(n),
                (AllocKind::Calloc, [a, b]) => constant(a).zip(constant(b)).map(|(a, b)| a * b),
                _ => None,
            },
            Op::Call {
                callee: Callee::Func(g),
                args,
                ..
            } => wrappers.get(g).and_then(|i| constant(args.get(*i)?)),
            _ => None,
        };
        let big_enough = size.is_some_and(|n| n >= prog.size_of(&ty));
        if big_enough
            && once.contains(f)
            && !looping_edges(prog.func(*f))[*k]
            && !params.contains(v)
            && let Some(ls) = leaves(prog, &ty)
        {
            out.insert(*v, ls);
        }
    }
    out
}

/// Functions that return a fresh block of the size their `i`-th parameter gives
/// (`safe_malloc(size)`): one `p = malloc(s)` of a never-assigned parameter `s`, every
/// `return` returns `p`, and `p` is otherwise only tested or compared with a constant.
pub(super) fn allocators(prog: &Program, facts: &CallFacts) -> BTreeMap<FuncId, usize> {
    let unassigned: BTreeSet<VarId> = facts.by_reference_params(prog).into_iter().collect();
    let mut out = BTreeMap::new();
    for (i, f) in prog.functions.iter().enumerate() {
        let mut allocs = vec![];
        for e in f.cfa.edge_weights() {
            if let Op::Call {
                lhs: Some(l),
                callee: Callee::Builtin(Builtin::Alloc(AllocKind::Malloc)),
                args,
            } = &e.op
                && let (ExprKind::Var(p), [n]) = (&l.kind, args.as_slice())
            {
                allocs.push((*p, holder_operand(n)));
            }
        }
        let [(p, Some(s))] = allocs.as_slice() else {
            continue;
        };
        let Some(at) = f.params.iter().position(|x| x == s) else {
            continue;
        };
        let only_p = |x: VarId| x == *p;
        let mut ok = unassigned.contains(s) && f.locals.contains(p);
        for e in f.cfa.edge_weights() {
            let mut banned = BTreeSet::new();
            match &e.op {
                Op::Return(Some(r)) => ok &= holder_operand(r) == Some(*p),
                Op::Assume { cond, .. } if holder_operand(cond) == Some(*p) => {}
                Op::Call {
                    callee: Callee::Builtin(Builtin::Alloc(_)),
                    args,
                    ..
                } => args
                    .iter()
                    .for_each(|a| value_uses(a, &only_p, &mut banned)),
                op => op
                    .exprs()
                    .into_iter()
                    .for_each(|x| value_uses(x, &only_p, &mut banned)),
            }
            ok &= !banned.contains(p);
        }
        if ok {
            out.insert(FuncId(i as u32), at);
        }
    }
    out
}

/// The leaves of a holder struct: a struct of scalar fields (see `sra::leaves`), some of
/// them pointers, none to the struct itself (a node of a list is no holder).
fn leaves(prog: &Program, ty: &Type) -> Option<Vec<Leaf>> {
    let ls = super::sra::leaves(prog, ty)?;
    let pointers: Vec<&Type> = ls.iter().filter_map(|l| l.ty().pointee()).collect();
    (!pointers.is_empty() && pointers.iter().all(|t| *t != ty)).then_some(ls)
}

fn constant(e: &Expr) -> Option<u64> {
    match e.kind {
        ExprKind::Const(n) => u64::try_from(n).ok(),
        ExprKind::Cast(ref a) => constant(a),
        _ => None,
    }
}

/// Never-assigned parameters pointing to a struct of scalar fields, of functions called
/// only directly.
fn typed_params(prog: &Program, facts: &CallFacts) -> BTreeMap<VarId, Vec<Leaf>> {
    let mut out = BTreeMap::new();
    for p in facts.by_reference_params(prog) {
        let pointee = prog.var(p).ty.pointee().cloned();
        if let Some(ls) = pointee.and_then(|t| leaves(prog, &t)) {
            out.insert(p, ls);
        }
    }
    out
}

/// The candidates used other than the module allows.
fn misuses(prog: &Program, c: &Cands) -> BTreeSet<VarId> {
    let is_holder = |v: VarId| c.is_holder(v);
    let defined_here = |l: &Expr| matches!(l.kind, ExprKind::Var(v) if c.site(v).is_some());
    let returns = returning(prog, &|x| c.site(x));
    let mut banned = BTreeSet::new();
    let scan = |e: &Expr, banned: &mut BTreeSet<VarId>| value_uses(e, &is_holder, banned);
    for f in &prog.functions {
        for e in f.cfa.edge_weights() {
            match &e.op {
                Op::Call {
                    lhs,
                    callee: Callee::Builtin(Builtin::Alloc(_)),
                    args,
                } => {
                    lhs.iter()
                        .filter(|l| !defined_here(l))
                        .for_each(|l| scan(l, &mut banned));
                    args.iter().for_each(|a| scan(a, &mut banned));
                }
                Op::Call {
                    lhs,
                    callee: Callee::Builtin(Builtin::Free),
                    args,
                } => {
                    lhs.iter().for_each(|l| scan(l, &mut banned));
                    for a in args {
                        if !holder_operand(a).is_some_and(is_holder) {
                            scan(a, &mut banned);
                        }
                    }
                }
                Op::Call {
                    lhs,
                    callee: Callee::Func(g),
                    args,
                } => {
                    // A holder variable's one definition, or a returned holder kept (or
                    // dropped) by its caller.
                    match lhs {
                        Some(l) if defined_here(l) => {}
                        Some(l) => {
                            scan(l, &mut banned);
                            if let Some(b) = returns.get(g) {
                                banned.insert(*b);
                            }
                        }
                        None => {}
                    }
                    let formals = &prog.func(*g).params;
                    for (i, a) in args.iter().enumerate() {
                        match formals.get(i).filter(|p| c.params.contains_key(p)) {
                            Some(p) if binds(prog, *p, a, &is_holder) => {}
                            Some(p) => {
                                banned.insert(*p);
                                scan(a, &mut banned);
                            }
                            None => scan(a, &mut banned),
                        }
                    }
                }
                Op::Return(Some(r)) if holder_operand(r).is_some_and(|x| c.site(x).is_some()) => {}
                Op::Assign { lhs, rhs } if matches!(lhs.kind, ExprKind::Var(v) if is_holder(v)) => {
                    if !rhs.is_null_constant() {
                        banned.extend(holder_operand(lhs));
                    }
                    scan(rhs, &mut banned);
                }
                Op::Assume { cond, .. } if holder_operand(cond).is_some_and(is_holder) => {}
                op => op.exprs().into_iter().for_each(|x| scan(x, &mut banned)),
            }
        }
    }
    // A holder returned by a function whose returns are not all of one block escapes.
    for (i, f) in prog.functions.iter().enumerate() {
        if returns.contains_key(&FuncId(i as u32)) {
            continue;
        }
        for e in f.cfa.edge_weights() {
            if let Op::Return(Some(r)) = &e.op {
                banned.extend(holder_operand(r).filter(|x| c.site(*x).is_some()));
            }
        }
    }
    banned.retain(|v| is_holder(*v));
    // Dropping a block variable drops the variables naming it.
    let blocks: Vec<VarId> = banned.iter().filter_map(|v| c.site(*v)).collect();
    banned.extend(blocks);
    banned
}

/// Whether `a`, passed to holder parameter `p`, is a holder of `p`'s type.
fn binds(prog: &Program, p: VarId, a: &Expr, is_holder: &dyn Fn(VarId) -> bool) -> bool {
    matches!(a.kind, ExprKind::Var(x) if is_holder(x) && prog.var(x).ty == prog.var(p).ty)
}

/// The variable `e` is, through casts.
fn holder_operand(e: &Expr) -> Option<VarId> {
    match &e.kind {
        ExprKind::Var(v) => Some(*v),
        ExprKind::Cast(a) => holder_operand(a),
        _ => None,
    }
}

/// Adds to `banned` every holder occurring in `e` other than as the base of `x->f...`
/// ending at a scalar or as an operand of a comparison with a constant.
fn value_uses(e: &Expr, is_holder: &dyn Fn(VarId) -> bool, banned: &mut BTreeSet<VarId>) {
    if let ExprKind::AddrOf(a) = &e.kind
        && let Some((Base::Param(x), _)) = leaf_access(a)
    {
        // `&x->f` escapes: the rewrite moves the field out of the block.
        banned.insert(x);
    }
    if let Some((Base::Param(x), _)) = leaf_access(e)
        && is_holder(x)
    {
        return;
    }
    match &e.kind {
        ExprKind::Var(v) => {
            banned.insert(*v);
        }
        ExprKind::Cmp(CmpOp::Eq | CmpOp::Ne, a, b)
            if holder_operand(a).is_some_and(is_holder) && b.is_null_constant()
                || holder_operand(b).is_some_and(is_holder) && a.is_null_constant() => {}
        _ => {
            e.map_children(&mut |c| {
                value_uses(c, is_holder, banned);
                c.clone()
            });
        }
    }
}

// ----- the rewrite -----

/// The fields' globals of the holder variables.
fn create_fields(
    prog: &mut Program,
    sites: &BTreeMap<VarId, Vec<Leaf>>,
) -> BTreeMap<VarId, Holder> {
    let mut out = BTreeMap::new();
    for (v, ls) in sites {
        let info = prog.var(*v).clone();
        let fields = ls
            .iter()
            .map(|l| {
                let name = format!("{}->{}", info.name, l.names());
                let g = new_var(prog, &name, l.ty().clone(), VarKind::Global, info.line);
                prog.globals.push(g);
                g
            })
            .collect();
        out.insert(
            *v,
            Holder {
                leaves: ls.clone(),
                fields,
            },
        );
    }
    out
}

fn new_var(prog: &mut Program, name: &str, ty: Type, kind: VarKind, line: u32) -> VarId {
    let name = name.to_string();
    prog.add_var(VarInfo {
        name,
        ty,
        kind,
        line,
    })
}

/// The rewrite of one specialised function's operations.
struct Rewrite<'a> {
    prog: &'a Program,
    holders: &'a BTreeMap<VarId, Holder>,
    cands: &'a Cands,
    /// The holder each holder parameter of the original function names.
    context: &'a BTreeMap<VarId, VarId>,
    /// The original function's variables to this copy's.
    remap: &'a BTreeMap<VarId, VarId>,
    instances: &'a BTreeMap<Instance, FuncId>,
}

impl Rewrite<'_> {
    /// The checks `op` needs (keyed by the holders whose blocks they write) and the
    /// operations standing for it.
    fn op(&self, op: &Op) -> (BTreeSet<VarId>, Vec<Op>, Vec<Op>) {
        let accessed = self.accessed(op);
        let checks = accessed
            .iter()
            .map(|x| Op::Assign {
                lhs: Expr {
                    kind: ExprKind::Deref(Box::new(self.var(self.local(*x)))),
                    ty: Type::Int(IntTy::CHAR),
                },
                rhs: Expr {
                    kind: ExprKind::Const(0),
                    ty: Type::Int(IntTy::CHAR),
                },
            })
            .collect();
        let rewritten = match op {
            Op::Havoc(v) => Op::Havoc(self.local(*v)),
            Op::Call {
                lhs,
                callee: Callee::Func(g),
                args,
            } => {
                let callee = callee_instance(self.prog, self.cands, self.context, op)
                    .map_or(*g, |inst| self.instances[&inst]);
                Op::Call {
                    lhs: lhs.as_ref().map(|l| self.expr(l)),
                    callee: Callee::Func(callee),
                    args: args.iter().map(|a| self.expr(a)).collect(),
                }
            }
            _ => op.map_exprs(&mut |e| self.expr(e)),
        };
        let mut body = vec![rewritten];
        body.extend(self.after(op));
        (accessed, checks, body)
    }

    /// This copy's variable for the original's `x`.
    fn local(&self, x: VarId) -> VarId {
        *self.remap.get(&x).unwrap_or(&x)
    }

    /// The holder variable `x` names here (itself, or the one a parameter is bound to).
    fn holder(&self, x: VarId) -> Option<&Holder> {
        let site = self
            .cands
            .site(x)
            .or_else(|| self.context.get(&x).copied())?;
        self.holders.get(&site)
    }

    /// The holders whose fields `op` reads or writes.
    fn accessed(&self, op: &Op) -> BTreeSet<VarId> {
        let mut out = BTreeSet::new();
        for e in op.exprs() {
            e.visit(&mut |x| {
                if let Some((Base::Param(h), _)) = leaf_access(x)
                    && self.holder(h).is_some()
                {
                    out.insert(h);
                }
            });
        }
        out
    }

    /// What follows `op`: the fields of a new holder block become garbage (zero for
    /// `calloc`); those of a freed one let go of what they pointed to.
    fn after(&self, op: &Op) -> Vec<Op> {
        match op {
            Op::Call {
                lhs: Some(l),
                callee: Callee::Builtin(Builtin::Alloc(kind)),
                ..
            } => match holder_operand(l).and_then(|v| self.holder(v)) {
                Some(h) if *kind == AllocKind::Calloc => (h.leaves.iter().zip(&h.fields))
                    .map(|(l, x)| self.zero(*x, l.ty()))
                    .collect(),
                Some(h) => h.fields.iter().map(|x| Op::Havoc(*x)).collect(),
                None => vec![],
            },
            // A block variable's one definition by an allocating function.
            Op::Call {
                lhs: Some(l),
                callee: Callee::Func(_),
                ..
            } => match holder_operand(l).filter(|v| self.cands.sites.contains_key(v)) {
                Some(v) => self.holders[&v]
                    .fields
                    .iter()
                    .map(|x| Op::Havoc(*x))
                    .collect(),
                None => vec![],
            },
            Op::Call {
                callee: Callee::Builtin(Builtin::Free),
                args,
                ..
            } => match args
                .first()
                .and_then(holder_operand)
                .and_then(|x| self.holder(x))
            {
                Some(h) => (h.leaves.iter().zip(&h.fields))
                    .filter(|(l, _)| matches!(l.ty(), Type::Ptr(_)))
                    .map(|(l, x)| self.zero(*x, l.ty()))
                    .collect(),
                None => vec![],
            },
            _ => vec![],
        }
    }

    /// `x = 0`.
    fn zero(&self, x: VarId, ty: &Type) -> Op {
        Op::Assign {
            lhs: self.var(x),
            rhs: Expr {
                kind: ExprKind::Const(0),
                ty: ty.clone(),
            },
        }
    }

    fn var(&self, x: VarId) -> Expr {
        Expr {
            kind: ExprKind::Var(x),
            ty: self.prog.var(x).ty.clone(),
        }
    }

    /// `e` with field accesses through holders turned into their fields' globals and every
    /// variable into this copy's.
    fn expr(&self, e: &Expr) -> Expr {
        if let Some((Base::Param(x), offsets)) = leaf_access(e)
            && let Some(h) = self.holder(x)
        {
            let i = (h.leaves.iter())
                .position(|l| l.offsets().eq(offsets.iter().copied()))
                .expect("a leaf access names one of the struct's leaves");
            return self.var(h.fields[i]);
        }
        match e.kind {
            ExprKind::Var(x) => Expr {
                kind: ExprKind::Var(self.local(x)),
                ty: if self.holder(x).is_some() {
                    self.prog.var(self.local(x)).ty.clone()
                } else {
                    e.ty.clone()
                },
            },
            _ => e.map_children(&mut |c| self.expr(c)),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::program::cfa;
    use crate::program::frontend::load_source;
    use crate::program::ir::Program;

    fn ops(p: &Program, name: &str) -> Vec<Vec<String>> {
        p.functions
            .iter()
            .filter(|f| f.name == name && f.defined)
            .map(|f| f.cfa.edge_weights().map(|e| cfa::op(p, &e.op)).collect())
            .collect()
    }

    const TWO: &str = "struct n { struct n *next; }; struct l { struct n *first; int size; };
        static void push(struct l *h, struct n *x) { x->next = h->first; h->first = x; h->size++; }
        int main(void) {
          struct l *a = malloc(sizeof *a), *b = malloc(sizeof *b);
          if (!a || !b) return 1;
          struct n x, y; push(a, &x); push(b, &y); free(a); free(b); return 0; }";

    #[test]
    fn a_heap_holder_keeps_its_fields_in_globals_and_its_functions_are_specialised() {
        let p = load_source(&format!("#include <stdlib.h>\n{TWO}"));
        for g in ["a->first", "a->size", "b->first", "b->size"] {
            let v = p.vars.iter().find(|v| v.name == g);
            assert!(
                v.is_some_and(|v| v.kind == crate::program::ir::VarKind::Global),
                "{g}"
            );
        }
        let copies = ops(&p, "push");
        assert_eq!(copies.len(), 2, "one copy of push per holder");
        let firsts: Vec<bool> = copies
            .iter()
            .map(|c| c.contains(&"a->first = x".to_string()))
            .collect();
        assert_eq!(firsts.iter().filter(|b| **b).count(), 1, "{copies:?}");
        for c in &copies {
            assert!(c.contains(&"*h = 0".to_string()), "checks: {c:?}");
        }
        let main = &ops(&p, "main")[0];
        assert!(
            main.contains(&"a->first = <uninitialised>".to_string()),
            "{main:?}"
        );
        assert!(
            main.contains(&"a->first = NULL".to_string()),
            "free lets go: {main:?}"
        );
    }

    #[test]
    fn a_holder_stored_elsewhere_or_allocated_in_a_loop_stays_a_struct() {
        let stored = TWO.replace(
            "free(a); free(b);",
            "struct l **keep = malloc(sizeof *keep); *keep = a; free(a); free(b);",
        );
        let looped = TWO.replace(
            "struct l *a = malloc(sizeof *a), *b = malloc(sizeof *b);",
            "struct l *a = 0, *b = malloc(sizeof *b); for (int i = 0; i < 2; i++) a = malloc(sizeof *a);",
        );
        for src in [stored, looped] {
            let p = load_source(&format!("#include <stdlib.h>\n{src}"));
            assert!(!p.vars.iter().any(|v| v.name == "a->first"), "{src}");
            assert_eq!(ops(&p, "push").len(), 1);
        }
    }

    #[test]
    fn a_holder_made_by_a_constructor_through_an_allocating_wrapper_is_a_holder() {
        let src = "#include <stdlib.h>
            struct n { struct n *next; }; struct l { struct n *first; };
            void *xmalloc(size_t s) { void *p = malloc(s); if (!p) abort(); return p; }
            static struct l *make(void) { struct l *h = xmalloc(sizeof *h); h->first = 0; return h; }
            int main(void) { struct l *a = make(); struct n *x = xmalloc(sizeof *x);
                             x->next = a->first; a->first = x; free(x); free(a); return 0; }";
        let p = load_source(src);
        assert!(p.vars.iter().any(|v| v.name == "h->first"));
        let main = &ops(&p, "main")[0];
        assert!(main.contains(&"h->first = x".to_string()), "{main:?}");
        assert!(main.contains(&"*a = 0".to_string()), "{main:?}");
        let make = &ops(&p, "make")[0];
        assert!(
            make.contains(&"h->first = <uninitialised>".to_string()),
            "{make:?}"
        );
        // A second constructor call would make a second block: no holder.
        let twice = src.replace(
            "struct l *a = make();",
            "struct l *a = make(); struct l *b = make(); free(b);",
        );
        let p = load_source(&twice);
        assert!(!p.vars.iter().any(|v| v.name == "h->first"));
    }
}
