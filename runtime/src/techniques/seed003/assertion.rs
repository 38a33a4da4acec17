//! Spec formulas ([`Assertion`]s: a contract's conditions, a predicate family's body) lowered
//! to formulas of the logic over a transition system.
//!
//! Consumes a [`System`] (its fields, backbones and the spec's family definitions), an
//! assertion and what its names stand for; produces a [`Formula`] with fresh bound-variable
//! ids, or the name or field the system has no meaning for. A family instance is its
//! definition ([`ir::PredFamily`]) with the roles bound to the instance's fields and the
//! parameters to its arguments, lowered in turn (so a family may name earlier ones).

use super::logic::{Formula, Term};
use super::program::System;
use shapecheck_dsl::ir::{self, Assertion, CTerm, PathKind};
use std::collections::BTreeMap;

/// The conditions over `sys`'s logic, each name standing for its term (`None`: a variable
/// outside the logic), and `result` for `result`.
pub fn lower_all(
    sys: &System,
    conds: &[Assertion],
    names: &BTreeMap<String, Option<Term>>,
    result: Option<Option<Term>>,
) -> Result<Formula, String> {
    let mut cx = Lower {
        sys,
        names,
        roles: BTreeMap::new(),
        result,
        bound: vec![],
        next: FIRST_BOUND,
    };
    let parts = conds
        .iter()
        .map(|a| cx.formula(a))
        .collect::<Result<_, _>>()?;
    Ok(Formula::And(parts))
}

/// The instance of the family `def` at the fields `fields` (one per role) and the nodes
/// `args` (one per parameter).
pub fn instance(
    sys: &System,
    def: &ir::PredFamily,
    fields: &[usize],
    args: &[Term],
) -> Result<Formula, String> {
    instance_from(sys, def, fields, args, &mut 1)
}

/// [`instance`], its bound variables numbered from `*next` on.
fn instance_from(
    sys: &System,
    def: &ir::PredFamily,
    fields: &[usize],
    args: &[Term],
    next: &mut u32,
) -> Result<Formula, String> {
    if fields.len() != def.fields.len() || args.len() != def.params.len() {
        return Err(format!(
            "the family `{}` takes {} field(s) and {} argument(s)",
            def.name,
            def.fields.len(),
            def.params.len()
        ));
    }
    let names: BTreeMap<String, Option<Term>> = (def.params.iter().zip(args))
        .map(|((p, _), t)| (p.clone(), Some(*t)))
        .collect();
    let mut cx = Lower {
        sys,
        names: &names,
        roles: def
            .fields
            .iter()
            .cloned()
            .zip(fields.iter().copied())
            .collect(),
        result: None,
        bound: vec![],
        next: *next,
    };
    let f = cx.formula(&def.body);
    *next = cx.next;
    f
}

/// The first bound-variable id of a contract.
const FIRST_BOUND: u32 = 100;

struct Lower<'a> {
    sys: &'a System,
    names: &'a BTreeMap<String, Option<Term>>,
    /// In a family's body, its roles and the fields they stand for.
    roles: BTreeMap<String, usize>,
    result: Option<Option<Term>>,
    bound: Vec<(String, u32)>,
    next: u32,
}

