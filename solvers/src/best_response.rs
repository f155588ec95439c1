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

/// Evaluates `profile` (allocating its buffers; [`Evaluator`] reuses them).
pub fn evaluate(tree: &Tree, profile: &Profile) -> Evaluation {
    Evaluator::new(tree).evaluate(tree, profile)
}

/// Player `me`'s best response to the others' strategies in `profile`.
pub fn best_response(tree: &Tree, profile: &Profile, me: u32) -> BestResponse {
    let mut ev = Evaluator::new(tree);
    let value = ev.best_response_value(tree, profile, me);
    BestResponse { value, choice: ev.choice }
}

/// Expected payoffs of every player, bottom-up over the reversed preorder.
pub fn expected_values(tree: &Tree, profile: &Profile, order: &[u32]) -> Vec<f64> {
    let mut val = vec![0.0f64; tree.n_nodes() * tree.n_players as usize];
    expected_values_into(tree, profile, order, &mut val);
    val[..tree.n_players as usize].to_vec()
}

/// [`expected_values`] into `val` (per node and player, zero on entry);
/// the root's are its first `n_players` entries.
fn expected_values_into(tree: &Tree, profile: &Profile, order: &[u32], val: &mut [f64]) {
    let n = tree.n_players as usize;
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
}

/// One player's information sets, deepest (most own moves before them)
/// first, with their nodes: the order the best response decides them in,
/// a function of the tree alone.
struct OwnSets {
    sets: Vec<u32>,
    /// The nodes of `sets[i]` are `nodes[starts[i]..starts[i + 1]]`.
    starts: Vec<u32>,
    nodes: Vec<u32>,
}

impl OwnSets {
    /// Player `me`'s sets of `tree`, visited in preorder `order`.
    fn new(tree: &Tree, order: &[u32], me: u32, own_depth: &mut [u32]) -> OwnSets {
        let n_sets = tree.infosets.len();
        let mut count = vec![0u32; n_sets];
        let mut set_depth = vec![0u32; n_sets];
        if let Some(d) = own_depth.first_mut() {
            *d = 0;
        }
        for &node in order {
            let d = own_depth[node as usize];
            let mine = match tree.node(node) {
                NodeView::Decision { player, infoset } if player == me => {
                    count[infoset as usize] += 1;
                    set_depth[infoset as usize] = d;
                    true
                }
                _ => false,
            };
            tree.children(node).for_each(|c| own_depth[c as usize] = d + u32::from(mine));
        }
        let mut sets: Vec<u32> = (0..n_sets as u32).filter(|s| count[*s as usize] > 0).collect();
        sets.sort_by_key(|s| std::cmp::Reverse(set_depth[*s as usize]));
        let mut starts = Vec::with_capacity(sets.len() + 1);
        let mut at = vec![0u32; n_sets];
        let mut total = 0u32;
        for &s in &sets {
            starts.push(total);
            at[s as usize] = total;
            total += count[s as usize];
        }
        starts.push(total);
        let mut nodes = vec![0u32; total as usize];
        for &node in order {
            if let NodeView::Decision { player, infoset } = tree.node(node) {
                if player == me {
                    nodes[at[infoset as usize] as usize] = node;
                    at[infoset as usize] += 1;
                }
            }
        }
        OwnSets { sets, starts, nodes }
    }
}

/// Evaluates profiles on one tree again and again (a CFR run's checks):
/// the preorder and every player's set order are computed once, and the
/// per-node buffers are reused, so a call allocates nothing but its answer.
pub struct Evaluator {
    order: Vec<u32>,
    own: Vec<OwnSets>,
    /// Per node and player: expected payoffs.
    values: Vec<f64>,
    /// Per node: reach by chance and the other players.
    reach: Vec<f64>,
    /// Per node: the responder's value below (NaN: not computed).
    val: Vec<f64>,
    stack: Vec<(u32, bool)>,
    /// Per information set: the responder's choice.
    choice: Vec<Option<u32>>,
    q: Vec<f64>,
}

impl Evaluator {
    /// The evaluator of `tree`.
    pub fn new(tree: &Tree) -> Evaluator {
        let order = tree.preorder();
        let n = tree.n_nodes();
        let mut own_depth = vec![0u32; n];
        let own = (0..tree.n_players).map(|p| OwnSets::new(tree, &order, p, &mut own_depth)).collect();
        let max_actions = tree.infosets.iter().map(|i| i.n_actions as usize).max().unwrap_or(0);
        Evaluator {
            order,
            own,
            values: vec![0.0; n * tree.n_players as usize],
            reach: vec![0.0; n],
            val: vec![f64::NAN; n],
            stack: Vec::new(),
            choice: vec![None; tree.infosets.len()],
            q: vec![0.0; max_actions],
        }
    }

