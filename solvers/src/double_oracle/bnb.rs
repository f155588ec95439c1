//! The best-response search with branch and bound (the paper's BRS,
//! section 4.3): a depth-first search over the searching player's own
//! sequences that skips the actions whose subtree cannot beat the best
//! action found so far, exploring the game lazily so that a skipped
//! subtree is never made.
//!
//! With perfect recall every node of a set of mine has the same own
//! sequence, so the value of a sequence is the weighted payoff of the
//! leaves reached through the opponent and chance before my next move,
//! plus, per set of mine met there, the best of its actions' values.
//! A set whose nodes' reach (by chance and the opponent) sums to `R` is
//! worth at most `R` times my largest payoff: the search stops a
//! sequence as soon as what it has plus that bound on what is left cannot
//! exceed the value it must beat. Sets are searched by decreasing reach.
//! The opponent's mixed play (its restricted strategy, or a mixed default
//! outside it) only weighs the reach, so the bound holds for it as for
//! chance.
//!
//! The largest payoff is the one met so far (the game declares none), so
//! a search can cut a subtree holding a larger one: its value is then not
//! exact. The caller certifies a final answer with the unpruned search
//! of `brs` (see `mod.rs`).

use galac_runtime::game::Game;

use super::brs::Response;
use super::lazy::{Arena, Explorer, Kind};
use super::restricted::Extended;
use crate::solver::SolveError;

/// One node of a set of mine met below a sequence, with its reach.
#[derive(Clone, Copy)]
struct Met {
    set: u32,
    node: u32,
    reach: f64,
}

/// Sorts `met` by set, then node. Not generic: the sort is compiled once,
/// here, not again in each game's crate with the search.
fn sort_met(met: &mut [Met]) {
    met.sort_unstable_by_key(|m| (m.set, m.node));
}

/// Sorts groups `(first, end, reach)` by decreasing reach (stable); not
/// generic, as [`sort_met`].
fn sort_groups(groups: &mut [(usize, usize, f64)]) {
    groups.sort_by(|x, y| y.2.total_cmp(&x.2));
}

/// The search's state: the player, the opponent's strategy, scratch
/// buffers reused across the recursion's levels.
struct Search<'s, 'a, 'g, G: Game> {
    ex: &'s mut Explorer<'g, G>,
    me: u32,
    opp: &'a Extended,
    /// My largest payoff (met so far).
    max_payoff: f64,
    /// Per set of mine: the action chosen last time, tried first (a good
    /// first bar cuts more).
    hints: &'a mut Vec<u32>,
    /// The sequences of the best actions decided so far on live paths.
    slots: Vec<u32>,
    /// Spare buffers of met nodes and of start nodes, one per level.
    met_pool: Vec<Vec<Met>>,
    start_pool: Vec<Vec<(u32, f64)>>,
    /// Spare buffers of set groups: (first, end) in the met nodes, and reach.
    group_pool: Vec<Vec<(usize, usize, f64)>>,
    stack: Vec<(u32, f64)>,
}

/// Player `me`'s best response to `opp`, pruned with the payoff range met
/// so far (exact when no larger payoff hides in a pruned subtree).
/// `hints` keeps each set's choice for the next search.
pub(super) fn best_response<G: Game>(
    ex: &mut Explorer<G>,
    me: u32,
    opp: &Extended,
    hints: &mut Vec<u32>,
) -> Result<Response, SolveError> {
    let c = ex.arena.constant_sum.unwrap_or(0);
    let max_payoff = match ex.arena.payoff_range {
        Some((lo, hi)) => (if me == 0 { hi } else { c - lo }) as f64,
        None => f64::INFINITY,
    };
    let mut s = Search {
        ex,
        me,
        opp,
        max_payoff,
        hints,
        slots: Vec::new(),
        met_pool: Vec::new(),
        start_pool: Vec::new(),
        group_pool: Vec::new(),
        stack: Vec::new(),
    };
    let value = s.sequence(&[(0, 1.0)], f64::NEG_INFINITY)?.expect("the root's search is never cut");
    let mut slots = s.slots;
    slots.sort_unstable();
    slots.dedup();
    Ok(Response { value, slots })
}

/// Whether a search for `me` against `opp` goes below `node` by action `a`
/// without a move of mine on the way (`own` is the one node of mine allowed).
fn follows(arena: &Arena, me: u32, opp: &Extended, own: u32, node: u32, a: u32) -> bool {
    match arena.kind(node) {
        Kind::Decision { player, .. } if player == me => node == own,
        Kind::Decision { set, .. } => opp.prob(set, arena.set(set).first_slot, a) > 0.0,
        Kind::Chance => true,
        Kind::Terminal => false,
    }
}

