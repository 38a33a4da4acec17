//! One budget for a whole run: a wall-clock deadline and a memory limit that every phase (the
//! front end, every engine, every solver call) honours.
//!
//! The command line installs the budget once ([`install`]); code anywhere asks [`check`]
//! (cheap: an atomic load and a clock read) and stops with the [`Exhausted`] reason it gets.
//! Memory is measured outside this crate (a watchdog thread in the binary reads the resident
//! size, Z3's allocations included) and reported through [`set_memory_exhausted`]. Solver calls take their time limit from [`solver_timeout_ms`], so
//! that a hard query ends with the run instead of past it.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Why a run must stop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exhausted {
    /// The deadline passed.
    Time,
    /// The memory limit was reached.
    Memory,
}

impl std::fmt::Display for Exhausted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Exhausted::Time => f.write_str("time limit"),
            Exhausted::Memory => f.write_str("memory limit"),
        }
    }
}

/// The limits of a run.
#[derive(Clone, Copy, Debug, Default)]
pub struct Budget {
    /// When the run must have ended.
    pub deadline: Option<Instant>,
    /// Bytes the process may use.
    pub memory: Option<u64>,
}

static BUDGET: OnceLock<Budget> = OnceLock::new();
static OUT_OF_MEMORY: AtomicBool = AtomicBool::new(false);

impl Budget {
    /// The limits of the whole run (what [`install`] set).
    pub fn run() -> Budget {
        get()
    }

    /// Whether an engine with this budget may go on: the run's limits and this deadline.
    pub fn check(&self) -> Result<(), Exhausted> {
        check()?;
        match self.deadline {
            Some(d) if Instant::now() >= d => Err(Exhausted::Time),
            _ => Ok(()),
        }
    }

    /// Time left before this budget's deadline (`None`: no deadline).
    pub fn remaining(&self) -> Option<Duration> {
        self.deadline
            .map(|d| d.saturating_duration_since(Instant::now()))
    }

    /// A share of what is left: the deadline moved to `fraction` of the remaining time (no
    /// deadline stays none).
    pub fn share(&self, fraction: f64) -> Budget {
        Budget {
            deadline: self
                .remaining()
                .map(|r| Instant::now() + r.mul_f64(fraction.clamp(0.0, 1.0))),
            ..*self
        }
    }

    /// This budget with a deadline at most `limit` from now.
    pub fn at_most(&self, limit: Duration) -> Budget {
        let cap = Instant::now() + limit;
        Budget {
            deadline: Some(self.deadline.map_or(cap, |d| d.min(cap))),
            ..*self
        }
    }
}

/// Installs the run's budget; only the first call has an effect. Z3 is told the memory
/// limit too (nine tenths of it), so that a query stops with "unknown" before the process
/// runs out of memory.
pub fn install(b: Budget) {
    if BUDGET.set(b).is_ok()
        && let Some(m) = b.memory
    {
        let mb = ((m / 10 * 9) >> 20).max(64);
        z3::set_global_param("memory_max_size", &mb.to_string());
    }
}

/// The installed budget (no limits when none was installed).
pub fn get() -> Budget {
    BUDGET.get().copied().unwrap_or_default()
}

/// Records that the memory limit was reached; every later [`check`] fails.
pub fn set_memory_exhausted() {
    OUT_OF_MEMORY.store(true, Ordering::Relaxed);
}

/// Whether the run may go on.
pub fn check() -> Result<(), Exhausted> {
    if OUT_OF_MEMORY.load(Ordering::Relaxed) {
        return Err(Exhausted::Memory);
    }
    match get().deadline {
        Some(d) if Instant::now() >= d => Err(Exhausted::Time),
        _ => Ok(()),
    }
}

/// Time left before the deadline (`None`: no deadline).
pub fn remaining() -> Option<Duration> {
    get()
        .deadline
        .map(|d| d.saturating_duration_since(Instant::now()))
}

/// The earlier of a phase's own deadline and the run's.
pub fn earlier(own: Option<Instant>) -> Option<Instant> {
    match (own, get().deadline) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// A solver time limit in milliseconds: `cap`, or less when the run's deadline is nearer
/// (at least 1 ms: Z3 reads 0 as "no limit").
pub fn solver_timeout_ms(cap: u32) -> u32 {
    match remaining() {
        Some(r) => (r.as_millis().min(u128::from(cap)) as u32).max(1),
        None => cap,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn earlier_takes_the_nearer_deadline() {
        let now = Instant::now();
        let a = now + Duration::from_secs(1);
        assert_eq!(earlier(Some(a)).map(|d| d <= a), Some(true));
    }

    #[test]
    fn exhausted_reasons_read_as_limits() {
        assert_eq!(Exhausted::Time.to_string(), "time limit");
        assert_eq!(Exhausted::Memory.to_string(), "memory limit");
    }
}
