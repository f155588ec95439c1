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
//! public outcome when some player cannot tell their subtrees apart, or
//! when they carry the same label, as [`super::from_game`] groups them). The
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
//! The records and checks are [`super::draft`]'s, shared with `from_game`.
//! A leaf's payoff is a constant when it is one, a showdown when a ranking
//! of both players' states explains it (worked out by a topological sort),
//! else a matrix. Chance probabilities are exact in the tree and become
//! `f64` here, once.

use std::rc::Rc;

use galac_runtime::ids::{InfosetId, NodeId};
use galac_runtime::tree::{NodeView, Tree};
use rustc_hash::FxHashMap;

use super::draft::{Allowed, Draft, Sets, NONE};
use super::infer::{refuse, Classes};
use crate::solver::SolveError;
use crate::Profile;

/// A public game made from a tree, with what maps answers back.
pub struct FromTree {
    pub game: PublicGame,
    /// Per decision of the public game: the node and the tree's
    /// information sets there, each with its player's private state.
    pub decisions: Vec<(u32, Vec<(u32, u32)>)>,
}

use super::game::{PublicGame, PublicNode};

/// The tree's information sets, for the draft's labels and messages.
struct TreeSets<'t>(&'t Tree);

impl Sets for TreeSets<'_> {
    fn label(&self, set: u32) -> String {
        self.0.infoset_label(InfosetId(set)).to_string()
    }

    fn name(&self, set: u32) -> String {
        set_name(self.0, set)
    }

    fn player(&self, set: u32) -> usize {
        self.0.infosets[InfosetId(set)].player.index()
    }
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
    let (mut deals, mut deal_prob) = (Vec::new(), super::draft::DealProbs::default());
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
    let names = [tree.player_names[0].clone(), tree.player_names[1].clone()];
    let mut b = Builder { tree, draft: Draft::new(names, deal_prob) };
    let entries: Vec<(u32, u32)> = deals.iter().enumerate().map(|(d, &node)| (d as u32, node)).collect();
    b.build(entries, String::new(), NONE)?;
    let (game, decisions) = b.draft.finish(&TreeSets(tree))?;
    Ok(FromTree { game, decisions })
}

struct Builder<'t> {
    tree: &'t Tree,
    draft: Draft,
}

impl Builder<'_> {
    /// Builds the public node of `entries` (deal, tree node) and its subtree.
    fn build(&mut self, entries: Vec<(u32, u32)>, label: String, parent: u32) -> Result<u32, SolveError> {
        let tree = self.tree;
        let kind = tree.node(NodeId(entries[0].1));
        let same = entries.iter().all(|&(_, n)| match (tree.node(NodeId(n)), kind) {
            (NodeView::Decision { player: a, .. }, NodeView::Decision { player: b, .. }) => a == b,
            (x, y) => x == y,
        });
        let id = self.draft.open(label, parent, same)?;
        match kind {
            NodeView::Terminal => {
                let pays = entries.iter().map(|&(deal, leaf)| {
                    let pay = tree.payoffs(NodeId(leaf));
                    (deal, [pay[0], pay[1]])
                });
                self.draft.leaf(id, pays)?;
            }
            NodeView::Decision { player, infoset } => {
                let n_actions = tree.infosets[infoset].n_actions;
                let sets = entries.iter().map(|&(deal, node)| {
                    let NodeView::Decision { infoset: set, .. } = tree.node(NodeId(node)) else { unreachable!() };
                    (deal, set.0, tree.infosets[set].n_actions)
                });
                self.draft.decision(id, player.index(), n_actions, sets, &TreeSets(tree))?;
                let labels = tree.action_labels(infoset);
                let mut kids = Vec::with_capacity(n_actions as usize);
                for a in 0..n_actions {
                    let child: Vec<(u32, u32)> =
                        entries.iter().map(|&(d, n)| (d, tree.children(NodeId(n)).start.0 + a)).collect();
                    let label = labels.get(a as usize).cloned().unwrap_or_else(|| format!("action {a}"));
                    kids.push(self.build(child, label, id)?);
                }
                self.draft.children(id, &kids);
            }
            NodeView::Chance => self.chance(id, entries)?,
        }
        Ok(id)
    }

    /// A public chance node: the outcomes of every deal's chance node,
    /// grouped by the information sets of their subtrees.
    fn chance(&mut self, id: u32, entries: Vec<(u32, u32)>) -> Result<(), SolveError> {
        let tree = self.tree;
        // Items: (deal, child, probability, outcome index).
        let (mut items, mut entry_of) = (Vec::new(), Vec::new());
        for (e, &(deal, node)) in entries.iter().enumerate() {
            for (k, (child, p)) in
                tree.children(NodeId(node)).map(|c| c.0).zip(tree.chance_probs(NodeId(node))).enumerate()
            {
                items.push((deal, child, p.to_f64(), k));
                entry_of.push(e as u32);
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
                                self.draft.history(id),
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
        // Outcomes of one label are one public outcome (what `from_game`
        // goes by, having no subtrees to look into): the draft's checks
        // refuse a label that hides a difference some player sees.
        let mut by_label: FxHashMap<&str, u32> = FxHashMap::default();
        for (item, &(_, _, _, k)) in items.iter().enumerate() {
            let node = entries[entry_of[item] as usize].1;
            if let Some(label) = tree.chance_outcome_labels(NodeId(node)).get(k) {
                match by_label.get(label.as_str()) {
                    None => {
                        by_label.insert(label, item as u32);
                    }
                    Some(&other) => classes.union(other, item as u32),
                }
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
        let outcomes = groups
            .iter()
            .map(|group| Allowed::Each(group.iter().map(|&i| (items[i].0, items[i].2)).collect()))
            .collect();
        self.draft.chance(id, Rc::new(entries.iter().map(|e| e.0).collect::<Vec<u32>>().into()), Rc::new(outcomes))?;
        let mut kids = Vec::with_capacity(groups.len());
        for group in &groups {
            let (first_deal, first_node) = entries[entry_of[group[0]] as usize];
            let k = items[group[0]].3;
            let label = tree
                .chance_outcome_labels(NodeId(first_node))
                .get(k)
                .cloned()
                .unwrap_or_else(|| format!("outcome {k} of deal {first_deal}"));
            let child: Vec<(u32, u32)> = group.iter().map(|&i| (items[i].0, items[i].1)).collect();
            kids.push(self.build(child, label, id)?);
        }
        self.draft.children(id, &kids);
        Ok(())
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
