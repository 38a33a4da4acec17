//! A pre-scan that bounds how deeply formulas nest, run on `.shape` text before the parser.
//!
//! The pest parser descends recursively into parentheses, `->` chains and quantifier bodies,
//! and the checks, both printers, the interpreter and dropping the AST recurse over formulas:
//! without a bound, a deep enough formula overflows the stack. The scan consumes the text and
//! produces nothing, or one [`Diagnostic`] at the token where the nesting first goes past
//! [`MAX_DEPTH`]. It measures two depths, each at most [`MAX_DEPTH`]:
//! - how deeply parentheses nest;
//! - an upper bound on the depth of the formula's syntax tree: within each pair of
//!   parentheses, every `!`, binary connective (`&&`, `||`, `->`, `<->`) and quantified
//!   variable may add a level (`a && b && c` folds to a tree of depth two), and the deepest
//!   parenthesised sub-formula adds its own bound.
//!
//! The printed form of any tree accepted here is accepted again (its parentheses nest no
//! deeper than its tree). `tests::deepest_accepted_formulas_fit_in_the_main_thread` runs the
//! whole front end on the deepest accepted formulas on an 8 MB stack.

use crate::ast::Span;
use crate::diag::Diagnostic;

/// The deepest nesting of a formula (parentheses, or the bound on its syntax tree). The most
/// expensive kind, nested quantifiers, needs about 20 KB of stack per level through parsing,
/// printing, parsing the printed text again, the checks, the interpreter and dropping (5.0 MB
/// at 256 levels, release build); at 128 levels that is 2.5 MB, under a third of the main
/// thread's 8 MB. Specs seldom nest more than 20 levels.
pub const MAX_DEPTH: usize = 128;

/// Checks that no formula of `text` nests deeper than [`MAX_DEPTH`].
pub fn check(text: &str) -> Result<(), Diagnostic> {
    let mut scan = Scan::default();
    let bytes = text.as_bytes();
    let (mut at, mut prev) = (0, Token::Other);
    while at < bytes.len() {
        let (mut len, mut token) = token(bytes, at);
        if token == Token::Open && prev == Token::Applied {
            // The arguments of an atom, `f(v, w)`, or the parameters of a predicate: a list
            // of names, no formula.
            len = (bytes[at..].iter().position(|c| *c == b')')).map_or(bytes.len() - at, |p| p + 1);
            token = Token::Other;
        }
        if token != Token::Space {
            prev = token;
        }
        let span = Span {
            start: at,
            end: at + len,
        };
        scan.step(token).map_err(|what| too_deep(what, span))?;
        at += len;
    }
    Ok(())
}

fn too_deep(what: &str, span: Span) -> Diagnostic {
    Diagnostic::error(
        format!("nesting deeper than {MAX_DEPTH} levels ({what})"),
        span,
    )
    .with_note(format!(
        "a formula may nest at most {MAX_DEPTH} levels: each `(`, and each `!`, quantified \
         variable and connective (`&&`, `||`, `->`, `<->`) inside another, adds one; split \
         the formula into named predicates"
    ))
}

/// The tokens that matter to the depth; everything else is `Other`.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Token {
    Open,
    Close,
    /// `!`, `&&`, `||`, `->`, `<->`.
    Connective,
    /// `forall`, `exists`.
    Quantifier,
    Comma,
    Dot,
    /// `;`: the end of a declaration.
    End,
    /// What an argument list may follow: a name, `]`, or a closure `+` or `*`.
    Applied,
    /// White space and comments.
    Space,
    Other,
}

/// The length and kind of the token at `at` (comments and words are one token; `(` is
/// `Open` even where it starts an argument list).
fn token(b: &[u8], at: usize) -> (usize, Token) {
    let rest = &b[at..];
    let starts = |p: &[u8]| rest.starts_with(p);
    if starts(b"//") {
        let len = rest.iter().position(|c| *c == b'\n').unwrap_or(rest.len());
        return (len.max(1), Token::Space);
    }
    if starts(b"/*") {
        let len = (rest[2..].windows(2).position(|w| w == b"*/")).map_or(rest.len(), |p| p + 4);
        return (len, Token::Space);
    }
    if rest[0].is_ascii_alphanumeric() || rest[0] == b'_' {
        let len = (rest.iter())
            .position(|c| !(c.is_ascii_alphanumeric() || *c == b'_'))
            .unwrap_or(rest.len());
        let word = &rest[..len];
        let quantifier = word == b"forall" || word == b"exists";
        let t = if quantifier {
            Token::Quantifier
        } else {
            Token::Applied
        };
        return (len, t);
    }
    for (p, t) in [
        (&b"<->"[..], Token::Connective),
        (b"->", Token::Connective),
        (b"&&", Token::Connective),
        (b"||", Token::Connective),
        (b"!=", Token::Other),
        (b"==", Token::Other),
    ] {
        if starts(p) {
            return (p.len(), t);
        }
    }
    let t = match rest[0] {
        b'(' => Token::Open,
        b')' => Token::Close,
        b'!' => Token::Connective,
        b',' => Token::Comma,
        b'.' => Token::Dot,
        b';' => Token::End,
        b']' | b'+' | b'*' => Token::Applied,
        c if c.is_ascii_whitespace() => Token::Space,
        _ => Token::Other,
    };
    (1, t)
}

