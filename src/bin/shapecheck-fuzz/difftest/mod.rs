//! Differential soundness testing: `--programs N` generated C programs in, a table and the
//! saved defects out. Each program is verified by shapecheck for every property of `--props`;
//! every TRUE is cross-checked by running the program compiled with ASan/UBSan on `--runs`
//! random input sequences (a reached error, a memory error, a leak relevant to the property is
//! a wrong TRUE), every FALSE by running it on the counterexample's inputs (the violation must
//! show up, or the FALSE is a suspected wrong FALSE; LeakSanitizer, which only looks at exit, may
//! miss a valid-memtrack violation: such FALSEs are counted as unconfirmed, not as defects).

mod progen;
mod sanitizer;
mod verifier;

use sanitizer::{Inputs, Observation, Toolchain};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Output, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use verifier::{Answer, Verifier};

/// Options of a difftest run.
#[derive(clap::Args)]
pub struct DiffArgs {
    /// Programs to generate.
    #[arg(long, default_value_t = 20)]
    programs: u64,
    /// Seed of the run (program i is the same for the same seed).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Programs checked in parallel.
    #[arg(long, short, default_value_t = 1)]
    jobs: usize,
    /// shapecheck's `--timeout` per property, in seconds.
    #[arg(long, default_value_t = 10.0)]
    timeout: f64,
    /// Random runs of the compiled program for each program with a TRUE.
    #[arg(long, default_value_t = 200)]
    runs: u32,
    /// Properties, comma-separated.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "unreach-call,valid-memsafety,valid-memcleanup"
    )]
    props: Vec<String>,
    /// Where defects (and with --keep, every program) are saved.
    #[arg(long, default_value = "difftest-artifacts")]
    artifacts: PathBuf,
    /// The shapecheck binary; default: beside this binary.
    #[arg(long)]
    shapecheck: Option<PathBuf>,
    /// The C compiler.
    #[arg(long, default_value = "cc")]
    cc: String,
    /// Keep every generated program in ARTIFACTS/programs.
    #[arg(long)]
    keep: bool,
    /// Print one line per program.
    #[arg(long, short)]
    verbose: bool,
    /// Extra arguments for `shapecheck verify` (e.g. `--verifier-arg=--engine=shape`).
    #[arg(long, allow_hyphen_values = true)]
    verifier_arg: Vec<String>,
    /// Only write the programs to ARTIFACTS/programs and print their labels.
    #[arg(long)]
    generate_only: bool,
}

/// Counts of a run.
#[derive(Default)]
struct Stats {
    programs: u64,
    labels: BTreeMap<String, u64>,
    /// property -> (TRUE, FALSE, UNKNOWN)
    verdicts: BTreeMap<String, [u64; 3]>,
    unknown_reasons: BTreeMap<String, u64>,
    true_checked: u64,
    runs: u64,
    runs_counted: u64,
    false_confirmed: u64,
    false_unconfirmed_memtrack: u64,
    wrong_true: u64,
    true_with_ub: u64,
    suspected_wrong_false: u64,
    crashes: u64,
    not_compiled: u64,
    defects: Vec<String>,
}

