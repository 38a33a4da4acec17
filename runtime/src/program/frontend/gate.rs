//! The system C compiler as a gate: before lang-c parses a program, `$CC` (or `cc`) checks the
//! preprocessed text with `-fsyntax-only`, so that a program the compiler rejects (an
//! undeclared name, a constraint violation, a redefinition...) is bad input instead of getting
//! a verdict.
//!
//! The gate consumes the preprocessed text (with its `# line` markers, so the compiler names
//! the user's file and line) and produces an [`Outcome`]: passed, rejected with the compiler's
//! first error lines, or skipped (no compiler can be run, it was stopped at the time limit, or
//! it failed without an error message). It never rejects valid C on its own account: warnings
//! are off, the flags that turn old-style C back from errors into warnings on newer compilers
//! (gcc 14, clang 16) are passed when the compiler takes them (probed once per process), and
//! the compiler's default target is used. One compiler run, no linking.

use std::io::{Read, Write};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The longest the compiler may run before the gate is skipped.
pub const TIMEOUT: Duration = Duration::from_secs(30);

/// How many error lines of the compiler a rejection shows.
const SHOWN_ERRORS: usize = 5;

/// What the gate found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The compiler accepts the program.
    Passed,
    /// The compiler's error lines (`file:line:col: error: ...`).
    Rejected(String),
    /// The compiler did not decide; a note says why, unless no compiler could be run at all
    /// (then the gate is silently off).
    Skipped(Option<String>),
}

/// The base flags: check only, preprocessed C from stdin, GNU C11, no warnings.
const BASE: [&str; 6] = ["-fsyntax-only", "-std=gnu11", "-w", "-x", "cpp-output", "-"];

/// Flags that keep old-style C (implicit declarations and int, int/pointer conversions)
/// warnings on compilers that make them errors by default; each is passed if the compiler
/// takes it.
const PERMISSIVE: [&str; 6] = [
    "-fpermissive",
    "-Wno-error=implicit-function-declaration",
    "-Wno-error=implicit-int",
    "-Wno-error=int-conversion",
    "-Wno-error=incompatible-pointer-types",
    "-Wno-error=return-mismatch",
];

/// Checks `text` (preprocessed C of `file`) with the system C compiler, stopping it at
/// `deadline` or after [`TIMEOUT`], whichever is first.
pub fn check(text: &str, file: &str, deadline: Option<Instant>) -> Outcome {
    let cc = compiler();
    let Some(flags) = flags(&cc) else {
        return Outcome::Skipped(None);
    };
    let limit = earliest(Instant::now() + TIMEOUT, deadline);
    // A marker first, so that text without markers (a `.i` written by hand) is named too.
    let input = format!("# 1 \"{}\"\n{text}", escape(file));
    match run(&cc, &flags, input.as_bytes(), limit) {
        Err(Run::Spawn) => Outcome::Skipped(None),
        Err(Run::Timeout) => Outcome::Skipped(Some(format!(
            "the C compiler `{cc}` did not finish in time; the program is not checked by it"
        ))),
        Ok((status, stderr)) => judge(&cc, status, &stderr),
    }
}

/// The compiler's verdict from its exit status and messages.
fn judge(cc: &str, status: ExitStatus, stderr: &str) -> Outcome {
    if status.success() {
        return Outcome::Passed;
    }
    let errors: Vec<&str> = (stderr.lines())
        .filter(|l| l.contains(": error: ") || l.contains(": fatal error: "))
        .collect();
    if errors.is_empty() || stderr.contains("internal compiler error") {
        let first = stderr.lines().next().unwrap_or("no message");
        return Outcome::Skipped(Some(format!(
            "the C compiler `{cc}` failed without an error message ({first}); the program is not checked by it"
        )));
    }
    let mut shown = errors[..errors.len().min(SHOWN_ERRORS)].join("\n");
    if errors.len() > SHOWN_ERRORS {
        shown.push_str(&format!("\n({} more errors)", errors.len() - SHOWN_ERRORS));
    }
    Outcome::Rejected(shown)
}

fn compiler() -> String {
    std::env::var("CC")
        .ok()
        .filter(|c| !c.trim().is_empty())
        .unwrap_or_else(|| "cc".to_string())
}

fn earliest(a: Instant, b: Option<Instant>) -> Instant {
    b.map_or(a, |b| a.min(b))
}

/// A file name inside a `# 1 "..."` marker.
fn escape(file: &str) -> String {
    file.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The flags a compiler takes, `None` when it cannot be run.
type Flags = Option<Vec<&'static str>>;

/// The flags for compiler `cc`: [`BASE`] and the [`PERMISSIVE`] flags it takes; `None` when it
/// cannot be run. Probed once per compiler name (all flags at once, then one by one).
fn flags(cc: &str) -> Flags {
    static CACHE: Mutex<Vec<(String, Flags)>> = Mutex::new(Vec::new());
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, f)) = cache.iter().find(|(c, _)| c == cc) {
        return f.clone();
    }
    let found = probe(cc);
    cache.push((cc.to_string(), found.clone()));
    found
}

