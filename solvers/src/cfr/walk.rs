//! One counterfactual-regret traversal of the tree for one player (the
//! traverser): every other player and chance play the current strategy, and
//! the traverser's instantaneous regrets are added into a flat buffer in the
//! treeplex slot layout.
//!
//! The traversal is cut at the root into two chunks of the root's children,
//! of about equal subtree size (a function of the tree only, never of the
//! thread count). Each chunk adds its regrets into a buffer of its own and
//! writes the traverser's value at its root children; the update sums the
//! two buffers in a fixed order, so the result is the same bit for bit
//! whether one thread walks both chunks or two threads walk one each.
//! Nothing is allocated during a traversal.

use std::sync::atomic::AtomicU64;

use galac_runtime::ids::{IdRange, IdSlice, InfosetId, NodeId, PlayerId, SlotId};
use galac_runtime::tree::{NodeView, Tree};

use super::layout::{Layout, CHANCE, DECISION, TERMINAL};
use super::sync::{load, store, Floats};

/// What a traversal reads: the tree, the slot of each set, the current
/// strategy of every player.
#[derive(Clone, Copy)]
pub struct Inputs<'a> {
    pub tree: &'a Tree,
    /// The tree re-encoded for this loop.
    pub layout: &'a Layout,
    /// Per information set: its first action slot.
    pub first_slot: &'a IdSlice<InfosetId, SlotId>,
    /// The current strategy, per slot (each thread holds its own copy).
    pub current: &'a [f64],
    /// The traverser.
    pub me: PlayerId,
}

/// The root's children of each chunk, cut where the first chunk holds
/// about half the nodes.
pub fn split(tree: &Tree) -> [IdRange<NodeId>; 2] {
    let kids = root_children(tree);
    let size: Vec<u64> = kids.map(|c| subtree_size(tree, c)).collect();
    let total: u64 = size.iter().sum();
    let (mut cut, mut left) = (0, 0u64);
    while cut + 1 < size.len() && 2 * (left + size[cut]) <= total {
        left += size[cut];
        cut += 1;
    }
    if cut == 0 && size.len() > 1 {
        cut = 1;
    }
    let at = kids.start + cut as u32;
    [IdRange::new(kids.start, at), IdRange::new(at, kids.end)]
}

/// The root's children (none in an empty tree).
pub fn root_children(tree: &Tree) -> IdRange<NodeId> {
    if tree.n_nodes() > 0 {
        tree.children(NodeId::ROOT)
    } else {
        IdRange::new(NodeId(0), NodeId(0))
    }
}

/// The node count of `node`'s subtree, itself included, by a walk with a
/// stack of child ranges (as deep as the tree: no array per node, which on
/// a tree of 10^8 nodes was most of a run's set-up).
fn subtree_size(tree: &Tree, node: NodeId) -> u64 {
    let mut count = 1u64;
    let mut stack = vec![tree.children(node)];
    while let Some(range) = stack.last_mut() {
        match range.next() {
            Some(child) => {
                count += 1;
                let below = tree.children(child);
                if !below.is_empty() {
                    stack.push(below);
                }
            }
            None => {
                stack.pop();
            }
        }
    }
    count
}

/// Bytes of scratch one walking thread needs (child values per depth).
pub fn scratch_len(tree: &Tree) -> usize {
    (tree.max_depth as usize + 2) * max_actions(tree)
}

/// The most actions of any information set (at least 1).
pub fn max_actions(tree: &Tree) -> usize {
    tree.infosets.iter().map(|i| i.n_actions as usize).max().unwrap_or(1).max(1)
}

/// The reach of the others (chance included) at a child of the root.
pub fn root_reach(inputs: &Inputs, child: NodeId) -> f64 {
    let tree = inputs.tree;
    let a = (child - tree.children(NodeId::ROOT).start) as usize;
    match tree.node(NodeId::ROOT) {
        NodeView::Chance => tree.chance_probs(NodeId::ROOT)[a].to_f64(),
        NodeView::Decision { player, infoset } if player != inputs.me => {
            inputs.current[inputs.first_slot[infoset].index() + a]
        }
        _ => 1.0,
    }
}