/// Runs the differential test; exit 0 (no defect), 1 (defects), 2 (bad options), 4 (skipped:
/// no C compiler with working sanitizers).
pub fn run(a: &DiffArgs) -> ExitCode {
    if a.generate_only {
        return generate_only(a);
    }
    let work = a.artifacts.join("work");
    let tc = match Toolchain::new(&a.cc, &work) {
        Ok(t) => t,
        Err(e) => {
            println!("difftest skipped: no C compiler with -fsanitize=address works here: {e}");
            return ExitCode::from(4);
        }
    };
    let bin = crate::shapecheck_binary(a.shapecheck.as_ref());
    if !bin.exists() {
        eprintln!(
            "error: {}: no such binary (build it: cargo build --release)",
            bin.display()
        );
        return ExitCode::from(2);
    }
    let mut verifier = Verifier::new(bin, a.timeout);
    verifier.extra.clone_from(&a.verifier_arg);
    eprintln!(
        "difftest: {} programs, seed {}, {} jobs, properties {}{}",
        a.programs,
        a.seed,
        a.jobs,
        a.props.join(","),
        if verifier.lp64 {
            ", --data-model LP64"
        } else {
            " (shapecheck has no --data-model: ILP32)"
        }
    );
    let stats = Mutex::new(Stats::default());
    let next = AtomicU64::new(0);
    let start = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..a.jobs.max(1) {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= a.programs {
                        return;
                    }
                    let line = check_program(a, &tc, &verifier, i, &stats);
                    if a.verbose {
                        eprintln!("{line}");
                    }
                }
            });
        }
    });
    let st = stats.into_inner().unwrap_or_else(|e| e.into_inner());
    print!("{}", table(&st, start.elapsed().as_secs_f64(), &a.props));
    if st.defects.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

fn generate_only(a: &DiffArgs) -> ExitCode {
    let dir = a.artifacts.join("programs");
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("error: {}: {e}", dir.display());
        return ExitCode::from(2);
    }
    let mut labels: BTreeMap<&str, u64> = BTreeMap::new();
    for i in 0..a.programs {
        let p = progen::program(a.seed, i);
        *labels.entry(p.label).or_default() += 1;
        let f = dir.join(format!("prog-{}-{i}.c", a.seed));
        if let Err(e) = std::fs::write(&f, &p.text) {
            eprintln!("error: {}: {e}", f.display());
            return ExitCode::from(2);
        }
    }
    for (l, n) in labels {
        println!("{n:>6}  {l}");
    }
    ExitCode::SUCCESS
}

/// Checks program `i`; returns a one-line summary.
fn check_program(
    a: &DiffArgs,
    tc: &Toolchain,
    v: &Verifier,
    i: u64,
    stats: &Mutex<Stats>,
) -> String {
    let p = progen::program(a.seed, i);
    let dir = a.artifacts.join("work").join(format!("p{i}"));
    let _ = std::fs::create_dir_all(&dir);
    let src = dir.join(format!("prog-{}-{i}.c", a.seed));
    if let Err(e) = std::fs::write(&src, &p.text) {
        return format!("program {i}: cannot write {}: {e}", src.display());
    }
    let mut notes = Vec::new();
    let answers: Vec<(String, Answer, String)> = a
        .props
        .iter()
        .map(|prop| {
            let (ans, raw) = v.verify(&src, prop);
            (prop.clone(), ans, raw)
        })
        .collect();
    let exe = tc.compile(&src);
    let mut local = Stats {
        programs: 1,
        ..Default::default()
    };
    *local.labels.entry(p.label.to_string()).or_default() += 1;
    for (prop, ans, raw) in &answers {
        let slot = local.verdicts.entry(prop.clone()).or_default();
        match ans {
            Answer::True => slot[0] += 1,
            Answer::False { .. } => slot[1] += 1,
            Answer::Unknown(r) => {
                slot[2] += 1;
                *local.unknown_reasons.entry(r.clone()).or_default() += 1;
            }
            Answer::Crash(c) => {
                local.crashes += 1;
                let f = save(a, "crash", &src, &format!("property: {prop}\n{c}\n\n{raw}"));
                local.defects.push(format!(
                    "crash: program {i}, {prop}: {c} -> {}",
                    f.display()
                ));
            }
        }
        notes.push(format!("{prop}={}", short(ans)));
    }
    match &exe {
        Ok(exe) => {
            cross_check_true(a, exe, &src, &answers, &dir, &mut local);
            confirm_false(a, exe, &src, &answers, &dir, &mut local);
        }
        Err(e) => {
            local.not_compiled += 1;
            local
                .defects
                .push(format!("harness: program {i} does not compile: {e}"));
        }
    }
    if a.keep {
        let keep = a.artifacts.join("programs");
        let _ = std::fs::create_dir_all(&keep);
        let _ = std::fs::copy(&src, keep.join(src.file_name().unwrap_or_default()));
    }
    let _ = std::fs::remove_dir_all(&dir);
    let line = format!("program {i} ({}): {}", p.label, notes.join(" "));
    merge(&mut stats.lock().unwrap_or_else(|e| e.into_inner()), local);
    line
}

