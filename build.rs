//! Records the commit the binary is built from, for `shapecheck --version` (and so for
//! BenchExec's tool version): `SHAPECHECK_COMMIT` is the short hash of `HEAD`, or `unknown`
//! outside a git checkout.

use std::path::Path;
use std::process::Command;

fn main() {
    let commit = Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=SHAPECHECK_COMMIT={commit}");
    println!("cargo:rerun-if-changed=build.rs");
    let head_ref = std::fs::read_to_string(".git/HEAD").ok().and_then(|h| {
        h.strip_prefix("ref: ")
            .map(|r| format!(".git/{}", r.trim()))
    });
    let watched = [
        Some(".git/HEAD".to_string()),
        Some(".git/packed-refs".into()),
        head_ref,
    ];
    for path in watched
        .into_iter()
        .flatten()
        .filter(|p| Path::new(p).exists())
    {
        println!("cargo:rerun-if-changed={path}");
    }
}
