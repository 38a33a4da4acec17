//! The `template` declaration kind: the templates of seed 002's template-based invariant
//! synthesis, declared in the spec instead of hard-wired in the engine. This module consumes
//! the `template_decl` parse tree of `grammar.pest` and produces its AST
//! ([`ast::TemplateDecl`]); consumes the AST of a spec's templates and produces their Spec IR
//! ([`crate::ir::Template`]) or located diagnostics (check 6 of [`crate::check`]); and prints
//! both back in source syntax (the AST for `print::print`, the IR for `spec show`).
//!
//! The checks, each with its span: `objects` and `paths` at most once per template (at the
//! second keyword); `objects` is `auto` or a number in `1..=`[`Template::MAX_OBJECTS`]; a known
//! path mode (`none`, `loops`, `branches`), row kind (`pointsto`, `interval`, `zone`,
//! `octagon`, `linear`) and scope (`vars`, `fields`); an expression exactly on `linear` rows,
//! with at least one term, each coefficient non-zero and within
//! ±[`Template::MAX_COEFFICIENT`], each name once; each scope once per row; no two rows of a
//! template with the same kind ([`RowKind::same`]) and a common scope; at least one row per
//! template. Duplicate template names are reported with the other duplicates (check 1).

use crate::ast::{self, BoundDecl, Ident, Number, RowDecl, Span, TemplateDecl, TermDecl};
use crate::diag::Diagnostic;
use crate::ir::{Materialise, PathSensitivity, Row, RowKind, Scope, Template};
use crate::parser::{Rule, ident, span};
use pest::iterators::Pair;
use std::collections::BTreeMap;

/// The row kinds, by name.
const KINDS: [&str; 5] = ["pointsto", "interval", "zone", "octagon", "linear"];
/// The scopes, by name.
const SCOPES: [(&str, Scope); 2] = [("vars", Scope::Vars), ("fields", Scope::Fields)];
/// The path modes, by name.
const PATHS: [(&str, PathSensitivity); 3] = [
    ("none", PathSensitivity::None),
    ("loops", PathSensitivity::Loops),
    ("branches", PathSensitivity::Branches),
];

// ---------------------------------------------------------------- parse tree to AST

/// A `template_decl` pair to its AST.
pub(crate) fn parse(p: Pair<Rule>) -> TemplateDecl {
    let sp = span(&p);
    let mut t = TemplateDecl {
        name: Ident {
            name: String::new(),
            span: sp,
        },
        objects: vec![],
        paths: vec![],
        rows: vec![],
        span: sp,
    };
    for x in p.into_inner() {
        match x.as_rule() {
            Rule::ident => t.name = ident(x),
            Rule::objects_decl => t.objects.push(objects(x)),
            Rule::paths_decl => t.paths.push(paths(x)),
            Rule::row_decl => t.rows.push(row(x)),
            _ => {}
        }
    }
    t
}

fn number(p: Pair<Rule>) -> Number {
    Number {
        digits: p.as_str().to_string(),
        span: span(&p),
    }
}

fn objects(p: Pair<Rule>) -> ast::ObjectsDecl {
    let sp = span(&p);
    let (mut keyword, mut bound) = (sp, None);
    for x in p.into_inner() {
        match x.as_rule() {
            Rule::kw_objects => keyword = span(&x),
            Rule::number => bound = Some(BoundDecl::Number(number(x))),
            Rule::ident => bound = Some(BoundDecl::Name(ident(x))),
            _ => {}
        }
    }
    ast::ObjectsDecl {
        keyword,
        bound: bound.unwrap_or(BoundDecl::Name(Ident {
            name: String::new(),
            span: sp,
        })),
        span: sp,
    }
}

fn paths(p: Pair<Rule>) -> ast::PathsDecl {
    let sp = span(&p);
    let (mut keyword, mut mode) = (sp, None);
    for x in p.into_inner() {
        match x.as_rule() {
            Rule::kw_paths => keyword = span(&x),
            Rule::ident => mode = Some(ident(x)),
            _ => {}
        }
    }
    ast::PathsDecl {
        keyword,
        mode: mode.unwrap_or(Ident {
            name: String::new(),
            span: sp,
        }),
        span: sp,
    }
}

