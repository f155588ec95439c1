//! A [`PublicGame`] worked out from a built scalar [`Tree`], for games in
//! which every move is seen by both players and private information comes
//! only from chance deals (Kuhn, Leduc, liar's dice), and the map back
//! from the vector answer to a scalar [`Profile`].
//!
//! The deal is the chance before the first decision; each of its paths is
//! a deal. The public tree is built top-down, a public node holding one
//! scalar node per deal still possible: a decision's children follow each
//! action; a later chance node's outcomes are grouped into public
//! outcomes by the information sets below them (two outcomes are the same
//! public outcome when some player cannot tell their subtrees apart). The
//! class is then checked from the information structure alone:
//! - every information set lies in one public node (else the move or
//!   outcome that splits it is named as not seen by its player);
//! - a player's private state is a class of deals it cannot tell apart
//!   somewhere, and at every public node it tells the classes apart and
//!   nothing more (else the player learns something private after the deal);
//! - the deal's probabilities are the players' weights times which pairs
//!   may be dealt together, and a public outcome's probability is the
//!   same for every pair it allows (card removal);
//! - the game has two players and every leaf is zero-sum.
//!
//! A leaf's payoff is a constant when it is one, a showdown when a ranking
//! of both players' states explains it (worked out by a topological sort),
//! else a matrix. Chance probabilities are exact in the tree and become
//! `f64` here, once.

use galac_runtime::ids::{InfosetId, NodeId};
use galac_runtime::tree::{NodeView, Tree};
use rustc_hash::FxHashMap;

use super::cards::Cards;
use super::game::{Conflicts, Outcome, Payoff, PrivateStates, PublicGame, PublicNode, Ranking, Removal};
use super::infer::{factor, refuse, showdown, Classes};
use crate::solver::SolveError;
use crate::Profile;

/// No entry.
const NONE: u32 = u32::MAX;

/// A public game made from a tree, with what maps answers back.
pub struct FromTree {
    pub game: PublicGame,
    /// Per decision of the public game: the node and the tree's
    /// information sets there, each with its player's private state.
    pub decisions: Vec<(u32, Vec<(u32, u32)>)>,
}

/// A public chance node while building: per public outcome, the deals it
/// allows with their probability; and the deals at the node.
struct ChanceDraft {
    node: u32,
    deals: Vec<u32>,
    outcomes: Vec<Vec<(u32, f64)>>,
}

struct Builder<'t> {
    tree: &'t Tree,
    /// Per deal: its probability.
    deal_prob: Vec<f64>,
    nodes: Vec<PublicNode>,
    child_ids: Vec<u32>,
    labels: Vec<String>,
    parent: Vec<u32>,
    /// Per public node: the first tree information set there (decisions).
    first_set: Vec<u32>,
    /// Per tree information set: its public node.
    set_node: Vec<u32>,
    /// Per public decision: (node, [(deal, information set)]).
    decisions: Vec<(u32, Vec<(u32, u32)>)>,
    chances: Vec<ChanceDraft>,
    /// Per public leaf: (node, [(deal, tree leaf)]).
    leaves: Vec<(u32, Vec<(u32, u32)>)>,
}

/// The name of a tree information set in messages.
fn set_name(tree: &Tree, set: u32) -> String {
    let info = tree.infosets[InfosetId(set)];
    match tree.infoset_label(InfosetId(set)) {
        "" => format!("information set {} of {}", info.index_in_player, tree.player_names[info.player.index()]),
        label => format!("`{label}`"),
    }
}

