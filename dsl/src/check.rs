//! Semantic checks: the AST of a parsed spec in, the resolved Spec IR out, or every error found.
//!
//! The checks run in a fixed order, and each reports all of its errors before the next runs:
//! 1. names: duplicate declarations, unknown predicates/invariants/structures/families/roles;
//! 2. arity and roles: role-argument counts, node-argument counts, duplicate roles;
//! 3. formulas: free or shadowed variables, closures only of binary relations, the tracked
//!    pointer used only where declared, `sm` and fields applied to the right number of nodes;
//! 4. stratification: a predicate uses only predicates declared before it (no recursion);
//! 5. the lattice: at most `lattice::MAX_FAMILIES` families per structure, acyclic refinement,
//!    `requires` acyclic, and each refinement monotone (the finer structure's finest generator
//!    contains the coarser one's predicates);
//! 6. templates: their members, rows and linear expressions (`crate::template`, which also
//!    lowers them). Duplicate template names are reported in step 1, with the other duplicates
//!    (templates are a kind of their own: a template may share a structure's name).
//! 7. predicate families, then contracts: names, atoms, the families they name and the
//!    AF^R fragment (`crate::family` and `crate::contract`, which also lower them; duplicate
//!    families and contracts of one function are reported there).
//! 8. spatial domains: symbols, the list predicate's parameters and definition against its
//!    kinds' laws, the lemma and the abstraction rules (`crate::spatial`, which also lowers
//!    them). Duplicate domain names are reported in step 1, with the other duplicates
//!    (domains are a kind of their own, like templates).

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
        match crate::template::check(&decls.templates) {
            Ok(templates) => out.templates = templates,
            Err(e) => errors = e,
        }
    }
    if errors.is_empty() {
        match crate::family::check(&decls.families) {
            Ok(families) => out.families = families,
            Err(e) => errors = e,
        }
    }
    if errors.is_empty() {
        match crate::contract::check(&decls.contracts, &out.families) {
            Ok(contracts) => out.contracts = contracts,
            Err(e) => errors = e,
        }
    }
    if errors.is_empty() {
        match crate::spatial::check(&decls.spatial) {
            Ok(spatial) => out.spatial = spatial,
            Err(e) => errors = e,
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// The declarations of a spec by kind, in source order, with an index by name (the first of
/// duplicates wins, as the names check reports the others).
struct Decls<'a> {
    preds: Vec<&'a ast::PredicateDecl>,
    invs: Vec<&'a ast::InvariantDecl>,
    structs: Vec<&'a ast::StructureDecl>,
    templates: Vec<&'a ast::TemplateDecl>,
    contracts: Vec<&'a ast::ContractDecl>,
    families: Vec<&'a ast::PredFamilyDecl>,
    spatial: Vec<&'a ast::SpatialDecl>,
    index: [BTreeMap<&'a str, usize>; 3],
}

/// The kinds of declaration, as positions in [`Decls::index`].
const PRED: usize = 0;
const INV: usize = 1;
const STRUCT: usize = 2;

impl<'a> Decls<'a> {
    fn collect(spec: &'a ast::Spec) -> Decls<'a> {
        let mut d = Decls {
            preds: vec![],
            invs: vec![],
            structs: vec![],
            templates: vec![],
            contracts: vec![],
            families: vec![],
            spatial: vec![],
            index: Default::default(),
        };
        for item in &spec.items {
            let (kind, name, at) = match item {
                Item::Predicate(p) => (PRED, &p.name.name, d.preds.len()),
                Item::Invariant(i) => (INV, &i.name.name, d.invs.len()),
                Item::Structure(s) => (STRUCT, &s.name.name, d.structs.len()),
                Item::Template(t) => {
                    // Nothing refers to a template by name: no index.
                    d.templates.push(t);
                    continue;
                }
                Item::Contract(c) => {
                    // Contracts are found by their C function's name, checked there.
                    d.contracts.push(c);
                    continue;
                }
                Item::Spatial(s) => {
                    // Nothing refers to a spatial domain by name: no index.
                    d.spatial.push(s);
                    continue;
                }
                Item::PredFamily(f) => {
                    // Families are found by name among themselves, checked there.
                    d.families.push(f);
                    continue;
                }
            };
            d.index[kind].entry(name.as_str()).or_insert(at);
            match item {
                Item::Predicate(p) => d.preds.push(p),
                Item::Invariant(i) => d.invs.push(i),
                Item::Structure(s) => d.structs.push(s),
                Item::Template(_) | Item::Contract(_) | Item::Spatial(_) | Item::PredFamily(_) => {}
            }
        }
        d
    }

    fn pred(&self, name: &str) -> Option<(usize, &'a ast::PredicateDecl)> {
        let i = *self.index[PRED].get(name)?;
        Some((i, self.preds[i]))
    }

    fn inv(&self, name: &str) -> Option<(usize, &'a ast::InvariantDecl)> {
        let i = *self.index[INV].get(name)?;
        Some((i, self.invs[i]))
    }

    fn strukt(&self, name: &str) -> Option<(usize, &'a ast::StructureDecl)> {
        let i = *self.index[STRUCT].get(name)?;
        Some((i, self.structs[i]))
    }

    /// Duplicate names within each kind (templates and spatial domains included), duplicate
    /// roles, parameters and families.
    fn duplicates(&self) -> Vec<Diagnostic> {
        let mut errs = vec![];
        let kinds: [(&str, Vec<&Ident>); 5] = [
            ("predicate", self.preds.iter().map(|p| &p.name).collect()),
            ("invariant", self.invs.iter().map(|p| &p.name).collect()),
            ("structure", self.structs.iter().map(|p| &p.name).collect()),
            ("template", self.templates.iter().map(|p| &p.name).collect()),
            (
                "spatial domain",
                self.spatial.iter().map(|p| &p.name).collect(),
            ),
        ];
        for (kind, names) in kinds {
            dup_names(&names, kind, &mut errs);
        }
        for p in &self.preds {
            dup_names(&p.roles.iter().collect::<Vec<_>>(), "role", &mut errs);
            // In source order: the pointer `<x>` is written before the node parameters.
            let mut params: Vec<&Ident> = p.pointer.iter().collect();
            params.extend(p.params.iter());
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

/// Reports each name of `names` that an earlier one repeats, as a duplicate `kind`.
pub(crate) fn dup_names(names: &[&Ident], kind: &str, errs: &mut Vec<Diagnostic>) {
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

fn unknown<S: AsRef<str>>(kind: &str, name: &Ident, known: impl Iterator<Item = S>) -> Diagnostic {
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
            FormulaKind::Old(a) => {
                errs.push(Diagnostic::error(
                    "`old(...)` has a meaning only in a contract's `ensures`",
                    f.span,
                ));
                self.formula(a, errs)
            }
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
                        "wrong arity for predicate `{}` (expected {} field role{}, found {})",
                        name.name,
                        decl.roles.len(),
                        if decl.roles.len() == 1 { "" } else { "s" },
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
            Some(_) if arity != 2 => {
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
            _ if vars.len() != arity => {
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
            Some(c) => Formula::Closure {
                rel: Rel::Pred(PredId(id), role_ids),
                reflexive: c == Closure::Star,
                from: vars[0],
                to: vars[1],
            },
            None => Formula::Pred(PredId(id), role_ids, vars),
        }
    }
}

// ---------------------------------------------------------------- 4. stratification

fn stratification(d: &Decls) -> Vec<Diagnostic> {
    let mut errs = vec![];
    for (i, p) in d.preds.iter().enumerate() {
        let mut uses = vec![];
        // Atoms without roles that name a role, the pointer or `sm` are core predicates (as in
        // `Scope::atom`), even when a predicate has the same name.
        let core = |n: &str| {
            p.roles.iter().any(|r| r.name == n)
                || p.pointer.as_ref().is_some_and(|x| x.name == n)
                || n == "sm"
        };
        pred_uses(&p.body, &core, &mut uses);
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

fn pred_uses<'a>(f: &'a ast::Formula, core: &dyn Fn(&str) -> bool, out: &mut Vec<&'a Ident>) {
    match &f.kind {
        FormulaKind::Atom { name, roles, .. } if roles.is_some() || !core(&name.name) => {
            out.push(name)
        }
        FormulaKind::Not(a) | FormulaKind::Old(a) => pred_uses(a, core, out),
        FormulaKind::And(a, b)
        | FormulaKind::Or(a, b)
        | FormulaKind::Implies(a, b)
        | FormulaKind::Iff(a, b) => {
            pred_uses(a, core, out);
            pred_uses(b, core, out);
        }
        FormulaKind::Quant { body, .. } => pred_uses(body, core, out),
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
    let reaches_cycle = reaches_refinement_cycle(spec);
    for (i, s) in spec.structures.iter().enumerate() {
        if s.families.len() > crate::lattice::MAX_FAMILIES {
            errs.push(
                Diagnostic::error(
                    format!(
                        "structure `{}` has {} families (at most {})",
                        s.name,
                        s.families.len(),
                        crate::lattice::MAX_FAMILIES
                    ),
                    d.structs[i].name.span,
                )
                .with_note("its generators are the subsets of its families; merge some families"),
            );
        }
        let cycle = reaches_cycle[i]
            .then(|| refinement_cycle(spec, StructId(i)))
            .flatten();
        if let Some(cycle) = cycle {
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

/// Which structures reach a cycle of `refines` (the others cannot be on one): those left
/// when structures that refine only removed ones are removed, sinks first. Linear in the
/// size of the spec, so that long acyclic chains check fast.
fn reaches_refinement_cycle(spec: &ir::Spec) -> Vec<bool> {
    let n = spec.structures.len();
    let mut finer: Vec<Vec<usize>> = vec![vec![]; n];
    let mut left: Vec<usize> = vec![0; n];
    for (i, s) in spec.structures.iter().enumerate() {
        for r in &s.refines {
            finer[r.coarser.0].push(i);
            left[i] += 1;
        }
    }
    let mut removable: Vec<usize> = (0..n).filter(|i| left[*i] == 0).collect();
    let mut remains = vec![true; n];
    while let Some(c) = removable.pop() {
        remains[c] = false;
        for &f in &finer[c] {
            left[f] -= 1;
            if left[f] == 0 {
                removable.push(f);
            }
        }
    }
    remains
}

/// A path from `start` back to itself along `refines`, if any: a depth-first search that
/// visits each structure once (no recursion: refinement chains may be long).
fn refinement_cycle(spec: &ir::Spec, start: StructId) -> Option<Vec<StructId>> {
    let coarser = |s: StructId| spec.structures[s.0].refines.iter().map(|r| r.coarser);
    let mut path = vec![start];
    let mut next: Vec<std::vec::IntoIter<StructId>> =
        vec![coarser(start).collect::<Vec<_>>().into_iter()];
    let mut seen = BTreeSet::from([start]);
    while let Some(edges) = next.last_mut() {
        match edges.next() {
            Some(c) if c == start => {
                path.push(c);
                return Some(path);
            }
            Some(c) if seen.insert(c) => {
                path.push(c);
                next.push(coarser(c).collect::<Vec<_>>().into_iter());
            }
            Some(_) => {}
            None => {
                next.pop();
                path.pop();
            }
        }
    }
    None
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

#[cfg(test)]
mod tests {
    //! One group of tests per check, each asserting the message and the span (line:col and the
    //! text under it) of every diagnostic, in order.
    use super::*;
    use crate::diag::line_col;

    /// A diagnostic as `(line:col, spanned text, message)`.
    type Found = (String, String, String);

    fn at(text: &str, span: Span) -> (String, String) {
        let (l, c) = line_col(text, span.start);
        (format!("{l}:{c}"), text[span.start..span.end].to_string())
    }

    fn errors(text: &str) -> Vec<Found> {
        let ast = crate::parser::parse(text).unwrap_or_else(|e| panic!("{}", e.message));
        match check(&ast) {
            Ok(_) => vec![],
            Err(ds) => ds
                .iter()
                .map(|d| {
                    let (pos, s) = at(text, d.primary);
                    (pos, s, d.message.clone())
                })
                .collect(),
        }
    }

    fn e(pos: &str, spanned: &str, msg: &str) -> Found {
        (pos.into(), spanned.into(), msg.into())
    }

    /// The one diagnostic of `text`.
    fn only(text: &str) -> Diagnostic {
        let ast = crate::parser::parse(text).unwrap_or_else(|e| panic!("{}", e.message));
        let mut ds = check(&ast).expect_err("rejected");
        assert_eq!(ds.len(), 1, "{ds:#?}");
        ds.remove(0)
    }

    const REACH: &str = "predicate reach[f]<x>(v) := exists u. x(u) && f*(u, v);\n";

    // ------------------------------------------------------------ duplicates (names, part 1)

    #[test]
    fn duplicate_declarations_point_at_the_second_and_note_the_first() {
        let text = "predicate p[f](v) := true;\npredicate p[g](w) := true;\n";
        let d = only(text);
        assert_eq!(d.message, "duplicate predicate `p`");
        assert_eq!(at(text, d.primary), ("2:11".into(), "p".into()));
        assert_eq!(d.secondary.len(), 1);
        assert_eq!(at(text, d.secondary[0].0), ("1:11".into(), "p".into()));
        assert_eq!(d.secondary[0].1, "first declared here");
    }

    #[test]
    fn duplicates_of_every_kind_are_reported_together() {
        let text = "invariant i[f] := true;\ninvariant i[f] := true;\n\
                    structure s[f] { }\nstructure s[g] { }\n\
                    predicate q[f, f](v, v) := true;\n\
                    predicate r[f]<v>(v) := true;\n\
                    invariant j[a, a] := true;\n\
                    structure t[f, f] { family a = q[f]; family a = q[f]; }\n";
        assert_eq!(
            errors(text),
            [
                e("2:11", "i", "duplicate invariant `i`"),
                e("4:11", "s", "duplicate structure `s`"),
                e("5:16", "f", "duplicate role `f`"),
                e("5:22", "v", "duplicate parameter `v`"),
                e("6:19", "v", "duplicate parameter `v`"),
                e("7:16", "a", "duplicate role `a`"),
                e("8:16", "f", "duplicate role `f`"),
                e("8:45", "a", "duplicate family `a`"),
            ]
        );
    }

    #[test]
    fn a_duplicate_parameter_notes_the_earlier_one_in_the_source() {
        // The pointer `<v>` comes first in the text.
        let text = "predicate r[f]<v>(v) := true;";
        let d = only(text);
        assert_eq!(at(text, d.primary).0, "1:19");
        assert_eq!(at(text, d.secondary[0].0).0, "1:16");
    }

    #[test]
    fn different_kinds_may_share_a_name() {
        let text = "predicate tree[l, r](v) := true;\ninvariant tree[l, r] := true;\n\
                    structure tree[l, r] { invariant tree[l, r]; family tree = tree[l, r]; }\n";
        assert_eq!(errors(text), []);
    }

    // ------------------------------------------------------------ 1. names

    #[test]
    fn unknown_names_in_structures() {
        let text = format!(
            "{REACH}invariant acyclic[f] := true;\n\
             structure s[f] refines t[f] {{\n\
             invariant acyclc[f], acyclic[g];\n\
             family a = rech[f], reach[h] requires b;\n\
             abstract c;\n}}\n"
        );
        assert_eq!(
            errors(&text),
            [
                e("3:24", "t", "unknown structure `t`"),
                e("4:11", "acyclc", "unknown invariant `acyclc`"),
                e("4:30", "g", "unknown role `g`"),
                e("5:12", "rech", "unknown predicate `rech`"),
                e("5:27", "h", "unknown role `h`"),
                e("5:39", "b", "unknown family `b`"),
                e("6:10", "c", "unknown family `c`"),
            ]
        );
    }

    #[test]
    fn unknown_names_list_the_known_ones_in_a_note() {
        let text = format!("{REACH}structure s[f] {{ family a = rech[f]; }}");
        let d = only(&text);
        assert_eq!(d.notes, ["known: `reach`"]);
        let d = only("structure s[f] { invariant acyclic[f]; }");
        assert_eq!(d.message, "unknown invariant `acyclic`");
        assert_eq!(d.notes, ["no invariant is declared"]);
        let d = only("structure s[f] { abstract a; }");
        assert_eq!(d.notes, ["no family is declared"]);
    }

    #[test]
    fn refinement_roles_are_the_finer_structures() {
        let text = "structure a[f] { }\nstructure b[g] refines a[f] { }\n";
        assert_eq!(errors(text), [e("2:26", "f", "unknown role `f`")]);
    }

    // ------------------------------------------------------------ 2. arity and roles

    #[test]
    fn node_parameters_are_one_or_two() {
        let text = "predicate p[f](u, v, w) := true;\npredicate q[f](v) := true;\n";
        assert_eq!(
            errors(text),
            [e(
                "1:11",
                "p",
                "predicate `p` has 3 node parameters (expected 1 or 2)"
            )]
        );
    }

    #[test]
    fn role_counts_of_instances() {
        let text = format!(
            "{REACH}invariant inv[f, b] := true;\n\
             structure s[f] {{ }}\n\
             structure t[f, b] refines s[f, b] {{\n\
             invariant inv[f];\n\
             family a = reach[], reach[f, b];\n}}\n"
        );
        assert_eq!(
            errors(&text),
            [
                e(
                    "4:27",
                    "s[f, b]",
                    "wrong arity for structure `s` (expected 1 field role, found 2)"
                ),
                e(
                    "5:11",
                    "inv[f]",
                    "wrong arity for invariant `inv` (expected 2 field roles, found 1)"
                ),
                e(
                    "6:12",
                    "reach[]",
                    "wrong arity for predicate `reach` (expected 1 field role, found 0)"
                ),
                e(
                    "6:21",
                    "reach[f, b]",
                    "wrong arity for predicate `reach` (expected 1 field role, found 2)"
                ),
            ]
        );
        let d = only("invariant inv[f, b] := true;\nstructure s[f] { invariant inv[f]; }");
        assert_eq!(d.secondary[0].1, "declared here");
        assert_eq!(d.secondary[0].0, Span { start: 10, end: 13 });
    }

    // ------------------------------------------------------------ 3. formulas

    #[test]
    fn free_variables() {
        let text = "predicate p[f](v) := f(v, w);\n\
                    invariant i[f] := (exists u. f(u, u)) && u == u;\n";
        assert_eq!(
            errors(text),
            [
                e("1:27", "w", "free variable `w`"),
                e("2:42", "u", "free variable `u`"),
                e("2:47", "u", "free variable `u`"),
            ]
        );
        let d = only("invariant i[f] := exists w. f(v, w);\npredicate p[f](v) := true;");
        assert_eq!(d.message, "free variable `v`");
    }

    #[test]
    fn shadowing() {
        let text = "predicate p[f](v) := exists v. f(v, v);\n\
                    invariant i[f] := forall u. exists w, u. true;\n\
                    invariant j[f] := (forall u. true) && (forall u. true);\n";
        assert_eq!(
            errors(text),
            [
                e("1:29", "v", "variable `v` shadows an outer variable"),
                e("2:39", "u", "variable `u` shadows an outer variable"),
            ]
        );
    }

    #[test]
    fn closure_only_of_binary_relations() {
        let text = "predicate c[f](v) := f+(v, v);\n\
                    predicate d[f]<x>(v, w) := c[f]+(v, w) || x*(v) || sm+(v);\n";
        assert_eq!(
            errors(text),
            [
                e(
                    "2:28",
                    "c[f]+(v, w)",
                    "transitive closure of `c`, which is not a binary relation"
                ),
                e(
                    "2:43",
                    "x*(v)",
                    "`x` is a unary predicate: it takes one node and no closure"
                ),
                e(
                    "2:52",
                    "sm+(v)",
                    "`sm` is a unary predicate: it takes one node and no closure"
                ),
            ]
        );
        let d = only("predicate c[f](v) := true;\npredicate d[f](v, w) := c[f]*(v, w);");
        assert_eq!(d.secondary[0].1, "`c` has 1 node parameter(s)");
    }

    #[test]
    fn closure_of_a_binary_predicate_with_the_wrong_node_count_is_a_node_count_error() {
        let text = "predicate t[f](v, w) := f(v, w);\npredicate p[f](v) := t[f]+(v);\n";
        assert_eq!(
            errors(text),
            [e(
                "2:22",
                "t[f]+(v)",
                "wrong number of nodes for predicate `t` (expected 2, found 1)"
            )]
        );
    }

    #[test]
    fn tracked_pointer_only_where_declared() {
        let text = format!(
            "{REACH}predicate p[f](v) := x(v);\n\
             predicate q[f](v) := reach[f](v);\n\
             invariant i[f] := forall v. reach[f](v);\n\
             predicate r[f]<y>(v) := reach[f](v) && y(v);\n"
        );
        let msg =
            "predicate `reach` is indexed by a tracked pointer, but this declaration has none";
        assert_eq!(
            errors(&text),
            [
                e("2:22", "x", "unknown name `x`"),
                e("3:22", "reach[f](v)", msg),
                e("4:29", "reach[f](v)", msg),
            ]
        );
    }

    #[test]
    fn node_counts() {
        let text = "predicate c[f](v) := true;\n\
                    predicate p[f]<x>(v, w) := f(v) || c[f](v, w) || sm(v, w) || x(v, w);\n";
        assert_eq!(
            errors(text),
            [
                e(
                    "2:28",
                    "f(v)",
                    "wrong number of nodes for field `f` (expected 2, found 1)"
                ),
                e(
                    "2:36",
                    "c[f](v, w)",
                    "wrong number of nodes for predicate `c` (expected 1, found 2)"
                ),
                e(
                    "2:50",
                    "sm(v, w)",
                    "`sm` is a unary predicate: it takes one node and no closure"
                ),
                e(
                    "2:62",
                    "x(v, w)",
                    "`x` is a unary predicate: it takes one node and no closure"
                ),
            ]
        );
    }

    #[test]
    fn names_and_roles_in_formulas() {
        let text = "predicate t[f](v, w) := true;\n\
                    predicate p[f](v) := g(v, v) || t[g](v, v) || t(v, v);\n";
        assert_eq!(
            errors(text),
            [
                e("2:22", "g", "unknown name `g`"),
                e("2:35", "g", "unknown role `g`"),
                e(
                    "2:47",
                    "t(v, v)",
                    "wrong arity for predicate `t` (expected 1 field role, found 0)"
                ),
            ]
        );
        let d = only("predicate t[f](v) := g(v, v);");
        assert_eq!(d.notes, ["known: `f`, `sm`, `t`"]);
    }

    // ------------------------------------------------------------ 4. stratification

    #[test]
    fn later_predicates_and_recursion() {
        let text = "predicate a[f](v) := b[f](v);\n\
                    predicate b[f](v) := b[f](v) || a[f](v);\n";
        assert_eq!(
            errors(text),
            [
                e(
                    "1:22",
                    "b",
                    "predicate `a` uses a predicate declared after it: `b`"
                ),
                e("2:22", "b", "predicate `b` uses itself: `b`"),
            ]
        );
        let d = only("predicate a[f](v) := a[f](v);");
        assert_eq!(
            d.secondary,
            [(Span { start: 10, end: 11 }, "declared here".into())]
        );
        assert_eq!(d.notes.len(), 1);
    }

    #[test]
    fn a_role_named_like_a_later_predicate_is_a_field() {
        // `f(v, v)` is the field bound to role `f`, not the predicate `f` declared later.
        let text = "predicate c[f](v) := f(v, v) && sm(v);\npredicate f[g](v) := true;\n\
                    predicate sm[g](v) := true;\npredicate d[f](v) := f[f](v);\n";
        assert_eq!(errors(text), []);
        // With roles it is the predicate.
        let text = "predicate c[f](v) := f[f](v);\npredicate f[g](v) := true;\n";
        assert_eq!(
            errors(text),
            [e(
                "1:22",
                "f",
                "predicate `c` uses a predicate declared after it: `f`"
            )]
        );
    }

    #[test]
    fn invariants_may_use_every_predicate() {
        let text = "invariant i[f] := forall v. p[f](v);\npredicate p[f](v) := true;\n";
        assert_eq!(errors(text), []);
    }

    // ------------------------------------------------------------ 5. the lattice

    #[test]
    fn cyclic_refinement() {
        let text = "structure a[f] refines b[f] { }\nstructure b[f] refines a[f] { }\n\
                    structure c[f] refines c[f] { }\nstructure d[f] refines a[f] { }\n";
        assert_eq!(
            errors(text),
            [
                e(
                    "1:11",
                    "a",
                    "cyclic refinement: `a` refines `b` refines `a`"
                ),
                e(
                    "2:11",
                    "b",
                    "cyclic refinement: `b` refines `a` refines `b`"
                ),
                e("3:11", "c", "cyclic refinement: `c` refines `c`"),
            ]
        );
    }

    #[test]
    fn long_refinement_chains_and_diamonds_check_fast() {
        // A chain of 20000 structures (each search of the graph used to walk the rest of the
        // chain, recursively), then 40 levels of diamonds (2^40 paths).
        let n = 20_000;
        let chain: String = (0..n)
            .map(|i| format!("structure s{i}[f] refines s{}[f] {{ }}\n", i + 1))
            .collect();
        let text = format!("{chain}structure s{n}[f] {{ }}\n");
        let start = std::time::Instant::now();
        assert_eq!(errors(&text), []);
        let diamonds: String = (0..40)
            .map(|i| {
                let up = format!("refines a{0}[f], b{0}[f]", i + 1);
                format!("structure a{i}[f] {up} {{ }}\nstructure b{i}[f] {up} {{ }}\n")
            })
            .collect();
        let text =
            format!("{diamonds}structure a40[f] {{ }}\nstructure b40[f] refines a0[f] {{ }}\n");
        assert_eq!(
            errors(&text).len(),
            80,
            "all but `b0` and `a40` are on a cycle"
        );
        assert!(start.elapsed().as_secs() < 10, "{:?}", start.elapsed());
    }

    #[test]
    fn requires_cycle() {
        let text = "predicate p[f](v) := true;\nstructure s[f] {\n\
                    family a = p[f] requires b;\nfamily b = p[f] requires a;\n\
                    family c = p[f] requires c;\nfamily d = p[f] requires a;\n}\n";
        assert_eq!(
            errors(text),
            [
                e("3:8", "a", "family `a` requires itself through `requires`"),
                e("4:8", "b", "family `b` requires itself through `requires`"),
                e("5:8", "c", "family `c` requires itself through `requires`"),
            ]
        );
    }

    #[test]
    fn refinement_must_keep_the_coarser_predicates() {
        let text = format!(
            "{REACH}predicate c[f](v) := true;\n\
             structure s[f] {{ family r = reach[f]; family k = c[f]; }}\n\
             structure t[f, b] refines s[b] {{ family r = reach[f], reach[b]; }}\n"
        );
        assert_eq!(
            errors(&text),
            [e(
                "4:27",
                "s[b]",
                "`t` does not refine `s`: its finest generator lacks `c[b]`"
            )]
        );
    }

    #[test]
    fn too_many_families() {
        let n = crate::lattice::MAX_FAMILIES + 1;
        let fams: Vec<String> = (0..n).map(|i| format!("family f{i} = p[f];")).collect();
        let text = format!(
            "predicate p[f](v) := true;\nstructure s[f] {{ {} }}",
            fams.join(" ")
        );
        assert_eq!(
            errors(&text),
            [e("2:11", "s", "structure `s` has 17 families (at most 16)")]
        );
        let fams = &fams[..n - 1];
        let text = format!(
            "predicate p[f](v) := true;\nstructure s[f] {{ {} }}",
            fams.join(" ")
        );
        assert_eq!(errors(&text), []);
    }

    // ------------------------------------------------------------ order and output

    #[test]
    fn a_failing_check_stops_the_later_ones() {
        // A names error hides the free variable (formulas) and the later predicate
        // (stratification).
        let text = "predicate p[f](v) := q[f](w);\npredicate q[f](v) := true;\n\
                    structure s[f] { family a = nosuch[f]; }\n";
        assert_eq!(
            errors(text),
            [e("3:29", "nosuch", "unknown predicate `nosuch`")]
        );
        let text = "predicate p[f](v) := q[f](w);\npredicate q[f](v) := true;\n";
        assert_eq!(errors(text), [e("1:27", "w", "free variable `w`")]);
        let text = "predicate p[f](v) := q[f](v);\npredicate q[f](v) := true;\n";
        assert_eq!(
            errors(text)[0].2,
            "predicate `p` uses a predicate declared after it: `q`"
        );
    }

    #[test]
    fn a_checked_spec_is_resolved() {
        let text = format!(
            "{REACH}predicate two[f, b]<y>(v, w) := forall u, z. f(v, u) && b(z, w) -> reach[b](u);\n\
             invariant i[g] := exists v. !g*(v, v);\n\
             structure s[n, p] refines t[n] {{\n\
             invariant i[p];\n\
             family a = reach[n];\n\
             family b = two[p, n] requires a;\n\
             abstract b;\n}}\n\
             structure t[f] {{ family a = reach[f]; }}\n"
        );
        let ast = crate::parser::parse(&text).expect("parses");
        let spec = check(&ast).expect("checks");
        let two = &spec.predicates[1];
        assert_eq!((two.arity, two.slots), (2, 4));
        assert_eq!(two.var_names, ["v", "w", "u", "z"]);
        assert_eq!(two.pointer.as_deref(), Some("y"));
        let ir::Formula::Forall(2, body) = &two.body else {
            panic!("{:?}", two.body)
        };
        let ir::Formula::Forall(3, body) = &**body else {
            panic!("{body:?}")
        };
        assert_eq!(
            **body,
            Formula::Implies(
                Box::new(Formula::And(
                    Box::new(Formula::Field(0, 0, 2)),
                    Box::new(Formula::Field(1, 3, 1))
                )),
                Box::new(Formula::Pred(PredId(0), vec![1], vec![2]))
            )
        );
        assert_eq!(
            spec.invariants[0].body,
            Formula::Exists(
                0,
                Box::new(Formula::Not(Box::new(Formula::Closure {
                    rel: Rel::Field(0),
                    reflexive: true,
                    from: 0,
                    to: 0
                })))
            )
        );
        let s = &spec.structures[0];
        assert_eq!(
            s.refines,
            [ir::Refinement {
                coarser: StructId(1),
                roles: vec![0]
            }]
        );
        assert_eq!(
            s.invariants,
            [ir::InvUse {
                inv: InvId(0),
                roles: vec![1]
            }]
        );
        assert_eq!(
            s.families[1].preds,
            [ir::PredUse {
                pred: PredId(1),
                roles: vec![1, 0]
            }]
        );
        assert_eq!(s.families[1].requires, [0]);
        assert!(s.families[1].abstraction && !s.families[0].abstraction);
    }
}
