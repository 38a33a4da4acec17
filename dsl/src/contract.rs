//! The `contract` declaration kind: pre- and postconditions of C functions in the
//! reachability logic AF^R (seed 003's `requires`/`ensures`, designed to serve seed 004's
//! contracts too). This module consumes the `contract_decl` parse tree of `grammar.pest` and
//! produces its AST ([`ContractDecl`]); consumes the AST of a spec's contracts and
//! produces their Spec IR ([`crate::ir::Contract`]) or located diagnostics (check 7 of
//! [`crate::check`]); and prints both back in source syntax.
//!
//! The checks, each with its span: one contract per function; parameters, ghosts and globals
//! distinct from each other and from `null` and `result`; every name in a condition is
//! `null`, a parameter, a ghost, a declared global or a bound variable in scope, and `result`
//! appears only in `ensures`; bound variables shadow nothing; atoms are `alloc(t)`,
//! `dle(t, u)`, a field path `f(t, u)`, `f+(t, u)`, `f*(t, u)`, or an instance of a family
//! the spec declares ([`crate::family`]) with its numbers of fields and arguments; and every
//! condition is
//! alternation-free (AF^R): in negation normal form no quantifier lies under one of the other
//! kind, where a family instance and a one-step path count as universal formulas (their
//! definitions are). That keeps `requires` and the negated `ensures` inside EPR after the
//! reduction of seed 003. The lowering of formulas ([`Lowering`]) also serves the bodies of
//! predicate families, whose names are their parameters and whose fields are their roles.

use crate::ast::{Closure, ContractDecl, Formula, FormulaKind, Ident, Quantifier, Span};
use crate::diag::Diagnostic;
use crate::ir::{Assertion, CTerm, Contract, PathKind, PredFamily};
use crate::parser::{Rule, ident, span};
use pest::iterators::Pair;
use std::collections::BTreeMap;

// ---------------------------------------------------------------- parse tree to AST

/// A `contract_decl` pair to its AST.
pub(crate) fn parse(p: Pair<Rule>) -> Result<ContractDecl, Diagnostic> {
    let sp = span(&p);
    let mut c = ContractDecl {
        name: Ident {
            name: String::new(),
            span: sp,
        },
        params: vec![],
        ghosts: vec![],
        globals: vec![],
        backbones: vec![],
        requires: vec![],
        ensures: vec![],
        span: sp,
    };
    let mut named = false;
    for x in p.into_inner() {
        match x.as_rule() {
            Rule::ident if !named => {
                c.name = ident(x);
                named = true;
            }
            Rule::ident => c.params.push(ident(x)),
            Rule::ghost_decl => c.ghosts.extend(names(x)),
            Rule::global_decl => c.globals.extend(names(x)),
            Rule::backbone_decl => c.backbones.push(backbone(x)),
            Rule::pre_decl => c.requires.push(condition(x)?),
            Rule::post_decl => c.ensures.push(condition(x)?),
            _ => {}
        }
    }
    Ok(c)
}

fn names(p: Pair<Rule>) -> Vec<Ident> {
    (p.into_inner())
        .filter(|x| x.as_rule() == Rule::ident)
        .map(ident)
        .collect()
}

/// `backbone t[f, g];` to its name and fields.
fn backbone(p: Pair<Rule>) -> (Ident, Vec<Ident>) {
    let sp = span(&p);
    let mut name = None;
    let mut fields = vec![];
    for x in p.into_inner() {
        match x.as_rule() {
            Rule::ident => name = Some(ident(x)),
            Rule::roles => fields = names(x),
            _ => {}
        }
    }
    let name = name.unwrap_or(Ident {
        name: String::new(),
        span: sp,
    });
    (name, fields)
}

fn condition(p: Pair<Rule>) -> Result<Formula, Diagnostic> {
    let sp = span(&p);
    let f = (p.into_inner())
        .find(|x| x.as_rule() == Rule::formula)
        .ok_or_else(|| Diagnostic::error("a condition needs a formula", sp))?;
    crate::parser::formula(f)
}

// ---------------------------------------------------------------- checks and lowering

/// Checks the contracts and lowers them, or returns every error found.
pub(crate) fn check(
    decls: &[&ContractDecl],
    families: &[PredFamily],
) -> Result<Vec<Contract>, Vec<Diagnostic>> {
    let mut errs = vec![];
    let mut seen: BTreeMap<&str, Span> = BTreeMap::new();
    let mut out = vec![];
    for d in decls {
        if let Some(first) = seen.get(d.name.name.as_str()) {
            errs.push(
                Diagnostic::error(
                    format!("a second contract of `{}`", d.name.name),
                    d.name.span,
                )
                .with_secondary(*first, "the first"),
            );
            continue;
        }
        seen.insert(&d.name.name, d.name.span);
        if let Some(c) = contract(d, families, &mut errs) {
            out.push(c);
        }
    }
    if errs.is_empty() { Ok(out) } else { Err(errs) }
}

