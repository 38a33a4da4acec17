//! Algorithm 2 of seed 001 (Refine): the backward pass over an abstract counterexample by
//! abduction, the refinement point, and SelectSymbols.
//!
//! Consumes the tree's counterexample (its forward heaps `Δ_i` and edges) and the current
//! precision; produces the symbols to add to `T`, or why no refinement applies. The backward
//! pass computes, position by position from the error, a sufficient resource `Δ'_i` that
//! avoids it: a disjunction of heaps `Π ∧ cells ∗ true`. At the error the resource is
//! `false` (an error call) or the cell the faulting access needs (`p ↦ _ ∗ true`). Each
//! command's backward transfer abduces what its reads need: a load `x = p->f` whose result
//! the resource mentions adds the cell `p ↦ {f: v'}` (unless one is there) and substitutes
//! `v'` for `x`; `assume(c)` gives `¬c ∨ Δ'` (the weakest precondition, with the cells its
//! reads need); a store writes into the resource's cell at that address; an assignment
//! substitutes; an unknown value (`nondet`, arithmetic) is universally quantified, so a
//! resource that mentions it is dropped (`false`, always a solution). Disjuncts inconsistent
//! with the forward heap at their position stay: the forward heap may be the
//! over-approximation that lost what they need (the paper's `Δ'12` contradicts `Δ12`).
//!
//! The refinement point is the last position from the error at which the forward heap
//! entails the resource (`Δ_i ⊢ Δ'_i`, the forward heap's segments unfolded where the
//! resource needs cells): precision was lost on the edge after it, by the abstraction at the
//! next location. Where the paper gives up (no position entails its resource, as when the
//! abduction misses a case), the point is the last entry into a loop head after which a
//! resource names a symbol new to `T`. SelectSymbols then compares the aligned heaps after
//! the point. It selects
//! each program variable live where precision was lost that a resource equates with a value
//! (a pure equality, or a cell field that is the variable: the value a cell holds or the
//! address it points to) or, for a data variable, requires a cell's value to differ from
//! (an absence, which the segments' upper bounds keep), the resource being consistent with
//! the forward heap at that position; and each constant a cell of a resource holds or must
//! differ from (a sentinel value). Data variables and constants go to the multisets (with the
//! number of cells holding them as their multiplicity), pointer variables to the protected
//! addresses (SH^rls). A selected data variable is followed back along the path through
//! plain copies to the variable it copies (an inlined callee's parameter to the caller's
//! argument), which `T` then names from where the value first exists; and it gets as many
//! copies as cells hold its value in the post of the lost edge before the abstraction.
//!
//! Two fallbacks, in order, when that selects nothing new. First, the values, then (if no
//! value was lost) the addresses, of the cells that the abstraction on the lost edge
//! summarised: the live variables equal to them, the outermost function's first. Second,
//! when the counterexample came back with every selected symbol in `T`, one more copy of
//! each selected data symbol, up to [`MAX_COPIES`]: the multisets then count more
//! occurrences.

use super::abstraction::simplify;
use super::art::{Art, Cex, Precision};
use super::entail::entails_one;
use super::heap::{Atom, Bag, Cell, Classes, SymHeap, Term};
use crate::program::ir::{
    Builtin, Callee, CmpOp, Expr, ExprKind, Op, Program, StructId, Type, VarId,
};
use crate::techniques::seed002::flat::def;

/// The most disjuncts a resource keeps.
const MAX_DISJUNCTS: usize = 24;

/// The most copies of one symbol `T` may hold.
const MAX_COPIES: u32 = 3;

/// What Refine found.
#[derive(Clone, Debug)]
pub struct Refinement {
    /// The position of the refinement point on the path (precision lost on its next edge).
    pub point: usize,
    /// The source line of the edge after it.
    pub line: u32,
    /// The symbols to add.
    pub add: Precision,
}

