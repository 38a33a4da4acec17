//! Running the verifier on one pair in a child process, under a wall-time and a memory limit,
//! and capturing its output, exit state, CPU time and wall time.

use super::sys;
use super::task::Pair;
use std::ffi::OsString;
use std::io::{self, Read};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// Wall time granted beyond the verifier's own `--timeout` before the child is killed.
pub const GRACE: Duration = Duration::from_secs(5);

/// Most bytes kept of each of the child's output streams; the rest is read and dropped.
const CAPTURE_LIMIT: u64 = 64 * 1024;

/// Longest pause between two checks whether the child has ended.
const MAX_POLL: Duration = Duration::from_millis(50);

/// How to start the verifier for a pair, and the limits to enforce.
#[derive(Clone, Debug)]
pub struct Runner {
    /// The program to run, normally the current `shapecheck` executable.
    pub program: PathBuf,
    /// Arguments put before `verify ...`; empty for shapecheck (tests run `sh -c SCRIPT`).
    pub prefix_args: Vec<OsString>,
    /// Seconds passed to the verifier as `--timeout`.
    pub timeout_secs: u64,
    /// Wall time after which the child and its process group are killed.
    pub kill_after: Duration,
    /// Address-space limit of the child in MiB; 0 for none.
    pub memory_mb: u64,
    /// Extra arguments appended to every `verify` call (e.g. exploration limits).
    pub extra_args: Vec<OsString>,
    /// Where each pair's witness goes (`--witness`), if anywhere.
    pub witness_dir: Option<PathBuf>,
    /// The folder of each pair's picture folder (`--svg`), if any.
    pub svg_dir: Option<PathBuf>,
}

/// How a child run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Exit {
    /// The child exited with this code.
    Code(i32),
    /// The child was killed by this signal (not by the runner).
    Signal(i32),
    /// The runner killed the child at the wall-time limit.
    TimedOut,
    /// The child could not be started or waited for.
    Failed(String),
}

/// What one child run produced.
#[derive(Clone, Debug)]
pub struct RunOutput {
    /// How the child ended.
    pub exit: Exit,
    /// The start of its standard output.
    pub stdout: String,
    /// The start of its standard error.
    pub stderr: String,
    /// User plus system CPU time.
    pub cpu: Duration,
    /// Wall time from start to end.
    pub wall: Duration,
}

impl RunOutput {
    /// The output of a run that could not be carried out.
    pub fn failed(message: String) -> RunOutput {
        let (cpu, wall) = (Duration::ZERO, Duration::ZERO);
        RunOutput {
            exit: Exit::Failed(message),
            stdout: String::new(),
            stderr: String::new(),
            cpu,
            wall,
        }
    }

    /// The first line of standard output: the verdict line.
    pub fn verdict_line(&self) -> Option<&str> {
        self.stdout.lines().next()
    }
}

/// The witness file name of `pair`: `FOLDER__TASK__PROPERTY.yml`.
pub fn witness_name(pair: &Pair) -> String {
    format!("{}.yml", pictures_name(pair))
}

/// The picture folder name of `pair`: `FOLDER__TASK__PROPERTY`.
pub fn pictures_name(pair: &Pair) -> String {
    let stem = pair
        .task
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    format!("{}__{stem}__{}", pair.folder, pair.property.name())
}

impl Runner {
    /// A runner of `program verify ...` with the given limits and the default grace time.
    pub fn new(program: PathBuf, timeout_secs: u64, memory_mb: u64) -> Runner {
        let kill_after = Duration::from_secs(timeout_secs) + GRACE;
        Runner {
            program,
            prefix_args: Vec::new(),
            timeout_secs,
            kill_after,
            memory_mb,
            extra_args: Vec::new(),
            witness_dir: None,
            svg_dir: None,
        }
    }

