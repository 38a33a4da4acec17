//! The parser: `.shape` text to the [`ast`](crate::ast), through the pest grammar in
//! `grammar.pest`. A syntax error becomes one [`Diagnostic`] with the position pest reports and
//! the tokens it expected; the parser never panics. Templates, contracts and spatial domains
//! are parsed by [`crate::template`], [`crate::contract`] and [`crate::spatial`], with this
//! module's rules.

use crate::ast::*;
use crate::diag::Diagnostic;
use pest::Parser as _;
use pest::iterators::Pair;

mod generated {
    #![allow(missing_docs)]
    /// The pest parser generated from `grammar.pest`.
    #[derive(pest_derive::Parser)]
    #[grammar = "grammar.pest"]
    pub struct ShapeParser;
}

pub(crate) use generated::Rule;
use generated::ShapeParser;

/// Parses a whole `.shape` file.
pub fn parse(text: &str) -> Result<Spec, Diagnostic> {
    // Bound the nesting first: pest and every pass over the AST recurse into formulas.
    crate::depth::check(text)?;
    // Track the literal tokens tried at the furthest position (`;`, `&&`, `}`...), which pest's
    // rule-based error misses: a missing `;` would otherwise be reported where the last rule
    // was tried, often far before it.
    pest::set_error_detail(true);
    let mut pairs = ShapeParser::parse(Rule::spec, text).map_err(|e| syntax_error(e, text))?;
    let Some(spec) = pairs.next() else {
        return Err(Diagnostic::error("empty parse", Span::default()));
    };
    let items = spec
        .into_inner()
        .filter(|p| p.as_rule() != Rule::EOI)
        .map(item)
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Spec { items })
}

fn syntax_error(e: pest::error::Error<Rule>, text: &str) -> Diagnostic {
    let pos = match e.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    };
    let literal = e.parse_attempts().and_then(|a| {
        let tokens: Vec<String> = a.expected_tokens().iter().map(|t| t.to_string()).collect();
        literal_tokens(&tokens, text, a.max_position)
            .filter(|_| a.max_position >= pos)
            .map(|t| (a.max_position, t))
    });
    let (at, mut names) = literal.unwrap_or_else(|| {
        let names = match &e.variant {
            pest::error::ErrorVariant::ParsingError { positives, .. } => {
                positives.iter().map(rule_name).collect()
            }
            pest::error::ErrorVariant::CustomError { message } => vec![message.clone()],
        };
        (pos, names)
    });
    names.sort();
    names.dedup();
    let last = names.pop().unwrap_or_default();
    let expected = if names.is_empty() {
        last
    } else {
        format!("{} or {last}", names.join(", "))
    };
    Diagnostic::error(
        format!(
            "syntax error: expected {expected}, found {}",
            found(text, at)
        ),
        Span { start: at, end: at },
    )
}

/// The tokens pest tried at its furthest position `at`, when all of them are literals
/// (punctuation or keywords, not character ranges): pest's rule-based error misses these, and
/// a missing `;` would be reported where the last rule was tried, often well before it. Right
/// after a word, the characters that would continue it (`_`, `a..z`, ...) are no information
/// (`f(v, w;` expects `,` or `)` after `w`) and are left out.
fn literal_tokens(expected: &[String], text: &str, at: usize) -> Option<Vec<String>> {
    let before = text.get(..at).and_then(|t| t.chars().next_back());
    let after_word = before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
    let mut tokens = vec![];
    for t in expected {
        match t.as_str() {
            "//" | "/*" => {}
            t if t.trim().is_empty() => {}
            t if (t == "_" || t.contains("..")) && after_word => {}
            t if t == "_" || t.contains("..") => return None,
            t => tokens.push(format!("`{t}`")),
        }
    }
    (!tokens.is_empty()).then_some(tokens)
}

/// What the text holds at `at`: a word, one character, or the end of the file.
fn found(text: &str, at: usize) -> String {
    let rest = text.get(at..).unwrap_or("");
    let word: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    match rest.chars().next() {
        None => "end of file".into(),
        Some(_) if !word.is_empty() => format!("`{word}`"),
        Some(c) => format!("`{c}`"),
    }
}

