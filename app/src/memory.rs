//! Keeping `--max-memory` a bound on resident memory. glibc serves a large
//! block from its own mapping and unmaps it when freed, but after the first
//! such free it raises the size it maps (up to 32 MiB) and serves the rest
//! from the heap, which it keeps, so a parallel build's freed arrays stayed
//! resident. Fixing the threshold at 1 MiB keeps `--max-memory` a bound on
//! the peak (docs/perf/tree-build.md, "Memory of a large build").

/// Blocks of this size and more are mapped on their own and returned to
/// the system when freed.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const MMAP_THRESHOLD: libc::c_int = 1 << 20;

/// Fixes glibc's mmap threshold (see the module doc); a no-op elsewhere.
/// With [`give_back_freed`], the workspace's calls into the C allocator
/// (its only `unsafe` outside the HiGHS bindings).
#[allow(unsafe_code)]
pub fn return_large_blocks() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets an allocator parameter; it is called at the
    // start of main, before any other thread exists.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD);
    }
}

/// Gives the pages the heap holds free back to the system (glibc's
/// `malloc_trim`); a no-op elsewhere. For the end of a phase whose many
/// small blocks are freed before the next phase maps its own large
/// arrays (blocks under [`MMAP_THRESHOLD`] stay in the heap when freed,
/// and a heap fragmented by the blocks still held cannot shrink by
/// itself): vector CFR's public game derived from the rules, whose
/// states are gone before the solve's arrays are made.
#[allow(unsafe_code)]
pub fn give_back_freed() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns the free pages of the allocator's
    // arenas to the system, under the arenas' locks; no block in use moves.
    unsafe {
        libc::malloc_trim(0);
    }
}

use galac_runtime::cancel::Reason;

/// How often [`watch`] reads the resident memory at the most: near the
/// limit a solver that grows by a few GB/s passes it by at most a few MB
/// before it is seen.
const WATCH_EVERY: std::time::Duration = std::time::Duration::from_millis(1);

/// How long [`watch`] waits at the most between two reads, far from the
/// limit.
const WATCH_MOST: std::time::Duration = std::time::Duration::from_millis(50);

/// The fastest growth [`watch`] assumes, in bytes a second: it waits as
/// long as the headroom lasts at that rate (within [`WATCH_EVERY`] and
/// [`WATCH_MOST`]). Reading `/proc/self/statm` every millisecond cost 1.7%
/// of blind tic-tac-toe's seeded double oracle (2 s of CPU over its run).
const WATCH_GROWTH: f64 = 4e9;

/// The wait before the next read with `rss` bytes resident under a limit
/// of `limit` bytes.
fn watch_wait(rss: u64, limit: u64) -> std::time::Duration {
    let headroom = limit.saturating_sub(rss) as f64;
    std::time::Duration::from_secs_f64(headroom / WATCH_GROWTH).clamp(WATCH_EVERY, WATCH_MOST)
}

/// A watch over the process's resident memory while a solver runs: those
/// that do not count their own working memory against `--max-memory` (the
/// LP's and Lemke's matrices and factorizations, the double oracle's
/// restricted games), and those that estimate it (CFR, vector CFR, max^n)
/// but not the rest of the process. Past the limit, on the command line,
/// the process ends with status 1 and an error naming `what` and the limit,
/// its temporary files removed ([`crate::signals::exit_cleanly`]); for a
/// library caller, whose limits carry a [`galac_runtime::cancel::Cancel`]
/// (the Python module), the watch cancels the work with that error as the
/// reason ([`Reason::MemoryLimit`]) and the process lives on. The watch
/// ends when the guard drops. A watch started on a thread within another
/// (a solver's tree build) is the outer one's: one error, naming the
/// outer work.
pub struct Watch {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
    /// Whether this is the thread's outermost watch.
    outer: bool,
}

