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

fn floor_char(text: &str, mut i: usize) -> usize {
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
    let _ = writeln!(
        out,
        "{:gutter$} | {:pad$}{carets}{label}",
        "",
        "",
        pad = col - 1
    );
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
    }
}
