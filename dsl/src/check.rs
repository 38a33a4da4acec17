//! Semantic checks: the AST of a parsed spec in, the resolved Spec IR out, or every error found.
//!
//! The checks run in a fixed order, and each reports all of its errors before the next runs:
//! 1. names: duplicate declarations, unknown predicates/invariants/structures/families/roles;
//! 2. arity and roles: role-argument counts, node-argument counts, duplicate roles;
//! 3. formulas: free or shadowed variables, closures only of binary relations, the tracked
//!    pointer used only where declared, `sm` and fields applied to the right number of nodes;
//! 4. stratification: a predicate uses only predicates declared before it (no recursion);
//! 5. the lattice: acyclic refinement, `requires` acyclic, and each refinement monotone (the
//!    finer structure's finest generator contains the coarser one's predicates).

use crate::ast::{self, Closure, FormulaKind, Ident, Item, Quantifier, Span};
use crate::diag::Diagnostic;
use crate::ir::{self, Formula, InvId, PredId, Rel, StructId};
use std::collections::{BTreeMap, BTreeSet};

/// Checks a parsed spec and resolves it.
pub fn check(spec: &ast::Spec) -> Result<ir::Spec, Vec<Diagnostic>> {
    let decls = Decls::collect(spec);
    let mut errors = decls.duplicates();
    if errors.is_empty() {
        errors = names(&decls);
    }
    if errors.is_empty() {
        errors = arity(&decls);
    }
    let mut out = ir::Spec::default();
    if errors.is_empty() {
        errors = formulas(&decls, &mut out);
    }
    if errors.is_empty() {
        errors = stratification(&decls);
    }
    if errors.is_empty() {
        errors = structures(&decls, &mut out);
    }
    if errors.is_empty() {
        errors = lattice(&decls, &out);
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// The declarations of a spec by kind, in source order.
struct Decls<'a> {
    preds: Vec<&'a ast::PredicateDecl>,
    invs: Vec<&'a ast::InvariantDecl>,
    structs: Vec<&'a ast::StructureDecl>,
}

impl<'a> Decls<'a> {
    fn collect(spec: &'a ast::Spec) -> Decls<'a> {
        let mut d = Decls {
            preds: vec![],
            invs: vec![],
            structs: vec![],
        };
        for item in &spec.items {
            match item {
                Item::Predicate(p) => d.preds.push(p),
                Item::Invariant(i) => d.invs.push(i),
                Item::Structure(s) => d.structs.push(s),
            }
        }
        d
    }

    fn pred(&self, name: &str) -> Option<(usize, &'a ast::PredicateDecl)> {
        self.preds
            .iter()
            .enumerate()
            .find(|(_, p)| p.name.name == name)
            .map(|(i, p)| (i, *p))
    }

    fn inv(&self, name: &str) -> Option<(usize, &'a ast::InvariantDecl)> {
        self.invs
            .iter()
            .enumerate()
            .find(|(_, p)| p.name.name == name)
            .map(|(i, p)| (i, *p))
    }

    fn strukt(&self, name: &str) -> Option<(usize, &'a ast::StructureDecl)> {
        self.structs
            .iter()
            .enumerate()
            .find(|(_, p)| p.name.name == name)
            .map(|(i, p)| (i, *p))
    }

    /// Duplicate names within each kind, duplicate roles, parameters and families.
    fn duplicates(&self) -> Vec<Diagnostic> {
        let mut errs = vec![];
        let kinds: [(&str, Vec<&Ident>); 3] = [
            ("predicate", self.preds.iter().map(|p| &p.name).collect()),
            ("invariant", self.invs.iter().map(|p| &p.name).collect()),
            ("structure", self.structs.iter().map(|p| &p.name).collect()),
        ];
        for (kind, names) in kinds {
            dup_names(&names, kind, &mut errs);
        }
        for p in &self.preds {
            dup_names(&p.roles.iter().collect::<Vec<_>>(), "role", &mut errs);
            let mut params: Vec<&Ident> = p.params.iter().collect();
            params.extend(p.pointer.iter());
            dup_names(&params, "parameter", &mut errs);
        }
        for i in &self.invs {
            dup_names(&i.roles.iter().collect::<Vec<_>>(), "role", &mut errs);
        }
        for s in &self.structs {
            dup_names(&s.roles.iter().collect::<Vec<_>>(), "role", &mut errs);
            dup_names(
                &s.families.iter().map(|f| &f.name).collect::<Vec<_>>(),
                "family",
                &mut errs,
            );
        }
        errs
    }
}

fn dup_names(names: &[&Ident], kind: &str, errs: &mut Vec<Diagnostic>) {
    let mut seen: BTreeMap<&str, Span> = BTreeMap::new();
    for n in names {
        if let Some(first) = seen.get(n.name.as_str()) {
            errs.push(
                Diagnostic::error(format!("duplicate {kind} `{}`", n.name), n.span)
                    .with_secondary(*first, "first declared here"),
            );
        } else {
            seen.insert(&n.name, n.span);
        }
    }
}

// ---------------------------------------------------------------- 1. names

fn names(d: &Decls) -> Vec<Diagnostic> {
    let mut errs = vec![];
    for s in &d.structs {
        let roles: BTreeSet<&str> = s.roles.iter().map(|r| r.name.as_str()).collect();
        let families: BTreeSet<&str> = s.families.iter().map(|f| f.name.name.as_str()).collect();
        for r in &s.refines {
            if d.strukt(&r.name.name).is_none() {
                errs.push(unknown(
                    "structure",
                    &r.name,
                    d.structs.iter().map(|x| &x.name.name),
                ));
            }
            role_args(&r.roles, &roles, &mut errs);
        }
        for i in &s.invariants {
            if d.inv(&i.name.name).is_none() {
                errs.push(unknown(
                    "invariant",
                    &i.name,
                    d.invs.iter().map(|x| &x.name.name),
                ));
            }
            role_args(&i.roles, &roles, &mut errs);
        }
        for f in &s.families {
            for p in &f.preds {
                if d.pred(&p.name.name).is_none() {
                    errs.push(unknown(
                        "predicate",
                        &p.name,
                        d.preds.iter().map(|x| &x.name.name),
                    ));
                }
                role_args(&p.roles, &roles, &mut errs);
            }
            for r in &f.requires {
                if !families.contains(r.name.as_str()) {
                    errs.push(unknown("family", r, families.iter().copied()));
                }
            }
        }
        for a in &s.abstracts {
            if !families.contains(a.name.as_str()) {
                errs.push(unknown("family", a, families.iter().copied()));
            }
        }
    }
    errs
}

fn role_args(args: &[Ident], roles: &BTreeSet<&str>, errs: &mut Vec<Diagnostic>) {
    for a in args {
        if !roles.contains(a.name.as_str()) {
            errs.push(unknown("role", a, roles.iter().copied()));
        }
    }
}

fn unknown<'a, S: AsRef<str>>(
    kind: &str,
    name: &Ident,
    known: impl Iterator<Item = S>,
) -> Diagnostic {
    let known: Vec<String> = known.map(|k| format!("`{}`", k.as_ref())).collect();
    let d = Diagnostic::error(format!("unknown {kind} `{}`", name.name), name.span);
    if known.is_empty() {
        d.with_note(format!("no {kind} is declared"))
    } else {
        d.with_note(format!("known: {}", known.join(", ")))
    }
}

// ---------------------------------------------------------------- 2. arity and roles

fn arity(d: &Decls) -> Vec<Diagnostic> {
    let mut errs = vec![];
    for p in &d.preds {
        if p.params.is_empty() || p.params.len() > 2 {
            errs.push(Diagnostic::error(
                format!(
                    "predicate `{}` has {} node parameters (expected 1 or 2)",
                    p.name.name,
                    p.params.len()
                ),
                p.name.span,
            ));
        }
    }
    for s in &d.structs {
        for r in &s.refines {
            if let Some((_, t)) = d.strukt(&r.name.name) {
                role_count("structure", r, t.roles.len(), t.name.span, &mut errs);
            }
        }
        for i in &s.invariants {
            if let Some((_, t)) = d.inv(&i.name.name) {
                role_count("invariant", i, t.roles.len(), t.name.span, &mut errs);
            }
        }
        for f in &s.families {
            for p in &f.preds {
                if let Some((_, t)) = d.pred(&p.name.name) {
                    role_count("predicate", p, t.roles.len(), t.name.span, &mut errs);
                }
            }
        }
    }
    errs
}

fn role_count(
    kind: &str,
    inst: &ast::Instance,
    want: usize,
    decl: Span,
    errs: &mut Vec<Diagnostic>,
) {
    if inst.roles.len() != want {
        errs.push(
            Diagnostic::error(
                format!(
                    "wrong arity for {kind} `{}` (expected {want} field role{}, found {})",
                    inst.name.name,
                    if want == 1 { "" } else { "s" },
                    inst.roles.len()
                ),
                inst.span,
            )
            .with_secondary(decl, "declared here"),
        );
    }
}

// ---------------------------------------------------------------- 3. formulas

/// What a formula may refer to: the enclosing declaration's roles, pointer, and variables.
struct Scope<'a> {
    decls: &'a Decls<'a>,
    roles: Vec<&'a str>,
    pointer: Option<&'a str>,
    vars: Vec<(String, usize)>,
    names: Vec<String>,
    /// Predicates this declaration may use (those declared before it, for predicates).
    visible: usize,
}

