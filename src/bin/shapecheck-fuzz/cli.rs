//! The `cli` target: random argument vectors for the `shapecheck` binary, run as child
//! processes with a wall-clock limit. Consumes the binary's path and a scratch folder of odd
//! input files (a small C program and its buggy twin, malformed and non-UTF-8 C, specs,
//! property files, a task definition, a directory); produces crashes: a panic (exit 101 or
//! "panicked" on stderr), a death by signal, exit code 3, or a run past the limit.

use crate::artifacts::{CrashStore, TargetSummary};
use crate::engine::Budget;
use crate::rng::Rng;
use crate::worker::{describe_status, normalise};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Options of the cli target.
pub struct CliConfig {
    /// The `shapecheck` binary.
    pub binary: PathBuf,
    /// Iterations or seconds.
    pub budget: Budget,
    /// The run's seed.
    pub seed: u64,
    /// Generator names switched off (`odd-timeout`, `broken-pipe`, `deep-nesting`, ...).
    pub skip: Vec<String>,
    /// Wall-clock limit of one run.
    pub limit: Duration,
    /// Where crashes and the scratch files go.
    pub artifacts: PathBuf,
    /// Print each new crash as it is found.
    pub verbose: bool,
}

const OK_C: &str = "#include <stdlib.h>\nextern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\n\
struct node { int data; struct node *next; };\nint main(void) {\n  struct node *h = NULL;\n  \
for (int i = 0; i < 2; i++) {\n    struct node *n = malloc(sizeof(struct node));\n    if (!n) return 0;\n    \
n->data = 1; n->next = h; h = n;\n  }\n  while (h) { struct node *t = h->next; if (h->data != 1) reach_error(); free(h); h = t; }\n  return 0;\n}\n";

/// The scratch files: name and content.
fn scratch_files(deep: bool) -> Vec<(&'static str, Vec<u8>)> {
    let mut v = vec![
        ("ok.c", OK_C.as_bytes().to_vec()),
        ("bug.c", OK_C.replace("free(h); ", "").into_bytes()),
        ("ok.i", OK_C.replace("#include <stdlib.h>", "extern void *malloc(unsigned long); extern void free(void *);").into_bytes()),
        ("malformed.c", b"int main(void) { return 0 +* ; }\n".to_vec()),
        ("empty.c", vec![]),
        ("nomain.c", b"int f(void) { return 0; }\n".to_vec()),
        ("nonutf8.c", b"int main(void) { char *s = \"\xff\xfe\"; return 0; }\n".to_vec()),
        ("nonutf8.i", b"int main(void) { \xff return 0; }\n".to_vec()),
        ("weird name \u{e9}.c", OK_C.as_bytes().to_vec()),
        ("ok.shape", b"predicate r[f](v, w) := f*(v, w);\n".to_vec()),
        ("bad.shape", b"predicate r[f](v) := g(v, v);\n".to_vec()),
        ("ok.prp", b"CHECK( init(main()), LTL(G ! call(reach_error())) )\n".to_vec()),
        ("mem.prp", b"CHECK( init(main()), LTL(G valid-free) )\nCHECK( init(main()), LTL(G valid-deref) )\n".to_vec()),
        ("bad.prp", b"CHECK( init(main()), LTL(F end) )\n".to_vec()),
        ("task.yml", b"format_version: '2.0'\ninput_files: 'ok.c'\nproperties:\n  - property_file: ok.prp\n    expected_verdict: true\noptions:\n  language: C\n  data_model: ILP32\n".to_vec()),
        ("bad.yml", b"format_version: [\n".to_vec()),
    ];
    if deep {
        v.push((
            "deep.c",
            format!(
                "int main(void) {{ return {}1{}; }}\n",
                "(".repeat(50_000),
                ")".repeat(50_000)
            )
            .into_bytes(),
        ));
        v.push((
            "deep.shape",
            format!(
                "predicate r[f](v) := {}true{};\n",
                "(".repeat(50_000),
                ")".repeat(50_000)
            )
            .into_bytes(),
        ));
        v.push((
            "wide.shape",
            format!("predicate r[f](v) := {}g(v);\n", " ".repeat(70_000)).into_bytes(),
        ));
    }
    v
}

