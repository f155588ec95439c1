//! Evaluating a strategy profile on the tree: every player's expected payoff,
//! and every player's best response against the others (its value and the
//! pure strategy that reaches it), hence the exploitability (NashConv).
//! Independent of how the profile was computed.
//!
//! The best response of player `p` decides `p`'s information sets from the
//! deepest (most own moves before it) to the shallowest: with perfect recall
//! the subtrees below a set only hold deeper sets of `p`, already decided.

use galac_runtime::tree::{NodeView, Tree};

use crate::Profile;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Evaluation {
    /// Expected payoff of each player under the profile.
    pub values: Vec<f64>,
    /// Each player's best-response value against the others' strategies.
    pub best_response: Vec<f64>,
    /// `sum_p (best_response[p] - values[p])`: 0 exactly at a Nash equilibrium.
    pub nash_conv: f64,
}

/// A best response of one player: its value and a pure strategy.
#[derive(Clone, Debug, PartialEq)]
pub struct BestResponse {
    pub value: f64,
    /// Per information set of the tree: the action the player takes there
    /// (`Some` exactly for the player's own sets).
    pub choice: Vec<Option<u32>>,
}

impl BestResponse {
    /// `profile` with this player's sets replaced by the pure choices.
    pub fn apply_to(&self, profile: &Profile) -> Profile {
        let mut out = profile.clone();
        for (set, choice) in self.choice.iter().enumerate() {
            if let Some(a) = choice {
                let probs = out.probs_mut(set as u32);
                probs.fill(0.0);
                probs[*a as usize] = 1.0;
            }
        }
        out
    }
}

pub fn evaluate(tree: &Tree, profile: &Profile) -> Evaluation {
    let n = tree.n_players as usize;
    let order = tree.preorder();
    let values = expected_values(tree, profile, &order);
    let best_response: Vec<f64> = (0..n).map(|p| best_response_in(tree, profile, &order, p as u32).value).collect();
    let nash_conv = best_response.iter().zip(&values).map(|(b, v)| b - v).sum();
    Evaluation { values, best_response, nash_conv }
}

/// Player `me`'s best response to the others' strategies in `profile`.
pub fn best_response(tree: &Tree, profile: &Profile, me: u32) -> BestResponse {
    best_response_in(tree, profile, &tree.preorder(), me)
}

/// Expected payoffs of every player, bottom-up over the reversed preorder.
pub fn expected_values(tree: &Tree, profile: &Profile, order: &[u32]) -> Vec<f64> {
    let n = tree.n_players as usize;
    let mut val = vec![0.0f64; tree.n_nodes() * n];
    for &node in order.iter().rev() {
        let base = node as usize * n;
        let mut add = |child: u32, w: f64| {
            for p in 0..n {
                val[base + p] += w * val[child as usize * n + p];
            }
        };
        match tree.node(node) {
            NodeView::Terminal => {
                for (p, x) in tree.payoffs(node).iter().enumerate() {
                    val[base + p] = *x as f64;
                }
            }
            NodeView::Chance => tree.children(node).zip(tree.chance_probs(node)).for_each(|(c, r)| add(c, r.to_f64())),
            NodeView::Decision { infoset, .. } => {
                tree.children(node).zip(profile.probs(infoset)).for_each(|(c, w)| add(c, *w))
            }
        }
    }
    val[..n].to_vec()
}