/// Algorithm 2 on `cex`: the refinement, or why there is none.
pub fn refine(art: &Art, cex: &Cex, t: &Precision) -> Result<Refinement, String> {
    let prog = &art.flat.prog;
    let heaps: Vec<&SymHeap> = cex.heaps.iter().collect();
    let edges = &cex.edges;
    let k = heaps.len() - 1;
    // Δ'_k: what the failing command needs.
    let last = &art.flat.edges[edges[k]].op;
    let mut bwd: Vec<Vec<SymHeap>> = vec![vec![]; k + 1];
    bwd[k] = prune(needs(prog, last));
    let mut i = k;
    loop {
        if !bwd[i].is_empty() && covers(art, heaps[i], &bwd[i], 2) {
            break;
        }
        if std::env::var_os("SHAPECHECK_SL_DEBUG").is_some() {
            let e = art.flat.edges[edges[i]].clone();
            eprintln!("[{i}] line {} {:?}\n  fwd {}", e.line, e.op, heaps[i]);
            for d in &bwd[i] {
                eprintln!("  bwd {d}");
            }
        }
        if i == 0 {
            // No position entails its resource (the abduction is incomplete): precision is
            // taken to be lost where the path entered a loop head, the places the abstraction
            // summarised anything: the last at which the resources name a symbol new to `T`.
            let head = |j: usize| art.flat.loops.contains_key(&cex.loc(art.flat, j));
            let fresh = |j: usize| {
                let live = &art.live[cex.loc(art.flat, j)];
                let mut add = Precision::default();
                for m in j..=k {
                    select(art, heaps[m], &bwd[m], live, &mut add);
                }
                admit(art, new_symbols(&add, t)).size() > 0
            };
            let Some(j) = (1..=k).rev().find(|j| head(*j) && fresh(*j)) else {
                return Err(format!(
                    "the backward pass over the abstract counterexample of {} steps found no \
                     point where the forward heap meets its sufficient resource, and no loop \
                     head on it after which a resource names a new symbol ({})",
                    k + 1,
                    cex.why
                ));
            };
            i = j - 1;
            break;
        }
        let op = &art.flat.edges[edges[i - 1]].op;
        bwd[i - 1] = prune(back(prog, op, &bwd[i]));
        i -= 1;
    }
    if i == k {
        return Err(format!(
            "the forward heap already holds what the failing command needs ({})",
            cex.why
        ));
    }
    let at = art.flat.edges[edges[i]].to;
    let live = &art.live[at];
    let mut add = Precision::default();
    for j in i + 1..=k {
        select(art, heaps[j], &bwd[j], live, &mut add);
    }
    // The post of the lost edge, before the abstraction.
    let post = match art.exec.post(heaps[i], &art.flat.edges[edges[i]].op) {
        super::exec::Post::Heaps(hs) => hs,
        _ => vec![],
    };
    add.keep = origins(art, cex, i, &add.keep);
    add.keep = held_copies(art, &post, &add.keep);
    let selected = add.keep.clone();
    let mut add = admit(art, new_symbols(&add, t));
    if add.size() == 0 {
        // No resource equates a variable with a value: the abstraction lost the shape the
        // resource needs. Keep the values of the cells it summarised first (SH^mls), their
        // addresses (SH^rls) when no value was lost.
        for h in post.iter().filter(|_| art.params.values) {
            let lost = lost_values(art, h, heaps[i + 1], live);
            add.keep = add.keep.sum(&Bag::from_counts(
                lost.iter()
                    .filter(|(x, n)| t.keep.count(*x) < *n && add.keep.count(*x) == 0)
                    .map(|(x, n)| (x, n - t.keep.count(x))),
            ));
        }
        for h in post.iter().filter(|_| add.keep.is_empty()) {
            for x in lost_addresses(art, h, heaps[i + 1], live) {
                if !t.protect.contains(&x) && !add.protect.contains(&x) {
                    add.protect.push(x);
                }
            }
        }
        add = admit(art, add);
    }
    if add.size() == 0 && art.params.values {
        // The counterexample came back with every selected data symbol already in `T`: the
        // multisets must count one more copy of each (SH^mls bounds frequencies from below).
        add.keep = Bag::from_counts(
            (selected.iter())
                .filter(|(x, _)| t.keep.count(*x) < MAX_COPIES)
                .map(|(x, _)| (x, 1)),
        );
    }
    if add.size() == 0 {
        return Err(format!(
            "precision was lost after line {} but SelectSymbols finds no new symbol ({})",
            art.flat.edges[edges[i]].line, cex.why
        ));
    }
    Ok(Refinement {
        point: i,
        line: art.flat.edges[edges[i]].line,
        add,
    })
}

