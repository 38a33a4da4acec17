//! Constraint checks on the syntax tree that need no types or symbols, so they hold whatever
//! the lowering can or cannot express: a `goto` to a label the function does not define,
//! `break` outside a loop or `switch`, `continue` outside a loop, `case` and `default` outside
//! a `switch`. They back up the C compiler's check (the gate), which may not run.
//!
//! Consumes lang-c's translation unit; produces the violations found, each as the byte offset
//! of the statement in the preprocessed text and a message.

use lang_c::ast::{FunctionDefinition, Label, LabeledStatement, Statement, TranslationUnit};
use lang_c::span::Span;
use lang_c::visit::{self, Visit};

/// The violations in `unit`, in source order.
pub fn check(unit: &TranslationUnit) -> Vec<(usize, String)> {
    let mut c = Checker::default();
    c.visit_translation_unit(unit);
    c.errors.sort();
    c.errors
}

#[derive(Default)]
struct Checker {
    /// Loops around the current statement (a loop's header counts, to stay on the safe side).
    loops: usize,
    /// `switch` statements around the current statement.
    switches: usize,
    /// Labels defined in the current function.
    labels: Vec<String>,
    /// `goto`s of the current function: label and offset.
    gotos: Vec<(String, usize)>,
    errors: Vec<(usize, String)>,
}

impl<'ast> Visit<'ast> for Checker {
    fn visit_function_definition(&mut self, f: &'ast FunctionDefinition, span: &'ast Span) {
        let outer = (
            std::mem::take(&mut self.labels),
            std::mem::take(&mut self.gotos),
        );
        visit::visit_function_definition(self, f, span);
        for (label, at) in std::mem::take(&mut self.gotos) {
            if !self.labels.contains(&label) {
                let msg = format!("label `{label}` used but not defined");
                self.errors.push((at, msg));
            }
        }
        (self.labels, self.gotos) = outer;
    }

    fn visit_statement(&mut self, s: &'ast Statement, span: &'ast Span) {
        let error = |what: &str| {
            (
                span.start,
                format!(
                    "`{what}` statement not within {}",
                    match what {
                        "continue" => "a loop",
                        _ => "a loop or switch",
                    }
                ),
            )
        };
        match s {
            Statement::While(_) | Statement::DoWhile(_) | Statement::For(_) => {
                self.loops += 1;
                visit::visit_statement(self, s, span);
                self.loops -= 1;
            }
            Statement::Switch(_) => {
                self.switches += 1;
                visit::visit_statement(self, s, span);
                self.switches -= 1;
            }
            Statement::Break if self.loops + self.switches == 0 => {
                self.errors.push(error("break"));
            }
            Statement::Continue if self.loops == 0 => self.errors.push(error("continue")),
            Statement::Goto(id) => self.gotos.push((id.node.name.clone(), span.start)),
            _ => visit::visit_statement(self, s, span),
        }
    }

    fn visit_labeled_statement(&mut self, l: &'ast LabeledStatement, span: &'ast Span) {
        let outside = |what: &str| (span.start, format!("`{what}` label not within a switch"));
        match &l.label.node {
            Label::Identifier(id) => self.labels.push(id.node.name.clone()),
            Label::Case(_) | Label::CaseRange(_) if self.switches == 0 => {
                self.errors.push(outside("case"))
            }
            Label::Default if self.switches == 0 => self.errors.push(outside("default")),
            _ => {}
        }
        visit::visit_labeled_statement(self, l, span);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn errors(text: &str) -> Vec<String> {
        let config = lang_c::driver::Config::with_gcc();
        let parse = lang_c::driver::parse_preprocessed(&config, text.to_string()).unwrap();
        check(&parse.unit)
            .into_iter()
            .map(|(at, m)| format!("{at}: {m}"))
            .collect()
    }

    #[test]
    fn jumps_out_of_place_are_found() {
        let text = "int main(void) { goto out; break; continue; case 1: default: return 0; }";
        let at = |s: &str| text.find(s).unwrap();
        assert_eq!(
            errors(text),
            [
                format!("{}: label `out` used but not defined", at("goto")),
                format!(
                    "{}: `break` statement not within a loop or switch",
                    at("break")
                ),
                format!("{}: `continue` statement not within a loop", at("continue")),
                format!("{}: `case` label not within a switch", at("case")),
                format!("{}: `default` label not within a switch", at("default")),
            ]
        );
    }

    #[test]
    fn jumps_in_place_are_fine() {
        let ok = "int f(int n) {\n  goto later;\n  while (n) { if (n) break; n--; continue; }\n\
                  switch (n) { case 0: break; default: do { case 1: n++; } while (0); }\n\
                  for (;;) switch (n) { case 2: continue; }\n\
                  later: return ({ int r = n; do { if (r) break; } while (0); r; });\n}\n\
                  int g(void) { goto later; later: return 0; }\n";
        assert_eq!(errors(ok), Vec::<String>::new());
        // Labels belong to their function.
        let other = "int f(void) { l: return 0; }\nint g(void) { goto l; }\n";
        assert_eq!(errors(other).len(), 1);
    }
}