/// Works out the public game of `tree`, or says why the game is outside
/// the class (see the module comment).
pub fn from_tree(tree: &Tree) -> Result<FromTree, SolveError> {
    if tree.n_players != 2 {
        return Err(refuse(format!(
            "vector CFR solves two-player zero-sum games; this game has {} players",
            tree.n_players
        )));
    }
    // The deals: the paths through the chance nodes above the first decision.
    let (mut deals, mut deal_prob) = (Vec::new(), Vec::new());
    let mut stack = vec![(0u32, 1.0f64)];
    while let Some((node, prob)) = stack.pop() {
        if tree.node(NodeId(node)) == NodeView::Chance {
            let probs = tree.chance_probs(NodeId(node));
            for (child, p) in tree.children(NodeId(node)).map(|c| c.0).zip(probs).rev() {
                stack.push((child, prob * p.to_f64()));
            }
        } else {
            deals.push(node);
            deal_prob.push(prob);
        }
    }
    let mut b = Builder {
        tree,
        deal_prob,
        nodes: Vec::new(),
        child_ids: Vec::new(),
        labels: Vec::new(),
        parent: Vec::new(),
        first_set: Vec::new(),
        set_node: vec![NONE; tree.infosets.len()],
        decisions: Vec::new(),
        chances: Vec::new(),
        leaves: Vec::new(),
    };
    let entries: Vec<(u32, u32)> = deals.iter().enumerate().map(|(d, &node)| (d as u32, node)).collect();
    b.build(entries, String::new(), NONE)?;
    b.finish()
}

