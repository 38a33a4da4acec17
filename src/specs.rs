//! Which spec a command uses: the standard library (compiled by `spec!` into
//! `shapecheck_library`), or a user's `.shape` file loaded at run time through the same front
//! end, alone or on top of the library (`--with-library`), as a [`Domain`] for the engines.
//! A user file alone still starts from the library's predicate families
//! (`shapecheck_library::FAMILIES`: `ls`, `stable`, `rev`, `sorted`), which its contracts and
//! PDR runs name. Diagnostics of a user file are rendered against that file, even when
//! library text comes first in the text that is checked.

use shapecheck_dsl::ast::Span;
use shapecheck_dsl::{Diagnostic, diag, ir};
use shapecheck_runtime::engine::domain::{Compiled, Domain, Interpreted};
use std::path::Path;

/// The standard library as compiled code.
pub fn library() -> Compiled {
    Compiled {
        tables: &shapecheck_library::COMPILED,
        name: "standard library",
    }
}

/// The domain a command runs with: the standard library, or `spec` (with the library first
/// when `with_library`), interpreted. On failure, the rendered diagnostics.
pub fn domain(spec: Option<&Path>, with_library: bool) -> Result<Box<dyn Domain>, String> {
    match spec {
        None => Ok(Box::new(library())),
        Some(path) => Ok(Box::new(Interpreted {
            spec: load_file(path, with_library)?,
            name: path.display().to_string(),
        })),
    }
}

/// Loads a user spec file, with the standard library first when `with_library` (else the
/// library's predicate families only); on failure returns the rendered diagnostics.
pub fn load_file(path: &Path, with_library: bool) -> Result<ir::Spec, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("error: {}: {e}\n", path.display()))?;
    let file = path.display().to_string();
    let user = diag::decode(&file, &bytes)?;
    let mut texts: Vec<&str> = vec![];
    if with_library {
        texts.extend(shapecheck_library::SOURCES.iter().map(|(_, t)| *t));
    } else {
        texts.push(shapecheck_library::FAMILIES);
    }
    let offset = texts.iter().map(|t| t.len() + 1).sum();
    texts.push(user);
    shapecheck_dsl::load_all(&texts).map_err(|e| {
        let both = texts.join("\n");
        e.iter()
            .map(|d| match in_user_part(d, offset) {
                Some(d) => d.render(&file, user),
                None => d.render(&format!("standard library + {file}"), &both),
            })
            .collect()
    })
}

/// A diagnostic on the library followed by a user spec (separated by a newline), with its
/// spans made relative to the user's text, if its primary span is there; secondary spans in
/// the library become notes (`the first: in the standard library`).
fn in_user_part(d: &Diagnostic, offset: usize) -> Option<Diagnostic> {
    let shift = |s: &Span| {
        (s.start >= offset).then(|| Span {
            start: s.start - offset,
            end: s.end - offset,
        })
    };
    let mut out = d.clone();
    out.primary = shift(&d.primary)?;
    out.secondary = vec![];
    for (s, l) in &d.secondary {
        match shift(s) {
            Some(s) => out.secondary.push((s, l.clone())),
            None => out.notes.push(format!("{l}: in the standard library")),
        }
    }
    Some(out)
}
