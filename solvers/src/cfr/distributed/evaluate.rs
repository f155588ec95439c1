//! The exploitability check of a distributed run, itself distributed: each
//! rank holds only its shard of the tree (its units' subtrees, the other
//! root children as leaves paying 0), so no rank can evaluate a profile
//! alone. [`ShardEvaluator`] computes what
//! [`crate::best_response::Evaluator`] computes, with the sums that cross
//! units made across ranks:
//!
//! - a best response decides its player's sets level by level, from the
//!   deepest (most own moves before them) up: at each level every rank
//!   sums the reach-weighted values of each action over its nodes of the
//!   level's sets, one unit at a time, the ranks add these sums, and every
//!   rank takes the same best action (the sets below a level are decided
//!   by then, as perfect recall puts only deeper sets of the player below
//!   a set);
//! - the values at the root are sums over its children, each child's share
//!   made by the rank that holds it.
//!
//! Each unit's share is rounded to the run's fixed point ([`Fixed`]) and
//! the shares are added as integers, as the regrets are: so the NashConv is
//! the same bit for bit on any number of ranks. It differs from the
//! single-process evaluator's, which adds in `f64`, in the last bits.

use galac_runtime::ids::{IdRange, IdVec, InfosetId, NodeId, PlayerId};
use galac_runtime::tree::{NodeView, Tree};

use super::collective::{sum_fixed, units, Collective, Fixed};
use crate::best_response::{
    expected_values_into, reach_of_others, value_below, Evaluation, OwnSets, TreeView, UNDECIDED,
};
use crate::Profile;

/// Evaluates profiles on one rank's shard, with the other ranks (every
/// rank calls [`ShardEvaluator::new`] and [`ShardEvaluator::evaluate`] in
/// the same order: they are collectives).
pub struct ShardEvaluator {
    order: Vec<NodeId>,
    /// Per player: its sets met in this shard, with their nodes.
    own: IdVec<PlayerId, OwnSets>,
    /// Per player: its sets of the whole tree by level, deepest first,
    /// each level in set order (the same on every rank).
    levels: IdVec<PlayerId, Vec<Vec<InfosetId>>>,
    /// Per set: its index in its player's `own.sets`, or `NOT_HERE`.
    local: IdVec<InfosetId, u32>,
    /// The root's children, and this rank's units among them.
    kids: IdRange<NodeId>,
    units: IdRange<NodeId>,
    /// The units with children: the first node below each, and the unit,
    /// in node order (a node below the root's children is in the last
    /// unit whose first node below is at most its id).
    below: Vec<(NodeId, NodeId)>,
    fixed: Fixed,
    /// Per node and player: expected payoffs.
    values: Vec<f64>,
    /// Per node: reach by chance and the other players.
    reach: Vec<f64>,
    /// Per node: the responder's value below (NaN: not computed).
    val: Vec<f64>,
    stack: Vec<(NodeId, bool)>,
    /// Per set: the responder's choice.
    choice: IdVec<InfosetId, u32>,
    /// One unit's action values at a set.
    q: Vec<f64>,
    /// A level's action values (or the root's values), in fixed point.
    sums: Vec<i128>,
    limbs: Vec<i64>,
    summed: Vec<f64>,
}

/// No set of this player's here.
const NOT_HERE: u32 = u32::MAX;