fn row(p: Pair<Rule>) -> RowDecl {
    let sp = span(&p);
    let (mut kind, mut expr, mut over) = (None, None, vec![]);
    for x in p.into_inner() {
        match x.as_rule() {
            Rule::ident if kind.is_none() => kind = Some(ident(x)),
            Rule::ident => over.push(ident(x)),
            Rule::lin_expr => expr = Some(lin_expr(x)),
            _ => {}
        }
    }
    RowDecl {
        kind: kind.unwrap_or(Ident {
            name: String::new(),
            span: sp,
        }),
        expr,
        over,
        span: sp,
    }
}

fn lin_expr(p: Pair<Rule>) -> ast::LinExprDecl {
    let sp = span(&p);
    let terms = p
        .into_inner()
        .filter(|x| x.as_rule() == Rule::lin_term)
        .map(term)
        .collect();
    ast::LinExprDecl { terms, span: sp }
}

fn term(p: Pair<Rule>) -> TermDecl {
    let sp = span(&p);
    let (mut negative, mut coef, mut name) = (false, None, None);
    for x in p.into_inner() {
        match x.as_rule() {
            Rule::lin_sign => negative = x.as_str() == "-",
            Rule::number => coef = Some(number(x)),
            Rule::ident => name = Some(ident(x)),
            _ => {}
        }
    }
    TermDecl {
        negative,
        coef,
        name: name.unwrap_or(Ident {
            name: String::new(),
            span: sp,
        }),
        span: sp,
    }
}

// ---------------------------------------------------------------- checks and lowering

/// Checks the templates of a spec (in source order) and lowers them to the IR; on errors,
/// every error found, in source order.
pub(crate) fn check(templates: &[&TemplateDecl]) -> Result<Vec<Template>, Vec<Diagnostic>> {
    let mut out = vec![];
    let mut errs = vec![];
    for t in templates {
        let mut mine = vec![];
        let objects = objects_bound(t, &mut mine);
        let paths = path_mode(t, &mut mine);
        let rows = rows(t, &mut mine);
        mine.sort_by_key(|d| d.primary.start);
        errs.extend(mine);
        out.push(Template {
            name: t.name.name.clone(),
            objects,
            paths,
            rows,
        });
    }
    if errs.is_empty() { Ok(out) } else { Err(errs) }
}

/// A member given twice: at the second keyword, the first noted.
fn given_twice(what: &str, t: &TemplateDecl, first: Span, again: Span) -> Diagnostic {
    Diagnostic::error(
        format!("`{what}` given twice in template `{}`", t.name.name),
        again,
    )
    .with_secondary(first, "first given here")
}

fn objects_bound(t: &TemplateDecl, errs: &mut Vec<Diagnostic>) -> Materialise {
    for o in t.objects.iter().skip(1) {
        errs.push(given_twice("objects", t, t.objects[0].keyword, o.keyword));
    }
    let Some(o) = t.objects.first() else {
        return Template::DEFAULT_OBJECTS;
    };
    let range = format!(
        "`objects` is `auto` or a number from 1 to {}",
        Template::MAX_OBJECTS
    );
    match &o.bound {
        BoundDecl::Name(n) if n.name == "auto" => Materialise::Auto,
        BoundDecl::Name(n) => {
            errs.push(
                Diagnostic::error(
                    format!("unknown materialisation bound `{}`", n.name),
                    n.span,
                )
                .with_note(range),
            );
            Template::DEFAULT_OBJECTS
        }
        BoundDecl::Number(n) => match value(&n.digits) {
            Some(v) if (1..=u64::from(Template::MAX_OBJECTS)).contains(&v) => {
                Materialise::Fixed(v as u32)
            }
            _ => {
                errs.push(
                    Diagnostic::error(
                        format!("materialisation bound `{}` out of range", n.digits),
                        n.span,
                    )
                    .with_note(range),
                );
                Template::DEFAULT_OBJECTS
            }
        },
    }
}

/// The value of decimal digits, `None` past `u64` (which is out of every range here).
fn value(digits: &str) -> Option<u64> {
    digits.parse().ok()
}

fn path_mode(t: &TemplateDecl, errs: &mut Vec<Diagnostic>) -> PathSensitivity {
    for p in t.paths.iter().skip(1) {
        errs.push(given_twice("paths", t, t.paths[0].keyword, p.keyword));
    }
    let Some(p) = t.paths.first() else {
        return Template::DEFAULT_PATHS;
    };
    match PATHS.iter().find(|(n, _)| *n == p.mode.name) {
        Some((_, m)) => *m,
        None => {
            errs.push(unknown("path mode", &p.mode, PATHS.iter().map(|(n, _)| *n)));
            Template::DEFAULT_PATHS
        }
    }
}

