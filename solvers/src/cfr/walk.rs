//! One counterfactual-regret traversal of the tree for one player (the
//! traverser): every other player and chance play the current strategy, and
//! the traverser's instantaneous regrets are added into a flat buffer in the
//! treeplex slot layout.
//!
//! The traversal splits at the root: the root's children are cut into two
//! chunks of about equal subtree size (a function of the tree only). The
//! first chunk adds its regrets straight into the output, the second into a
//! buffer of its own that is then added, so the sums are the same bit for
//! bit whether one thread walks both chunks or two threads walk one each.
//! Nothing is allocated during a traversal: the per-depth child values and
//! the second chunk's buffer are allocated once.

use galac_runtime::tree::{NodeView, Tree};

use super::layout::{Layout, CHANCE, DECISION, TERMINAL};

/// Below this many nodes a traversal stays on the calling thread: starting a
/// thread (tens of microseconds) costs more than it saves.
pub const PARALLEL_MIN_NODES: usize = 100_000;

/// What a traversal reads: the tree, the slot of each set, the current
/// strategy of every player.
#[derive(Clone, Copy)]
pub struct Inputs<'a> {
    pub tree: &'a Tree,
    /// The tree re-encoded for this loop.
    pub layout: &'a Layout,
    /// Per information set: its first action slot.
    pub first_slot: &'a [u32],
    /// The current strategy, per slot.
    pub current: &'a [f64],
    /// The traverser.
    pub me: u32,
    /// The traverser's first slot: regret buffers are indexed from it.
    pub offset: usize,
}

/// The buffers a traversal writes, allocated once per solver.
pub struct Buffers {
    /// The root's children of each chunk.
    split: [std::ops::Range<u32>; 2],
    /// The second chunk's regrets, per slot of the traverser.
    second: Vec<f64>,
    /// The traverser's value at each child of the root.
    values: Vec<f64>,
    /// Per thread: child values, `max_actions` per depth.
    scratch: [Vec<f64>; 2],
    max_actions: usize,
}

impl Buffers {
    /// Buffers for traversals of `tree` by a traverser with at most
    /// `max_player_slots` slots.
    pub fn new(tree: &Tree, max_player_slots: usize) -> Buffers {
        let kids = if tree.n_nodes() > 0 { tree.children(0) } else { 0..0 };
        // Subtree sizes: children are numbered after their parent.
        let mut size = vec![1u64; tree.n_nodes()];
        for node in (0..tree.n_nodes() as u32).rev() {
            let below: u64 = tree.children(node).map(|c| size[c as usize]).sum();
            size[node as usize] += below;
        }
        let total: u64 = kids.clone().map(|c| size[c as usize]).sum();
        let mut at = kids.start;
        let mut left = 0u64;
        // The first cut point at which the left part holds half the nodes.
        while at + 1 < kids.end && 2 * (left + size[at as usize]) <= total {
            left += size[at as usize];
            at += 1;
        }
        if at == kids.start && kids.len() > 1 {
            at += 1;
        }
        let max_actions = tree.infosets.iter().map(|i| i.n_actions as usize).max().unwrap_or(1).max(1);
        let depth = tree.max_depth as usize + 2;
        let scratch = || vec![0.0; depth * max_actions];
        Buffers {
            split: [kids.start..at, at..kids.end],
            second: vec![0.0; max_player_slots],
            values: vec![0.0; kids.len()],
            scratch: [scratch(), scratch()],
            max_actions,
        }
    }

    /// Bytes these buffers hold, for the memory estimate before allocating
    /// (the subtree sizes counted while they are built included).
    pub fn estimate_bytes(tree: &Tree, max_player_slots: usize) -> u64 {
        let n = if tree.n_nodes() > 0 { tree.children(0).len() } else { 0 };
        let max_actions = tree.infosets.iter().map(|i| i.n_actions as u64).max().unwrap_or(1).max(1);
        8 * (max_player_slots as u64 + 2 * (tree.max_depth as u64 + 2) * max_actions + n as u64)
            + 8 * tree.n_nodes() as u64
    }
}

