//! The template domains: rows of the invariant, their parameters and the lattice operations
//! the synthesis needs.
//!
//! Consumes the values the encoding constrains at loop heads; produces for each row `T(x, d)`
//! as a Z3 formula over parameter variables, the constraints that fix the parameters to their
//! current values `d`, the join of a model's value into `d` (set union for points-to rows,
//! the interval hull for interval rows, widened to the program's constants and then to the
//! type's bounds when a bound keeps moving), and the row printed as a formula.

use z3::ast::{BV, Bool};

/// How many times a bound moves to the exact value before it moves to the next threshold
/// (a constant of the program) beyond it, or to the type's limit when there is none.
const EXACT_MOVES: u32 = 2;

/// How many times a bound may move before it is widened to the type's limit.
const WIDEN_AFTER: u32 = 16;

/// What a row constrains.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `x == a1 || ... || x == ak` over the address universe (or anything, at top).
    PointsTo,
    /// `x <= hi` for a signed 64-bit `x` (a weighted sum of values), or false when empty.
    Upper,
    /// `lo <= x && x <= hi` (or false when empty).
    Interval {
        /// Signed comparison.
        signed: bool,
        /// Width in bits.
        bits: u32,
    },
}

/// A parameter value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Param {
    /// The addresses (indices into the universe) and whether any other value is allowed.
    PointsTo {
        /// Members.
        set: Vec<bool>,
        /// Members admitted also where their object does not exist (a dangling pointer:
        /// the object was freed, or a weak update left a stale copy of a pointer to it).
        dangling: Vec<bool>,
        /// Any value.
        top: bool,
    },
    /// An interval, empty at first.
    Interval {
        /// Bottom.
        empty: bool,
        /// Lower bound.
        lo: i128,
        /// Upper bound.
        hi: i128,
        /// How often the bounds moved.
        moves: u32,
        /// The hull of the values joined (the bounds before widening): where narrowing
        /// tries to go back to.
        seen: (i128, i128),
    },
}

enum Vars {
    PointsTo {
        has: Vec<Bool>,
        dangling: Vec<Bool>,
        top: Bool,
    },
    Interval {
        empty: Bool,
        lo: BV,
        hi: BV,
    },
}

/// A side of a numeric row's interval.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Side {
    /// The lower bound.
    Lower,
    /// The upper bound.
    Upper,
}

/// A row: one constrained value at one loop head.
pub struct Row {
    /// Its kind.
    pub kind: Kind,
    /// What it constrains, for reports (`p at the loop of line 10`).
    pub what: String,
    vars: Vars,
}

/// All rows of a program's invariant with their parameters.
pub struct Templates {
    /// The rows.
    pub rows: Vec<Row>,
    /// Their current parameters.
    pub params: Vec<Param>,
    /// The addresses points-to rows range over, with their names.
    pub universe: Vec<(u64, String)>,
    /// Widening thresholds: the program's integer constants, sorted.
    pub thresholds: Vec<i128>,
}

impl Templates {
    /// Empty, over an address universe and the program's constants.
    pub fn new(universe: Vec<(u64, String)>, mut thresholds: Vec<i128>) -> Templates {
        thresholds.sort_unstable();
        thresholds.dedup();
        Templates {
            rows: vec![],
            params: vec![],
            universe,
            thresholds,
        }
    }

