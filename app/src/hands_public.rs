//! The hands of a public game solved by vector CFR, as the 13x13 grids of
//! [`crate::hands`]: what `solve`, `explain` and `plot hands` show of a
//! spot whose tree is too large to build (the turn), worked out on the
//! public game instead of the tree's information sets.
//!
//! At a public decision of player `p`, with `own` and `opp` the players'
//! reach of it (their weights times their average play on the way; the
//! chance outcomes' probabilities in `opp`, the states an outcome excludes
//! at 0 in both), a hand `i` of `p` is there with probability
//! `own(i) * c(i) / Z`, where `c(i)` sums `opp` over the other's states
//! that share no card with `i` and `Z` sums `w_p(i) * w_q(j)` over the
//! pairs the deal gives; its value after an action is the vector walk's
//! counterfactual value of that action (`VectorCfr::action_values`) over
//! `c(i)`.

use galac_solvers::vector::game::{PublicGame, PublicNode, Removal};
use galac_solvers::vector::VectorCfr;

use crate::hands::{Combo, Grid};

/// A public decision: its node, player, public line (`start` at the
/// root) and how many public moves and outcomes lead to it.
#[derive(Clone, Debug)]
pub struct Decision {
    pub node: u32,
    pub player: usize,
    pub line: String,
    pub moves: usize,
}

/// Every decision of the public game, in node order.
pub fn decisions(public: &PublicGame) -> Vec<Decision> {
    let parent = parents(public);
    let mut out = Vec::new();
    for (node, kind) in public.nodes.iter().enumerate() {
        let PublicNode::Decision { player, .. } = kind else { continue };
        out.push(decision(public, &parent, node as u32, usize::from(*player)));
    }
    out
}

/// Decision `node` of `player`, its public line worked out.
fn decision(public: &PublicGame, parent: &[u32], node: u32, player: usize) -> Decision {
    let path = path(public, parent, node);
    let line = if path.is_empty() { "start".to_string() } else { path.join(" ") };
    Decision { node, player, line, moves: path.len() }
}

/// Each player's first decision (fewest moves, then first in node order):
/// what `solve` and `plot hands` show, as on the tree. Only these two
/// lines are written out (a turn has thousands of decisions).
pub fn firsts(public: &PublicGame) -> Vec<Decision> {
    let parent = parents(public);
    // Moves to each node (a parent comes before its children).
    let mut moves = vec![0usize; public.nodes.len()];
    for node in 0..public.nodes.len() as u32 {
        public.children(node).iter().for_each(|&c| moves[c as usize] = moves[node as usize] + 1);
    }
    (0..2)
        .filter_map(|p| {
            let of_p = |&node: &u32| matches!(&public.nodes[node as usize], PublicNode::Decision { player, .. } if usize::from(*player) == p);
            let first = (0..public.nodes.len() as u32).filter(of_p).min_by_key(|&node| (moves[node as usize], node))?;
            Some(decision(public, &parent, first, p))
        })
        .collect()
}

/// The grids of `chosen` decisions, in their order; empty when the private
/// states are not hands of two cards.
pub fn grids(public: &PublicGame, cfr: &mut VectorCfr, chosen: &[Decision]) -> Vec<Grid> {
    let Removal::Cards(cards) = &public.removal else { return Vec::new() };
    let hands = &cards.hands;
    if hands.iter().flatten().any(|h| h.count_ones() != 2) {
        return Vec::new();
    }
    let parent = parents(public);
    let w = [&public.states[0].weights, &public.states[1].weights];
    let total: f64 = public.compatible_sums(0, w[1]).iter().zip(w[0]).map(|(c, w)| c * w).sum();
    chosen
        .iter()
        .filter_map(|d| {
            let reach = reaches(public, cfr, &parent, d.node);
            grid(public, hands, cfr, d.node, &reach, total, (d.line.clone(), d.moves))
        })
        .collect()
}

/// Each node's parent (`u32::MAX` at the root).
pub fn parents(public: &PublicGame) -> Vec<u32> {
    let mut parent = vec![u32::MAX; public.nodes.len()];
    for node in 0..public.nodes.len() as u32 {
        for &c in public.children(node) {
            parent[c as usize] = node;
        }
    }
    parent
}

