//! A pre-scan of preprocessed C that bounds how deeply the program nests, run before lang-c:
//! lang-c's parser, the lowering, the CFA printer and dropping the AST all recurse over
//! nested expressions and statements, so without a bound a deep enough program overflows the
//! stack (and lang-c takes time superlinear in some nestings, e.g. 70 s for 16000 `!`).
//!
//! The scan consumes the text (a light C lexer: literals, comments and `#` lines are skipped)
//! and produces nothing, or the byte offset of the first token where the nesting goes past
//! [`MAX_DEPTH`]. The depth it measures bounds the depth of the syntax tree:
//! - every `(`, `[` and `{` adds a level for what it encloses;
//! - within a pair of brackets, every operator (`!`, `*`, `+`, `=`, `?`, `:`, `.`, `->`,
//!   `sizeof`...) and every `if`, `while`, `for`, `do` and `switch` of the current statement
//!   adds a level, as does a cast or a call on a call (a `)` or `]` followed by an operand,
//!   `(` or `[`); so do the levels of the deepest bracketed part of the statement;
//! - a `;` or a `}` not followed by `else` ends a statement; `;` and `,` end the operands of
//!   the operators before them (comma lists are flat in the tree).
//!
//! Such a program is valid C beyond an implementation limit, not bad input: the caller reports
//! it as a `FrontendErrorKind::Limit`.

/// The deepest nesting accepted. Release builds need at most about 2.6 KB of the main
/// thread's stack per level (nested parentheses, through lang-c, the lowering, the listing and
/// drop; operators and statements need 1 to 2 KB), so the deepest accepted program uses under
/// 3 MB of the default 8 MB; lang-c parses 1000 nested `!` in 0.1 s and 1000 nested `a[...]`
/// in 0.4 s. The SV-COMP heap tasks nest at most 26 levels.
pub const MAX_DEPTH: usize = 500;

/// The most `+` and `-` characters in a row (operators only, blanks between them allowed):
/// lang-c's parse time doubles with every two of them (`----...--x` took 11 s at 36), and no
/// real program writes more than a few.
pub const MAX_SIGNS: usize = 16;

/// The largest depth measured in `text` (up to the first place past [`MAX_DEPTH`], or past
/// [`MAX_SIGNS`] signs in a row) and that place's byte offset, if any.
pub fn check(text: &str) -> Result<usize, usize> {
    let mut scan = Scan::default();
    let b = text.as_bytes();
    let mut lexer = Lexer {
        b,
        at: 0,
        line_start: true,
    };
    let mut signs = 0;
    while let Some((at, t)) = lexer.next() {
        if scan.step(t) > MAX_DEPTH {
            return Err(at);
        }
        let sign = matches!(t, Token::Prefix | Token::Operator) && is_sign(b, at);
        signs = if sign { signs + lexer.at - at } else { 0 };
        if signs > MAX_SIGNS {
            return Err(at);
        }
    }
    Ok(scan.deepest)
}

/// Whether the limit [`check`] found at `at` is a run of signs (not the nesting depth).
pub fn signs_at(text: &str, at: usize) -> bool {
    is_sign(text.as_bytes(), at)
}

/// Whether an operator at `at` starts with a `+` or `-` sign: not the `->` of a member access
/// (a long chain `p->n->n->...` reaches the nesting depth, not the run of signs).
fn is_sign(b: &[u8], at: usize) -> bool {
    match b.get(at) {
        Some(b'+') => true,
        Some(b'-') => b.get(at + 1) != Some(&b'>'),
        _ => false,
    }
}

/// What the depth measure needs to know of a token.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Token {
    /// `(` or `[`.
    Open,
    /// `{`.
    OpenBlock,
    Close,
    Semicolon,
    Comma,
    /// An operator: a level for what follows.
    Operator,
    /// An operator that may start an operand (a prefix operator): `! ~ - + * & ++ --`.
    Prefix,
    /// `if`, `while`, `for`, `do`, `switch`, `?`: a level that a `,` does not end.
    Statement,
    Else,
    /// A name, a keyword that adds no level, a number or a literal.
    Operand,
}