    /// Adds a row at bottom; returns its number.
    pub fn add(&mut self, kind: Kind, what: String) -> usize {
        let n = self.rows.len();
        let (vars, param) = match &kind {
            Kind::PointsTo => (
                Vars::PointsTo {
                    has: (self.universe.iter())
                        .map(|(_, name)| Bool::fresh_const(&format!("d{n}_{name}")))
                        .collect(),
                    dangling: (self.universe.iter())
                        .map(|(_, name)| Bool::fresh_const(&format!("d{n}_{name}_dangling")))
                        .collect(),
                    top: Bool::fresh_const(&format!("d{n}_top")),
                },
                Param::PointsTo {
                    set: vec![false; self.universe.len()],
                    dangling: vec![false; self.universe.len()],
                    top: false,
                },
            ),
            Kind::Upper => (
                Vars::Interval {
                    empty: Bool::fresh_const(&format!("d{n}_empty")),
                    lo: BV::fresh_const(&format!("d{n}_lo"), 64),
                    hi: BV::fresh_const(&format!("d{n}_hi"), 64),
                },
                Param::Interval {
                    empty: true,
                    lo: i128::from(i64::MIN),
                    hi: 0,
                    moves: 0,
                    seen: (i128::from(i64::MIN), 0),
                },
            ),
            Kind::Interval { bits, .. } => (
                Vars::Interval {
                    empty: Bool::fresh_const(&format!("d{n}_empty")),
                    lo: BV::fresh_const(&format!("d{n}_lo"), *bits),
                    hi: BV::fresh_const(&format!("d{n}_hi"), *bits),
                },
                Param::Interval {
                    empty: true,
                    lo: 0,
                    hi: 0,
                    moves: 0,
                    seen: (0, 0),
                },
            ),
        };
        self.rows.push(Row { kind, what, vars });
        self.params.push(param);
        n
    }

    /// `T_r(x)` over the parameter variables of row `r`; `live[i]`, when given, is the
    /// condition under which the object of universe address `i` exists (a points-to row
    /// only admits addresses of existing objects).
    pub fn holds(&self, r: usize, x: &BV, live: &[Option<Bool>]) -> Bool {
        match &self.rows[r].vars {
            Vars::PointsTo { has, dangling, top } => {
                let mut alts = vec![top.clone()];
                for (i, ((addr, _), b)) in self.universe.iter().zip(has).enumerate() {
                    let mut conj = vec![b.clone(), x.eq(BV::from_u64(*addr, x.get_size()))];
                    if let Some(Some(l)) = live.get(i) {
                        conj.push(Bool::or(&[l.clone(), dangling[i].clone()]));
                    }
                    alts.push(Bool::and(&conj));
                }
                Bool::or(&alts)
            }
            Vars::Interval { empty, hi, .. } if self.rows[r].kind == Kind::Upper => {
                Bool::and(&[empty.not(), x.bvsle(hi)])
            }
            Vars::Interval { empty, lo, hi } => {
                let signed = matches!(self.rows[r].kind, Kind::Interval { signed: true, .. });
                let (a, b) = if signed {
                    (lo.bvsle(x), x.bvsle(hi))
                } else {
                    (lo.bvule(x), x.bvule(hi))
                };
                Bool::and(&[empty.not(), a, b])
            }
        }
    }

    /// The constraints that fix every parameter variable to its current value.
    pub fn fix(&self) -> Vec<Bool> {
        let mut out = vec![];
        for (row, p) in self.rows.iter().zip(&self.params) {
            match (&row.vars, p) {
                (
                    Vars::PointsTo { has, dangling, top },
                    Param::PointsTo {
                        set,
                        dangling: d,
                        top: t,
                    },
                ) => {
                    out.push(top.eq(Bool::from_bool(*t)));
                    for (b, v) in has.iter().zip(set).chain(dangling.iter().zip(d)) {
                        out.push(b.eq(Bool::from_bool(*v)));
                    }
                }
                (
                    Vars::Interval { empty, lo, hi },
                    Param::Interval {
                        empty: e,
                        lo: l,
                        hi: h,
                        ..
                    },
                ) => {
                    let bits = lo.get_size();
                    out.push(empty.eq(Bool::from_bool(*e)));
                    out.push(lo.eq(BV::from_u64(*l as u64, bits)));
                    out.push(hi.eq(BV::from_u64(*h as u64, bits)));
                }
                _ => unreachable!("a row's variables match its parameter"),
            }
        }
        out
    }

