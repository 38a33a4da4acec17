//! The top-level `family` declaration kind: the predicate families of seed 003's PDR
//! (the paper's Tables 1 and 3: `ls`, `stable`, `rev`, `sorted` are entries of the standard
//! library, not engine code), which contracts may also name. This module consumes the
//! `pred_family_decl` parse tree of `grammar.pest` and produces its AST
//! ([`PredFamilyDecl`]); consumes the AST of a spec's families and produces their Spec IR
//! ([`crate::ir::PredFamily`]) or located diagnostics (check 7 of [`crate::check`], before
//! the contracts that name them); and prints both back in source syntax.
//!
//! The checks, each with its span: family names distinct and not the engine's atoms
//! (`eq`, `edge`, `reach`, `alloc`, `dle`, `rooted`); one or more field roles and node
//! parameters, all distinct; a level from 1 to [`MAX_LEVEL`]; a body that names only
//! `null`, the parameters and bound variables, follows only the roles, and names only
//! families declared before (the lowering of [`crate::contract`]); and a body that is
//! universal: in negation normal form no `exists`, and no one-step path or family instance
//! (universal formulas) negated (the digest's "defining AF^R formula, universal only"), so
//! that an instance and its negation both stay alternation-free, and a
//! contract may count an instance as a universal formula.

use crate::ast::{Formula, FormulaKind, Ident, PredFamilyDecl, Quantifier, Span};
use crate::contract::{Kind, Lowering, Place, builtin_atom};
use crate::diag::Diagnostic;
use crate::ir::PredFamily;
use crate::parser::{Rule, ident, span};
use pest::iterators::Pair;
use std::collections::BTreeMap;

/// The highest configuration level a family may ask for.
pub const MAX_LEVEL: u32 = 8;

/// Names the engine gives its own predicates (the logic's atoms and the memtrack family).
const RESERVED: [&str; 8] = [
    "eq", "edge", "reach", "alloc", "dle", "rooted", "null", "result",
];

// ---------------------------------------------------------------- parse tree to AST

/// A `pred_family_decl` pair to its AST.
pub(crate) fn parse(p: Pair<Rule>) -> Result<PredFamilyDecl, Diagnostic> {
    let sp = span(&p);
    let mut d = PredFamilyDecl {
        name: Ident {
            name: String::new(),
            span: sp,
        },
        roles: vec![],
        params: vec![],
        level: None,
        body: Formula {
            kind: FormulaKind::True,
            span: sp,
        },
        span: sp,
    };
    for x in p.into_inner() {
        match x.as_rule() {
            Rule::ident => d.name = ident(x),
            Rule::roles => d.roles = x.into_inner().map(ident).collect(),
            Rule::family_params => d.params = x.into_inner().map(param).collect(),
            Rule::family_level => {
                let n = x.into_inner().find(|y| y.as_rule() == Rule::number);
                d.level = n.map(|n| crate::ast::Number {
                    digits: n.as_str().to_string(),
                    span: span(&n),
                });
            }
            Rule::formula => d.body = crate::parser::formula(x)?,
            _ => {}
        }
    }
    Ok(d)
}

fn param(p: Pair<Rule>) -> (Ident, bool) {
    let mut name = None;
    let mut nullable = false;
    for x in p.into_inner() {
        match x.as_rule() {
            Rule::ident => name = Some(ident(x)),
            Rule::nullable => nullable = true,
            _ => {}
        }
    }
    let name = name.unwrap_or(Ident {
        name: String::new(),
        span: Span { start: 0, end: 0 },
    });
    (name, nullable)
}

// ---------------------------------------------------------------- checks and lowering

/// Checks the families in source order and lowers them, or returns every error found.
pub(crate) fn check(decls: &[&PredFamilyDecl]) -> Result<Vec<PredFamily>, Vec<Diagnostic>> {
    let mut errs = vec![];
    let mut out: Vec<PredFamily> = vec![];
    let mut seen: BTreeMap<&str, Span> = BTreeMap::new();
    for d in decls {
        let n = d.name.name.as_str();
        if RESERVED.contains(&n) {
            errs.push(
                Diagnostic::error(
                    format!("`{n}` is reserved and cannot name a family"),
                    d.name.span,
                )
                .with_note(format!("reserved: {}", RESERVED.join(", "))),
            );
            continue;
        }
        if let Some(first) = seen.get(n) {
            errs.push(
                Diagnostic::error(format!("a second family `{n}`"), d.name.span)
                    .with_secondary(*first, "the first"),
            );
            continue;
        }
        seen.insert(n, d.name.span);
        if let Some(f) = family(d, &out, &mut errs) {
            out.push(f);
        }
    }
    if errs.is_empty() { Ok(out) } else { Err(errs) }
}

