//! Diagnostics for spec authors: a message, a primary span, labelled secondary spans and notes;
//! rendered as `file:line:col: error: message`, the source line, and a caret under the span.

use crate::ast::Span;
use std::fmt::Write;

/// How serious a diagnostic is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Severity {
    /// The spec is rejected.
    Error,
    /// The spec is accepted.
    Warning,
}

/// One finding about a spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// Lowercase message, items in backticks.
    pub message: String,
    /// Where the problem is.
    pub primary: Span,
    /// Related places, each with a label.
    pub secondary: Vec<(Span, String)>,
    /// Further explanation or a hint.
    pub notes: Vec<String>,
}

impl Diagnostic {
    /// An error at `span`.
    pub fn error(message: impl Into<String>, span: Span) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            primary: span,
            secondary: vec![],
            notes: vec![],
        }
    }

    /// Adds a labelled secondary span.
    pub fn with_secondary(mut self, span: Span, label: impl Into<String>) -> Diagnostic {
        self.secondary.push((span, label.into()));
        self
    }

    /// Adds a note.
    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    /// Renders the diagnostic against the source text of `file`.
    pub fn render(&self, file: &str, text: &str) -> String {
        let mut out = String::new();
        let (line, col) = line_col(text, self.primary.start);
        let kind = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let _ = writeln!(out, "{file}:{line}:{col}: {kind}: {}", self.message);
        snippet(&mut out, text, self.primary, "");
        for (span, label) in &self.secondary {
            let (l, c) = line_col(text, span.start);
            let _ = writeln!(out, "{file}:{l}:{c}: note: {label}");
            snippet(&mut out, text, *span, label);
        }
        for n in &self.notes {
            let _ = writeln!(out, "  = note: {n}");
        }
        out
    }
}

/// 1-based line and column (in characters) of a byte offset.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text[..floor_char(text, offset)];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// The char boundary at or before byte `i` (the end of the text for `i` past it).
fn floor_char(text: &str, i: usize) -> usize {
    let mut i = i.min(text.len());
    while i > 0 && !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The source line of `span` with a caret line under it.
fn snippet(out: &mut String, text: &str, span: Span, label: &str) {
    let (line, col) = line_col(text, span.start);
    let src = text.lines().nth(line - 1).unwrap_or("");
    let width = if span.end > span.start {
        let end = floor_char(text, span.end.min(text.len()));
        text[floor_char(text, span.start)..end]
            .chars()
            .take_while(|c| *c != '\n')
            .count()
            .max(1)
    } else {
        1
    };
    let gutter = line.to_string().len();
    let _ = writeln!(out, "{:gutter$} |", "");
    let _ = writeln!(out, "{line} | {src}");
    let carets = "^".repeat(width);
    let label = if label.is_empty() {
        String::new()
    } else {
        format!(" {label}")
    };
    let pad = indent(src, col);
    let _ = writeln!(out, "{:gutter$} | {pad}{carets}{label}", "");
}

/// White space that reaches column `col` (in characters) of `line`, with its tabs kept so the
/// caret lines up. Built by hand: a formatting width is limited to 65535.
fn indent(line: &str, col: usize) -> String {
    let before = line.chars().chain(std::iter::repeat(' '));
    (before.take(col.saturating_sub(1)))
        .map(|c| if c == '\t' { '\t' } else { ' ' })
        .collect()
}

/// The text of the spec file `file` read as `bytes`, or, when it is not UTF-8, the rendered
/// error at its first invalid byte (line and column count the valid text before it).
pub fn decode<'a>(file: &str, bytes: &'a [u8]) -> Result<&'a str, String> {
    let e = match std::str::from_utf8(bytes) {
        Ok(text) => return Ok(text),
        Err(e) => e,
    };
    let start = e.valid_up_to();
    let bad = &bytes[start..start + e.error_len().unwrap_or(bytes.len() - start)];
    let shown: Vec<String> = bad.iter().map(|b| format!("0x{b:02x}")).collect();
    // The lossy text has the same bytes up to `start`, so the position is the same.
    let text = String::from_utf8_lossy(bytes);
    let message = format!("invalid UTF-8 (byte {})", shown.join(" "));
    let d = Diagnostic::error(
        message,
        Span {
            start,
            end: start + 1,
        },
    )
    .with_note("spec files must be UTF-8");
    Err(d.render(file, &text))
}

/// Renders every diagnostic, in order.
pub fn render_all(diags: &[Diagnostic], file: &str, text: &str) -> String {
    diags
        .iter()
        .map(|d| d.render(file, text))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_position_line_and_caret() {
        let text = "predicate p[f](v) :=\n  g(v, v);\n";
        let start = text.find('g').unwrap();
        let d = Diagnostic::error(
            "unknown name `g`",
            Span {
                start,
                end: start + 1,
            },
        )
        .with_note("roles in scope: `f`");
        let r = d.render("a.shape", text);
        assert_eq!(
            r,
            "a.shape:2:3: error: unknown name `g`\n  |\n2 |   g(v, v);\n  |   ^\n  = note: roles in scope: `f`\n"
        );
    }

    #[test]
    fn line_col_handles_offsets_past_the_end() {
        assert_eq!(line_col("ab\ncd", 99), (2, 3));
        assert_eq!(line_col("", 0), (1, 1));
        assert_eq!(line_col("ab", usize::MAX), (1, 3));
    }

    #[test]
    fn renders_columns_past_65536_and_spans_past_the_end() {
        let text = format!("p := {}g(v);\n", " ".repeat(70_000));
        let start = text.find('g').unwrap();
        let d = Diagnostic::error(
            "unknown name `g`",
            Span {
                start,
                end: start + 1,
            },
        );
        let r = d.render("a.shape", &text);
        assert!(
            r.starts_with("a.shape:1:70006: error: unknown name `g`\n"),
            "{}",
            &r[..80]
        );
        let caret = r.lines().nth(3).unwrap();
        assert_eq!(caret.find('^'), Some("  | ".len() + 70_005));
        let past = Span {
            start: usize::MAX - 1,
            end: usize::MAX,
        };
        let r = Diagnostic::error("at the end", past).render("a.shape", "ab\ncé");
        assert_eq!(r, "a.shape:2:3: error: at the end\n  |\n2 | cé\n  |   ^\n");
    }

    #[test]
    fn invalid_utf8_is_reported_at_its_first_byte() {
        assert_eq!(decode("a.shape", "ok é".as_bytes()), Ok("ok é"));
        let bytes = b"predicate p[f](v) :=\n  \xc3\xa9 \xff\xfe f(v, v);\n";
        let r = decode("a.shape", bytes).unwrap_err();
        assert_eq!(
            r,
            "a.shape:2:5: error: invalid UTF-8 (byte 0xff)\n  |\n2 |   \u{e9} \u{fffd}\u{fffd} f(v, v);\n  |     ^\n  = note: spec files must be UTF-8\n"
        );
        // A sequence cut short by the end of the file.
        let r = decode("b.shape", b"ab\xe2\x82").unwrap_err();
        assert!(
            r.starts_with("b.shape:1:3: error: invalid UTF-8 (byte 0xe2 0x82)\n"),
            "{r}"
        );
    }

    #[test]
    fn carets_follow_tabs_and_multibyte_characters() {
        let text = "\tαβ g";
        let start = text.find('g').unwrap();
        let r = Diagnostic::error(
            "here",
            Span {
                start,
                end: start + 1,
            },
        )
        .render("a", text);
        assert_eq!(r, "a:1:5: error: here\n  |\n1 | \tαβ g\n  | \t   ^\n");
    }
}