    /// Joins the value `bits` (as the model gives it) into row `r`; whether it changed.
    pub fn join(&mut self, r: usize, bits: u64) -> bool {
        let kind = self.rows[r].kind.clone();
        match (&mut self.params[r], kind) {
            (Param::PointsTo { set, top, .. }, Kind::PointsTo) => {
                match self.universe.iter().position(|(a, _)| *a == bits) {
                    Some(i) if !set[i] => set[i] = true,
                    Some(_) => return false,
                    None if !*top => *top = true,
                    None => return false,
                }
                true
            }
            (
                Param::Interval {
                    empty,
                    hi,
                    moves,
                    seen,
                    ..
                },
                Kind::Upper,
            ) => {
                let v = value(bits, 64, true);
                if *empty {
                    (*empty, *hi, seen.1) = (false, v, v);
                    return true;
                }
                if v <= *hi {
                    return false;
                }
                seen.1 = seen.1.max(v);
                *moves += 1;
                *hi = if *moves > WIDEN_AFTER {
                    i128::from(i64::MAX)
                } else if *moves > EXACT_MOVES {
                    threshold_above(&self.thresholds, v, i128::from(i64::MAX))
                } else {
                    v
                };
                true
            }
            (
                Param::Interval {
                    empty,
                    lo,
                    hi,
                    moves,
                    seen,
                },
                Kind::Interval { signed, bits: w },
            ) => {
                let v = value(bits, w, signed);
                let (min, max) = limits(w, signed);
                if *empty {
                    (*empty, *lo, *hi, *seen) = (false, v, v, (v, v));
                    return true;
                }
                if v >= *lo && v <= *hi {
                    return false;
                }
                *seen = (seen.0.min(v), seen.1.max(v));
                *moves += 1;
                let (widen, exact) = (*moves > WIDEN_AFTER, *moves <= EXACT_MOVES);
                if v > *hi {
                    *hi = if widen {
                        max
                    } else if exact {
                        v
                    } else {
                        threshold_above(&self.thresholds, v, max)
                    };
                }
                if v < *lo {
                    *lo = if widen {
                        min
                    } else if exact {
                        v
                    } else {
                        threshold_below(&self.thresholds, v, min)
                    };
                }
                true
            }
            _ => unreachable!("a row's parameter matches its kind"),
        }
    }

    /// The numeric rows whose bounds were widened beyond the values joined into them, each
    /// with the parameter that has the joined values' bounds instead (narrowing candidates).
    pub fn narrowings(&self) -> Vec<(usize, Param)> {
        let mut out = vec![];
        for (r, p) in self.params.iter().enumerate() {
            let Param::Interval {
                empty: false,
                lo,
                hi,
                moves,
                seen,
            } = p
            else {
                continue;
            };
            let upper = self.rows[r].kind == Kind::Upper;
            let (new_lo, new_hi) = if upper { (*lo, seen.1) } else { *seen };
            if (new_lo, new_hi) != (*lo, *hi) && new_lo >= *lo && new_hi <= *hi {
                out.push((
                    r,
                    Param::Interval {
                        empty: false,
                        lo: new_lo,
                        hi: new_hi,
                        moves: *moves,
                        seen: *seen,
                    },
                ));
            }
        }
        out
    }

    /// Where the value `bits` lies outside numeric row `r`'s non-empty interval: `Some(true)`
    /// above it, `Some(false)` below it, `None` inside it or for other rows.
    pub fn outside(&self, r: usize, bits: u64) -> Option<bool> {
        let Param::Interval {
            empty: false,
            lo,
            hi,
            ..
        } = &self.params[r]
        else {
            return None;
        };
        let v = self.number(r, bits)?;
        if v > *hi {
            Some(true)
        } else {
            (v < *lo && self.rows[r].kind != Kind::Upper).then_some(false)
        }
    }

    /// The value `bits` as the number numeric row `r` compares (`None` for other rows).
    pub fn number(&self, r: usize, bits: u64) -> Option<i128> {
        match self.rows[r].kind {
            Kind::PointsTo => None,
            Kind::Upper => Some(value(bits, 64, true)),
            Kind::Interval { signed, bits: w } => Some(value(bits, w, signed)),
        }
    }

