//! Ranks that are threads of one process ([`LocalRanks`]), for tests: the
//! collectives of [`super::Collective`] over a mutex and a barrier.

use std::sync::{Barrier, Mutex};

use super::collective::Collective;

/// Ranks that are threads of one process, for tests: each thread calls
/// the collectives with its own `LocalRanks` from [`LocalRanks::new`].
pub struct LocalRanks<'s> {
    rank: usize,
    shared: &'s Shared,
}

/// What the threads of [`LocalRanks`] share.
pub struct Shared {
    size: usize,
    barrier: Barrier,
    /// The sum or or being made, and how many ranks added theirs.
    acc: Mutex<(Vec<u64>, usize)>,
}

impl Shared {
    /// For `size` threads.
    pub fn new(size: usize) -> Shared {
        Shared { size, barrier: Barrier::new(size), acc: Mutex::new((Vec::new(), 0)) }
    }

    /// Rank `rank`'s handle.
    pub fn rank(&self, rank: usize) -> LocalRanks<'_> {
        LocalRanks { rank, shared: self }
    }
}

impl LocalRanks<'_> {
    /// Combines `x` over the ranks with `op` (commutative and associative:
    /// the order the threads arrive in does not matter).
    fn combine(&self, x: &mut [u64], op: fn(u64, u64) -> u64) {
        {
            let mut acc = self.shared.acc.lock().unwrap_or_else(|e| e.into_inner());
            if acc.1 == 0 {
                acc.0 = x.to_vec();
            } else {
                acc.0.iter_mut().zip(x.iter()).for_each(|(a, b)| *a = op(*a, *b));
            }
            acc.1 = (acc.1 + 1) % self.shared.size;
        }
        self.shared.barrier.wait();
        x.copy_from_slice(&self.shared.acc.lock().unwrap_or_else(|e| e.into_inner()).0);
        self.shared.barrier.wait();
    }
}

impl Collective for LocalRanks<'_> {
    fn rank(&self) -> usize {
        self.rank
    }
    fn size(&self) -> usize {
        self.shared.size
    }
    fn sum(&self, x: &mut [i64]) {
        let mut bits: Vec<u64> = x.iter().map(|v| *v as u64).collect();
        self.combine(&mut bits, u64::wrapping_add);
        x.iter_mut().zip(bits).for_each(|(v, b)| *v = b as i64);
    }
    fn or(&self, x: &mut [u64]) {
        self.combine(x, |a, b| a | b);
    }
}