/// What a name in a contract stands for.
#[derive(Copy, Clone, PartialEq, Eq)]
pub(crate) enum Kind {
    Param,
    Ghost,
    Global,
}

fn contract(
    d: &ContractDecl,
    families: &[PredFamily],
    errs: &mut Vec<Diagnostic>,
) -> Option<Contract> {
    let before = errs.len();
    let mut scope: BTreeMap<&str, (Kind, Span)> = BTreeMap::new();
    let groups = [
        (&d.params, Kind::Param),
        (&d.ghosts, Kind::Ghost),
        (&d.globals, Kind::Global),
    ];
    for (names, kind) in groups {
        for n in names.iter() {
            if matches!(n.name.as_str(), "null" | "result") {
                errs.push(Diagnostic::error(
                    format!("`{}` is reserved in contracts", n.name),
                    n.span,
                ));
            } else if let Some((_, first)) = scope.get(n.name.as_str()) {
                errs.push(
                    Diagnostic::error(format!("`{}` is declared twice", n.name), n.span)
                        .with_secondary(*first, "first declared here"),
                );
            } else {
                scope.insert(&n.name, (kind, n.span));
            }
        }
    }
    backbones(d, families, errs);
    let mut olds = vec![];
    let mut lower = |f: &Formula, post: bool| {
        let mut cx = Lowering {
            scope: &scope,
            bound: vec![],
            place: if post {
                Place::Ensures
            } else {
                Place::Requires
            },
            families,
            olds: &mut olds,
            errs: &mut *errs,
        };
        let a = cx.formula(f);
        alternation(f, true, None, cx.errs);
        a
    };
    let mut requires: Vec<Assertion> = d.requires.iter().filter_map(|f| lower(f, false)).collect();
    let ensures: Vec<Assertion> = d.ensures.iter().filter_map(|f| lower(f, true)).collect();
    let text = |v: &[Ident]| v.iter().map(|i| i.name.clone()).collect::<Vec<String>>();
    let mut ghosts = text(&d.ghosts);
    // `old(φ)` is a ghost `g` fixed at entry by `g != null <-> φ`.
    for (i, phi) in olds.into_iter().enumerate() {
        let g = old_ghost(i);
        let set = Assertion::Not(Box::new(Assertion::Eq(CTerm::Name(g.clone()), CTerm::Null)));
        requires.push(Assertion::Iff(Box::new(set), Box::new(phi)));
        ghosts.push(g);
    }
    (errs.len() == before).then(|| Contract {
        function: d.name.name.clone(),
        params: text(&d.params),
        ghosts,
        globals: text(&d.globals),
        backbones: (d.backbones.iter())
            .map(|(n, fs)| (n.name.clone(), text(fs)))
            .collect(),
        requires,
        ensures,
    })
}

/// The checks of `backbone` declarations: a name that is no builtin, family or other
/// backbone, and two or more distinct fields that are not backbones themselves.
fn backbones(d: &ContractDecl, families: &[PredFamily], errs: &mut Vec<Diagnostic>) {
    let mut seen: BTreeMap<&str, Span> = BTreeMap::new();
    for (name, fields) in &d.backbones {
        let n = name.name.as_str();
        let taken = matches!(n, "alloc" | "dle" | "null" | "result")
            || families.iter().any(|f| f.name == n);
        if taken {
            errs.push(Diagnostic::error(
                format!("`{n}` is reserved and cannot name a backbone"),
                name.span,
            ));
        } else if let Some(first) = seen.get(n) {
            errs.push(
                Diagnostic::error(format!("the backbone `{n}` is declared twice"), name.span)
                    .with_secondary(*first, "first declared here"),
            );
        }
        seen.insert(n, name.span);
        if fields.len() < 2 {
            errs.push(
                Diagnostic::error(
                    format!("the backbone `{n}` needs two or more fields"),
                    name.span,
                )
                .with_note("a backbone of one field is the field itself: write `f*(x, y)`"),
            );
        }
        for (i, f) in fields.iter().enumerate() {
            if fields[..i].iter().any(|g| g.name == f.name) {
                errs.push(Diagnostic::error(
                    format!("the field `{}` is named twice in a backbone", f.name),
                    f.span,
                ));
            }
            if d.backbones.iter().any(|(b, _)| b.name == f.name) {
                errs.push(Diagnostic::error(
                    format!("`{}` is a backbone, not a field", f.name),
                    f.span,
                ));
            }
        }
    }
}