impl ShardEvaluator {
    /// The evaluator of this rank's shard `tree` (a collective: the ranks
    /// agree on each set's level). `max_payoff` bounds the payoffs' absolute
    /// values (it fixes the fixed point).
    pub fn new(tree: &Tree, comm: &dyn Collective, max_payoff: f64) -> ShardEvaluator {
        let order = tree.preorder();
        let n = tree.n_nodes();
        let n_sets = tree.infosets.len();
        let own: IdVec<PlayerId, OwnSets> = tree.players().map(|p| OwnSets::new(tree, &order, p)).collect();
        // Every set's level, from the ranks that hold it (they agree: it
        // is its player's moves before it), plus 1 (0: held by none).
        let mut depth = vec![0u64; n_sets];
        let mut local: IdVec<InfosetId, u32> = IdVec::from(vec![NOT_HERE; n_sets]);
        for o in &own {
            for (i, (&set, &d)) in o.sets.iter().zip(&o.depths).enumerate() {
                depth[set.index()] = u64::from(d) + 1;
                local[set] = i as u32;
            }
        }
        comm.or(&mut depth);
        let levels = tree
            .players()
            .map(|p| {
                let mut sets: Vec<InfosetId> =
                    tree.infosets.keys().filter(|&s| tree.infosets[s].player == p && depth[s.index()] > 0).collect();
                sets.sort_by_key(|&s| std::cmp::Reverse(depth[s.index()]));
                let mut levels: Vec<Vec<InfosetId>> = Vec::new();
                for (i, &s) in sets.iter().enumerate() {
                    match levels.last_mut() {
                        Some(level) if depth[s.index()] == depth[sets[i - 1].index()] => level.push(s),
                        _ => levels.push(vec![s]),
                    }
                }
                levels
            })
            .collect();
        let units = units(tree, comm.rank(), comm.size());
        let below = units.filter(|&c| !tree.children(c).is_empty()).map(|c| (tree.children(c).start, c)).collect();
        let max_actions = tree.infosets.iter().map(|i| i.n_actions as usize).max().unwrap_or(0);
        ShardEvaluator {
            order,
            own,
            levels,
            local,
            kids: crate::cfr::walk::root_children(tree),
            units,
            below,
            fixed: Fixed::for_payoffs(max_payoff),
            values: vec![0.0; n * tree.n_players as usize],
            reach: vec![0.0; n],
            val: vec![f64::NAN; n],
            stack: Vec::new(),
            choice: IdVec::from(vec![UNDECIDED; n_sets]),
            q: vec![0.0; max_actions],
            sums: Vec::new(),
            limbs: Vec::new(),
            summed: Vec::new(),
        }
    }

    /// The unit `node` (not the root) is in.
    fn unit_of(&self, node: NodeId) -> NodeId {
        if self.kids.indices().contains(&node.index()) {
            return node;
        }
        let i = self.below.partition_point(|&(first, _)| first <= node);
        self.below[i - 1].1
    }

    /// Every player's value and best response to `profile`, the same on
    /// every rank (a collective).
    pub fn evaluate(&mut self, tree: &Tree, profile: &Profile, comm: &dyn Collective) -> Evaluation {
        let n = tree.n_players as usize;
        self.values.fill(0.0);
        expected_values_into(tree, profile, &self.order, &mut self.values);
        let values = match tree.node(NodeId::ROOT) {
            NodeView::Terminal => self.values[..n].to_vec(),
            _ => {
                // The root's values: each unit's share, summed.
                self.sums.clear();
                self.sums.resize(n, 0);
                for c in self.units {
                    let w = child_weight(tree, profile, c);
                    for p in 0..n {
                        self.sums[p] += self.fixed.to_fixed(w * self.values[c.index() * n + p]);
                    }
                }
                sum_fixed(comm, self.fixed, &self.sums, &mut self.limbs, &mut self.summed);
                self.summed.clone()
            }
        };
        let best_response: Vec<f64> =
            tree.players().map(|p| self.best_response_value(tree, profile, p, comm)).collect();
        let nash_conv = best_response.iter().zip(&values).map(|(b, v)| b - v).sum();
        Evaluation { values, best_response, nash_conv }
    }