/// Fuzzes the command line.
pub fn fuzz(cfg: &CliConfig) -> TargetSummary {
    let dir = cfg.artifacts.join("cli-files");
    let skip = |n: &str| cfg.skip.iter().any(|s| s == n);
    let _ = std::fs::create_dir_all(dir.join("a directory.c"));
    for (name, bytes) in scratch_files(!skip("deep-nesting") && !skip("long-line")) {
        if let Err(e) = std::fs::write(dir.join(name), bytes) {
            eprintln!("warning: cannot write scratch file {name}: {e}");
        }
    }
    let mut store = CrashStore::new(cfg.artifacts.join("cli"), "args");
    let mut rng = Rng::new(cfg.seed ^ crate::artifacts::fnv(b"cli"));
    let args_gen = ArgGen {
        dir: &dir,
        odd_timeouts: !skip("odd-timeout"),
    };
    let start = Instant::now();
    let mut n = 0;
    while cfg.budget.allows(n, start) {
        n += 1;
        let args = args_gen.argv(&mut rng);
        let close_stdout = !skip("broken-pipe") && rng.chance(1, 10);
        let Some((signature, detail)) = run_one(&cfg.binary, &args, close_stdout, cfg.limit) else {
            continue;
        };
        if store.known(&signature) {
            continue;
        }
        let text = render_args(&args, close_stdout);
        let note = format!(
            "found by: shapecheck-fuzz fuzz --target cli --seed {} (input {n})\nscratch files: {}",
            cfg.seed,
            dir.display()
        );
        let file = store.save(&signature, &detail, &note, text.as_bytes());
        if cfg.verbose {
            eprintln!("cli: new crash: {signature}\n  -> {}", file.display());
        }
    }
    TargetSummary {
        target: "cli",
        execs: n,
        seconds: start.elapsed().as_secs_f64(),
        store,
    }
}

/// One argument per line (the saved form of an input), `# stdout closed` when it was.
fn render_args(args: &[String], closed: bool) -> String {
    let mut s = String::new();
    if closed {
        s.push_str("# stdout closed\n");
    }
    for a in args {
        s.push_str(a);
        s.push('\n');
    }
    s
}

/// Runs the binary once; `Some((signature, detail))` for a defect.
pub fn run_one(
    bin: &Path,
    args: &[String],
    close_stdout: bool,
    limit: Duration,
) -> Option<(String, String)> {
    let mut cmd = Command::new(bin);
    cmd.args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => return Some(("cannot run the binary".into(), e.to_string())),
    };
    let out = child.stdout.take();
    let err = child.stderr.take();
    let out_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(mut o) = out {
            if close_stdout {
                return buf;
            }
            let _ = std::io::Read::read_to_end(&mut o, &mut buf);
        }
        buf
    });
    let err_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(mut e) = err {
            let _ = std::io::Read::read_to_end(&mut e, &mut buf);
        }
        buf
    });
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Some(s),
            Ok(None) if start.elapsed() > limit => {
                // SAFETY: kill(2) on the process group this function created for the child.
                unsafe { libc::kill(-(child.id() as i32), libc::SIGKILL) };
                let _ = child.wait();
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(_) => break None,
        }
    };
    let _ = out_reader.join();
    let stderr = String::from_utf8_lossy(&err_reader.join().unwrap_or_default()).into_owned();
    let sub = args.first().cloned().unwrap_or_default();
    let Some(status) = status else {
        return Some((format!("hang: `{sub}` ran past {limit:?}"), stderr));
    };
    classify(&sub, status, &stderr)
}