fn formulas(d: &Decls, out: &mut ir::Spec) -> Vec<Diagnostic> {
    let mut errs = vec![];
    for (i, p) in d.preds.iter().enumerate() {
        let mut sc = Scope::new(d, &p.roles, p.pointer.as_ref().map(|x| x.name.as_str()), i);
        for v in &p.params {
            sc.bind(&v.name);
        }
        let body = sc.formula(&p.body, &mut errs);
        out.predicates.push(ir::Predicate {
            name: p.name.name.clone(),
            roles: p.roles.iter().map(|r| r.name.clone()).collect(),
            pointer: p.pointer.as_ref().map(|x| x.name.clone()),
            arity: p.params.len(),
            slots: sc.names.len(),
            var_names: sc.names,
            body,
        });
    }
    for inv in &d.invs {
        let mut sc = Scope::new(d, &inv.roles, None, d.preds.len());
        let body = sc.formula(&inv.body, &mut errs);
        out.invariants.push(ir::Invariant {
            name: inv.name.name.clone(),
            roles: inv.roles.iter().map(|r| r.name.clone()).collect(),
            slots: sc.names.len(),
            var_names: sc.names,
            body,
        });
    }
    errs
}

impl<'a> Scope<'a> {
    fn new(
        decls: &'a Decls<'a>,
        roles: &'a [Ident],
        pointer: Option<&'a str>,
        visible: usize,
    ) -> Self {
        Scope {
            decls,
            roles: roles.iter().map(|r| r.name.as_str()).collect(),
            pointer,
            vars: vec![],
            names: vec![],
            visible,
        }
    }

