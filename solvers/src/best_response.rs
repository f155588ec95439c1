//! Evaluating a strategy profile on the tree: every player's expected payoff,
//! and every player's best response against the others (its value and the
//! pure strategy that reaches it), hence the exploitability (NashConv).
//! Independent of how the profile was computed.
//!
//! The best response of player `p` decides `p`'s information sets from the
//! deepest (most own moves before it) to the shallowest: with perfect recall
//! the subtrees below a set only hold deeper sets of `p`, already decided.

use galac_runtime::ids::{IdRange, IdVec, InfosetId, NodeId, PlayerId, SlotId};
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
    pub choice: IdVec<InfosetId, Option<u32>>,
}

impl BestResponse {
    /// `profile` with this player's sets replaced by the pure choices.
    pub fn apply_to(&self, profile: &Profile) -> Profile {
        let mut out = profile.clone();
        for (set, choice) in self.choice.iter_enumerated() {
            if let Some(a) = choice {
                let probs = out.probs_mut(set);
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

/// [`evaluate`] with the players' best responses on up to `threads`
/// threads ([`Evaluator::with_threads`]: the same answer).
pub fn evaluate_on(tree: &Tree, profile: &Profile, threads: usize) -> Evaluation {
    Evaluator::with_threads(tree, threads).evaluate(tree, profile)
}

/// Player `me`'s best response to the others' strategies in `profile`.
pub fn best_response(tree: &Tree, profile: &Profile, me: PlayerId) -> BestResponse {
    let mut ev = Evaluator::new(tree);
    let r = &mut ev.responders[0];
    let value = r.respond(tree, profile, (&ev.order, &ev.own[me]), me, |_, _| {});
    let choice = r.choice.iter().map(|&a| (a != UNDECIDED).then_some(a)).collect();
    BestResponse { value, choice }
}

/// Expected payoffs of every player, bottom-up over the reversed preorder.
pub fn expected_values(tree: &Tree, profile: &Profile, order: &[NodeId]) -> Vec<f64> {
    let mut val = vec![0.0f64; tree.n_nodes() * tree.n_players as usize];
    expected_values_into(tree, profile, order, &mut val);
    val[..tree.n_players as usize].to_vec()
}

/// [`expected_values`] into `val` (per node and player, zero on entry);
/// the root's are its first `n_players` entries.
pub(crate) fn expected_values_into(tree: &Tree, profile: &Profile, order: &[NodeId], val: &mut [f64]) {
    let n = tree.n_players as usize;
    for &node in order.iter().rev() {
        let base = node.index() * n;
        // Children as plain indices: a `Range<usize>` zipped with a slice
        // is walked without a bounds check a step (`IdRange` is not).
        let mut add = |child: usize, w: f64| {
            for p in 0..n {
                val[base + p] += w * val[child * n + p];
            }
        };
        let children = tree.children(node).indices();
        match tree.node(node) {
            NodeView::Terminal => {
                for (p, x) in tree.payoffs(node).iter().enumerate() {
                    val[base + p] = *x as f64;
                }
            }
            NodeView::Chance => children.zip(tree.chance_probs(node)).for_each(|(c, r)| add(c, r.to_f64())),
            NodeView::Decision { infoset, .. } => children.zip(profile.probs(infoset)).for_each(|(c, w)| add(c, *w)),
        }
    }
}

/// One player's information sets, deepest (most own moves before them)
/// first, with their nodes: the order the best response decides them in,
/// a function of the tree alone.
pub(crate) struct OwnSets {
    pub(crate) sets: Vec<InfosetId>,
    /// Per set of `sets`: its own moves before it.
    pub(crate) depths: Vec<u32>,
    /// The nodes of `sets[i]` are `nodes[starts[i]..starts[i + 1]]`, in
    /// preorder.
    pub(crate) starts: Vec<u32>,
    pub(crate) nodes: Vec<NodeId>,
}

impl OwnSets {
    /// Player `me`'s sets of `tree`, visited in preorder `order`
    /// ([`Tree::preorder`]). Each set's own depth comes from a walk of its
    /// own in that order, a stack of (node, own moves above it), with no
    /// per-node buffer: two players' sets are made on two threads at once.
    pub(crate) fn new(tree: &Tree, order: &[NodeId], me: PlayerId) -> OwnSets {
        let n_sets = tree.infosets.len();
        let mut count: IdVec<InfosetId, u32> = IdVec::from(vec![0u32; n_sets]);
        let mut set_depth: IdVec<InfosetId, u32> = IdVec::from(vec![0u32; n_sets]);
        let mut stack: Vec<(NodeId, u32)> = Vec::new();
        if !order.is_empty() {
            stack.push((NodeId::ROOT, 0));
        }
        while let Some((node, d)) = stack.pop() {
            let mine = match tree.node(node) {
                NodeView::Decision { player, infoset } if player == me => {
                    count[infoset] += 1;
                    set_depth[infoset] = d;
                    true
                }
                _ => false,
            };
            let below = d + u32::from(mine);
            stack.extend(tree.children(node).rev().map(|c| (c, below)));
        }
        let mut sets: Vec<InfosetId> = count.keys().filter(|&s| count[s] > 0).collect();
        sets.sort_by_key(|&s| std::cmp::Reverse(set_depth[s]));
        let mut starts = Vec::with_capacity(sets.len() + 1);
        let mut at: IdVec<InfosetId, u32> = IdVec::from(vec![0u32; n_sets]);
        let mut total = 0u32;
        for &s in &sets {
            starts.push(total);
            at[s] = total;
            total += count[s];
        }
        starts.push(total);
        let mut nodes = vec![NodeId::ROOT; total as usize];
        for &node in order {
            if let NodeView::Decision { player, infoset } = tree.node(node) {
                if player == me {
                    nodes[at[infoset] as usize] = node;
                    at[infoset] += 1;
                }
            }
        }
        let depths = sets.iter().map(|&s| set_depth[s]).collect();
        OwnSets { sets, depths, starts, nodes }
    }
}

/// Below this many nodes an evaluation stays on one thread: a second
/// thread's start and buffers cost more than half a small tree's walks.
pub const PARALLEL_MIN_NODES: usize = 100_000;

/// Evaluates profiles on one tree again and again (a CFR run's checks):
/// the preorder and every player's set order are computed once, and the
/// per-node buffers are reused, so a call allocates nothing but its answer
/// (and, on two threads, the scoped thread it starts).
pub struct Evaluator {
    order: Vec<NodeId>,
    own: IdVec<PlayerId, OwnSets>,
    /// Per thread (one, or two: [`Evaluator::with_threads`]), the buffers
    /// of the best responses it computes; the first also serves the
    /// expected payoffs' pass.
    responders: Vec<Responder>,
}

/// The per-node buffers of one best response at a time.
struct Responder {
    /// Per node: reach by chance and the other players.
    reach: Vec<f64>,
    /// Per node: the responder's value below (NaN: not computed).
    val: Vec<f64>,
    stack: Vec<(NodeId, bool)>,
    /// Per information set: the responder's choice (`UNDECIDED`: none).
    choice: IdVec<InfosetId, u32>,
    q: Vec<f64>,
}

impl Responder {
    fn new(tree: &Tree) -> Responder {
        let max_actions = tree.infosets.iter().map(|i| i.n_actions as usize).max().unwrap_or(0);
        Responder {
            // Zeroed pages, touched first by the thread that responds
            // (`respond` sets every value to NaN before it starts).
            reach: vec![0.0; tree.n_nodes()],
            val: vec![0.0; tree.n_nodes()],
            stack: Vec::new(),
            choice: IdVec::from(vec![UNDECIDED; tree.infosets.len()]),
            q: vec![0.0; max_actions],
        }
    }

    /// Player `me`'s best-response value to `profile` (its sets `own`, in
    /// the order they are decided), handing each decided set's action
    /// values to `record`; its choices are left in `self.choice`.
    fn respond(
        &mut self,
        tree: &Tree,
        profile: &Profile,
        (order, own): (&[NodeId], &OwnSets),
        me: PlayerId,
        mut record: impl FnMut(InfosetId, &[f64]),
    ) -> f64 {
        if tree.n_nodes() == 0 {
            return 0.0;
        }
        reach_of_others(tree, profile, me, order, &mut self.reach);
        self.choice.fill(UNDECIDED);
        self.val.fill(f64::NAN);
        let view = TreeView { tree, profile, me };
        for (i, &set) in own.sets.iter().enumerate() {
            let n_actions = tree.infosets[set].n_actions as usize;
            let nodes = own.nodes[own.starts[i] as usize..own.starts[i + 1] as usize].iter();
            let reach = &self.reach;
            let nodes = nodes.map(|&node| (node, reach[node.index()]));
            let q = &mut self.q[..n_actions];
            self.choice[set] = best_action(&view, nodes, q, &self.choice, &mut self.val, &mut self.stack);
            record(set, q);
        }
        // A set of mine that no play reaches still gets a choice, so that the
        // strategy is complete: the first action.
        for (set, info) in tree.infosets.iter_enumerated() {
            if info.player == me && self.choice[set] == UNDECIDED {
                self.choice[set] = 0;
            }
        }
        value_below(&view, &self.choice, &mut self.val, &mut self.stack, NodeId::ROOT)
    }
}

impl Evaluator {
    /// The evaluator of `tree`, on one thread.
    pub fn new(tree: &Tree) -> Evaluator {
        Self::with_threads(tree, 1)
    }

    /// The evaluator of `tree`, computing the players' best responses on
    /// up to `threads` threads (at most two, each with its own per-node
    /// buffers; one below [`PARALLEL_MIN_NODES`] nodes or with one player).
    /// The answer is the same on any number: each best response is
    /// computed whole by one thread.
    pub fn with_threads(tree: &Tree, threads: usize) -> Evaluator {
        let order = tree.preorder();
        let threads = Self::threads_for(tree, threads);
        let own = if threads > 1 {
            // Player 0's sets on this thread, the others' on a second one.
            std::thread::scope(|s| {
                let others = s.spawn(|| tree.players().skip(1).map(|p| OwnSets::new(tree, &order, p)).collect());
                let first = OwnSets::new(tree, &order, PlayerId(0));
                let others: Vec<OwnSets> = others.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
                std::iter::once(first).chain(others).collect()
            })
        } else {
            tree.players().map(|p| OwnSets::new(tree, &order, p)).collect()
        };
        let responders = (0..threads).map(|_| Responder::new(tree)).collect();
        Evaluator { order, own, responders }
    }

    /// How many threads [`Self::with_threads`] uses.
    fn threads_for(tree: &Tree, threads: usize) -> usize {
        if threads > 1 && tree.n_players > 1 && tree.n_nodes() >= PARALLEL_MIN_NODES {
            2
        } else {
            1
        }
    }

    /// Bytes an evaluator of `tree` on `threads` threads holds (at most),
    /// before building it.
    pub fn estimate_bytes(tree: &Tree, threads: usize) -> u64 {
        let (n, p, sets) = (tree.n_nodes() as u64, u64::from(tree.n_players), tree.infosets.len() as u64);
        let responders = Self::threads_for(tree, threads) as u64;
        // order, own nodes, own sets' entries; per responder reach, val
        // and stack per node, a choice per set.
        n * (4 + 4) + sets * (4 + 4 + 4 + 4) * p.max(1) + responders * (n * (8 + 8 + 8) + 4 * sets)
    }

    /// Every player's value and best response to `profile`.
    pub fn evaluate(&mut self, tree: &Tree, profile: &Profile) -> Evaluation {
        let (order, own) = (&self.order[..], &self.own);
        let mut best_response = vec![0.0; tree.n_players as usize];
        let values = match &mut self.responders[..] {
            [first, second] => {
                // The expected payoffs, then player 0's best response, on
                // this thread; the others' on a second one.
                let (head, tail) = best_response.split_at_mut(1);
                std::thread::scope(|s| {
                    s.spawn(|| {
                        for (p, b) in tree.players().skip(1).zip(tail.iter_mut()) {
                            *b = second.respond(tree, profile, (order, &own[p]), p, |_, _| {});
                        }
                    });
                    let values = expected_values_forward(tree, profile, order, &mut first.reach);
                    head[0] = first.respond(tree, profile, (order, &own[PlayerId(0)]), PlayerId(0), |_, _| {});
                    values
                })
            }
            [only, ..] => {
                let values = expected_values_forward(tree, profile, order, &mut only.reach);
                for (p, b) in tree.players().zip(best_response.iter_mut()) {
                    *b = only.respond(tree, profile, (order, &own[p]), p, |_, _| {});
                }
                values
            }
            [] => unreachable!("an evaluator has at least one responder"),
        };
        let nash_conv = best_response.iter().zip(&values).map(|(b, v)| b - v).sum();
        Evaluation { values, best_response, nash_conv }
    }

    /// Per action slot of player `me`'s sets (`slot(set) + action`), the
    /// action's value in `me`'s best response to `profile`: the reach-
    /// weighted payoff of taking it and responding best below. A set no
    /// play reaches gets zeros. An action is a best one when its value is
    /// its set's largest.
    pub fn action_values(
        &mut self,
        tree: &Tree,
        profile: &Profile,
        me: PlayerId,
        slot: &IdVec<InfosetId, SlotId>,
        out: &mut [f64],
    ) {
        self.responders[0].respond(tree, profile, (&self.order, &self.own[me]), me, |set, q| {
            let s = slot[set].index();
            out[s..s + q.len()].copy_from_slice(q);
        });
    }
}

/// Expected payoffs of every player under `profile`: [`reach_except`]'s
/// one pass in preorder `order` with every player's strategy (`reach` is
/// scratch per node), adding reach times payoff at the leaves.
fn expected_values_forward(tree: &Tree, profile: &Profile, order: &[NodeId], reach: &mut [f64]) -> Vec<f64> {
    let mut values = vec![0.0; tree.n_players as usize];
    if tree.n_nodes() > 0 {
        reach_except(tree, profile, None, order, reach, |node, r| {
            for (v, x) in values.iter_mut().zip(tree.payoffs(node)) {
                *v += r * *x as f64;
            }
        });
    }
    values
}

/// Per node of `tree`: its reach by chance and the players other than
/// `me` under `profile` (`order` is the tree's preorder).
pub(crate) fn reach_of_others(tree: &Tree, profile: &Profile, me: PlayerId, order: &[NodeId], reach: &mut [f64]) {
    reach_except(tree, profile, Some(me), order, reach, |_, _| {});
}

/// Per node of `tree`, in preorder `order`: its reach by chance and every
/// player but `skip` under `profile`, into `reach`; each leaf and its reach
/// handed to `at_leaf`.
fn reach_except(
    tree: &Tree,
    profile: &Profile,
    skip: Option<PlayerId>,
    order: &[NodeId],
    reach: &mut [f64],
    mut at_leaf: impl FnMut(NodeId, f64),
) {
    reach[0] = 1.0;
    for &node in order {
        let r = reach[node.index()];
        match tree.node(node) {
            NodeView::Terminal => at_leaf(node, r),
            NodeView::Chance => {
                for (child, pr) in tree.children(node).zip(tree.chance_probs(node)) {
                    reach[child.index()] = r * pr.to_f64();
                }
            }
            NodeView::Decision { player, infoset } => {
                let mine = Some(player) == skip;
                for (child, w) in tree.children(node).zip(profile.probs(infoset)) {
                    reach[child.index()] = if mine { r } else { r * w };
                }
            }
        }
    }
}

/// No choice made yet at a set.
pub(crate) const UNDECIDED: u32 = u32::MAX;

/// What a node is to one player's best response.
#[derive(Clone, Copy)]
pub(crate) enum Role {
    /// A leaf, with the responder's payoff.
    Leaf(f64),
    Chance,
    /// A node of the responder, in this set.
    Mine(InfosetId),
    /// A node of another player (whose strategy is fixed).
    Other,
}

/// A game as a best response walks it: a built [`Tree`] with a
/// [`Profile`], or the double oracle's explored nodes with an extended
/// strategy; one walk serves both.
pub(crate) trait Responding {
    /// What `node` is.
    fn role(&self, node: NodeId) -> Role;
    /// Its children.
    fn children(&self, node: NodeId) -> IdRange<NodeId>;
    /// The probability of its `i`-th child, at a chance node or another
    /// player's node (children of weight 0 are never valued: the double
    /// oracle has not made what lies below them).
    fn weight(&self, node: NodeId, action: u32) -> f64;
}

/// The responder's best action at a set whose nodes (with their reach by
/// chance and the others) are `nodes`, the first of the best ones; the
/// sets below must be decided in `choice`. `q` holds a value per action.
pub(crate) fn best_action<R: Responding>(
    r: &R,
    nodes: impl Iterator<Item = (NodeId, f64)>,
    q: &mut [f64],
    choice: &IdVec<InfosetId, u32>,
    val: &mut [f64],
    stack: &mut Vec<(NodeId, bool)>,
) -> u32 {
    q.fill(0.0);
    for (node, reach) in nodes {
        for (a, child) in r.children(node).enumerate() {
            q[a] += reach * value_below(r, choice, val, stack, child);
        }
    }
    let mut best = 0;
    for a in 1..q.len() {
        if q[a] > q[best] {
            best = a;
        }
    }
    best as u32
}

/// My expected payoff below `node` when I follow `choice` and the others
/// their strategies, memoised in `val` (NaN: not computed); post-order
/// without recursion. Every set of mine below a set being decided is
/// deeper, so already decided.
pub(crate) fn value_below<R: Responding>(
    r: &R,
    choice: &IdVec<InfosetId, u32>,
    val: &mut [f64],
    stack: &mut Vec<(NodeId, bool)>,
    node: NodeId,
) -> f64 {
    if !val[node.index()].is_nan() {
        return val[node.index()];
    }
    let my_child = |n: NodeId, set: InfosetId| match choice[set] {
        UNDECIDED => None,
        a => Some(r.children(n).nth_id(a as usize)),
    };
    stack.clear();
    stack.push((node, false));
    while let Some((n, expanded)) = stack.pop() {
        if !val[n.index()].is_nan() {
            continue;
        }
        let role = r.role(n);
        if !expanded {
            match role {
                Role::Leaf(x) => val[n.index()] = x,
                Role::Mine(set) => {
                    stack.push((n, true));
                    stack.extend(my_child(n, set).map(|c| (c, false)));
                }
                Role::Chance | Role::Other => {
                    stack.push((n, true));
                    let weighted = r.children(n).enumerate().filter(|&(i, _)| r.weight(n, i as u32) > 0.0);
                    stack.extend(weighted.map(|(_, c)| (c, false)));
                }
            }
            continue;
        }
        val[n.index()] = match role {
            Role::Leaf(_) => unreachable!("leaves are valued before they are expanded"),
            Role::Mine(set) => my_child(n, set).map_or(f64::NEG_INFINITY, |c| val[c.index()]),
            Role::Chance | Role::Other => r
                .children(n)
                .enumerate()
                .map(|(i, c)| {
                    let w = r.weight(n, i as u32);
                    if w > 0.0 {
                        w * val[c.index()]
                    } else {
                        0.0
                    }
                })
                .sum(),
        };
    }
    val[node.index()]
}

/// A built tree and a profile, as one player's best response sees them.
pub(crate) struct TreeView<'a> {
    pub(crate) tree: &'a Tree,
    pub(crate) profile: &'a Profile,
    pub(crate) me: PlayerId,
}

impl Responding for TreeView<'_> {
    fn role(&self, node: NodeId) -> Role {
        match self.tree.node(node) {
            NodeView::Terminal => Role::Leaf(self.tree.payoffs(node)[self.me.index()] as f64),
            NodeView::Chance => Role::Chance,
            NodeView::Decision { player, infoset } if player == self.me => Role::Mine(infoset),
            NodeView::Decision { .. } => Role::Other,
        }
    }

    fn children(&self, node: NodeId) -> IdRange<NodeId> {
        self.tree.children(node)
    }

    fn weight(&self, node: NodeId, action: u32) -> f64 {
        match self.tree.node(node) {
            NodeView::Chance => self.tree.chance_probs(node)[action as usize].to_f64(),
            NodeView::Decision { infoset, .. } => self.profile.probs(infoset)[action as usize],
            NodeView::Terminal => 0.0,
        }
    }
}