/// Walks the subtrees of the root's `children`: adds the traverser's
/// instantaneous regrets into `regrets` (per slot) and writes the
/// traverser's value at each child into `values` (indexed from the root's
/// first child). `scratch` has [`scratch_len`] entries.
pub fn walk_chunk(inputs: Inputs, children: IdRange<NodeId>, regrets: &Floats, values: &Floats, scratch: &mut [f64]) {
    if inputs.tree.n_nodes() == 0 || children.is_empty() {
        return;
    }
    let first = inputs.tree.children(NodeId::ROOT).start;
    let mut walker = Walker {
        inputs,
        current: inputs.current,
        regrets: regrets.cells(),
        vals: scratch,
        max_actions: max_actions(inputs.tree),
    };
    for child in children {
        let reach = root_reach(&inputs, child);
        let v = if reach == 0.0 { 0.0 } else { walker.walk(child.0, 0, reach) };
        values.set((child - first) as usize, v);
    }
}

/// When the root is the traverser's decision: its instantaneous regrets
/// (value of each action minus the value), from the values of its
/// children, written into `out` (one per action). Returns false (and
/// writes nothing) when the root is not the traverser's.
pub fn root_regrets(inputs: &Inputs, values: &Floats, out: &mut [f64]) -> bool {
    let NodeView::Decision { player, infoset } = inputs.tree.node(NodeId::ROOT) else { return false };
    if player != inputs.me {
        return false;
    }
    let s = inputs.first_slot[infoset].index();
    let n = inputs.tree.children(NodeId::ROOT).len();
    let value: f64 = (0..n).map(|a| inputs.current[s + a] * values.get(a)).sum();
    for (a, o) in out[..n].iter_mut().enumerate() {
        *o = values.get(a) - value;
    }
    true
}

/// The recursive walk below the root, on one thread, over the layout's
/// nodes (numbered as the tree's, held as plain `u32`s in this loop).
struct Walker<'a, 'b> {
    inputs: Inputs<'a>,
    /// The current strategy, per slot.
    current: &'a [f64],
    /// Instantaneous regrets of the traverser, per slot.
    regrets: &'b [AtomicU64],
    /// Child values of the traverser's nodes, `max_actions` per depth.
    vals: &'b mut [f64],
    max_actions: usize,
}

impl Walker<'_, '_> {
    /// The traverser's value at `node`, a leaf read in place (most nodes
    /// are leaves: a call for each costs more than the read).
    #[inline(always)]
    fn child(&mut self, node: u32, depth: usize, reach: f64) -> f64 {
        let l = self.inputs.layout;
        let rec = l.nodes[node as usize];
        if rec.tag & 0xff == TERMINAL {
            l.payoffs[rec.index as usize + self.inputs.me.index()]
        } else {
            self.walk(node, depth, reach)
        }
    }

    /// The traverser's value at `node`, reached by the others (chance
    /// included) with probability `reach` (never 0: such subtrees weigh
    /// nothing and are skipped).
    fn walk(&mut self, node: u32, depth: usize, reach: f64) -> f64 {
        let l = self.inputs.layout;
        let rec = l.nodes[node as usize];
        let (kind, n) = (rec.tag & 0xff, (rec.tag >> 8) as usize);
        let (index, first) = (rec.index as usize, rec.first);
        if kind == TERMINAL {
            return l.payoffs[index + self.inputs.me.index()];
        }
        let mut value = 0.0;
        if kind == CHANCE {
            for (child, &p) in (first..).zip(&l.probs[index..index + n]) {
                value += p * self.child(child, depth + 1, reach * p);
            }
            return value;
        }
        let current = self.current;
        if kind != DECISION + self.inputs.me.0 {
            for (a, child) in (first..first + n as u32).enumerate() {
                let p = current[index + a];
                if p != 0.0 {
                    value += p * self.child(child, depth + 1, reach * p);
                }
            }
            return value;
        }
        let base = depth * self.max_actions;
        for (a, child) in (first..first + n as u32).enumerate() {
            let v = self.child(child, depth + 1, reach);
            self.vals[base + a] = v;
            value += current[index + a] * v;
        }
        let regrets = self.regrets;
        for (a, v) in self.vals[base..base + n].iter().enumerate() {
            store(regrets, index + a, load(regrets, index + a) + reach * (v - value));
        }
        value
    }
}