fn best_response_in(tree: &Tree, profile: &Profile, order: &[u32], me: u32) -> BestResponse {
    let n_nodes = tree.n_nodes();
    // Reach probability of each node by chance and the other players, and
    // the number of my own moves above it.
    let mut reach = vec![0.0f64; n_nodes];
    let mut own_depth = vec![0u32; n_nodes];
    reach[0] = 1.0;
    for &node in order {
        let (r, d) = (reach[node as usize], own_depth[node as usize]);
        match tree.node(node) {
            NodeView::Terminal => {}
            NodeView::Chance => {
                for (child, pr) in tree.children(node).zip(tree.chance_probs(node)) {
                    reach[child as usize] = r * pr.to_f64();
                    own_depth[child as usize] = d;
                }
            }
            NodeView::Decision { player, infoset } => {
                let mine = player == me;
                for (child, w) in tree.children(node).zip(profile.probs(infoset)) {
                    reach[child as usize] = if mine { r } else { r * w };
                    own_depth[child as usize] = d + u32::from(mine);
                }
            }
        }
    }
    // My information sets with their nodes, deepest first.
    let mut members: Vec<Vec<u32>> = vec![Vec::new(); tree.infosets.len()];
    let mut set_depth = vec![0u32; tree.infosets.len()];
    for &node in order {
        if let NodeView::Decision { player, infoset } = tree.node(node) {
            if player == me {
                members[infoset as usize].push(node);
                set_depth[infoset as usize] = own_depth[node as usize];
            }
        }
    }
    let mut my_sets: Vec<usize> = (0..tree.infosets.len()).filter(|s| !members[*s].is_empty()).collect();
    my_sets.sort_by_key(|s| std::cmp::Reverse(set_depth[*s]));

    let mut choice: Vec<Option<u32>> = vec![None; tree.infosets.len()];
    let mut val = vec![f64::NAN; n_nodes];
    for set in my_sets {
        let n_actions = tree.infosets[set].n_actions as usize;
        let mut q = vec![0.0f64; n_actions];
        for &node in &members[set] {
            let r = reach[node as usize];
            for (a, child) in tree.children(node).enumerate() {
                q[a] += r * value_below(tree, profile, me, &choice, &mut val, child);
            }
        }
        // The first best action (ties broken by action order).
        let mut best = 0;
        for a in 1..n_actions {
            if q[a] > q[best] {
                best = a;
            }
        }
        choice[set] = Some(best as u32);
    }
    // A set of mine that no play reaches still gets a choice, so that the
    // strategy is complete: the first action.
    for (set, info) in tree.infosets.iter().enumerate() {
        if info.player == me && choice[set].is_none() {
            choice[set] = Some(0);
        }
    }
    let value = value_below(tree, profile, me, &choice, &mut val, 0);
    BestResponse { value, choice }
}

/// My expected payoff below `node` when I follow `choice` and the others the
/// profile (memoised in `val`).
fn value_below(tree: &Tree, profile: &Profile, me: u32, choice: &[Option<u32>], val: &mut [f64], node: u32) -> f64 {
    if !val[node as usize].is_nan() {
        return val[node as usize];
    }
    // My move at a node of mine: the chosen child. Every set of mine below a
    // set being decided is deeper, so already decided.
    let my_child = |n: u32, set: u32| choice[set as usize].map(|a| tree.children(n).start + a);
    // Post-order over the not-yet-computed part of the subtree, without recursion.
    let mut stack: Vec<(u32, bool)> = vec![(node, false)];
    while let Some((n, expanded)) = stack.pop() {
        if !val[n as usize].is_nan() {
            continue;
        }
        let view = tree.node(n);
        if !expanded {
            match view {
                NodeView::Terminal => {
                    val[n as usize] = tree.payoffs(n)[me as usize] as f64;
                    continue;
                }
                NodeView::Decision { player, infoset } if player == me => {
                    stack.push((n, true));
                    stack.extend(my_child(n, infoset).map(|c| (c, false)));
                }
                _ => {
                    stack.push((n, true));
                    stack.extend(tree.children(n).map(|c| (c, false)));
                }
            }
            continue;
        }
        val[n as usize] = match view {
            NodeView::Terminal => unreachable!("leaves are valued before they are expanded"),
            NodeView::Chance => {
                tree.children(n).zip(tree.chance_probs(n)).map(|(c, p)| p.to_f64() * val[c as usize]).sum()
            }
            NodeView::Decision { player, infoset } if player == me => {
                my_child(n, infoset).map_or(f64::NEG_INFINITY, |c| val[c as usize])
            }
            NodeView::Decision { infoset, .. } => {
                tree.children(n).zip(profile.probs(infoset)).map(|(c, w)| w * val[c as usize]).sum()
            }
        };
    }
    val[node as usize]
}
