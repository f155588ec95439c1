//! What the threads of a CFR run share: float arrays that several threads
//! write in disjoint parts ([`Floats`]), and the barrier that separates the
//! steps of an iteration ([`SpinBarrier`]).
//!
//! The floats are `AtomicU64` bit patterns read and written with relaxed
//! ordering: on x86-64 and AArch64 these are plain loads and stores, and
//! the barrier's acquire/release ordering makes one step's writes visible
//! to the next step, so the arithmetic is that of plain `f64` arrays (bit
//! for bit) without `unsafe`.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};

/// An array of `f64` that threads read and write in place.
pub struct Floats(Box<[AtomicU64]>);

impl Floats {
    /// `n` zeros.
    pub fn zeros(n: usize) -> Floats {
        Floats((0..n).map(|_| AtomicU64::new(0)).collect())
    }

    /// Entry `i`.
    #[inline(always)]
    pub fn get(&self, i: usize) -> f64 {
        f64::from_bits(self.0[i].load(Ordering::Relaxed))
    }

    /// Sets entry `i` to `x`.
    #[inline(always)]
    pub fn set(&self, i: usize, x: f64) {
        self.0[i].store(x.to_bits(), Ordering::Relaxed);
    }

    /// The entries as atomics, for a hot loop that reads them through
    /// [`load`] and [`store`] (one indirection less than `&Floats`).
    pub fn cells(&self) -> &[AtomicU64] {
        &self.0
    }
}

/// Entry `i` of [`Floats::cells`].
#[inline(always)]
pub fn load(cells: &[AtomicU64], i: usize) -> f64 {
    f64::from_bits(cells[i].load(Ordering::Relaxed))
}

/// Sets entry `i` of [`Floats::cells`] to `x`.
#[inline(always)]
pub fn store(cells: &[AtomicU64], i: usize, x: f64) {
    cells[i].store(x.to_bits(), Ordering::Relaxed);
}

/// Spins this many times before yielding the core.
const SPINS: u32 = 4_000;
/// Yields this many times before sleeping.
const YIELDS: u32 = 50;

/// A barrier for a fixed number of threads that first spins (the steps of
/// a small game's iteration last microseconds, and waking a sleeping
/// thread takes tens), then yields the core (the machine may be shared),
/// then sleeps (the other thread may be computing an exploitability check
/// that lasts seconds).
pub struct SpinBarrier {
    parties: usize,
    arrived: AtomicUsize,
    /// Completed rounds.
    generation: AtomicUsize,
    /// Threads asleep or about to sleep.
    sleepers: AtomicUsize,
    lock: Mutex<()>,
    wake: Condvar,
    /// Set when a party panicked: the others stop waiting and panic too,
    /// instead of waiting forever for a thread that is gone.
    poisoned: AtomicBool,
}

impl SpinBarrier {
    /// A barrier for `parties` threads.
    pub fn new(parties: usize) -> SpinBarrier {
        SpinBarrier {
            parties,
            arrived: AtomicUsize::new(0),
            generation: AtomicUsize::new(0),
            sleepers: AtomicUsize::new(0),
            lock: Mutex::new(()),
            wake: Condvar::new(),
            poisoned: AtomicBool::new(false),
        }
    }

    /// Releases every waiting party, now and later, to panic (see
    /// [`PanicGuard`]).
    pub fn poison(&self) {
        self.poisoned.store(true, Ordering::SeqCst);
        self.generation.fetch_add(1, Ordering::SeqCst);
        let _guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        self.wake.notify_all();
    }

    /// After passing: a pass forced by [`Self::poison`] is a panic here too.
    fn check(&self) {
        if self.poisoned.load(Ordering::SeqCst) {
            panic!("the other thread of the run panicked");
        }
    }

    /// Waits until all parties have arrived. Everything a party wrote
    /// before arriving is visible to every party after it returns.
    pub fn wait(&self) {
        self.check();
        self.wait_unchecked();
        self.check();
    }

    fn wait_unchecked(&self) {
        let generation = self.generation.load(Ordering::SeqCst);
        if self.arrived.fetch_add(1, Ordering::SeqCst) + 1 == self.parties {
            self.arrived.store(0, Ordering::SeqCst);
            self.generation.store(generation.wrapping_add(1), Ordering::SeqCst);
            if self.sleepers.load(Ordering::SeqCst) > 0 {
                let _guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
                self.wake.notify_all();
            }
            return;
        }
        let passed = || self.generation.load(Ordering::SeqCst) != generation;
        for _ in 0..SPINS {
            if passed() {
                return;
            }
            std::hint::spin_loop();
        }
        for _ in 0..YIELDS {
            if passed() {
                return;
            }
            std::thread::yield_now();
        }
        let mut guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        self.sleepers.fetch_add(1, Ordering::SeqCst);
        while !passed() {
            guard = self.wake.wait(guard).unwrap_or_else(|e| e.into_inner());
        }
        self.sleepers.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Poisons a barrier if the thread holding it unwinds, so that a panic in
/// one thread of a run ends the run instead of leaving the other waiting.
pub struct PanicGuard<'a>(pub &'a SpinBarrier);

impl Drop for PanicGuard<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.poison();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Floats, PanicGuard, SpinBarrier};

    /// A thread that panics between steps releases the other, which panics
    /// in turn: the scope ends with the panic instead of hanging.
    #[test]
    fn a_panic_in_one_thread_ends_the_other_wait() {
        let barrier = SpinBarrier::new(2);
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            std::thread::scope(|s| {
                let b = &barrier;
                s.spawn(move || {
                    let _guard = PanicGuard(b);
                    b.wait();
                    panic!("a fault in the worker");
                });
                let _guard = PanicGuard(&barrier);
                barrier.wait();
                barrier.wait(); // the worker never arrives
            });
        }));
        assert!(result.is_err());
    }

    /// Two threads pass the barrier in lock step many times, each step
    /// reading what the other wrote in the step before.
    #[test]
    fn the_barrier_orders_the_steps() {
        let (barrier, cells) = (SpinBarrier::new(2), Floats::zeros(2));
        std::thread::scope(|s| {
            for k in 0..2 {
                let (barrier, cells) = (&barrier, &cells);
                s.spawn(move || {
                    for step in 0..2_000 {
                        cells.set(k, step as f64);
                        barrier.wait();
                        assert_eq!(cells.get(1 - k), step as f64);
                        barrier.wait();
                    }
                });
            }
        });
    }
}
