//! The `spatial` declaration kind: the list domains of seed 001's separation-logic engine,
//! declared in the spec instead of hard-wired in the engine. This module consumes the
//! `spatial_decl` parse tree of `grammar.pest` and produces its AST ([`SpatialDecl`]);
//! consumes the AST of a spec's domains and produces their Spec IR ([`Spatial`]) or located
//! diagnostics (check 8 of [`crate::check`]); and prints both back in source syntax (the AST
//! for `print::print`, the IR for `spec show`).
//!
//! The checks, each with its span: `symbols` exactly once per domain, each kind known
//! (`values`, `addresses`) and listed once; `list` exactly once; the list's location and
//! typed parameters distinct, each kind known (`multiset`, `counts`, `interval`, `length(N)`
//! with `N` in `1..=`[`ParamKind::MAX_LENGTH`]), at most one parameter of each kind; the base
//! case `x == y` and the step case a cell at `x`, `x |-> (z, d)`, then the recursive call on
//! `(z, y)` with one fresh name per parameter; each parameter's base and step laws exactly its
//! kind's ([`base_laws`], [`step_laws`]), in any order, each once, no other conjunct (`==` is
//! read both ways); the list predicate's name used in the step, the lemma and the rules; at
//! most one lemma, exactly the composition of two segments with each kind's composition law
//! ([`compose_op`]); at least one abstraction rule, rule names distinct, each folding two
//! pieces (cells or segments without parameters) chained `x` to `y` to `z` into the segment
//! from `x` to `z`, through `fresh(y)`, optionally guarded by `x !in T`, no other condition;
//! no two rules folding the same pieces. Duplicate domain names are reported with the other
//! duplicates (check 1).

use crate::ast::{
    BaseDecl, CellDecl, ConditionDecl, ConditionKind, Ident, LawDecl, LawOp, LemmaDecl, ListDecl,
    ListParamDecl, Number, PieceDecl, PureAtom, PureAtomKind, PureOp, PureTerm, RuleDecl,
    SegmentDecl, SideDecl, Span, SpatialDecl, StepDecl, SymbolsDecl,
};
use crate::check::dup_names;
use crate::diag::Diagnostic;
use crate::ir::{
    AbstractionRule, Lemma, ListParam, ListPredicate, ParamKind, Piece, Spatial, SymbolKind,
};
use crate::parser::{Rule, ident, span};
use pest::iterators::Pair;
use std::collections::{BTreeMap, BTreeSet};

/// The symbol kinds, by name.
const SYMBOLS: [(&str, SymbolKind); 2] = [
    ("values", SymbolKind::Values),
    ("addresses", SymbolKind::Addresses),
];
/// The parameter kinds, by name (`length` with its bound).
const KINDS: [&str; 4] = ["multiset", "counts", "interval", "length"];

// ---------------------------------------------------------------- parse tree to AST

/// The span of `p` without the white space and comments pest skips before a repetition or an
/// option that then matches nothing (`a + b` followed by spaces would end after them).
fn tight(p: &Pair<Rule>) -> Span {
    let sp = span(p);
    let Some(last) = p.clone().into_inner().last() else {
        return sp;
    };
    let tail = p
        .get_input()
        .get(last.as_span().end()..sp.end)
        .unwrap_or("");
    if skipped(tail) {
        return Span {
            start: sp.start,
            end: tight(&last).end,
        };
    }
    sp
}

/// Whether `s` is only white space and comments.
fn skipped(mut s: &str) -> bool {
    loop {
        s = s.trim_start();
        if let Some(rest) = s.strip_prefix("//") {
            s = rest.find('\n').map_or("", |i| &rest[i..]);
        } else if let Some(rest) = s.strip_prefix("/*") {
            let Some(i) = rest.find("*/") else {
                return false;
            };
            s = &rest[i + 2..];
        } else {
            return s.is_empty();
        }
    }
}

/// An error for a parse tree the grammar does not produce.
fn malformed(sp: Span) -> Diagnostic {
    Diagnostic::error("malformed spatial domain", sp)
}

/// A `spatial_decl` pair to its AST.
pub(crate) fn parse(p: Pair<Rule>) -> Result<SpatialDecl, Diagnostic> {
    let sp = tight(&p);
    let mut d = SpatialDecl {
        name: Ident {
            name: String::new(),
            span: sp,
        },
        symbols: vec![],
        lists: vec![],
        lemmas: vec![],
        rules: vec![],
        span: sp,
    };
    for x in p.into_inner() {
        match x.as_rule() {
            Rule::ident => d.name = ident(x),
            Rule::symbols_decl => d.symbols.push(symbols_decl(x)),
            Rule::list_decl => d.lists.push(list_decl(x)?),
            Rule::lemma_decl => d.lemmas.push(lemma_decl(x)?),
            Rule::rule_decl => d.rules.push(rule_decl(x)?),
            _ => {}
        }
    }
    Ok(d)
}

/// The identifiers among the children of `p`, in order.
fn idents(p: &Pair<Rule>) -> Vec<Ident> {
    (p.clone().into_inner())
        .filter(|x| x.as_rule() == Rule::ident)
        .map(ident)
        .collect()
}

/// The children of `p` of rule `rule`, in order.
fn children<'i>(p: &Pair<'i, Rule>, rule: Rule) -> Vec<Pair<'i, Rule>> {
    (p.clone().into_inner())
        .filter(|x| x.as_rule() == rule)
        .collect()
}

/// The span of the keyword child of `p`, or `p`'s own.
fn keyword(p: &Pair<Rule>, rule: Rule) -> Span {
    children(p, rule).first().map_or(tight(p), span)
}

fn number(p: Pair<Rule>) -> Number {
    Number {
        digits: p.as_str().to_string(),
        span: tight(&p),
    }
}

fn symbols_decl(p: Pair<Rule>) -> SymbolsDecl {
    SymbolsDecl {
        keyword: keyword(&p, Rule::kw_symbols),
        kinds: idents(&p),
        span: tight(&p),
    }
}

fn list_decl(p: Pair<Rule>) -> Result<ListDecl, Diagnostic> {
    let sp = tight(&p);
    let params = children(&p, Rule::list_param).into_iter().map(list_param);
    let params = params.collect::<Result<Vec<_>, _>>()?;
    let base = children(&p, Rule::list_base)
        .into_iter()
        .next()
        .map(list_base);
    let step = children(&p, Rule::list_step)
        .into_iter()
        .next()
        .map(list_step);
    let (Ok([name, from, to]), Some(base), Some(step)) =
        (<[Ident; 3]>::try_from(idents(&p)), base, step)
    else {
        return Err(malformed(sp));
    };
    Ok(ListDecl {
        keyword: keyword(&p, Rule::kw_list),
        name,
        from,
        to,
        params,
        base: base?,
        step: step?,
        span: sp,
    })
}

fn list_param(p: Pair<Rule>) -> Result<ListParamDecl, Diagnostic> {
    let sp = tight(&p);
    let bound = children(&p, Rule::number).into_iter().next().map(number);
    let Ok([name, kind]) = <[Ident; 2]>::try_from(idents(&p)) else {
        return Err(malformed(sp));
    };
    Ok(ListParamDecl {
        name,
        kind,
        bound,
        span: sp,
    })
}

fn laws(p: &Pair<Rule>) -> Result<Vec<LawDecl>, Diagnostic> {
    children(p, Rule::law).into_iter().map(law).collect()
}

fn list_base(p: Pair<Rule>) -> Result<BaseDecl, Diagnostic> {
    let sp = tight(&p);
    let Ok([left, right]) = <[Ident; 2]>::try_from(idents(&p)) else {
        return Err(malformed(sp));
    };
    Ok(BaseDecl {
        left,
        right,
        laws: laws(&p)?,
        span: sp,
    })
}

fn list_step(p: Pair<Rule>) -> Result<StepDecl, Diagnostic> {
    let sp = tight(&p);
    let cell = children(&p, Rule::cell).into_iter().next().map(cell);
    let rest = children(&p, Rule::segment).into_iter().next().map(segment);
    let (Some(cell), Some(rest)) = (cell, rest) else {
        return Err(malformed(sp));
    };
    Ok(StepDecl {
        cell: cell?,
        rest: rest?,
        laws: laws(&p)?,
        span: sp,
    })
}

fn cell(p: Pair<Rule>) -> Result<CellDecl, Diagnostic> {
    let sp = tight(&p);
    let Ok([at, next, data]) = <[Ident; 3]>::try_from(idents(&p)) else {
        return Err(malformed(sp));
    };
    Ok(CellDecl {
        at,
        next,
        data,
        span: sp,
    })
}

fn segment(p: Pair<Rule>) -> Result<SegmentDecl, Diagnostic> {
    let sp = tight(&p);
    let args = children(&p, Rule::pure_term).into_iter().map(pure_term);
    let args = args.collect::<Result<Vec<_>, _>>()?;
    let Ok([pred, from, to]) = <[Ident; 3]>::try_from(idents(&p)) else {
        return Err(malformed(sp));
    };
    Ok(SegmentDecl {
        pred,
        from,
        to,
        args,
        span: sp,
    })
}

fn side(p: Pair<Rule>) -> Result<SideDecl, Diagnostic> {
    let sp = tight(&p);
    let pieces = p.into_inner().map(|x| match x.as_rule() {
        Rule::cell => cell(x).map(PieceDecl::Cell),
        Rule::segment => segment(x).map(PieceDecl::Segment),
        _ => Err(malformed(sp)),
    });
    Ok(SideDecl {
        pieces: pieces.collect::<Result<Vec<_>, _>>()?,
        span: sp,
    })
}

/// The two sides of a lemma or a rule.
fn sides(p: &Pair<Rule>) -> Result<(SideDecl, SideDecl), Diagnostic> {
    let sp = tight(p);
    let mut sides = children(p, Rule::pieces).into_iter().map(side);
    let (Some(left), Some(right)) = (sides.next(), sides.next()) else {
        return Err(malformed(sp));
    };
    Ok((left?, right?))
}

fn lemma_decl(p: Pair<Rule>) -> Result<LemmaDecl, Diagnostic> {
    let (left, right) = sides(&p)?;
    Ok(LemmaDecl {
        keyword: keyword(&p, Rule::kw_lemma),
        left,
        right,
        span: tight(&p),
    })
}

fn rule_decl(p: Pair<Rule>) -> Result<RuleDecl, Diagnostic> {
    let sp = tight(&p);
    let (left, right) = sides(&p)?;
    let conditions = (p.clone().into_inner())
        .filter(|x| matches!(x.as_rule(), Rule::pure_apply | Rule::not_in))
        .map(condition);
    let conditions = conditions.collect::<Result<Vec<_>, _>>()?;
    let Some(name) = idents(&p).into_iter().next() else {
        return Err(malformed(sp));
    };
    Ok(RuleDecl {
        name,
        left,
        right,
        conditions,
        span: sp,
    })
}

