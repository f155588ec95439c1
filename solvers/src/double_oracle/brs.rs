//! Best responses on the full game against an extended strategy: the
//! upper or lower bound of the double oracle, and the sequences it adds.
//!
//! Only the part of the game the response can reach is explored: every
//! action of the searching player, the opponent's actions of positive
//! probability (the default action outside the restricted game), every
//! chance outcome. The searching player's sets are decided from the
//! deepest (most own moves above) to the shallowest, as in
//! `crate::best_response`: with perfect recall the nodes below a set hold
//! only deeper sets of the same player, already decided.

use galac_runtime::game::Game;

use super::lazy::{Arena, Explorer, Kind, NONE};
use super::restricted::Extended;
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
    mine.sort_unstable_by_key(|&(d, set, node)| (std::cmp::Reverse(d), set, node));
    let mut choice = vec![NONE; arena.sets.len()];
    let mut val = vec![f64::NAN; arena.len()];
    let mut q: Vec<f64> = Vec::new();
    let mut i = 0;
    while i < mine.len() {
        let set = mine[i].1;
        let n = arena.set(set).n_actions as usize;
        q.clear();
        q.resize(n, 0.0);
        while i < mine.len() && mine[i].1 == set {
            let node = mine[i].2;
            let r = reach[node as usize];
            for (a, c) in arena.children(node).enumerate() {
                q[a] += r * value_below(arena, me, opp, &choice, &mut val, c);
            }
            i += 1;
        }
        // The first best action (ties broken by action order).
        let mut best = 0;
        for a in 1..n {
            if q[a] > q[best] {
                best = a;
            }
        }
        choice[set as usize] = best as u32;
    }
    let value = value_below(arena, me, opp, &choice, &mut val, 0);
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
                let a = choice[set as usize];
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

/// My expected payoff below `node` when I follow `choice` and the opponent
/// `opp` (memoised in `val`), post-order without recursion.
fn value_below(arena: &Arena, me: u32, opp: &Extended, choice: &[u32], val: &mut [f64], node: u32) -> f64 {
    if !val[node as usize].is_nan() {
        return val[node as usize];
    }
    let mut stack: Vec<(u32, bool)> = vec![(node, false)];
    while let Some((n, expanded)) = stack.pop() {
        if !val[n as usize].is_nan() {
            continue;
        }
        let kind = arena.kind(n);
        if !expanded {
            match kind {
                Kind::Terminal => val[n as usize] = arena.payoff(n, me),
                Kind::Decision { player, set } if player == me => {
                    stack.push((n, true));
                    stack.push((arena.children(n).start + choice[set as usize], false));
                }
                Kind::Decision { set, .. } => {
                    stack.push((n, true));
                    let first_slot = arena.set(set).first_slot;
                    for (a, c) in arena.children(n).enumerate() {
                        if opp.prob(set, first_slot, a as u32) > 0.0 {
                            stack.push((c, false));
                        }
                    }
                }
                Kind::Chance => {
                    stack.push((n, true));
                    stack.extend(arena.children(n).map(|c| (c, false)));
                }
            }
            continue;
        }
        val[n as usize] = match kind {
            Kind::Terminal => unreachable!("leaves are valued before they are expanded"),
            Kind::Chance => arena.children(n).zip(arena.chance_probs(n)).map(|(c, p)| p * val[c as usize]).sum(),
            Kind::Decision { player, set } if player == me => {
                val[(arena.children(n).start + choice[set as usize]) as usize]
            }
            Kind::Decision { set, .. } => {
                let first_slot = arena.set(set).first_slot;
                arena
                    .children(n)
                    .enumerate()
                    .map(|(a, c)| {
                        let w = opp.prob(set, first_slot, a as u32);
                        if w > 0.0 {
                            w * val[c as usize]
                        } else {
                            0.0
                        }
                    })
                    .sum()
            }
        };
    }
    val[node as usize]
}
