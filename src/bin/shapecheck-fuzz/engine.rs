//! The fuzz loop of the in-process targets: the corpus and the options in, a
//! [`TargetSummary`] out. Each iteration makes an input (a mutated corpus file, a grammar-made
//! program or spec, or a mutated grammar-made one), runs it in a worker process, and hands a
//! crash to the store; the first input of a new signature is minimised (lines, then bytes,
//! kept while the signature stays the same) before it is saved.

use crate::artifacts::{CrashStore, TargetSummary};
use crate::corpus::{self, CorpusConfig};
use crate::grammar;
use crate::mutate::{C_TOKENS, Mutator, SPEC_TOKENS};
use crate::rng::Rng;
use crate::targets::Target;
use crate::worker::{Outcome, Worker, WorkerConfig};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// When to stop.
#[derive(Copy, Clone, Debug)]
pub struct Budget {
    /// At most this many inputs.
    pub iterations: Option<u64>,
    /// At most this long.
    pub seconds: Option<f64>,
}

impl Budget {
    /// Whether the `n`-th input may run, `start` being the start of the run.
    pub fn allows(&self, n: u64, start: Instant) -> bool {
        self.iterations.is_none_or(|m| n < m)
            && self
                .seconds
                .is_none_or(|s| start.elapsed() < Duration::from_secs_f64(s))
    }
}

/// Options of a fuzz run of one target.
pub struct FuzzConfig {
    /// Iterations or seconds.
    pub budget: Budget,
    /// The run's seed.
    pub seed: u64,
    /// Mutator and generator names switched off.
    pub skip: Vec<String>,
    /// Minimise new crashes (at most this many extra runs each; 0: no).
    pub minimise_runs: u32,
    /// Longest input.
    pub max_len: usize,
    /// The worker processes.
    pub worker: WorkerConfig,
    /// Where seeds come from.
    pub corpus: CorpusConfig,
    /// Where crashes go.
    pub artifacts: PathBuf,
    /// Print each new crash as it is found.
    pub verbose: bool,
}

/// Fuzzes an in-process target.
pub fn fuzz(target: Target, cfg: &FuzzConfig) -> TargetSummary {
    let seeds: Vec<Vec<u8>> = corpus::load(target, &cfg.corpus)
        .into_iter()
        .map(|s| s.1)
        .collect();
    eprintln!("{target}: {} corpus files", seeds.len());
    let dict = if target == Target::Spec {
        &SPEC_TOKENS
    } else {
        &C_TOKENS
    };
    let mutator = Mutator::new(&seeds, dict, &cfg.skip);
    let grammar_on = !cfg.skip.iter().any(|s| s == "grammar");
    let mut rng = Rng::new(cfg.seed ^ crate::artifacts::fnv(target.name().as_bytes()));
    let mut store = CrashStore::new(cfg.artifacts.join(target.name()), target.extension());
    let mut runner = Runner::new(&cfg.worker);
    let mut big = Runner::new(&WorkerConfig {
        stack_bytes: BIG_STACK,
        ..cfg.worker.clone()
    });
    let start = Instant::now();
    let mut n = 0;
    while cfg.budget.allows(n, start) {
        let input = make_input(target, &mut rng, &seeds, &mutator, grammar_on, cfg.max_len);
        n += 1;
        if let Outcome::Crash { signature, detail } = runner.run(&input) {
            let signature = refine_overflow(&mut big, signature, &input);
            if store.known(&signature) {
                continue;
            }
            let small = if cfg.minimise_runs > 0 && !signature.starts_with("hang") {
                minimise(&mut runner, input, &signature, cfg.minimise_runs)
            } else {
                input
            };
            let note = format!(
                "found by: shapecheck-fuzz fuzz --target {target} --seed {} (input {n})",
                cfg.seed
            );
            let file = store.save(&signature, &detail, &note, &small);
            if cfg.verbose {
                eprintln!("{target}: new crash: {signature}\n  -> {}", file.display());
            }
        }
    }
    TargetSummary {
        target: target.name(),
        execs: n,
        seconds: start.elapsed().as_secs_f64(),
        store,
    }
}

/// The stack of `shapecheck verify` (256 MiB): an input that overflows it too recurses
/// without bound.
const BIG_STACK: usize = 256 << 20;

