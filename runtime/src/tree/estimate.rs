//! A quick guess of a tree's size before building it: the default thread
//! count builds a small tree on one thread (below about 10^5 nodes the
//! threads' start-up and the merge cost more than the second core saves:
//! docs/perf/tree-build.md, "Fresh small builds"), and a long build is
//! announced with its size and shown with the time left.
//!
//! Knuth's estimator ("Estimating the efficiency of backtrack programs",
//! 1975): along a play that picks each child uniformly at random, with
//! child counts b1, b2, …, the sum 1 + b1 + b1·b2 + … is in expectation
//! the number of nodes. A few dozen plays cost a few dozen `advance` calls
//! each, and the guess only has to tell 10^4 from 10^6, or give the order of
//! magnitude of a large tree. The plays share
//! the root's `advance`: in a card game it is a deal that enumerates all
//! its outcomes, and redone for each play it would cost a small card game
//! several times its build.

use crate::game::{advance_out_of_line, Game, Node};
use crate::info::InfoInterner;
use crate::rng::SplitMix64;

/// Random plays per guess.
const PLAYS: u32 = 64;
/// A play longer than this is not a small tree's.
const MAX_DEPTH: u32 = 1 << 12;

/// Whether the tree of `game` has, by Knuth's estimate, fewer than `limit`
/// nodes. A play that stops with an error (which the build itself will
/// report) says nothing about the size: then the answer is `false`.
pub fn looks_smaller_than<G: Game>(game: &G, limit: f64) -> bool {
    estimate(game, limit).is_some_and(|e| e.nodes < limit)
}

/// What a few random plays tell of a tree before it is built.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// Knuth's estimate of the number of nodes: the mean over [`PLAYS`]
    /// random plays.
    pub nodes: f64,
    /// Two leaves the plays reached pay different totals: the game is not
    /// constant-sum (false says nothing for sure: the plays see a few leaves).
    pub sums_differ: bool,
}

/// The [`Estimate`] of `game`'s tree, or `None` when a play stops with an
/// error or runs past [`MAX_DEPTH`]. The plays stop once the node estimate
/// reaches `cap`, which then stands for "at least `cap`".
pub fn estimate<G: Game>(game: &G, cap: f64) -> Option<Estimate> {
    let mut interner = InfoInterner::new();
    // A fixed seed: the same game always gets the same answer.
    let mut rng = SplitMix64(0x9e37_79b9_7f4a_7c15);
    let budget = cap * f64::from(PLAYS);
    // The plays share the root's `advance` (often the costliest node: a
    // deal whose outcomes are all enumerated), so each one starts from
    // a child of the root, made right after it (the only time the
    // root's candidates are valid).
    let mut root = game.root().ok()?;
    let n = match advance_out_of_line(game, &mut root, &mut interner) {
        Ok(Node::Terminal) => return Some(Estimate { nodes: 1.0, sums_differ: false }),
        Ok(Node::Chance { n_outcomes: n } | Node::Decision { n_actions: n, .. }) if n > 0 => n,
        _ => return None,
    };
    let mut starts = Vec::with_capacity(PLAYS as usize);
    for _ in 0..PLAYS {
        let mut child = root.clone();
        let action = (rng.next() % u64::from(n)) as u32;
        game.apply(&mut child, action, &mut interner).ok()?;
        starts.push(child);
    }
    // The root's candidates and odds (a deal each where the root deals
    // every hand) let go: each estimate made them again beside the last's.
    game.release_buffers();
    let mut total = 0.0;
    let mut sums = LeafSums::default();
    for start in starts {
        // Each play stops at what is left of the budget.
        total += play_estimate(game, start, f64::from(n), &mut interner, &mut rng, budget - total, &mut sums)?;
        if total >= budget {
            return Some(Estimate { nodes: cap, sums_differ: sums.differ });
        }
    }
    Some(Estimate { nodes: total / f64::from(PLAYS), sums_differ: sums.differ })
}

/// The payoff totals of the leaves the plays reached.
#[derive(Default)]
struct LeafSums {
    first: Option<i64>,
    differ: bool,
    buf: Vec<i64>,
}

impl LeafSums {
    fn add(&mut self, total: i64) {
        match self.first {
            None => self.first = Some(total),
            Some(t) => self.differ |= t != total,
        }
    }
}

/// One play's estimate from `state`, a node at depth 1 (`width` nodes
/// there), or `None` on an error or past [`MAX_DEPTH`]; it stops once
/// it reaches `budget` (then it is at least `budget`).
fn play_estimate<G: Game>(
    game: &G,
    mut state: G::State,
    mut width: f64,
    interner: &mut InfoInterner,
    rng: &mut SplitMix64,
    budget: f64,
    sums: &mut LeafSums,
) -> Option<f64> {
    let mut nodes = 1.0 + width;
    for _ in 0..MAX_DEPTH {
        let n = match advance_out_of_line(game, &mut state, interner).ok()? {
            Node::Terminal => {
                let mut buf = std::mem::take(&mut sums.buf);
                let total = game.payoffs(&state, &mut buf).iter().fold(0i64, |t, x| t.saturating_add(*x));
                sums.buf = buf;
                sums.add(total);
                return Some(nodes);
            }
            Node::Chance { n_outcomes } => n_outcomes,
            Node::Decision { n_actions, .. } => n_actions,
        };
        if n == 0 {
            return None;
        }
        width *= f64::from(n);
        nodes += width;
        if nodes >= budget {
            return Some(nodes);
        }
        let child = (rng.next() % u64::from(n)) as u32;
        game.apply(&mut state, child, interner).ok()?;
    }
    None
}