/// `f(a)` or `a !in S`: the two names of a `pure_apply` or `not_in` pair.
fn two_names(p: &Pair<Rule>) -> Result<(Ident, Ident), Diagnostic> {
    match <[Ident; 2]>::try_from(idents(p)) {
        Ok([a, b]) => Ok((a, b)),
        Err(_) => Err(malformed(tight(p))),
    }
}

fn condition(p: Pair<Rule>) -> Result<ConditionDecl, Diagnostic> {
    let (a, b) = two_names(&p)?;
    let kind = match p.as_rule() {
        Rule::not_in => ConditionKind::NotIn { elem: a, set: b },
        _ => ConditionKind::Apply { func: a, arg: b },
    };
    Ok(ConditionDecl {
        kind,
        span: tight(&p),
    })
}

fn law(p: Pair<Rule>) -> Result<LawDecl, Diagnostic> {
    let sp = tight(&p);
    let mut terms = children(&p, Rule::pure_term).into_iter().map(pure_term);
    let op = match children(&p, Rule::law_op).first().map(|x| x.as_str()) {
        Some("==") => LawOp::Eq,
        Some("<=") => LawOp::Le,
        Some(">=") => LawOp::Ge,
        _ => return Err(malformed(sp)),
    };
    let (Some(left), Some(right)) = (terms.next(), terms.next()) else {
        return Err(malformed(sp));
    };
    Ok(LawDecl {
        left: left?,
        op,
        right: right?,
        span: sp,
    })
}

fn pure_term(p: Pair<Rule>) -> Result<PureTerm, Diagnostic> {
    let sp = tight(&p);
    let mut first = None;
    let mut rest = vec![];
    let mut op = PureOp::Plus;
    for x in p.into_inner() {
        if x.as_rule() == Rule::pure_op {
            op = if x.as_str() == "++" {
                PureOp::Concat
            } else {
                PureOp::Plus
            };
            continue;
        }
        let a = pure_atom(x)?;
        match first {
            None => first = Some(a),
            Some(_) => rest.push((op, a)),
        }
    }
    let first = first.ok_or_else(|| malformed(sp))?;
    Ok(PureTerm {
        first,
        rest,
        span: sp,
    })
}

fn pure_atom(p: Pair<Rule>) -> Result<PureAtom, Diagnostic> {
    let sp = tight(&p);
    let kind = match p.as_rule() {
        Rule::ident => PureAtomKind::Name(ident(p)),
        Rule::number => PureAtomKind::Number(number(p)),
        Rule::pure_set => PureAtomKind::Set(idents(&p).into_iter().next()),
        Rule::pure_apply => {
            let (func, arg) = two_names(&p)?;
            PureAtomKind::Apply { func, arg }
        }
        _ => return Err(malformed(sp)),
    };
    Ok(PureAtom { kind, span: sp })
}

// ---------------------------------------------------------------- the laws of the kinds

/// A law as its left side, comparison and right side, in source syntax.
pub type Law = [String; 3];

fn law_of(left: &str, op: &str, right: &str) -> Law {
    [left.to_string(), op.to_string(), right.to_string()]
}

/// The base law(s) of a parameter `p` of kind `kind` (none for `counts` and `interval`).
pub fn base_laws(kind: ParamKind, p: &str) -> Vec<Law> {
    match kind {
        ParamKind::Multiset => vec![law_of(p, "==", "{}")],
        ParamKind::Counts | ParamKind::Interval => vec![],
        ParamKind::Length(_) => vec![law_of(p, "==", "0")],
    }
}

/// The step law(s) of a parameter `p` of kind `kind`, `p1` the parameter of the rest of the
/// segment and `d` the first cell's data value.
pub fn step_laws(kind: ParamKind, p: &str, p1: &str, d: &str) -> Vec<Law> {
    match kind {
        ParamKind::Multiset => vec![law_of(p, "<=", &format!("{p1} + {{{d}}}"))],
        ParamKind::Counts => vec![law_of(p, ">=", &format!("{p1} + {{{d}}}"))],
        ParamKind::Interval => vec![
            law_of(&format!("lo({p})"), "==", d),
            law_of(d, "<=", &format!("lo({p1})")),
            law_of(&format!("hi({p1})"), "==", &format!("hi({p})")),
        ],
        ParamKind::Length(_) => vec![law_of(p, "<=", &format!("{p1} + 1"))],
    }
}

/// The operator composing two segments' parameters of kind `kind` (`++` for intervals, `+`
/// for the others).
pub fn compose_op(kind: ParamKind) -> &'static str {
    match kind {
        ParamKind::Interval => "++",
        ParamKind::Multiset | ParamKind::Counts | ParamKind::Length(_) => "+",
    }
}

/// A law as written: `S <= S1 + {d}`.
pub fn law_text(l: &Law) -> String {
    format!("{} {} {}", l[0], l[1], l[2])
}

/// A kind as written: `multiset`, `length(8)`.
pub fn kind_text(k: ParamKind) -> String {
    match k {
        ParamKind::Length(n) => format!("length({n})"),
        k => k.name().to_string(),
    }
}

// ---------------------------------------------------------------- checks and lowering

/// Checks the spatial domains of a spec (in source order) and lowers them to the IR; on
/// errors, every error found, in source order within each domain.
pub(crate) fn check(decls: &[&SpatialDecl]) -> Result<Vec<Spatial>, Vec<Diagnostic>> {
    let mut out = vec![];
    let mut errs = vec![];
    for d in decls {
        let mut mine = vec![];
        let s = domain(d, &mut mine);
        mine.sort_by_key(|x| x.primary.start);
        errs.extend(mine);
        out.extend(s);
    }
    if errs.is_empty() { Ok(out) } else { Err(errs) }
}

/// The domain's list predicate (its first `list`), with its checked parameters (`None` after
/// errors in them).
struct List<'a> {
    decl: &'a ListDecl,
    params: Option<Vec<ListParam>>,
}

fn domain(d: &SpatialDecl, errs: &mut Vec<Diagnostic>) -> Option<Spatial> {
    let symbols = symbols(d, errs);
    let list = list(d, errs);
    let lemmas = lemmas(d, list.as_ref(), errs);
    let rules = rules(d, errs);
    let list = list?;
    Some(Spatial {
        name: d.name.name.clone(),
        symbols,
        list: ListPredicate {
            name: list.decl.name.name.clone(),
            params: list.params?,
        },
        lemmas,
        rules,
    })
}

/// A member given twice: at the second keyword, the first noted.
fn given_twice(what: &str, d: &SpatialDecl, first: Span, again: Span) -> Diagnostic {
    Diagnostic::error(
        format!("`{what}` given twice in spatial domain `{}`", d.name.name),
        again,
    )
    .with_secondary(first, "first given here")
}

fn unknown<'a>(what: &str, name: &Ident, known: impl Iterator<Item = &'a str>) -> Diagnostic {
    let known: Vec<String> = known.map(|k| format!("`{k}`")).collect();
    Diagnostic::error(format!("unknown {what} `{}`", name.name), name.span)
        .with_note(format!("known: {}", known.join(", ")))
}

/// The span from the start of `a` to the end of `b`.
fn join(a: Span, b: Span) -> Span {
    Span {
        start: a.start,
        end: b.end,
    }
}

fn symbols(d: &SpatialDecl, errs: &mut Vec<Diagnostic>) -> Vec<SymbolKind> {
    for s in d.symbols.iter().skip(1) {
        errs.push(given_twice("symbols", d, d.symbols[0].keyword, s.keyword));
    }
    let Some(s) = d.symbols.first() else {
        errs.push(
            Diagnostic::error(
                format!(
                    "spatial domain `{}` has no `symbols` statement",
                    d.name.name
                ),
                d.name.span,
            )
            .with_note(
                "say what the refinement may add to `T`: `symbols values;`, \
                 `symbols addresses;` or `symbols values, addresses;`",
            ),
        );
        return vec![];
    };
    let mut seen: BTreeMap<&str, Span> = BTreeMap::new();
    let mut out = vec![];
    for k in &s.kinds {
        let Some((_, kind)) = SYMBOLS.iter().find(|(n, _)| *n == k.name) else {
            errs.push(unknown("symbol kind", k, SYMBOLS.iter().map(|(n, _)| *n)));
            continue;
        };
        match seen.get(k.name.as_str()) {
            Some(first) => errs.push(
                Diagnostic::error(format!("symbol kind `{}` listed twice", k.name), k.span)
                    .with_secondary(*first, "first listed here"),
            ),
            None => {
                seen.insert(&k.name, k.span);
                out.push(*kind);
            }
        }
    }
    out.sort();
    out
}

// ------------------------------------------------ the list predicate

fn list<'a>(d: &'a SpatialDecl, errs: &mut Vec<Diagnostic>) -> Option<List<'a>> {
    for l in d.lists.iter().skip(1) {
        errs.push(given_twice("list", d, d.lists[0].keyword, l.keyword));
    }
    let Some(l) = d.lists.first() else {
        errs.push(
            Diagnostic::error(
                format!("spatial domain `{}` has no list predicate", d.name.name),
                d.name.span,
            )
            .with_note(
                "a domain defines one list predicate, e.g. \
                 `list ls(x, y) := x == y | x |-> (z, d) * ls(z, y);`",
            ),
        );
        return None;
    };
    let params = params(l, errs);
    base(l, params.as_deref(), errs);
    step(l, params.as_deref(), errs);
    Some(List { decl: l, params })
}

fn params(l: &ListDecl, errs: &mut Vec<Diagnostic>) -> Option<Vec<ListParam>> {
    let before = errs.len();
    let mut names = vec![&l.from, &l.to];
    names.extend(l.params.iter().map(|p| &p.name));
    dup_names(&names, "parameter", errs);
    let mut seen: BTreeMap<&str, Span> = BTreeMap::new();
    let mut out = vec![];
    for p in &l.params {
        let Some(kind) = param_kind(p, errs) else {
            continue;
        };
        match seen.get(kind.name()) {
            Some(first) => errs.push(
                Diagnostic::error(
                    format!(
                        "`{}` already has a `{}` parameter",
                        l.name.name,
                        kind.name()
                    ),
                    p.kind.span,
                )
                .with_secondary(*first, "the first")
                .with_note("a list predicate has at most one parameter of each kind"),
            ),
            None => {
                seen.insert(kind.name(), p.span);
            }
        }
        out.push(ListParam {
            name: p.name.name.clone(),
            kind,
        });
    }
    (errs.len() == before).then_some(out)
}