/// Where a formula stands: what `result`, `old` and field names may mean there.
#[derive(Copy, Clone)]
pub(crate) enum Place<'a> {
    /// A contract's `requires`.
    Requires,
    /// A contract's `ensures`.
    Ensures,
    /// The body of a predicate family with these field roles.
    Family(&'a [Ident]),
}

/// Lowers a formula of a contract or of a family body to an [`Assertion`], reporting every
/// name, atom and family instance that has no meaning there.
pub(crate) struct Lowering<'a, 'e> {
    /// The names in scope (parameters, ghosts, globals).
    pub scope: &'a BTreeMap<&'a str, (Kind, Span)>,
    /// The bound variables, innermost last.
    pub bound: Vec<String>,
    /// Where the formula stands.
    pub place: Place<'a>,
    /// The families an instance may name.
    pub families: &'a [PredFamily],
    /// The bodies of the `old(φ)` met so far, lowered over the entry state.
    pub olds: &'e mut Vec<Assertion>,
    /// The diagnostics.
    pub errs: &'e mut Vec<Diagnostic>,
}

/// What `old(φ)` may not hold, if φ holds it: a quantifier, a nested `old`, a universal
/// atom, or a variable `bound` by an enclosing quantifier.
fn old_fault(f: &Formula, bound: &[String]) -> Option<String> {
    let named = |ids: &[&Ident]| {
        (ids.iter())
            .find(|a| bound.contains(&a.name))
            .map(|a| format!("the bound variable `{}`", a.name))
    };
    match &f.kind {
        FormulaKind::Quant { .. } => Some("a quantifier".into()),
        FormulaKind::Old(_) => Some("an `old` inside `old`".into()),
        FormulaKind::Atom { roles, closure, .. }
            if roles.is_some() || (closure.is_none() && !builtin_atom(f)) =>
        {
            Some("a universal atom (a family or a one-step `f(x, y)`)".into())
        }
        FormulaKind::Atom { args, .. } => named(&args.iter().collect::<Vec<_>>()),
        FormulaKind::Eq { left, right, .. } => named(&[left, right]),
        FormulaKind::Not(a) => old_fault(a, bound),
        FormulaKind::And(a, b)
        | FormulaKind::Or(a, b)
        | FormulaKind::Implies(a, b)
        | FormulaKind::Iff(a, b) => old_fault(a, bound).or_else(|| old_fault(b, bound)),
        FormulaKind::True | FormulaKind::False => None,
    }
}

/// The ghost that stands for the `i`th `old(φ)` (a name no contract can write).
fn old_ghost(i: usize) -> String {
    format!("old#{}", i + 1)
}

impl Lowering<'_, '_> {
    fn term(&mut self, n: &Ident) -> Option<CTerm> {
        let name = n.name.as_str();
        if self.bound.iter().any(|b| b == name) {
            return Some(CTerm::Bound(name.to_string()));
        }
        match (name, self.place) {
            ("null", _) => return Some(CTerm::Null),
            ("result", Place::Ensures) => return Some(CTerm::Result),
            ("result", Place::Requires) => {
                self.errs.push(Diagnostic::error(
                    "`result` is the return value: it has no meaning in `requires`",
                    n.span,
                ));
                return None;
            }
            ("result", Place::Family(_)) => {
                self.errs.push(Diagnostic::error(
                    "`result` has no meaning in a family: name a parameter",
                    n.span,
                ));
                return None;
            }
            _ => {}
        }
        if self.scope.contains_key(name) {
            return Some(CTerm::Name(name.to_string()));
        }
        let (what, note) = match self.place {
            Place::Family(_) => (
                "a family",
                "a family's body names `null`, its parameters and bound variables",
            ),
            _ => (
                "a contract",
                "a contract names `null`, `result`, its parameters, its `ghost` constants, the \
                 `global` variables it declares, and bound variables",
            ),
        };
        self.errs.push(
            Diagnostic::error(format!("unknown name `{name}` in {what}"), n.span).with_note(note),
        );
        None
    }

    fn terms(&mut self, args: &[Ident]) -> Option<Vec<CTerm>> {
        let out: Vec<Option<CTerm>> = args.iter().map(|a| self.term(a)).collect();
        out.into_iter().collect()
    }

    fn two(&mut self, f: &Formula, args: &[Ident], what: &str) -> Option<(CTerm, CTerm)> {
        if args.len() != 2 {
            self.errs.push(Diagnostic::error(
                format!("{what} takes 2 arguments, not {}", args.len()),
                f.span,
            ));
            return None;
        }
        let t = self.terms(args)?;
        Some((t[0].clone(), t[1].clone()))
    }

