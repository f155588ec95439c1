//! Best responses on the full game against an extended strategy: the
//! upper or lower bound of the double oracle, and the sequences it adds.
//!
//! Only the part of the game the response can reach is explored: every
//! action of the searching player, the opponent's actions of positive
//! probability (the default strategy's support outside the restricted game), every
//! chance outcome. The searching player's sets are decided from the
//! deepest (most own moves above) to the shallowest, as in
//! `crate::best_response`, whose walk this shares: with perfect recall the
//! nodes below a set hold only deeper sets of the same player, already
//! decided. The double oracle certifies its final bounds with this search
//! (`bnb` prunes).

use galac_runtime::game::Game;
use galac_runtime::ids::{IdRange, IdVec, InfosetId, NodeId};

use super::lazy::{Arena, Explorer, Kind, NONE};
use super::restricted::Extended;
use crate::best_response::{best_action, value_below, Responding, Role};
use crate::solver::SolveError;

/// A best response: its value and the sequences it plays.
pub(super) struct Response {
    /// The searching player's expected payoff.
    pub value: f64,
    /// The global slots the response plays on its own reachable path.
    pub slots: Vec<u32>,
}

/// Player `me`'s best response to the opponent's extended strategy `opp`.
pub(super) fn best_response<G: Game>(ex: &mut Explorer<G>, me: u32, opp: &Extended) -> Result<Response, SolveError> {
    let follow = |arena: &Arena, node: u32, a: u32| match arena.kind(node) {
        Kind::Decision { player, .. } if player == me => true,
        Kind::Decision { set, .. } => opp.prob(set, arena.set(set).first_slot, a) > 0.0,
        Kind::Chance => true,
        Kind::Terminal => false,
    };
    let order = ex.region(&follow)?;
    let arena = &ex.arena;
    // Reach by chance and the opponent; own moves above each node.
    let mut reach = vec![0.0f64; arena.len()];
    let mut own_depth = vec![0u32; arena.len()];
    reach[0] = 1.0;
    let mut mine: Vec<(u32, u32, u32)> = Vec::new();
    for &node in &order {
        let (r, d) = (reach[node as usize], own_depth[node as usize]);
        match arena.kind(node) {
            Kind::Terminal => {}
            Kind::Chance => {
                for (c, p) in arena.children(node).zip(arena.chance_probs(node)) {
                    reach[c as usize] = r * p;
                    own_depth[c as usize] = d;
                }
            }
            Kind::Decision { player, set } if player == me => {
                mine.push((d, set, node));
                for c in arena.children(node) {
                    reach[c as usize] = r;
                    own_depth[c as usize] = d + 1;
                }
            }
            Kind::Decision { set, .. } => {
                let first_slot = arena.set(set).first_slot;
                for (a, c) in arena.children(node).enumerate() {
                    reach[c as usize] = r * opp.prob(set, first_slot, a as u32);
                    own_depth[c as usize] = d;
                }
            }
        }
    }
    // Deepest sets first; a set's nodes together.
    deepest_first(&mut mine);
    let view = View { arena, me, opp };
    // The arena's nodes and sets are the explored game's: the walk shared
    // with the tree's best response sees them as its ids.
    let mut choice: IdVec<InfosetId, u32> = IdVec::from(vec![NONE; arena.sets.len()]);
    let mut val = vec![f64::NAN; arena.len()];
    let (mut q, mut stack) = (Vec::new(), Vec::new());
    let mut i = 0;
    while i < mine.len() {
        let set = mine[i].1;
        let end = i + mine[i..].iter().take_while(|m| m.1 == set).count();
        q.resize(arena.set(set).n_actions as usize, 0.0);
        let nodes = mine[i..end].iter().map(|&(_, _, node)| (NodeId(node), reach[node as usize]));
        choice[InfosetId(set)] = best_action(&view, nodes, &mut q, &choice, &mut val, &mut stack);
        i = end;
    }
    let value = value_below(&view, &choice, &mut val, &mut stack, NodeId::ROOT);
    // The sequences the response plays where the opponent and chance let it.
    let mut reached = vec![false; arena.len()];
    reached[0] = true;
    let mut slots = Vec::new();
    for &node in &order {
        if !reached[node as usize] {
            continue;
        }
        match arena.kind(node) {
            Kind::Decision { player, set } if player == me => {
                let a = choice[InfosetId(set)];
                slots.push(arena.slot(set, a));
                reached[(arena.children(node).start + a) as usize] = true;
            }
            _ => {
                for (a, c) in arena.children(node).enumerate() {
                    if follow(arena, node, a as u32) {
                        reached[c as usize] = true;
                    }
                }
            }
        }
    }
    slots.sort_unstable();
    slots.dedup();
    Ok(Response { value, slots })
}

/// The explored nodes and the opponent's extended strategy, as the
/// shared best-response walk sees them.
struct View<'a> {
    arena: &'a Arena,
    me: u32,
    opp: &'a Extended,
}

impl Responding for View<'_> {
    fn role(&self, node: NodeId) -> Role {
        match self.arena.kind(node.0) {
            Kind::Terminal => Role::Leaf(self.arena.payoff(node.0, self.me)),
            Kind::Chance => Role::Chance,
            Kind::Decision { player, set } if player == self.me => Role::Mine(InfosetId(set)),
            Kind::Decision { .. } => Role::Other,
        }
    }

    fn children(&self, node: NodeId) -> IdRange<NodeId> {
        let children = self.arena.children(node.0);
        IdRange::new(NodeId(children.start), NodeId(children.end))
    }

    fn weight(&self, node: NodeId, action: u32) -> f64 {
        match self.arena.kind(node.0) {
            Kind::Chance => self.arena.chance_probs(node.0)[action as usize],
            Kind::Decision { set, .. } => self.opp.prob(set, self.arena.set(set).first_slot, action),
            Kind::Terminal => 0.0,
        }
    }
}

/// Sorts `(depth, set, node)` deepest first, then by set and node. Not
/// generic: the sort is compiled once, here, not again in each game's crate
/// with the best response.
fn deepest_first(mine: &mut [(u32, u32, u32)]) {
    mine.sort_unstable_by_key(|&(d, set, node)| (std::cmp::Reverse(d), set, node));
}
