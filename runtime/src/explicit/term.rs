//! Symbolic machine-integer terms: the values of the explicit-heap states.
//!
//! A term is a constant, a symbol standing for one nondeterministic input (the "unknown" of
//! the explicit heaps), or an operation on terms. Constructors fold constants with C's
//! two's-complement semantics, so a run without nondeterminism never builds a symbolic term.
//! `crate::smt` encodes terms as Z3 bit-vectors.

use crate::program::ir::{BinOp, CmpOp, IntTy, UnOp};
use std::fmt;
use std::rc::Rc;

/// A shared term.
pub type TermRef = Rc<Term>;

/// A machine-integer term.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Term {
    /// A constant; `bits` holds the value truncated to the type's width (up to 128).
    Const(u128, IntTy),
    /// The `n`-th nondeterministic input of the path.
    Sym(u32, IntTy),
    /// Unary operation.
    Unary(UnOp, TermRef, IntTy),
    /// Binary operation; both operands have type `IntTy`.
    Binary(BinOp, TermRef, TermRef, IntTy),
    /// Comparison of two operands of the same type; yields `int` 0 or 1.
    Cmp(CmpOp, TermRef, TermRef),
    /// Conversion of the operand to `IntTy`.
    Cast(TermRef, IntTy),
}

/// Truncates `v` to `bits` bits.
pub fn mask(v: u64, bits: u8) -> u64 {
    mask128(u128::from(v), bits) as u64
}

/// Truncates `v` to `bits` bits (up to 128).
pub fn mask128(v: u128, bits: u8) -> u128 {
    if bits >= 128 {
        v
    } else {
        v & ((1u128 << bits) - 1)
    }
}

/// Interprets the low `bits` bits of `v` as a signed number (up to 128 bits).
pub fn sign_extend128(v: u128, bits: u8) -> i128 {
    if bits >= 128 {
        v as i128
    } else {
        let shift = 128 - u32::from(bits);
        ((v << shift) as i128) >> shift
    }
}

/// Interprets the low `bits` bits of `v` as a signed number.
pub fn sign_extend(v: u64, bits: u8) -> i64 {
    if bits >= 64 {
        v as i64
    } else {
        let shift = 64 - u32::from(bits);
        ((v << shift) as i64) >> shift
    }
}

impl Term {
    /// The type of the term.
    pub fn ty(&self) -> IntTy {
        match self {
            Term::Const(_, t) | Term::Sym(_, t) | Term::Unary(_, _, t) => *t,
            Term::Binary(_, _, _, t) | Term::Cast(_, t) => *t,
            Term::Cmp(..) => IntTy::INT,
        }
    }

    /// A constant of type `ty` from any integer (sign-extended to the type's width first).
    pub fn constant(v: i64, ty: IntTy) -> TermRef {
        Rc::new(Term::Const(mask128(v as i128 as u128, ty.bits), ty))
    }

    /// A constant of type `ty` with the given bits.
    pub fn constant_bits(v: u128, ty: IntTy) -> TermRef {
        Rc::new(Term::Const(mask128(v, ty.bits), ty))
    }

    /// The constant value as a 64-bit integer, if constant: sign-extended for signed types,
    /// the bits read as `i64` for unsigned ones; `None` for a 128-bit value outside `i64`.
    pub fn as_const(&self) -> Option<i64> {
        match self {
            Term::Const(b, t) if t.bits > 64 => i64::try_from(self.as_i128()?).ok(),
            Term::Const(b, t) if t.signed => Some(sign_extend(*b as u64, t.bits)),
            Term::Const(b, _) => Some(*b as u64 as i64),
            _ => None,
        }
    }

    /// The constant value as a mathematical integer (`None` for an unsigned 128-bit value
    /// above `i128::MAX`).
    pub fn as_i128(&self) -> Option<i128> {
        match self {
            Term::Const(b, t) if t.signed => Some(sign_extend128(*b, t.bits)),
            Term::Const(b, _) => i128::try_from(*b).ok(),
            _ => None,
        }
    }

    /// Whether the term contains no symbol.
    pub fn is_const(&self) -> bool {
        matches!(self, Term::Const(..))
    }