    /// The formula lowered, or `None` after reporting what is wrong with it.
    pub fn formula(&mut self, f: &Formula) -> Option<Assertion> {
        let bx = Box::new;
        Some(match &f.kind {
            FormulaKind::True => Assertion::Const(true),
            FormulaKind::False => Assertion::Const(false),
            FormulaKind::Eq { left, right, equal } => {
                let (a, b) = (self.term(left), self.term(right));
                let eq = Assertion::Eq(a?, b?);
                if *equal { eq } else { Assertion::Not(bx(eq)) }
            }
            FormulaKind::Atom {
                name,
                roles,
                closure,
                args,
            } => self.atom(f, name, roles.as_deref(), *closure, args)?,
            FormulaKind::Not(a) => Assertion::Not(bx(self.formula(a)?)),
            FormulaKind::And(a, b) => {
                let (a, b) = (self.formula(a), self.formula(b));
                Assertion::And(bx(a?), bx(b?))
            }
            FormulaKind::Or(a, b) => {
                let (a, b) = (self.formula(a), self.formula(b));
                Assertion::Or(bx(a?), bx(b?))
            }
            FormulaKind::Implies(a, b) => {
                let (a, b) = (self.formula(a), self.formula(b));
                Assertion::Implies(bx(a?), bx(b?))
            }
            FormulaKind::Iff(a, b) => {
                let (a, b) = (self.formula(a), self.formula(b));
                Assertion::Iff(bx(a?), bx(b?))
            }
            FormulaKind::Old(a) => self.old(f, a)?,
            FormulaKind::Quant { q, vars, body } => {
                for v in vars {
                    let taken = self.bound.contains(&v.name)
                        || self.scope.contains_key(v.name.as_str())
                        || matches!(v.name.as_str(), "null" | "result");
                    if taken {
                        self.errs.push(Diagnostic::error(
                            format!("the bound variable `{}` shadows a name in scope", v.name),
                            v.span,
                        ));
                        return None;
                    }
                }
                let n = self.bound.len();
                self.bound.extend(vars.iter().map(|v| v.name.clone()));
                let body = self.formula(body);
                self.bound.truncate(n);
                let vs = vars.iter().map(|v| v.name.clone()).collect();
                match q {
                    Quantifier::Forall => Assertion::Forall(vs, bx(body?)),
                    Quantifier::Exists => Assertion::Exists(vs, bx(body?)),
                }
            }
        })
    }

    /// `old(φ)` in `ensures`: a closed, quantifier-free φ over the entry state, which
    /// becomes a ghost fixed by the precondition (see [`old_ghost`]).
    fn old(&mut self, f: &Formula, phi: &Formula) -> Option<Assertion> {
        let error = |why: String| {
            Diagnostic::error(why, f.span).with_note(
                "`old(φ)` takes a quantifier-free φ over parameters, globals, ghosts and \
                 `null`, read at entry: for \"every node\" use a ghost, as in \
                 `ghost a; ensures t*(root, a) <-> (old(t*(root, a)) || a == e)`",
            )
        };
        match self.place {
            Place::Ensures => {}
            Place::Requires => {
                self.errs.push(error(
                    "`old(...)` in `requires`: the precondition already reads the entry state"
                        .into(),
                ));
                return None;
            }
            Place::Family(_) => {
                self.errs.push(Diagnostic::error(
                    "`old(...)` has a meaning only in a contract's `ensures`, not in a family",
                    f.span,
                ));
                return None;
            }
        }
        let why = old_fault(phi, &self.bound);
        if let Some(what) = why {
            self.errs
                .push(error(format!("`old(...)` here holds {what}")));
            return None;
        }
        let mut cx = Lowering {
            scope: self.scope,
            bound: vec![],
            place: Place::Requires,
            families: self.families,
            olds: &mut *self.olds,
            errs: &mut *self.errs,
        };
        let a = cx.formula(phi)?;
        self.olds.push(a);
        let g = CTerm::Name(old_ghost(self.olds.len() - 1));
        Some(Assertion::Not(Box::new(Assertion::Eq(g, CTerm::Null))))
    }