    /// The arguments for `pair`: `verify INPUT... --property FILE --timeout SECS`.
    pub fn args(&self, pair: &Pair) -> Vec<OsString> {
        let mut args = self.prefix_args.clone();
        args.push("verify".into());
        args.extend(
            pair.inputs
                .iter()
                .map(|input| input.clone().into_os_string()),
        );
        args.push("--property".into());
        args.push(pair.property_file.clone().into_os_string());
        args.push("--timeout".into());
        args.push(self.timeout_secs.to_string().into());
        args.push("--data-model".into());
        args.push(pair.data_model.clone().into());
        args.extend(self.extra_args.iter().cloned());
        if let Some(dir) = &self.witness_dir {
            args.push("--witness".into());
            args.push(dir.join(witness_name(pair)).into_os_string());
        }
        if let Some(dir) = &self.svg_dir {
            args.push("--svg".into());
            args.push(dir.join(pictures_name(pair)).into_os_string());
        }
        args
    }

    /// The command for `pair`: own process group, no input, captured output, memory limit, and
    /// killed when the runner's thread ends.
    fn command(&self, pair: &Pair) -> Command {
        let mut cmd = Command::new(&self.program);
        cmd.args(self.args(pair))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        let max_bytes = (self.memory_mb > 0).then(|| self.memory_mb.saturating_mul(1024 * 1024));
        sys::prepare_child(&mut cmd, max_bytes);
        cmd
    }

    /// Runs the verifier on `pair` and waits for it, killing it at the wall-time limit.
    pub fn run(&self, pair: &Pair) -> RunOutput {
        let start = Instant::now();
        let mut child = match self.command(pair).spawn() {
            Ok(child) => child,
            Err(e) => {
                return RunOutput::failed(format!("cannot start {}: {e}", self.program.display()));
            }
        };
        let stdout = capture(child.stdout.take());
        let stderr = capture(child.stderr.take());
        let (exit, cpu) = self.wait(child.id(), start);
        let wall = start.elapsed();
        RunOutput {
            exit,
            stdout: collect(stdout),
            stderr: collect(stderr),
            cpu,
            wall,
        }
    }

    /// Waits for child `id` until it ends or the limit passes, then kills what is left of its
    /// process group (the child itself at the limit) and reaps it.
    fn wait(&self, id: u32, start: Instant) -> (Exit, Duration) {
        let mut pause = Duration::from_millis(1);
        let timed_out = loop {
            match sys::has_ended(id) {
                Ok(true) => break false,
                Ok(false) if start.elapsed() >= self.kill_after => break true,
                Ok(false) => {}
                Err(e) => {
                    return (
                        Exit::Failed(format!("cannot wait for the child: {e}")),
                        Duration::ZERO,
                    );
                }
            }
            thread::sleep(pause.min(self.kill_after.saturating_sub(start.elapsed())));
            pause = (pause * 2).min(MAX_POLL);
        };
        // The child is a zombie or alive, so its process group id cannot have been reused.
        sys::kill_group(id);
        match sys::reap(id) {
            Ok(reaped) if timed_out => (Exit::TimedOut, reaped.cpu),
            Ok(reaped) => (reaped.ended.into(), reaped.cpu),
            Err(e) => (
                Exit::Failed(format!("cannot reap the child: {e}")),
                Duration::ZERO,
            ),
        }
    }
}

impl From<sys::Ended> for Exit {
    fn from(ended: sys::Ended) -> Exit {
        match ended {
            sys::Ended::Exited(code) => Exit::Code(code),
            sys::Ended::Signaled(signal) => Exit::Signal(signal),
        }
    }
}

/// Reads `stream` to its end on a thread, keeping its first [`CAPTURE_LIMIT`] bytes.
fn capture(stream: Option<impl Read + Send + 'static>) -> Option<JoinHandle<Vec<u8>>> {
    let stream = stream?;
    Some(thread::spawn(move || {
        let mut kept = Vec::new();
        let mut limited = stream.take(CAPTURE_LIMIT);
        // A read error ends the capture; what was read so far is kept.
        let _ = limited.read_to_end(&mut kept);
        let _ = io::copy(&mut limited.into_inner(), &mut io::sink());
        kept
    }))
}