fn short(a: &Answer) -> String {
    match a {
        Answer::True => "TRUE".into(),
        Answer::False { property, .. } => format!("FALSE({property})"),
        Answer::Unknown(_) => "UNKNOWN".into(),
        Answer::Crash(_) => "CRASH".into(),
    }
}

/// Runs the program on random inputs and checks every TRUE answer against each run.
fn cross_check_true(
    a: &DiffArgs,
    exe: &Path,
    src: &Path,
    answers: &[(String, Answer, String)],
    dir: &Path,
    st: &mut Stats,
) {
    let trues: Vec<&str> = answers
        .iter()
        .filter(|x| matches!(x.1, Answer::True))
        .map(|x| x.0.as_str())
        .collect();
    if trues.is_empty() {
        return;
    }
    st.true_checked += trues.len() as u64;
    let trace = dir.join("inputs.txt");
    let mut reported: Vec<&str> = Vec::new();
    let mut timeouts = 0;
    for r in 0..a.runs {
        let o = sanitizer::run(
            exe,
            &Inputs::Random(u64::from(r) + 1),
            Duration::from_secs(5),
            Some(&trace),
        );
        st.runs += 1;
        timeouts += u32::from(o.timeout);
        if timeouts >= 5 {
            break; // a loop that does not end (a cycle): more runs would only wait
        }
        if !o.counts() {
            continue;
        }
        st.runs_counted += 1;
        for prop in &trues {
            if reported.contains(prop) {
                continue;
            }
            if let Some((kind, why)) = violates_true(prop, &o) {
                reported.push(prop);
                let detail = format!(
                    "property: {prop}\nverdict: TRUE\nrun: random seed {}\ninputs: {}\nobserved: {why}\n\n{}",
                    r + 1,
                    join(&o.inputs),
                    o.stderr
                );
                let f = save(a, kind, src, &detail);
                if kind == "true-with-ub" {
                    st.true_with_ub += 1;
                } else {
                    st.wrong_true += 1;
                }
                st.defects
                    .push(format!("{kind}: {prop} TRUE but {why} -> {}", f.display()));
            }
        }
    }
}

/// Whether a run contradicts a TRUE for `prop`: (defect kind, what was seen).
fn violates_true(prop: &str, o: &Observation) -> Option<(&'static str, String)> {
    let mem = o.bad_access().or_else(|| o.bad_free());
    let deref = matches!(prop, "valid-memsafety" | "valid-deref");
    let free = matches!(prop, "valid-memsafety" | "valid-free");
    let track = matches!(prop, "valid-memsafety" | "valid-memtrack");
    if prop == "unreach-call" && o.reached {
        return Some(("wrong-true", "reach_error was called".into()));
    }
    if let Some(m) = o
        .bad_access()
        .filter(|_| deref)
        .or_else(|| o.bad_free().filter(|_| free))
    {
        return Some(("wrong-true", m));
    }
    if track && o.leak {
        return Some(("wrong-true", "LeakSanitizer: memory leaked at exit".into()));
    }
    if prop == "valid-memcleanup" && o.live.is_some_and(|n| n > 0) {
        let n = o.live.unwrap_or(0);
        return Some((
            "wrong-true",
            format!("{n} heap blocks still allocated when the program ended"),
        ));
    }
    // The tool's contract: undefined behaviour on a run makes TRUE impossible.
    match (mem, &o.ub) {
        (Some(m), _) => Some(("true-with-ub", format!("{m} (undefined behaviour)"))),
        (None, Some(u)) => Some(("true-with-ub", format!("UBSan: {u}"))),
        _ => None,
    }
}

