//! The part of a template invariant that C can state, for correctness witnesses.
//!
//! Consumes the encoding's rows over registers at loop heads ([`HeadRow`]), their final
//! parameters and the inlined program; produces [`LocatedInvariant`]s: per loop of a
//! function inlined once, the conjunction of the rows over its own variables (and globals)
//! written as C (`lo <= x && x <= hi`, `(long long)x - (long long)y <= c`, `p == 0`,
//! `p != 0`), each kept only when a fresh solver shows that it holds at every visit of the
//! head, the first included (the rows themselves speak of the values at the back edges).
//! Rows over heap objects (each summary stands for unboundedly many objects) have no C
//! form and are left out.

use super::encode::{Encoding, HeadRow};
use super::flat::Flat;
use super::rows::Term;
use super::template::{Kind, Param, Templates};
use crate::engine::Budget;
use crate::program::ir::{FuncId, Program, Type, VarId};
use crate::witness::correctness::{LocatedInvariant, c_name};
use std::collections::BTreeMap;
use z3::{SatResult, Solver};

/// The loop invariants `enc`'s rows give, checked; none when the budget runs out.
pub fn located(
    prog: &Program,
    flat: &Flat,
    enc: &Encoding,
    tpl: &Templates,
    budget: Budget,
) -> Vec<LocatedInvariant> {
    let solver = Solver::new();
    for b in enc.background.iter().chain(&tpl.fix()) {
        solver.assert(b);
    }
    let mut per_head: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    for h in &enc.at_heads {
        if budget.check().is_err() {
            return vec![];
        }
        let Some((f, _)) = place(prog, flat, h.head) else {
            continue;
        };
        let Some(text) = c_row(prog, tpl, h, f) else {
            continue;
        };
        solver.push();
        solver.assert(&h.guard);
        solver.assert(h.holds.not());
        let holds_always = solver.check() == SatResult::Unsat;
        solver.pop(1);
        if holds_always {
            per_head.entry(h.head).or_default().push(text);
        }
    }
    per_head
        .into_iter()
        .filter_map(|(head, conj)| {
            let (f, (line, column)) = place(prog, flat, head)?;
            Some(LocatedInvariant {
                line,
                column,
                function: prog.func(f).name.clone(),
                value: conj.join(" && "),
            })
        })
        .collect()
}

/// The function of a flat loop head and the line and column of its loop statement, when
/// the function was inlined once (a loop copied into several calling contexts has one
/// invariant per copy, which C cannot tell apart).
fn place(prog: &Program, flat: &Flat, head: usize) -> Option<(FuncId, (u32, u32))> {
    let (f, node) = flat.origin.get(head).copied().flatten()?;
    let func = prog.func(f);
    if func.library || flat.copies.get(&f).copied().unwrap_or(0) != 1 {
        return None;
    }
    let e = func
        .cfa
        .edges(node)
        .map(|e| e.weight())
        .find(|e| e.column > 0)?;
    Some((f, (e.line, e.column)))
}

/// Row `h` in C over the variables of `f`, if it says something and C can say it.
fn c_row(prog: &Program, tpl: &Templates, h: &HeadRow, f: FuncId) -> Option<String> {
    if tpl.is_top(h.row) {
        return None;
    }
    let names: Option<Vec<(i64, String, Type)>> = (h.terms.iter())
        .map(|(c, t)| match t {
            Term::Reg(v) => visible(prog, *v, f).map(|n| (*c, n, prog.var(*v).ty.clone())),
            _ => None,
        })
        .collect();
    let names = names?;
    match (&tpl.rows[h.row].kind, &tpl.params[h.row]) {
        (_, Param::Interval { empty: true, .. }) | (Kind::PointsTo, Param::PointsTo { .. })
            if is_empty(&tpl.params[h.row]) =>
        {
            Some("0".into())
        }
        (Kind::Interval { signed, bits }, Param::Interval { lo, hi, .. }) => {
            let (name, ty) = (&names[0].1, &names[0].2);
            let (min, max) = limits(*bits, *signed);
            let mut parts = vec![];
            if *lo > min {
                parts.push(format!("{} <= {name}", constant(*lo, ty)));
            }
            if *hi < max {
                parts.push(format!("{name} <= {}", constant(*hi, ty)));
            }
            (!parts.is_empty()).then(|| parts.join(" && "))
        }
        (Kind::Upper, Param::Interval { hi, .. }) => {
            if names
                .iter()
                .any(|(_, _, t)| !matches!(t, Type::Int(i) if i.bits <= 32))
            {
                return None;
            }
            let sum: Vec<String> = names
                .iter()
                .map(|(c, n, _)| match c {
                    1 => format!("(long long){n}"),
                    -1 => format!("-(long long){n}"),
                    c => format!("{c}LL * (long long){n}"),
                })
                .collect();
            Some(format!(
                "{} <= {hi}LL",
                sum.join(" + ").replace("+ -", "- ")
            ))
        }
        (Kind::PointsTo, Param::PointsTo { set, dangling, top }) => {
            let name = &names[0].1;
            let others = set.iter().skip(1).any(|m| *m) || dangling.iter().any(|d| *d);
            match (*top, set.first().copied().unwrap_or(false), others) {
                (false, true, false) => Some(format!("{name} == 0")),
                (false, false, true) => Some(format!("{name} != 0")),
                _ => None,
            }
        }
        _ => None,
    }
}

fn is_empty(p: &Param) -> bool {
    match p {
        Param::Interval { empty, .. } => *empty,
        Param::PointsTo { set, dangling, top } => {
            !*top && !set.iter().any(|m| *m) && !dangling.iter().any(|d| *d)
        }
    }
}

/// The C name of register `v` when it is a variable of the program (not a copy, temporary
/// or result of inlining) visible in `f` under that name.
fn visible(prog: &Program, v: VarId, f: FuncId) -> Option<String> {
    ((v.0 as usize) < prog.vars.len())
        .then(|| c_name(prog, v, f))
        .flatten()
}

/// The bounds of a `bits`-bit integer.
fn limits(bits: u32, signed: bool) -> (i128, i128) {
    match signed {
        true => (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1),
        false => (0, (1i128 << bits) - 1),
    }
}

/// `n` as a C constant of type `ty` (a suffix keeps unsigned and 64-bit constants exact).
fn constant(n: i128, ty: &Type) -> String {
    match ty {
        Type::Int(i) if !i.signed && i.bits == 64 => format!("{n}ULL"),
        Type::Int(i) if !i.signed => format!("{n}U"),
        Type::Int(i) if i.bits == 64 => format!("{n}LL"),
        _ => n.to_string(),
    }
}
