//! A quick guess of a tree's size before building it, so that the default
//! thread count builds a small tree on one thread: below about 10^5 nodes
//! the threads' start-up and the merge cost more than the second core
//! saves (9,457-node Leduc: 0.6 ms on one thread, 1.2 ms on two).
//!
//! Knuth's estimator ("Estimating the efficiency of backtrack programs",
//! 1975): along a play that picks each child uniformly at random, with
//! child counts b1, b2, …, the sum 1 + b1 + b1·b2 + … is in expectation
//! the number of nodes. A few dozen plays cost a few dozen `advance` calls
//! each, and the guess only has to tell 10^4 from 10^6.

use crate::game::{Game, Node};
use crate::info::InfoInterner;

/// Random plays per guess.
const PLAYS: u32 = 64;
/// A play longer than this is not a small tree's.
const MAX_DEPTH: u32 = 1 << 12;

/// Whether the tree of `game` has, by Knuth's estimate, fewer than `limit`
/// nodes. A play that stops with an error (which the build itself will
/// report) says nothing about the size: then the answer is `false`.
pub fn looks_smaller_than<G: Game>(game: &G, limit: f64) -> bool {
    let mut interner = InfoInterner::new();
    // A fixed seed: the same game always gets the same answer.
    let mut rng = SplitMix64(0x9e37_79b9_7f4a_7c15);
    let budget = limit * f64::from(PLAYS);
    let mut total = 0.0;
    for _ in 0..PLAYS {
        // Each play stays under what is left of the budget, or says no.
        match play_estimate(game, &mut interner, &mut rng, budget - total) {
            Some(nodes) => total += nodes,
            None => return false,
        }
    }
    true
}

/// One play's estimate, or `None` on an error, past [`MAX_DEPTH`] or once it
/// reaches `budget` (the tree is not small).
fn play_estimate<G: Game>(game: &G, interner: &mut InfoInterner, rng: &mut SplitMix64, budget: f64) -> Option<f64> {
    let mut state = game.root().ok()?;
    let (mut nodes, mut width) = (1.0, 1.0);
    for _ in 0..MAX_DEPTH {
        let n = match game.advance(&mut state, interner).ok()? {
            Node::Terminal => return Some(nodes),
            Node::Chance { n_outcomes } => n_outcomes,
            Node::Decision { n_actions, .. } => n_actions,
        };
        if n == 0 {
            return None;
        }
        width *= f64::from(n);
        nodes += width;
        if nodes >= budget {
            return None;
        }
        let child = (rng.next() % u64::from(n)) as u32;
        game.apply(&mut state, child, interner).ok()?;
    }
    None
}

/// A small, fixed-seed generator (Steele, Lea and Flood's SplitMix64).
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}