thread_local! {
    /// Whether a watch started on this thread is running.
    static WATCHED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Watches the resident memory against `limit` (`--max-memory`; nothing
/// for no limit, or where `/proc/self/statm` cannot be read), cancelling
/// `cancel` past it if there is one (what `LimitArgs::watch` starts).
pub fn watch(
    limit: galac_runtime::memory::MemoryLimit,
    cancel: Option<galac_runtime::cancel::Cancel>,
    what: &'static str,
) -> Watch {
    use std::sync::atomic::{AtomicBool, Ordering};
    let stop = std::sync::Arc::new(AtomicBool::new(false));
    if WATCHED.with(|w| w.replace(true)) {
        return Watch { stop, thread: None, outer: false };
    }
    let page = match page_bytes() {
        Some(page) if !limit.is_none() && resident_pages().is_some() => page,
        _ => return Watch { stop, thread: None, outer: true },
    };
    let stopped = stop.clone();
    let thread = std::thread::spawn(move || {
        while !stopped.load(Ordering::Relaxed) {
            match resident_pages().map(|pages| pages * page) {
                Some(rss) if rss > limit.bytes() => {
                    let message = format!(
                        "{what} passed the memory limit: {} MiB resident, the limit is {} MiB (--max-memory)",
                        galac_runtime::memory::mib_up(rss),
                        limit.mib()
                    );
                    let Some(cancel) = &cancel else {
                        eprintln!("error: {message}");
                        eprintln!("hint: raise the limit with --max-memory, or try a smaller game");
                        crate::signals::exit_cleanly(1);
                    };
                    cancel.cancel(Reason::MemoryLimit(message));
                    return;
                }
                Some(rss) => std::thread::park_timeout(watch_wait(rss, limit.bytes())),
                None => std::thread::park_timeout(WATCH_EVERY),
            }
        }
    });
    Watch { stop, thread: Some(thread), outer: true }
}

impl Drop for Watch {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            thread.thread().unpark();
            let _ = thread.join();
        }
        if self.outer {
            WATCHED.with(|w| w.set(false));
        }
    }
}

/// The process's resident pages (`/proc/self/statm`, short to read, so
/// the watch can read it every millisecond), where Linux says them.
fn resident_pages() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    statm.split(' ').nth(1)?.parse().ok()
}

/// The size of a page, as the system says it.
#[cfg(unix)]
fn page_bytes() -> Option<u64> {
    let size = nix::unistd::sysconf(nix::unistd::SysconfVar::PAGE_SIZE).ok()??;
    u64::try_from(size).ok()
}

/// Elsewhere there is no `/proc/self/statm` to read either.
#[cfg(not(unix))]
fn page_bytes() -> Option<u64> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_watch_reads_often_only_near_the_limit() {
        let gb = 1_000_000_000;
        assert_eq!(watch_wait(gb, 20 * gb), WATCH_MOST);
        assert_eq!(watch_wait(20 * gb - 1_000_000, 20 * gb), WATCH_EVERY);
        assert_eq!(watch_wait(21 * gb, 20 * gb), WATCH_EVERY);
        // 100 MB of headroom last 25 ms at 4 GB/s.
        let mid = watch_wait(20 * gb - 100_000_000, 20 * gb);
        assert!(mid > WATCH_EVERY && mid < WATCH_MOST, "{mid:?}");
    }

    /// A solver's watch holds over its tree's build, which starts one of
    /// its own: the inner one watches nothing, until the outer one ends.
    #[test]
    fn a_watch_within_another_on_its_thread_is_the_outer_ones() {
        let limit = galac_runtime::memory::MemoryLimit::from_mib(1 << 20);
        let watch = |what| watch(limit, None, what);
        let outer = watch("outer");
        assert!(outer.outer && outer.thread.is_some());
        let inner = watch("inner");
        assert!(!inner.outer && inner.thread.is_none());
        drop(inner);
        assert!(!watch("again").outer);
        drop(outer);
        let next = watch("next");
        assert!(next.outer && next.thread.is_some());
        let elsewhere = std::thread::spawn(move || super::watch(limit, None, "elsewhere").outer);
        assert!(elsewhere.join().expect("the other thread's watch"));
    }
}
