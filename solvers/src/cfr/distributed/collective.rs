//! What the ranks of a distributed run share (a leaf of
//! `cfr::distributed`): the [`Collective`] trait, the helpers made of it,
//! the units' cut and the fixed point of the exact sums.

use galac_runtime::ids::{IdRange, NodeId};
use galac_runtime::tree::{Shard, Tree};

use crate::cfr::walk;

/// What a distributed run needs of its job: every rank calls each method
/// in the same order (they are collectives).
pub trait Collective {
    /// This rank, from 0.
    fn rank(&self) -> usize;
    /// The number of ranks.
    fn size(&self) -> usize;
    /// Replaces `x` on every rank by its element-wise sum over the ranks
    /// (integers: exact, whatever the order).
    fn sum(&self, x: &mut [i64]);
    /// Replaces `x` on every rank by its element-wise bitwise or over the
    /// ranks.
    fn or(&self, x: &mut [u64]);
}

/// Rank 0's `x` on every rank (the others pass anything).
pub fn broadcast(comm: &dyn Collective, x: &mut [u64]) {
    if comm.rank() != 0 {
        x.fill(0);
    }
    comm.or(x);
}

/// Whether every rank passed `ok` (every rank learns the same).
pub fn all_ok(comm: &dyn Collective, ok: bool) -> bool {
    let mut failed = [i64::from(!ok)];
    comm.sum(&mut failed);
    failed[0] == 0
}

/// The root's children rank `rank` of `size` walks: the ones its shard
/// keeps ([`Shard::children`]; none when the root has fewer children than
/// there are ranks and the rank's run is empty).
pub fn units(tree: &Tree, rank: usize, size: usize) -> IdRange<NodeId> {
    let kids = walk::root_children(tree);
    let shard = Shard { rank: rank as u32, ranks: size as u32 };
    let run = shard.children(kids.indices().len() as u32);
    IdRange::new(NodeId(kids.start.0 + run.start), NodeId(kids.start.0 + run.end))
}

/// Sums `x` (fixed point) over the ranks of `comm` into `out`, as `f64`;
/// `limbs` is the buffer exchanged.
pub(crate) fn sum_fixed(comm: &dyn Collective, fixed: Fixed, x: &[i128], limbs: &mut Vec<i64>, out: &mut Vec<f64>) {
    let n = x.len();
    limbs.resize(2 * n, 0);
    let (low, high) = limbs.split_at_mut(n);
    for ((v, l), h) in x.iter().zip(low.iter_mut()).zip(high.iter_mut()) {
        (*l, *h) = Fixed::split(*v);
    }
    comm.sum(limbs);
    let (low, high) = limbs.split_at(n);
    out.clear();
    out.extend(low.iter().zip(high).map(|(l, h)| fixed.to_f64(Fixed::join(*l, *h))));
}

/// Fixed point for the exact sum of the units' regrets: a value `x` is
/// `round(x * 2^e)` as an integer, where 2^-e is about 2^-96 of the payoff
/// range (an instantaneous regret is at most the range times the others'
/// reach of the set, at most 1). The integers travel as two `i64` limbs
/// of 48 bits, so that up to 2^15 ranks add them without overflow.
#[derive(Clone, Copy, Debug)]
pub struct Fixed {
    scale: f64,
    inverse: f64,
}

/// Bits of a limb.
const LIMB: u32 = 48;

impl Fixed {
    /// The fixed point for payoffs of at most `max_abs` in absolute value.
    pub fn for_payoffs(max_abs: f64) -> Fixed {
        let range = (2.0 * max_abs).max(1.0);
        let e = 96 - range.log2().ceil() as i32;
        Fixed { scale: 2f64.powi(e), inverse: 2f64.powi(-e) }
    }

    /// `x` in fixed point.
    #[inline(always)]
    pub fn to_fixed(self, x: f64) -> i128 {
        (x * self.scale).round() as i128
    }

    /// A fixed-point value as the nearest `f64`.
    #[inline(always)]
    pub fn to_f64(self, v: i128) -> f64 {
        v as f64 * self.inverse
    }

    /// The limbs of `v`: the low 48 bits (non-negative), the rest.
    #[inline(always)]
    pub(crate) fn split(v: i128) -> (i64, i64) {
        ((v & ((1i128 << LIMB) - 1)) as i64, (v >> LIMB) as i64)
    }

    /// `v` back from its (summed) limbs.
    #[inline(always)]
    pub(crate) fn join(low: i64, high: i64) -> i128 {
        (i128::from(high) << LIMB) + i128::from(low)
    }
}
