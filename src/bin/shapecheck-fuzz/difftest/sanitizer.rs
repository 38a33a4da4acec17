//! Running a generated program compiled with AddressSanitizer and UBSan: C text and the input
//! mode in, an [`Observation`] out (error function reached, the ASan error kind, a LeakSanitizer
//! report, a UBSan report, the number of live blocks at the end, the inputs used). The runtime
//! (`runtime.c`) numbers inputs as shapecheck's explicit engine does.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The runtime linked into every program.
pub const RUNTIME_C: &str = include_str!("runtime.c");

/// Compiler flags of the programs (the runtime gets the sanitizer flags only).
const SAN_FLAGS: [&str; 4] = [
    "-fsanitize=address,undefined",
    "-fno-sanitize-recover=all",
    "-g",
    "-O0",
];

/// A C compiler with working sanitizers, and the compiled runtime.
pub struct Toolchain {
    /// The compiler.
    pub cc: String,
    /// runtime.o.
    pub runtime: PathBuf,
}

impl Toolchain {
    /// Compiles the runtime into `dir` and checks that a sanitized program runs; the reason
    /// when it does not.
    pub fn new(cc: &str, dir: &Path) -> Result<Toolchain, String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let src = dir.join("runtime.c");
        let obj = dir.join("runtime.o");
        std::fs::write(&src, RUNTIME_C).map_err(|e| e.to_string())?;
        let out = Command::new(cc)
            .args(["-c", "-fsanitize=address,undefined", "-g", "-O0"])
            .arg(&src)
            .arg("-o")
            .arg(&obj)
            .output()
            .map_err(|e| format!("cannot run `{cc}`: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "`{cc} -fsanitize=address` fails:\n{}",
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        let tc = Toolchain {
            cc: cc.to_string(),
            runtime: obj,
        };
        let probe = dir.join("probe.c");
        std::fs::write(&probe, "extern int __VERIFIER_nondet_int(void);\nint main(void) { return __VERIFIER_nondet_int() * 0; }\n")
            .map_err(|e| e.to_string())?;
        let exe = tc.compile(&probe)?;
        let o = run(&exe, &Inputs::List(vec![]), Duration::from_secs(20), None);
        if o.timeout || o.exit != Some(0) {
            return Err(format!("a sanitized program does not run:\n{}", o.stderr));
        }
        Ok(tc)
    }

    /// Compiles a program next to its source; the executable.
    pub fn compile(&self, src: &Path) -> Result<PathBuf, String> {
        let exe = src.with_extension("exe");
        let out = Command::new(&self.cc)
            .args(SAN_FLAGS)
            .args([
                "-Dmalloc=dt_malloc",
                "-Dcalloc=dt_calloc",
                "-Dfree=dt_free",
                "-w",
            ])
            .arg(src)
            .arg(&self.runtime)
            .arg("-o")
            .arg(&exe)
            .output()
            .map_err(|e| format!("cannot run `{}`: {e}", self.cc))?;
        if !out.status.success() {
            return Err(format!(
                "compilation failed:\n{}",
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        Ok(exe)
    }
}

/// Where a run's inputs come from.
#[derive(Clone, Debug)]
pub enum Inputs {
    /// Exactly these (then zeros).
    List(Vec<i64>),
    /// The runtime's biased PRNG with this seed.
    Random(u64),
}

/// What a run did.
#[derive(Clone, Debug, Default)]
pub struct Observation {
    /// reach_error was called.
    pub reached: bool,
    /// The AddressSanitizer error kind (`heap-use-after-free`, `double-free`, `SEGV`, ...).
    pub asan: Option<String>,
    /// LeakSanitizer reported leaks at exit.
    pub leak: bool,
    /// The UBSan message.
    pub ub: Option<String>,
    /// Live heap blocks when the program ended (return, exit, reach_error).
    pub live: Option<i64>,
    /// An assumption failed: the run does not count.
    pub assume_false: bool,
    /// Killed after the time limit.
    pub timeout: bool,
    /// The exit code.
    pub exit: Option<i32>,
    /// The inputs used (when traced).
    pub inputs: Vec<i64>,
    /// The run's stderr.
    pub stderr: String,
}

impl Observation {
    /// The invalid access seen: an ASan error that is not an invalid free, or a UBSan null
    /// pointer access (UBSan stops the run before the SEGV).
    pub fn bad_access(&self) -> Option<String> {
        match (&self.asan, &self.ub) {
            (Some(k), _) if !is_free_error(k) => Some(format!("AddressSanitizer: {k}")),
            (_, Some(u)) if u.contains("null pointer") => Some(format!("UBSan: {u}")),
            _ => None,
        }
    }

    /// The invalid free seen (ASan).
    pub fn bad_free(&self) -> Option<String> {
        self.asan
            .as_ref()
            .filter(|k| is_free_error(k))
            .map(|k| format!("AddressSanitizer: {k}"))
    }

    /// Whether the run counts (it ended by itself and no assumption failed).
    pub fn counts(&self) -> bool {
        !self.timeout && !self.assume_false
    }
}

/// Runs an executable once; `trace` is the file the runtime writes the inputs to.
pub fn run(exe: &Path, inputs: &Inputs, limit: Duration, trace: Option<&Path>) -> Observation {
    let mut cmd = Command::new(exe);
    cmd.stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .env(
            "ASAN_OPTIONS",
            "detect_leaks=1:detect_stack_use_after_return=1:symbolize=1:print_summary=1",
        )
        .env("UBSAN_OPTIONS", "print_stacktrace=1");
    match inputs {
        Inputs::List(v) => {
            let s: Vec<String> = v.iter().map(i64::to_string).collect();
            cmd.env("DT_INPUTS", s.join(","));
        }
        Inputs::Random(seed) => {
            cmd.env("DT_SEED", seed.to_string()).env_remove("DT_INPUTS");
        }
    }
    if let Some(t) = trace {
        cmd.env("DT_TRACE", t);
    }
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            return Observation {
                stderr: format!("cannot run {}: {e}", exe.display()),
                timeout: true,
                ..Default::default()
            };
        }
    };
    let err = child.stderr.take();
    let reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(mut e) = err {
            let _ = std::io::Read::read_to_end(&mut e, &mut buf);
        }
        buf
    });
    let start = Instant::now();
    let (status, timeout) = loop {
        match child.try_wait() {
            Ok(Some(s)) => break (Some(s), false),
            Ok(None) if start.elapsed() > limit => {
                let _ = child.kill();
                break (child.wait().ok(), true);
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(2)),
            Err(_) => break (None, true),
        }
    };
    let stderr = String::from_utf8_lossy(&reader.join().unwrap_or_default()).into_owned();
    let inputs = trace
        .and_then(|t| std::fs::read_to_string(t).ok())
        .map(|s| s.lines().filter_map(|l| l.trim().parse().ok()).collect())
        .unwrap_or_default();
    observe(stderr, status.and_then(|s| s.code()), timeout, inputs)
}

