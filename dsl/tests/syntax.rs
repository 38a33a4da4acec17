//! Syntax errors: one diagnostic at the offending token, saying what was expected and what
//! was found; and identifiers that begin with a keyword.

use shapecheck_dsl::diag::line_col;
use shapecheck_dsl::parser::parse;

/// `(line:col, message)` of the syntax error in `text`.
fn error(text: &str) -> (String, String) {
    let d = parse(text).expect_err("a syntax error");
    assert_eq!(
        d.primary.start, d.primary.end,
        "a syntax error is a position"
    );
    let (l, c) = line_col(text, d.primary.start);
    (format!("{l}:{c}"), d.message)
}

fn e(pos: &str, msg: &str) -> (String, String) {
    (pos.into(), format!("syntax error: {msg}"))
}

#[test]
fn a_missing_semicolon_is_reported_at_the_next_token() {
    let text = "predicate c[f](v) := f+(v, v)\npredicate d[f](v) := true;\n";
    assert_eq!(
        error(text),
        e(
            "2:1",
            "expected `&&`, `->`, `;`, `<->` or `||`, found `predicate`"
        )
    );
    assert_eq!(
        error("predicate p[f](v) := (f(v, v);"),
        e("1:30", "expected `&&`, `)`, `->`, `<->` or `||`, found `;`")
    );
}

#[test]
fn structure_members() {
    assert_eq!(
        error("structure s[f] {\n  famly a = p[f];\n}"),
        e(
            "2:3",
            "expected `abstract`, `family`, `invariant` or `}`, found `famly`"
        )
    );
    assert_eq!(
        error("structure s[f] {\n  family a = p[f];\n"),
        e(
            "3:1",
            "expected `abstract`, `family`, `invariant` or `}`, found end of file"
        )
    );
    assert_eq!(
        error("structure s[f] { family a = p[f] requires; }"),
        e("1:42", "expected identifier, found `;`")
    );
}

#[test]
fn template_members() {
    let members = "expected `objects`, `paths`, `row` or `}`";
    assert_eq!(
        error("template t {\n  rows interval over vars;\n}"),
        e("2:3", &format!("{members}, found `rows`"))
    );
    assert_eq!(
        error("template t { row zone over vars;\n"),
        e("2:1", &format!("{members}, found end of file"))
    );
    assert_eq!(
        error("template t { row interval over vars }"),
        e("1:37", "expected `,` or `;`, found `}`")
    );
    assert_eq!(
        error("template t { row interval vars; }"),
        e("1:27", "expected `(` or `over`, found `vars`")
    );
    assert_eq!(
        error("template t { row linear(a b) over vars; }"),
        e("1:27", "expected `)`, `+` or `-`, found `b`")
    );
    assert_eq!(
        error("template t { row linear(2 a) over vars; }"),
        e("1:27", "expected `*`, found `a`")
    );
    assert_eq!(
        error("template t { objects -1; row zone over vars; }"),
        e("1:22", "expected identifier or number, found `-`")
    );
    assert_eq!(
        error("template t { row zone over vars, ; }"),
        e("1:34", "expected identifier, found `;`")
    );
    // `template` is a keyword; the words inside a template are not.
    assert_eq!(
        error("predicate template[f](v) := true;"),
        e("1:11", "expected identifier, found `template`")
    );
    assert!(parse("predicate row[over](objects) := over(objects, objects);").is_ok());
}