    fn atom(
        &mut self,
        f: &Formula,
        name: &Ident,
        roles: Option<&[Ident]>,
        closure: Option<Closure>,
        args: &[Ident],
    ) -> Option<Assertion> {
        if let Some(roles) = roles {
            return self.family(f, name, roles, closure, args);
        }
        let builtin = matches!(name.name.as_str(), "alloc" | "dle");
        if builtin && closure.is_some() {
            self.errs.push(Diagnostic::error(
                format!("`{}` has no closure", name.name),
                f.span,
            ));
            return None;
        }
        match name.name.as_str() {
            "alloc" => {
                if args.len() != 1 {
                    self.errs.push(Diagnostic::error(
                        format!("`alloc` takes 1 argument, not {}", args.len()),
                        f.span,
                    ));
                    return None;
                }
                Some(Assertion::Alloc(self.term(&args[0])?))
            }
            "dle" => {
                let (a, b) = self.two(f, args, "`dle`")?;
                Some(Assertion::Dle(a, b))
            }
            field => {
                if self.families.iter().any(|fam| fam.name == field) {
                    self.errs.push(Diagnostic::error(
                        format!("the family `{field}` needs its fields, as in `{field}[n](...)`"),
                        name.span,
                    ));
                    return None;
                }
                if !self.is_field(name) {
                    return None;
                }
                let (from, to) = self.two(f, args, &format!("the field path `{field}`"))?;
                let kind = match closure {
                    None => PathKind::Edge,
                    Some(Closure::Plus) => PathKind::Plus,
                    Some(Closure::Star) => PathKind::Star,
                };
                Some(Assertion::Path {
                    field: field.to_string(),
                    kind,
                    from,
                    to,
                })
            }
        }
    }

    /// Whether `name` may stand for a field here (in a family body only its roles may);
    /// reports it when not.
    fn is_field(&mut self, name: &Ident) -> bool {
        let Place::Family(roles) = self.place else {
            return true;
        };
        if roles.iter().any(|r| r.name == name.name) {
            return true;
        }
        self.errs.push(Diagnostic::error(
            format!("`{}` is not a field role of this family", name.name),
            name.span,
        ));
        false
    }

    fn family(
        &mut self,
        f: &Formula,
        name: &Ident,
        roles: &[Ident],
        closure: Option<Closure>,
        args: &[Ident],
    ) -> Option<Assertion> {
        let Some(fam) = self.families.iter().find(|fam| fam.name == name.name) else {
            let known: Vec<&str> = self.families.iter().map(|f| f.name.as_str()).collect();
            let note = if known.is_empty() {
                "no family is declared before this point: declare one with `family`, or load \
                 the standard library's (ls, stable, rev, sorted)"
                    .to_string()
            } else {
                format!(
                    "the families declared before this point: {}",
                    known.join(", ")
                )
            };
            self.errs.push(
                Diagnostic::error(format!("unknown family `{}`", name.name), name.span)
                    .with_note(note),
            );
            return None;
        };
        let (fields, arity) = (fam.fields.len(), fam.params.len());
        let mut ok = roles.iter().all(|r| self.is_field(r));
        if closure.is_some() {
            self.errs.push(Diagnostic::error(
                format!("the family `{}` has no closure", name.name),
                f.span,
            ));
            ok = false;
        }
        if roles.len() != fields {
            self.errs.push(Diagnostic::error(
                format!(
                    "`{}` takes {fields} field(s), not {}",
                    name.name,
                    roles.len()
                ),
                f.span,
            ));
            ok = false;
        }
        if args.len() != arity {
            self.errs.push(Diagnostic::error(
                format!(
                    "`{}` takes {arity} argument(s), not {}",
                    name.name,
                    args.len()
                ),
                f.span,
            ));
            ok = false;
        }
        let args = self.terms(args)?;
        ok.then(|| Assertion::Family {
            name: name.name.clone(),
            fields: roles.iter().map(|r| r.name.clone()).collect(),
            args,
        })
    }
}

/// Reports the first quantifier (or universal atom) of `f` that lies, in negation normal
/// form, under a quantifier of the other kind. `outer` is the kind of the innermost
/// enclosing quantifier (true: universal); `positive` the polarity.
fn alternation(f: &Formula, positive: bool, outer: Option<bool>, errs: &mut Vec<Diagnostic>) {
    let under = |kind: bool| outer.is_some_and(|o| o != kind);
    let report = |what: &str, errs: &mut Vec<Diagnostic>| {
        errs.push(
            Diagnostic::error(
                format!("{what} lies under a quantifier of the other kind: not in AF^R"),
                f.span,
            )
            .with_note(
                "contracts are alternation-free (AF^R): in negation normal form no `forall` \
                 under an `exists` or the reverse; `f(x, y)` and family instances count as \
                 `forall`",
            ),
        );
    };
    match &f.kind {
        FormulaKind::Not(a) => alternation(a, !positive, outer, errs),
        FormulaKind::And(a, b) | FormulaKind::Or(a, b) => {
            alternation(a, positive, outer, errs);
            alternation(b, positive, outer, errs);
        }
        FormulaKind::Implies(a, b) => {
            alternation(a, !positive, outer, errs);
            alternation(b, positive, outer, errs);
        }
        FormulaKind::Iff(a, b) => {
            // Each side occurs with both polarities.
            for side in [a, b] {
                alternation(side, true, outer, errs);
                alternation(side, false, outer, errs);
            }
        }
        FormulaKind::Quant { q, body, .. } => {
            let kind = (*q == Quantifier::Forall) == positive;
            if under(kind) {
                report("this quantifier", errs);
                return;
            }
            alternation(body, positive, Some(kind), errs);
        }
        FormulaKind::Atom { roles, closure, .. } => {
            let universal = roles.is_some() || (closure.is_none() && !builtin_atom(f));
            if universal && under(positive) {
                report("this atom (a universal formula)", errs);
            }
        }
        // Lowered to a ghost's comparison with `null` (its body is quantifier-free).
        FormulaKind::Old(_) => {}
        FormulaKind::True | FormulaKind::False | FormulaKind::Eq { .. } => {}
    }
}

