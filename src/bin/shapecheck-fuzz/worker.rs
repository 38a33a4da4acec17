//! The worker process and its supervisor. The parent spawns `shapecheck-fuzz worker --target T`,
//! writes inputs to its stdin (a little-endian `u32` length, then the bytes) and reads one
//! answer per input from its stdout (`0` done, or `1` + length + the panic's signature). The
//! worker catches panics with `catch_unwind` and records their location with a panic hook; a
//! stack overflow, an abort or any signal kills it, and the parent turns the exit status and
//! the worker's stderr into an [`Outcome`], kills the worker after a time limit (a hang), and
//! starts a new one for the next input.

use crate::targets::{self, Target};
use std::io::{BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What one input did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The target returned.
    Ok,
    /// A defect, with its deduplication signature and a longer description.
    Crash { signature: String, detail: String },
}

// ---------------------------------------------------------------- the worker (child) side

/// The last panic's `location: message`, set by the hook.
static LAST_PANIC: Mutex<Option<String>> = Mutex::new(None);

/// Serves inputs on stdin until it closes. Never returns normally on a crash.
pub fn serve(target: Target, stack_bytes: usize, memory_mb: u64) -> ! {
    limit_memory(memory_mb);
    std::panic::set_hook(Box::new(|info| {
        let loc = info
            .location()
            .map_or_else(|| "?".to_string(), |l| format!("{}:{}", l.file(), l.line()));
        let msg = panic_message(info.payload());
        let thread = std::thread::current().name().unwrap_or("?").to_string();
        *LAST_PANIC.lock().unwrap_or_else(|e| e.into_inner()) =
            Some(format!("panic in {thread} at {loc}: {msg}"));
    }));
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = std::io::stdout().lock();
    while let Some(bytes) = read_frame(&mut input) {
        let r = std::panic::catch_unwind(|| targets::run(target, &bytes, stack_bytes));
        let answer = match r {
            Ok(()) => vec![0u8],
            Err(_) => {
                let sig = LAST_PANIC
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .take()
                    .unwrap_or_else(|| "panic".into());
                let mut a = vec![1u8];
                a.extend_from_slice(&(sig.len() as u32).to_le_bytes());
                a.extend_from_slice(sig.as_bytes());
                a
            }
        };
        if out.write_all(&answer).and_then(|_| out.flush()).is_err() {
            break;
        }
    }
    std::process::exit(0)
}

fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "(non-string payload)".into()
    }
}

/// Caps the worker's address space so that a runaway allocation aborts instead of swapping.
fn limit_memory(mb: u64) {
    if mb == 0 {
        return;
    }
    let bytes = mb.saturating_mul(1 << 20);
    let lim = libc::rlimit {
        rlim_cur: bytes,
        rlim_max: bytes,
    };
    // SAFETY: setrlimit reads the struct we pass; it has no other effect on this process' memory.
    unsafe { libc::setrlimit(libc::RLIMIT_AS, &lim) };
}

fn read_frame(r: &mut impl Read) -> Option<Vec<u8>> {
    let mut len = [0u8; 4];
    r.read_exact(&mut len).ok()?;
    let mut buf = vec![0u8; u32::from_le_bytes(len) as usize];
    r.read_exact(&mut buf).ok()?;
    Some(buf)
}

// ---------------------------------------------------------------- the parent side

/// How to start workers.
#[derive(Clone, Debug)]
pub struct WorkerConfig {
    /// The target the workers run.
    pub target: Target,
    /// Stack of each stage thread, in bytes.
    pub stack_bytes: usize,
    /// Address-space limit of a worker (MiB, 0: none).
    pub memory_mb: u64,
    /// Time limit for one input.
    pub timeout: Duration,
}

/// This binary's path, read once at start-up: after a rebuild replaces the file,
/// `current_exe()` names the deleted one, and workers must still start.
static EXE: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();

/// Remembers this binary's path (call first thing in `main`).
pub fn remember_exe() {
    if let Ok(p) = std::env::current_exe() {
        let _ = EXE.set(p);
    }
}

/// A running worker process.
pub struct Worker {
    config: WorkerConfig,
    child: Child,
    stdin: ChildStdin,
    answers: Receiver<Option<String>>,
    stderr: Arc<Mutex<Vec<u8>>>,
    stderr_reader: Option<std::thread::JoinHandle<()>>,
}

