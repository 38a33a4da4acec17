//! Extracts the generated code of the golden snapshot (`src/codegen/snapshots/*.snap`, the
//! generator's output for `tests/fixtures/small.shape`) into `OUT_DIR/small_generated.rs`, so
//! that `tests/generated_code.rs` compiles it as ordinary source under `deny(warnings)`: rustc
//! and clippy skip most lints inside the expansion of a macro from another crate.

use std::path::PathBuf;

const SNAPSHOT: &str =
    "src/codegen/snapshots/shapecheck_macros__codegen__tests__small_spec_golden.snap";

fn main() {
    println!("cargo::rerun-if-changed={SNAPSHOT}");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    // A missing snapshot (insta has not written it yet) leaves an empty module.
    let text = std::fs::read_to_string(SNAPSHOT).unwrap_or_default();
    // The snapshot is `---\n<metadata>---\n<code>`.
    let code = text.splitn(3, "---\n").nth(2).unwrap_or_default();
    std::fs::write(out.join("small_generated.rs"), code).expect("OUT_DIR is writable");
}
