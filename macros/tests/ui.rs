//! Compile-fail tests of `spec!`: a missing spec file, a spec with a semantic error (the
//! rendered diagnostic must appear at the call), and wrong macro arguments.
//!
//! Regenerate the expected output with `TRYBUILD=overwrite cargo test -p shapecheck-macros
//! --test ui`, then review the `.stderr` files.

use std::fs;
use std::path::Path;

#[test]
fn ui() {
    // trybuild compiles each case as a crate rooted at `<target>/tests/trybuild/<crate>/`, and
    // `spec!` reads files relative to the crate root: put the cases' spec files there.
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).parent().unwrap();
    let fixtures = target.join("tests/trybuild/shapecheck-macros/fixtures");
    fs::create_dir_all(&fixtures).unwrap();
    for entry in fs::read_dir("tests/ui").unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "shape") {
            fs::copy(&path, fixtures.join(path.file_name().unwrap())).unwrap();
        }
    }
    trybuild::TestCases::new().compile_fail("tests/ui/*.rs");
}