impl Builder<'_> {
    /// The public history of a node, for messages.
    fn history(&self, mut node: u32) -> String {
        let mut parts = Vec::new();
        while node != NONE && node != 0 {
            parts.push(self.labels[node as usize].clone());
            node = self.parent[node as usize];
        }
        if parts.is_empty() {
            return "the deal".into();
        }
        parts.reverse();
        format!("the deal, {}", parts.join(", "))
    }

    /// Builds the public node of `entries` (deal, tree node) and its subtree.
    fn build(&mut self, entries: Vec<(u32, u32)>, label: String, parent: u32) -> Result<u32, SolveError> {
        let tree = self.tree;
        let id = self.nodes.len() as u32;
        self.labels.push(label);
        self.parent.push(parent);
        self.first_set.push(NONE);
        let kind = tree.node(NodeId(entries[0].1));
        let same = entries.iter().all(|&(_, n)| match (tree.node(NodeId(n)), kind) {
            (NodeView::Decision { player: a, .. }, NodeView::Decision { player: b, .. }) => a == b,
            (x, y) => x == y,
        });
        if !same {
            return Err(refuse(format!(
                "after {} the game goes on differently for different deals (who moves next, or whether it ends, \
                 depends on private information)",
                self.history(id)
            )));
        }
        match kind {
            NodeView::Terminal => {
                self.nodes.push(PublicNode::Terminal { payoff: self.leaves.len() as u32 });
                self.leaves.push((id, entries));
            }
            NodeView::Decision { player, infoset } => {
                self.nodes.push(PublicNode::Decision { player: player.0 as u8, children: 0..0 });
                self.first_set[id as usize] = infoset.0;
                let n_actions = tree.infosets[infoset].n_actions;
                let mut sets = Vec::with_capacity(entries.len());
                for &(deal, node) in &entries {
                    let NodeView::Decision { infoset: set, .. } = tree.node(NodeId(node)) else { unreachable!() };
                    if tree.infosets[set].n_actions != n_actions {
                        return Err(refuse(format!(
                            "the moves offered to {} after {} depend on private information",
                            tree.player_names[player.index()],
                            self.history(id)
                        )));
                    }
                    match self.set_node[set.index()] {
                        NONE => self.set_node[set.index()] = id,
                        other if other != id => return Err(self.unseen(other, id, set.0)),
                        _ => {}
                    }
                    sets.push((deal, set.0));
                }
                self.decisions.push((id, sets));
                let labels = tree.action_labels(infoset);
                let mut kids = Vec::with_capacity(n_actions as usize);
                for a in 0..n_actions {
                    let child: Vec<(u32, u32)> =
                        entries.iter().map(|&(d, n)| (d, tree.children(NodeId(n)).start.0 + a)).collect();
                    let label = labels.get(a as usize).cloned().unwrap_or_else(|| format!("action {a}"));
                    kids.push(self.build(child, label, id)?);
                }
                let start = self.child_ids.len() as u32;
                self.child_ids.extend(kids);
                self.nodes[id as usize] =
                    PublicNode::Decision { player: player.0 as u8, children: start..self.child_ids.len() as u32 };
            }
            NodeView::Chance => self.chance(id, entries)?,
        }
        Ok(id)
    }

    /// A public chance node: the outcomes of every deal's chance node,
    /// grouped by the information sets of their subtrees.
    fn chance(&mut self, id: u32, entries: Vec<(u32, u32)>) -> Result<(), SolveError> {
        let tree = self.tree;
        self.nodes.push(PublicNode::Chance { children: 0..0, outcomes: 0..0 });
        // Items: (deal, child, probability, outcome index).
        let mut items = Vec::new();
        for &(deal, node) in &entries {
            for (k, (child, p)) in
                tree.children(NodeId(node)).map(|c| c.0).zip(tree.chance_probs(NodeId(node))).enumerate()
            {
                items.push((deal, child, p.to_f64(), k));
            }
        }
        let mut classes = Classes::new(items.len());
        let mut seen: FxHashMap<u32, u32> = FxHashMap::default();
        let mut stack = Vec::new();
        for (item, &(deal, child, _, _)) in items.iter().enumerate() {
            stack.push(child);
            while let Some(node) = stack.pop() {
                if let NodeView::Decision { infoset, player } = tree.node(NodeId(node)) {
                    match seen.get(&infoset.0) {
                        None => {
                            seen.insert(infoset.0, item as u32);
                        }
                        Some(&other) if items[other as usize].0 == deal => {
                            return Err(refuse(format!(
                                "the chance outcome after {} is not seen by {} (its information set {} follows \
                                 two outcomes)",
                                self.history(id),
                                tree.player_names[player.index()],
                                set_name(tree, infoset.0)
                            )));
                        }
                        Some(&other) => classes.union(other, item as u32),
                    }
                }
                stack.extend(tree.children(NodeId(node)).map(|c| c.0));
            }
        }
        let mut group_of: FxHashMap<u32, usize> = FxHashMap::default();
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for item in 0..items.len() {
            let root = classes.find(item as u32);
            let g = *group_of.entry(root).or_insert_with(|| {
                groups.push(Vec::new());
                groups.len() - 1
            });
            groups[g].push(item);
        }
        let mut outcomes = Vec::with_capacity(groups.len());
        let mut kids = Vec::with_capacity(groups.len());
        for group in &groups {
            let mut deals: Vec<u32> = group.iter().map(|&i| items[i].0).collect();
            deals.sort_unstable();
            if deals.windows(2).any(|w| w[0] == w[1]) {
                return Err(refuse(format!(
                    "a chance outcome after {} is not seen by every player (two outcomes of one deal reach the same \
                     information sets)",
                    self.history(id)
                )));
            }
            let (first_deal, first_node) =
                entries.iter().find(|e| e.0 == items[group[0]].0).copied().unwrap_or_default();
            let k = items[group[0]].3;
            let label = tree
                .chance_outcome_labels(NodeId(first_node))
                .get(k)
                .cloned()
                .unwrap_or_else(|| format!("outcome {k} of deal {first_deal}"));
            outcomes.push(group.iter().map(|&i| (items[i].0, items[i].2)).collect());
            let child: Vec<(u32, u32)> = group.iter().map(|&i| (items[i].0, items[i].1)).collect();
            kids.push(self.build(child, label, id)?);
        }
        let start = self.child_ids.len() as u32;
        self.child_ids.extend(kids);
        self.nodes[id as usize] = PublicNode::Chance { children: start..self.child_ids.len() as u32, outcomes: 0..0 };
        self.chances.push(ChanceDraft { node: id, deals: entries.iter().map(|e| e.0).collect(), outcomes });
        Ok(())
    }

    /// The error for an information set `set` met at public nodes `a` and
    /// `b`: the move or outcome where their histories part is not seen.
    fn unseen(&self, a: u32, b: u32, set: u32) -> SolveError {
        let tree = self.tree;
        let mut above = Vec::new();
        let mut x = a;
        while x != NONE {
            above.push(x);
            x = self.parent[x as usize];
        }
        let mut common = b;
        while common != NONE && !above.contains(&common) {
            common = self.parent[common as usize];
        }
        let who = &tree.player_names[tree.infosets[InfosetId(set)].player.index()];
        let what = match self.nodes.get(common as usize) {
            Some(PublicNode::Decision { player, .. }) => format!(
                "{}'s move at {}",
                tree.player_names[*player as usize],
                set_name(tree, self.first_set[common as usize])
            ),
            _ => format!("the chance outcome after {}", self.history(common)),
        };
        refuse(format!(
            "{what} is not seen by {who} (its information set {} follows more than one of its choices); vector CFR \
             needs every move seen by both players",
            set_name(tree, set)
        ))
    }
}

