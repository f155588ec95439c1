//! Sampling plays of a profile on the flat tree, for `play` and `simulate`:
//! cumulative probabilities are laid out once per information set and per
//! chance node, so that a play walks from the root drawing one number per
//! node, with no allocation and no hashing.
//!
//! Totals are kept in integers (payoffs are integers): sums over chunks of
//! plays then do not depend on the order they are added in, so a seeded
//! run gives the same answer on any number of threads. The sums of squares
//! are unbounded integers (a payoff near 2^63 squares to 2^126), so the
//! variance is exact for any payoffs, never lost to overflow or to the
//! cancellation of two large floating-point sums.

use num_bigint::{BigInt, BigUint};
use num_traits::ToPrimitive;

use galac_runtime::ids::NodeId;
use galac_runtime::rng::SplitMix64;
use galac_runtime::tree::{NodeView, Tree};

use crate::Profile;

/// Plays per chunk: each chunk has its own random stream (the seed and
/// the chunk's index), whichever thread runs it.
pub const CHUNK: u64 = 1 << 14;

/// The cumulative probabilities of every node's children.
pub struct Sampler<'t> {
    tree: &'t Tree,
    /// Per node: where its children's cumulative probabilities start in
    /// `cum` (decision nodes share their information set's).
    start: Vec<u32>,
    /// Cumulative probabilities; the last child with a positive
    /// probability has `INFINITY`, so that rounding never picks past it.
    cum: Vec<f64>,
}

/// Sums of the payoffs of many plays, per player (exact).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Totals {
    pub plays: u64,
    pub sum: Vec<i128>,
    pub sum_squares: Vec<BigUint>,
}

impl Totals {
    /// No plays yet, for `n` players.
    pub fn new(n: usize) -> Totals {
        Totals { plays: 0, sum: vec![0; n], sum_squares: vec![BigUint::default(); n] }
    }

    /// Adds another set of plays.
    pub fn add(&mut self, other: &Totals) {
        self.plays += other.plays;
        for p in 0..self.sum.len() {
            self.sum[p] += other.sum[p];
            self.sum_squares[p] += &other.sum_squares[p];
        }
    }

    /// Player `p`'s mean payoff and the half-width of its 95% confidence
    /// interval (normal approximation: 1.96 standard errors).
    pub fn mean_and_half_width(&self, p: usize) -> (f64, f64) {
        let n = self.plays.max(1) as f64;
        let mean = self.sum[p] as f64 / n;
        // The sample variance, (n·Σx² − (Σx)²) / (n·(n − 1)), with the
        // difference taken exactly.
        let sum = BigInt::from(self.sum[p]);
        let centered = BigInt::from(self.plays) * BigInt::from(self.sum_squares[p].clone()) - &sum * &sum;
        let centered = centered.to_f64().unwrap_or(f64::MAX).max(0.0);
        let variance = if self.plays > 1 { centered / n / (n - 1.0) } else { 0.0 };
        (mean, 1.96 * (variance / n).sqrt())
    }
}

/// Writes the cumulative sums of `probs` into `out`, with the last
/// positive one at infinity.
fn push_cumulative(probs: impl Iterator<Item = f64>, out: &mut Vec<f64>) {
    let first = out.len();
    let mut acc = 0.0;
    let mut last_positive = None;
    for (i, p) in probs.enumerate() {
        acc += p;
        if p > 0.0 {
            last_positive = Some(first + i);
        }
        out.push(acc);
    }
    if let Some(i) = last_positive {
        out[i] = f64::INFINITY;
    }
}