    /// Collects the symbols of the term.
    pub fn symbols(&self, out: &mut Vec<u32>) {
        match self {
            Term::Const(..) => {}
            Term::Sym(n, _) => out.push(*n),
            Term::Unary(_, a, _) | Term::Cast(a, _) => a.symbols(out),
            Term::Binary(_, a, b, _) | Term::Cmp(_, a, b) => {
                a.symbols(out);
                b.symbols(out);
            }
        }
    }
}

/// `op a` with folding.
pub fn unary(op: UnOp, a: TermRef) -> TermRef {
    let ty = a.ty();
    match &*a {
        Term::Const(bits, _) => Term::constant_bits(
            match op {
                UnOp::Neg => bits.wrapping_neg(),
                UnOp::Not => !bits,
            },
            ty,
        ),
        _ => Rc::new(Term::Unary(op, a, ty)),
    }
}

/// `a op b` with folding; `None` when the result is undefined (division by zero).
pub fn binary(op: BinOp, a: TermRef, b: TermRef) -> Option<TermRef> {
    let ty = a.ty();
    if let (Term::Const(x, _), Term::Const(y, _)) = (&*a, &*b) {
        return fold_binary(op, *x, *y, ty).map(|v| Rc::new(Term::Const(mask128(v, ty.bits), ty)));
    }
    if matches!(op, BinOp::Div | BinOp::Rem) && b.as_const() == Some(0) {
        return None;
    }
    Some(Rc::new(Term::Binary(op, a, b, ty)))
}

fn fold_binary(op: BinOp, x: u128, y: u128, ty: IntTy) -> Option<u128> {
    let (sx, sy) = (sign_extend128(x, ty.bits), sign_extend128(y, ty.bits));
    let shift = (y & 127) as u32;
    Some(match op {
        BinOp::Add => x.wrapping_add(y),
        BinOp::Sub => x.wrapping_sub(y),
        BinOp::Mul => x.wrapping_mul(y),
        BinOp::Div if y == 0 => return None,
        BinOp::Rem if y == 0 => return None,
        BinOp::Div if ty.signed => sx.wrapping_div(sy) as u128,
        BinOp::Rem if ty.signed => sx.wrapping_rem(sy) as u128,
        BinOp::Div => mask128(x, ty.bits) / mask128(y, ty.bits),
        BinOp::Rem => mask128(x, ty.bits) % mask128(y, ty.bits),
        BinOp::And => x & y,
        BinOp::Or => x | y,
        BinOp::Xor => x ^ y,
        BinOp::Shl => x.wrapping_shl(shift),
        BinOp::Shr if ty.signed => (sx >> shift.min(127)) as u128,
        BinOp::Shr => x.checked_shr(shift).unwrap_or(0),
    })
}

/// `a op b` as an `int` 0/1 with folding.
pub fn compare(op: CmpOp, a: TermRef, b: TermRef) -> TermRef {
    if let (Term::Const(x, t), Term::Const(y, _)) = (&*a, &*b) {
        let ord = if t.signed {
            sign_extend128(*x, t.bits).cmp(&sign_extend128(*y, t.bits))
        } else {
            x.cmp(y)
        };
        let r = match op {
            CmpOp::Eq => ord.is_eq(),
            CmpOp::Ne => ord.is_ne(),
            CmpOp::Lt => ord.is_lt(),
            CmpOp::Le => ord.is_le(),
            CmpOp::Gt => ord.is_gt(),
            CmpOp::Ge => ord.is_ge(),
        };
        return Term::constant(i64::from(r), IntTy::INT);
    }
    Rc::new(Term::Cmp(op, a, b))
}

/// Conversion to `to` with folding.
pub fn cast(a: TermRef, to: IntTy) -> TermRef {
    let from = a.ty();
    if from == to {
        return a;
    }
    match &*a {
        Term::Const(bits, t) if t.signed => {
            Term::constant_bits(sign_extend128(*bits, t.bits) as u128, to)
        }
        Term::Const(bits, _) => Term::constant_bits(*bits, to),
        _ => Rc::new(Term::Cast(a, to)),
    }
}

/// The value of `t` when every symbol `n` has the value `env[n]` (0 when absent); `None`
/// when it divides by zero.
pub fn evaluate(t: &TermRef, env: &std::collections::BTreeMap<u32, i64>) -> Option<u64> {
    match &*substitute(t, env)? {
        Term::Const(bits, _) => Some(*bits as u64),
        _ => None,
    }
}