fn classify(sub: &str, status: std::process::ExitStatus, stderr: &str) -> Option<(String, String)> {
    let how = describe_status(status);
    let detail = format!("{how}\n{stderr}");
    if let Some(i) = stderr.find("panicked at ") {
        let rest = &stderr[i + "panicked at ".len()..];
        let mut lines = rest.lines();
        let loc = lines.next().unwrap_or("").trim_end_matches(':');
        // `/rustc/HASH/library/...` -> `library/...`
        let loc = match loc.strip_prefix("/rustc/") {
            Some(rest) => rest.split_once('/').map_or(rest, |x| x.1),
            None => loc,
        };
        let msg = lines.next().unwrap_or("");
        return Some((
            normalise(&format!("panic in `{sub}` at {loc}: {msg}")),
            detail,
        ));
    }
    if status.code() == Some(101) {
        return Some((format!("exit 101 in `{sub}`"), detail));
    }
    if status.code().is_none() {
        return Some((format!("{how} in `{sub}`"), detail));
    }
    if status.code() == Some(3) {
        let first = stderr.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
        return Some((normalise(&format!("exit 3 in `{sub}`: {first}")), detail));
    }
    None
}

/// Makes argument vectors.
struct ArgGen<'a> {
    dir: &'a Path,
    odd_timeouts: bool,
}

const C_FILES: [&str; 11] = [
    "ok.c",
    "bug.c",
    "ok.i",
    "malformed.c",
    "empty.c",
    "nomain.c",
    "nonutf8.c",
    "nonutf8.i",
    "weird name \u{e9}.c",
    "a directory.c",
    "deep.c",
];
const SPEC_FILES: [&str; 5] = ["ok.shape", "bad.shape", "deep.shape", "wide.shape", "ok.c"];
const ODD_TIMEOUTS: [&str; 9] = [
    "18446744073709551616",
    "inf",
    "nan",
    "1e20",
    "-inf",
    "1e308",
    "NaN",
    "infinity",
    "18446744073709551616e0",
];
const TIMEOUTS: [&str; 9] = ["1", "0.5", "2", "0", "-1", "abc", "", "1e-9", "0x10"];
const NUMBERS: [&str; 9] = [
    "0",
    "1",
    "-1",
    "100",
    "18446744073709551615",
    "18446744073709551616",
    "4294967296",
    "x",
    "99999999999999999999999",
];
const CHECKS: [&str; 9] = [
    "unreach-call",
    "valid-memsafety",
    "valid-memcleanup",
    "valid-deref",
    "valid-free",
    "valid-memtrack",
    "bogus",
    "",
    "unreach-call,,valid-free",
];