    /// Player `me`'s best-response value to `profile`.
    fn best_response_value(&mut self, tree: &Tree, profile: &Profile, me: PlayerId, comm: &dyn Collective) -> f64 {
        if tree.n_nodes() == 0 {
            return 0.0;
        }
        reach_of_others(tree, profile, me, &self.order, &mut self.reach);
        self.choice.fill(UNDECIDED);
        self.val.fill(f64::NAN);
        let view = TreeView { tree, profile, me };
        for level in 0..self.levels[me].len() {
            // Each set's actions, from `at[i]` in `sums`.
            let sets = &self.levels[me][level];
            self.sums.clear();
            for &set in sets {
                let own = &self.own[me];
                let at = self.sums.len();
                let n_actions = tree.infosets[set].n_actions as usize;
                self.sums.resize(at + n_actions, 0);
                let i = self.local[set];
                if i == NOT_HERE {
                    continue;
                }
                let nodes = &own.nodes[own.starts[i as usize] as usize..own.starts[i as usize + 1] as usize];
                let mut unit = None;
                for &node in nodes {
                    if node == NodeId::ROOT {
                        // Its actions are units: each child's value is its
                        // owner's share (reach 1).
                        for c in self.units {
                            let x = value_below(&view, &self.choice, &mut self.val, &mut self.stack, c);
                            self.sums[at + (c.index() - self.kids.start.index())] += self.fixed.to_fixed(x);
                        }
                        continue;
                    }
                    let u = Some(self.unit_of(node));
                    if u != unit {
                        flush(self.fixed, &mut self.q[..n_actions], &mut self.sums[at..]);
                        unit = u;
                    }
                    let r = self.reach[node.index()];
                    for (a, child) in tree.children(node).enumerate() {
                        self.q[a] += r * value_below(&view, &self.choice, &mut self.val, &mut self.stack, child);
                    }
                }
                flush(self.fixed, &mut self.q[..n_actions], &mut self.sums[at..]);
            }
            sum_fixed(comm, self.fixed, &self.sums, &mut self.limbs, &mut self.summed);
            let mut at = 0;
            for &set in &self.levels[me][level] {
                let n_actions = tree.infosets[set].n_actions as usize;
                let q = &self.summed[at..at + n_actions];
                let mut best = 0;
                for a in 1..n_actions {
                    if q[a] > q[best] {
                        best = a;
                    }
                }
                self.choice[set] = best as u32;
                at += n_actions;
            }
        }
        // A set no rank holds gets the first action.
        for (set, info) in tree.infosets.iter_enumerated() {
            if info.player == me && self.choice[set] == UNDECIDED {
                self.choice[set] = 0;
            }
        }
        match tree.node(NodeId::ROOT) {
            NodeView::Terminal => tree.payoffs(NodeId::ROOT)[me.index()] as f64,
            root => {
                self.sums.clear();
                self.sums.push(0);
                let chosen = match root {
                    NodeView::Decision { player, infoset } if player == me => {
                        Some(tree.children(NodeId::ROOT).nth_id(self.choice[infoset] as usize))
                    }
                    _ => None,
                };
                for c in self.units {
                    let w = match chosen {
                        Some(chosen) => f64::from(u8::from(c == chosen)),
                        None => child_weight(tree, profile, c),
                    };
                    if w > 0.0 {
                        let x = value_below(&view, &self.choice, &mut self.val, &mut self.stack, c);
                        self.sums[0] += self.fixed.to_fixed(w * x);
                    }
                }
                sum_fixed(comm, self.fixed, &self.sums, &mut self.limbs, &mut self.summed);
                self.summed[0]
            }
        }
    }
}

/// The probability of the root's child `c` (chance, or the profile at the
/// root's set).
fn child_weight(tree: &Tree, profile: &Profile, c: NodeId) -> f64 {
    let i = c.index() - tree.children(NodeId::ROOT).start.index();
    match tree.node(NodeId::ROOT) {
        NodeView::Chance => tree.chance_probs(NodeId::ROOT)[i].to_f64(),
        NodeView::Decision { infoset, .. } => profile.probs(infoset)[i],
        NodeView::Terminal => 0.0,
    }
}

/// Adds one unit's action values `q` to `sums` in fixed point and clears
/// them for the next unit.
fn flush(fixed: Fixed, q: &mut [f64], sums: &mut [i128]) {
    for (s, x) in sums.iter_mut().zip(q.iter_mut()) {
        if *x != 0.0 {
            *s += fixed.to_fixed(*x);
            *x = 0.0;
        }
    }
}