fn param_kind(p: &ListParamDecl, errs: &mut Vec<Diagnostic>) -> Option<ParamKind> {
    let kind = match p.kind.name.as_str() {
        "multiset" => ParamKind::Multiset,
        "counts" => ParamKind::Counts,
        "interval" => ParamKind::Interval,
        "length" => return length(p, errs),
        _ => {
            errs.push(unknown("parameter kind", &p.kind, KINDS.iter().copied()));
            return None;
        }
    };
    if let Some(n) = &p.bound {
        errs.push(
            Diagnostic::error(
                format!("parameter kind `{}` takes no bound", p.kind.name),
                n.span,
            )
            .with_note("only `length` has a bound, e.g. `length(8)`"),
        );
        return None;
    }
    Some(kind)
}

fn length(p: &ListParamDecl, errs: &mut Vec<Diagnostic>) -> Option<ParamKind> {
    let max = ParamKind::MAX_LENGTH;
    let range = format!("the bound of `length` is a number from 1 to {max}");
    let Some(n) = &p.bound else {
        errs.push(
            Diagnostic::error("parameter kind `length` needs its bound", p.kind.span)
                .with_note(format!("{range}, e.g. `length({max})`")),
        );
        return None;
    };
    match n.digits.parse::<u32>() {
        Ok(v) if (1..=max).contains(&v) => Some(ParamKind::Length(v)),
        _ => {
            errs.push(
                Diagnostic::error(format!("length bound `{}` out of range", n.digits), n.span)
                    .with_note(range),
            );
            None
        }
    }
}

fn base(l: &ListDecl, params: Option<&[ListParam]>, errs: &mut Vec<Diagnostic>) {
    let b = &l.base;
    let (x, y) = (&l.from.name, &l.to.name);
    let eq = [&b.left.name, &b.right.name];
    if eq != [x, y] && eq != [y, x] {
        errs.push(
            Diagnostic::error(
                format!(
                    "the base case of `{}` must begin with `{x} == {y}`",
                    l.name.name
                ),
                join(b.left.span, b.right.span),
            )
            .with_note("the base case is the empty segment: its two ends are equal"),
        );
    }
    let Some(params) = params else { return };
    let laws: Vec<ParamLaws> = (params.iter().zip(&l.params))
        .map(|(p, decl)| ParamLaws {
            param: p,
            names: vec![&p.name],
            laws: base_laws(p.kind, &p.name),
            decl: decl.span,
        })
        .collect();
    check_laws(Case::Base, &b.laws, &laws, b.span, errs);
}

/// The note of a name of the step case that is not fresh.
const STEP_FRESH: &str = "the first cell's link and data and the parameters of the rest of \
                          the segment are fresh names";

fn step(l: &ListDecl, params: Option<&[ListParam]>, errs: &mut Vec<Diagnostic>) {
    let before = errs.len();
    let s = &l.step;
    let (p, x, y) = (&l.name.name, &l.from.name, &l.to.name);
    if s.cell.at.name != *x {
        errs.push(
            Diagnostic::error(
                format!("the step case of `{p}` must begin with a cell at `{x}`"),
                s.cell.at.span,
            )
            .with_note(format!(
                "the step case is a first cell and the rest: `{x} |-> (z, d) * {p}(z, {y})`"
            )),
        );
    }
    let mut bound: BTreeMap<&str, Span> = BTreeMap::new();
    bound.insert(x, l.from.span);
    bound.insert(y, l.to.span);
    for q in &l.params {
        bound.entry(&q.name.name).or_insert(q.name.span);
    }
    fresh(&s.cell.next, &mut bound, STEP_FRESH, errs);
    fresh(&s.cell.data, &mut bound, STEP_FRESH, errs);
    let rest = rest(l, &mut bound, errs);
    let (Some(params), Some(rest), true) = (params, rest, errs.len() == before) else {
        return;
    };
    let d = &s.cell.data.name;
    let laws: Vec<ParamLaws> = (params.iter().zip(&l.params).zip(rest))
        .map(|((p, decl), p1)| ParamLaws {
            param: p,
            names: vec![&p.name, p1],
            laws: step_laws(p.kind, &p.name, p1, d),
            decl: decl.span,
        })
        .collect();
    check_laws(Case::Step, &s.laws, &laws, s.span, errs);
}

/// Reports `n` if `bound` already holds it, and binds it.
fn fresh<'a>(
    n: &'a Ident,
    bound: &mut BTreeMap<&'a str, Span>,
    note: &str,
    errs: &mut Vec<Diagnostic>,
) {
    match bound.get(n.name.as_str()) {
        Some(first) => errs.push(
            Diagnostic::error(format!("`{}` is already bound", n.name), n.span)
                .with_secondary(*first, "bound here")
                .with_note(note),
        ),
        None => {
            bound.insert(&n.name, n.span);
        }
    }
}

/// Reports a segment of another predicate than the domain's; whether it is the domain's.
fn pred_name(used: &Ident, list: &Ident, errs: &mut Vec<Diagnostic>) -> bool {
    let ok = used.name == list.name;
    if !ok {
        errs.push(
            Diagnostic::error(
                format!(
                    "unknown list predicate `{}` (this domain's is `{}`)",
                    used.name, list.name
                ),
                used.span,
            )
            .with_secondary(list.span, "the domain's list predicate"),
        );
    }
    ok
}

/// The term as a plain name, if it is one.
fn plain_name(t: &PureTerm) -> Option<&Ident> {
    match (&t.first.kind, t.rest.is_empty()) {
        (PureAtomKind::Name(n), true) => Some(n),
        _ => None,
    }
}

/// Checks the recursive call of the step case; its parameters' names when well-formed.
fn rest<'a>(
    l: &'a ListDecl,
    bound: &mut BTreeMap<&'a str, Span>,
    errs: &mut Vec<Diagnostic>,
) -> Option<Vec<&'a str>> {
    let before = errs.len();
    let (r, z, y) = (&l.step.rest, &l.step.cell.next.name, &l.to.name);
    pred_name(&r.pred, &l.name, errs);
    if r.from.name != *z || r.to.name != *y {
        errs.push(Diagnostic::error(
            format!(
                "the recursive call must be on `({z}, {y})`: from the first cell's link to the end"
            ),
            join(r.from.span, r.to.span),
        ));
    }
    if r.args.len() != l.params.len() {
        errs.push(Diagnostic::error(
            format!(
                "`{}` has {} parameter(s), the recursive call gives {}",
                l.name.name,
                l.params.len(),
                r.args.len()
            ),
            r.span,
        ));
        return None;
    }
    let mut out = vec![];
    for a in &r.args {
        match plain_name(a) {
            Some(n) => {
                fresh(n, bound, STEP_FRESH, errs);
                out.push(n.name.as_str());
            }
            None => errs.push(Diagnostic::error(
                format!(
                    "`{}` is not a name: the recursive call takes one fresh name per parameter",
                    term_text(a)
                ),
                a.span,
            )),
        }
    }
    (errs.len() == before).then_some(out)
}

// ------------------------------------------------ laws

/// The two cases of a list predicate's definition.
#[derive(Copy, Clone)]
enum Case {
    Base,
    Step,
}

impl Case {
    fn name(self) -> &'static str {
        match self {
            Case::Base => "base",
            Case::Step => "step",
        }
    }
}

/// One parameter's expected laws in one case.
struct ParamLaws<'a> {
    param: &'a ListParam,
    /// The names that make a conjunct this parameter's (`P`, and `P1` in the step case).
    names: Vec<&'a str>,
    laws: Vec<Law>,
    /// The parameter's declaration.
    decl: Span,
}

impl ParamLaws<'_> {
    /// `the step law of multiset parameter `S` is `S <= S1 + {d}``, and the like.
    fn describe(&self, case: Case) -> String {
        let (kind, p, c) = (self.param.kind.name(), &self.param.name, case.name());
        let texts: Vec<String> = self
            .laws
            .iter()
            .map(|l| format!("`{}`", law_text(l)))
            .collect();
        match texts.as_slice() {
            [] => format!("{kind} parameter `{p}` has no {c} law"),
            [one] => format!("the {c} law of {kind} parameter `{p}` is {one}"),
            [init @ .., last] => format!(
                "the {c} laws of {kind} parameter `{p}` are {} and {last}",
                init.join(", ")
            ),
        }
    }
}

/// Whether the conjunct `c` is the law `l`, an equality read both ways.
fn is_law(c: &LawDecl, l: &Law) -> bool {
    let (a, op, b) = (term_text(&c.left), c.op.text(), term_text(&c.right));
    op == l[1] && ((a == l[0] && b == l[2]) || (c.op == LawOp::Eq && a == l[2] && b == l[0]))
}

/// The atoms of a term, in order.
fn atoms(t: &PureTerm) -> impl Iterator<Item = &PureAtom> {
    std::iter::once(&t.first).chain(t.rest.iter().map(|(_, a)| a))
}

/// The names a conjunct mentions.
fn mentions(c: &LawDecl) -> BTreeSet<&str> {
    let mut out = BTreeSet::new();
    for a in atoms(&c.left).chain(atoms(&c.right)) {
        match &a.kind {
            PureAtomKind::Name(n) | PureAtomKind::Set(Some(n)) => out.insert(n.name.as_str()),
            PureAtomKind::Apply { arg, .. } => out.insert(arg.name.as_str()),
            PureAtomKind::Number(_) | PureAtomKind::Set(None) => false,
        };
    }
    out
}

/// The conjuncts of one case matched so far: each law found, by (parameter, law) index, at
/// its first conjunct; the parameters a wrong conjunct was attributed to.
#[derive(Default)]
struct Tally {
    matched: BTreeMap<(usize, usize), Span>,
    wrong: BTreeSet<usize>,
}

/// Checks the conjuncts of one case against the parameters' laws: each law exactly once, no
/// other conjunct. A wrong conjunct is attributed to the first parameter it names.
fn check_laws(
    case: Case,
    conjuncts: &[LawDecl],
    params: &[ParamLaws],
    at: Span,
    errs: &mut Vec<Diagnostic>,
) {
    let mut tally = Tally::default();
    for law in conjuncts {
        conjunct(case, law, params, &mut tally, errs);
    }
    for (i, p) in params.iter().enumerate() {
        missing_laws(case, (i, p), &tally, at, errs);
    }
}