impl ArgGen<'_> {
    fn file(&self, rng: &mut Rng, names: &[&str]) -> String {
        match rng.below(12) {
            0 => "/nonexistent/x.c".into(),
            1 => "/dev/null".into(),
            2 => "-".into(),
            _ => self.dir.join(rng.pick(names)).display().to_string(),
        }
    }

    fn timeout(&self, rng: &mut Rng) -> String {
        if self.odd_timeouts && rng.chance(1, 3) {
            rng.pick(&ODD_TIMEOUTS).to_string()
        } else {
            rng.pick(&TIMEOUTS).to_string()
        }
    }

    fn argv(&self, rng: &mut Rng) -> Vec<String> {
        let mut a: Vec<String> = vec![];
        match rng.below(12) {
            0..=4 => self.verify(rng, &mut a),
            5 | 6 => {
                a.push("cfa".into());
                a.push(self.file(rng, &C_FILES));
                if rng.chance(1, 2) {
                    a.push("--dot".into());
                }
            }
            7 => {
                a.extend(["spec".into(), rng.pick(&["check", "show"]).to_string()]);
                for _ in 0..rng.below(3) {
                    a.push(self.file(rng, &SPEC_FILES));
                }
            }
            8 => self.classify(rng, &mut a),
            9 => {
                a.push("bench".into());
                a.push(self.file(rng, &["task.yml", "bad.yml", "ok.c"]));
                a.extend([
                    "--timeout".into(),
                    rng.pick(&["1", "0", "-1", "inf", "2"]).to_string(),
                ]);
                if rng.chance(1, 2) {
                    a.extend(["--jobs".into(), rng.pick(&NUMBERS[..4]).to_string()]);
                }
            }
            10 => {
                a.push("table1".into());
                a.push(
                    self.dir
                        .join(rng.pick(&["a directory.c", "nope"]))
                        .display()
                        .to_string(),
                );
            }
            _ => {
                let words = [
                    "verify",
                    "--help",
                    "--version",
                    "help",
                    "cfa",
                    "spec",
                    "--",
                    "-x",
                    "\u{e9}",
                    "--check",
                ];
                for _ in 0..rng.below(4) {
                    a.push(rng.pick(&words).to_string());
                }
            }
        }
        a
    }

    fn verify(&self, rng: &mut Rng, a: &mut Vec<String>) {
        a.push("verify".into());
        a.push(self.file(rng, &C_FILES));
        for _ in 0..rng.below(5) {
            match rng.below(10) {
                0 => a.extend(["--timeout".into(), self.timeout(rng)]),
                1 => {
                    let n = 1 + rng.below(3);
                    let list: Vec<&str> = (0..n).map(|_| *rng.pick(&CHECKS)).collect();
                    a.extend(["--check".into(), list.join(",")]);
                }
                2 => a.extend([
                    "--format".into(),
                    rng.pick(&["json", "text", "xml"]).to_string(),
                ]),
                3 => a.extend([
                    "--property".into(),
                    self.file(rng, &["ok.prp", "mem.prp", "bad.prp", "ok.c"]),
                ]),
                4 => {
                    let opt = *rng.pick(&["--max-steps", "--max-path", "--max-heap"]);
                    a.extend([opt.into(), rng.pick(&NUMBERS).to_string()]);
                }
                5 => a.extend([
                    "--engine".into(),
                    rng.pick(&["auto", "explicit", "shape", "both"]).to_string(),
                ]),
                6 => {
                    let opt = *rng.pick(&["--dump-shapes", "--dump-dot", "--draw"]);
                    let to =
                        *rng.pick(&["/dev/full", "/nonexistent/x", "a directory.c", "out.txt"]);
                    a.extend([opt.into(), self.dir.join(to).display().to_string()]);
                }
                7 => a.push("--maximal".into()),
                8 => a.extend(["--timeout".into(), "2".into()]),
                _ => a.push(self.file(rng, &C_FILES)),
            }
        }
        if !a.iter().any(|x| x == "--timeout") && rng.chance(3, 4) {
            a.extend(["--timeout".into(), "3".into()]);
        }
    }

    fn classify(&self, rng: &mut Rng, a: &mut Vec<String>) {
        a.push("classify".into());
        a.push(self.file(rng, &C_FILES));
        if rng.chance(1, 2) {
            a.extend(["--timeout".into(), self.timeout(rng)]);
        }
        if rng.chance(1, 3) {
            a.extend(["--spec".into(), self.file(rng, &SPEC_FILES)]);
            if rng.chance(1, 2) {
                a.push("--with-library".into());
            }
        }
        if rng.chance(1, 3) {
            a.extend([
                rng.pick(&["-k", "-d", "--max-steps", "--max-heap"])
                    .to_string(),
                rng.pick(&NUMBERS).to_string(),
            ]);
        }
        if rng.chance(1, 3) {
            a.extend(["--format".into(), rng.pick(&["json", "text"]).to_string()]);
        }
    }
}

/// Reads a saved cli input (one argument per line) back: the arguments and whether stdout
/// was closed.
pub fn parse_saved(text: &str) -> (Vec<String>, bool) {
    let closed = text.starts_with("# stdout closed\n");
    let args = text
        .lines()
        .filter(|l| !l.starts_with("# stdout closed"))
        .map(str::to_string)
        .collect();
    (args, closed)
}