/// The part of `p` the domain lets `T` hold (its `symbols` declaration).
fn admit(art: &Art, p: Precision) -> Precision {
    Precision {
        keep: if art.params.values {
            p.keep
        } else {
            Bag::new()
        },
        protect: if art.params.addresses {
            p.protect
        } else {
            vec![]
        },
    }
}

/// What `add` selects beyond `t`: the copies of data symbols `t` lacks, the addresses it
/// does not protect.
fn new_symbols(add: &Precision, t: &Precision) -> Precision {
    let keep = Bag::from_counts(
        (add.keep.iter())
            .filter(|(x, n)| t.keep.count(*x) < *n)
            .map(|(x, n)| (x, n - t.keep.count(x))),
    );
    let protect = (add.protect.iter())
        .filter(|x| !t.protect.contains(x))
        .copied()
        .collect();
    Precision { keep, protect }
}

/// SelectSymbols on one aligned pair: the variables the resource equates with a value of
/// the heap, consistently with the forward heap; of several variables the forward heap
/// makes equal, the outermost function's. The resource is first simplified, so that an
/// equality with an existential that only names a variable's value selects nothing.
fn select(
    art: &Art,
    fwd: &SymHeap,
    bwd: &[SymHeap],
    live: &std::collections::BTreeSet<VarId>,
    out: &mut Precision,
) {
    let prog = &art.flat.prog;
    for d in bwd {
        let d = &simplify(d);
        let c = Classes::new(&d.pure);
        let mut picked: Vec<(Term, u32)> = vec![];
        for t in d.terms() {
            // Live variables, and constants a cell holds (a sentinel value).
            let candidate = match t {
                Term::Var(v) => live.contains(&v),
                Term::Int(_) => true,
                _ => false,
            };
            if !candidate || picked.iter().any(|(x, _)| *x == t) {
                continue;
            }
            let held = (d.cells.iter()).any(|cell| holds(art, cell, t, &c));
            let equated = t.is_const() && (held || differs_from_a_cell(d, &c, t))
                || !t.is_const()
                    && (held
                        || (d.pure.iter())
                            .any(|a| matches!(a, Atom::Eq(p, q) if *p == t || *q == t))
                        || (!is_pointer(prog, t) && differs_from_a_cell(d, &c, t)));
            if !equated || !compatible(fwd, d) {
                continue;
            }
            let holders = d
                .cells
                .iter()
                .filter(|cell| cell.fields.iter().any(|f| c.equal(*f, t)))
                .count() as u32;
            if std::env::var_os("SHAPECHECK_SL_DEBUG").is_some() {
                eprintln!("select {t} from {d} (fwd {fwd})");
            }
            picked.push((t, holders.max(1)));
        }
        let known = Classes::new(&fwd.pure);
        for (t, n) in picked {
            // Of the live variables the forward heap makes equal, the outermost function's.
            let t = match outermost(art, live, &known, t) {
                Some(v) if !t.is_const() => Term::Var(v),
                _ => t,
            };
            if is_pointer(prog, t) {
                if !out.protect.contains(&t) {
                    out.protect.push(t);
                }
            } else {
                out.keep.raise_to(t, n);
            }
        }
    }
}

/// Whether a cell holds the data value or address `t` where a domain's parameters can see
/// it: a list cell's data value in its data field (the parameters count that field only), any
/// other term in any field.
fn holds(art: &Art, cell: &super::heap::Cell, t: Term, c: &Classes) -> bool {
    let data = (art.shapes.iter().find(|s| s.ty == cell.ty)).map(|s| s.data);
    match data {
        Some(data) if !is_pointer(&art.flat.prog, t) => {
            data.is_some_and(|k| c.equal(cell.fields[k], t))
        }
        _ => cell.fields.iter().any(|f| c.equal(*f, t)),
    }
}

/// Whether `t` is a pointer variable.
fn is_pointer(prog: &Program, t: Term) -> bool {
    matches!(t, Term::Var(v) if matches!(prog.var(v).ty, Type::Ptr(_)))
}

