//! The mutation engine: an input and the corpus in, a mutated input out. Mutators are named
//! so that `--skip NAME,...` can switch off the ones that find a known crash (the smoke test
//! does that until the fix lands): byte-level edits, line and token splices from other corpus
//! files, duplication, crossover, and the stress mutators (`deep-nesting`, `long-line`,
//! `long-ident`, `huge-number`, `non-utf8`).

use crate::rng::Rng;

/// A mutator's name and how often it is picked (relative weight).
pub const MUTATORS: [(&str, u32); 15] = [
    ("bitflip", 3),
    ("byte", 3),
    ("insert-bytes", 3),
    ("delete", 5),
    ("duplicate", 3),
    ("splice-line", 6),
    ("replace-line", 5),
    ("crossover", 3),
    ("token", 8),
    ("repeat-line", 2),
    ("huge-number", 3),
    ("non-utf8", 2),
    ("long-ident", 1),
    ("long-line", 1),
    ("deep-nesting", 2),
];

/// Every mutator name and generator name that `--skip` accepts.
pub fn known_names() -> Vec<&'static str> {
    let mut v: Vec<_> = MUTATORS.iter().map(|m| m.0).collect();
    v.extend(["grammar", "odd-timeout", "broken-pipe"]);
    v
}

/// Tokens a mutator inserts: the language's keywords and punctuation.
pub struct Dictionary(pub &'static [&'static str]);

/// C tokens.
pub const C_TOKENS: Dictionary = Dictionary(&[
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    ";",
    ",",
    "*",
    "&",
    "->",
    ".",
    "!",
    "~",
    "-",
    "+",
    "++",
    "--",
    "/",
    "%",
    "<<",
    ">>",
    "<",
    ">",
    "<=",
    "==",
    "!=",
    "&&",
    "||",
    "?",
    ":",
    "=",
    "+=",
    "<<=",
    "int",
    "long",
    "unsigned",
    "char",
    "_Bool",
    "void",
    "struct",
    "union",
    "enum",
    "typedef",
    "static",
    "extern",
    "const",
    "volatile",
    "if",
    "else",
    "while",
    "do",
    "for",
    "switch",
    "case",
    "default",
    "break",
    "continue",
    "return",
    "goto",
    "sizeof",
    "NULL",
    "0",
    "1",
    "-1",
    "malloc(sizeof(struct node))",
    "free(p)",
    "__VERIFIER_nondet_int()",
    "reach_error();",
    "struct node *",
    "x->next",
    "(struct node *)",
    "__attribute__((unused))",
    "__asm__(\"\")",
    "__extension__",
    "__typeof__(x)",
    "({ 1; })",
    "L'a'",
    "\"\\x41\"",
    "'\\0'",
    "0x7fffffff",
    "alloca(4)",
    "label:",
    "...",
    "#pragma x\n",
    "# 1 \"x.c\"\n",
    "int (*f)(int);",
    "[1 << 31]",
]);

/// Spec tokens.
pub const SPEC_TOKENS: Dictionary = Dictionary(&[
    "predicate",
    "invariant",
    "structure",
    "refines",
    "family",
    "requires",
    "abstract",
    "forall",
    "exists",
    "true",
    "false",
    "template",
    "contract",
    "spatial",
    "symbols",
    "list",
    "lemma",
    "when",
    "fresh",
    "!in",
    "|->",
    "|",
    "++",
    "<=",
    ">=",
    ":",
    "multiset",
    "length(3)",
    "(",
    ")",
    "[",
    "]",
    "<",
    ">",
    "{",
    "}",
    ";",
    ",",
    ".",
    ":=",
    "=",
    "!",
    "&&",
    "||",
    "->",
    "<->",
    "==",
    "!=",
    "+",
    "*",
    "f",
    "b",
    "v",
    "w",
    "x",
    "reach",
    "reach[f]",
    "cyclic[f]",
    "shared[f]",
    "inverse[f, b]",
    "acyclic[f]",
    "sll[f]",
    "dll[f, b]",
    "tree[l, r]",
    "f+(v, w)",
    "f*(v, w)",
    "forall v. ",
    "exists w. ",
    "//",
    "/*",
    "*/",
    "\n",
]);