fn substitute(t: &TermRef, env: &std::collections::BTreeMap<u32, i64>) -> Option<TermRef> {
    Some(match &**t {
        Term::Const(..) => t.clone(),
        Term::Sym(n, ty) => Term::constant(env.get(n).copied().unwrap_or(0), *ty),
        Term::Unary(op, a, _) => unary(*op, substitute(a, env)?),
        Term::Binary(op, a, b, _) => binary(*op, substitute(a, env)?, substitute(b, env)?)?,
        Term::Cmp(op, a, b) => compare(*op, substitute(a, env)?, substitute(b, env)?),
        Term::Cast(a, to) => cast(substitute(a, env)?, *to),
    })
}

/// `a != 0` as a condition term (`int` 0/1).
pub fn truth(a: TermRef) -> TermRef {
    if let Term::Cmp(..) = &*a {
        return a;
    }
    let zero = Term::constant(0, a.ty());
    compare(CmpOp::Ne, a, zero)
}

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Term::Const(..) => write!(f, "{}", self.as_const().unwrap_or_default()),
            Term::Sym(n, _) => write!(f, "in{n}"),
            Term::Unary(UnOp::Neg, a, _) => write!(f, "-({a})"),
            Term::Unary(UnOp::Not, a, _) => write!(f, "~({a})"),
            Term::Binary(op, a, b, _) => write!(f, "({a} {} {b})", bin_symbol(*op)),
            Term::Cmp(op, a, b) => write!(f, "({a} {} {b})", cmp_symbol(*op)),
            Term::Cast(a, t) => write!(f, "({t}){a}"),
        }
    }
}

/// The C spelling of a binary operator.
pub fn bin_symbol(op: BinOp) -> &'static str {
    match op {
        BinOp::Add => "+",
        BinOp::Sub => "-",
        BinOp::Mul => "*",
        BinOp::Div => "/",
        BinOp::Rem => "%",
        BinOp::And => "&",
        BinOp::Or => "|",
        BinOp::Xor => "^",
        BinOp::Shl => "<<",
        BinOp::Shr => ">>",
    }
}

/// The C spelling of a comparison.
pub fn cmp_symbol(op: CmpOp) -> &'static str {
    match op {
        CmpOp::Eq => "==",
        CmpOp::Ne => "!=",
        CmpOp::Lt => "<",
        CmpOp::Le => "<=",
        CmpOp::Gt => ">",
        CmpOp::Ge => ">=",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folding_wraps_like_c() {
        let u = IntTy::UINT;
        let x = binary(BinOp::Sub, Term::constant(0, u), Term::constant(1, u)).unwrap();
        assert_eq!(x.as_const(), Some(4294967295));
        let i = IntTy::INT;
        let y = binary(
            BinOp::Add,
            Term::constant(i32::MAX as i64, i),
            Term::constant(1, i),
        );
        assert_eq!(y.unwrap().as_const(), Some(i32::MIN as i64));
        assert_eq!(
            cast(Term::constant(-1, i), IntTy::CHAR).as_const(),
            Some(-1)
        );
        assert_eq!(
            cast(Term::constant(300, i), IntTy::BOOL).as_const(),
            Some(44)
        );
    }

    #[test]
    fn signed_division_and_comparison() {
        let i = IntTy::INT;
        let q = binary(BinOp::Div, Term::constant(-7, i), Term::constant(2, i)).unwrap();
        assert_eq!(q.as_const(), Some(-3));
        assert!(binary(BinOp::Div, Term::constant(1, i), Term::constant(0, i)).is_none());
        let c = compare(CmpOp::Lt, Term::constant(-1, i), Term::constant(0, i));
        assert_eq!(c.as_const(), Some(1));
    }

    #[test]
    fn symbols_stay_symbolic() {
        let s = Rc::new(Term::Sym(0, IntTy::INT));
        let t = binary(BinOp::Add, s.clone(), Term::constant(1, IntTy::INT)).unwrap();
        let mut syms = vec![];
        t.symbols(&mut syms);
        assert_eq!(syms, vec![0]);
        assert_eq!(t.to_string(), "(in0 + 1)");
    }
}