/// A light C lexer over preprocessed text.
struct Lexer<'a> {
    b: &'a [u8],
    at: usize,
    /// No token yet on this line (a `#` here starts a line marker or directive).
    line_start: bool,
}

impl Lexer<'_> {
    /// The next token that matters and its offset.
    fn next(&mut self) -> Option<(usize, Token)> {
        loop {
            let c = *self.b.get(self.at)?;
            let start = self.at;
            if c == b'\n' {
                self.line_start = true;
                self.at += 1;
                continue;
            }
            if c.is_ascii_whitespace() {
                self.at += 1;
                continue;
            }
            if c == b'#' && self.line_start {
                self.skip_line();
                continue;
            }
            self.line_start = false;
            if let Some(len) = self.comment() {
                self.at += len;
                continue;
            }
            let t = self.token();
            return Some((start, t));
        }
    }

    fn skip_line(&mut self) {
        let rest = &self.b[self.at..];
        self.at += rest.iter().position(|c| *c == b'\n').unwrap_or(rest.len());
    }

    /// The length of a comment at the current position.
    fn comment(&self) -> Option<usize> {
        let rest = &self.b[self.at..];
        if rest.starts_with(b"//") {
            return Some(rest.iter().position(|c| *c == b'\n').unwrap_or(rest.len()));
        }
        if rest.starts_with(b"/*") {
            let end = rest[2..].windows(2).position(|w| w == b"*/");
            return Some(end.map_or(rest.len(), |p| p + 4));
        }
        None
    }

    /// Consumes one token (not white space or a comment) and classifies it.
    fn token(&mut self) -> Token {
        let rest = &self.b[self.at..];
        let c = rest[0];
        if is_ident_byte(c) && !c.is_ascii_digit() {
            let len = rest
                .iter()
                .position(|c| !is_ident_byte(*c))
                .unwrap_or(rest.len());
            let word = &rest[..len];
            let prefix = matches!(word, b"L" | b"u" | b"U" | b"u8");
            if prefix && matches!(rest.get(len), Some(b'"' | b'\'')) {
                self.at += len;
                self.literal();
                return Token::Operand;
            }
            self.at += len;
            return keyword(word);
        }
        if c.is_ascii_digit() || (c == b'.' && rest.get(1).is_some_and(u8::is_ascii_digit)) {
            self.number();
            return Token::Operand;
        }
        if c == b'"' || c == b'\'' {
            self.literal();
            return Token::Operand;
        }
        let (len, t) = punctuator(rest);
        self.at += len;
        t
    }

    /// A preprocessing number: digits, letters, `_`, `.`, and signs after an exponent.
    fn number(&mut self) {
        let mut prev = 0u8;
        while let Some(&c) = self.b.get(self.at) {
            let sign = (c == b'+' || c == b'-') && matches!(prev, b'e' | b'E' | b'p' | b'P');
            if !(is_ident_byte(c) || c == b'.' || sign) {
                break;
            }
            prev = c;
            self.at += 1;
        }
    }

    /// A string or character literal, up to its closing quote (or the end of the line).
    fn literal(&mut self) {
        let quote = self.b[self.at];
        self.at += 1;
        while let Some(&c) = self.b.get(self.at) {
            self.at += 1;
            match c {
                b'\\' => self.at += 1,
                b'\n' => {
                    self.line_start = true;
                    return;
                }
                _ if c == quote => return,
                _ => {}
            }
        }
        self.at = self.at.min(self.b.len());
    }
}

fn is_ident_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c >= 0x80
}

fn keyword(word: &[u8]) -> Token {
    match word {
        b"if" | b"while" | b"for" | b"do" | b"switch" => Token::Statement,
        b"else" => Token::Else,
        b"sizeof" | b"_Alignof" | b"__alignof__" | b"__real__" | b"__imag__" => Token::Prefix,
        _ => Token::Operand,
    }
}