/// Mutators that may run.
pub struct Mutator<'a> {
    enabled: Vec<(&'static str, u32)>,
    corpus: &'a [Vec<u8>],
    dict: &'a Dictionary,
}

impl<'a> Mutator<'a> {
    /// A mutator over `corpus` (for splices) with the mutators not in `skip`.
    pub fn new(corpus: &'a [Vec<u8>], dict: &'a Dictionary, skip: &[String]) -> Mutator<'a> {
        let enabled = MUTATORS
            .iter()
            .copied()
            .filter(|(n, _)| !skip.iter().any(|s| s == n))
            .collect();
        Mutator {
            enabled,
            corpus,
            dict,
        }
    }

    /// Applies 1 to 4 random mutations to `input`.
    pub fn mutate(&self, rng: &mut Rng, input: &[u8], max_len: usize) -> Vec<u8> {
        let mut out = input.to_vec();
        if self.enabled.is_empty() {
            return out;
        }
        for _ in 0..1 + rng.below(4) {
            let name = self.choose(rng);
            self.apply(name, rng, &mut out);
            out.truncate(max_len);
        }
        out
    }

    fn choose(&self, rng: &mut Rng) -> &'static str {
        let total: u32 = self.enabled.iter().map(|m| m.1).sum();
        let mut x = rng.below(total as usize) as u32;
        for (n, w) in &self.enabled {
            if x < *w {
                return n;
            }
            x -= w;
        }
        self.enabled[0].0
    }

    fn apply(&self, name: &str, rng: &mut Rng, buf: &mut Vec<u8>) {
        match name {
            "bitflip" if !buf.is_empty() => {
                let i = rng.below(buf.len());
                buf[i] ^= 1 << rng.below(8);
            }
            "byte" if !buf.is_empty() => {
                let i = rng.below(buf.len());
                buf[i] = *rng.pick(b"(){}[];,*&!~-+<>=\"'\\#\n 0a_\x00\x7f");
            }
            "insert-bytes" => {
                let bytes: Vec<u8> = (0..1 + rng.below(8))
                    .map(|_| rng.below(128) as u8)
                    .collect();
                insert(rng, buf, &bytes);
            }
            "delete" if !buf.is_empty() => {
                let (a, b) = span(rng, buf.len());
                buf.drain(a..b);
            }
            "duplicate" if !buf.is_empty() => {
                let (a, b) = span(rng, buf.len());
                let piece = buf[a..b].to_vec();
                insert(rng, buf, &piece);
            }
            "splice-line" => {
                let line = self.other_line(rng);
                insert_at_line(rng, buf, &line);
            }
            "replace-line" => {
                let line = self.other_line(rng);
                replace_line(rng, buf, &line);
            }
            "crossover" => {
                let other = self.other(rng);
                let cut = rng.below(buf.len() + 1);
                let from = rng.below(other.len() + 1);
                buf.truncate(cut);
                buf.extend_from_slice(&other[from..]);
            }
            "token" => {
                let t = format!(" {} ", rng.pick(self.dict.0));
                insert(rng, buf, t.as_bytes());
            }
            "repeat-line" => {
                let line = self.other_line(rng);
                let n = 2 + rng.below(200);
                insert_at_line(rng, buf, &line.repeat(n));
            }
            "huge-number" => {
                let n = *rng.pick(&HUGE_NUMBERS);
                replace_number(rng, buf, n.as_bytes());
            }
            "non-utf8" => {
                let bytes = *rng.pick(&NON_UTF8);
                insert(rng, buf, bytes);
            }
            "long-ident" => {
                let n = *rng.pick(&[300, 5000, 70_000]);
                let id = format!(" {} ", "a".repeat(n));
                insert(rng, buf, id.as_bytes());
            }
            "long-line" => {
                let n = *rng.pick(&[65_530, 65_536, 70_000, 140_000]);
                let pad = " ".repeat(n);
                insert(rng, buf, pad.as_bytes());
            }
            "deep-nesting" => deep_nesting(rng, buf),
            _ => {}
        }
    }

    fn other(&self, rng: &mut Rng) -> &'a [u8] {
        if self.corpus.is_empty() {
            return b"";
        }
        rng.pick(self.corpus).as_slice()
    }

    fn other_line(&self, rng: &mut Rng) -> Vec<u8> {
        let other = self.other(rng);
        let lines: Vec<&[u8]> = other.split(|b| *b == b'\n').collect();
        let mut l = rng.pick(&lines).to_vec();
        l.push(b'\n');
        l
    }
}