/// Whether the resource `d` needs a value some cell holds to differ from `t` (the cell must
/// not hold `t`: an absence the upper bounds of the segments keep).
fn differs_from_a_cell(d: &SymHeap, c: &Classes, t: Term) -> bool {
    let held = |x: Term| {
        d.cells
            .iter()
            .any(|cell| cell.fields.iter().any(|f| c.equal(*f, x)))
    };
    d.pure.iter().any(|a| match a {
        Atom::Ne(p, q) => (*p == t && held(*q)) || (*q == t && held(*p)),
        _ => false,
    })
}

/// Whether `fwd` entails one of `bwd`, unfolding its segments (up to `depth` times) when the
/// resource needs cells where `fwd` has segments: every case of the unfolding must entail.
fn covers(art: &Art, fwd: &SymHeap, bwd: &[SymHeap], depth: usize) -> bool {
    if entails_one(art.shapes, fwd, bwd) {
        return true;
    }
    if depth == 0 || fwd.segs.is_empty() {
        return false;
    }
    (0..fwd.segs.len()).any(|j| {
        art.exec
            .unfold(fwd, j)
            .iter()
            .filter(|h| !h.inconsistent())
            .all(|h| covers(art, h, bwd, depth - 1))
    })
}

/// The live pointer variables at whose addresses `concrete` has a cell of a list shape that
/// the abstract heap `abs` no longer keeps as a cell (the abstraction absorbed it into a
/// segment): the addresses SH^rls must protect. Of several equal variables, the outermost.
fn lost_addresses(
    art: &Art,
    concrete: &SymHeap,
    abs: &SymHeap,
    live: &std::collections::BTreeSet<VarId>,
) -> Vec<Term> {
    let c = Classes::new(&concrete.pure);
    let kept = Classes::new(&abs.pure);
    let mut out = vec![];
    for cell in &concrete.cells {
        if !art.shapes.iter().any(|s| s.ty == cell.ty) {
            continue;
        }
        let Some(v) = outermost(art, live, &c, cell.addr) else {
            continue;
        };
        let x = Term::Var(v);
        if !abs.cells.iter().any(|k| kept.equal(k.addr, x)) && !out.contains(&x) {
            out.push(x);
        }
    }
    out
}

/// The live variables whose values the cells of `concrete` hold more often than the abstract
/// heap `abs` records (in its cells and its multisets), with the concrete count; of several
/// equal variables, the outermost function's.
fn lost_values(
    art: &Art,
    concrete: &SymHeap,
    abs: &SymHeap,
    live: &std::collections::BTreeSet<VarId>,
) -> Bag {
    let holding = |h: &SymHeap| {
        let c = Classes::new(&h.pure);
        let mut out = Bag::new();
        for (d, n) in data_values(art, h) {
            if let Some(v) = outermost(art, live, &c, d) {
                out.add(Term::Var(v), n);
            }
        }
        out
    };
    let (before, after) = (holding(concrete), holding(abs));
    Bag::from_counts(
        before
            .iter()
            .filter(|(x, n)| after.count(*x) < *n)
            .collect::<Vec<_>>(),
    )
}

/// The data symbols of `keep`, each replaced by the variable whose value it holds at the
/// refinement point `i` through plain copies (an inlined call's parameter is a copy of its
/// argument): see [`origin`]. Symbols with one origin count once, with the larger
/// multiplicity (they name one value).
fn origins(art: &Art, cex: &Cex, i: usize, keep: &Bag) -> Bag {
    let mut out = Bag::new();
    for (x, n) in keep.iter() {
        out.raise_to(origin(art, cex, i, x), n);
    }
    out
}

/// The data symbols of `keep`, each with at least as many copies (up to [`MAX_COPIES`]) as
/// cells hold its value in some heap of the post of the lost edge, before the abstraction:
/// the multiplicity `abs_T` needs to keep what that post knows about the value (two cells
/// holding `x` where one is about to be deleted).
fn held_copies(art: &Art, post: &[SymHeap], keep: &Bag) -> Bag {
    let held = |h: &SymHeap, t: Term| -> u32 {
        let c = Classes::new(&h.pure);
        (data_values(art, h).into_iter())
            .filter(|(d, _)| c.equal(*d, t))
            .map(|(_, n)| n)
            .sum()
    };
    Bag::from_counts(keep.iter().map(|(t, n)| {
        let most = post.iter().map(|h| held(h, t)).max().unwrap_or(0);
        (t, n.max(most.min(MAX_COPIES)))
    }))
}