/// Tells a deep input (overflows the normal stack only) from unbounded recursion (overflows
/// 256 MiB too): the two are different defects.
fn refine_overflow(big: &mut Runner, signature: String, input: &[u8]) -> String {
    if !signature.starts_with("stack overflow") {
        return signature;
    }
    match big.run(input) {
        Outcome::Crash { signature: s, .. } if s.starts_with("stack overflow") => {
            format!("{signature}, also with a 256 MiB stack (unbounded recursion)")
        }
        _ => format!("{signature}, not with a 256 MiB stack (deep input)"),
    }
}

fn make_input(
    target: Target,
    rng: &mut Rng,
    seeds: &[Vec<u8>],
    mutator: &Mutator,
    grammar_on: bool,
    max_len: usize,
) -> Vec<u8> {
    let generated = grammar_on && (seeds.is_empty() || rng.chance(1, 5));
    let base = if generated {
        let text = match target {
            Target::Spec => grammar::spec(rng),
            _ => grammar::c_program(rng),
        };
        if rng.chance(1, 2) {
            return text.into_bytes();
        }
        text.into_bytes()
    } else if seeds.is_empty() {
        Vec::new()
    } else {
        rng.pick(seeds).clone()
    };
    mutator.mutate(rng, &base, max_len)
}

/// A worker that is restarted whenever it dies.
pub struct Runner {
    config: WorkerConfig,
    worker: Option<Worker>,
}

impl Runner {
    /// A runner; the worker starts with the first input.
    pub fn new(config: &WorkerConfig) -> Runner {
        Runner {
            config: config.clone(),
            worker: None,
        }
    }

    /// Runs one input in a live worker.
    pub fn run(&mut self, input: &[u8]) -> Outcome {
        if !self.worker.as_mut().is_some_and(|w| w.alive()) {
            match Worker::spawn(&self.config) {
                Ok(w) => self.worker = Some(w),
                Err(e) => {
                    return Outcome::Crash {
                        signature: "worker failed to start".into(),
                        detail: e.to_string(),
                    };
                }
            }
        }
        let w = self.worker.as_mut().expect("worker started");
        w.run(input)
    }
}

/// Removes lines, then bytes, while the crash keeps its signature; at most `budget` runs.
pub fn minimise(runner: &mut Runner, input: Vec<u8>, signature: &str, budget: u32) -> Vec<u8> {
    let mut left = budget;
    let mut cur = shrink_runs(runner, input, signature, &mut left);
    for by_lines in [true, false] {
        let mut units = split(&cur, by_lines);
        let mut chunk = units.len().div_ceil(2);
        while chunk >= 1 && left > 0 {
            let mut i = 0;
            while i < units.len() && left > 0 {
                let mut trial = units.clone();
                trial.drain(i..(i + chunk).min(units.len()));
                let bytes: Vec<u8> = trial.concat();
                left -= 1;
                match runner.run(&bytes) {
                    Outcome::Crash { signature: s, .. } if signature.starts_with(&s) => {
                        units = trial
                    }
                    _ => i += chunk,
                }
            }
            if chunk == 1 {
                break;
            }
            chunk = chunk.div_ceil(2);
        }
        cur = units.concat();
    }
    cur
}

/// Halves long runs of one repeated byte (deep nesting, long lines) while the crash stays.
fn shrink_runs(runner: &mut Runner, mut cur: Vec<u8>, signature: &str, left: &mut u32) -> Vec<u8> {
    let mut at = 0;
    while at < cur.len() && *left > 0 {
        let len = cur[at..].iter().take_while(|b| **b == cur[at]).count();
        if len < 16 {
            at += len;
            continue;
        }
        let mut trial = cur.clone();
        trial.drain(at..at + len / 2);
        *left -= 1;
        match runner.run(&trial) {
            Outcome::Crash { signature: s, .. } if signature.starts_with(&s) => cur = trial,
            _ => at += len,
        }
    }
    cur
}

fn split(bytes: &[u8], by_lines: bool) -> Vec<Vec<u8>> {
    if by_lines {
        bytes
            .split_inclusive(|b| *b == b'\n')
            .map(<[u8]>::to_vec)
            .collect()
    } else {
        bytes.iter().map(|b| vec![*b]).collect()
    }
}