/// The public moves and outcomes from the root to `node`, cards written
/// as cards (`2s`), as the tree's public lines.
pub fn path(public: &PublicGame, parent: &[u32], mut node: u32) -> Vec<String> {
    let mut labels = Vec::new();
    while parent[node as usize] != u32::MAX {
        labels.push(crate::cards::standard(&public.labels[node as usize]));
        node = parent[node as usize];
    }
    labels.reverse();
    labels
}

/// Both players' reach of `node` under the average strategies (chance's
/// probabilities in player 1's).
fn reaches(public: &PublicGame, cfr: &VectorCfr, parent: &[u32], node: u32) -> [Vec<f64>; 2] {
    let mut reach = [public.states[0].weights.clone(), public.states[1].weights.clone()];
    let mut steps = Vec::new();
    let mut at = node;
    while parent[at as usize] != u32::MAX {
        steps.push((parent[at as usize], at));
        at = parent[at as usize];
    }
    let (mut sigma, mut reached) = (Vec::new(), Vec::new());
    for &(from, to) in steps.iter().rev() {
        let k = public.children(from).iter().position(|&c| c == to).unwrap_or(0);
        match &public.nodes[from as usize] {
            PublicNode::Decision { player, children } => {
                let p = usize::from(*player);
                let n = public.states[p].len();
                sigma.resize(children.len() * n, 0.0);
                reached.resize(n, false);
                cfr.average(from, p, &mut sigma, &mut reached);
                reach[p].iter_mut().zip(&sigma[k * n..(k + 1) * n]).for_each(|(r, s)| *r *= s);
            }
            PublicNode::Chance { outcomes, .. } => {
                let o = outcomes.start + k as u32;
                let prob = public.outcomes[o as usize].prob;
                reach[1].iter_mut().for_each(|r| *r *= prob);
                for (p, r) in reach.iter_mut().enumerate() {
                    public.excluded(o, p).iter().for_each(|&s| r[s as usize] = 0.0);
                }
            }
            PublicNode::Terminal { .. } => {}
        }
    }
    reach
}

/// The grid of decision `node`'s hands; `line` its public line and length.
fn grid(
    public: &PublicGame,
    hands: &[Vec<u64>; 2],
    cfr: &mut VectorCfr,
    node: u32,
    reach: &[Vec<f64>; 2],
    total: f64,
    (line, moves): (String, usize),
) -> Option<Grid> {
    let PublicNode::Decision { player, children } = &public.nodes[node as usize] else { return None };
    let p = usize::from(*player);
    let q = 1 - p;
    let values = cfr.action_values(node, &reach[q])?;
    let (n, k) = (public.states[p].len(), children.len());
    let (mut sigma, mut reached) = (vec![0.0; k * n], vec![false; n]);
    cfr.average(node, p, &mut sigma, &mut reached);
    let compatible = public.compatible_sums(p, &reach[q]);
    let combos = (0..n)
        .map(|i| {
            let there = if total > 0.0 { reach[p][i] * compatible[i] / total } else { 0.0 };
            let probs: Vec<f64> = (0..k).map(|a| sigma[a * n + i]).collect();
            let action_values: Vec<f64> =
                (0..k).map(|a| if there > 0.0 { values[a * n + i] / compatible[i] } else { f64::NAN }).collect();
            let value = if there > 0.0 { probs.iter().zip(&action_values).map(|(s, v)| s * v).sum() } else { f64::NAN };
            let cards = crate::hands::mask_cards(hands[p][i]);
            Combo {
                set: galac_runtime::ids::InfosetId(i as u32),
                hand: crate::hands::hand_text(cards),
                cell: crate::hands::cell_of(cards[0], cards[1]).0,
                reach: there,
                probs,
                action_values,
                value,
            }
        })
        .collect();
    let actions = public.children(node).iter().map(|&c| public.labels[c as usize].clone()).collect();
    let who = galac_runtime::ids::PlayerId(p as u32);
    Some(Grid::from_combos(who, node, line, moves, actions, combos))
}