/// The data values the list cells and segments of `h` hold, each with how many cells hold it
/// (a cell's value once; a segment's multiset with its multiplicities).
fn data_values(art: &Art, h: &SymHeap) -> Vec<(Term, u32)> {
    let cells = h.cells.iter().filter_map(|cell| {
        let shape = art.shapes.iter().find(|s| s.ty == cell.ty)?;
        shape.data.map(|k| (cell.fields[k], 1))
    });
    let segs = h.segs.iter().flat_map(|s| s.bag.iter());
    cells.chain(segs).collect()
}

/// The variable whose value the data variable `t` holds after edge `i` of the path, followed
/// back through copies `t = s` as long as the source keeps its value up to that edge. `T`'s
/// symbols keep their names while dead, so the origin keeps the value apart from where it
/// first exists, not only inside the callee that compares it (a callee's parameter is a
/// fresh variable at each inlined call: selecting it would take one more refinement, on the
/// next counterexample, to select the caller's).
fn origin(art: &Art, cex: &Cex, i: usize, t: Term) -> Term {
    let prog = &art.flat.prog;
    let Term::Var(mut cur) = t else {
        return t;
    };
    let mut written: std::collections::BTreeSet<VarId> = Default::default();
    for j in (0..=i).rev() {
        let op = &art.flat.edges[cex.edges[j]].op;
        let target = def(op);
        if target == Some(cur) {
            match op {
                Op::Assign { rhs, .. } => match rhs.kind {
                    ExprKind::Var(s)
                        if !written.contains(&s) && prog.var(s).ty == prog.var(cur).ty =>
                    {
                        cur = s
                    }
                    _ => break,
                },
                _ => break,
            }
        }
        written.extend(target);
    }
    Term::Var(cur)
}

/// Of the live variables equal to `d`, the one of the outermost function (a global, or the
/// local of the inlined body that spans the most nodes), then the first.
fn outermost(
    art: &Art,
    live: &std::collections::BTreeSet<VarId>,
    c: &Classes,
    d: Term,
) -> Option<VarId> {
    // The body of an outer call spans more nodes than the calls inlined into it.
    let span = |v: VarId| {
        (art.flat.scopes.iter())
            .filter(|s| s.vars.contains(&v))
            .map(|s| s.nodes.len())
            .max()
            .unwrap_or(usize::MAX)
    };
    live.iter()
        .copied()
        .filter(|v| c.equal(d, Term::Var(*v)))
        .min_by_key(|v| (std::cmp::Reverse(span(*v)), *v))
}

/// Whether `fwd ∗ d` (existentials renamed apart) is consistent.
fn compatible(fwd: &SymHeap, d: &SymHeap) -> bool {
    let shift = match fwd.fresh() {
        Term::Ex(i) => i,
        _ => 0,
    };
    let d = d.map(&|t| match t {
        Term::Ex(i) => Term::Ex(i + shift),
        t => t,
    });
    let mut both = fwd.clone();
    both.pure.extend(d.pure.iter().copied());
    // The resource's cells are a part of the heap: if the forward heap has a cell at an
    // address, the resource's cell there is the same one.
    let c = Classes::new(&both.pure);
    let fwd_alloc = fwd.allocated();
    both.cells.extend(
        d.cells
            .iter()
            .filter(|x| !fwd_alloc.iter().any(|y| c.equal(x.addr, *y)))
            .cloned(),
    );
    both.sort();
    !both.inconsistent()
}

/// Keeps the consistent disjuncts, at most [`MAX_DISJUNCTS`], without duplicates. (A
/// disjunct inconsistent with the forward heap stays: the forward heap may be the
/// over-approximation that lost what the disjunct needs.)
fn prune(ds: Vec<SymHeap>) -> Vec<SymHeap> {
    let mut out: Vec<SymHeap> = vec![];
    for d in ds {
        let d = d.canonical();
        if !d.inconsistent() && !out.contains(&d) {
            out.push(d);
        }
        if out.len() >= MAX_DISJUNCTS {
            break;
        }
    }
    out
}