/// Matches one conjunct: a law (reported if given before), or a wrong or unexpected one.
fn conjunct(
    case: Case,
    law: &LawDecl,
    params: &[ParamLaws],
    tally: &mut Tally,
    errs: &mut Vec<Diagnostic>,
) {
    let (c, text) = (case.name(), law_text_ast(law));
    let found = (params.iter().enumerate())
        .find_map(|(i, p)| p.laws.iter().position(|l| is_law(law, l)).map(|j| (i, j)));
    if let Some(k) = found {
        match tally.matched.get(&k) {
            Some(first) => errs.push(
                Diagnostic::error(format!("the {c} law `{text}` is given twice"), law.span)
                    .with_secondary(*first, "first given here"),
            ),
            None => {
                tally.matched.insert(k, law.span);
            }
        }
        return;
    }
    let named = mentions(law);
    let owner =
        (params.iter().enumerate()).find(|(_, p)| p.names.iter().any(|n| named.contains(n)));
    let Some((i, p)) = owner else {
        errs.push(unexpected_law(case, law, params));
        return;
    };
    tally.wrong.insert(i);
    errs.push(
        Diagnostic::error(
            format!("wrong {c} law `{text}`: {}", p.describe(case)),
            law.span,
        )
        .with_secondary(p.decl, "the parameter"),
    );
}

/// Reports the laws of parameter `i` no conjunct gave, at the case `at`, unless a wrong
/// conjunct of that parameter already said what its laws are.
fn missing_laws(
    case: Case,
    (i, p): (usize, &ParamLaws),
    tally: &Tally,
    at: Span,
    errs: &mut Vec<Diagnostic>,
) {
    let missing: Vec<&Law> = (p.laws.iter().enumerate())
        .filter(|(j, _)| !tally.matched.contains_key(&(i, *j)))
        .map(|(_, l)| l)
        .collect();
    if missing.is_empty() || tally.wrong.contains(&i) {
        return;
    }
    let c = case.name();
    let what = match missing.as_slice() {
        [one] if p.laws.len() > 1 => format!("missing {c} law `{}`", law_text(one)),
        _ => format!("missing {c} law"),
    };
    errs.push(
        Diagnostic::error(format!("{what}: {}", p.describe(case)), at)
            .with_secondary(p.decl, "the parameter"),
    );
}

fn unexpected_law(case: Case, law: &LawDecl, params: &[ParamLaws]) -> Diagnostic {
    let c = case.name();
    let all: Vec<String> = (params.iter())
        .flat_map(|p| p.laws.iter().map(|l| format!("`{}`", law_text(l))))
        .collect();
    let note = if all.is_empty() {
        format!("this list's {c} case has no laws")
    } else {
        format!("the {c} laws of this list: {}", all.join(", "))
    };
    Diagnostic::error(
        format!(
            "unexpected {c} law `{}`: it names no parameter",
            law_text_ast(law)
        ),
        law.span,
    )
    .with_note(note)
}

// ------------------------------------------------ the lemma

fn lemmas(d: &SpatialDecl, list: Option<&List>, errs: &mut Vec<Diagnostic>) -> Vec<Lemma> {
    for l in d.lemmas.iter().skip(1) {
        errs.push(
            Diagnostic::error(
                format!("a second lemma in spatial domain `{}`", d.name.name),
                l.keyword,
            )
            .with_secondary(d.lemmas[0].keyword, "the first")
            .with_note("a domain has at most one lemma, the composition of two segments"),
        );
    }
    let Some(lemma) = d.lemmas.first() else {
        return vec![];
    };
    if let Some(List {
        decl,
        params: Some(params),
    }) = list
    {
        compose(lemma, decl, params, errs);
    }
    vec![Lemma::Compose]
}

/// The side's pieces, if they are all segments.
fn segments(side: &SideDecl) -> Option<Vec<&SegmentDecl>> {
    (side.pieces.iter())
        .map(|p| match p {
            PieceDecl::Segment(s) => Some(s),
            PieceDecl::Cell(_) => None,
        })
        .collect()
}

/// Checks that the lemma is the composition of the list's segments.
fn compose(m: &LemmaDecl, l: &ListDecl, params: &[ListParam], errs: &mut Vec<Diagnostic>) {
    let p = &l.name.name;
    let expected = compose_ir(p, params, &IrNames::new(params));
    let wrong = |at: Span, what: String| {
        Diagnostic::error(
            format!("the lemma is not the composition of `{p}`: {what}"),
            at,
        )
        .with_note(format!("the composition lemma of `{p}` is `{expected}`"))
    };
    let (left, right) = (segments(&m.left), segments(&m.right));
    let (Some([a, b]), Some([c])) = (left.as_deref(), right.as_deref()) else {
        let at = match left.as_deref() {
            Some([_, _]) => m.right.span,
            _ => m.left.span,
        };
        errs.push(wrong(at, "it composes two segments into one".into()));
        return;
    };
    let mut ok = true;
    for s in [a, b, c] {
        ok &= pred_name(&s.pred, &l.name, errs);
    }
    for s in [a, b, c]
        .into_iter()
        .filter(|s| s.args.len() != params.len())
    {
        let (n, given) = (params.len(), s.args.len());
        errs.push(wrong(
            s.span,
            format!("`{p}` has {n} parameter(s), this segment gives {given}"),
        ));
        ok = false;
    }
    if !ok {
        return;
    }
    let found = (lemma_chain(a, b, c).or_else(|| lemma_names(a, b)))
        .map_or_else(|| lemma_sums(params, [a, b, c]), |e| vec![e]);
    errs.extend(found.into_iter().map(|(at, what)| wrong(at, what)));
}

/// Each parameter of the conclusion that is not the composition of the two segments'.
fn lemma_sums(params: &[ListParam], [a, b, c]: [&SegmentDecl; 3]) -> Vec<(Span, String)> {
    let pairs = a.args.iter().zip(&b.args);
    let mut out = vec![];
    for ((q, (x, y)), t) in params.iter().zip(pairs).zip(&c.args) {
        let want = format!("{} {} {}", term_text(x), compose_op(q.kind), term_text(y));
        if term_text(t) != want {
            let kind = q.kind.name();
            let what = format!(
                "the composition of {kind} parameter `{}` is `{want}`",
                q.name
            );
            out.push((t.span, what));
        }
    }
    out
}

/// The first break in the chain `a(x, y) * b(y, z) -> c(x, z)`, with `x`, `y`, `z` distinct.
fn lemma_chain(a: &SegmentDecl, b: &SegmentDecl, c: &SegmentDecl) -> Option<(Span, String)> {
    let (x, y, z) = (&a.from.name, &a.to.name, &b.to.name);
    if b.from.name != *y {
        let what = format!("the second segment starts where the first ends, at `{y}`");
        return Some((b.from.span, what));
    }
    if x == y || y == z || x == z {
        let what = "the segments join three distinct places".to_string();
        return Some((join(a.from.span, b.to.span), what));
    }
    if c.from.name != *x || c.to.name != *z {
        let what = format!("it concludes the segment from `{x}` to `{z}`");
        return Some((join(c.from.span, c.to.span), what));
    }
    None
}

/// The first parameter of the left side that is not a fresh name.
fn lemma_names(a: &SegmentDecl, b: &SegmentDecl) -> Option<(Span, String)> {
    let mut bound: BTreeSet<&str> = [&a.from.name, &a.to.name, &b.to.name]
        .into_iter()
        .map(String::as_str)
        .collect();
    for t in a.args.iter().chain(&b.args) {
        let Some(n) = plain_name(t) else {
            let what = format!(
                "`{}` is not a name: the segments take one fresh name per parameter",
                term_text(t)
            );
            return Some((t.span, what));
        };
        if !bound.insert(&n.name) {
            return Some((n.span, format!("`{}` is already bound", n.name)));
        }
    }
    None
}

// ------------------------------------------------ abstraction rules

fn rules(d: &SpatialDecl, errs: &mut Vec<Diagnostic>) -> Vec<AbstractionRule> {
    if d.rules.is_empty() {
        errs.push(
            Diagnostic::error(
                format!("spatial domain `{}` has no abstraction rule", d.name.name),
                d.name.span,
            )
            .with_note(
                "a domain needs at least one rule, e.g. \
                 `abstract lists: ls(x, y) * ls(y, z) -> ls(x, z) when fresh(y);`",
            ),
        );
    }
    let names: Vec<&Ident> = d.rules.iter().map(|r| &r.name).collect();
    dup_names(&names, "abstraction rule", errs);
    let pred = d.lists.first().map(|l| &l.name);
    let mut out: Vec<(AbstractionRule, &Ident)> = vec![];
    for r in &d.rules {
        let Some(rule) = rule(r, pred, errs) else {
            continue;
        };
        let same =
            |o: &&(AbstractionRule, &Ident)| (o.0.first, o.0.second) == (rule.first, rule.second);
        if let Some((_, first)) = out.iter().find(same) {
            errs.push(
                Diagnostic::error(
                    format!(
                        "rule `{}` folds the same pieces as rule `{}`: {}",
                        r.name.name,
                        first.name,
                        pieces_text(rule.first, rule.second)
                    ),
                    r.name.span,
                )
                .with_secondary(first.span, "the earlier rule"),
            );
            continue;
        }
        out.push((rule, &r.name));
    }
    out.into_iter().map(|(r, _)| r).collect()
}

/// `a cell, then a segment`, and the like.
fn pieces_text(first: Piece, second: Piece) -> String {
    let name = |p: Piece| match p {
        Piece::Cell => "a cell",
        Piece::List => "a segment",
    };
    format!("{}, then {}", name(first), name(second))
}

/// Where a piece starts and where it points.
fn ends(p: &PieceDecl) -> (&Ident, &Ident) {
    match p {
        PieceDecl::Cell(c) => (&c.at, &c.next),
        PieceDecl::Segment(s) => (&s.from, &s.to),
    }
}

fn piece(p: &PieceDecl) -> Piece {
    match p {
        PieceDecl::Cell(_) => Piece::Cell,
        PieceDecl::Segment(_) => Piece::List,
    }
}

fn rule(r: &RuleDecl, pred: Option<&Ident>, errs: &mut Vec<Diagnostic>) -> Option<AbstractionRule> {
    let before = errs.len();
    let [first, second] = r.left.pieces.as_slice() else {
        errs.push(
            Diagnostic::error(
                format!("abstraction rule `{}` must fold two pieces", r.name.name),
                r.left.span,
            )
            .with_note(
                "a rule folds a cell or a segment at `x` pointing to `y`, then one at `y` \
                 pointing to `z`, e.g. `x |-> (y, d) * ls(y, z) -> ls(x, z)`",
            ),
        );
        return None;
    };
    let ((x, y), (y2, z)) = (ends(first), ends(second));
    for p in [first, second] {
        if let PieceDecl::Segment(s) = p {
            rule_segment(s, pred, errs);
        }
    }
    rule_chain(r, [x, y, y2, z], [first, second], errs);
    rule_right(r, pred, x, z, errs);
    let values: Vec<&Ident> = [first, second]
        .into_iter()
        .filter_map(|p| match p {
            PieceDecl::Cell(c) => Some(&c.data),
            PieceDecl::Segment(_) => None,
        })
        .collect();
    let (untracked, distinct) = conditions(r, x, y, &values, errs);
    (errs.len() == before).then(|| AbstractionRule {
        name: r.name.name.clone(),
        first: piece(first),
        second: piece(second),
        untracked,
        distinct,
    })
}

