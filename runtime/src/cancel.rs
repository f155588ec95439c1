//! [`Cancel`]: how a caller on another thread stops long work that has no
//! progress report of its own to answer (a tree build, an LP, Lemke's
//! pivots, the double oracle's restricted LPs). The work looks at the flag
//! where it already checks its limits and ends with a "cancelled" error;
//! the caller reads why from the flag. The command line never sets one (a
//! signal ends the process there: `galac_app::signals`); the Python module
//! sets it on Ctrl-C, and the memory watch of a library caller sets it
//! past `--max-memory` instead of ending the process.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

/// Why work was cancelled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The caller asked (Ctrl-C in Python).
    Interrupted,
    /// The process passed the memory limit; the message says by how much.
    MemoryLimit(String),
}

/// A shared cancellation flag: cheap to clone (all clones are one flag),
/// cheap to read (one relaxed load), set once.
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<State>);

#[derive(Debug, Default)]
struct State {
    set: AtomicBool,
    /// The first reason given; later ones are dropped.
    why: OnceLock<Reason>,
}

impl Cancel {
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// Asks the work to stop at its next check, for `why` (the first
    /// reason given is the one kept).
    pub fn cancel(&self, why: Reason) {
        let _ = self.0.why.set(why);
        self.0.set.store(true, Ordering::Release);
    }

    /// Whether the work should stop.
    pub fn is_cancelled(&self) -> bool {
        self.0.set.load(Ordering::Relaxed)
    }

    /// Why it was cancelled; `None` while it is not.
    pub fn reason(&self) -> Option<&Reason> {
        if self.0.set.load(Ordering::Acquire) {
            self.0.why.get()
        } else {
            None
        }
    }
}

/// Whether an optional flag is set: the form every check takes.
pub fn requested(cancel: Option<&Cancel>) -> bool {
    cancel.is_some_and(Cancel::is_cancelled)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_share_the_flag_and_the_first_reason_stays() {
        let cancel = Cancel::new();
        let other = cancel.clone();
        assert!(!other.is_cancelled() && other.reason().is_none() && !requested(Some(&other)));
        cancel.cancel(Reason::MemoryLimit("over".into()));
        cancel.cancel(Reason::Interrupted);
        assert!(other.is_cancelled() && requested(Some(&other)) && !requested(None));
        assert_eq!(other.reason(), Some(&Reason::MemoryLimit("over".into())));
    }
}