/// The resource the failing command needs: `false` for an error call, the cell a faulting
/// access or `free` touches otherwise.
fn needs(prog: &Program, op: &Op) -> Vec<SymHeap> {
    if let Op::Call {
        callee: Callee::Builtin(Builtin::Error(_)),
        ..
    } = op
    {
        return vec![];
    }
    let mut d = junk();
    let mut derefs = vec![];
    for e in op.exprs() {
        e.visit(&mut |x| {
            if let ExprKind::Field(base, _, _) = &x.kind
                && let (ExprKind::Deref(p), Type::Struct(s)) = (&base.kind, &base.ty)
            {
                derefs.push((p.as_ref().clone(), *s));
            }
        });
    }
    if let Op::Call {
        callee: Callee::Builtin(Builtin::Free),
        args,
        ..
    } = op
        && let Some(p) = args.first()
        && let Some(Type::Struct(s)) = p.ty.pointee()
    {
        derefs.push((p.clone(), *s));
    }
    for (p, s) in derefs {
        if let Some((g, a)) = term(prog, &d, &p) {
            d = g;
            cell_at(prog, &mut d, a, s);
        }
    }
    vec![d]
}

/// `true`: the empty resource with junk.
fn junk() -> SymHeap {
    SymHeap {
        junk: true,
        ..SymHeap::emp()
    }
}

/// The backward transfer of one command over a disjunction.
fn back(prog: &Program, op: &Op, post: &[SymHeap]) -> Vec<SymHeap> {
    let mut out = vec![];
    match op {
        Op::Assume { cond, positive } => {
            out.extend(negation(prog, cond, *positive));
            out.extend(post.iter().cloned());
        }
        Op::Call {
            callee: Callee::Builtin(Builtin::Assume),
            args,
            ..
        } => {
            if let Some(c) = args.first() {
                out.extend(negation(prog, c, true));
            }
            out.extend(post.iter().cloned());
        }
        _ => {
            for d in post {
                out.extend(back_one(prog, op, d));
            }
        }
    }
    out
}

/// The backward transfer of a command other than an assumption on one disjunct.
fn back_one(prog: &Program, op: &Op, d: &SymHeap) -> Option<SymHeap> {
    match op {
        Op::Assign { lhs, rhs } => assign_back(prog, d, lhs, Some(rhs)),
        Op::Havoc(v) => forall(d, *v),
        Op::Call {
            lhs: Some(l),
            callee: Callee::Builtin(Builtin::Nondet),
            ..
        } => match l.kind {
            ExprKind::Var(v) => forall(d, v),
            _ => assign_back(prog, d, l, None),
        },
        Op::Call {
            lhs: Some(l),
            callee: Callee::Builtin(Builtin::Alloc(_)),
            ..
        } => {
            let ExprKind::Var(v) = l.kind else {
                return None;
            };
            // The new cell is no part of the resource before, and its address a new value;
            // a resource that needs the allocation to fail (`x = NULL`, the branch after
            // `if (!x)`) is no condition on the state before, and is dropped.
            let x = Term::Var(v);
            let c = Classes::new(&d.pure);
            if c.equal(x, Term::Nil) {
                return None;
            }
            let mut g = d.clone();
            g.cells.retain(|cell| !c.equal(cell.addr, x));
            Some(g.subst(x, g.fresh()))
        }
        _ => Some(d.clone()),
    }
}

/// `∀v. d`, as far as this fragment says: `d` if it does not mention `v`, else `false`.
fn forall(d: &SymHeap, v: VarId) -> Option<SymHeap> {
    (!d.terms().contains(&Term::Var(v))).then(|| d.clone())
}