    /// Bytes an evaluator of `tree` holds (at most), before building it.
    pub fn estimate_bytes(tree: &Tree) -> u64 {
        let (n, p, sets) = (tree.n_nodes() as u64, u64::from(tree.n_players), tree.infosets.len() as u64);
        // order, own depth, own nodes; values; reach, val, stack; per set.
        n * (4 + 4 + 4) + 8 * n * p + n * (8 + 8 + 8) + sets * (4 + 4 + 4 + 4 + 8) * p.max(1)
    }

    /// Every player's value and best response to `profile`.
    pub fn evaluate(&mut self, tree: &Tree, profile: &Profile) -> Evaluation {
        let n = tree.n_players as usize;
        self.values.fill(0.0);
        expected_values_into(tree, profile, &self.order, &mut self.values);
        let values = self.values[..n].to_vec();
        let best_response: Vec<f64> = (0..n).map(|p| self.best_response_value(tree, profile, p as u32)).collect();
        let nash_conv = best_response.iter().zip(&values).map(|(b, v)| b - v).sum();
        Evaluation { values, best_response, nash_conv }
    }

    /// Player `me`'s best-response value to `profile`; its choices are left
    /// in `self.choice`.
    fn best_response_value(&mut self, tree: &Tree, profile: &Profile, me: u32) -> f64 {
        if tree.n_nodes() == 0 {
            return 0.0;
        }
        // Reach probability of each node by chance and the other players.
        let reach = &mut self.reach;
        reach[0] = 1.0;
        for &node in &self.order {
            let r = reach[node as usize];
            match tree.node(node) {
                NodeView::Terminal => {}
                NodeView::Chance => {
                    for (child, pr) in tree.children(node).zip(tree.chance_probs(node)) {
                        reach[child as usize] = r * pr.to_f64();
                    }
                }
                NodeView::Decision { player, infoset } => {
                    let mine = player == me;
                    for (child, w) in tree.children(node).zip(profile.probs(infoset)) {
                        reach[child as usize] = if mine { r } else { r * w };
                    }
                }
            }
        }
        self.choice.fill(None);
        self.val.fill(f64::NAN);
        let own = &self.own[me as usize];
        let mut below =
            Below { tree, profile, me, choice: &mut self.choice, val: &mut self.val, stack: &mut self.stack };
        for (i, &set) in own.sets.iter().enumerate() {
            let n_actions = tree.infosets[set as usize].n_actions as usize;
            let q = &mut self.q[..n_actions];
            q.fill(0.0);
            for &node in &own.nodes[own.starts[i] as usize..own.starts[i + 1] as usize] {
                let r = self.reach[node as usize];
                for (a, child) in tree.children(node).enumerate() {
                    q[a] += r * below.value(child);
                }
            }
            // The first best action (ties broken by action order).
            let mut best = 0;
            for a in 1..n_actions {
                if q[a] > q[best] {
                    best = a;
                }
            }
            below.choice[set as usize] = Some(best as u32);
        }
        // A set of mine that no play reaches still gets a choice, so that the
        // strategy is complete: the first action.
        for (set, info) in tree.infosets.iter().enumerate() {
            if info.player == me && below.choice[set].is_none() {
                below.choice[set] = Some(0);
            }
        }
        below.value(0)
    }
}

/// My expected payoff below a node when I follow `choice` and the others
/// the profile, memoised in `val`.
struct Below<'a> {
    tree: &'a Tree,
    profile: &'a Profile,
    me: u32,
    choice: &'a mut [Option<u32>],
    val: &'a mut [f64],
    stack: &'a mut Vec<(u32, bool)>,
}

impl Below<'_> {
    /// My value below `node`.
    fn value(&mut self, node: u32) -> f64 {
        let Below { tree, profile, me, choice, val, stack } = self;
        let (tree, profile, me) = (*tree, *profile, *me);
        if !val[node as usize].is_nan() {
            return val[node as usize];
        }
        // My move at a node of mine: the chosen child. Every set of mine below a
        // set being decided is deeper, so already decided.
        let my_child = |n: u32, set: u32| choice[set as usize].map(|a| tree.children(n).start + a);
        // Post-order over the not-yet-computed part of the subtree, without recursion.
        stack.clear();
        stack.push((node, false));
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
}