fn rule_name(r: &Rule) -> String {
    let s = match r {
        Rule::ident => "identifier",
        Rule::roles => "`[`",
        Rule::node_params => "`(`",
        Rule::formula
        | Rule::iff
        | Rule::implies
        | Rule::or
        | Rule::and
        | Rule::unary
        | Rule::not
        | Rule::quantifier
        | Rule::bool_lit => "formula",
        Rule::item
        | Rule::predicate_decl
        | Rule::invariant_decl
        | Rule::structure_decl
        | Rule::template_decl
        | Rule::contract_decl
        | Rule::spatial_decl
        | Rule::pred_family_decl => {
            "declaration (`predicate`, `invariant`, `structure`, `template`, `contract`, \
             `spatial` or `family`)"
        }
        Rule::EOI => "end of file",
        Rule::closure => "`+` or `*`",
        Rule::eq_op => "`==` or `!=`",
        Rule::refines => "`refines`",
        Rule::requires => "`requires`",
        Rule::ptr_param => "`<`",
        Rule::instance => "instance such as `p[f]`",
        Rule::invariant_use | Rule::family_decl | Rule::abstract_decl => {
            "`invariant`, `family`, `abstract` or `}`"
        }
        // Members are tried where `}` may also come (the lookahead after a keyword can hide
        // the literal tokens, and with them the `}`).
        Rule::objects_decl
        | Rule::paths_decl
        | Rule::row_decl
        | Rule::kw_objects
        | Rule::kw_paths
        | Rule::kw_row => "`objects`, `paths`, `row` or `}`",
        Rule::kw_over => "`over`",
        Rule::ghost_decl
        | Rule::global_decl
        | Rule::pre_decl
        | Rule::post_decl
        | Rule::kw_ghost
        | Rule::kw_global
        | Rule::kw_ensures => "`ghost`, `global`, `requires`, `ensures` or `}`",
        Rule::symbols_decl
        | Rule::list_decl
        | Rule::lemma_decl
        | Rule::rule_decl
        | Rule::kw_symbols
        | Rule::kw_list
        | Rule::kw_lemma => "`symbols`, `list`, `lemma`, `abstract` or `}`",
        Rule::list_param => "parameter such as `S: multiset`",
        Rule::list_base => "base case such as `x == y`",
        Rule::list_step => "step case such as `x |-> (z, d) * ls(z, y)`",
        Rule::law => "law such as `S == {}`",
        Rule::law_op => "`==`, `<=` or `>=`",
        Rule::pieces | Rule::cell | Rule::segment => "cell `x |-> (y, d)` or segment `ls(x, y)`",
        Rule::not_in => "`!in`",
        Rule::kw_when => "`when`",
        Rule::kw_in => "`in`",
        Rule::pure_term | Rule::pure_set | Rule::pure_apply => "term such as `S1 + {d}`",
        Rule::pure_op => "`+` or `++`",
        Rule::lin_expr => "`(`",
        Rule::lin_term => "term such as `2*x`",
        Rule::lin_sign => "`+` or `-`",
        Rule::number => "number",
        other => return format!("{other:?}"),
    };
    s.to_string()
}

pub(crate) fn span(p: &Pair<Rule>) -> Span {
    let s = p.as_span();
    Span {
        start: s.start(),
        end: s.end(),
    }
}

pub(crate) fn ident(p: Pair<Rule>) -> Ident {
    Ident {
        name: p.as_str().to_string(),
        span: span(&p),
    }
}

fn idents(p: Pair<Rule>) -> Vec<Ident> {
    p.into_inner()
        .filter(|x| x.as_rule() == Rule::ident)
        .map(ident)
        .collect()
}

fn item(p: Pair<Rule>) -> Result<Item, Diagnostic> {
    Ok(match p.as_rule() {
        Rule::predicate_decl => Item::Predicate(predicate(p)?),
        Rule::invariant_decl => Item::Invariant(invariant(p)?),
        Rule::structure_decl => Item::Structure(structure(p)),
        Rule::template_decl => Item::Template(crate::template::parse(p)),
        Rule::contract_decl => Item::Contract(crate::contract::parse(p)?),
        Rule::spatial_decl => Item::Spatial(crate::spatial::parse(p)?),
        Rule::pred_family_decl => Item::PredFamily(crate::family::parse(p)?),
        _ => return Err(Diagnostic::error("unexpected item", span(&p))),
    })
}

fn predicate(p: Pair<Rule>) -> Result<PredicateDecl, Diagnostic> {
    let sp = span(&p);
    let mut name = None;
    let (mut roles, mut pointer, mut params, mut body) = (vec![], None, vec![], None);
    for x in p.into_inner() {
        match x.as_rule() {
            Rule::ident => name = Some(ident(x)),
            Rule::roles => roles = idents(x),
            Rule::ptr_param => pointer = x.into_inner().next().map(ident),
            Rule::node_params => params = idents(x),
            Rule::formula => body = Some(formula(x)?),
            _ => {}
        }
    }
    let (Some(name), Some(body)) = (name, body) else {
        return Err(Diagnostic::error("incomplete predicate", sp));
    };
    Ok(PredicateDecl {
        name,
        roles,
        pointer,
        params,
        body,
        span: sp,
    })
}