/// A segment of a rule: the domain's predicate, no parameters.
fn rule_segment(s: &SegmentDecl, pred: Option<&Ident>, errs: &mut Vec<Diagnostic>) {
    if let Some(p) = pred {
        pred_name(&s.pred, p, errs);
    }
    if let (Some(a), Some(b)) = (s.args.first(), s.args.last()) {
        errs.push(
            Diagnostic::error(
                "abstraction rules name segments without parameters",
                join(a.span, b.span),
            )
            .with_note(format!(
                "write `{}({}, {})`: a fold composes the parameters by the kinds' laws",
                s.pred.name, s.from.name, s.to.name
            )),
        );
    }
}

/// The pieces chain `x` to `y` to `z`, three distinct names, and the cells' data values are
/// fresh names.
fn rule_chain(
    r: &RuleDecl,
    [x, y, y2, z]: [&Ident; 4],
    pieces: [&PieceDecl; 2],
    errs: &mut Vec<Diagnostic>,
) {
    if y2.name != y.name {
        errs.push(Diagnostic::error(
            format!(
                "the second piece must start at `{}`, where the first points",
                y.name
            ),
            y2.span,
        ));
        return;
    }
    if x.name == y.name || y.name == z.name || x.name == z.name {
        errs.push(Diagnostic::error(
            format!(
                "the pieces of rule `{}` must join three distinct places",
                r.name.name
            ),
            r.left.span,
        ));
        return;
    }
    let mut bound: BTreeMap<&str, Span> = BTreeMap::new();
    for n in [x, y, z] {
        bound.insert(&n.name, n.span);
    }
    for p in pieces {
        if let PieceDecl::Cell(c) = p {
            let note = "the data values of a rule's cells are fresh names";
            fresh(&c.data, &mut bound, note, errs);
        }
    }
}

/// The right side is the segment from `x` to `z`.
fn rule_right(
    r: &RuleDecl,
    pred: Option<&Ident>,
    x: &Ident,
    z: &Ident,
    errs: &mut Vec<Diagnostic>,
) {
    let ok = match r.right.pieces.as_slice() {
        [PieceDecl::Segment(s)] => {
            rule_segment(s, pred, errs);
            s.from.name == x.name && s.to.name == z.name
        }
        _ => false,
    };
    if !ok {
        let p = pred.map_or("ls", |p| p.name.as_str());
        let (x, z) = (&x.name, &z.name);
        errs.push(
            Diagnostic::error(
                format!(
                    "abstraction rule `{}` must fold into one segment from `{x}` to `{z}`, `{p}({x}, {z})`",
                    r.name.name
                ),
                r.right.span,
            )
            .with_note(
                "a rule whose right side is not one segment from the first address to the \
                 last does not shrink the heap",
            ),
        );
    }
}

/// Checks the `when` conditions: `fresh(y)` required, `x !in T` optional, `d !in T` for the
/// value `d` of every cell of the rule or of none; nothing else, nothing twice. Returns
/// whether the address guard and the value guard are given.
fn conditions(
    r: &RuleDecl,
    x: &Ident,
    y: &Ident,
    values: &[&Ident],
    errs: &mut Vec<Diagnostic>,
) -> (bool, bool) {
    let (x, y) = (&x.name, &y.name);
    let mut seen: BTreeMap<String, Span> = BTreeMap::new();
    let (mut fresh, mut untracked) = (false, false);
    let mut guarded: Vec<&str> = vec![];
    for c in &r.conditions {
        let text = condition_text(c);
        if let Some(first) = seen.get(&text) {
            errs.push(
                Diagnostic::error(format!("condition `{text}` given twice"), c.span)
                    .with_secondary(*first, "first given here"),
            );
            continue;
        }
        seen.insert(text.clone(), c.span);
        match &c.kind {
            ConditionKind::Apply { func, arg } if func.name == "fresh" && arg.name == *y => {
                fresh = true;
            }
            ConditionKind::NotIn { elem, set } if elem.name == *x && set.name == "T" => {
                untracked = true;
            }
            ConditionKind::NotIn { elem, set }
                if set.name == "T" && values.iter().any(|v| v.name == elem.name) =>
            {
                guarded.push(&elem.name);
            }
            _ => {
                let mut known = format!("`fresh({y})` (required), `{x} !in T`");
                for v in values {
                    known.push_str(&format!(", `{} !in T`", v.name));
                }
                errs.push(
                    Diagnostic::error(format!("unknown condition `{text}`"), c.span)
                        .with_note(format!("known: {known} (optional)")),
                )
            }
        }
    }
    if !fresh {
        errs.push(
            Diagnostic::error(
                format!(
                    "an abstraction rule must fold through a fresh existential: add `fresh({y})`"
                ),
                r.name.span,
            )
            .with_note(format!(
                "otherwise the rule does not shrink the heap soundly: `{y}` may be a program \
                 variable or named elsewhere, and the fold would forget where it is"
            )),
        );
    }
    let distinct = !guarded.is_empty();
    if let Some(v) = values
        .iter()
        .find(|v| distinct && !guarded.contains(&v.name.as_str()))
    {
        errs.push(
            Diagnostic::error(
                format!(
                    "the value guard must name every cell's value: add `{} !in T`",
                    v.name
                ),
                r.name.span,
            )
            .with_note("a rule keeps either every cell holding a kept value, or none"),
        );
    }
    (untracked, distinct)
}

// ---------------------------------------------------------------- printing

fn atom_text(a: &PureAtom) -> String {
    match &a.kind {
        PureAtomKind::Name(n) => n.name.clone(),
        PureAtomKind::Number(n) => n.digits.clone(),
        PureAtomKind::Set(None) => "{}".into(),
        PureAtomKind::Set(Some(n)) => format!("{{{}}}", n.name),
        PureAtomKind::Apply { func, arg } => format!("{}({})", func.name, arg.name),
    }
}

/// A pure term as written, in canonical spacing: `S1 + {d}`.
pub fn term_text(t: &PureTerm) -> String {
    let mut out = atom_text(&t.first);
    for (op, a) in &t.rest {
        out.push_str(&format!(" {} {}", op.text(), atom_text(a)));
    }
    out
}

fn law_text_ast(l: &LawDecl) -> String {
    format!(
        "{} {} {}",
        term_text(&l.left),
        l.op.text(),
        term_text(&l.right)
    )
}

/// A segment as the spec language writes it: `P(a, b)` or `P(a, b; t, ...)`.
pub fn segment_text(pred: &str, from: &str, to: &str, args: &[String]) -> String {
    if args.is_empty() {
        format!("{pred}({from}, {to})")
    } else {
        format!("{pred}({from}, {to}; {})", args.join(", "))
    }
}

fn piece_text(p: &PieceDecl) -> String {
    match p {
        PieceDecl::Cell(c) => format!("{} |-> ({}, {})", c.at.name, c.next.name, c.data.name),
        PieceDecl::Segment(s) => {
            let args: Vec<String> = s.args.iter().map(term_text).collect();
            segment_text(&s.pred.name, &s.from.name, &s.to.name, &args)
        }
    }
}

fn side_text(s: &SideDecl) -> String {
    let pieces: Vec<String> = s.pieces.iter().map(piece_text).collect();
    pieces.join(" * ")
}

fn condition_text(c: &ConditionDecl) -> String {
    match &c.kind {
        ConditionKind::Apply { func, arg } => format!("{}({})", func.name, arg.name),
        ConditionKind::NotIn { elem, set } => format!("{} !in {}", elem.name, set.name),
    }
}

/// ` && L1 && L2` for the laws.
fn conjuncts(laws: impl Iterator<Item = String>) -> String {
    laws.map(|l| format!(" && {l}")).collect()
}

/// A list member in the canonical layout, the two cases on lines of their own.
fn list_text(l: &ListDecl) -> String {
    let params: Vec<String> = (l.params.iter())
        .map(|p| match &p.bound {
            Some(n) => format!("{}: {}({})", p.name.name, p.kind.name, n.digits),
            None => format!("{}: {}", p.name.name, p.kind.name),
        })
        .collect();
    let (b, s) = (&l.base, &l.step);
    let rest = piece_text(&PieceDecl::Segment(s.rest.clone()));
    let cell = piece_text(&PieceDecl::Cell(s.cell.clone()));
    format!(
        "  list {} :=\n      {} == {}{}\n    | {cell} * {rest}{};\n",
        segment_text(&l.name.name, &l.from.name, &l.to.name, &params),
        b.left.name,
        b.right.name,
        conjuncts(b.laws.iter().map(law_text_ast)),
        conjuncts(s.laws.iter().map(law_text_ast)),
    )
}

/// A domain's AST in the canonical layout: `symbols`, the list, the lemmas, then the rules.
pub fn print(d: &SpatialDecl) -> String {
    let mut out = format!("spatial {} {{\n", d.name.name);
    for s in &d.symbols {
        let kinds: Vec<&str> = s.kinds.iter().map(|k| k.name.as_str()).collect();
        out.push_str(&format!("  symbols {};\n", kinds.join(", ")));
    }
    for l in &d.lists {
        out.push_str(&list_text(l));
    }
    for m in &d.lemmas {
        out.push_str(&format!(
            "  lemma {} -> {};\n",
            side_text(&m.left),
            side_text(&m.right)
        ));
    }
    for r in &d.rules {
        let when: Vec<String> = r.conditions.iter().map(condition_text).collect();
        let when = match when.is_empty() {
            true => String::new(),
            false => format!(" when {}", when.join(", ")),
        };
        out.push_str(&format!(
            "  abstract {}: {} -> {}{when};\n",
            r.name.name,
            side_text(&r.left),
            side_text(&r.right)
        ));
    }
    out.push_str("}\n");
    out
}

/// The names a checked domain is printed with: `x`, `y`, `z`, `d`, `e` and each parameter's
/// name followed by `1` and `2`, each made fresh (with `_` appended) against the parameters'
/// names and the others.
struct IrNames {
    x: String,
    y: String,
    z: String,
    d: String,
    e: String,
    one: Vec<String>,
    two: Vec<String>,
}