/// One open pair of parentheses (the bottom frame is the declaration itself).
#[derive(Default)]
struct Frame {
    /// The levels the enclosing frames add (their connectives before this frame opened:
    /// those cannot change while it is open).
    base: usize,
    /// Connectives and quantified variables directly in this frame so far.
    levels: usize,
    /// The largest bound of a closed sub-frame.
    deepest_child: usize,
}

impl Frame {
    fn bound(&self) -> usize {
        self.levels + self.deepest_child
    }
}

/// The state of the scan: open frames, and whether quantified variables are being listed.
#[derive(Default)]
struct Scan {
    frames: Vec<Frame>,
    binder: bool,
}

impl Scan {
    /// Takes one token; on too deep a nesting, says which depth.
    fn step(&mut self, t: Token) -> Result<(), &'static str> {
        if self.frames.is_empty() {
            self.frames.push(Frame::default());
        }
        match t {
            Token::Open => {
                let top = self.top();
                let base = top.base + top.levels;
                self.frames.push(Frame {
                    base,
                    ..Frame::default()
                });
                if self.frames.len() - 1 > MAX_DEPTH {
                    return Err("parentheses");
                }
            }
            Token::Close if self.frames.len() > 1 => {
                let child = self.frames.pop().map_or(0, |f| f.bound());
                let top = self.top();
                top.deepest_child = top.deepest_child.max(child);
            }
            Token::Connective => self.top().levels += 1,
            Token::Quantifier => {
                self.top().levels += 1;
                self.binder = true;
            }
            Token::Comma if self.binder => self.top().levels += 1,
            Token::Dot => self.binder = false,
            Token::End => *self = Scan::default(),
            _ => {}
        }
        match self.frames.last() {
            Some(top) if top.base + top.bound() > MAX_DEPTH => Err("connectives and quantifiers"),
            _ => Ok(()),
        }
    }

    fn top(&mut self) -> &mut Frame {
        if self.frames.is_empty() {
            self.frames.push(Frame::default());
        }
        let last = self.frames.len() - 1;
        &mut self.frames[last]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::line_col;

    /// A predicate whose body is `body`, with a structure that uses it.
    fn spec(body: &str) -> String {
        format!("predicate p[f](v) := {body};\nstructure s[f] {{ family a = p[f]; }}\n")
    }

    /// Formulas of each kind nested `n` levels deep.
    fn deep(kind: &str, n: usize) -> String {
        let atom = "f(v, v)";
        let repeat = |s: &str| s.repeat(n);
        let vars = |sep: &str| {
            (0..n)
                .map(|i| format!("a{i}"))
                .collect::<Vec<_>>()
                .join(sep)
        };
        match kind {
            "parentheses" => format!("{}{atom}{}", repeat("("), repeat(")")),
            "not" => format!("{}{atom}", repeat("!")),
            "not in parentheses" => format!("{}{atom}{}", repeat("!("), repeat(")")),
            "quantifiers" => format!("forall {}. {atom}", vars(". forall ")),
            "quantifiers in parentheses" => {
                format!("(forall {}. {atom}{}", vars(". (forall "), repeat(")"))
            }
            "variables" => format!("exists {}. {atom}", vars(", ")),
            "implications" => vec![atom; n + 1].join(" -> "),
            "conjunctions" => vec![atom; n + 1].join(" && "),
            "equivalences in parentheses" => {
                format!("{}{atom}{}", repeat("(v == v <-> "), repeat(")"))
            }
            "implications in parentheses" => {
                format!("{}{atom}{}", repeat("(f(v, v) -> "), repeat(")"))
            }
            "left-nested conjunctions" => format!("{}{atom}{}", repeat("("), repeat(" && v != v)")),
            _ => unreachable!("{kind}"),
        }
    }

    const KINDS: [&str; 11] = [
        "parentheses",
        "not",
        "not in parentheses",
        "quantifiers",
        "quantifiers in parentheses",
        "variables",
        "implications",
        "conjunctions",
        "equivalences in parentheses",
        "implications in parentheses",
        "left-nested conjunctions",
    ];

    #[test]
    fn every_kind_is_accepted_up_to_the_limit_and_rejected_past_it() {
        for kind in KINDS {
            let ok = spec(&deep(kind, MAX_DEPTH));
            assert_eq!(check(&ok), Ok(()), "{kind}");
            let bad = spec(&deep(kind, MAX_DEPTH + 1));
            let d = check(&bad).expect_err(kind);
            assert!(
                d.message
                    .starts_with(&format!("nesting deeper than {MAX_DEPTH} levels")),
                "{kind}: {}",
                d.message
            );
        }
    }

    #[test]
    fn the_error_is_at_the_first_token_past_the_limit() {
        let text = spec(&deep("parentheses", 200));
        let d = check(&text).unwrap_err();
        let open = "predicate p[f](v) := ".len() + MAX_DEPTH;
        assert_eq!(
            d.primary,
            Span {
                start: open,
                end: open + 1
            }
        );
        assert_eq!(line_col(&text, d.primary.start), (1, open + 1));
        assert_eq!(d.message, "nesting deeper than 128 levels (parentheses)");
        let text = spec(&deep("not", 10_000));
        let d = check(&text).unwrap_err();
        assert_eq!(d.primary.start, "predicate p[f](v) := ".len() + MAX_DEPTH);
    }

    #[test]
    fn a_deep_sub_formula_counts_with_the_connectives_around_it() {
        // 100 `!` in parentheses, then 50 connectives outside: the tree is 150 deep.
        let inner = format!("(((({}f(v, v)))))", "!".repeat(100));
        let body = format!("{inner}{}", " && f(v, v)".repeat(50));
        let d = check(&spec(&body)).unwrap_err();
        assert_eq!(
            d.message,
            "nesting deeper than 128 levels (connectives and quantifiers)"
        );
    }

    #[test]
    fn declarations_comments_and_lookalikes_do_not_add_up() {
        let one = spec(&deep("conjunctions", MAX_DEPTH));
        assert_eq!(check(&one.repeat(50)), Ok(()));
        let comment = format!("// {}\n/* {} */\n", "(".repeat(1000), "!".repeat(1000));
        assert_eq!(check(&format!("{comment}{one}")), Ok(()));
        // `!=` and `==` are atoms; `forall_x` is a name; commas outside binders are arguments.
        let atoms = "v != v && forall_x[f](v, v, v)";
        let body = format!("{}{atoms}", "!".repeat(MAX_DEPTH - 1));
        assert_eq!(check(&spec(&body)), Ok(()));
        // An unbalanced `)` or an unclosed comment is the parser's to report.
        assert_eq!(check(")))) /* ((((("), Ok(()));
    }

    /// The whole front end and every recursive pass, on the deepest accepted formula of each
    /// kind, on a thread with the main thread's default stack (8 MB).
    #[test]
    fn deepest_accepted_formulas_fit_in_the_main_thread() {
        let run = || {
            for kind in KINDS {
                exercise(&spec(&deep(kind, MAX_DEPTH)), kind);
            }
        };
        let t = std::thread::Builder::new().stack_size(8 << 20).spawn(run);
        t.expect("spawns").join().expect("no stack overflow");
    }

    fn exercise(text: &str, kind: &str) {
        let ast = crate::parser::parse(text).unwrap_or_else(|e| panic!("{kind}: {}", e.message));
        let printed = crate::print::print(&ast);
        let again =
            crate::parser::parse(&printed).unwrap_or_else(|e| panic!("{kind}: {}", e.message));
        let spec =
            crate::check::check(&again).unwrap_or_else(|e| panic!("{kind}: {}", e[0].message));
        let _ = crate::print::show_ir(&spec);
        // One node: nested quantifiers take time exponential in the nesting.
        let heap = crate::eval::ExplicitHeap {
            nodes: 1,
            ..Default::default()
        };
        let ev = crate::eval::Evaluator::new(&spec, &heap);
        let _ = ev.predicate(crate::ir::PredId(0), &["f".to_string()], None, &[0]);
        drop((ast, again, spec));
    }
}