fn family(
    d: &PredFamilyDecl,
    earlier: &[PredFamily],
    errs: &mut Vec<Diagnostic>,
) -> Option<PredFamily> {
    let before = errs.len();
    if d.roles.is_empty() {
        errs.push(Diagnostic::error(
            format!(
                "the family `{}` needs one or more field roles, as in `[f]`",
                d.name.name
            ),
            d.name.span,
        ));
    }
    let mut names: BTreeMap<&str, Span> = BTreeMap::new();
    let params = d.params.iter().map(|(p, _)| p);
    for n in d.roles.iter().chain(params) {
        if matches!(n.name.as_str(), "null" | "result") {
            errs.push(Diagnostic::error(
                format!("`{}` is reserved in families", n.name),
                n.span,
            ));
        } else if let Some(first) = names.get(n.name.as_str()) {
            errs.push(
                Diagnostic::error(format!("`{}` is declared twice", n.name), n.span)
                    .with_secondary(*first, "first declared here"),
            );
        } else {
            names.insert(&n.name, n.span);
        }
    }
    let level = level(d, errs);
    let scope: BTreeMap<&str, (Kind, Span)> = (d.params.iter())
        .map(|(p, _)| (p.name.as_str(), (Kind::Param, p.span)))
        .collect();
    let mut olds = vec![];
    let mut cx = Lowering {
        scope: &scope,
        bound: vec![],
        place: Place::Family(&d.roles),
        families: earlier,
        olds: &mut olds,
        errs: &mut *errs,
    };
    let body = cx.formula(&d.body);
    universal(&d.body, true, errs);
    let body = body?;
    (errs.len() == before).then(|| PredFamily {
        name: d.name.name.clone(),
        fields: d.roles.iter().map(|r| r.name.clone()).collect(),
        params: (d.params.iter())
            .map(|(p, q)| (p.name.clone(), *q))
            .collect(),
        level,
        orders_data: body.orders_data(earlier),
        body,
    })
}

/// The level of a family (1 when not given), reporting one out of range.
fn level(d: &PredFamilyDecl, errs: &mut Vec<Diagnostic>) -> u32 {
    let Some(n) = &d.level else { return 1 };
    match n.digits.parse::<u32>() {
        Ok(k) if (1..=MAX_LEVEL).contains(&k) => k,
        _ => {
            errs.push(Diagnostic::error(
                format!("a family's level is 1 to {MAX_LEVEL}, not {}", n.digits),
                n.span,
            ));
            1
        }
    }
}

/// Reports every quantifier of `f` that is existential in negation normal form
/// (`positive`: the polarity it occurs with).
fn universal(f: &Formula, positive: bool, errs: &mut Vec<Diagnostic>) {
    match &f.kind {
        FormulaKind::Not(a) => universal(a, !positive, errs),
        FormulaKind::And(a, b) | FormulaKind::Or(a, b) => {
            universal(a, positive, errs);
            universal(b, positive, errs);
        }
        FormulaKind::Implies(a, b) => {
            universal(a, !positive, errs);
            universal(b, positive, errs);
        }
        FormulaKind::Iff(a, b) => {
            // Each side occurs with both polarities.
            for side in [a, b] {
                universal(side, true, errs);
                universal(side, false, errs);
            }
        }
        FormulaKind::Quant { q, body, .. } => {
            if (*q == Quantifier::Forall) != positive {
                errs.push(
                    Diagnostic::error(
                        "this quantifier is existential in negation normal form: a family's \
                         body must be universal",
                        f.span,
                    )
                    .with_note(
                        "PDR uses a family's instances with both signs, and contracts count \
                         them as `forall` formulas: write the body with `forall` only (an \
                         `exists` under `!` or left of `->` is a `forall`)",
                    ),
                );
                return;
            }
            universal(body, positive, errs);
        }
        FormulaKind::Atom { roles, closure, .. } => {
            let universal = roles.is_some() || (closure.is_none() && !builtin_atom(f));
            if universal && !positive {
                errs.push(
                    Diagnostic::error(
                        "this atom is a universal formula under a negation: its negation is \
                         existential, and a family's body must be universal",
                        f.span,
                    )
                    .with_note(
                        "a one-step path `f(x, y)` and a family instance are `forall` \
                         formulas: use them only positively (not under `!` nor left of `->`)",
                    ),
                );
            }
        }
        FormulaKind::Old(_) | FormulaKind::True | FormulaKind::False | FormulaKind::Eq { .. } => {}
    }
}