    fn bind(&mut self, name: &str) -> usize {
        let slot = self.names.len();
        self.names.push(name.to_string());
        self.vars.push((name.to_string(), slot));
        slot
    }

    fn var(&self, id: &Ident, errs: &mut Vec<Diagnostic>) -> usize {
        match self.vars.iter().rev().find(|(n, _)| *n == id.name) {
            Some((_, s)) => *s,
            None => {
                errs.push(Diagnostic::error(format!("free variable `{}`", id.name), id.span).with_note(
                    "node variables are the parameters and the variables bound by `forall` and `exists`",
                ));
                0
            }
        }
    }

    fn role(&self, id: &Ident, errs: &mut Vec<Diagnostic>) -> usize {
        match self.roles.iter().position(|r| *r == id.name) {
            Some(i) => i,
            None => {
                errs.push(unknown("role", id, self.roles.iter().copied()));
                0
            }
        }
    }

    fn formula(&mut self, f: &ast::Formula, errs: &mut Vec<Diagnostic>) -> Formula {
        let bx = |x: Formula| Box::new(x);
        match &f.kind {
            FormulaKind::True => Formula::True,
            FormulaKind::False => Formula::False,
            FormulaKind::Eq { left, right, equal } => {
                let e = Formula::Eq(self.var(left, errs), self.var(right, errs));
                if *equal { e } else { Formula::Not(bx(e)) }
            }
            FormulaKind::Not(a) => Formula::Not(bx(self.formula(a, errs))),
            FormulaKind::And(a, b) => {
                Formula::And(bx(self.formula(a, errs)), bx(self.formula(b, errs)))
            }
            FormulaKind::Or(a, b) => {
                Formula::Or(bx(self.formula(a, errs)), bx(self.formula(b, errs)))
            }
            FormulaKind::Implies(a, b) => {
                Formula::Implies(bx(self.formula(a, errs)), bx(self.formula(b, errs)))
            }
            FormulaKind::Iff(a, b) => {
                Formula::Iff(bx(self.formula(a, errs)), bx(self.formula(b, errs)))
            }
            FormulaKind::Quant { q, vars, body } => self.quantified(*q, vars, body, errs),
            FormulaKind::Atom {
                name,
                roles,
                closure,
                args,
            } => self.atom(name, roles.as_deref(), *closure, args, f.span, errs),
        }
    }