    /// `x >= n` (`up`) or `x <= n` as numeric row `r` compares its values.
    pub fn reaches(&self, r: usize, x: &BV, n: i128, up: bool) -> Bool {
        let signed = !matches!(self.rows[r].kind, Kind::Interval { signed: false, .. });
        let n = BV::from_u64(n as u64, x.get_size());
        match (up, signed) {
            (true, true) => x.bvsge(&n),
            (true, false) => x.bvuge(&n),
            (false, true) => x.bvsle(&n),
            (false, false) => x.bvule(&n),
        }
    }

    /// The bounds a descent tries on `side` of numeric row `r`, strongest first: the nearest
    /// program constant strictly inside the interval, then one step in. Empty for points-to
    /// rows, empty intervals and a side that cannot move.
    pub fn tighter(&self, r: usize, side: Side) -> Vec<i128> {
        let Param::Interval {
            empty: false,
            lo,
            hi,
            ..
        } = self.params[r]
        else {
            return vec![];
        };
        if self.rows[r].kind == Kind::Upper && side == Side::Lower {
            return vec![];
        }
        // The interior of the interval, from the side's bound inwards.
        let inner = |t: i128| match side {
            Side::Upper => t < hi && (self.rows[r].kind == Kind::Upper || t >= lo),
            Side::Lower => t > lo && t <= hi,
        };
        let step = match side {
            Side::Upper => hi - 1,
            Side::Lower => lo + 1,
        };
        let jump = match side {
            Side::Upper => self.thresholds.iter().rev().copied().find(|t| inner(*t)),
            Side::Lower => self.thresholds.iter().copied().find(|t| inner(*t)),
        };
        let mut out: Vec<i128> = jump.into_iter().filter(|t| *t != step).collect();
        if inner(step) {
            out.push(step);
        }
        out
    }

    /// Moves `side` of numeric row `r`'s interval to `n` (a descent's candidate, or the bound
    /// it had before).
    pub fn set_bound(&mut self, r: usize, side: Side, n: i128) {
        if let Param::Interval { lo, hi, .. } = &mut self.params[r] {
            match side {
                Side::Upper => *hi = n,
                Side::Lower => *lo = n,
            }
        }
    }

    /// The bound on `side` of numeric row `r` (`None` for points-to rows and empty ones).
    pub fn bound(&self, r: usize, side: Side) -> Option<i128> {
        match (&self.params[r], side) {
            (
                Param::Interval {
                    empty: false, hi, ..
                },
                Side::Upper,
            ) => Some(*hi),
            (
                Param::Interval {
                    empty: false, lo, ..
                },
                Side::Lower,
            ) => Some(*lo),
            _ => None,
        }
    }

    /// Extends numeric row `r`'s interval to `n` exactly (no widening): a bound found as
    /// the extreme value a run can give the row.
    pub fn extend_to(&mut self, r: usize, n: i128) {
        if let Param::Interval { lo, hi, seen, .. } = &mut self.params[r] {
            *hi = (*hi).max(n);
            *lo = (*lo).min(n);
            *seen = (seen.0.min(n), seen.1.max(n));
        }
    }

    /// Admits address `bits`, already a member of points-to row `r`, also where its object
    /// does not exist; whether that changed the row (false for other rows and values).
    pub fn admit_dangling(&mut self, r: usize, bits: u64) -> bool {
        let Param::PointsTo { set, dangling, .. } = &mut self.params[r] else {
            return false;
        };
        match self.universe.iter().position(|(a, _)| *a == bits) {
            Some(i) if set[i] && !dangling[i] => {
                dangling[i] = true;
                true
            }
            _ => false,
        }
    }

