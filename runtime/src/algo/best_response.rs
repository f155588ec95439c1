//! Evaluating a strategy profile on the tree: every player's expected payoff,
//! and every player's best-response value against the others, hence the
//! exploitability (NashConv). Independent of how the profile was computed.
//!
//! The best response of player `p` decides `p`'s information sets from the
//! deepest (most own moves before it) to the shallowest: with perfect recall
//! the subtrees below a set only hold deeper sets of `p`, already decided.

use super::Profile;
use crate::tree::{Tree, CHANCE, TERMINAL};

#[derive(Clone, Debug)]
pub struct Evaluation {
    /// Expected payoff of each player under the profile.
    pub values: Vec<f64>,
    /// Each player's best-response value against the others' strategies.
    pub best_response: Vec<f64>,
    /// `sum_p (best_response[p] - values[p])`: 0 exactly at a Nash equilibrium.
    pub nash_conv: f64,
}

pub fn evaluate(tree: &Tree, profile: &Profile) -> Evaluation {
    let n = tree.n_players as usize;
    let order = tree.preorder();
    let values = expected_values(tree, profile, &order);
    let best_response: Vec<f64> = (0..n).map(|p| best_response_value(tree, profile, &order, p as u32)).collect();
    let nash_conv = best_response.iter().zip(&values).map(|(b, v)| b - v).sum();
    Evaluation { values, best_response, nash_conv }
}

/// Expected payoffs, bottom-up over the reversed preorder.
fn expected_values(tree: &Tree, profile: &Profile, order: &[u32]) -> Vec<f64> {
    let n = tree.n_players as usize;
    let mut val = vec![0.0f64; tree.n_nodes() * n];
    for &node in order.iter().rev() {
        let base = node as usize * n;
        match tree.kind(node) {
            TERMINAL => {
                for (p, x) in tree.payoffs(node).iter().enumerate() {
                    val[base + p] = *x as f64;
                }
            }
            CHANCE => {
                for (child, pr) in tree.children(node).zip(tree.chance_probs(node)) {
                    let w = pr.to_f64();
                    for p in 0..n {
                        val[base + p] += w * val[child as usize * n + p];
                    }
                }
            }
            _ => {
                let probs = profile.probs(tree.infoset(node).unwrap_or(0));
                for (child, w) in tree.children(node).zip(probs) {
                    for p in 0..n {
                        val[base + p] += w * val[child as usize * n + p];
                    }
                }
            }
        }
    }
    val[..n].to_vec()
}

fn best_response_value(tree: &Tree, profile: &Profile, order: &[u32], me: u32) -> f64 {
    let n_nodes = tree.n_nodes();
    // Reach probability of each node by chance and the other players, and
    // the number of my own moves above it.
    let mut reach = vec![0.0f64; n_nodes];
    let mut own_depth = vec![0u32; n_nodes];
    reach[0] = 1.0;
    for &node in order {
        let (r, d) = (reach[node as usize], own_depth[node as usize]);
        match tree.kind(node) {
            TERMINAL => {}
            CHANCE => {
                for (child, pr) in tree.children(node).zip(tree.chance_probs(node)) {
                    reach[child as usize] = r * pr.to_f64();
                    own_depth[child as usize] = d;
                }
            }
            _ => {
                let mine = tree.player(node) == Some(me);
                let probs = profile.probs(tree.infoset(node).unwrap_or(0));
                for (child, w) in tree.children(node).zip(probs) {
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
        if tree.player(node) == Some(me) {
            let set = tree.infoset(node).unwrap_or(0) as usize;
            members[set].push(node);
            set_depth[set] = own_depth[node as usize];
        }
    }
    let mut my_sets: Vec<usize> = (0..tree.infosets.len()).filter(|s| !members[*s].is_empty()).collect();
    my_sets.sort_by_key(|s| std::cmp::Reverse(set_depth[*s]));

    let mut choice = vec![u32::MAX; tree.infosets.len()];
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
        choice[set] = best as u32;
    }
    value_below(tree, profile, me, &choice, &mut val, 0)
}

/// My expected payoff below `node` when I follow `choice` and the others the
/// profile (memoised in `val`).
fn value_below(tree: &Tree, profile: &Profile, me: u32, choice: &[u32], val: &mut [f64], node: u32) -> f64 {
    if !val[node as usize].is_nan() {
        return val[node as usize];
    }
    // Post-order over the not-yet-computed part of the subtree, without recursion.
    let mut stack: Vec<(u32, bool)> = vec![(node, false)];
    while let Some((n, expanded)) = stack.pop() {
        if !val[n as usize].is_nan() {
            continue;
        }
        let kind = tree.kind(n);
        if kind == TERMINAL {
            val[n as usize] = tree.payoffs(n)[me as usize] as f64;
            continue;
        }
        let mine = tree.player(n) == Some(me);
        if !expanded {
            stack.push((n, true));
            if mine {
                let set = tree.infoset(n).unwrap_or(0) as usize;
                let child = tree.children(n).start + choice[set];
                stack.push((child, false));
            } else {
                for child in tree.children(n) {
                    stack.push((child, false));
                }
            }
            continue;
        }
        let v = if kind == CHANCE {
            tree.children(n).zip(tree.chance_probs(n)).map(|(c, p)| p.to_f64() * val[c as usize]).sum()
        } else if mine {
            let set = tree.infoset(n).unwrap_or(0) as usize;
            val[(tree.children(n).start + choice[set]) as usize]
        } else {
            let probs = profile.probs(tree.infoset(n).unwrap_or(0));
            tree.children(n).zip(probs).map(|(c, w)| w * val[c as usize]).sum()
        };
        val[n as usize] = v;
    }
    val[node as usize]
}
