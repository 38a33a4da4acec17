//! The SMT layer: encodes path conditions over symbolic terms as Z3 bit-vector formulas, decides
//! them, and turns models into concrete input values.
//!
//! Consumes conjunctions of [`Term`]s (each meaning "term != 0"); produces `Sat(model)`,
//! `Unsat` or `Unknown`. Terms are machine integers, so the encoding is exact for C's
//! two's-complement arithmetic (ILP32 widths).

use crate::explicit::term::{Term, TermRef};
use crate::program::ir::{BinOp, CmpOp, IntTy, UnOp};
use std::collections::{BTreeMap, HashMap};
use z3::ast::{BV, Bool};
use z3::{SatResult, Solver};

pub mod ssa;

/// The answer of a satisfiability check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// Satisfiable, with a value for every symbol that occurs.
    Sat(BTreeMap<u32, i64>),
    /// Unsatisfiable.
    Unsat,
    /// The solver gave up.
    Unknown(String),
}

/// The Z3 library version linked into this binary.
pub fn z3_version() -> String {
    z3::full_version().to_string()
}

/// The oldest Z3 release the `z3` crate supports (its bindings come from 5.3.2, the release
/// `scripts/setup-z3.sh` provisions).
pub const Z3_WANTED: (u32, u32, u32) = (4, 13, 3);

/// A warning when the linked Z3 is older than [`Z3_WANTED`] (a system library found because
/// `make setup` did not run): it solves the same formulas, but its models, and so the
/// template engine's invariants, and its speed differ from the tested build's.
pub fn old_z3_warning() -> Option<String> {
    let v = z3_version();
    let parts: Vec<u32> = v.split('.').filter_map(|p| p.parse().ok()).collect();
    let (a, b, c) = Z3_WANTED;
    match parts[..] {
        [x, y, z, ..] if (x, y, z) >= Z3_WANTED => None,
        _ => Some(format!(
            "warning: the linked Z3 {v} is older than {a}.{b}.{c}; run `make setup` and rebuild \
             (`cargo clean -p z3-sys -p z3`) for the Z3 this build is tested with"
        )),
    }
}

/// Decides the conjunction of `conds` (each meaning `cond != 0`).
pub fn check(conds: &[TermRef]) -> Answer {
    SOLVER.with(|solver| {
        solver.push();
        let r = check_with(solver, conds);
        solver.pop(1);
        r
    })
}

thread_local! {
    /// One solver per thread, reused with push/pop (creating solvers is costly).
    static SOLVER: Solver = Solver::new();
}

fn check_with(solver: &Solver, conds: &[TermRef]) -> Answer {
    if crate::engine::budget::check().is_err() {
        return Answer::Unknown("the run's budget is exhausted".into());
    }
    if crate::engine::budget::get().deadline.is_some() {
        let mut params = z3::Params::new();
        params.set_u32(
            "timeout",
            crate::engine::budget::solver_timeout_ms(u32::MAX),
        );
        solver.set_params(&params);
    }
    let mut enc = Encoder::default();
    for c in conds {
        let bv = enc.encode(c);
        solver.assert(nonzero(&bv));
    }
    match solver.check() {
        SatResult::Unsat => Answer::Unsat,
        SatResult::Unknown => Answer::Unknown(solver.get_reason_unknown().unwrap_or_default()),
        SatResult::Sat => match solver.get_model() {
            Some(model) => Answer::Sat(enc.values(&model)),
            None => Answer::Unknown("no model".into()),
        },
    }
}

fn nonzero(bv: &BV) -> Bool {
    let zero = BV::from_u64(0, bv.get_size());
    bv.eq(&zero).not()
}

/// Translates terms to Z3, sharing symbols and repeated subterms.
#[derive(Default)]
struct Encoder {
    syms: BTreeMap<u32, (BV, IntTy)>,
    cache: HashMap<TermRef, BV>,
}

impl Encoder {
    fn encode(&mut self, t: &TermRef) -> BV {
        if let Some(bv) = self.cache.get(t) {
            return bv.clone();
        }
        let bv = self.encode_uncached(t);
        self.cache.insert(t.clone(), bv.clone());
        bv
    }

    fn encode_uncached(&mut self, t: &TermRef) -> BV {
        match &**t {
            Term::Const(bits, ty) if ty.bits <= 64 => {
                BV::from_u64(*bits as u64, u32::from(ty.bits))
            }
            Term::Const(bits, ty) => {
                let hi = BV::from_u64((*bits >> 64) as u64, u32::from(ty.bits) - 64);
                hi.concat(BV::from_u64(*bits as u64, 64))
            }
            Term::Sym(n, ty) => self.symbol(*n, *ty),
            Term::Unary(op, a, _) => {
                let a = self.encode(a);
                match op {
                    UnOp::Neg => a.bvneg(),
                    UnOp::Not => a.bvnot(),
                }
            }
            Term::Binary(op, a, b, ty) => {
                let (a, b) = (self.encode(a), self.encode(b));
                binary(*op, &a, &b, ty.signed)
            }
            Term::Cmp(op, a, b) => {
                let signed = a.ty().signed;
                let (a, b) = (self.encode(a), self.encode(b));
                let c = compare(*op, &a, &b, signed);
                c.ite(&BV::from_u64(1, 32), &BV::from_u64(0, 32))
            }
            Term::Cast(a, to) => {
                let from = a.ty();
                let a = self.encode(a);
                resize(a, from, *to)
            }
        }
    }