fn invariant(p: Pair<Rule>) -> Result<InvariantDecl, Diagnostic> {
    let sp = span(&p);
    let (mut name, mut roles, mut body) = (None, vec![], None);
    for x in p.into_inner() {
        match x.as_rule() {
            Rule::ident => name = Some(ident(x)),
            Rule::roles => roles = idents(x),
            Rule::formula => body = Some(formula(x)?),
            _ => {}
        }
    }
    let (Some(name), Some(body)) = (name, body) else {
        return Err(Diagnostic::error("incomplete invariant", sp));
    };
    Ok(InvariantDecl {
        name,
        roles,
        body,
        span: sp,
    })
}

fn instance(p: Pair<Rule>) -> Instance {
    let sp = span(&p);
    let mut it = p.into_inner();
    let name = it.next().map(ident).unwrap_or(Ident {
        name: String::new(),
        span: sp,
    });
    let roles = it.next().map(idents).unwrap_or_default();
    Instance {
        name,
        roles,
        span: sp,
    }
}

fn instances(p: Pair<Rule>) -> Vec<Instance> {
    p.into_inner()
        .filter(|x| x.as_rule() == Rule::instance)
        .map(instance)
        .collect()
}

fn structure(p: Pair<Rule>) -> StructureDecl {
    let sp = span(&p);
    let mut s = StructureDecl {
        name: Ident {
            name: String::new(),
            span: sp,
        },
        roles: vec![],
        refines: vec![],
        invariants: vec![],
        families: vec![],
        abstracts: vec![],
        span: sp,
    };
    for x in p.into_inner() {
        match x.as_rule() {
            Rule::ident => s.name = ident(x),
            Rule::roles => s.roles = idents(x),
            Rule::refines => s.refines = instances(x),
            Rule::invariant_use => s.invariants.extend(instances(x)),
            Rule::family_decl => s.families.push(family(x)),
            Rule::abstract_decl => s.abstracts.extend(idents(x)),
            _ => {}
        }
    }
    s
}

fn family(p: Pair<Rule>) -> FamilyDecl {
    let sp = span(&p);
    let mut f = FamilyDecl {
        name: Ident {
            name: String::new(),
            span: sp,
        },
        preds: vec![],
        requires: vec![],
        span: sp,
    };
    for x in p.into_inner() {
        match x.as_rule() {
            Rule::ident => f.name = ident(x),
            Rule::instance => f.preds.push(instance(x)),
            Rule::requires => f.requires = idents(x),
            _ => {}
        }
    }
    f
}

pub(crate) fn formula(p: Pair<Rule>) -> Result<Formula, Diagnostic> {
    let sp = span(&p);
    match p.as_rule() {
        Rule::formula => inner_one(p),
        Rule::iff => fold(p, |a, b| FormulaKind::Iff(Box::new(a), Box::new(b))),
        Rule::or => fold(p, |a, b| FormulaKind::Or(Box::new(a), Box::new(b))),
        Rule::and => fold(p, |a, b| FormulaKind::And(Box::new(a), Box::new(b))),
        Rule::implies => {
            let mut it = p.into_inner();
            let a = formula(it.next().ok_or_else(|| bad(sp))?)?;
            match it.next() {
                Some(b) => {
                    let b = formula(b)?;
                    Ok(Formula {
                        kind: FormulaKind::Implies(Box::new(a), Box::new(b)),
                        span: sp,
                    })
                }
                None => Ok(a),
            }
        }
        Rule::unary => unary(p),
        Rule::quantified => quantified(p),
        Rule::old_formula => Ok(Formula {
            kind: FormulaKind::Old(Box::new(inner_one(p)?)),
            span: sp,
        }),
        Rule::bool_lit => Ok(Formula {
            kind: if p.as_str() == "true" {
                FormulaKind::True
            } else {
                FormulaKind::False
            },
            span: sp,
        }),
        Rule::equality => equality(p),
        Rule::atom => Ok(atom(p)),
        _ => Err(bad(sp)),
    }
}

fn bad(sp: Span) -> Diagnostic {
    Diagnostic::error("malformed formula", sp)
}

fn inner_one(p: Pair<Rule>) -> Result<Formula, Diagnostic> {
    let sp = span(&p);
    formula(p.into_inner().next().ok_or_else(|| bad(sp))?)
}