    fn quantified(
        &mut self,
        q: Quantifier,
        vars: &[Ident],
        body: &ast::Formula,
        errs: &mut Vec<Diagnostic>,
    ) -> Formula {
        let depth = self.vars.len();
        let mut slots = vec![];
        for v in vars {
            if let Some((_, _)) = self.vars.iter().find(|(n, _)| *n == v.name) {
                errs.push(Diagnostic::error(
                    format!("variable `{}` shadows an outer variable", v.name),
                    v.span,
                ));
            }
            slots.push(self.bind(&v.name));
        }
        let mut f = self.formula(body, errs);
        self.vars.truncate(depth);
        for s in slots.into_iter().rev() {
            f = match q {
                Quantifier::Forall => Formula::Forall(s, Box::new(f)),
                Quantifier::Exists => Formula::Exists(s, Box::new(f)),
            };
        }
        f
    }

    /// An atom: a role (field edge), the tracked pointer, `sm`, or a predicate.
    fn atom(
        &mut self,
        name: &Ident,
        roles: Option<&[Ident]>,
        closure: Option<Closure>,
        args: &[Ident],
        span: Span,
        errs: &mut Vec<Diagnostic>,
    ) -> Formula {
        let vars: Vec<usize> = args.iter().map(|a| self.var(a, errs)).collect();
        let n = name.name.as_str();
        if roles.is_none() && self.roles.contains(&n) {
            return self.field_atom(name, closure, &vars, span, errs);
        }
        if roles.is_none() && (Some(n) == self.pointer || n == "sm") {
            if closure.is_some() || vars.len() != 1 {
                errs.push(Diagnostic::error(
                    format!("`{n}` is a unary predicate: it takes one node and no closure"),
                    span,
                ));
                return Formula::False;
            }
            return if n == "sm" {
                Formula::Summary(vars[0])
            } else {
                Formula::Pointer(vars[0])
            };
        }
        self.pred_atom(name, roles.unwrap_or(&[]), closure, vars, span, errs)
    }

    fn field_atom(
        &self,
        name: &Ident,
        closure: Option<Closure>,
        vars: &[usize],
        span: Span,
        errs: &mut Vec<Diagnostic>,
    ) -> Formula {
        let role = self.role(name, errs);
        if vars.len() != 2 {
            errs.push(Diagnostic::error(
                format!(
                    "wrong number of nodes for field `{}` (expected 2, found {})",
                    name.name,
                    vars.len()
                ),
                span,
            ));
            return Formula::False;
        }
        match closure {
            None => Formula::Field(role, vars[0], vars[1]),
            Some(c) => Formula::Closure {
                rel: Rel::Field(role),
                reflexive: c == Closure::Star,
                from: vars[0],
                to: vars[1],
            },
        }
    }