/// Adds the traverser's instantaneous counterfactual regrets to `regrets`
/// (indexed from `inputs.offset`, zero on entry) and returns the
/// traverser's value under the current strategies. Uses two threads on
/// large trees when `threads` > 1; the result does not depend on it.
pub fn traverse(inputs: Inputs, buffers: &mut Buffers, regrets: &mut [f64], threads: usize) -> f64 {
    let tree = inputs.tree;
    if tree.n_nodes() == 0 {
        return 0.0;
    }
    let root = tree.node(0);
    if matches!(root, NodeView::Terminal) {
        return tree.payoffs(0)[inputs.me as usize] as f64;
    }
    let kids = tree.children(0);
    // The reach of the others (chance included) at each child of the root.
    let child_reach = |child: u32| -> f64 {
        let a = (child - kids.start) as usize;
        match root {
            NodeView::Chance => tree.chance_probs(0)[a].to_f64(),
            NodeView::Decision { player, infoset } if player != inputs.me => {
                inputs.current[inputs.first_slot[infoset as usize] as usize + a]
            }
            _ => 1.0,
        }
    };
    let Buffers { split, second, values, scratch, max_actions } = buffers;
    let max_actions = *max_actions;
    let n_mine = regrets.len();
    let second = &mut second[..n_mine];
    second.fill(0.0);
    let (first_values, second_values) = values.split_at_mut(split[0].len());
    let [scratch_a, scratch_b] = scratch;
    let run = |children: std::ops::Range<u32>, out: &mut [f64], vals: &mut [f64], scratch: &mut [f64]| {
        let mut walker = Walker { inputs, regrets: out, vals: scratch, max_actions };
        for (child, v) in children.zip(vals.iter_mut()) {
            let reach = child_reach(child);
            *v = if reach == 0.0 { 0.0 } else { walker.walk(child, 0, reach) };
        }
    };
    if threads > 1 && tree.n_nodes() >= PARALLEL_MIN_NODES {
        std::thread::scope(|s| {
            let run = &run;
            let (split1, second_values) = (split[1].clone(), &mut *second_values);
            let second = &mut *second;
            s.spawn(move || run(split1, second, second_values, scratch_b));
            run(split[0].clone(), regrets, first_values, scratch_a);
        });
    } else {
        run(split[0].clone(), regrets, first_values, scratch_a);
        run(split[1].clone(), second, second_values, scratch_a);
    }
    for (r, x) in regrets.iter_mut().zip(second.iter()) {
        *r += x;
    }
    // The root itself.
    let mut value = 0.0;
    for (child, v) in kids.clone().zip(values.iter()) {
        value += child_reach(child) * v;
    }
    if let NodeView::Decision { player, infoset } = root {
        if player == inputs.me {
            let s = inputs.first_slot[infoset as usize] as usize;
            value = values.iter().enumerate().map(|(a, v)| inputs.current[s + a] * v).sum();
            for (a, v) in values.iter().enumerate() {
                regrets[s - inputs.offset + a] += v - value;
            }
        }
    }
    value
}

/// The recursive walk below the root, on one thread.
struct Walker<'a, 'b> {
    inputs: Inputs<'a>,
    /// Instantaneous regrets of the traverser, indexed from `inputs.offset`.
    regrets: &'b mut [f64],
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
            l.payoffs[rec.index as usize + self.inputs.me as usize]
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
            return l.payoffs[index + self.inputs.me as usize];
        }
        let mut value = 0.0;
        if kind == CHANCE {
            for (child, &p) in (first..).zip(&l.probs[index..index + n]) {
                value += p * self.child(child, depth + 1, reach * p);
            }
            return value;
        }
        let current = &self.inputs.current[index..index + n];
        if kind != DECISION + self.inputs.me {
            for (child, &p) in (first..).zip(current) {
                if p != 0.0 {
                    value += p * self.child(child, depth + 1, reach * p);
                }
            }
            return value;
        }
        let base = depth * self.max_actions;
        for (a, (child, &p)) in (first..).zip(current).enumerate() {
            let v = self.child(child, depth + 1, reach);
            self.vals[base + a] = v;
            value += p * v;
        }
        let at = index - self.inputs.offset;
        for (r, v) in self.regrets[at..at + n].iter_mut().zip(&self.vals[base..base + n]) {
            *r += reach * (v - value);
        }
        value
    }
}