impl Worker {
    /// Spawns a worker.
    pub fn spawn(config: &WorkerConfig) -> std::io::Result<Worker> {
        let exe = match EXE.get() {
            Some(p) => p.clone(),
            None => std::env::current_exe()?,
        };
        let mut child = Command::new(exe)
            .args(["worker", "--target", config.target.name()])
            .arg(format!("--stack-bytes={}", config.stack_bytes))
            .arg(format!("--memory-mb={}", config.memory_mb))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let err = child.stderr.take().expect("piped stderr");
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let sink = stderr.clone();
        let stderr_reader = Some(std::thread::spawn(move || collect(err, &sink)));
        let (tx, answers) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            while let Some(a) = read_answer(&mut r) {
                if tx.send(a).is_err() {
                    return;
                }
            }
        });
        Ok(Worker {
            config: config.clone(),
            child,
            stdin,
            answers,
            stderr,
            stderr_reader,
        })
    }

    /// Runs one input; after a crash that ended the process the worker must be replaced
    /// (`alive` says so).
    pub fn run(&mut self, input: &[u8]) -> Outcome {
        self.stderr
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
        let mut frame = (input.len() as u32).to_le_bytes().to_vec();
        frame.extend_from_slice(input);
        let sent = self
            .stdin
            .write_all(&frame)
            .and_then(|_| self.stdin.flush());
        if sent.is_err() {
            return self.died();
        }
        match self.answers.recv_timeout(self.config.timeout) {
            Ok(None) => Outcome::Ok,
            Ok(Some(p)) => Outcome::Crash {
                signature: format!(
                    "panic at {}",
                    normalise(p.split_once(" at ").map_or(p.as_str(), |x| x.1))
                ),
                detail: p,
            },
            Err(RecvTimeoutError::Timeout) => {
                let _ = self.child.kill();
                let _ = self.child.wait();
                Outcome::Crash {
                    signature: format!("hang (> {:?})", self.config.timeout),
                    detail: format!("no answer within {:?}", self.config.timeout),
                }
            }
            Err(RecvTimeoutError::Disconnected) => self.died(),
        }
    }

    /// Whether the process still serves inputs.
    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    fn died(&mut self) -> Outcome {
        let status = self.child.wait();
        // The process is gone: its stderr reaches end of file once drained.
        if let Some(h) = self.stderr_reader.take() {
            let _ = h.join();
        }
        let err = String::from_utf8_lossy(&self.stderr.lock().unwrap_or_else(|e| e.into_inner()))
            .into_owned();
        let how = match status {
            Ok(s) => describe_status(s),
            Err(e) => format!("wait failed: {e}"),
        };
        Outcome::Crash {
            signature: death_signature(&how, &err),
            detail: format!("{how}\n{err}"),
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn collect(mut err: impl Read, sink: &Mutex<Vec<u8>>) {
    let mut buf = [0u8; 4096];
    while let Ok(n) = err.read(&mut buf) {
        if n == 0 {
            return;
        }
        let mut s = sink.lock().unwrap_or_else(|e| e.into_inner());
        if s.len() < 1 << 16 {
            s.extend_from_slice(&buf[..n]);
        }
    }
}

fn read_answer(r: &mut impl Read) -> Option<Option<String>> {
    let mut tag = [0u8; 1];
    r.read_exact(&mut tag).ok()?;
    if tag[0] == 0 {
        return Some(None);
    }
    read_frame(r).map(|b| Some(String::from_utf8_lossy(&b).into_owned()))
}

/// `exit N` or `signal N (NAME)`.
pub fn describe_status(s: std::process::ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (s.code(), s.signal()) {
        (Some(c), _) => format!("exit {c}"),
        (None, Some(sig)) => format!("signal {sig} ({})", signal_name(sig)),
        _ => "unknown status".into(),
    }
}

fn signal_name(sig: i32) -> &'static str {
    match sig {
        libc::SIGABRT => "SIGABRT",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGBUS => "SIGBUS",
        libc::SIGKILL => "SIGKILL",
        libc::SIGILL => "SIGILL",
        libc::SIGFPE => "SIGFPE",
        libc::SIGPIPE => "SIGPIPE",
        _ => "?",
    }
}

/// The signature of a process death: a stack overflow names its thread (the stage).
pub fn death_signature(how: &str, stderr: &str) -> String {
    if let Some(line) = stderr
        .lines()
        .find(|l| l.contains("has overflowed its stack"))
    {
        let thread = line.split('\'').nth(1).unwrap_or("?");
        return format!("stack overflow in thread `{thread}`");
    }
    if let Some(line) = stderr.lines().find(|l| l.contains("memory allocation of")) {
        return format!("out of memory: {}", normalise(line.trim()));
    }
    if let Some(line) = stderr.lines().find(|l| l.contains("panicked at")) {
        return format!("{how}: {}", normalise(line.trim()));
    }
    how.to_string()
}

/// `s` with each run of digits replaced by `N`.
pub fn numbers_as_n(s: &str) -> String {
    let mut out = String::new();
    let mut in_num = false;
    for c in s.chars() {
        if c.is_ascii_digit() {
            if !in_num {
                out.push('N');
            }
            in_num = true;
        } else {
            in_num = false;
            out.push(c);
        }
    }
    out
}

/// A signature with numbers replaced by `N` (byte offsets and sizes vary between inputs of
/// one defect) and cut to a readable length. Line numbers in source locations stay.
pub fn normalise(s: &str) -> String {
    let (head, msg) = match s.find(": ") {
        Some(i) if s[..i].contains(".rs:") => (&s[..i + 2], &s[i + 2..]),
        _ => ("", s),
    };
    let out = format!("{head}{}", numbers_as_n(msg));
    let first = out.lines().next().unwrap_or("").to_string();
    first.chars().take(160).collect()
}

#[cfg(test)]
mod tests {
    use super::normalise;

    #[test]
    fn numbers_in_messages_become_n_but_locations_stay() {
        assert_eq!(
            normalise("dsl/src/diag.rs:12: index 70001 out of range for 12"),
            "dsl/src/diag.rs:12: index N out of range for N"
        );
    }
}
