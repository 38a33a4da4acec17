//! The guards of a run, outside every engine: the one place that writes to stdout, a counting
//! allocator, and a watchdog thread that enforces the deadline and the memory limit.
//!
//! Consumes the `--timeout`, `--memory-limit` and `--format` options of a command; produces
//! the run's [`budget`](shapecheck_runtime::engine::budget), which the engines check
//! cooperatively (the watchdog tells them when the resident memory reaches nine tenths of the
//! limit), and, when they do not stop in time (a long solver call, the parser on a huge file),
//! the memory reaches the limit or the allocator is refused memory, an emergency verdict: `UNKNOWN` with the reason (text or
//! JSON), written with one system call, followed by an immediate exit with code 0. Output
//! goes through [`print`], which treats a closed pipe (`shapecheck verify ... | head -1`) as
//! the end of the run instead of a panic.

use shapecheck_runtime::engine::budget::{self, Budget, Exhausted};
use std::alloc::{GlobalAlloc, Layout, System};
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// The allocator of the binary: the system's, except that a refused allocation (an address
/// space limit, `ulimit -v`) ends the run with an emergency verdict instead of an abort.
pub struct GuardedAlloc;

// SAFETY: every method forwards to `System` with the caller's layout; a null result ends the
// process without returning.
unsafe impl GlobalAlloc for GuardedAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        refused(unsafe { System.alloc(layout) })
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        refused(unsafe { System.alloc_zeroed(layout) })
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        refused(unsafe { System.realloc(ptr, layout, new_size) })
    }
}

/// `p`, unless it is null: then the memory is exhausted.
fn refused(p: *mut u8) -> *mut u8 {
    if p.is_null() {
        emergency(Exhausted::Memory);
    }
    p
}

/// How the emergency verdict is written.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// `UNKNOWN` and a `reason:` line.
    Text,
    /// A JSON document with `verdict` and `reasons`.
    Json,
    /// Nothing: the command prints no verdict (`spec`, `cfa`, ...); exit code 1.
    Silent,
}

static STYLE: OnceLock<Style> = OnceLock::new();
static OUTPUT: Mutex<()> = Mutex::new(());
static PRINTED: AtomicBool = AtomicBool::new(false);

/// Writes to stdout; a closed pipe ends the process quietly (exit 0).
pub fn print(s: &str) {
    let _guard = OUTPUT.lock();
    write_stdout(s.as_bytes());
}

/// Writes the verdict report: afterwards, no emergency verdict is printed.
pub fn print_verdict(s: &str) {
    let _guard = OUTPUT.lock();
    PRINTED.store(true, Ordering::SeqCst);
    write_stdout(s.as_bytes());
}

fn write_stdout(bytes: &[u8]) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(bytes).and_then(|_| out.flush())
        && e.kind() == std::io::ErrorKind::BrokenPipe
    {
        exit_now(0);
    }
}

/// `println!` through [`print`].
#[macro_export]
macro_rules! outln {
    ($($t:tt)*) => { $crate::guard::print(&format!("{}\n", format_args!($($t)*))) };
}

/// Ends the process without unwinding or running destructors (another thread may be inside
/// Z3, whose global destructors must not run under it).
pub fn exit_now(code: i32) -> ! {
    let _ = std::io::stderr().flush();
    // SAFETY: `_exit` ends the process; it never returns and touches no Rust state.
    unsafe { libc::_exit(code) }
}