/// Replays each FALSE's counterexample inputs on the compiled program.
fn confirm_false(
    a: &DiffArgs,
    exe: &Path,
    src: &Path,
    answers: &[(String, Answer, String)],
    dir: &Path,
    st: &mut Stats,
) {
    for (prop, ans, raw) in answers {
        let Answer::False { property, inputs } = ans else {
            continue;
        };
        let o = sanitizer::run(
            exe,
            &Inputs::List(inputs.clone()),
            Duration::from_secs(10),
            Some(&dir.join("cex.txt")),
        );
        match confirms(property, &o) {
            Confirm::Yes => st.false_confirmed += 1,
            Confirm::Weak => {
                st.false_unconfirmed_memtrack += 1;
                let detail = format!(
                    "property: {prop}\nverdict: FALSE({property})\ninputs: {}\nLeakSanitizer saw no leak at exit\n\n{}\n\n--- shapecheck ---\n{raw}",
                    join(inputs),
                    o.stderr
                );
                save(a, "unconfirmed-memtrack", src, &detail);
            }
            Confirm::No(why) => {
                st.suspected_wrong_false += 1;
                let detail = format!(
                    "property: {prop}\nverdict: FALSE({property})\ninputs: {}\nobserved: {why}\n\n{}\n\n--- shapecheck ---\n{raw}",
                    join(inputs),
                    o.stderr
                );
                let f = save(a, "suspected-wrong-false", src, &detail);
                st.defects.push(format!(
                    "suspected wrong FALSE: {prop} FALSE({property}) but {why} -> {}",
                    f.display()
                ));
            }
        }
    }
}

enum Confirm {
    Yes,
    Weak,
    No(String),
}

fn confirms(property: &str, o: &Observation) -> Confirm {
    let seen = describe(o);
    let ok = match property {
        "unreach-call" => o.reached,
        "valid-deref" => o.bad_access().is_some(),
        "valid-free" => o.bad_free().is_some(),
        "valid-memcleanup" => o.live.is_some_and(|n| n > 0),
        "valid-memtrack" if o.leak => true,
        "valid-memtrack" => return Confirm::Weak,
        _ => false,
    };
    if ok { Confirm::Yes } else { Confirm::No(seen) }
}

fn describe(o: &Observation) -> String {
    let mut v = vec![];
    if o.reached {
        v.push("reach_error called".to_string());
    }
    if let Some(k) = &o.asan {
        v.push(format!("AddressSanitizer: {k}"));
    }
    if o.leak {
        v.push("LeakSanitizer: leak".into());
    }
    if let Some(u) = &o.ub {
        v.push(format!("UBSan: {u}"));
    }
    if o.timeout {
        v.push("timeout".into());
    }
    if let Some(n) = o.live {
        v.push(format!("{n} blocks live at the end"));
    }
    if v.is_empty() {
        v.push(format!("a clean run (exit {:?})", o.exit));
    }
    v.join(", ")
}

fn join(v: &[i64]) -> String {
    v.iter().map(i64::to_string).collect::<Vec<_>>().join(",")
}

/// Saves a program and its details under ARTIFACTS/KIND/.
fn save(a: &DiffArgs, kind: &str, src: &Path, detail: &str) -> PathBuf {
    let dir = a.artifacts.join(kind);
    let name = src.file_name().unwrap_or_default();
    let dest = dir.join(name);
    let _ = std::fs::create_dir_all(&dir);
    let _ = std::fs::copy(src, &dest);
    let _ = std::fs::write(dest.with_extension("txt"), detail);
    dest
}

