//! What Ctrl-C, SIGTERM and SIGHUP do, in one place: ctrlc allows one
//! handler per process, installed here the first time anything needs it.
//!
//! While a run that can stop cleanly is armed ([`graceful`]: CFR keeps its
//! answer and writes its checkpoint), the first signal only asks it to stop,
//! and sets the [`Cancel`] flags given to [`cancel_on_signal`] (work that
//! reports no progress while it runs, such as the double oracle's LPs, looks
//! at them).
//! Otherwise, or at a second signal, the process removes the temporary
//! files it is writing ([`track_temp`]), stops the child processes it
//! started ([`track_child`]: cargo, during `build`), and exits with status
//! 130, so an interrupted run leaves neither a hidden partial file nor an
//! orphaned compiler behind.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use galac_runtime::cancel::{Cancel, Reason};

struct State {
    /// Set by the first signal while armed; read by the run.
    stop: Arc<AtomicBool>,
    armed: AtomicBool,
    /// Set with `stop`: the flags of work that stops within its step.
    cancels: Mutex<Vec<Cancel>>,
    temps: Mutex<Vec<PathBuf>>,
    children: Mutex<Vec<u32>>,
}

/// Set by [`embedded`]: no handler is ever installed.
static EMBEDDED: AtomicBool = AtomicBool::new(false);

/// For a host process that embeds galac (the Python module): its own
/// signal handling stays, galac never installs a handler, and the host
/// stops a run by setting the flag [`graceful`] returns. Call it before
/// anything else of galac runs.
pub fn embedded() {
    EMBEDDED.store(true, Ordering::SeqCst);
}

fn state() -> &'static State {
    static STATE: OnceLock<State> = OnceLock::new();
    STATE.get_or_init(|| {
        // Failure means another handler is set (an embedding program's):
        // then that program decides what a signal does.
        if !EMBEDDED.load(Ordering::SeqCst) {
            let _ = ctrlc::set_handler(on_signal);
        }
        State {
            stop: Arc::new(AtomicBool::new(false)),
            armed: AtomicBool::new(false),
            cancels: Mutex::new(Vec::new()),
            temps: Mutex::new(Vec::new()),
            children: Mutex::new(Vec::new()),
        }
    })
}

/// The rank plus one of this process in an MPI job ([`in_job`]); 0
/// outside a job.
static JOB_RANK: AtomicUsize = AtomicUsize::new(0);

/// This process is rank `rank` of an MPI job (`--distributed`): from now
/// on a signal says so on standard error before it acts. mpirun ends a
/// job by a SIGTERM to every rank when one rank fails (exits non-zero,
/// crashes, is killed by the kernel for memory) or the job is
/// interrupted; without this, the ranks it ends would end silently, and
/// a rank blocked in a collective with a dead rank never reaches a
/// message of its own.
pub fn in_job(rank: usize) {
    JOB_RANK.store(rank + 1, Ordering::SeqCst);
    state();
}

fn on_signal() {
    let s = state();
    if let Some(rank) = JOB_RANK.load(Ordering::SeqCst).checked_sub(1) {
        eprintln!(
            "error: rank {rank}: ended by a signal: mpirun ends every rank when a rank of the job fails (see that \
             rank's message, or mpirun's, which names it) or when the job is interrupted"
        );
    }
    if s.armed.load(Ordering::SeqCst) && !s.stop.swap(true, Ordering::SeqCst) {
        for cancel in s.cancels.lock().unwrap_or_else(|e| e.into_inner()).iter() {
            cancel.cancel(Reason::Interrupted);
        }
        return;
    }
    exit_cleanly(130);
}

/// Ends the process with `code` after removing the temporary files being
/// written and stopping the child processes started (what a signal does;
/// also the memory watch's way out, `crate::memory::watch`).
pub fn exit_cleanly(code: i32) -> ! {
    let s = state();
    for temp in s.temps.lock().unwrap_or_else(|e| e.into_inner()).iter() {
        let _ = std::fs::remove_file(temp);
    }
    #[cfg(unix)]
    for &pid in s.children.lock().unwrap_or_else(|e| e.into_inner()).iter() {
        if let Ok(pid) = i32::try_from(pid) {
            let _ = nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), nix::sys::signal::Signal::SIGTERM);
        }
    }
    std::process::exit(code);
}

/// Arms the clean stop and returns its flag: from now on a first signal
/// sets it (and the run stops at its next check) instead of ending the
/// process.
pub fn graceful() -> Arc<AtomicBool> {
    let s = state();
    s.armed.store(true, Ordering::SeqCst);
    s.stop.clone()
}

/// Arms the clean stop (as [`graceful`]) and has the first signal set
/// `cancel` too, with [`Reason::Interrupted`]: for a run whose steps are
/// long and look at a [`Cancel`] (the double oracle's restricted LPs), so
/// that it stops within the step rather than after it.
pub fn cancel_on_signal(cancel: &Cancel) {
    let s = state();
    s.armed.store(true, Ordering::SeqCst);
    s.cancels.lock().unwrap_or_else(|e| e.into_inner()).push(cancel.clone());
    // A signal that came before the flag was listed.
    if s.stop.load(Ordering::SeqCst) {
        cancel.cancel(Reason::Interrupted);
    }
}

/// Whether a signal asked the armed run to stop.
pub fn signalled() -> bool {
    state().stop.load(Ordering::SeqCst)
}

/// A temporary file being written: removed if a signal ends the process.
pub fn track_temp(path: &Path) {
    state().temps.lock().unwrap_or_else(|e| e.into_inner()).push(path.to_path_buf());
}

/// The temporary file is gone (renamed into place or removed).
pub fn untrack_temp(path: &Path) {
    state().temps.lock().unwrap_or_else(|e| e.into_inner()).retain(|t| t != path);
}

/// A child process: stopped (SIGTERM) if a signal ends this one.
pub fn track_child(pid: u32) {
    state().children.lock().unwrap_or_else(|e| e.into_inner()).push(pid);
}

/// The child process has ended.
pub fn untrack_child(pid: u32) {
    state().children.lock().unwrap_or_else(|e| e.into_inner()).retain(|&c| c != pid);
}
