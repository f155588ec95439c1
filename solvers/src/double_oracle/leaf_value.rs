//! Values of temporary leaves: nodes of the restricted game where the
//! player to move has no allowed action yet.
//!
//! As in the paper, the player to move continues with the default strategy
//! ([`super::default_strategy`]: the first action, or a mixed one whose
//! nodes are expectations over its support) while the opponent
//! best-responds. The opponent here sees the whole subtree (a
//! perfect-information best response), which can only lower the mover's
//! value: the value stays a lower bound for the mover, and an upper bound
//! for the opponent on what a best response that respects information sets
//! gets against the default play, which is what convergence needs (see
//! `mod.rs`). The subtree is walked with game states and nothing is stored:
//! memory is its depth.

use galac_runtime::game::{Game, Node};
use galac_runtime::ids::InfosetId;

use super::default_strategy::DefaultStrategy;
use super::lazy::{Explorer, Kind};
use crate::solver::SolveError;

/// How a frame combines its children's values.
#[derive(Clone, Copy)]
enum Mode {
    /// The mover of the leaf: the expectation under the default strategy.
    Default,
    /// The first player best-responds (maximises).
    Max,
    /// The second player best-responds (minimises the first's payoff).
    Min,
    /// Nature: the expectation.
    Chance,
}

/// A node being valued, with its state before its `advance` (see
/// [`Explorer::child_before`]).
struct Frame<S> {
    before: S,
    /// The interner's mark once `before` was made.
    mark: u32,
    mode: Mode,
    /// Children to value and the next one.
    n: u32,
    next: u32,
    acc: f64,
    /// Where this node's chance probabilities start in the shared stack.
    probs_at: usize,
}

impl<G: Game> Explorer<'_, G> {
    /// The first player's payoff at temporary leaf `node` when its mover
    /// plays `default` and the other player best-responds.
    pub fn leaf_value(&mut self, node: u32, default: &DefaultStrategy) -> Result<f64, SolveError> {
        let Kind::Decision { player: mover, .. } = self.arena.kind(node) else {
            unreachable!("a temporary leaf is a decision node")
        };
        let base = self.interner.mark();
        let before = self.replay_before(node)?;
        let mut stack: Vec<Frame<G::State>> = Vec::new();
        let mut probs: Vec<f64> = Vec::new();
        let mut ret = self.open(before, mover, default, &mut stack, &mut probs)?;
        let value = loop {
            if let Some(v) = ret.take() {
                let Some(top) = stack.last_mut() else { break v };
                let k = (top.next - 1) as usize;
                top.acc = match top.mode {
                    Mode::Max => top.acc.max(v),
                    Mode::Min => top.acc.min(v),
                    Mode::Default | Mode::Chance => top.acc + probs[top.probs_at + k] * v,
                };
            }
            let top = stack.last_mut().expect("a frame waits for a value");
            if let Mode::Default | Mode::Chance = top.mode {
                // Children of weight 0 (outside the default's support) add nothing.
                while top.next < top.n && probs[top.probs_at + top.next as usize] == 0.0 {
                    top.next += 1;
                }
            }
            if top.next == top.n {
                let done = stack.pop().expect("the top frame");
                probs.truncate(done.probs_at);
                ret = Some(done.acc);
                continue;
            }
            let a = top.next;
            top.next += 1;
            // The previous child's facts are finished with.
            self.interner.truncate(top.mark);
            let child = self.child_before(&top.before, a)?;
            ret = self.open(child, mover, default, &mut stack, &mut probs)?;
        };
        self.interner.truncate(base);
        Ok(value)
    }

    /// The value of the node whose state before its `advance` is `before`
    /// if it is a leaf, or `None` after pushing its frame.
    fn open(
        &mut self,
        before: G::State,
        mover: u32,
        default: &DefaultStrategy,
        stack: &mut Vec<Frame<G::State>>,
        probs: &mut Vec<f64>,
    ) -> Result<Option<f64>, SolveError> {
        let mark = self.interner.mark();
        let mut state = before.clone();
        let event = self.game.advance(&mut state, self.interner)?;
        let probs_at = probs.len();
        let (mode, n, acc) = match event {
            Node::Terminal => {
                let pay = self.game.payoffs(&state, &mut self.pay_buf);
                return Ok(Some(self.arena.check_leaf(pay)? as f64));
            }
            Node::Chance { n_outcomes } => {
                self.game.chance_probs(&state, &mut self.probs_buf);
                probs.extend(self.probs_buf.iter().map(|r| r.to_f64()));
                (Mode::Chance, n_outcomes, 0.0)
            }
            Node::Decision { player, infoset, n_actions } if player == mover => {
                probs.extend((0..n_actions).map(|a| default.prob(InfosetId(infoset), a)));
                if n_actions > 0 && probs[probs_at..].iter().all(|&w| w <= 0.0) {
                    return Err(SolveError::Unsupported {
                        solver: "the double oracle",
                        reason: "the default strategy plays none of a set's actions".into(),
                    });
                }
                (Mode::Default, n_actions, 0.0)
            }
            Node::Decision { player: 0, n_actions, .. } => (Mode::Max, n_actions, f64::NEG_INFINITY),
            Node::Decision { n_actions, .. } => (Mode::Min, n_actions, f64::INFINITY),
        };
        if n == 0 {
            return Err(SolveError::Unsupported {
                solver: "the double oracle",
                reason: "a node of the game has no actions".into(),
            });
        }
        stack.push(Frame { before, mark, mode, n, next: 0, acc, probs_at });
        Ok(None)
    }
}