fn merge(into: &mut Stats, s: Stats) {
    into.programs += s.programs;
    for (k, n) in s.labels {
        *into.labels.entry(k).or_default() += n;
    }
    for (k, v) in s.verdicts {
        let e = into.verdicts.entry(k).or_default();
        (0..3).for_each(|i| e[i] += v[i]);
    }
    for (k, n) in s.unknown_reasons {
        *into.unknown_reasons.entry(k).or_default() += n;
    }
    into.true_checked += s.true_checked;
    into.runs += s.runs;
    into.runs_counted += s.runs_counted;
    into.false_confirmed += s.false_confirmed;
    into.false_unconfirmed_memtrack += s.false_unconfirmed_memtrack;
    into.wrong_true += s.wrong_true;
    into.true_with_ub += s.true_with_ub;
    into.suspected_wrong_false += s.suspected_wrong_false;
    into.crashes += s.crashes;
    into.not_compiled += s.not_compiled;
    into.defects.extend(s.defects);
}

fn table(st: &Stats, seconds: f64, props: &[String]) -> String {
    let mut s = format!("programs generated: {} in {seconds:.0} s (", st.programs);
    s.push_str(
        &st.labels
            .iter()
            .map(|(k, n)| format!("{k} {n}"))
            .collect::<Vec<_>>()
            .join(", "),
    );
    s.push_str(")\n\n");
    s.push_str(&format!(
        "{:<18} {:>6} {:>6} {:>8}\n",
        "property", "TRUE", "FALSE", "UNKNOWN"
    ));
    for p in props {
        let v = st.verdicts.get(p).copied().unwrap_or_default();
        s.push_str(&format!("{p:<18} {:>6} {:>6} {:>8}\n", v[0], v[1], v[2]));
    }
    s.push_str("\nUNKNOWN reasons:\n");
    for (r, n) in &st.unknown_reasons {
        s.push_str(&format!("  {n:>6}  {r}\n"));
    }
    s.push_str(&format!(
        "\nTRUE cross-checked:            {} (answers), {} sanitizer runs ({} counted)\n\
         FALSE confirmed:               {}\n\
         FALSE unconfirmed (memtrack):  {}  (LeakSanitizer checks only at exit)\n\
         wrong TRUE:                    {}\n\
         TRUE with UB on a run:         {}\n\
         suspected wrong FALSE:         {}\n\
         crashes / exit codes != 0:     {}\n\
         programs not compiled:         {}\n",
        st.true_checked,
        st.runs,
        st.runs_counted,
        st.false_confirmed,
        st.false_unconfirmed_memtrack,
        st.wrong_true,
        st.true_with_ub,
        st.suspected_wrong_false,
        st.crashes,
        st.not_compiled
    ));
    if !st.defects.is_empty() {
        s.push_str("\ndefects:\n");
        for d in &st.defects {
            s.push_str(&format!("  {d}\n"));
        }
    }
    s
}

/// Runs a command with a wall-clock limit: `Ok(None)` when it was killed.
pub fn output_with_limit(mut cmd: Command, limit: Duration) -> std::io::Result<Option<Output>> {
    use std::os::unix::process::CommandExt;
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()?;
    let (out, err) = (child.stdout.take(), child.stderr.take());
    let read = |r: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(mut r) = r {
                let _ = r.read_to_end(&mut buf);
            }
            buf
        })
    };
    let ro = read(out.map(|o| Box::new(o) as Box<dyn std::io::Read + Send>));
    let re = read(err.map(|e| Box::new(e) as Box<dyn std::io::Read + Send>));
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait()? {
            break Some(s);
        }
        if start.elapsed() > limit {
            // SAFETY: kill(2) on the process group created for this child.
            unsafe { libc::kill(-(child.id() as i32), libc::SIGKILL) };
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let stdout = ro.join().unwrap_or_default();
    let stderr = re.join().unwrap_or_default();
    Ok(status.map(|status| Output {
        status,
        stdout,
        stderr,
    }))
}