/// The text a capture thread read, lossily decoded.
fn collect(handle: Option<JoinHandle<Vec<u8>>>) -> String {
    let bytes = handle.and_then(|h| h.join().ok()).unwrap_or_default();
    String::from_utf8_lossy(&bytes).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::task::{Expected, Property};

    fn pair() -> Pair {
        Pair {
            task: PathBuf::from("suite/t.yml"),
            folder: "suite".to_string(),
            inputs: vec![PathBuf::from("suite/t.i")],
            property: Property::ValidMemsafety,
            property_file: PathBuf::from("props/valid-memsafety.prp"),
            expected: Expected {
                verdict: false,
                subproperty: None,
            },
            data_model: "LP64".to_string(),
        }
    }

    /// A runner of `sh -c SCRIPT sh verify ...`: the script sees `verify` as `$1`.
    fn shell(script: &str, kill_after: Duration) -> Runner {
        let mut runner = Runner::new(PathBuf::from("sh"), 7, 512);
        runner.prefix_args = vec!["-c".into(), script.into(), "sh".into()];
        runner.kill_after = kill_after;
        runner
    }

    #[test]
    fn passes_the_verify_arguments() {
        let out = shell(
            "echo 'FALSE(valid-deref)'; echo \"$@\"",
            Duration::from_secs(5),
        )
        .run(&pair());
        assert_eq!(out.exit, Exit::Code(0));
        assert_eq!(out.verdict_line(), Some("FALSE(valid-deref)"));
        let args =
            "verify suite/t.i --property props/valid-memsafety.prp --timeout 7 --data-model LP64";
        assert_eq!(out.stdout.lines().nth(1), Some(args));
    }

    #[test]
    fn asks_for_a_witness_per_pair() {
        let mut r = shell("echo \"$@\"", Duration::from_secs(5));
        r.witness_dir = Some(PathBuf::from("ws"));
        let out = r.run(&pair());
        let line = out.stdout.lines().next().unwrap_or("").to_string();
        let name = witness_name(&pair());
        assert!(line.ends_with(&format!("--witness ws/{name}")), "{line}");
        r.svg_dir = Some(PathBuf::from("pics"));
        let line = r.args(&pair()).join(std::ffi::OsStr::new(" "));
        let line = line.to_string_lossy();
        let dir = pictures_name(&pair());
        assert!(line.ends_with(&format!("--svg pics/{dir}")), "{line}");
        assert_eq!(name, "suite__t__valid-memsafety.yml");
    }

    #[test]
    fn reports_exit_codes_signals_and_stderr() {
        let out = shell("echo oops >&2; exit 3", Duration::from_secs(5)).run(&pair());
        assert_eq!((out.exit, out.stderr.as_str()), (Exit::Code(3), "oops\n"));
        let out = shell("kill -9 $$", Duration::from_secs(5)).run(&pair());
        assert_eq!(out.exit, Exit::Signal(9));
    }

    #[test]
    fn limits_the_address_space() {
        let out = shell("ulimit -v", Duration::from_secs(5)).run(&pair());
        assert_eq!(out.verdict_line(), Some("524288"));
    }

    #[test]
    fn kills_the_process_group_at_the_limit() {
        // The background sleep keeps the output pipes open unless its group is killed too.
        let out = shell("sleep 30 & sleep 30; echo TRUE", Duration::from_millis(200)).run(&pair());
        assert_eq!(out.exit, Exit::TimedOut);
        assert_eq!(out.verdict_line(), None);
    }

    #[test]
    fn reports_a_missing_program() {
        let mut runner = shell("", Duration::from_secs(1));
        runner.program = PathBuf::from("/nonexistent/shapecheck");
        let Exit::Failed(message) = runner.run(&pair()).exit else {
            panic!("not a failure")
        };
        assert!(message.contains("/nonexistent/shapecheck"), "{message}");
    }
}
