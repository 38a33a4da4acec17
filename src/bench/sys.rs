//! The few process-control calls that std does not offer, as safe wrappers over libc: a death
//! signal and an address-space limit set between fork and exec, waiting for a child without
//! reaping it, reaping it with its resource usage, and killing its process group.

use std::io;
use std::os::unix::process::CommandExt;
use std::process::Command;
use std::time::Duration;

/// How a reaped child ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// It exited with this code.
    Exited(i32),
    /// It was killed by this signal.
    Signaled(i32),
}

/// A reaped child: how it ended and the CPU time (user + system) it and its reaped children used.
#[derive(Clone, Copy, Debug)]
pub struct Reaped {
    /// How it ended.
    pub ended: Ended,
    /// User plus system CPU time.
    pub cpu: Duration,
}

/// Makes the child of `cmd` set itself up before exec: it is killed (SIGKILL) when the thread
/// that started it ends, as when `shapecheck bench` is interrupted, and, given `max_bytes`, its
/// address space (RLIMIT_AS, soft and hard) is limited to that many bytes.
pub fn prepare_child(cmd: &mut Command, max_bytes: Option<u64>) {
    let limit = max_bytes.map(|bytes| {
        let rlim = libc::rlim_t::try_from(bytes).unwrap_or(libc::RLIM_INFINITY);
        libc::rlimit {
            rlim_cur: rlim,
            rlim_max: rlim,
        }
    });
    let hook = move || -> io::Result<()> {
        // SAFETY: prctl(PR_SET_PDEATHSIG) takes plain integers and touches no memory of ours.
        if unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) } != 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: setrlimit only reads `limit`, a plain value owned by this closure.
        if let Some(limit) = &limit
            && unsafe { libc::setrlimit(libc::RLIMIT_AS, limit) } != 0
        {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    };
    // SAFETY: the hook runs in the forked child before exec. It allocates nothing, takes no
    // locks and calls only prctl and setrlimit, which are async-signal-safe system calls.
    unsafe { cmd.pre_exec(hook) };
}

/// Converts a std child id into a libc pid.
fn to_pid(id: u32) -> io::Result<libc::pid_t> {
    libc::pid_t::try_from(id).map_err(|_| io::Error::other(format!("bad process id {id}")))
}

/// Retries `call` while it fails with EINTR; returns its non-negative result.
fn retry(mut call: impl FnMut() -> libc::c_int) -> io::Result<libc::c_int> {
    loop {
        let ret = call();
        if ret >= 0 {
            return Ok(ret);
        }
        let err = io::Error::last_os_error();
        if err.kind() != io::ErrorKind::Interrupted {
            return Err(err);
        }
    }
}

/// Whether child `id` has ended; it stays a zombie (not reaped), so its id stays reserved.
pub fn has_ended(id: u32) -> io::Result<bool> {
    let pid: libc::id_t = id;
    // SAFETY: siginfo_t is plain old data, for which all zero bytes is a valid value.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    let flags = libc::WEXITED | libc::WNOHANG | libc::WNOWAIT;
    // SAFETY: `info` is valid and writable for the duration of the call.
    retry(|| unsafe { libc::waitid(libc::P_PID, pid, &mut info, flags) })?;
    // With WNOHANG and no state change, Linux leaves the zeroed si_signo untouched.
    Ok(info.si_signo == libc::SIGCHLD)
}

/// Waits for child `id` to end, reaps it and returns its exit state and CPU time.
pub fn reap(id: u32) -> io::Result<Reaped> {
    let pid = to_pid(id)?;
    let mut status: libc::c_int = 0;
    // SAFETY: rusage is plain old data, for which all zero bytes is a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `status` and `usage` are valid and writable for the duration of the call.
    retry(|| unsafe { libc::wait4(pid, &mut status, 0, &mut usage) })?;
    let ended = if libc::WIFSIGNALED(status) {
        Ended::Signaled(libc::WTERMSIG(status))
    } else {
        Ended::Exited(libc::WEXITSTATUS(status))
    };
    let cpu = timeval(usage.ru_utime) + timeval(usage.ru_stime);
    Ok(Reaped { ended, cpu })
}

/// Converts a timeval into a duration, treating negative fields as zero.
fn timeval(tv: libc::timeval) -> Duration {
    let secs = u64::try_from(tv.tv_sec).unwrap_or(0);
    let micros = u32::try_from(tv.tv_usec).unwrap_or(0);
    Duration::from_secs(secs) + Duration::from_micros(micros.into())
}

/// Sends SIGKILL to every process of the process group `id`; a group that is gone is no error.
pub fn kill_group(id: u32) {
    if let Ok(pgid) = to_pid(id)
        && pgid > 0
    {
        // SAFETY: kill has no memory-safety preconditions; a negative pid names a process group.
        unsafe { libc::kill(-pgid, libc::SIGKILL) };
    }
}