// ---------------------------------------------------------------- printing

/// The parameters of a family in source syntax: `(x, y?)`.
fn params<'a>(ps: impl Iterator<Item = (&'a str, bool)>) -> String {
    let ps: Vec<String> = ps
        .map(|(n, q)| format!("{n}{}", if q { "?" } else { "" }))
        .collect();
    format!("({})", ps.join(", "))
}

/// A family's AST in source syntax (for `print::print`).
pub(crate) fn print(d: &PredFamilyDecl) -> String {
    let roles: Vec<&str> = d.roles.iter().map(|r| r.name.as_str()).collect();
    let level = match &d.level {
        Some(n) => format!(" level {}", n.digits),
        None => String::new(),
    };
    format!(
        "family {}[{}]{}{level} := {};\n",
        d.name.name,
        roles.join(", "),
        params(d.params.iter().map(|(p, q)| (p.name.as_str(), *q))),
        crate::print::formula(&d.body)
    )
}

/// The families of a checked spec, for `spec show`; empty without families.
pub fn show(spec: &crate::ir::Spec) -> String {
    if spec.families.is_empty() {
        return String::new();
    }
    let mut out = String::from("predicate families (universal AF^R, checked):\n");
    for f in &spec.families {
        let data = if f.orders_data { ", orders data" } else { "" };
        out.push_str(&format!(
            "  {}[{}]{} (level {}{data})\n    := {}\n",
            f.name,
            f.fields.join(", "),
            params(f.params.iter().map(|(p, q)| (p.as_str(), *q))),
            f.level,
            crate::contract::assertion(&f.body)
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    //! The checks of families, each asserting the message and the spanned text of every
    //! diagnostic; the lowering; the printers.
    use crate::testing::{e, errors};

    const LS: &str = "family ls[f](x, y?) := forall a, b. f*(x, a) && f*(a, y) && a != y && \
                      f*(b, a) -> f*(b, x) || f*(x, b);\n";

    #[test]
    fn a_family_lowers_with_roles_parameters_and_level() {
        let text = format!(
            "{LS}family sorted[f](x, y?) level 2 := forall a, b. f*(x, a) && f*(a, b) && \
             f*(b, y) -> dle(a, b);\nfamily both[f](x) := ls[f](x, null) && sorted[f](x, null);\n"
        );
        let spec = crate::load(&text).expect("checks");
        let ls = spec.family("ls").expect("ls");
        assert_eq!(ls.fields, ["f"]);
        assert_eq!(ls.params, [("x".into(), false), ("y".into(), true)]);
        assert_eq!((ls.level, ls.orders_data), (1, false));
        let sorted = spec.family("sorted").expect("sorted");
        assert_eq!((sorted.level, sorted.orders_data), (2, true));
        // Through the instance it names.
        assert!(spec.family("both").expect("both").orders_data);
        let shown = super::show(&spec);
        assert!(
            shown.contains("sorted[f](x, y?) (level 2, orders data)"),
            "{shown}"
        );
    }

    #[test]
    fn printing_round_trips() {
        let text = format!("{LS}family st[f](x) level 3 := forall a. f*(x, a) -> alloc(a);\n");
        let ast = crate::parser::parse(&text).expect("parses");
        let printed = crate::print::print(&ast);
        assert!(printed.contains("family st[f](x) level 3 := "), "{printed}");
        let again = crate::load(&printed).expect("printed text checks");
        assert_eq!(again, crate::load(&text).expect("checks"));
    }

    #[test]
    fn the_body_must_be_universal() {
        let errs = errors("family p[f](x) := exists a. f(x, a);");
        assert_eq!(
            errs,
            [e(
                "1:19",
                "exists a. f(x, a)",
                "this quantifier is existential in negation normal form: a family's body \
                 must be universal"
            )]
        );
        // Left of `->` an exists is a forall; under `!` a forall is an exists.
        assert!(errors("family p[f](x) := (exists a. f*(x, a)) -> x == null;").is_empty());
        // A one-step path is universal: negated it is not.
        let errs = errors("family p[f](x) := forall a. f(x, a) -> a == null;");
        assert_eq!(errs[0].1, "f(x, a)");
        assert!(errs[0].2.contains("under a negation"), "{errs:?}");
        assert!(errors("family p[f](x) := forall a. a == null || f(x, a);").is_empty());
        let errs = errors("family p[f](x) := !(forall a. f*(x, a));");
        assert_eq!(errs[0].1, "forall a. f*(x, a)");
        // Both sides of `<->` occur with both signs.
        let errs = errors("family p[f](x) := (forall a. f*(x, a)) <-> x == null;");
        assert_eq!(errs[0].1, "forall a. f*(x, a)");
    }

    #[test]
    fn names_fields_and_families_are_checked_where_they_stand() {
        let errs = errors("family p[f](x) := f*(x, y);");
        assert_eq!(errs[0].1, "y");
        assert!(
            errs[0].2.contains("unknown name `y` in a family"),
            "{errs:?}"
        );
        let errs = errors("family p[f](x) := g*(x, null);");
        assert_eq!(errs[0].1, "g");
        assert!(
            errs[0].2.contains("not a field role of this family"),
            "{errs:?}"
        );
        let errs = errors("family p[f](x) := f*(x, result);");
        assert!(
            errs[0].2.contains("`result` has no meaning in a family"),
            "{errs:?}"
        );
        // A family names only the families declared before it, with its own roles.
        let errs = errors("family p[f](x) := q[f](x);\nfamily q[f](x) := f*(x, null);");
        assert_eq!(errs[0].1, "q");
        assert!(errs[0].2.contains("unknown family `q`"), "{errs:?}");
        let errs = errors(&format!("{LS}family p[f](x) := ls[g](x, null);"));
        assert_eq!(errs[0].1, "g");
        let errs = errors("family p[f](x) := old(x == null);");
        assert!(errs[0].2.contains("not in a family"), "{errs:?}");
    }

    #[test]
    fn declarations_are_checked() {
        let errs = errors("family p[](x) := true;");
        assert!(
            errs[0].2.contains("needs one or more field roles"),
            "{errs:?}"
        );
        let errs = errors("family p[f, f](x) := true;");
        assert_eq!(errs[0].1, "f");
        assert!(errs[0].2.contains("declared twice"));
        let errs = errors("family p[f](f) := true;");
        assert!(errs[0].2.contains("declared twice"));
        let errs = errors("family p[f](x) level 0 := true;");
        assert_eq!(errs[0].1, "0");
        assert!(errs[0].2.contains("level is 1 to 8"));
        let errs = errors("family reach[f](x) := true;");
        assert!(errs[0].2.contains("reserved"));
        let errs = errors("family p[f](x) := true;\nfamily p[f](y) := true;");
        assert_eq!(errs[0].0, "2:8");
        assert!(errs[0].2.contains("a second family `p`"));
    }

    #[test]
    fn contracts_name_the_declared_families_with_their_arities() {
        let errs = errors(&format!("{LS}contract f(h) {{ requires ls[n, p](h); }}"));
        let msgs: Vec<&str> = errs.iter().map(|x| x.2.as_str()).collect();
        assert_eq!(msgs.len(), 2, "{errs:?}");
        assert!(msgs[0].contains("takes 1 field"));
        assert!(msgs[1].contains("takes 2 argument"));
        // Without a declaration there is no family to name.
        let errs = errors("contract f(h) { requires ls[n](h, null); }");
        assert_eq!(errs[0].1, "ls");
        assert!(errs[0].2.contains("unknown family `ls`"));
        assert!(errors(&format!("{LS}contract f(h) {{ requires ls[n](h, null); }}")).is_empty());
    }
}
