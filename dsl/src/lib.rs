//! The `.shape` specification language: a pest grammar, an AST in which every node has a span,
//! semantic checks that run in a fixed order and report every error with spans, the resolved
//! Spec IR, rendered diagnostics, a printer, the lattice of shape-class generators, an
//! interpreter of predicates and invariants on explicit heaps and three-valued structures, the
//! templates of seed 002's template engine (module [`template`]), the predicate families of
//! seed 003 (module [`family`]), the contracts of seeds 003 and 004 (module [`contract`]) and the list domains of seed 001's separation-logic engine
//! (module [`spatial`]).
//!
//! `load` is the whole front end: text in, checked [`ir::Spec`] out (or diagnostics).
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod ast;
pub mod check;
pub mod compiled;
pub mod contract;
pub mod depth;
pub mod diag;
pub mod eval;
pub mod family;
pub mod ir;
pub mod lattice;
pub mod parser;
pub mod print;
pub mod sem;
pub mod spatial;
pub mod template;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

pub use diag::Diagnostic;

/// Parses and checks a spec.
pub fn load(text: &str) -> Result<ir::Spec, Vec<Diagnostic>> {
    let ast = parser::parse(text).map_err(|d| vec![d])?;
    check::check(&ast)
}

/// Parses and checks several spec files as one spec (later files may use earlier ones).
pub fn load_all(texts: &[&str]) -> Result<ir::Spec, Vec<Diagnostic>> {
    load(&texts.join("\n"))
}

/// Helpers of the unit tests of the declaration kinds' checks.
#[cfg(test)]
pub(crate) mod testing {
    use crate::diag::line_col;

    /// `(line:col, spanned text, message)` of every diagnostic of `text`.
    pub fn errors(text: &str) -> Vec<(String, String, String)> {
        match crate::load(text) {
            Ok(_) => vec![],
            Err(ds) => ds
                .iter()
                .map(|d| {
                    let (l, c) = line_col(text, d.primary.start);
                    let under = text[d.primary.start..d.primary.end].to_string();
                    (format!("{l}:{c}"), under, d.message.clone())
                })
                .collect(),
        }
    }

    /// An expected diagnostic, as [`errors`] gives them.
    pub fn e(pos: &str, under: &str, msg: &str) -> (String, String, String) {
        (pos.into(), under.into(), msg.into())
    }
}

#[cfg(test)]
mod tests {
    const LIB: [&str; 6] = [
        include_str!("../../library/specs/predicates.shape"),
        include_str!("../../library/specs/invariants.shape"),
        include_str!("../../library/specs/structures.shape"),
        include_str!("../../library/specs/templates.shape"),
        include_str!("../../library/specs/spatial.shape"),
        include_str!("../../library/specs/families.shape"),
    ];

    #[test]
    fn library_checks() {
        let spec = super::load_all(&LIB).unwrap_or_else(|e| {
            panic!(
                "{}",
                super::diag::render_all(&e, "library", &LIB.join("\n"))
            )
        });
        assert_eq!(spec.structures.len(), 7);
        assert_eq!(spec.templates.len(), 1);
        assert_eq!(spec.spatial.len(), 3);
        assert_eq!(spec.families.len(), 4);
    }
}