#[test]
fn spatial_members() {
    let members = "expected `abstract`, `lemma`, `list`, `symbols` or `}`";
    assert_eq!(
        error("spatial s {\n  symbol values;\n}"),
        e("2:3", &format!("{members}, found `symbol`"))
    );
    assert_eq!(
        error("spatial s { symbols values;\n"),
        e("2:1", &format!("{members}, found end of file"))
    );
    assert_eq!(
        error("spatial s { list ls(x) := x == y | x |-> (z, d) * ls(z, y); }"),
        e("1:22", "expected `,`, found `)`")
    );
    assert_eq!(
        error("spatial s { list ls(x, y; S) := x == y | x |-> (z, d) * ls(z, y); }"),
        e("1:28", "expected `:`, found `)`")
    );
    assert_eq!(
        error("spatial s { list ls(x, y) := x == y; }"),
        e("1:36", "expected `&&` or `|`, found `;`")
    );
    assert_eq!(
        error("spatial s { list ls(x, y) := x == y && S = {} | x |-> (z, d) * ls(z, y); }"),
        e(
            "1:42",
            "expected `(`, `++`, `+`, `<=`, `==` or `>=`, found `=`"
        )
    );
    assert_eq!(
        error("spatial s { list ls(x, y) := x == y | x -> (z, d) * ls(z, y); }"),
        e("1:41", "expected `|->`, found `-`")
    );
    assert_eq!(
        error("spatial s { abstract r: ls(x, y) * ls(y, z) ls(x, z); }"),
        e("1:45", "expected `*` or `->`, found `ls`")
    );
    assert_eq!(
        error("spatial s { abstract r: ls(x, y) * ls(y, z) -> ls(x, z) when x in T; }"),
        e("1:64", "expected `!` or `(`, found `in`")
    );
    // `spatial` is a keyword; the words inside a domain are not.
    assert_eq!(
        error("predicate spatial[f](v) := true;"),
        e("1:11", "expected identifier, found `spatial`")
    );
    assert!(
        parse(
            "predicate symbols[list, fresh, in](lemma) := list(lemma, lemma) && fresh[in](lemma);"
        )
        .is_ok()
    );
}

#[test]
fn declarations_and_formulas() {
    assert_eq!(
        error("predicat p[f](v) := true;"),
        e(
            "1:1",
            "expected `contract`, `family`, `invariant`, `predicate`, `spatial`, `structure` or `template`, found `predicat`"
        )
    );
    // A top-level family: `?` only after a parameter, `level` with a number, and `level`
    // stays an identifier elsewhere.
    assert!(parse("family ls[f](x, y?) level 2 := true;").is_ok());
    assert_eq!(
        error("family ls[f](x?, ?) := true;"),
        e("1:18", "expected identifier, found `?`")
    );
    assert!(parse("predicate level[f](v) := true;").is_ok());
    assert_eq!(
        error("predicate exists[f](v) := true;"),
        e("1:11", "expected identifier, found `exists`")
    );
    assert_eq!(
        error("predicate p(v) := true;"),
        e("1:12", "expected `[`, found `(`")
    );
    assert_eq!(
        error("predicate p[f](v) = true;"),
        e("1:19", "expected `:=`, found `=`")
    );
    assert_eq!(
        error("predicate p[f](v) := ;"),
        e("1:22", "expected formula, found `;`")
    );
    assert_eq!(
        error("predicate p[f](v) := f(v, );"),
        e("1:27", "expected identifier, found `)`")
    );
    // Right after a name, what would continue the name is no expectation.
    assert_eq!(
        error("predicate p[f](v) := f(v, w;"),
        e("1:28", "expected `)` or `,`, found `;`")
    );
    assert_eq!(
        error("invariant i[f] := forall v. f(v, v) &&;"),
        e("1:39", "expected formula, found `;`")
    );
    assert_eq!(
        error("predicate p[f](v) := v = v;"),
        e(
            "1:24",
            "expected `!=`, `(`, `*`, `+`, `==` or `[`, found `=`"
        )
    );
}

#[test]
fn identifiers_may_begin_with_keywords() {
    let text = "predicate trueish[falsey](forallx) := \
                falsey(forallx, forallx) && trueish2(forallx) || exists_ == forallx;";
    assert!(parse(text).is_ok(), "{:?}", parse(text).err());
    assert!(parse("invariant i[f] := true_(v) && false1 != false2;").is_ok());
    // Keywords themselves are not identifiers, and `true` stays a literal.
    assert!(parse("invariant i[f] := true(v);").is_err());
    assert!(parse("invariant i[f] := true && !false;").is_ok());
}