impl Builder<'_> {
    /// The private states, the deal's weights and conflicts, the public
    /// outcomes' probabilities and the leaves' payoffs.
    fn finish(self) -> Result<FromTree, SolveError> {
        let tree = self.tree;
        let n_deals = self.deal_prob.len();
        // Per player: a private state per class of deals it cannot tell apart.
        let mut class_of = [vec![0u32; n_deals], vec![0u32; n_deals]];
        let mut labels: [Vec<String>; 2] = [Vec::new(), Vec::new()];
        for p in 0..2 {
            let mut classes = Classes::new(n_deals);
            let mut first = vec![NONE; tree.infosets.len()];
            for (node, sets) in &self.decisions {
                if !matches!(self.nodes[*node as usize], PublicNode::Decision { player, .. } if player as usize == p) {
                    continue;
                }
                for &(deal, set) in sets {
                    match first[set as usize] {
                        NONE => first[set as usize] = deal,
                        other => classes.union(other, deal),
                    }
                }
            }
            let mut index = vec![NONE; n_deals];
            for (d, class) in class_of[p].iter_mut().enumerate() {
                let root = classes.find(d as u32) as usize;
                if index[root] == NONE {
                    index[root] = labels[p].len() as u32;
                    labels[p].push(String::new());
                }
                *class = index[root];
            }
        }
        // Each information set is one private state at its node, and each
        // private state one information set there.
        let mut decisions = Vec::with_capacity(self.decisions.len());
        for (node, sets) in &self.decisions {
            let PublicNode::Decision { player, .. } = self.nodes[*node as usize] else { unreachable!() };
            let p = player as usize;
            let mut set_of = vec![NONE; labels[p].len()];
            let mut out: Vec<(u32, u32)> = Vec::new();
            for &(deal, set) in sets {
                let s = class_of[p][deal as usize];
                match set_of[s as usize] {
                    NONE => {
                        set_of[s as usize] = set;
                        out.push((set, s));
                        if labels[p][s as usize].is_empty() {
                            labels[p][s as usize] = match tree.infoset_label(InfosetId(set)) {
                                "" => format!("state {s}"),
                                label => label.to_string(),
                            };
                        }
                    }
                    other if other != set => {
                        return Err(refuse(format!(
                            "{} learns something private after the deal: its information sets {} and {} tell apart \
                             deals it cannot tell apart elsewhere",
                            tree.player_names[p],
                            set_name(tree, other),
                            set_name(tree, set)
                        )));
                    }
                    _ => {}
                }
            }
            decisions.push((*node, out));
        }
        for (p, l) in labels.iter_mut().enumerate() {
            for (s, label) in l.iter_mut().enumerate() {
                if label.is_empty() {
                    *label = format!("state {s} of {}", tree.player_names[p]);
                }
            }
        }
        let n = [labels[0].len(), labels[1].len()];
        let pair = |d: usize| class_of[0][d] as usize * n[1] + class_of[1][d] as usize;
        if n[0].saturating_mul(n[1]) > 1 << 26 {
            return Err(refuse(format!(
                "{} x {} private states are more pairs than vector CFR takes from a tree",
                n[0], n[1]
            )));
        }
        let mut joint = vec![0.0f64; n[0] * n[1]];
        for d in 0..n_deals {
            joint[pair(d)] += self.deal_prob[d];
        }
        let weights = factor(&joint, n)?;
        // Hands of cards that explain the conflicts exactly remove them in
        // O(n) per leaf; else the lists, O(conflicts).
        let removal = match Cards::from_labels([&labels[0], &labels[1]], |i, j| joint[i * n[1] + j] == 0.0) {
            Some(cards) => Removal::Cards(cards),
            None => {
                let incompatible: Vec<(u32, u32)> = (0..n[0] * n[1])
                    .filter(|&k| joint[k] == 0.0)
                    .map(|k| ((k / n[1]) as u32, (k % n[1]) as u32))
                    .collect();
                Removal::Lists(Conflicts::from_pairs(n, &incompatible))
            }
        };
        let (outcomes, excluded, nodes) = self.outcomes(&class_of, n)?;
        let (payoffs, rankings, matrix) = self.payoffs(&class_of, n, &joint)?;
        let [w0, w1] = weights;
        let [l0, l1] = labels;
        let game = PublicGame {
            player_names: [tree.player_names[0].clone(), tree.player_names[1].clone()],
            states: [PrivateStates { labels: l0, weights: w0 }, PrivateStates { labels: l1, weights: w1 }],
            removal,
            nodes,
            child_ids: self.child_ids,
            labels: self.labels,
            outcomes,
            excluded,
            payoffs,
            rankings,
            matrix,
        };
        game.validate().map_err(|e| refuse(format!("internal error, please report: {e}")))?;
        Ok(FromTree { game, decisions })
    }

    /// The public outcomes: each one's probability and excluded states,
    /// checked to be the same for every pair it allows.
    #[allow(clippy::type_complexity)]
    fn outcomes(
        &self,
        class_of: &[Vec<u32>; 2],
        n: [usize; 2],
    ) -> Result<(Vec<Outcome>, Vec<u32>, Vec<PublicNode>), SolveError> {
        let mut nodes = self.nodes.clone();
        let (mut outcomes, mut excluded) = (Vec::new(), Vec::new());
        for draft in &self.chances {
            let start = outcomes.len() as u32;
            for allowed in &draft.outcomes {
                let mut ok = [vec![false; n[0]], vec![false; n[1]]];
                for &(deal, _) in allowed {
                    (0..2).for_each(|p| ok[p][class_of[p][deal as usize] as usize] = true);
                }
                let prob = allowed[0].1;
                let mut present = vec![false; self.deal_prob.len()];
                allowed.iter().for_each(|&(d, _)| present[d as usize] = true);
                let fits = allowed.iter().all(|&(_, p)| (p - prob).abs() <= 1e-12 * prob)
                    && draft.deals.iter().all(|&d| {
                        let expected = (0..2).all(|p| ok[p][class_of[p][d as usize] as usize]);
                        expected == present[d as usize]
                    });
                if !fits {
                    return Err(refuse(format!(
                        "a chance outcome after {} has other odds for different deals than card removal explains",
                        self.history(draft.node)
                    )));
                }
                let mut ranges = [0..0, 0..0];
                for p in 0..2 {
                    let from = excluded.len() as u32;
                    excluded.extend((0..n[p] as u32).filter(|&s| !ok[p][s as usize]));
                    ranges[p] = from..excluded.len() as u32;
                }
                outcomes.push(Outcome { prob, excluded: ranges });
            }
            if let PublicNode::Chance { outcomes: o, .. } = &mut nodes[draft.node as usize] {
                *o = start..outcomes.len() as u32;
            }
        }
        Ok((outcomes, excluded, nodes))
    }

    /// Each leaf's payoff to player 0 per pair (the deals' average), in its
    /// cheapest form.
    #[allow(clippy::type_complexity)]
    fn payoffs(
        &self,
        class_of: &[Vec<u32>; 2],
        n: [usize; 2],
        joint: &[f64],
    ) -> Result<(Vec<Payoff>, Vec<Ranking>, Vec<f64>), SolveError> {
        let tree = self.tree;
        let (mut payoffs, mut rankings, mut matrix) = (Vec::new(), Vec::new(), Vec::new());
        let mut interned: FxHashMap<[Vec<u32>; 2], u32> = FxHashMap::default();
        let mut sum = vec![0.0f64; n[0] * n[1]];
        let mut mass = vec![0.0f64; n[0] * n[1]];
        for (node, entries) in &self.leaves {
            let mut touched = Vec::new();
            for &(deal, leaf) in entries {
                let pay = tree.payoffs(NodeId(leaf));
                if pay[0] + pay[1] != 0 {
                    return Err(refuse(format!(
                        "vector CFR solves zero-sum games; after {} a leaf pays {} and {}",
                        self.history(*node),
                        pay[0],
                        pay[1]
                    )));
                }
                let k = class_of[0][deal as usize] as usize * n[1] + class_of[1][deal as usize] as usize;
                if mass[k] == 0.0 {
                    touched.push(k);
                }
                let w = self.deal_prob[deal as usize];
                sum[k] += w * pay[0] as f64;
                mass[k] += w;
            }
            let pairs: Vec<(usize, f64)> = touched.iter().map(|&k| (k, sum[k] / mass[k])).collect();
            for &k in &touched {
                (sum[k], mass[k]) = (0.0, 0.0);
            }
            debug_assert!(pairs.iter().all(|&(k, _)| joint[k] > 0.0));
            let first = pairs[0].1;
            let payoff = if pairs.iter().all(|&(_, v)| v == first) {
                Payoff::Constant(first)
            } else if let Some((rank, [win, lose, tie])) = showdown(&pairs, n) {
                let next = interned.len() as u32;
                let ranking = *interned.entry(rank.clone()).or_insert_with(|| {
                    rankings.push(Ranking::new(rank));
                    next
                });
                Payoff::Showdown { ranking, win, lose, tie }
            } else {
                let start = matrix.len() as u32;
                matrix.resize(matrix.len() + n[0] * n[1], 0.0);
                for &(k, v) in &pairs {
                    matrix[start as usize + k] = v;
                }
                Payoff::Matrix { start }
            };
            payoffs.push(payoff);
        }
        Ok((payoffs, rankings, matrix))
    }
}

impl FromTree {
    /// The scalar profile of the vector answer's average strategy, and the
    /// tree's information sets it never reaches (uniform there).
    pub fn profile(&self, tree: &Tree, cfr: &super::cfr::VectorCfr) -> (Profile, Vec<InfosetId>) {
        let mut profile = Profile::uniform(tree);
        let mut unreached = Vec::new();
        let (mut sigma, mut reached) = (Vec::new(), Vec::new());
        for (node, sets) in &self.decisions {
            let PublicNode::Decision { player, children } = &self.game.nodes[*node as usize] else { continue };
            let n = self.game.states[*player as usize].len();
            sigma.resize(children.len() * n, 0.0);
            reached.resize(n, false);
            cfr.average(*node, *player as usize, &mut sigma, &mut reached);
            for &(set, s) in sets {
                let probs = profile.probs_mut(InfosetId(set));
                for (a, x) in probs.iter_mut().enumerate() {
                    *x = sigma[a * n + s as usize];
                }
                if !reached[s as usize] {
                    unreached.push(InfosetId(set));
                }
            }
        }
        unreached.sort_unstable();
        (profile, unreached)
    }
}