    fn symbol(&mut self, n: u32, ty: IntTy) -> BV {
        let entry = self
            .syms
            .entry(n)
            .or_insert_with(|| (BV::new_const(format!("in{n}"), u32::from(ty.bits)), ty));
        entry.0.clone()
    }

    fn values(&self, model: &z3::Model) -> BTreeMap<u32, i64> {
        let mut out = BTreeMap::new();
        for (n, (bv, ty)) in &self.syms {
            let v = model.eval(bv, true).and_then(|v| v.as_u64()).unwrap_or(0);
            let v = if ty.signed {
                crate::explicit::term::sign_extend(v, ty.bits)
            } else {
                v as i64
            };
            out.insert(*n, v);
        }
        out
    }
}

pub(crate) fn binary(op: BinOp, a: &BV, b: &BV, signed: bool) -> BV {
    match op {
        BinOp::Add => a.bvadd(b),
        BinOp::Sub => a.bvsub(b),
        BinOp::Mul => a.bvmul(b),
        BinOp::Div if signed => a.bvsdiv(b),
        BinOp::Div => a.bvudiv(b),
        BinOp::Rem if signed => a.bvsrem(b),
        BinOp::Rem => a.bvurem(b),
        BinOp::And => a.bvand(b),
        BinOp::Or => a.bvor(b),
        BinOp::Xor => a.bvxor(b),
        BinOp::Shl => a.bvshl(b),
        BinOp::Shr if signed => a.bvashr(b),
        BinOp::Shr => a.bvlshr(b),
    }
}

pub(crate) fn compare(op: CmpOp, a: &BV, b: &BV, signed: bool) -> Bool {
    match (op, signed) {
        (CmpOp::Eq, _) => a.eq(b),
        (CmpOp::Ne, _) => a.eq(b).not(),
        (CmpOp::Lt, true) => a.bvslt(b),
        (CmpOp::Le, true) => a.bvsle(b),
        (CmpOp::Gt, true) => a.bvsgt(b),
        (CmpOp::Ge, true) => a.bvsge(b),
        (CmpOp::Lt, false) => a.bvult(b),
        (CmpOp::Le, false) => a.bvule(b),
        (CmpOp::Gt, false) => a.bvugt(b),
        (CmpOp::Ge, false) => a.bvuge(b),
    }
}

fn resize(a: BV, from: IntTy, to: IntTy) -> BV {
    resize_bits(a, from.signed, u32::from(to.bits))
}

/// `a` truncated or extended (by its sign when `signed`) to `to` bits.
pub(crate) fn resize_bits(a: BV, signed: bool, to: u32) -> BV {
    let from = a.get_size();
    if to < from {
        a.extract(to - 1, 0)
    } else if to == from {
        a
    } else if signed {
        a.sign_ext(to - from)
    } else {
        a.zero_ext(to - from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explicit::term::{binary as tbin, compare as tcmp};
    use std::rc::Rc;

    fn sym(n: u32) -> TermRef {
        Rc::new(Term::Sym(n, IntTy::INT))
    }

    #[test]
    fn linked_z3_is_recent() {
        let v = z3_version();
        assert_eq!(old_z3_warning(), None, "Z3 {v}");
        assert!(
            v.starts_with("5.3.2"),
            "expected the provisioned Z3 5.3.2, found {v}"
        );
    }

    #[test]
    fn contradictory_bounds_are_unsat() {
        let five = Term::constant(5, IntTy::INT);
        let three = Term::constant(3, IntTy::INT);
        let c1 = tcmp(CmpOp::Gt, sym(0), five);
        let c2 = tcmp(CmpOp::Lt, sym(0), three);
        assert_eq!(check(&[c1, c2]), Answer::Unsat);
    }

    #[test]
    fn model_respects_wraparound() {
        // x + 1 < x holds only for INT_MAX under wrap-around.
        let one = Term::constant(1, IntTy::INT);
        let c = tcmp(CmpOp::Lt, tbin(BinOp::Add, sym(0), one).unwrap(), sym(0));
        match check(&[c]) {
            Answer::Sat(m) => assert_eq!(m[&0], i32::MAX as i64),
            other => panic!("expected sat, got {other:?}"),
        }
    }
}
