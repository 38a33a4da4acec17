//! C programs written to temporary files, for tests that keep their small programs inline.

use std::io::Write;

/// `src` in a temporary `.c` file (removed when dropped).
pub fn temp_c(src: &str) -> tempfile::NamedTempFile {
    let mut f = tempfile::Builder::new()
        .suffix(".c")
        .tempfile()
        .expect("temp file");
    f.write_all(src.as_bytes()).expect("write");
    f
}