    fn pred_atom(
        &mut self,
        name: &Ident,
        roles: &[Ident],
        closure: Option<Closure>,
        vars: Vec<usize>,
        span: Span,
        errs: &mut Vec<Diagnostic>,
    ) -> Formula {
        let Some((id, decl)) = self.decls.pred(&name.name) else {
            let mut known: Vec<String> = self.roles.iter().map(|r| r.to_string()).collect();
            known.extend(self.pointer.map(str::to_string));
            known.push("sm".into());
            known.extend(self.decls.preds.iter().map(|p| p.name.name.clone()));
            errs.push(unknown("name", name, known.iter()));
            return Formula::False;
        };
        if id >= self.visible {
            // Reported by the stratification check.
            return Formula::False;
        }
        let role_ids: Vec<usize> = roles.iter().map(|r| self.role(r, errs)).collect();
        if roles.len() != decl.roles.len() {
            errs.push(
                Diagnostic::error(
                    format!(
                        "wrong arity for predicate `{}` (expected {} field roles, found {})",
                        name.name,
                        decl.roles.len(),
                        roles.len()
                    ),
                    span,
                )
                .with_secondary(decl.name.span, "declared here"),
            );
        }
        if decl.pointer.is_some() && self.pointer.is_none() {
            errs.push(
                Diagnostic::error(
                    format!("predicate `{}` is indexed by a tracked pointer, but this declaration has none", name.name),
                    span,
                )
                .with_note("declare a pointer parameter, e.g. `predicate p[f]<x>(v) := ...`"),
            );
        }
        let arity = decl.params.len();
        match closure {
            Some(c) if arity == 2 && vars.len() == 2 => Formula::Closure {
                rel: Rel::Pred(PredId(id), role_ids),
                reflexive: c == Closure::Star,
                from: vars[0],
                to: vars[1],
            },
            Some(_) => {
                errs.push(
                    Diagnostic::error(
                        format!(
                            "transitive closure of `{}`, which is not a binary relation",
                            name.name
                        ),
                        span,
                    )
                    .with_secondary(
                        decl.name.span,
                        format!("`{}` has {arity} node parameter(s)", name.name),
                    ),
                );
                Formula::False
            }
            None if vars.len() != arity => {
                errs.push(Diagnostic::error(
                    format!(
                        "wrong number of nodes for predicate `{}` (expected {arity}, found {})",
                        name.name,
                        vars.len()
                    ),
                    span,
                ));
                Formula::False
            }
            None => Formula::Pred(PredId(id), role_ids, vars),
        }
    }
}

// ---------------------------------------------------------------- 4. stratification

fn stratification(d: &Decls) -> Vec<Diagnostic> {
    let mut errs = vec![];
    for (i, p) in d.preds.iter().enumerate() {
        let mut uses = vec![];
        pred_uses(&p.body, &mut uses);
        for u in uses {
            let Some((j, decl)) = d.pred(&u.name) else {
                continue;
            };
            if j >= i {
                let what = if j == i {
                    "itself"
                } else {
                    "a predicate declared after it"
                };
                errs.push(
                    Diagnostic::error(format!("predicate `{}` uses {what}: `{}`", p.name.name, u.name), u.span)
                        .with_secondary(decl.name.span, "declared here")
                        .with_note("an instrumentation predicate may use only core predicates and predicates declared before it"),
                );
            }
        }
    }
    errs
}

fn pred_uses<'a>(f: &'a ast::Formula, out: &mut Vec<&'a Ident>) {
    match &f.kind {
        FormulaKind::Atom { name, .. } => out.push(name),
        FormulaKind::Not(a) => pred_uses(a, out),
        FormulaKind::And(a, b)
        | FormulaKind::Or(a, b)
        | FormulaKind::Implies(a, b)
        | FormulaKind::Iff(a, b) => {
            pred_uses(a, out);
            pred_uses(b, out);
        }
        FormulaKind::Quant { body, .. } => pred_uses(body, out),
        _ => {}
    }
}

// ---------------------------------------------------------------- structures to IR