impl IrNames {
    fn new(params: &[ListParam]) -> IrNames {
        let mut taken: BTreeSet<String> = params.iter().map(|p| p.name.clone()).collect();
        let mut fresh = |base: String| {
            let mut n = base;
            while !taken.insert(n.clone()) {
                n.push('_');
            }
            n
        };
        let [x, y, z, d, e] = ["x", "y", "z", "d", "e"].map(|b| fresh(b.to_string()));
        let one = params
            .iter()
            .map(|p| fresh(format!("{}1", p.name)))
            .collect();
        let two = params
            .iter()
            .map(|p| fresh(format!("{}2", p.name)))
            .collect();
        IrNames {
            x,
            y,
            z,
            d,
            e,
            one,
            two,
        }
    }
}

/// The composition lemma of the list predicate `p` in source syntax, without `lemma`.
fn compose_ir(p: &str, params: &[ListParam], n: &IrNames) -> String {
    let sums: Vec<String> = (params.iter().zip(n.one.iter().zip(&n.two)))
        .map(|(q, (a, b))| format!("{a} {} {b}", compose_op(q.kind)))
        .collect();
    format!(
        "{} * {} -> {}",
        segment_text(p, &n.x, &n.y, &n.one),
        segment_text(p, &n.y, &n.z, &n.two),
        segment_text(p, &n.x, &n.z, &sums)
    )
}

/// A checked list predicate with the definition its kinds give, in source syntax.
fn list_ir(l: &ListPredicate, n: &IrNames, indent: &str) -> String {
    let params: Vec<String> = (l.params.iter())
        .map(|p| format!("{}: {}", p.name, kind_text(p.kind)))
        .collect();
    let base = (l.params.iter()).flat_map(|p| base_laws(p.kind, &p.name));
    let step =
        (l.params.iter().zip(&n.one)).flat_map(|(p, p1)| step_laws(p.kind, &p.name, p1, &n.d));
    format!(
        "{indent}  list {} :=\n{indent}      {} == {}{}\n{indent}    | {} |-> ({}, {}) * {}{};\n",
        segment_text(&l.name, &n.x, &n.y, &params),
        n.x,
        n.y,
        conjuncts(base.map(|l| law_text(&l))),
        n.x,
        n.z,
        n.d,
        segment_text(&l.name, &n.z, &n.y, &n.one),
        conjuncts(step.map(|l| law_text(&l))),
    )
}

/// A checked rule in source syntax, without `abstract NAME:` and `;`.
fn rule_ir(r: &AbstractionRule, p: &str, n: &IrNames) -> String {
    let piece = |k: Piece, from: &str, to: &str, data: &str| match k {
        Piece::Cell => format!("{from} |-> ({to}, {data})"),
        Piece::List => segment_text(p, from, to, &[]),
    };
    let mut guard = if r.untracked {
        format!(", {} !in T", n.x)
    } else {
        String::new()
    };
    for (k, data) in [(r.first, &n.d), (r.second, &n.e)] {
        if r.distinct && k == Piece::Cell {
            guard.push_str(&format!(", {data} !in T"));
        }
    }
    format!(
        "{} * {} -> {} when fresh({}){guard}",
        piece(r.first, &n.x, &n.y, &n.d),
        piece(r.second, &n.y, &n.z, &n.e),
        segment_text(p, &n.x, &n.z, &[]),
        n.y
    )
}

/// A checked domain in source syntax (the list's definition and the lemma as its kinds give
/// them), indented by `indent`; loading the text gives the same domain.
pub fn print_ir(s: &Spatial, indent: &str) -> String {
    let n = IrNames::new(&s.list.params);
    let p = &s.list.name;
    let mut out = format!("{indent}spatial {} {{\n", s.name);
    let symbols: Vec<&str> = s.symbols.iter().map(|k| k.name()).collect();
    out.push_str(&format!("{indent}  symbols {};\n", symbols.join(", ")));
    out.push_str(&list_ir(&s.list, &n, indent));
    for l in &s.lemmas {
        let text = match l {
            Lemma::Compose => compose_ir(p, &s.list.params, &n),
        };
        out.push_str(&format!("{indent}  lemma {text};\n"));
    }
    for r in &s.rules {
        out.push_str(&format!(
            "{indent}  abstract {}: {};\n",
            r.name,
            rule_ir(r, p, &n)
        ));
    }
    out.push_str(&format!("{indent}}}\n"));
    out
}

/// The spatial part of `spec show`: each domain in source syntax, in the order the engine
/// tries them; nothing when the spec has no domain.
pub fn show(spec: &crate::ir::Spec) -> String {
    if spec.spatial.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "spatial domains (seed 001's separation-logic engine, tried in this order):\n",
    );
    for s in &spec.spatial {
        out.push_str(&print_ir(s, "  "));
    }
    out
}

#[cfg(test)]
mod tests {
    //! The checks of spatial domains, each asserting the position, the spanned text and the
    //! message of every diagnostic in order; the lowering; the printers.
    use super::*;
    use crate::testing::{e, errors};

    fn one(text: &str) -> Spatial {
        let spec = crate::load(text).unwrap_or_else(|d| panic!("{d:#?}"));
        assert_eq!(spec.spatial.len(), 1);
        spec.spatial[0].clone()
    }

    /// A domain whose list member is `list` (on line 3) and whose other members follow it.
    fn domain(list: &str, rest: &str) -> String {
        format!("spatial m {{\n  symbols values;\n{list}\n{rest}\n}}\n")
    }

    const RULE: &str = "  abstract r: ls(x, y) * ls(y, z) -> ls(x, z) when fresh(y);";
    const MLS: &str = "  list ls(x, y; S: multiset) := x == y && S == {} | x |-> (z, d) * ls(z, y; S1) && S <= S1 + {d};";

    const LIBRARY: &str = include_str!("../../library/specs/spatial.shape");

    fn rule(name: &str, first: Piece, second: Piece) -> AbstractionRule {
        AbstractionRule {
            name: name.into(),
            first,
            second,
            untracked: true,
            distinct: false,
        }
    }

    fn param(name: &str, kind: ParamKind) -> ListParam {
        ListParam {
            name: name.into(),
            kind,
        }
    }

    #[test]
    fn the_librarys_domains_lower() {
        let spec = crate::load(LIBRARY).unwrap_or_else(|d| panic!("{d:#?}"));
        let rules = |p: &str| {
            let _ = p;
            vec![
                rule("cells", Piece::Cell, Piece::Cell),
                rule("cell_list", Piece::Cell, Piece::List),
                rule("list_cell", Piece::List, Piece::Cell),
                rule("lists", Piece::List, Piece::List),
            ]
        };
        let symbols = vec![SymbolKind::Values, SymbolKind::Addresses];
        let mls = Spatial {
            name: "mls".into(),
            symbols: symbols.clone(),
            list: ListPredicate {
                name: "ls".into(),
                params: vec![
                    param("S", ParamKind::Multiset),
                    param("C", ParamKind::Counts),
                ],
            },
            lemmas: vec![Lemma::Compose],
            rules: rules("ls"),
        };
        let sls = Spatial {
            name: "sls".into(),
            symbols,
            list: ListPredicate {
                name: "sls".into(),
                params: vec![
                    param("S", ParamKind::Multiset),
                    param("C", ParamKind::Counts),
                    param("I", ParamKind::Interval),
                ],
            },
            lemmas: vec![Lemma::Compose],
            rules: rules("sls"),
        };
        let mut keyed = mls.clone();
        keyed.name = "keyed".into();
        for r in &mut keyed.rules {
            r.distinct = r.first == Piece::Cell || r.second == Piece::Cell;
        }
        assert_eq!(spec.spatial, [mls, sls, keyed]);
        let s = &spec.spatial[1];
        assert!(s.composes() && s.has_symbols(SymbolKind::Addresses));
        assert_eq!(
            s.param(ParamKind::Interval).map(|p| p.name.as_str()),
            Some("I")
        );
        assert_eq!(s.param(ParamKind::Length(1)), None);
        let r = s.rule(Piece::List, Piece::Cell).expect("a rule");
        assert_eq!(r.name, "list_cell");
    }