impl<'t> Sampler<'t> {
    /// The sampler of `profile` (every player's strategy) on `tree`.
    pub fn new(tree: &'t Tree, profile: &Profile) -> Sampler<'t> {
        let mut cum = Vec::with_capacity(profile.probs.len());
        let mut set_start = Vec::with_capacity(tree.infosets.len());
        for set in tree.infosets.keys() {
            set_start.push(cum.len() as u32);
            push_cumulative(profile.probs(set).iter().copied(), &mut cum);
        }
        let mut start = vec![0u32; tree.n_nodes()];
        for (node, s) in tree.nodes().zip(start.iter_mut()) {
            match tree.node(node) {
                NodeView::Terminal => {}
                NodeView::Decision { infoset, .. } => *s = set_start[infoset.index()],
                NodeView::Chance => {
                    *s = cum.len() as u32;
                    push_cumulative(tree.chance_probs(node).iter().map(|r| r.to_f64()), &mut cum);
                }
            }
        }
        Sampler { tree, start, cum }
    }

    /// The child of `node` (not a leaf) drawn for the uniform number `u`.
    #[inline]
    pub fn child(&self, node: NodeId, u: f64) -> NodeId {
        let children = self.tree.children(node);
        let start = self.start[node.index()] as usize;
        let cum = &self.cum[start..start + children.len()];
        let i = cum.iter().position(|&c| u < c).unwrap_or(cum.len() - 1);
        children.nth_id(i)
    }

    /// One play from `node` to a leaf; returns the leaf.
    #[inline]
    pub fn play_from(&self, mut node: NodeId, rng: &mut SplitMix64) -> NodeId {
        while !self.tree.children(node).is_empty() {
            node = self.child(node, rng.uniform());
        }
        node
    }

    /// Plays `plays` games of chunk `chunk` of the run seeded `seed`, adding
    /// their payoffs to `totals`.
    pub fn run_chunk(&self, seed: u64, chunk: u64, plays: u64, totals: &mut Totals) {
        let mut rng = SplitMix64::stream(seed, chunk);
        // The chunk's squares in machine words, carried into the unbounded
        // totals when a word would overflow and at the chunk's end.
        let mut squares = vec![0u128; totals.sum.len()];
        for _ in 0..plays {
            let leaf = self.play_from(NodeId::ROOT, &mut rng);
            for (p, &x) in self.tree.payoffs(leaf).iter().enumerate() {
                totals.sum[p] += i128::from(x);
                let x2 = u128::from(x.unsigned_abs()).pow(2);
                squares[p] = squares[p].checked_add(x2).unwrap_or_else(|| {
                    totals.sum_squares[p] += squares[p];
                    x2
                });
            }
        }
        for (total, part) in totals.sum_squares.iter_mut().zip(squares) {
            *total += part;
        }
        totals.plays += plays;
    }

    /// `plays` seeded plays on `threads` threads (at least one): chunks of
    /// [`CHUNK`] plays are handed out in turn; the totals are the same for
    /// any thread count. `progress` hears the plays of each chunk done.
    pub fn run(&self, seed: u64, plays: u64, threads: usize, progress: &(dyn Fn(u64) + Sync)) -> Totals {
        let n = self.tree.n_players as usize;
        let chunks = plays.div_ceil(CHUNK);
        let next = std::sync::atomic::AtomicU64::new(0);
        let work = || {
            let mut totals = Totals::new(n);
            loop {
                let c = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if c >= chunks {
                    return totals;
                }
                let count = CHUNK.min(plays - c * CHUNK);
                self.run_chunk(seed, c, count, &mut totals);
                progress(count);
            }
        };
        let mut all = Totals::new(n);
        std::thread::scope(|s| {
            let handles: Vec<_> = (1..threads.max(1)).map(|_| s.spawn(work)).collect();
            all.add(&work());
            for h in handles {
                match h.join() {
                    Ok(t) => all.add(&t),
                    Err(panic) => std::panic::resume_unwind(panic),
                }
            }
        });
        all
    }
}

#[cfg(test)]
mod tests {
    use super::Totals;

    /// Payoffs near 2·10^16, whose squares (4·10^32) overflow any float
    /// difference of sums: the half-width is still that of the spread
    /// (±1 around the mean: sample variance 4/3 over 4 plays).
    #[test]
    fn the_confidence_interval_is_exact_for_huge_payoffs() {
        let xs: [i64; 4] =
            [20_000_000_000_000_000, 20_000_000_000_000_002, 20_000_000_000_000_000, 20_000_000_000_000_002];
        let mut totals = Totals::new(1);
        for x in xs {
            totals.plays += 1;
            totals.sum[0] += i128::from(x);
            totals.sum_squares[0] += u128::from(x.unsigned_abs()).pow(2);
        }
        let (mean, half) = totals.mean_and_half_width(0);
        assert_eq!(mean, 2e16 + 1.0);
        let expected = 1.96 * (4.0f64 / 3.0 / 4.0).sqrt();
        assert!((half - expected).abs() < 1e-12, "{half} {expected}");
        // Payoffs at i64's bounds, where an i128 sum of squares overflows.
        let mut extreme = Totals::new(1);
        for x in [i64::MIN, i64::MAX, i64::MIN, i64::MAX] {
            extreme.plays += 1;
            extreme.sum[0] += i128::from(x);
            extreme.sum_squares[0] += u128::from(x.unsigned_abs()).pow(2);
        }
        let (mean, half) = extreme.mean_and_half_width(0);
        assert!(mean.abs() < 1.0 && half > 1e19, "{mean} {half}");
    }
}