/// The length and kind of the punctuator at the start of `rest` (any other byte is one
/// `Operand` byte).
fn punctuator(rest: &[u8]) -> (usize, Token) {
    const THREE: [&[u8]; 3] = [b"<<=", b">>=", b"..."];
    const TWO: [&[u8]; 19] = [
        b"->", b"++", b"--", b"<<", b">>", b"<=", b">=", b"==", b"!=", b"&&", b"||", b"*=", b"/=",
        b"%=", b"+=", b"-=", b"&=", b"^=", b"|=",
    ];
    if let Some(p) = THREE.iter().find(|p| rest.starts_with(p)) {
        let t = if *p == b"..." {
            Token::Operand
        } else {
            Token::Operator
        };
        return (3, t);
    }
    if let Some(p) = TWO.iter().find(|p| rest.starts_with(p)) {
        let t = if *p == b"++" || *p == b"--" {
            Token::Prefix
        } else {
            Token::Operator
        };
        return (2, t);
    }
    let t = match rest[0] {
        b'(' | b'[' => Token::Open,
        b'{' => Token::OpenBlock,
        b')' | b']' | b'}' => Token::Close,
        b';' => Token::Semicolon,
        b',' => Token::Comma,
        b'?' => Token::Statement,
        b'!' | b'~' | b'-' | b'+' | b'*' | b'&' => Token::Prefix,
        b'/' | b'%' | b'<' | b'>' | b'=' | b'^' | b'|' | b':' | b'.' => Token::Operator,
        _ => Token::Operand,
    };
    (1, t)
}

/// One open pair of brackets (the bottom frame is the file).
#[derive(Default, Debug)]
struct Frame {
    /// The levels of the enclosing frames when this one opened (they cannot change while it
    /// is open), including its own bracket.
    base: usize,
    /// Statement keywords (and `?`) of the current statement.
    statement: usize,
    /// Operators of the current operand (since the last `,`).
    operators: usize,
    /// The deepest bracketed part closed within the current operand.
    child: usize,
    /// The deepest operand or statement finished in this frame.
    best: usize,
    /// Whether the frame is a `{ }` block.
    block: bool,
}

impl Frame {
    fn current(&self) -> usize {
        self.statement + self.operators + self.child
    }

    fn end_operand(&mut self) {
        self.best = self.best.max(self.current());
        self.operators = 0;
        self.child = 0;
    }

    fn end_statement(&mut self) {
        self.end_operand();
        self.statement = 0;
    }
}

/// The state of the scan.
#[derive(Default)]
struct Scan {
    frames: Vec<Frame>,
    /// The last token closed a `)` or `]`: an operand or bracket next is a cast or a call.
    after_close: bool,
    /// The last token was a `;` or closed a block: anything but `else` next ends the
    /// statement (an `if` goes on through its `else`).
    after_statement: bool,
    deepest: usize,
}

impl Scan {
    /// Takes one token; returns the depth at it.
    fn step(&mut self, t: Token) -> usize {
        if self.frames.is_empty() {
            self.frames.push(Frame::default());
        }
        if std::mem::take(&mut self.after_statement) && t != Token::Else {
            self.top().end_statement();
        }
        let cast = std::mem::take(&mut self.after_close);
        if cast && matches!(t, Token::Open | Token::Operand | Token::Prefix) {
            self.top().operators += 1;
        }
        match t {
            Token::Open => self.open(false),
            Token::OpenBlock => self.open(true),
            Token::Close => self.close(),
            Token::Semicolon => {
                self.top().end_operand();
                self.after_statement = true;
            }
            Token::Comma => self.top().end_operand(),
            Token::Operator | Token::Prefix => self.top().operators += 1,
            Token::Statement => self.top().statement += 1,
            Token::Else | Token::Operand => {}
        }
        let top = self.top();
        let depth = top.base + top.current();
        self.deepest = self.deepest.max(depth);
        depth
    }

    fn top(&mut self) -> &mut Frame {
        if self.frames.is_empty() {
            self.frames.push(Frame::default());
        }
        let last = self.frames.len() - 1;
        &mut self.frames[last]
    }