    /// Sets row `r` to top (a value its lattice cannot describe).
    pub fn set_top(&mut self, r: usize) {
        let kind = self.rows[r].kind.clone();
        match (&mut self.params[r], kind) {
            (Param::PointsTo { top, .. }, _) => *top = true,
            (Param::Interval { empty, lo, hi, .. }, Kind::Interval { signed, bits }) => {
                *empty = false;
                (*lo, *hi) = limits(bits, signed);
            }
            (Param::Interval { empty, hi, .. }, Kind::Upper) => {
                *empty = false;
                *hi = i128::from(i64::MAX);
            }
            _ => unreachable!("a row's parameter matches its kind"),
        }
    }

    /// Row `r` with its current parameter, as a formula.
    pub fn show(&self, r: usize) -> String {
        let what = &self.rows[r].what;
        match &self.params[r] {
            Param::PointsTo { top: true, .. } => format!("{what}: any"),
            Param::PointsTo { set, dangling, .. } => {
                let names: Vec<String> = (self.universe.iter().zip(set).zip(dangling))
                    .filter(|((_, m), _)| **m)
                    .map(|(((_, n), _), d)| match d {
                        true => format!("{n} (maybe freed)"),
                        false => n.clone(),
                    })
                    .collect();
                if names.is_empty() {
                    format!("{what}: unreachable")
                } else {
                    format!("{what} in {{{}}}", names.join(", "))
                }
            }
            Param::Interval { empty: true, .. } => format!("{what}: unreachable"),
            Param::Interval { hi, .. } if self.rows[r].kind == Kind::Upper => {
                format!("{what} <= {hi}")
            }
            Param::Interval { lo, hi, .. } => format!("{lo} <= {what} <= {hi}"),
        }
    }

    /// Whether row `r` says nothing (top).
    pub fn is_top(&self, r: usize) -> bool {
        match (&self.params[r], &self.rows[r].kind) {
            (Param::PointsTo { top, .. }, _) => *top,
            (Param::Interval { empty, lo, hi, .. }, Kind::Interval { signed, bits }) => {
                !*empty && (*lo, *hi) == limits(*bits, *signed)
            }
            (Param::Interval { empty, hi, .. }, Kind::Upper) => {
                !*empty && *hi == i128::from(i64::MAX)
            }
            _ => false,
        }
    }
}

/// The value of `bits` bits as a signed or unsigned number.
pub fn value(bits: u64, width: u32, signed: bool) -> i128 {
    let mask = if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    };
    let b = bits & mask;
    if signed && width < 128 && (b >> (width - 1)) & 1 == 1 {
        i128::from(b) - (1i128 << width)
    } else {
        i128::from(b)
    }
}

fn limits(width: u32, signed: bool) -> (i128, i128) {
    if signed {
        (-(1i128 << (width - 1)), (1i128 << (width - 1)) - 1)
    } else {
        (0, (1i128 << width) - 1)
    }
}

fn threshold_above(ts: &[i128], v: i128, max: i128) -> i128 {
    ts.iter()
        .copied()
        .find(|t| *t >= v && *t <= max)
        .unwrap_or(max)
}