fn unknown<'a>(what: &str, name: &Ident, known: impl Iterator<Item = &'a str>) -> Diagnostic {
    let known: Vec<String> = known.map(|k| format!("`{k}`")).collect();
    Diagnostic::error(format!("unknown {what} `{}`", name.name), name.span)
        .with_note(format!("known: {}", known.join(", ")))
}

fn rows(t: &TemplateDecl, errs: &mut Vec<Diagnostic>) -> Vec<Row> {
    if t.rows.is_empty() {
        errs.push(
            Diagnostic::error(
                format!("template `{}` has no rows", t.name.name),
                t.name.span,
            )
            .with_note("a template needs at least one row, e.g. `row interval over vars;`"),
        );
    }
    // The rows checked so far, each with its declaration.
    let mut done: Vec<(Row, &RowDecl)> = vec![];
    for r in &t.rows {
        let before = errs.len();
        let kind = row_kind(r, errs);
        let over = scopes(r, errs);
        let (Some(kind), true) = (kind, errs.len() == before) else {
            continue;
        };
        let row = Row { kind, over };
        for s in &r.over {
            let earlier = done
                .iter()
                .find(|(d, _)| d.kind.same(&row.kind) && d.over.iter().any(|x| x.name() == s.name));
            if let Some((_, decl)) = earlier {
                errs.push(
                    Diagnostic::error(
                        format!(
                            "row `{}` over `{}` is already in template `{}`",
                            kind_text(&row.kind),
                            s.name,
                            t.name.name
                        ),
                        s.span,
                    )
                    .with_secondary(decl.span, "the earlier row"),
                );
            }
        }
        done.push((row, r));
    }
    done.into_iter().map(|(r, _)| r).collect()
}

/// The kind with its expression, for messages: `interval`, `linear(hi - lo)`.
fn kind_text(k: &RowKind) -> String {
    match k {
        RowKind::Linear(terms) => format!("linear({})", linear_ir(terms)),
        k => k.name().to_string(),
    }
}

fn row_kind(r: &RowDecl, errs: &mut Vec<Diagnostic>) -> Option<RowKind> {
    let kind = match r.kind.name.as_str() {
        "pointsto" => RowKind::PointsTo,
        "interval" => RowKind::Interval,
        "zone" => RowKind::Zone,
        "octagon" => RowKind::Octagon,
        "linear" => {
            let Some(e) = &r.expr else {
                errs.push(
                    Diagnostic::error("row kind `linear` needs a linear expression", r.kind.span)
                        .with_note("write the expression in parentheses, e.g. `linear(hi - lo)`"),
                );
                return None;
            };
            return linear(e, errs).map(RowKind::Linear);
        }
        _ => {
            errs.push(unknown("row kind", &r.kind, KINDS.iter().copied()));
            return None;
        }
    };
    if let Some(e) = &r.expr {
        errs.push(
            Diagnostic::error(
                format!("row kind `{}` takes no expression", r.kind.name),
                e.span,
            )
            .with_note("only `linear` rows have an expression"),
        );
        return None;
    }
    Some(kind)
}

fn linear(e: &ast::LinExprDecl, errs: &mut Vec<Diagnostic>) -> Option<Vec<(i64, String)>> {
    if e.terms.is_empty() {
        errs.push(
            Diagnostic::error("`linear` row with no terms", e.span)
                .with_note("a term is a name with an optional coefficient, e.g. `2*hi - lo`"),
        );
        return None;
    }
    let before = errs.len();
    let mut seen: BTreeMap<&str, Span> = BTreeMap::new();
    let mut terms = vec![];
    for t in &e.terms {
        let c = coefficient(t, errs);
        match seen.get(t.name.name.as_str()) {
            Some(first) => errs.push(
                Diagnostic::error(
                    format!("`{}` appears twice in the linear expression", t.name.name),
                    t.name.span,
                )
                .with_secondary(*first, "first here")
                .with_note("combine its terms into one"),
            ),
            None => {
                seen.insert(&t.name.name, t.name.span);
            }
        }
        terms.push((c, t.name.name.clone()));
    }
    (errs.len() == before).then_some(terms)
}