    #[test]
    fn a_minimal_domain_lowers_with_its_choices_of_names() {
        // Names are the user's, symbols sorted, `==` read both ways, laws in any order, no
        // lemma, a rule without the guard.
        let text = "spatial len {
  symbols addresses, values;
  list seg(a, b; L: length(3), lo: interval) :=
      b == a && 0 == L
    | a |-> (n, v) * seg(n, b; L1, lo1) && hi(lo1) == hi(lo) && v <= lo(lo1) && L <= L1 + 1
      && v == lo(lo);
  abstract fold: a |-> (b, v) * seg(b, c) -> seg(a, c) when fresh(b);
}";
        let s = one(text);
        assert_eq!(s.symbols, [SymbolKind::Values, SymbolKind::Addresses]);
        assert_eq!(
            s.list.params,
            [
                param("L", ParamKind::Length(3)),
                param("lo", ParamKind::Interval)
            ]
        );
        assert!(s.lemmas.is_empty() && !s.composes());
        assert_eq!(
            s.rules,
            [AbstractionRule {
                name: "fold".into(),
                first: Piece::Cell,
                second: Piece::List,
                untracked: false,
                distinct: false
            }]
        );
    }

    #[test]
    fn spatial_words_stay_identifiers_elsewhere() {
        let text = "predicate symbols[list](lemma) := list(lemma, lemma);\n\
                    invariant when[fresh, lo, hi, T, values, multiset] := true;\n\
                    structure in[list] { family lemma = symbols[list]; }\n";
        assert_eq!(errors(text), []);
        assert!(crate::parser::parse("predicate spatial[f](v) := true;").is_err());
        // Inside a domain, the words are names too: a parameter called `lo`, a predicate
        // called `list`, a location called `T`.
        let text = "spatial s { symbols values;
  list list(T, when; lo: interval) := T == when | T |-> (in, d) * list(in, when; lo1)
    && lo(lo) == d && d <= lo(lo1) && hi(lo1) == hi(lo);
  abstract lemma: list(T, y) * list(y, z) -> list(T, z) when fresh(y), T !in T; }";
        let s = one(text);
        assert_eq!(s.list.name, "list");
        assert!(s.rules[0].untracked);
    }

    #[test]
    fn symbols_exactly_once_and_known() {
        let text = "spatial a { symbols values, heap, values; symbols addresses;\n\
                    list ls(x, y) := x == y | x |-> (z, d) * ls(z, y);\n\
                    abstract r: ls(x, y) * ls(y, z) -> ls(x, z) when fresh(y); }\n\
                    spatial b { list ls(x, y) := x == y | x |-> (z, d) * ls(z, y);\n\
                    abstract r: ls(x, y) * ls(y, z) -> ls(x, z) when fresh(y); }\n";
        assert_eq!(
            errors(text),
            [
                e("1:29", "heap", "unknown symbol kind `heap`"),
                e("1:35", "values", "symbol kind `values` listed twice"),
                e(
                    "1:43",
                    "symbols",
                    "`symbols` given twice in spatial domain `a`"
                ),
                e("4:9", "b", "spatial domain `b` has no `symbols` statement"),
            ]
        );
    }

    #[test]
    fn list_exactly_once() {
        let text = format!(
            "{}spatial n {{ symbols values;\n{RULE} }}\n",
            domain(&format!("{MLS}\n{MLS}"), RULE)
        );
        assert_eq!(
            errors(&text),
            [
                e("4:3", "list", "`list` given twice in spatial domain `m`"),
                e("7:9", "n", "spatial domain `n` has no list predicate"),
            ]
        );
    }

    #[test]
    fn parameters_kinds_bounds_and_names() {
        let list = "  list ls(x, y; S: multiset, N: length(0), C: count, M: multiset, \
                    L: length, I: interval(2), x: counts, K: length(99999999999)) := \
                    x == y | x |-> (z, d) * ls(z, y);";
        assert_eq!(
            errors(&domain(list, RULE)),
            [
                e("3:40", "0", "length bound `0` out of range"),
                e("3:47", "count", "unknown parameter kind `count`"),
                e(
                    "3:57",
                    "multiset",
                    "`ls` already has a `multiset` parameter"
                ),
                e("3:70", "length", "parameter kind `length` needs its bound"),
                e("3:90", "2", "parameter kind `interval` takes no bound"),
                e("3:94", "x", "duplicate parameter `x`"),
                e(
                    "3:115",
                    "99999999999",
                    "length bound `99999999999` out of range"
                ),
                e(
                    "3:156",
                    "ls(z, y)",
                    "`ls` has 8 parameter(s), the recursive call gives 0"
                ),
            ]
        );
        // Two `length` parameters are two of one kind, whatever their bounds.
        let list = "  list ls(x, y; A: length(2), B: length(3)) := x == y && A == 0 && B == 0 \
                    | x |-> (z, d) * ls(z, y; A1, B1) && A <= A1 + 1 && B <= B1 + 1;";
        assert_eq!(
            errors(&domain(list, RULE)),
            [e("3:34", "length", "`ls` already has a `length` parameter")]
        );
    }

    #[test]
    fn the_shape_of_the_two_cases() {
        let list = "  list ls(x, y; S: multiset) := x == z && S == {}\n    \
                    | y |-> (x, S) * lst(y, z; S1 + S2) && S <= S1 + {d};";
        assert_eq!(
            errors(&domain(list, RULE)),
            [
                e(
                    "3:33",
                    "x == z",
                    "the base case of `ls` must begin with `x == y`"
                ),
                e(
                    "4:7",
                    "y",
                    "the step case of `ls` must begin with a cell at `x`"
                ),
                e("4:14", "x", "`x` is already bound"),
                e("4:17", "S", "`S` is already bound"),
                e(
                    "4:22",
                    "lst",
                    "unknown list predicate `lst` (this domain's is `ls`)"
                ),
                e(
                    "4:26",
                    "y, z",
                    "the recursive call must be on `(x, y)`: from the first cell's link to the end"
                ),
                e(
                    "4:32",
                    "S1 + S2",
                    "`S1 + S2` is not a name: the recursive call takes one fresh name per parameter"
                ),
            ]
        );
        let list = "  list ls(x, y; S: multiset, C: counts) := x == y && S == {} \
                    | x |-> (z, d) * ls(z, y; d, z) && S <= S1 + {d};";
        assert_eq!(
            errors(&domain(list, RULE)),
            [
                e("3:88", "d", "`d` is already bound"),
                e("3:91", "z", "`z` is already bound"),
            ]
        );
    }

    #[test]
    fn laws_wrong_missing_twice_and_unexpected() {
        let list = "  list ls(x, y; S: multiset, C: counts, I: interval, N: length(4)) :=\n      \
                    x == y && S == {} && C == {} && S == {} && x == x\n    \
                    | x |-> (z, d) * ls(z, y; S1, C1, I1, N1) && S <= S1 && {d} + S1 >= S\n      \
                    && lo(I) == d && hi(I1) == hi(I) && N <= N1 + 1 && d <= d;";
        let multiset = "the step law of multiset parameter `S` is `S <= S1 + {d}`";
        assert_eq!(
            errors(&domain(list, RULE)),
            [
                e(
                    "4:7",
                    "x == y && S == {} && C == {} && S == {} && x == x",
                    "missing base law: the base law of length parameter `N` is `N == 0`"
                ),
                e(
                    "4:28",
                    "C == {}",
                    "wrong base law `C == {}`: counts parameter `C` has no base law"
                ),
                e("4:39", "S == {}", "the base law `S == {}` is given twice"),
                e(
                    "4:50",
                    "x == x",
                    "unexpected base law `x == x`: it names no parameter"
                ),
                e(
                    "5:7",
                    "x |-> (z, d) * ls(z, y; S1, C1, I1, N1) && S <= S1 && {d} + S1 >= S\n      \
                     && lo(I) == d && hi(I1) == hi(I) && N <= N1 + 1 && d <= d",
                    "missing step law: the step law of counts parameter `C` is `C >= C1 + {d}`"
                ),
                e(
                    "5:7",
                    "x |-> (z, d) * ls(z, y; S1, C1, I1, N1) && S <= S1 && {d} + S1 >= S\n      \
                     && lo(I) == d && hi(I1) == hi(I) && N <= N1 + 1 && d <= d",
                    "missing step law `d <= lo(I1)`: the step laws of interval parameter `I` are \
                     `lo(I) == d`, `d <= lo(I1)` and `hi(I1) == hi(I)`"
                ),
                e(
                    "5:50",
                    "S <= S1",
                    &format!("wrong step law `S <= S1`: {multiset}")
                ),
                e(
                    "5:61",
                    "{d} + S1 >= S",
                    &format!("wrong step law `{{d}} + S1 >= S`: {multiset}")
                ),
                e(
                    "6:58",
                    "d <= d",
                    "unexpected step law `d <= d`: it names no parameter"
                ),
            ]
        );
        // Without laws at all: each parameter's are missing, at the case.
        let list = "  list ls(x, y; N: length(1)) := x == y | x |-> (z, d) * ls(z, y; N1);";
        assert_eq!(
            errors(&domain(list, RULE)),
            [
                e(
                    "3:34",
                    "x == y",
                    "missing base law: the base law of length parameter `N` is `N == 0`"
                ),
                e(
                    "3:43",
                    "x |-> (z, d) * ls(z, y; N1)",
                    "missing step law: the step law of length parameter `N` is `N <= N1 + 1`"
                ),
            ]
        );
    }

    #[test]
    fn the_lemma() {
        let lemma = |l: &str| errors(&domain(MLS, &format!("  lemma {l};\n{RULE}")));
        let not = "the lemma is not the composition of `ls`: ";
        assert_eq!(lemma("ls(x, y; A) * ls(y, z; B) -> ls(x, z; A + B)"), []);
        assert_eq!(
            lemma("ls(x, y; A) * y |-> (z, d) -> ls(x, z; A)"),
            [e(
                "4:9",
                "ls(x, y; A) * y |-> (z, d)",
                &format!("{not}it composes two segments into one")
            )]
        );
        assert_eq!(
            lemma("ls(x, y; A) * ls(y, z; B) -> ls(x, y; A) * ls(y, z; B)"),
            [e(
                "4:38",
                "ls(x, y; A) * ls(y, z; B)",
                &format!("{not}it composes two segments into one")
            )]
        );
        assert_eq!(
            lemma("ls(x, y; A) * lx(y, z; B) -> ls(x, z)"),
            [
                e(
                    "4:23",
                    "lx",
                    "unknown list predicate `lx` (this domain's is `ls`)"
                ),
                e(
                    "4:38",
                    "ls(x, z)",
                    &format!("{not}`ls` has 1 parameter(s), this segment gives 0")
                ),
            ]
        );
        assert_eq!(
            lemma("ls(x, y; A) * ls(z, w; B) -> ls(x, w; A + B)"),
            [e(
                "4:26",
                "z",
                &format!("{not}the second segment starts where the first ends, at `y`")
            )]
        );
        assert_eq!(
            lemma("ls(x, y; A) * ls(y, x; B) -> ls(x, x; A + B)"),
            [e(
                "4:12",
                "x, y; A) * ls(y, x",
                &format!("{not}the segments join three distinct places")
            )]
        );
        assert_eq!(
            lemma("ls(x, y; A) * ls(y, z; B) -> ls(y, z; A + B)"),
            [e(
                "4:41",
                "y, z",
                &format!("{not}it concludes the segment from `x` to `z`")
            )]
        );
        assert_eq!(
            lemma("ls(x, y; A) * ls(y, z; x) -> ls(x, z; A + x)"),
            [e("4:32", "x", &format!("{not}`x` is already bound"))]
        );
        assert_eq!(
            lemma("ls(x, y; {}) * ls(y, z; B) -> ls(x, z; {} + B)"),
            [e(
                "4:18",
                "{}",
                &format!(
                    "{not}`{{}}` is not a name: the segments take one fresh name per parameter"
                )
            )]
        );
        assert_eq!(
            lemma("ls(x, y; A) * ls(y, z; B) -> ls(x, z; A ++ B)"),
            [e(
                "4:47",
                "A ++ B",
                &format!("{not}the composition of multiset parameter `S` is `A + B`")
            )]
        );
        let two = domain(
            MLS,
            &format!(
                "  lemma ls(x, y; A) * ls(y, z; B) -> ls(x, z; A + B);\n  lemma ls(x, y; A) * ls(y, z; B) -> ls(x, z; A + B);\n{RULE}"
            ),
        );
        assert_eq!(
            errors(&two),
            [e("5:3", "lemma", "a second lemma in spatial domain `m`")]
        );
        // The note gives the composition, in the canonical names.
        let d = crate::load(&domain(
            MLS,
            &format!("  lemma ls(x, y; A) * ls(y, z; B) -> ls(x, z; B + A);\n{RULE}"),
        ))
        .expect_err("rejected");
        assert_eq!(
            d[0].notes,
            ["the composition lemma of `ls` is `ls(x, y; S1) * ls(y, z; S2) -> ls(x, z; S1 + S2)`"]
        );
        // Intervals compose with `++`.
        let sls = "  list ls(x, y; I: interval) := x == y | x |-> (z, d) * ls(z, y; I1) \
                   && lo(I) == d && d <= lo(I1) && hi(I1) == hi(I);";
        let text = domain(
            sls,
            &format!("  lemma ls(x, y; I1) * ls(y, z; I2) -> ls(x, z; I1 ++ I2);\n{RULE}"),
        );
        assert_eq!(one(&text).lemmas, [Lemma::Compose]);
    }

    #[test]
    fn abstraction_rules() {
        let rules = |r: &str| errors(&domain(MLS, r));
        assert_eq!(
            rules(""),
            [e("1:9", "m", "spatial domain `m` has no abstraction rule")]
        );
        assert_eq!(
            rules("  abstract r: x |-> (y, d) -> ls(x, y) when fresh(y);"),
            [e(
                "4:15",
                "x |-> (y, d)",
                "abstraction rule `r` must fold two pieces"
            )]
        );
        assert_eq!(
            rules("  abstract r: ls(x, y; S) * lx(y, z) -> ls(x, z) when fresh(y);"),
            [
                e(
                    "4:24",
                    "S",
                    "abstraction rules name segments without parameters"
                ),
                e(
                    "4:29",
                    "lx",
                    "unknown list predicate `lx` (this domain's is `ls`)"
                ),
            ]
        );
        assert_eq!(
            rules("  abstract r: x |-> (y, d) * w |-> (z, e) -> ls(x, z) when fresh(y);"),
            [e(
                "4:30",
                "w",
                "the second piece must start at `y`, where the first points"
            )]
        );
        assert_eq!(
            rules("  abstract r: x |-> (y, d) * y |-> (x, e) -> ls(x, x) when fresh(y);"),
            [e(
                "4:15",
                "x |-> (y, d) * y |-> (x, e)",
                "the pieces of rule `r` must join three distinct places"
            )]
        );
        assert_eq!(
            rules("  abstract r: x |-> (y, y) * y |-> (z, d) -> ls(x, z) when fresh(y);"),
            [e("4:25", "y", "`y` is already bound")]
        );
        let right = "abstraction rule `r` must fold into one segment from `x` to `z`, `ls(x, z)`";
        assert_eq!(
            rules("  abstract r: ls(x, y) * ls(y, z) -> ls(y, z) when fresh(y);"),
            [e("4:38", "ls(y, z)", right)]
        );
        assert_eq!(
            rules("  abstract r: ls(x, y) * ls(y, z) -> x |-> (z, d) when fresh(y);"),
            [e("4:38", "x |-> (z, d)", right)]
        );
        assert_eq!(
            rules("  abstract r: ls(x, y) * ls(y, z) -> ls(x, y) * ls(y, z) when fresh(y);"),
            [e("4:38", "ls(x, y) * ls(y, z)", right)]
        );
        assert_eq!(
            rules("  abstract r: ls(x, y) * ls(y, z) -> ls(x, z; S) when fresh(y);"),
            [e(
                "4:47",
                "S",
                "abstraction rules name segments without parameters"
            )]
        );
    }

    #[test]
    fn rule_conditions() {
        let rules = |r: &str| errors(&domain(MLS, r));
        assert_eq!(
            rules("  abstract r: ls(x, y) * ls(y, z) -> ls(x, z);"),
            [e(
                "4:12",
                "r",
                "an abstraction rule must fold through a fresh existential: add `fresh(y)`"
            )]
        );
        assert_eq!(
            rules(
                "  abstract r: ls(a, b) * ls(b, c) -> ls(a, c) when fresh(a), a !in T, \
                 fresh(b), b !in T, a !in U, a !in T, fresh(b), lo(b);"
            ),
            [
                e("4:52", "fresh(a)", "unknown condition `fresh(a)`"),
                e("4:81", "b !in T", "unknown condition `b !in T`"),
                e("4:90", "a !in U", "unknown condition `a !in U`"),
                e("4:99", "a !in T", "condition `a !in T` given twice"),
                e("4:108", "fresh(b)", "condition `fresh(b)` given twice"),
                e("4:118", "lo(b)", "unknown condition `lo(b)`"),
            ]
        );
        let d = crate::load(&domain(
            MLS,
            "  abstract r: ls(a, b) * ls(b, c) -> ls(a, c) when fresh(c);",
        ))
        .expect_err("rejected");
        assert_eq!(d[1].message, "unknown condition `fresh(c)`");
        assert_eq!(
            d[1].notes,
            ["known: `fresh(b)` (required), `a !in T` (optional)"]
        );
        assert_eq!(
            d[0].message,
            "an abstraction rule must fold through a fresh existential: add `fresh(b)`"
        );
    }

    #[test]
    fn the_value_guard_names_every_cells_value() {
        let rules = |r: &str| errors(&domain(MLS, r));
        let two = "  abstract r: x |-> (y, d) * y |-> (z, e) -> ls(x, z) when fresh(y), d !in T";
        assert_eq!(
            rules(&format!("{two};")),
            [e(
                "4:12",
                "r",
                "the value guard must name every cell's value: add `e !in T`"
            )]
        );
        let spec = crate::load(&domain(MLS, &format!("{two}, e !in T;"))).expect("checks");
        let r = &spec.spatial[0].rules[0];
        assert!(r.distinct && !r.untracked);
        let d = crate::load(&domain(
            MLS,
            "  abstract r: x |-> (y, d) * ls(y, z) -> ls(x, z) when fresh(y), z !in T;",
        ))
        .expect_err("rejected");
        assert_eq!(
            d[0].notes,
            ["known: `fresh(y)` (required), `x !in T`, `d !in T` (optional)"]
        );
        // Printed back with the guard, and loaded again to the same rule.
        let shown = print_ir(&spec.spatial[0], "");
        assert!(
            shown.contains("when fresh(y), d !in T, e !in T;"),
            "{shown}"
        );
        let again = crate::load(&shown).expect("the printed domain checks");
        assert_eq!(again.spatial[0].rules, spec.spatial[0].rules);
    }

    #[test]
    fn rule_names_and_pieces_distinct() {
        let rules = "  abstract r: ls(x, y) * ls(y, z) -> ls(x, z) when fresh(y);\n  \
                     abstract r: x |-> (y, d) * ls(y, z) -> ls(x, z) when fresh(y);\n  \
                     abstract s: ls(a, b) * ls(b, c) -> ls(a, c) when fresh(b), a !in T;";
        assert_eq!(
            errors(&domain(MLS, rules)),
            [
                e("5:12", "r", "duplicate abstraction rule `r`"),
                e(
                    "6:12",
                    "s",
                    "rule `s` folds the same pieces as rule `r`: a segment, then a segment"
                ),
            ]
        );
    }

    #[test]
    fn duplicate_domain_names_are_duplicates() {
        let text = format!(
            "template m {{ row zone over vars; }}\n{}{}",
            domain(MLS, RULE),
            domain(MLS, RULE)
        );
        assert_eq!(
            errors(&text),
            [e("7:9", "m", "duplicate spatial domain `m`")]
        );
    }

    #[test]
    fn a_failing_earlier_check_hides_the_domains() {
        let text = format!(
            "structure s[f] {{ family a = nosuch[f]; }}\n{}",
            domain(MLS, "")
        );
        assert_eq!(
            errors(&text),
            [e("1:29", "nosuch", "unknown predicate `nosuch`")]
        );
    }

    #[test]
    fn printed_ir_loads_to_the_same_domain() {
        let spec = crate::load(LIBRARY).expect("checks");
        for s in &spec.spatial {
            let printed = print_ir(s, "");
            assert_eq!(one(&printed), *s, "{printed}");
        }
        // Parameters named like the printer's names get fresh ones.
        let text = "spatial odd { symbols values;
  list p(a, b; x: multiset, x1: counts, d: length(2)) := a == b && x == {} && d == 0
    | a |-> (n, v) * p(n, b; x2, x3, d2) && x <= x2 + {v} && x1 >= x3 + {v} && d <= d2 + 1;
  lemma p(a, b; q, r, s) * p(b, c; t, u, w) -> p(a, c; q + t, r + u, s + w);
  abstract c: a |-> (b, v) * p(b, c) -> p(a, c) when fresh(b);
}";
        let s = one(text);
        let printed = print_ir(&s, "");
        assert_eq!(
            printed,
            "spatial odd {
  symbols values;
  list p(x_, y; x: multiset, x1: counts, d: length(2)) :=
      x_ == y && x == {} && d == 0
    | x_ |-> (z, d_) * p(z, y; x1_, x11, d1) && x <= x1_ + {d_} && x1 >= x11 + {d_} && d <= d1 + 1;
  lemma p(x_, y; x1_, x11, d1) * p(y, z; x2, x12, d2) -> p(x_, z; x1_ + x2, x11 + x12, d1 + d2);
  abstract c: x_ |-> (y, d_) * p(y, z) -> p(x_, z) when fresh(y);
}
"
        );
        assert_eq!(one(&printed), s);
    }

    #[test]
    fn show_prints_each_domain_in_order() {
        let spec = crate::load(LIBRARY).expect("checks");
        let shown = show(&spec);
        assert!(shown.starts_with(
            "spatial domains (seed 001's separation-logic engine, tried in this order):\n  spatial mls {\n"
        ));
        let (mls, sls) = (shown.find("spatial mls"), shown.find("spatial sls"));
        assert!(mls < sls && sls.is_some());
        assert!(shown.contains(
            "    abstract list_cell: sls(x, y) * y |-> (z, e) -> sls(x, z) when fresh(y), x !in T;\n"
        ));
        assert_eq!(show(&crate::ir::Spec::default()), "");
        assert!(crate::print::show_ir(&spec).ends_with(&shown));
    }

    #[test]
    fn ast_printing_round_trips() {
        let ast = crate::parser::parse(LIBRARY).expect("parses");
        let printed = crate::print::print(&ast);
        assert_eq!(crate::load(&printed), crate::load(LIBRARY));
        let again = crate::parser::parse(&printed).expect("printed text parses");
        assert_eq!(crate::print::print(&again), printed);
    }

    #[test]
    fn laws_of_the_kinds() {
        let text = |v: Vec<Law>| v.iter().map(law_text).collect::<Vec<_>>();
        assert_eq!(text(base_laws(ParamKind::Multiset, "S")), ["S == {}"]);
        assert!(base_laws(ParamKind::Counts, "C").is_empty());
        assert_eq!(
            text(step_laws(ParamKind::Interval, "I", "I1", "d")),
            ["lo(I) == d", "d <= lo(I1)", "hi(I1) == hi(I)"]
        );
        assert_eq!(
            text(step_laws(ParamKind::Length(8), "N", "N1", "d")),
            ["N <= N1 + 1"]
        );
        assert_eq!(compose_op(ParamKind::Interval), "++");
        assert_eq!(kind_text(ParamKind::Length(8)), "length(8)");
    }
}
