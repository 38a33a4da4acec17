//! The crash store and the run summary. Crashing inputs come in with their signature; the
//! first input of each signature is saved as `ARTIFACTS/TARGET/crash-HASH.EXT` with a
//! `crash-HASH.txt` beside it (signature, detail, how it was found); later inputs with a known
//! signature are only counted. The summary is the table printed at the end of a run.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Crashes of one target, by signature.
pub struct CrashStore {
    dir: PathBuf,
    ext: &'static str,
    /// Signature -> (number of crashing inputs, saved file).
    pub seen: BTreeMap<String, (u64, PathBuf)>,
}

impl CrashStore {
    /// A store writing into `dir` (created on the first save).
    pub fn new(dir: PathBuf, ext: &'static str) -> CrashStore {
        CrashStore {
            dir,
            ext,
            seen: BTreeMap::new(),
        }
    }

    /// Whether `signature` was seen already; counts it when it was.
    pub fn known(&mut self, signature: &str) -> bool {
        match self.seen.get_mut(signature) {
            Some(e) => {
                e.0 += 1;
                true
            }
            None => false,
        }
    }

    /// Saves the first input of a new signature; returns its path.
    pub fn save(&mut self, signature: &str, detail: &str, note: &str, input: &[u8]) -> PathBuf {
        let name = format!("crash-{:016x}", fnv(signature.as_bytes()));
        let file = self.dir.join(format!("{name}.{}", self.ext));
        let write = std::fs::create_dir_all(&self.dir)
            .and_then(|_| std::fs::write(&file, input))
            .and_then(|_| {
                std::fs::write(
                    self.dir.join(format!("{name}.txt")),
                    format!(
                        "signature: {signature}\n{note}\nsize: {} bytes\n\n{detail}\n",
                        input.len()
                    ),
                )
            });
        if let Err(e) = write {
            eprintln!("warning: cannot save {}: {e}", file.display());
        }
        self.seen.insert(signature.to_string(), (1, file.clone()));
        file
    }

    /// Total crashing inputs.
    pub fn crashes(&self) -> u64 {
        self.seen.values().map(|v| v.0).sum()
    }
}

/// FNV-1a, a stable 64-bit hash for file names.
pub fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// What one target's run did.
pub struct TargetSummary {
    /// The target's name.
    pub target: &'static str,
    /// Inputs executed (minimisation runs excluded).
    pub execs: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Its crash store.
    pub store: CrashStore,
}

/// The table printed at the end of a run, then one line per signature.
pub fn table(rows: &[TargetSummary]) -> String {
    let mut s = format!(
        "{:<12} {:>10} {:>9} {:>8} {:>8}\n",
        "target", "execs", "execs/s", "crashes", "unique"
    );
    for r in rows {
        s.push_str(&format!(
            "{:<12} {:>10} {:>9.1} {:>8} {:>8}\n",
            r.target,
            r.execs,
            r.execs as f64 / r.seconds.max(1e-9),
            r.store.crashes(),
            r.store.seen.len()
        ));
    }
    for r in rows {
        for (sig, (n, file)) in &r.store.seen {
            s.push_str(&format!(
                "  [{}] x{n} {sig}\n      -> {}\n",
                r.target,
                shown(file)
            ));
        }
    }
    s
}

fn shown(p: &Path) -> String {
    p.display().to_string()
}