const NON_UTF8: [&[u8]; 6] = [
    b"\xff",
    b"\xc3",
    b"\xe2\x82",
    b"\xf0\x9f\x98\x80",
    b"\xc3\xa9",
    b"\xed\xa0\x80",
];

const HUGE_NUMBERS: [&str; 14] = [
    "18446744073709551616",
    "18446744073709551615",
    "9223372036854775808",
    "-9223372036854775808",
    "2147483648",
    "4294967296",
    "99999999999999999999999999999999999999",
    "0xffffffffffffffffffff",
    "1e99999",
    "0777777777777777777777777",
    "1.0e-400",
    "0x1p99999",
    "4294967295u",
    "-2147483648",
];

/// A random span `a..b` of a buffer of `len > 0` bytes, usually short.
fn span(rng: &mut Rng, len: usize) -> (usize, usize) {
    let a = rng.below(len);
    let max = if rng.chance(1, 8) {
        len - a
    } else {
        (len - a).min(16)
    };
    (a, a + 1 + rng.below(max.max(1)).min(len - a - 1))
}

fn insert(rng: &mut Rng, buf: &mut Vec<u8>, bytes: &[u8]) {
    let at = rng.below(buf.len() + 1);
    buf.splice(at..at, bytes.iter().copied());
}

fn line_starts(buf: &[u8]) -> Vec<usize> {
    let mut v = vec![0];
    v.extend(
        buf.iter()
            .enumerate()
            .filter(|(_, b)| **b == b'\n')
            .map(|(i, _)| i + 1),
    );
    v
}

fn insert_at_line(rng: &mut Rng, buf: &mut Vec<u8>, line: &[u8]) {
    let starts = line_starts(buf);
    let at = (*rng.pick(&starts)).min(buf.len());
    buf.splice(at..at, line.iter().copied());
}

fn replace_line(rng: &mut Rng, buf: &mut Vec<u8>, line: &[u8]) {
    let starts = line_starts(buf);
    let i = rng.below(starts.len());
    let a = starts[i].min(buf.len());
    let b = starts.get(i + 1).copied().unwrap_or(buf.len()).max(a);
    buf.splice(a..b, line.iter().copied());
}

/// Replaces a run of digits with `n` (or inserts `n` when there is none).
fn replace_number(rng: &mut Rng, buf: &mut Vec<u8>, n: &[u8]) {
    let digits: Vec<usize> = (0..buf.len())
        .filter(|i| buf[*i].is_ascii_digit())
        .collect();
    if digits.is_empty() {
        return insert(rng, buf, n);
    }
    let a = *rng.pick(&digits);
    let mut b = a;
    while b < buf.len() && buf[b].is_ascii_alphanumeric() {
        b += 1;
    }
    buf.splice(a..b, n.iter().copied());
}

/// Thousands of `(`, `!`, `{`, `-`, `*` or `[`, sometimes closed again.
fn deep_nesting(rng: &mut Rng, buf: &mut Vec<u8>) {
    let (open, close) = *rng.pick(&[
        ("(", ")"),
        ("!", ""),
        ("{", "}"),
        ("-", ""),
        ("*", ""),
        ("[", "]"),
        ("if (1) ", ""),
        ("(x)+", ""),
    ]);
    let n = *rng.pick(&[100, 1000, 5000, 20_000]);
    let mut piece = open.repeat(n);
    piece.push('1');
    piece.push_str(&close.repeat(n));
    insert(rng, buf, piece.as_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skipped_mutators_never_run() {
        let corpus = vec![b"int main(void) { return 0; }\n".to_vec()];
        let skip: Vec<String> = MUTATORS.iter().map(|m| m.0.to_string()).collect();
        let m = Mutator::new(&corpus, &C_TOKENS, &skip);
        let mut rng = Rng::new(1);
        assert_eq!(m.mutate(&mut rng, &corpus[0], 1 << 20), corpus[0]);
    }
}