/// The signed coefficient of a term (1 when not written), or 0 after reporting it.
fn coefficient(t: &TermDecl, errs: &mut Vec<Diagnostic>) -> i64 {
    let sign = if t.negative { -1 } else { 1 };
    let Some(n) = &t.coef else {
        return sign;
    };
    let written = format!("{}{}", if t.negative { "-" } else { "" }, n.digits);
    match value(&n.digits) {
        Some(0) => {
            errs.push(
                Diagnostic::error(format!("zero coefficient of `{}`", t.name.name), n.span)
                    .with_note("drop the term"),
            );
            0
        }
        Some(v) if v <= Template::MAX_COEFFICIENT as u64 => sign * v as i64,
        _ => {
            errs.push(
                Diagnostic::error(
                    format!("coefficient `{written}` of `{}` out of range", t.name.name),
                    n.span,
                )
                .with_note(format!(
                    "coefficients are at most {} in absolute value",
                    Template::MAX_COEFFICIENT
                )),
            );
            0
        }
    }
}

fn scopes(r: &RowDecl, errs: &mut Vec<Diagnostic>) -> Vec<Scope> {
    let mut seen: BTreeMap<&str, Span> = BTreeMap::new();
    let mut out = vec![];
    for s in &r.over {
        match SCOPES.iter().find(|(n, _)| *n == s.name) {
            None => errs.push(unknown("scope", s, SCOPES.iter().map(|(n, _)| *n))),
            Some((_, scope)) => match seen.get(s.name.as_str()) {
                Some(first) => errs.push(
                    Diagnostic::error(format!("scope `{}` listed twice", s.name), s.span)
                        .with_secondary(*first, "first listed here"),
                ),
                None => {
                    seen.insert(&s.name, s.span);
                    out.push(*scope);
                }
            },
        }
    }
    out.sort();
    out
}

// ---------------------------------------------------------------- printing

/// A template's AST in the canonical layout: `objects`, `paths`, then the rows.
pub fn print(t: &TemplateDecl) -> String {
    let mut out = format!("template {} {{\n", t.name.name);
    for o in &t.objects {
        let bound = match &o.bound {
            BoundDecl::Number(n) => &n.digits,
            BoundDecl::Name(n) => &n.name,
        };
        out.push_str(&format!("  objects {bound};\n"));
    }
    for p in &t.paths {
        out.push_str(&format!("  paths {};\n", p.mode.name));
    }
    for r in &t.rows {
        let expr = match &r.expr {
            Some(e) => format!("({})", linear_ast(&e.terms)),
            None => String::new(),
        };
        let over: Vec<&str> = r.over.iter().map(|s| s.name.as_str()).collect();
        out.push_str(&format!(
            "  row {}{expr} over {};\n",
            r.kind.name,
            over.join(", ")
        ));
    }
    out.push_str("}\n");
    out
}

/// The terms of a linear expression as written: `2*a + b - c`.
fn linear_ast(terms: &[TermDecl]) -> String {
    let mut out = String::new();
    for (i, t) in terms.iter().enumerate() {
        out.push_str(match (i, t.negative) {
            (0, false) => "",
            (0, true) => "-",
            (_, false) => " + ",
            (_, true) => " - ",
        });
        if let Some(c) = &t.coef {
            out.push_str(&format!("{}*", c.digits));
        }
        out.push_str(&t.name.name);
    }
    out
}

/// Checked linear terms in source syntax: coefficients 1 and -1 as signs.
pub fn linear_ir(terms: &[(i64, String)]) -> String {
    let mut out = String::new();
    for (i, (c, name)) in terms.iter().enumerate() {
        out.push_str(match (i, *c < 0) {
            (0, false) => "",
            (0, true) => "-",
            (_, false) => " + ",
            (_, true) => " - ",
        });
        if c.unsigned_abs() != 1 {
            out.push_str(&format!("{}*", c.unsigned_abs()));
        }
        out.push_str(name);
    }
    out
}

/// A checked row in source syntax, without `row` and `;`: `linear(hi - lo) over fields`.
pub fn row_ir(r: &Row) -> String {
    let over: Vec<&str> = r.over.iter().map(|s| s.name()).collect();
    format!("{} over {}", kind_text(&r.kind), over.join(", "))
}

/// A checked template in source syntax (every member explicit), indented by `indent`;
/// loading the text gives the same template.
pub fn print_ir(t: &Template, indent: &str) -> String {
    let mut out = format!("{indent}template {} {{\n", t.name);
    out.push_str(&format!("{indent}  objects {};\n", t.objects.text()));
    out.push_str(&format!("{indent}  paths {};\n", t.paths.name()));
    for r in &t.rows {
        out.push_str(&format!("{indent}  row {};\n", row_ir(r)));
    }
    out.push_str(&format!("{indent}}}\n"));
    out
}

