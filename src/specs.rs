//! The standard library of data-structure specs (library/specs/*.shape), embedded in the
//! binary, and loading of user specs given with `--spec` through the same front end.

use shapecheck_dsl::{diag, ir};
use std::path::Path;

/// The standard library's spec files: (name, text), in dependency order.
pub const STANDARD: [(&str, &str); 3] = [
    (
        "library/specs/predicates.shape",
        include_str!("../library/specs/predicates.shape"),
    ),
    (
        "library/specs/invariants.shape",
        include_str!("../library/specs/invariants.shape"),
    ),
    (
        "library/specs/structures.shape",
        include_str!("../library/specs/structures.shape"),
    ),
];

/// The standard library, checked.
pub fn standard() -> ir::Spec {
    let texts: Vec<&str> = STANDARD.iter().map(|(_, t)| *t).collect();
    match shapecheck_dsl::load_all(&texts) {
        Ok(s) => s,
        Err(e) => panic!(
            "the standard library does not check:\n{}",
            diag::render_all(&e, "library", &texts.join("\n"))
        ),
    }
}

/// Loads a user spec file; on failure returns the rendered diagnostics.
pub fn load_file(path: &Path) -> Result<ir::Spec, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}\n", path.display()))?;
    let file = path.display().to_string();
    let text = diag::decode(&file, &bytes)?;
    shapecheck_dsl::load(text).map_err(|e| diag::render_all(&e, &file, text))
}