impl<G: Game> Search<'_, '_, '_, G> {
    /// Makes the children of `node` and everything below them up to my
    /// next moves, where not made yet.
    fn expand(&mut self, node: u32) -> Result<(), SolveError> {
        if self.ex.arena.is_expanded(node) || self.ex.arena.n_children(node) == 0 {
            return Ok(());
        }
        let (me, opp) = (self.me, self.opp);
        let follow = |arena: &Arena, n: u32, a: u32| follows(arena, me, opp, node, n, a);
        self.ex.expand_region(node, &follow)
    }

    /// The value of the sequence whose first nodes (with their reach) are
    /// `starts`: `Some` exact value, or `None` when it is at most `lambda`.
    fn sequence(&mut self, starts: &[(u32, f64)], lambda: f64) -> Result<Option<f64>, SolveError> {
        let mut met = self.met_pool.pop().unwrap_or_default();
        met.clear();
        let leaves = self.frontier(starts, &mut met)?;
        let result = self.sets_below(leaves, &mut met, lambda);
        self.met_pool.push(met);
        result
    }

    /// Walks from `starts` through the opponent's and chance's moves to
    /// the leaves (their weighted payoffs summed) and my nodes (into `met`).
    fn frontier(&mut self, starts: &[(u32, f64)], met: &mut Vec<Met>) -> Result<f64, SolveError> {
        let mut leaves = 0.0;
        let mut stack = std::mem::take(&mut self.stack);
        stack.clear();
        stack.extend(starts.iter().rev());
        while let Some((node, reach)) = stack.pop() {
            match self.ex.arena.kind(node) {
                Kind::Terminal => leaves += reach * self.ex.arena.payoff(node, self.me),
                Kind::Decision { player, set } if player == self.me => met.push(Met { set, node, reach }),
                Kind::Chance => {
                    self.expand(node)?;
                    let arena = &self.ex.arena;
                    let kids = arena.children(node).zip(arena.chance_probs(node)).rev();
                    stack.extend(kids.filter(|&(_, p)| *p > 0.0).map(|(c, p)| (c, reach * p)));
                }
                Kind::Decision { set, .. } => {
                    self.expand(node)?;
                    let arena = &self.ex.arena;
                    let first_slot = arena.set(set).first_slot;
                    for (a, c) in arena.children(node).enumerate().rev() {
                        let w = self.opp.prob(set, first_slot, a as u32);
                        if w > 0.0 {
                            stack.push((c, reach * w));
                        }
                    }
                }
            }
        }
        self.stack = stack;
        Ok(leaves)
    }

    /// `leaves` plus the best values of the sets of mine in `met`, or
    /// `None` once the total cannot exceed `lambda`.
    fn sets_below(&mut self, leaves: f64, met: &mut [Met], lambda: f64) -> Result<Option<f64>, SolveError> {
        // A set's nodes together, then sets by decreasing reach.
        sort_met(met);
        let mut groups = self.group_pool.pop().unwrap_or_default();
        groups.clear();
        let mut i = 0;
        while i < met.len() {
            let j = i + met[i..].iter().take_while(|m| m.set == met[i].set).count();
            groups.push((i, j, met[i..j].iter().map(|m| m.reach).sum()));
            i = j;
        }
        sort_groups(&mut groups);
        let mut rest: f64 = groups.iter().map(|g| g.2 * self.max_payoff).sum();
        let mut total = Some(leaves);
        for &(lo, hi, reach) in &groups {
            let Some(sum) = total else { break };
            rest -= reach * self.max_payoff;
            // What this set must exceed for the total to exceed lambda.
            let need = lambda - sum - rest;
            total = if reach * self.max_payoff <= need {
                None
            } else {
                self.best_action(&met[lo..hi], need)?.map(|v| sum + v)
            };
        }
        self.group_pool.push(groups);
        Ok(total)
    }

    /// The best action's value at the set of nodes `nodes`, with its
    /// sequence (and those below it) left in `slots`, or `None` when no
    /// action's value exceeds `need`.
    fn best_action(&mut self, nodes: &[Met], need: f64) -> Result<Option<f64>, SolveError> {
        for m in nodes {
            self.expand(m.node)?;
        }
        let set = nodes[0].set;
        let n = self.ex.arena.set(set).n_actions;
        let base = self.slots.len();
        let mut best: Option<(u32, f64)> = None;
        let mut starts = self.start_pool.pop().unwrap_or_default();
        let hint = self.hints.get(set as usize).copied().filter(|&h| h < n).unwrap_or(0);
        for i in 0..n {
            // The hint first, then the others in order.
            let a = match i {
                0 => hint,
                i if i <= hint => i - 1,
                i => i,
            };
            starts.clear();
            let arena = &self.ex.arena;
            starts.extend(nodes.iter().map(|m| (arena.children(m.node).start + a, m.reach)));
            let bar = best.map_or(need, |(_, v)| v.max(need));
            let mark = self.slots.len();
            match self.sequence(&starts, bar)? {
                Some(v) if best.is_none_or(|(_, b)| v > b) => {
                    // The new best's sequences replace the old best's.
                    self.slots.drain(base..mark);
                    best = Some((a, v));
                }
                _ => self.slots.truncate(mark),
            }
        }
        self.start_pool.push(starts);
        Ok(best.map(|(a, v)| {
            self.slots.push(self.ex.arena.slot(set, a));
            if self.hints.len() <= set as usize {
                self.hints.resize(set as usize + 1, 0);
            }
            self.hints[set as usize] = a;
            v
        }))
    }
}