/// The templates part of `spec show`: each template in source syntax, then the configuration
/// the engine runs with (all of them merged); nothing when the spec has no template.
pub fn show(spec: &crate::ir::Spec) -> String {
    let Some(merged) = spec.template_config() else {
        return String::new();
    };
    let mut out = String::from("templates (seed 002's template engine):\n");
    for t in &spec.templates {
        out.push_str(&print_ir(t, "  "));
    }
    out.push_str(&format!(
        "  effective configuration (every template merged): objects {}; paths {}\n",
        merged.objects.text(),
        merged.paths.name()
    ));
    for r in &merged.rows {
        out.push_str(&format!("    row {}\n", row_ir(r)));
    }
    out
}

#[cfg(test)]
mod tests {
    //! The checks of templates, each asserting the message and the spanned text of every
    //! diagnostic in order; the lowering; the printers; the merge.
    use super::*;
    use crate::testing::{e, errors};

    fn one(text: &str) -> Template {
        let spec = crate::load(text).unwrap_or_else(|d| panic!("{d:#?}"));
        assert_eq!(spec.templates.len(), 1);
        spec.templates[0].clone()
    }

    #[test]
    fn the_papers_configuration_lowers_with_defaults() {
        let t = one("template heap { row pointsto over fields, vars; row interval over vars; }");
        assert_eq!(
            t,
            Template {
                name: "heap".into(),
                objects: Materialise::Auto,
                paths: PathSensitivity::Loops,
                rows: vec![
                    Row {
                        kind: RowKind::PointsTo,
                        over: vec![Scope::Vars, Scope::Fields]
                    },
                    Row {
                        kind: RowKind::Interval,
                        over: vec![Scope::Vars]
                    },
                ],
            }
        );
        let t = one(
            "template r { objects 08; paths branches; row linear(2*a + b - 65536*c) over vars; \
             row linear(-hi + lo) over fields; row octagon over vars; row zone over fields; }",
        );
        assert_eq!(t.objects, Materialise::Fixed(8));
        assert_eq!(t.paths, PathSensitivity::Branches);
        assert_eq!(
            t.rows[0].kind,
            RowKind::Linear(vec![(2, "a".into()), (1, "b".into()), (-65536, "c".into())])
        );
        assert_eq!(
            t.rows[1].kind,
            RowKind::Linear(vec![(-1, "hi".into()), (1, "lo".into())])
        );
        assert_eq!(t.rows[2].kind, RowKind::Octagon);
        assert_eq!(t.rows[3].kind, RowKind::Zone);
    }

    #[test]
    fn template_words_stay_identifiers_elsewhere() {
        let text = "predicate objects[row](over) := row(over, over);\n\
                    template paths { paths none; row linear(objects - paths) over vars; }";
        assert_eq!(errors(text), []);
    }

    #[test]
    fn objects_and_paths() {
        let text = "template a { objects 0; objects auto; paths loops; paths none; row zone over vars; }\n\
                    template b { objects 9; paths all; row zone over vars; }\n\
                    template c { objects many; row zone over vars; }\n\
                    template d { objects 99999999999999999999999; row zone over vars; }\n";
        assert_eq!(
            errors(text),
            [
                e("1:22", "0", "materialisation bound `0` out of range"),
                e("1:25", "objects", "`objects` given twice in template `a`"),
                e("1:52", "paths", "`paths` given twice in template `a`"),
                e("2:22", "9", "materialisation bound `9` out of range"),
                e("2:31", "all", "unknown path mode `all`"),
                e("3:22", "many", "unknown materialisation bound `many`"),
                e(
                    "4:22",
                    "99999999999999999999999",
                    "materialisation bound `99999999999999999999999` out of range"
                ),
            ]
        );
    }

    #[test]
    fn rows_kinds_and_scopes() {
        let text = "template a { row points over vars; row interval over locals, vars, vars; }\n\
                    template b { row linear over vars; row zone(x - y) over vars; row linear() over vars; }\n\
                    template c { }\n";
        assert_eq!(
            errors(text),
            [
                e("1:18", "points", "unknown row kind `points`"),
                e("1:54", "locals", "unknown scope `locals`"),
                e("1:68", "vars", "scope `vars` listed twice"),
                e(
                    "2:18",
                    "linear",
                    "row kind `linear` needs a linear expression"
                ),
                e("2:44", "(x - y)", "row kind `zone` takes no expression"),
                e("2:73", "()", "`linear` row with no terms"),
                e("3:10", "c", "template `c` has no rows"),
            ]
        );
    }