fn threshold_below(ts: &[i128], v: i128, min: i128) -> i128 {
    ts.iter()
        .rev()
        .copied()
        .find(|t| *t <= v && *t >= min)
        .unwrap_or(min)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intervals_join_to_thresholds_and_widen() {
        let mut t = Templates::new(vec![], vec![10, 20]);
        let r = t.add(
            Kind::Interval {
                signed: true,
                bits: 32,
            },
            "x".into(),
        );
        assert!(t.join(r, 10));
        assert!(!t.join(r, 10));
        // The first moves go to the value itself, later ones to the next constant beyond it
        // or, when there is none, to the type's limit.
        assert!(t.join(r, 11));
        assert!(t.join(r, 12));
        assert_eq!(t.show(r), "10 <= x <= 12");
        assert!(t.join(r, 13));
        assert_eq!(t.show(r), "10 <= x <= 20");
        assert!(!t.join(r, 17));
        assert_eq!(t.narrowings().len(), 1);
        assert!(t.join(r, (-5i64) as u64));
        assert_eq!(t.show(r), "-2147483648 <= x <= 20");
        // Narrowing offers the hull of the values joined.
        let narrow = t.narrowings();
        assert_eq!(narrow.len(), 1);
        let (row, p) = narrow[0].clone();
        t.params[row] = p;
        assert_eq!(t.show(r), "-5 <= x <= 13");
        assert!(t.narrowings().is_empty());
        assert!(t.join(r, 25));
        assert_eq!(t.show(r), "-5 <= x <= 2147483647");
    }

    #[test]
    fn a_descent_tries_the_nearest_constant_inside_then_one_step() {
        let mut t = Templates::new(vec![], vec![0, 3, 1000]);
        let kind = Kind::Interval {
            signed: true,
            bits: 32,
        };
        let r = t.add(kind, "x".into());
        assert!(t.tighter(r, Side::Upper).is_empty(), "bottom cannot move");
        t.join(r, 1);
        t.join(r, 6);
        assert_eq!(t.show(r), "1 <= x <= 6");
        assert_eq!(t.tighter(r, Side::Upper), vec![3, 5]);
        // No constant strictly inside above 1 but 3; none below it but the step.
        assert_eq!(t.tighter(r, Side::Lower), vec![3, 2]);
        t.set_bound(r, Side::Upper, 5);
        assert_eq!(t.show(r), "1 <= x <= 5");
        assert_eq!(t.bound(r, Side::Upper), Some(5));
        t.set_bound(r, Side::Lower, 5);
        assert!(
            t.tighter(r, Side::Upper).is_empty(),
            "a point cannot shrink"
        );
        assert!(t.tighter(r, Side::Lower).is_empty());
        // An upper-bound row has no lower side; its constant may lie anywhere below.
        let u = t.add(Kind::Upper, "y".into());
        t.join(u, 7);
        assert_eq!(t.tighter(u, Side::Upper), vec![3, 6]);
        assert!(t.tighter(u, Side::Lower).is_empty());
        // A points-to row has no bounds.
        let p = t.add(Kind::PointsTo, "p".into());
        assert!(t.tighter(p, Side::Upper).is_empty());
    }

    #[test]
    fn bounds_widen_to_the_limit_after_many_moves() {
        let mut t = Templates::new(vec![], (0..100).collect());
        let r = t.add(
            Kind::Interval {
                signed: true,
                bits: 32,
            },
            "x".into(),
        );
        for v in 0..60 {
            t.join(r, v);
        }
        assert_eq!(t.show(r), "0 <= x <= 2147483647");
        assert!(!t.is_top(r));
    }

    #[test]
    fn points_to_rows_collect_addresses() {
        let mut t = Templates::new(vec![(0, "NULL".into()), (65536, "&a".into())], vec![]);
        let r = t.add(Kind::PointsTo, "p".into());
        assert_eq!(t.show(r), "p: unreachable");
        assert!(t.join(r, 65536));
        assert!(t.join(r, 0));
        assert_eq!(t.show(r), "p in {NULL, &a}");
        assert!(t.join(r, 12345));
        assert!(t.is_top(r));
    }

    #[test]
    fn a_member_address_may_also_dangle() {
        let mut t = Templates::new(vec![(0, "NULL".into()), (65536, "&a".into())], vec![]);
        let r = t.add(Kind::PointsTo, "p".into());
        assert!(!t.admit_dangling(r, 65536), "only a member may dangle");
        assert!(t.join(r, 65536));
        assert!(t.admit_dangling(r, 65536));
        assert!(!t.admit_dangling(r, 65536));
        assert_eq!(t.show(r), "p in {&a (maybe freed)}");
        assert!(!t.is_top(r));
        // The row admits the address where its object is dead only once it may dangle.
        let solver = z3::Solver::new();
        let dead = Some(Bool::from_bool(false));
        let x = BV::from_u64(65536, 32);
        solver.assert(t.holds(r, &x, &[None, dead]).not());
        for f in t.fix() {
            solver.assert(&f);
        }
        assert_eq!(solver.check(), z3::SatResult::Unsat);
    }
}