    fn open(&mut self, block: bool) {
        let top = self.top();
        let base = top.base + top.statement + top.operators + 1;
        self.frames.push(Frame {
            base,
            block,
            ..Frame::default()
        });
    }

    /// Closes the innermost frame (an unbalanced closer is lang-c's to report).
    fn close(&mut self) {
        if self.frames.len() < 2 {
            return;
        }
        let Some(f) = self.frames.pop() else { return };
        let levels = 1 + f.best.max(f.current());
        let top = self.top();
        top.child = top.child.max(levels);
        self.after_close = !f.block;
        self.after_statement = f.block;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn depth(text: &str) -> usize {
        check(text).unwrap_or_else(|at| panic!("too deep at {at}"))
    }

    #[test]
    fn brackets_operators_and_statements_add_levels() {
        assert_eq!(depth("int x;"), 0);
        assert_eq!(depth("int f(void) { return ((x)); }"), 3);
        assert_eq!(depth("int f(void) { return !!-x; }"), 4);
        assert_eq!(depth("int f(void) { x = a + b + c; }"), 4);
        // A `)` followed by an operand counts as a cast: conditions add one level too many.
        assert_eq!(depth("int f(void) { if (x) if (y) while (z) x = 1; }"), 7);
        assert_eq!(depth("int f(void) { x = (int)(long)y; }"), 5);
    }

    #[test]
    fn statements_commas_and_blocks_reset_the_count() {
        let many = "x = a + b;".repeat(5000);
        assert_eq!(depth(&format!("int f(void) {{ {many} }}")), 3);
        let list = (0..5000)
            .map(|i| format!("a{i} = {i}"))
            .collect::<Vec<_>>()
            .join(", ");
        assert_eq!(depth(&format!("int {list};")), 1);
        let ifs = "if (x) { x = 1; }\n".repeat(5000);
        assert_eq!(depth(&format!("int f(void) {{ {ifs} }}")), 4);
    }

    #[test]
    fn else_if_chains_and_nested_blocks_accumulate() {
        let chain = "if (x) { x = 1; } else ".repeat(2000);
        assert!(check(&format!("int f(void) {{ {chain} x = 2; }}")).is_err());
        let chain = "if (x) x = 1; else ".repeat(2000);
        assert!(check(&format!("int f(void) {{ {chain} x = 2; }}")).is_err());
        let (open, close) = ("{".repeat(MAX_DEPTH + 1), "}".repeat(MAX_DEPTH + 1));
        let blocks = format!("int f(void) {open}{close}");
        assert_eq!(check(&blocks), Err("int f(void) ".len() + MAX_DEPTH));
    }

    #[test]
    fn literals_comments_and_line_markers_are_skipped() {
        let text =
            "# 1 \"((((.c\"\nchar *s = \"((((\\\"((\", c = '(';\n// ((((\n/* (((( */\nint x;\n";
        assert_eq!(depth(text), 2);
        assert_eq!(depth("double d = 1e+5 + .5e-3 + 0x1p-3;"), 3);
    }

    /// A program whose `main` nests `n` levels of one kind.
    fn program(kind: &str, n: usize) -> String {
        let r = |s: &str| s.repeat(n);
        let (decls, body) = match kind {
            "parentheses" => (String::new(), format!("x = {}x{};", r("("), r(")"))),
            "not" => (String::new(), format!("x = {}x;", r("!"))),
            "subscripts" => (String::new(), format!("x = {}0{};", r("a["), r("]"))),
            "calls" => (String::new(), format!("x = {}x{};", r("f("), r(")"))),
            "blocks" => (String::new(), format!("{}x = 2;{}", r("{"), r("}"))),
            "else if" => (
                String::new(),
                format!("{}x = 2;", r("if (x == 1) x = 1; else ")),
            ),
            "statement expressions" => (
                String::new(),
                format!("x = {}x;{} }});", r("({ "), " });".repeat(n - 1)),
            ),
            "structs" => {
                let open: String = (0..n)
                    .map(|i| format!("struct s{i} {{ int a{i}; "))
                    .collect();
                let close: String = (0..n).rev().map(|i| format!("}} f{i}; ")).collect();
                (format!("{open}int z; {close}\n"), "x = 1;".to_string())
            }
            _ => unreachable!("{kind}"),
        };
        format!(
            "int f(int v) {{ return v; }}\n{decls}int main(void) {{\n  int x = 1, a[1] = {{0}};\n  {body}\n  return x;\n}}\n"
        )
    }

    const KINDS: [&str; 8] = [
        "parentheses",
        "not",
        "subscripts",
        "calls",
        "blocks",
        "else if",
        "statement expressions",
        "structs",
    ];

    /// The largest `n` for which `program(kind, n)` is accepted.
    fn deepest(kind: &str) -> usize {
        let (mut ok, mut bad) = (1, 4 * MAX_DEPTH);
        while bad - ok > 1 {
            let mid = (ok + bad) / 2;
            match check(&program(kind, mid)) {
                Ok(_) => ok = mid,
                Err(_) => bad = mid,
            }
        }
        ok
    }

    /// The deepest accepted program of each kind goes through lang-c, the lowering, the
    /// listing and drop on a thread with the main thread's default stack (8 MB); one level
    /// deeper is a `Limit` error naming the place.
    #[test]
    fn deepest_accepted_programs_fit_in_the_main_thread() {
        let run = || {
            for kind in KINDS {
                let n = deepest(kind);
                assert!(n >= MAX_DEPTH / 4, "{kind}: {n}");
                let src = super::super::Source::from_text(program(kind, n), "deep.c");
                let p = super::super::lower_source(&src, "deep.c")
                    .unwrap_or_else(|e| panic!("{kind} at {n}: {}", e.message));
                let _ = crate::program::cfa::listing(&p);
                drop((p, src));
                let src = super::super::Source::from_text(program(kind, n + 1), "deep.c");
                let e = super::super::lower_source(&src, "deep.c").expect_err(kind);
                assert_eq!(e.kind, super::super::FrontendErrorKind::Limit, "{kind}");
                let want =
                    format!("implementation limit: nesting depth {MAX_DEPTH} exceeded at deep.c:");
                assert!(e.message.starts_with(&want), "{kind}: {}", e.message);
            }
        };
        let t = std::thread::Builder::new().stack_size(8 << 20).spawn(run);
        t.expect("spawns").join().expect("no stack overflow");
    }

    #[test]
    fn the_limit_is_reported_at_the_first_token_past_it() {
        let text = format!("int y = {}x;", "!".repeat(5000));
        assert_eq!(check(&text), Err("int y = ".len() + MAX_DEPTH - 1));
        let ok = format!("int y = {}x;", "!".repeat(MAX_DEPTH - 1));
        assert_eq!(check(&ok), Ok(MAX_DEPTH));
    }

    #[test]
    fn long_runs_of_signs_are_a_limit() {
        let run = |n: usize| format!("int f(int x) {{ return {}x; }}", "- ".repeat(n));
        assert!(check(&run(MAX_SIGNS)).is_ok());
        let text = run(MAX_SIGNS + 1);
        assert!(check(&text).is_err_and(|at| signs_at(&text, at)));
        assert!(check("int f(void) { return ------------------------------------/1; }").is_err());
        assert!(check("int f(int x) { return x - -1 + +x - --x; }").is_ok());
    }

    #[test]
    fn a_long_member_chain_is_a_nesting_limit_not_a_run_of_signs() {
        let text = format!(
            "struct s {{ struct s *n; }}; void f(struct s *p) {{ p{}; }}",
            "->n".repeat(600)
        );
        assert!(check(&text).is_err_and(|at| !signs_at(&text, at)));
        let run = format!(
            "int f(struct s *p) {{ return {}p->n; }}",
            "- ".repeat(MAX_SIGNS + 1)
        );
        assert!(check(&run).is_err_and(|at| signs_at(&run, at)));
    }
}