pub(crate) fn builtin_atom(f: &Formula) -> bool {
    matches!(&f.kind, FormulaKind::Atom { name, .. } if matches!(name.name.as_str(), "alloc" | "dle"))
}

// ---------------------------------------------------------------- printing

/// A contract's AST in source syntax (for `print::print`).
pub(crate) fn print(c: &ContractDecl) -> String {
    let names = |v: &[Ident]| {
        v.iter()
            .map(|i| i.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut out = format!("contract {}({}) {{\n", c.name.name, names(&c.params));
    if !c.ghosts.is_empty() {
        out.push_str(&format!("  ghost {};\n", names(&c.ghosts)));
    }
    if !c.globals.is_empty() {
        out.push_str(&format!("  global {};\n", names(&c.globals)));
    }
    for (b, fields) in &c.backbones {
        out.push_str(&format!("  backbone {}[{}];\n", b.name, names(fields)));
    }
    for f in &c.requires {
        out.push_str(&format!("  requires {};\n", crate::print::formula(f)));
    }
    for f in &c.ensures {
        out.push_str(&format!("  ensures {};\n", crate::print::formula(f)));
    }
    out.push_str("}\n");
    out
}

/// The contracts of a checked spec, for `spec show`; empty without contracts.
pub fn show(spec: &crate::ir::Spec) -> String {
    if spec.contracts.is_empty() {
        return String::new();
    }
    let mut out = String::from("contracts (AF^R, checked alternation-free):\n");
    for c in &spec.contracts {
        out.push_str(&format!("  {}({})", c.function, c.params.join(", ")));
        if !c.ghosts.is_empty() {
            out.push_str(&format!(" ghost {}", c.ghosts.join(", ")));
        }
        if !c.globals.is_empty() {
            out.push_str(&format!(" global {}", c.globals.join(", ")));
        }
        for (b, fields) in &c.backbones {
            out.push_str(&format!(" backbone {b}[{}]", fields.join(", ")));
        }
        out.push('\n');
        for a in &c.requires {
            out.push_str(&format!("    requires {}\n", assertion(a)));
        }
        for a in &c.ensures {
            out.push_str(&format!("    ensures {}\n", assertion(a)));
        }
    }
    out
}

fn term(t: &CTerm) -> &str {
    match t {
        CTerm::Null => "null",
        CTerm::Result => "result",
        CTerm::Name(n) | CTerm::Bound(n) => n,
    }
}

/// A contract formula in source syntax, fully parenthesised.
pub fn assertion(a: &Assertion) -> String {
    let go = assertion;
    match a {
        Assertion::Const(b) => b.to_string(),
        Assertion::Eq(x, y) => format!("{} == {}", term(x), term(y)),
        Assertion::Path {
            field,
            kind,
            from,
            to,
        } => {
            let k = match kind {
                PathKind::Edge => "",
                PathKind::Plus => "+",
                PathKind::Star => "*",
            };
            format!("{field}{k}({}, {})", term(from), term(to))
        }
        Assertion::Alloc(x) => format!("alloc({})", term(x)),
        Assertion::Dle(x, y) => format!("dle({}, {})", term(x), term(y)),
        Assertion::Family { name, fields, args } => {
            let args: Vec<&str> = args.iter().map(term).collect();
            format!("{name}[{}]({})", fields.join(", "), args.join(", "))
        }
        Assertion::Not(x) => format!("!({})", go(x)),
        Assertion::And(x, y) => format!("({} && {})", go(x), go(y)),
        Assertion::Or(x, y) => format!("({} || {})", go(x), go(y)),
        Assertion::Implies(x, y) => format!("({} -> {})", go(x), go(y)),
        Assertion::Iff(x, y) => format!("({} <-> {})", go(x), go(y)),
        Assertion::Forall(vs, x) => format!("(forall {}. {})", vs.join(", "), go(x)),
        Assertion::Exists(vs, x) => format!("(exists {}. {})", vs.join(", "), go(x)),
    }
}

#[cfg(test)]
mod tests {
    //! The checks of contracts, each asserting the message and the spanned text of every
    //! diagnostic; the lowering; the printers.
    use super::*;

    /// `(spanned text, message)` of every diagnostic of `text`.
    fn errors(text: &str) -> Vec<(String, String)> {
        match crate::load(text) {
            Ok(_) => vec![],
            Err(ds) => ds
                .iter()
                .map(|d| {
                    (
                        text[d.primary.start..d.primary.end].to_string(),
                        d.message.clone(),
                    )
                })
                .collect(),
        }
    }

    /// Two families for the contracts of these tests to name.
    const FAMILIES: &str = "family ls[f](x, y?) := forall a. f*(x, a) -> f*(a, y);
family stable[f](x) := forall a. f*(x, a) -> alloc(a) || a == null;
";

    /// `text` after [`FAMILIES`].
    fn with_families(text: &str) -> String {
        format!("{FAMILIES}{text}")
    }

    const DELETE: &str = "contract delete(h, x) {
  requires x != null && n*(h, x) && n*(x, null) && stable[n](h);
  ensures n*(result, null) && !n*(result, x);
}
";

    #[test]
    fn a_contract_lowers_with_params_ghosts_and_families() {
        let spec = crate::load(&with_families(DELETE)).expect("checks");
        let c = spec.contract("delete").expect("the contract");
        assert_eq!(c.params, ["h", "x"]);
        assert_eq!(c.requires.len(), 1);
        assert_eq!(
            assertion(&c.ensures[0]),
            "(n*(result, null) && !(n*(result, x)))"
        );
        assert!(show(&spec).contains("delete(h, x)"));
        let fam = assertion(&c.requires[0]);
        assert!(fam.contains("stable[n](h)"), "{fam}");
    }

    #[test]
    fn printing_round_trips() {
        let ast = crate::parser::parse(&with_families(DELETE)).expect("parses");
        let printed = crate::print::print(&ast);
        let again = crate::load(&printed).expect("printed text checks");
        assert_eq!(again, crate::load(&with_families(DELETE)).expect("checks"));
    }

    #[test]
    fn names_must_be_declared_and_result_only_in_ensures() {
        let e = errors("contract f(h) { requires n*(h, y); ensures result == h; }");
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].0, "y");
        assert!(e[0].1.contains("unknown name `y`"), "{e:?}");
        let e = errors("contract f(h) { requires result == h; }");
        assert_eq!(e[0].0, "result");
        assert!(e[0].1.contains("no meaning in `requires`"));
        // Ghosts and globals are declared names.
        assert!(errors("contract f(h) { ghost a; global g; requires n*(a, g); }").is_empty());
    }

    #[test]
    fn old_becomes_a_ghost_the_precondition_fixes() {
        let text = "contract add(e) {
  global first;
  ghost a;
  ensures n*(first, a) <-> (old(n*(first, a) && a != null) || a == e);
}
";
        let spec = crate::load(text).expect("checks");
        let c = spec.contract("add").expect("the contract");
        assert_eq!(c.ghosts, ["a", "old#1"]);
        assert_eq!(
            assertion(&c.requires[0]),
            "(!(old#1 == null) <-> (n*(first, a) && !(a == null)))"
        );
        assert_eq!(
            assertion(&c.ensures[0]),
            "(n*(first, a) <-> (!(old#1 == null) || a == e))"
        );
        // The source printer keeps `old`, and its output loads to the same contract.
        let printed = crate::print::print(&crate::parser::parse(text).expect("parses"));
        assert!(
            printed.contains("old((n*(first, a) && a != null))"),
            "{printed}"
        );
        let again = crate::load(&printed).expect("checks");
        assert_eq!(again.contract("add"), Some(c));
    }

    #[test]
    fn old_is_checked_where_it_stands_and_for_what_it_holds() {
        let e = errors("contract f(h) { requires old(h == null); }");
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].0, "old(h == null)");
        assert!(e[0].1.contains("in `requires`"), "{e:?}");
        let e = errors("contract f(h) { ensures forall z. old(n*(h, z)); }");
        assert_eq!(e[0].0, "old(n*(h, z))");
        assert!(e[0].1.contains("the bound variable `z`"), "{e:?}");
        let e = errors("contract f(h) { ensures old(exists z. n*(h, z)); }");
        assert!(e[0].1.contains("a quantifier"), "{e:?}");
        let e = errors(&with_families(
            "contract f(h) { ensures old(stable[n](h)); }",
        ));
        assert!(e[0].1.contains("a universal atom"), "{e:?}");
        let e = errors("contract f(h) { ensures old(result == h); }");
        assert_eq!(e[0].0, "result");
        // Outside contracts `old` has no meaning.
        let e = errors("predicate p[n](v) := old(n(v, v));");
        assert!(
            e.iter()
                .any(|(t, m)| t == "old(n(v, v))" && m.contains("only in a contract"))
        );
    }

    #[test]
    fn alternation_is_reported_at_the_inner_quantifier() {
        let e = errors("contract f(h) { requires forall a. exists b. n*(a, b); }");
        assert_eq!(e.len(), 1, "{e:?}");
        assert_eq!(e[0].0, "exists b. n*(a, b)");
        assert!(e[0].1.contains("not in AF^R"));
        // A negated exists under a forall is a forall: fine.
        assert!(errors("contract f(h) { requires forall a. !(exists b. n*(a, b)); }").is_empty());
        // A family instance is universal: not under an exists.
        let e = errors(&with_families(
            "contract f(h) { ensures exists a. ls[n](a, null); }",
        ));
        assert_eq!(e[0].0, "ls[n](a, null)");
        // One step is universal too (its definition is), so it may occur only positively
        // under a forall.
        let e = errors("contract f(h) { ensures exists a. n(h, a); }");
        assert_eq!(e[0].0, "n(h, a)");
        let e = errors("contract f(h) { ensures forall a. n(h, a) -> a == null; }");
        assert_eq!(e[0].0, "n(h, a)");
        assert!(errors("contract f(h) { ensures forall a. a == null || n(h, a); }").is_empty());
        assert!(errors("contract f(h) { ensures forall a. n*(h, a) -> n+(a, null); }").is_empty());
    }

    #[test]
    fn families_are_checked_for_fields_and_arguments() {
        let e = errors(&with_families("contract f(h) { requires ls[n, p](h); }"));
        let msgs: Vec<&str> = e.iter().map(|x| x.1.as_str()).collect();
        assert_eq!(msgs.len(), 2, "{e:?}");
        assert!(msgs[0].contains("takes 1 field"));
        assert!(msgs[1].contains("takes 2 argument"));
        let e = errors(&with_families(
            "contract f(h) { requires tree[n](h, null); }",
        ));
        assert_eq!(e[0].0, "tree");
        assert!(e[0].1.contains("unknown family"), "{e:?}");
        let e = errors(&with_families("contract f(h) { requires ls(h, null); }"));
        assert!(e[0].1.contains("needs its fields"));
    }

    const ADD: &str = "contract add(e) {
  global root;
  backbone t[left, right];
  requires e != null && left(e, null) && !t*(root, e) && (forall z. t*(z, e) -> z == e);
  ensures t*(root, e) && t+(root, e);
}
";

    #[test]
    fn a_backbone_is_declared_printed_and_followed_like_a_field() {
        let spec = crate::load(ADD).expect("checks");
        let c = spec.contract("add").expect("the contract");
        assert_eq!(
            c.backbones,
            [(
                "t".to_string(),
                vec!["left".to_string(), "right".to_string()]
            )]
        );
        assert_eq!(assertion(&c.ensures[0]), "(t*(root, e) && t+(root, e))");
        assert!(show(&spec).contains("backbone t[left, right]"));
        let ast = crate::parser::parse(ADD).expect("parses");
        let again = crate::load(&crate::print::print(&ast)).expect("printed text checks");
        assert_eq!(again, spec);
    }

    #[test]
    fn backbones_are_checked() {
        let e = errors("contract f(h) { backbone t[l]; requires true; }");
        assert_eq!(e[0].0, "t");
        assert!(e[0].1.contains("two or more fields"), "{e:?}");
        let e = errors("contract f(h) { backbone t[l, r]; backbone t[r, l]; }");
        assert_eq!(e[0].0, "t");
        assert!(e[0].1.contains("declared twice"), "{e:?}");
        let e = errors(&with_families("contract f(h) { backbone ls[l, r]; }"));
        assert!(e[0].1.contains("reserved"), "{e:?}");
        let e = errors("contract f(h) { backbone t[l, l]; }");
        assert_eq!(e[0].0, "l");
        assert!(e[0].1.contains("named twice"), "{e:?}");
        let e = errors("contract f(h) { backbone t[l, r]; backbone u[t, r]; }");
        assert_eq!(e[0].0, "t");
        assert!(e[0].1.contains("a backbone, not a field"), "{e:?}");
    }

    #[test]
    fn duplicates_and_shadowing_are_errors() {
        let e = errors("contract f(h) { requires true; }\ncontract f(x) { requires true; }");
        assert_eq!(e[0].0, "f");
        assert!(e[0].1.contains("second contract"));
        let e = errors("contract f(h, h) { requires true; }");
        assert!(e[0].1.contains("declared twice"));
        let e = errors("contract f(h) { requires forall h. n*(h, null); }");
        assert!(e[0].1.contains("shadows"));
    }
}