/// The resource before `lhs = rhs` (`rhs` unknown: `None`).
fn assign_back(prog: &Program, d: &SymHeap, lhs: &Expr, rhs: Option<&Expr>) -> Option<SymHeap> {
    match &lhs.kind {
        ExprKind::Var(v) => {
            let x = Term::Var(*v);
            if !d.terms().contains(&x) {
                return Some(d.clone());
            }
            // The resource speaks of the new value; the reads of `rhs` of the old heap.
            let w = d.fresh();
            let (g, val) = term(prog, &d.subst(x, w), rhs?)?;
            Some(g.subst(w, val))
        }
        ExprKind::Field(base, off, _) => {
            let (ExprKind::Deref(p), Type::Struct(s)) = (&base.kind, &base.ty) else {
                return Some(d.clone());
            };
            let f = field(prog, *s, *off)?;
            let (mut g, a) = term(prog, d, p)?;
            let c = Classes::new(&g.pure);
            let Some(i) = g.cells.iter().position(|cell| c.equal(cell.addr, a)) else {
                // Not part of the resource: the write must not touch its cells.
                let others: Vec<Term> = g.cells.iter().map(|cell| cell.addr).collect();
                for b in others {
                    g.assume(Atom::ne(a, b));
                }
                return Some(g);
            };
            let old = g.cells[i].fields[f];
            let fresh = g.fresh();
            g.cells[i].fields[f] = fresh;
            match rhs {
                Some(r) => {
                    let (mut h, v) = term(prog, &g, r)?;
                    h.assume(Atom::eq(old, v));
                    Some(h)
                }
                None => (!g.terms().contains(&old) || old.is_ex()).then_some(g),
            }
        }
        _ => Some(d.clone()),
    }
}

/// `¬c` (of `assume(c)` or of its negation) as resources, with the cells its reads need.
fn negation(prog: &Program, cond: &Expr, positive: bool) -> Vec<SymHeap> {
    // A scalar tested for truth (`if (p)`, `if (!found)`) is compared with zero.
    let zero = Expr {
        kind: ExprKind::Const(0),
        ty: cond.ty.clone(),
    };
    let (op, a, b) = match &cond.kind {
        ExprKind::Cmp(op, a, b) => (*op, a.as_ref(), b.as_ref()),
        _ if cond.ty.is_scalar() => (CmpOp::Ne, cond, &zero),
        _ => return vec![],
    };
    let op = if positive { op.negate() } else { op };
    let Some((g, x)) = term(prog, &junk(), a) else {
        return vec![];
    };
    let Some((g, y)) = term(prog, &g, b) else {
        return vec![];
    };
    super::exec::constrain(&g, op, x, y)
}

/// The term of an expression in a resource, abducing the cells its reads need; `None` for a
/// value the terms cannot express.
fn term(prog: &Program, d: &SymHeap, e: &Expr) -> Option<(SymHeap, Term)> {
    match &e.kind {
        ExprKind::Const(0) if matches!(e.ty, Type::Ptr(_)) => Some((d.clone(), Term::Nil)),
        ExprKind::Const(k) if !matches!(e.ty, Type::Ptr(_)) => Some((d.clone(), Term::Int(*k))),
        ExprKind::Var(v) if e.ty.is_scalar() => Some((d.clone(), Term::Var(*v))),
        ExprKind::Cast(a) => term(prog, d, a),
        ExprKind::Field(base, off, _) => {
            let (ExprKind::Deref(p), Type::Struct(s)) = (&base.kind, &base.ty) else {
                return None;
            };
            let f = field(prog, *s, *off)?;
            let (mut g, a) = term(prog, d, p)?;
            let i = cell_at(prog, &mut g, a, *s);
            let v = g.cells[i].fields[f];
            Some((g, v))
        }
        _ => None,
    }
}

/// The index of the resource's cell at `a`, added (fields fresh) if it has none.
fn cell_at(prog: &Program, d: &mut SymHeap, a: Term, s: StructId) -> usize {
    let c = Classes::new(&d.pure);
    if let Some(i) = d.cells.iter().position(|x| c.equal(x.addr, a)) {
        return i;
    }
    let Term::Ex(first) = d.fresh() else {
        unreachable!("fresh terms are existentials")
    };
    let n = prog.strukt(s).fields.len() as u32;
    let cell = Cell {
        addr: a,
        ty: s,
        fields: (first..first + n).map(Term::Ex).collect(),
    };
    d.cells.push(cell.clone());
    d.sort();
    d.cells.iter().position(|x| *x == cell).unwrap_or(0)
}

/// The index of the scalar field at `off`.
fn field(prog: &Program, s: StructId, off: u64) -> Option<usize> {
    prog.strukt(s)
        .fields
        .iter()
        .position(|f| f.offset == off && f.bits.is_none())
}