fn observe(stderr: String, exit: Option<i32>, timeout: bool, inputs: Vec<i64>) -> Observation {
    let asan = stderr
        .lines()
        .find_map(|l| l.split("ERROR: AddressSanitizer: ").nth(1))
        .map(asan_kind);
    let ub = stderr
        .lines()
        .find(|l| l.contains("runtime error:"))
        .map(|l| {
            l.split("runtime error:")
                .nth(1)
                .unwrap_or("")
                .trim()
                .to_string()
        });
    let live = stderr
        .lines()
        .filter_map(|l| l.strip_prefix("DT_LIVE "))
        .filter_map(|n| n.trim().parse().ok())
        .next();
    Observation {
        reached: stderr.contains("DT_REACH_ERROR"),
        leak: stderr.contains("LeakSanitizer: detected memory leaks"),
        assume_false: stderr.contains("DT_ASSUME_FALSE"),
        asan,
        ub,
        live,
        timeout,
        exit,
        inputs,
        stderr,
    }
}

/// `heap-use-after-free on address ...` -> `heap-use-after-free`; `attempting double-free
/// on ...` -> `double-free`; `SEGV on unknown address 0x000000000000 ...` -> `SEGV`.
fn asan_kind(rest: &str) -> String {
    let rest = rest.strip_prefix("attempting ").unwrap_or(rest);
    let word = rest.split_whitespace().next().unwrap_or("unknown");
    word.trim_end_matches(':').to_string()
}

/// Whether an ASan error kind is an invalid free (valid-free) rather than an invalid access.
pub fn is_free_error(kind: &str) -> bool {
    matches!(
        kind,
        "double-free" | "bad-free" | "free" | "alloc-dealloc-mismatch"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_sanitizer_reports() {
        let o = observe(
            "==1==ERROR: AddressSanitizer: attempting double-free on 0x1 in thread T0:\nDT_LIVE 2\n".into(),
            Some(1),
            false,
            vec![],
        );
        assert_eq!(o.asan.as_deref(), Some("double-free"));
        assert_eq!(o.live, Some(2));
        assert!(!o.reached);
    }
}
