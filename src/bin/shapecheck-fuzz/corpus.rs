//! The seed corpus of each target, read at run time and never copied: for `c-frontend` every
//! `.c`/`.i` file under `tests/programs`, `examples`, `benchmarks/seed-000` and, when they
//! exist, the shared SV-COMP benchmarks and reliability probes; for `spec` the library specs,
//! `tests/dsl/**` and the shared `.shape` probes. `.c` files are preprocessed (`cc -E`) and cut
//! down to their own lines behind a small prelude of declarations, so that mutations land in
//! the program rather than in libc headers; `.i` files are taken as they are.

use crate::targets::Target;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Where the corpus comes from.
pub struct CorpusConfig {
    /// The repository root.
    pub root: PathBuf,
    /// Directories outside the repository read when present (SV-COMP, reliability probes).
    pub external: Vec<PathBuf>,
}

/// The default external directories: `$SHAPECHECK_SHARED/...`, else `../shared/...` beside
/// the repository, else `/work/shared/...`; missing ones are skipped.
pub fn default_external(root: &Path) -> Vec<PathBuf> {
    let beside = root.join("../shared");
    let shared = std::env::var_os("SHAPECHECK_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            if beside.is_dir() {
                beside
            } else {
                PathBuf::from("/work/shared")
            }
        });
    vec![
        shared.join("benchmarks/sv-comp"),
        shared.join("reliability/probes"),
    ]
}

/// Declarations that stand in for the libc headers a `.c` seed included.
pub const PRELUDE: &str = "typedef unsigned long size_t;\ntypedef int int32_t;\n\
typedef unsigned int uint32_t;\ntypedef unsigned long uintptr_t;\ntypedef struct _IO_FILE FILE;\n\
extern void *malloc(size_t);\nextern void *calloc(size_t, size_t);\nextern void free(void *);\n\
extern void abort(void);\nextern void exit(int);\nextern int printf(const char *, ...);\n";

/// The seeds of a target, each with the file it came from.
pub fn load(target: Target, cfg: &CorpusConfig) -> Vec<(PathBuf, Vec<u8>)> {
    let (dirs, exts): (Vec<PathBuf>, &[&str]) = match target {
        Target::CFrontend => (
            ["tests/programs", "examples", "benchmarks/seed-000"]
                .iter()
                .map(|d| cfg.root.join(d))
                .chain(cfg.external.iter().cloned())
                .collect(),
            &["c", "i"],
        ),
        Target::Spec => (
            ["library/specs", "tests/dsl"]
                .iter()
                .map(|d| cfg.root.join(d))
                .chain(cfg.external.iter().cloned())
                .collect(),
            &["shape"],
        ),
        Target::Cli => (vec![], &[]),
    };
    let mut files = vec![];
    for d in dirs.iter().filter(|d| d.is_dir()) {
        walk(d, exts, &mut files);
    }
    files.sort();
    files
        .into_iter()
        .filter_map(|f| seed(&f).map(|s| (f, s)))
        .collect()
}

fn walk(dir: &Path, exts: &[&str], out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, exts, out);
        } else if p.extension().is_some_and(|x| exts.iter().any(|e| x == *e)) {
            out.push(p);
        }
    }
}

fn seed(path: &Path) -> Option<Vec<u8>> {
    if path.extension().is_some_and(|e| e == "c") {
        let own = preprocess_own_lines(path)?;
        return Some(format!("{PRELUDE}{own}").into_bytes());
    }
    std::fs::read(path).ok()
}

/// `cc -E` of `path`, keeping only the lines that came from `path` itself (with their line
/// markers); the raw text when the preprocessor fails (a malformed probe is a seed too).
fn preprocess_own_lines(path: &Path) -> Option<String> {
    let out = Command::new("cc")
        .args(["-E", "-std=gnu99", "-D__SHAPECHECK__"])
        .arg(path)
        .output();
    let text = match out {
        Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout).into_owned(),
        _ => return std::fs::read_to_string(path).ok(),
    };
    let me = format!("\"{}\"", path.display());
    let mut own = false;
    let mut kept = String::new();
    for line in text.lines() {
        if line.starts_with("# ") {
            own = line.split_whitespace().nth(2) == Some(me.as_str());
        }
        if own {
            kept.push_str(line);
            kept.push('\n');
        }
    }
    Some(kept)
}
