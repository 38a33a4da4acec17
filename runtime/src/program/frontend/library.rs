//! Linking the C library: definitions of standard functions the program calls without
//! defining them (`printf`, `strlen`, `realloc`, ...), taken from `libc.c`.
//!
//! Consumes the lowered program (its functions, some without a body) and the library's C
//! text; produces the same program with a body, lowered like the program's own code and
//! marked [`Function::library`], for every library function that the program (or another
//! library function it uses) calls or takes the address of. Nothing is parsed when the
//! program calls no library function.

use super::{Lowerer, Source};
use crate::program::ir::*;
use lang_c::ast::{ExternalDeclaration, FunctionDefinition};
use lang_c::span::Node;
use std::collections::BTreeSet;
use std::sync::LazyLock;

/// The library's source text.
const LIBC: &str = include_str!("libc.c");

/// The library as the front end reads it: comments blanked out (lang-c reads preprocessed
/// text), lines kept.
static SOURCE: LazyLock<Source> =
    LazyLock::new(|| Source::from_text(without_comments(LIBC), "libc.c"));

/// `text` with every `/* ... */` comment replaced by spaces (newlines kept).
fn without_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("/*") {
        out.push_str(&rest[..start]);
        let end = rest[start..]
            .find("*/")
            .map_or(rest.len(), |e| start + e + 2);
        out.extend(
            rest[start..end]
                .chars()
                .map(|c| if c == '\n' { '\n' } else { ' ' }),
        );
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// Parses the library.
fn parse() -> Result<lang_c::driver::Parse, String> {
    let config = lang_c::driver::Config::with_gcc();
    lang_c::driver::parse_preprocessed(&config, SOURCE.text.clone())
        .map_err(|e| format!("libc.c:{}:{}: syntax error", e.line, e.column))
}

/// The functions `libc.c` defines for programs (its helpers, `__shapecheck_*`, excluded).
pub(crate) const FUNCTIONS: &[&str] = &[
    "realloc",
    "reallocarray",
    "strlen",
    "strnlen",
    "strcmp",
    "strncmp",
    "strcpy",
    "strncpy",
    "strcat",
    "strncat",
    "strchr",
    "strrchr",
    "strstr",
    "memcmp",
    "memchr",
    "strdup",
    "strndup",
    "abs",
    "labs",
    "llabs",
    "strtol",
    "atoi",
    "atol",
    "rand",
    "srand",
    "vprintf",
    "printf",
    "vfprintf",
    "fprintf",
    "puts",
    "fputs",
    "putchar",
    "fputc",
    "putc",
    "fflush",
    "getchar",
    "fgetc",
    "getc",
];

impl<'s> Lowerer<'s> {
    /// Gives a body from the library to every library function the program uses.
    pub(super) fn link_library(&mut self) {
        if self.missing_library_functions().is_empty() {
            return;
        }
        let Ok(parse) = parse() else {
            return;
        };
        let user = std::mem::replace(&mut self.src, &*SOURCE);
        // What the library's lowering notes concerns the library, not the program.
        let errors = self.input_errors.take();
        let lossy = self.lossy.get();
        for ext in &parse.unit.0 {
            if let ExternalDeclaration::Declaration(d) = &ext.node {
                self.global_declaration(d);
            }
        }
        loop {
            let missing = self.missing_library_functions();
            let Some(def) = parse.unit.0.iter().find_map(|ext| match &ext.node {
                ExternalDeclaration::FunctionDefinition(f)
                    if missing.contains(definition_name(f).as_str()) =>
                {
                    Some(f)
                }
                _ => None,
            }) else {
                break;
            };
            let name = definition_name(def);
            self.function_definition(def);
            if let Some(Symbol::Func(f)) = self.scopes[0].get(&name).cloned() {
                self.functions[f.0 as usize].library = true;
            } else {
                break;
            }
        }
        self.src = user;
        self.input_errors.replace(errors);
        self.lossy.set(lossy);
    }

    /// Library functions (and their helpers) that are used but have no body yet.
    fn missing_library_functions(&self) -> BTreeSet<String> {
        let mut used = BTreeSet::new();
        for f in &self.functions {
            for e in f.cfa.edge_weights() {
                if let Op::Call {
                    callee: Callee::Func(g),
                    ..
                } = &e.op
                {
                    used.insert(*g);
                }
                for x in e.op.exprs() {
                    x.visit(&mut |y| {
                        if let ExprKind::FuncAddr(g) = y.kind {
                            used.insert(g);
                        }
                    });
                }
            }
        }
        used.into_iter()
            .map(|g| &self.functions[g.0 as usize])
            .filter(|f| !f.defined)
            .filter(|f| FUNCTIONS.contains(&f.name.as_str()) || f.name.starts_with("__shapecheck_"))
            .map(|f| f.name.clone())
            .collect()
    }
}

use super::Symbol;

fn definition_name(f: &Node<FunctionDefinition>) -> String {
    super::decl::declarator_name(&f.node.declarator).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_function_is_defined_in_the_library() {
        let parse = parse().unwrap_or_else(|e| panic!("{e}"));
        let defined: BTreeSet<String> = parse
            .unit
            .0
            .iter()
            .filter_map(|ext| match &ext.node {
                ExternalDeclaration::FunctionDefinition(f) => Some(definition_name(f)),
                _ => None,
            })
            .collect();
        for f in FUNCTIONS {
            assert!(defined.contains(*f), "libc.c does not define `{f}`");
        }
        for d in &defined {
            assert!(
                FUNCTIONS.contains(&d.as_str()) || d.starts_with("__shapecheck_"),
                "`{d}` is defined in libc.c but not listed"
            );
        }
    }
}