impl Lower<'_> {
    fn var(&self, t: Option<Term>, name: &str) -> Result<Term, String> {
        t.ok_or_else(|| format!("`{name}` of the contract is not a pointer of the logic"))
    }

    fn term(&self, t: &CTerm) -> Result<Term, String> {
        match t {
            CTerm::Null => Ok(Term::Null),
            CTerm::Result => {
                let r = self.result.ok_or("`result` outside a postcondition")?;
                self.var(r, "result")
            }
            CTerm::Name(n) => {
                let v = self
                    .names
                    .get(n)
                    .ok_or_else(|| format!("`{n}` is not bound"))?;
                self.var(*v, n)
            }
            CTerm::Bound(n) => (self.bound.iter().rev())
                .find(|(x, _)| x == n)
                .map(|(_, id)| Term::Bound(*id))
                .ok_or_else(|| format!("`{n}` is not bound")),
        }
    }

    fn field(&self, name: &str) -> Result<usize, String> {
        if let Some(&f) = self.roles.get(name) {
            return Ok(f);
        }
        (self.sys.fields.iter().position(|f| f == name)).ok_or_else(|| {
            format!(
                "`{name}` is not a pointer field of the list struct (its fields: {})",
                self.sys.fields.join(", ")
            )
        })
    }

    /// A field's relation, or a backbone's.
    fn relation(&self, name: &str) -> Result<usize, String> {
        if let Some(&f) = self.roles.get(name) {
            return Ok(f);
        }
        (self.sys.relations.iter().position(|f| f == name)).ok_or_else(|| {
            format!(
                "`{name}` is not a pointer field of the list struct nor a backbone (its \
                 fields: {})",
                self.sys.fields.join(", ")
            )
        })
    }

    fn fresh(&mut self) -> u32 {
        self.next += 1;
        self.next - 1
    }

    fn formula(&mut self, a: &Assertion) -> Result<Formula, String> {
        Ok(match a {
            Assertion::Const(b) => Formula::Const(*b),
            Assertion::Eq(x, y) => Formula::Eq(self.term(x)?, self.term(y)?),
            Assertion::Path {
                field,
                kind,
                from,
                to,
            } => {
                let (f, x, y) = (self.relation(field)?, self.term(from)?, self.term(to)?);
                match kind {
                    PathKind::Star => Formula::Reach(f, x, y),
                    PathKind::Plus => Formula::reach_plus(f, x, y),
                    PathKind::Edge => self.step(f, x, y),
                }
            }
            Assertion::Alloc(x) => Formula::Alloc(self.term(x)?),
            Assertion::Dle(x, y) => Formula::Dle(self.term(x)?, self.term(y)?),
            Assertion::Family { name, fields, args } => self.family(name, fields, args)?,
            Assertion::Not(x) => self.formula(x)?.negate(),
            Assertion::And(..) => Formula::And(self.operands(a, true)?),
            Assertion::Or(..) => Formula::Or(self.operands(a, false)?),
            Assertion::Implies(x, y) => self.formula(x)?.implies(self.formula(y)?),
            Assertion::Iff(x, y) => self.formula(x)?.iff(self.formula(y)?),
            Assertion::Forall(vs, x) | Assertion::Exists(vs, x) => {
                let n = self.bound.len();
                let ids: Vec<u32> = vs.iter().map(|_| self.fresh()).collect();
                self.bound
                    .extend(vs.iter().cloned().zip(ids.iter().copied()));
                let body = self.formula(x);
                self.bound.truncate(n);
                let body = Box::new(body?);
                if matches!(a, Assertion::Forall(..)) {
                    Formula::Forall(ids, body)
                } else {
                    Formula::Exists(ids, body)
                }
            }
        })
    }

    /// The operands of a chain of conjunctions (`and`) or disjunctions, flattened: `a && b
    /// && c` parses as `(a && b) && c` and lowers to one conjunction of three.
    fn operands(&mut self, a: &Assertion, and: bool) -> Result<Vec<Formula>, String> {
        match (a, and) {
            (Assertion::And(x, y), true) | (Assertion::Or(x, y), false) => {
                let mut out = self.operands(x, and)?;
                out.extend(self.operands(y, and)?);
                Ok(out)
            }
            _ => Ok(vec![self.formula(a)?]),
        }
    }

    /// One step along relation `f`: along a field its edge, along a backbone an edge of
    /// one of its fields.
    fn step(&mut self, f: usize, x: Term, y: Term) -> Formula {
        let fields = self.sys.fields.len();
        let members = match f.checked_sub(fields) {
            Some(j) => self.sys.backbones[j].1.clone(),
            None => vec![f],
        };
        let mut edges: Vec<Formula> = (members.into_iter())
            .map(|m| {
                let g = self.fresh();
                Formula::edge(m, x, y, g)
            })
            .collect();
        match edges.len() {
            1 => edges.remove(0),
            _ => Formula::Or(edges),
        }
    }

    fn family(&mut self, name: &str, fields: &[String], args: &[CTerm]) -> Result<Formula, String> {
        let fs: Vec<usize> = fields
            .iter()
            .map(|f| self.field(f))
            .collect::<Result<_, _>>()?;
        let ts: Vec<Term> = args
            .iter()
            .map(|t| self.term(t))
            .collect::<Result<_, _>>()?;
        let def = (self.sys.families.iter())
            .find(|d| d.name == name)
            .ok_or_else(|| format!("the spec declares no family `{name}`"))?;
        instance_from(self.sys, def, &fs, &ts, &mut self.next)
    }
}