fn structures(d: &Decls, out: &mut ir::Spec) -> Vec<Diagnostic> {
    let errs = vec![];
    for s in &d.structs {
        let role = |r: &Ident| s.roles.iter().position(|x| x.name == r.name).unwrap_or(0);
        let fam_idx = |n: &Ident| {
            s.families
                .iter()
                .position(|f| f.name.name == n.name)
                .unwrap_or(0)
        };
        let families = s
            .families
            .iter()
            .map(|f| ir::Family {
                name: f.name.name.clone(),
                preds: f
                    .preds
                    .iter()
                    .map(|p| ir::PredUse {
                        pred: PredId(d.pred(&p.name.name).map_or(0, |x| x.0)),
                        roles: p.roles.iter().map(role).collect(),
                    })
                    .collect(),
                requires: f.requires.iter().map(fam_idx).collect(),
                abstraction: s.abstracts.iter().any(|a| a.name == f.name.name),
            })
            .collect();
        out.structures.push(ir::Structure {
            name: s.name.name.clone(),
            roles: s.roles.iter().map(|r| r.name.clone()).collect(),
            invariants: s
                .invariants
                .iter()
                .map(|i| ir::InvUse {
                    inv: InvId(d.inv(&i.name.name).map_or(0, |x| x.0)),
                    roles: i.roles.iter().map(role).collect(),
                })
                .collect(),
            families,
            refines: s
                .refines
                .iter()
                .map(|r| ir::Refinement {
                    coarser: StructId(d.strukt(&r.name.name).map_or(0, |x| x.0)),
                    roles: r.roles.iter().map(role).collect(),
                })
                .collect(),
        });
    }
    errs
}

// ---------------------------------------------------------------- 5. the lattice

fn lattice(d: &Decls, spec: &ir::Spec) -> Vec<Diagnostic> {
    let mut errs = vec![];
    for (i, s) in spec.structures.iter().enumerate() {
        if let Some(cycle) = refinement_cycle(spec, StructId(i)) {
            let names: Vec<String> = cycle
                .iter()
                .map(|c| format!("`{}`", spec.structures[c.0].name))
                .collect();
            errs.push(
                Diagnostic::error(
                    format!("cyclic refinement: {}", names.join(" refines ")),
                    d.structs[i].name.span,
                )
                .with_note("the refinement relation must be acyclic to form a lattice"),
            );
        }
        for (k, f) in s.families.iter().enumerate() {
            if requires_cycle(s, k) {
                errs.push(Diagnostic::error(
                    format!("family `{}` requires itself through `requires`", f.name),
                    d.structs[i].families[k].name.span,
                ));
            }
        }
        for (r, decl) in s.refines.iter().zip(&d.structs[i].refines) {
            for missing in crate::lattice::not_refined(spec, StructId(i), r) {
                errs.push(
                    Diagnostic::error(
                        format!(
                            "`{}` does not refine `{}`: its finest generator lacks `{missing}`",
                            s.name, spec.structures[r.coarser.0].name
                        ),
                        decl.span,
                    )
                    .with_note("a finer structure must have every predicate of the structures it refines (with roles mapped)"),
                );
            }
        }
    }
    errs
}

/// A path from `start` back to itself along `refines`, if any.
fn refinement_cycle(spec: &ir::Spec, start: StructId) -> Option<Vec<StructId>> {
    fn go(spec: &ir::Spec, at: StructId, start: StructId, path: &mut Vec<StructId>) -> bool {
        for r in &spec.structures[at.0].refines {
            if r.coarser == start {
                path.push(r.coarser);
                return true;
            }
            if path.contains(&r.coarser) {
                continue;
            }
            path.push(r.coarser);
            if go(spec, r.coarser, start, path) {
                return true;
            }
            path.pop();
        }
        false
    }
    let mut path = vec![start];
    go(spec, start, start, &mut path).then_some(path)
}

fn requires_cycle(s: &ir::Structure, start: usize) -> bool {
    let mut stack: Vec<usize> = s.families[start].requires.clone();
    let mut seen = BTreeSet::new();
    while let Some(f) = stack.pop() {
        if f == start {
            return true;
        }
        if seen.insert(f) {
            stack.extend(s.families[f].requires.iter().copied());
        }
    }
    false
}