    #[test]
    fn linear_terms() {
        let text =
            "template t {\n  row linear(0*a + 65537*b - 70000*c + d - 2*a - d) over vars;\n}\n";
        assert_eq!(
            errors(text),
            [
                e("2:14", "0", "zero coefficient of `a`"),
                e("2:20", "65537", "coefficient `65537` of `b` out of range"),
                e("2:30", "70000", "coefficient `-70000` of `c` out of range"),
                e("2:46", "a", "`a` appears twice in the linear expression"),
                e("2:50", "d", "`d` appears twice in the linear expression"),
            ]
        );
    }

    #[test]
    fn a_row_kind_repeated_over_a_scope() {
        let text = "template t { row pointsto over vars; row interval over fields;\n\
                    row pointsto over fields, vars; row linear(a - b) over vars;\n\
                    row linear(-b + a) over vars; row linear(a - 2*b) over vars; }\n";
        assert_eq!(
            errors(text),
            [
                e(
                    "2:27",
                    "vars",
                    "row `pointsto` over `vars` is already in template `t`"
                ),
                e(
                    "3:25",
                    "vars",
                    "row `linear(-b + a)` over `vars` is already in template `t`"
                ),
            ]
        );
    }

    #[test]
    fn duplicate_template_names_are_duplicates() {
        let text = "structure heap[f] { }\ntemplate heap { row zone over vars; }\n\
                    template heap { row zone over vars; }\n";
        assert_eq!(
            errors(text),
            [e("3:10", "heap", "duplicate template `heap`")]
        );
    }

    #[test]
    fn printed_ir_loads_to_the_same_template() {
        let text = "template r { objects 3; paths none; row linear(2*a + b - 65536*c) over fields, vars; \
                    row linear(-hi) over fields; row pointsto over vars; }";
        let t = one(text);
        let printed = print_ir(&t, "");
        assert_eq!(
            printed,
            "template r {\n  objects 3;\n  paths none;\n  \
             row linear(2*a + b - 65536*c) over vars, fields;\n  \
             row linear(-hi) over fields;\n  row pointsto over vars;\n}\n"
        );
        assert_eq!(one(&printed), t);
    }

    #[test]
    fn merge_takes_the_union_the_largest_bound_and_the_most_precise_paths() {
        let spec = crate::load(
            "template a { objects auto; paths none; row pointsto over vars; row linear(a - b) over vars; }\n\
             template b { objects 2; paths loops; row pointsto over fields; row interval over vars; }\n\
             template c { objects 4; paths none; row linear(-b + a) over fields, vars; }\n",
        )
        .expect("checks");
        let m = spec.template_config().expect("templates");
        assert_eq!(m.name, "a+b+c");
        assert_eq!(m.objects, Materialise::Fixed(4));
        assert_eq!(m.paths, PathSensitivity::Loops);
        let rows: Vec<String> = m.rows.iter().map(row_ir).collect();
        assert_eq!(
            rows,
            [
                "pointsto over vars, fields",
                "linear(a - b) over vars, fields",
                "interval over vars"
            ]
        );
        let only_auto = Template::merge(&spec.templates[..1]).expect("one");
        assert_eq!(only_auto.objects, Materialise::Auto);
        assert_eq!(only_auto, spec.templates[0]);
        assert_eq!(Template::merge(&[]), None);
        assert_eq!(crate::ir::Spec::default().template_config(), None);
    }

    #[test]
    fn show_prints_each_template_and_the_merge() {
        let spec = crate::load(
            "template heap { row pointsto over vars, fields; row interval over vars, fields; }\n\
             template ranges { row linear(hi - lo) over fields; }\n",
        )
        .expect("checks");
        assert_eq!(
            show(&spec),
            "templates (seed 002's template engine):\n\
             \x20 template heap {\n\
             \x20   objects auto;\n\
             \x20   paths loops;\n\
             \x20   row pointsto over vars, fields;\n\
             \x20   row interval over vars, fields;\n\
             \x20 }\n\
             \x20 template ranges {\n\
             \x20   objects auto;\n\
             \x20   paths loops;\n\
             \x20   row linear(hi - lo) over fields;\n\
             \x20 }\n\
             \x20 effective configuration (every template merged): objects auto; paths loops\n\
             \x20   row pointsto over vars, fields\n\
             \x20   row interval over vars, fields\n\
             \x20   row linear(hi - lo) over fields\n"
        );
        assert_eq!(show(&crate::ir::Spec::default()), "");
    }
}
