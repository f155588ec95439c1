//! Long work (building a tree, solving) run off the GIL and stoppable
//! with Ctrl-C. The work runs on a thread of its own while the calling
//! thread, without the GIL, waits for it and every 50 ms takes the GIL
//! back to let Python run its signal handlers (`check_signals`). On
//! KeyboardInterrupt the call cancels the work: it sets the call's own
//! [`Cancel`] (the tree build, the LP's HiGHS and clarabel, Lemke and the
//! double oracle stop at their next check, the CFR family at its next
//! iteration), waits for the work's thread to end, and raises. Only the
//! call's flag is set, never the process-wide one of `galac_app::signals`:
//! a next call would have to clear that one, and would so restart a run
//! that had not yet stopped. Only microlp's LP cannot be stopped: after
//! [`STOPPING`] the call raises and leaves it to finish. When the memory
//! watch cancelled the work (`--max-memory` passed, `galac_app::memory`)
//! the call raises `MemoryLimitError`. A panic on the work's thread becomes
//! a `GalacError`: nothing unwinds into Python.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc;
use std::time::Duration;

use pyo3::prelude::*;

use galac_app::LimitArgs;
use galac_runtime::cancel::Reason;

use crate::errors::{GalacError, MemoryLimitError};

/// How often the waiting thread looks at Python's signals.
const POLL: Duration = Duration::from_millis(50);

/// How long an interrupted call waits for its work to stop (the checks
/// come every few milliseconds; only microlp never looks).
const STOPPING: Duration = Duration::from_secs(10);

/// Runs `work` on its own thread, the GIL released; its answer, or the
/// exception of a Ctrl-C (or of any signal handler that raised), or a
/// `MemoryLimitError` when the memory watch cancelled it, or a
/// `GalacError` for a panic. `limits` carry the call's cancellation flag
/// (`parse_flags`).
pub fn interruptible<T: Send + 'static>(
    py: Python<'_>,
    limits: &LimitArgs,
    work: impl FnOnce() -> T + Send + 'static,
) -> PyResult<T> {
    let cancel = limits.cancel.clone().unwrap_or_default();
    let (tx, rx) = mpsc::channel();
    let spawned = std::thread::Builder::new().name("galac".into()).spawn(move || {
        let answer = catch_unwind(AssertUnwindSafe(work));
        // The caller is gone after a Ctrl-C: the answer is dropped.
        let _ = tx.send(answer);
    });
    if let Err(e) = spawned {
        return Err(GalacError::new_err(format!("cannot start a thread: {e}")));
    }
    let mut rx = rx;
    loop {
        // The receiver is moved in and out: it is `Send`, not `Sync`.
        let (back, got) = py.detach(move || {
            let got = rx.recv_timeout(POLL);
            (rx, got)
        });
        rx = back;
        if let Some(Reason::MemoryLimit(message)) = cancel.reason() {
            // The work stopped with a "cancelled" error, or its answer came
            // past the limit: the limit is what the caller hears of.
            let _ = py.detach(move || rx.recv_timeout(STOPPING));
            return Err(MemoryLimitError::new_err(format!("{message}\nhint: raise the limit with max_memory=")));
        }
        match got {
            Ok(Ok(answer)) => return Ok(answer),
            Ok(Err(panic)) => {
                let what = panic
                    .downcast_ref::<String>()
                    .map(String::as_str)
                    .or_else(|| panic.downcast_ref::<&str>().copied())
                    .unwrap_or("a panic");
                return Err(GalacError::new_err(format!("internal error, please report: {what}")));
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if let Err(e) = py.check_signals() {
                    cancel.cancel(Reason::Interrupted);
                    // The work ends at its next check: wait for it, so that
                    // no work goes on after the exception.
                    let _ = py.detach(move || rx.recv_timeout(STOPPING));
                    return Err(e);
                }
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(GalacError::new_err(
                    "internal error, please report: the work's thread ended without an answer",
                ))
            }
        }
    }
}