/// Prints the emergency verdict (once, and only if no verdict was printed) and exits.
pub fn emergency(why: Exhausted) -> ! {
    let style = STYLE.get().copied().unwrap_or(Style::Silent);
    if let Ok(_guard) = OUTPUT.try_lock()
        && !PRINTED.swap(true, Ordering::SeqCst)
    {
        let msg: &[u8] = match (style, why) {
            (Style::Text, Exhausted::Time) => b"UNKNOWN\nreason: time limit\n",
            (Style::Text, Exhausted::Memory) => b"UNKNOWN\nreason: memory limit\n",
            (Style::Json, Exhausted::Time) => {
                b"{\"verdict\":\"UNKNOWN\",\"reasons\":[\"time limit\"]}\n"
            }
            (Style::Json, Exhausted::Memory) => {
                b"{\"verdict\":\"UNKNOWN\",\"reasons\":[\"memory limit\"]}\n"
            }
            (Style::Silent, Exhausted::Time) => b"",
            (Style::Silent, Exhausted::Memory) => b"",
        };
        // SAFETY: writes a static buffer to fd 1; no allocation (this may run inside the
        // allocator).
        unsafe {
            libc::write(1, msg.as_ptr().cast(), msg.len());
        }
        if style == Style::Silent {
            let note: &[u8] = match why {
                Exhausted::Time => b"error: time limit reached\n",
                Exhausted::Memory => b"error: memory limit reached\n",
            };
            // SAFETY: as above, on fd 2.
            unsafe {
                libc::write(2, note.as_ptr().cast(), note.len());
            }
            exit_now(1);
        }
    }
    exit_now(0)
}

/// Late beyond the deadline at which the watchdog ends the run itself.
const GRACE: Duration = Duration::from_millis(600);
/// How often the watchdog looks.
const TICK: Duration = Duration::from_millis(20);

/// Installs the budget of a run that started at `start` and starts the watchdog.
pub fn start(style: Style, start: Instant, timeout: Option<Duration>, memory_mb: Option<u64>) {
    let _ = STYLE.set(style);
    let memory = memory_mb.map(|mb| effective_limit(mb.saturating_mul(1 << 20)));
    let deadline = timeout.and_then(|t| start.checked_add(t));
    budget::install(Budget { deadline, memory });
    let _ = std::thread::Builder::new()
        .name("watchdog".into())
        .stack_size(64 << 10)
        .spawn(move || watch(deadline, memory));
}

fn watch(deadline: Option<Instant>, memory: Option<u64>) {
    loop {
        std::thread::sleep(TICK);
        if deadline.is_some_and(|d| Instant::now() >= d + GRACE) {
            emergency(Exhausted::Time);
        }
        if let (Some(limit), Some(rss)) = (memory, resident_bytes()) {
            if rss > limit {
                emergency(Exhausted::Memory);
            }
            if rss > limit / 10 * 9 {
                budget::set_memory_exhausted();
            }
        }
    }
}

/// The process's resident set in bytes (Linux; `None` elsewhere).
fn resident_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * page_size())
}

fn page_size() -> u64 {
    // SAFETY: sysconf has no preconditions.
    let p = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    u64::try_from(p).unwrap_or(4096).max(1)
}

/// The limit actually enforced: `wanted`, or less when an address-space limit (`ulimit -v`)
/// leaves less room beside what the process has reserved but does not use (thread stacks,
/// allocator arenas), so that the run stops before an allocation is refused.
fn effective_limit(wanted: u64) -> u64 {
    let Some(cap) = address_space_limit() else {
        return wanted;
    };
    let reserved = virtual_bytes()
        .zip(resident_bytes())
        .map_or(0, |(v, r)| v.saturating_sub(r));
    wanted.min(cap.saturating_sub(reserved) / 10 * 8)
}

fn address_space_limit() -> Option<u64> {
    let mut r = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes into the struct we pass.
    let ok = unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut r) } == 0;
    (ok && r.rlim_cur != libc::RLIM_INFINITY).then_some(r.rlim_cur)
}

fn virtual_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().next()?.parse().ok()?;
    Some(pages * page_size())
}

/// The default memory limit: three quarters of the machine's memory, in MB.
pub fn default_memory_mb() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let kb: u64 = meminfo
        .lines()
        .find(|l| l.starts_with("MemTotal:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()?;
    Some(kb / 1024 / 4 * 3)
}