/// Left-associative folding of a binary connective.
fn fold(p: Pair<Rule>, mk: fn(Formula, Formula) -> FormulaKind) -> Result<Formula, Diagnostic> {
    let sp = span(&p);
    let mut it = p.into_inner();
    let mut acc = formula(it.next().ok_or_else(|| bad(sp))?)?;
    for next in it {
        let b = formula(next)?;
        let s = Span {
            start: acc.span.start,
            end: b.span.end,
        };
        acc = Formula {
            kind: mk(acc, b),
            span: s,
        };
    }
    Ok(acc)
}

fn unary(p: Pair<Rule>) -> Result<Formula, Diagnostic> {
    let sp = span(&p);
    let mut nots = vec![];
    let mut body = None;
    for x in p.into_inner() {
        if x.as_rule() == Rule::not {
            nots.push(span(&x));
        } else {
            body = Some(formula(x)?);
        }
    }
    let mut f = body.ok_or_else(|| bad(sp))?;
    for n in nots.into_iter().rev() {
        let s = Span {
            start: n.start,
            end: f.span.end,
        };
        f = Formula {
            kind: FormulaKind::Not(Box::new(f)),
            span: s,
        };
    }
    Ok(f)
}

fn quantified(p: Pair<Rule>) -> Result<Formula, Diagnostic> {
    let sp = span(&p);
    let (mut q, mut vars, mut body) = (Quantifier::Forall, vec![], None);
    for x in p.into_inner() {
        match x.as_rule() {
            Rule::quantifier if x.as_str() == "exists" => q = Quantifier::Exists,
            Rule::quantifier => q = Quantifier::Forall,
            Rule::ident => vars.push(ident(x)),
            _ => body = Some(formula(x)?),
        }
    }
    let body = Box::new(body.ok_or_else(|| bad(sp))?);
    Ok(Formula {
        kind: FormulaKind::Quant { q, vars, body },
        span: sp,
    })
}

fn equality(p: Pair<Rule>) -> Result<Formula, Diagnostic> {
    let sp = span(&p);
    let mut it = p.into_inner();
    let left = it.next().map(ident).ok_or_else(|| bad(sp))?;
    let op = it.next().ok_or_else(|| bad(sp))?;
    let right = it.next().map(ident).ok_or_else(|| bad(sp))?;
    let equal = op.as_str() == "==";
    Ok(Formula {
        kind: FormulaKind::Eq { left, right, equal },
        span: sp,
    })
}

fn atom(p: Pair<Rule>) -> Formula {
    let sp = span(&p);
    let (mut name, mut roles, mut closure, mut args) = (None, None, None, vec![]);
    for x in p.into_inner() {
        match x.as_rule() {
            Rule::ident if name.is_none() => name = Some(ident(x)),
            Rule::ident => args.push(ident(x)),
            Rule::roles => roles = Some(idents(x)),
            Rule::closure if x.as_str() == "+" => closure = Some(Closure::Plus),
            Rule::closure => closure = Some(Closure::Star),
            _ => {}
        }
    }
    let name = name.unwrap_or(Ident {
        name: String::new(),
        span: sp,
    });
    Formula {
        kind: FormulaKind::Atom {
            name,
            roles,
            closure,
            args,
        },
        span: sp,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_predicates_with_closure_and_quantifiers() {
        let s = parse("predicate reach[f]<x>(v) := exists u. x(u) && f*(u, v);").unwrap();
        let Item::Predicate(p) = &s.items[0] else {
            panic!()
        };
        assert_eq!(p.name.name, "reach");
        assert_eq!(p.pointer.as_ref().unwrap().name, "x");
        assert!(matches!(
            p.body.kind,
            FormulaKind::Quant {
                q: Quantifier::Exists,
                ..
            }
        ));
    }

    #[test]
    fn implication_is_right_associative_and_binds_weaker_than_and() {
        let s =
            parse("invariant i[f] := forall v, w. f(v, w) && f(w, v) -> v == w -> true;").unwrap();
        let Item::Invariant(i) = &s.items[0] else {
            panic!()
        };
        let FormulaKind::Quant { body, .. } = &i.body.kind else {
            panic!()
        };
        let FormulaKind::Implies(a, b) = &body.kind else {
            panic!("{body:?}")
        };
        assert!(matches!(a.kind, FormulaKind::And(..)));
        assert!(matches!(b.kind, FormulaKind::Implies(..)));
    }

    #[test]
    fn syntax_error_has_a_position_and_expectations() {
        let e = parse("predicate p[f](v) := f(v, ;").unwrap_err();
        assert!(
            e.message.starts_with("syntax error: expected"),
            "{}",
            e.message
        );
        assert_eq!(e.primary.start, 26);
    }

    #[test]
    fn keywords_are_not_identifiers() {
        assert!(parse("predicate forall[f](v) := true;").is_err());
    }
}