fn probe(cc: &str) -> Flags {
    let with = |extra: &[&'static str]| -> Option<bool> {
        let mut flags = extra.to_vec();
        flags.extend(BASE);
        let limit = Instant::now() + Duration::from_secs(10);
        match run(cc, &flags, b"int main(void) { return 0; }\n", limit) {
            Ok((status, _)) => Some(status.success()),
            Err(Run::Spawn) => None,
            Err(Run::Timeout) => Some(false),
        }
    };
    if with(&[])? {
        if with(&PERMISSIVE)? {
            return Some(PERMISSIVE.iter().chain(&BASE).copied().collect());
        }
        let mut out: Vec<&'static str> = (PERMISSIVE.iter())
            .filter(|f| with(&[**f]) == Some(true))
            .copied()
            .collect();
        out.extend(BASE);
        return Some(out);
    }
    None
}

/// Why a compiler run gave no result.
#[derive(Debug)]
enum Run {
    /// The compiler could not be started.
    Spawn,
    /// It was killed at the time limit.
    Timeout,
}

/// Runs `cc flags` with `input` on stdin, killing it at `limit`; its exit status and stderr.
fn run(
    cc: &str,
    flags: &[&str],
    input: &[u8],
    limit: Instant,
) -> Result<(ExitStatus, String), Run> {
    if Instant::now() >= limit {
        return Err(Run::Timeout);
    }
    let mut child = Command::new(cc)
        .args(flags)
        .env("LC_ALL", "C")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|_| Run::Spawn)?;
    let stdin = child.stdin.take();
    let stderr = child.stderr.take();
    std::thread::scope(|s| {
        s.spawn(move || {
            // The compiler may stop reading early (on a fatal error): a broken pipe is fine.
            if let Some(mut w) = stdin {
                let _ = w.write_all(input);
            }
        });
        let messages = s.spawn(move || {
            let mut text = String::new();
            if let Some(mut r) = stderr {
                let mut bytes = vec![];
                let _ = r.read_to_end(&mut bytes);
                text = String::from_utf8_lossy(&bytes).into_owned();
            }
            text
        });
        let status = wait(&mut child, limit);
        let text = messages.join().unwrap_or_default();
        status.map(|st| (st, text))
    })
}

/// Waits for `child` until `limit`, then kills it.
fn wait(child: &mut Child, limit: Instant) -> Result<ExitStatus, Run> {
    let mut pause = Duration::from_millis(1);
    loop {
        if let Ok(Some(status)) = child.try_wait() {
            return Ok(status);
        }
        let now = Instant::now();
        if now >= limit {
            let _ = child.kill();
            let _ = child.wait();
            return Err(Run::Timeout);
        }
        std::thread::sleep(pause.min(limit - now));
        pause = (pause * 2).min(Duration::from_millis(20));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gate(text: &str) -> Outcome {
        check(text, "prog.c", None)
    }

    /// Whether a C compiler runs here (the gate is off without one).
    fn have_cc() -> bool {
        flags(&compiler()).is_some()
    }

    #[test]
    fn valid_and_old_style_c_passes() {
        if !have_cc() {
            return;
        }
        assert_eq!(gate("int main(void) { return 0; }\n"), Outcome::Passed);
        // Implicit declarations and int, int/pointer conversions: errors on gcc 14 by default.
        let old = "f(x) int x; { return x; }\nint main(void) { int *p = 1; int x = p; g(); return f(x); }\n";
        assert_eq!(gate(old), Outcome::Passed);
    }

    #[test]
    fn errors_are_reported_with_the_users_file_and_line() {
        if !have_cc() {
            return;
        }
        let text = "int main(void) {\n  int x = 1;\n  goto nowhere;\n  return x;\n}\n";
        let Outcome::Rejected(e) = gate(text) else {
            panic!("{:?}", gate(text));
        };
        assert!(e.starts_with("prog.c:3:"), "{e}");
        assert!(e.contains("error:") && e.contains("nowhere"), "{e}");
        // Line markers name the original file and line.
        let marked = "# 40 \"dir/orig.c\"\nint main(void) { return y; }\n";
        let Outcome::Rejected(e) = gate(marked) else {
            panic!()
        };
        assert!(e.starts_with("dir/orig.c:40:"), "{e}");
    }

    #[test]
    fn only_the_first_errors_are_shown() {
        if !have_cc() {
            return;
        }
        let body: String = (0..20).map(|i| format!("  x{i} = 1;\n")).collect();
        let Outcome::Rejected(e) = gate(&format!("int main(void) {{\n{body}}}\n")) else {
            panic!()
        };
        assert_eq!(e.lines().count(), SHOWN_ERRORS + 1, "{e}");
        assert!(e.ends_with("(15 more errors)"), "{e}");
    }

    #[test]
    fn no_compiler_means_no_gate() {
        assert!(probe("/nonexistent/cc").is_none());
        let r = run("/nonexistent/cc", &BASE, b"", Instant::now() + TIMEOUT);
        assert!(matches!(r, Err(Run::Spawn)));
    }

    #[test]
    fn a_compiler_that_runs_too_long_is_stopped() {
        let start = Instant::now();
        let limit = start + Duration::from_millis(200);
        let r = run("sleep", &["5"], b"", limit);
        assert!(matches!(r, Err(Run::Timeout)), "{r:?}");
        assert!(start.elapsed() < Duration::from_secs(2));
        // A deadline already past skips the run.
        assert!(matches!(run("true", &[], b"", start), Err(Run::Timeout)));
    }
}
