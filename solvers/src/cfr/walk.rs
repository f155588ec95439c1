//! One counterfactual-regret traversal of the tree for one player (the
//! traverser): every other player and chance play the current strategy, and
//! the traverser's instantaneous regrets are added into a flat buffer in the
//! treeplex slot layout.
//!
//! The traversal splits at the root: the root's children are grouped into a
//! fixed number of chunks (a function of the tree only), each chunk adds its
//! regrets into its own buffer, and the buffers are summed in chunk order. The
//! sums are therefore the same bit for bit whether one thread or several walk
//! the chunks. Nothing is allocated during a traversal: the per-depth child
//! values and the chunk buffers are allocated once.

use galac_runtime::tree::{NodeView, Tree};

use super::layout::{Layout, CHANCE, DECISION, TERMINAL};

/// At most this many chunks under the root (each holds a regret buffer of
/// the traverser's slots, so more chunks cost memory, fewer balance worse).
pub const MAX_CHUNKS: usize = 8;

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

/// One chunk of the root's children and what its walk writes.
struct Chunk {
    /// The children of the root it covers.
    children: std::ops::Range<u32>,
    /// Instantaneous regrets of the traverser's slots.
    regrets: Vec<f64>,
    /// The traverser's value at each of its children.
    values: Vec<f64>,
}

/// The buffers a traversal writes, allocated once per solver.
pub struct Buffers {
    chunks: Vec<Chunk>,
    /// Per thread: child values, `max_actions` per depth.
    scratch: Vec<Vec<f64>>,
    max_actions: usize,
}

impl Buffers {
    /// Buffers for traversals of `tree` on `threads` threads, for a traverser
    /// with at most `max_player_slots` slots.
    pub fn new(tree: &Tree, max_player_slots: usize, threads: usize) -> Buffers {
        let kids = if tree.n_nodes() > 0 { tree.children(0) } else { 0..0 };
        let n = kids.len();
        let n_chunks = n.clamp(1, MAX_CHUNKS);
        let chunks = (0..n_chunks)
            .map(|c| {
                let children = kids.start + (c * n / n_chunks) as u32..kids.start + ((c + 1) * n / n_chunks) as u32;
                Chunk { values: vec![0.0; children.len()], children, regrets: vec![0.0; max_player_slots] }
            })
            .collect();
        let max_actions = tree.infosets.iter().map(|i| i.n_actions as usize).max().unwrap_or(1).max(1);
        let depth = tree.max_depth as usize + 2;
        let threads = threads.clamp(1, n_chunks);
        Buffers { chunks, scratch: vec![vec![0.0; depth * max_actions]; threads], max_actions }
    }

    /// Bytes these buffers hold, for the memory estimate before allocating.
    pub fn estimate_bytes(tree: &Tree, max_player_slots: usize, threads: usize) -> u64 {
        let n = if tree.n_nodes() > 0 { tree.children(0).len() } else { 0 };
        let max_actions = tree.infosets.iter().map(|i| i.n_actions as u64).max().unwrap_or(1).max(1);
        let chunks = n.clamp(1, MAX_CHUNKS) as u64;
        8 * (chunks * max_player_slots as u64 + threads as u64 * (tree.max_depth as u64 + 2) * max_actions + n as u64)
    }
}

/// Adds the traverser's instantaneous counterfactual regrets to `regrets`
/// (indexed from `inputs.offset`) and returns the traverser's value under
/// the current strategies. Uses up to `threads` threads on large trees; the
/// result does not depend on the count.
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
    let Buffers { chunks, scratch, max_actions } = buffers;
    let max_actions = *max_actions;
    let run = |chunk: &mut Chunk, scratch: &mut [f64]| {
        chunk.regrets.fill(0.0);
        let mut walker = Walker { inputs, regrets: &mut chunk.regrets, vals: scratch, max_actions };
        for (child, v) in chunk.children.clone().zip(chunk.values.iter_mut()) {
            let reach = child_reach(child);
            *v = if reach == 0.0 { 0.0 } else { walker.walk(child, 0, reach) };
        }
    };
    let threads = if tree.n_nodes() < PARALLEL_MIN_NODES { 1 } else { threads.clamp(1, scratch.len()) };
    if threads == 1 {
        chunks.iter_mut().for_each(|c| run(c, &mut scratch[0]));
    } else {
        // Each thread walks a contiguous run of chunks; each chunk writes
        // only its own buffers, so who walks which does not matter.
        let per = chunks.len().div_ceil(threads);
        std::thread::scope(|s| {
            for (part, sc) in chunks.chunks_mut(per).zip(scratch.iter_mut()) {
                let run = &run;
                s.spawn(move || part.iter_mut().for_each(|c| run(c, sc)));
            }
        });
    }
    // Sum in chunk order, then the root itself.
    let n_mine = regrets.len();
    let mut value = 0.0;
    for chunk in chunks.iter() {
        for (r, x) in regrets.iter_mut().zip(&chunk.regrets[..n_mine]) {
            *r += x;
        }
        for (child, v) in chunk.children.clone().zip(&chunk.values) {
            value += child_reach(child) * v;
        }
    }
    if let NodeView::Decision { player, infoset } = root {
        if player == inputs.me {
            let s = inputs.first_slot[infoset as usize] as usize;
            let values = || chunks.iter().flat_map(|c| c.values.iter());
            value = values().enumerate().map(|(a, v)| inputs.current[s + a] * v).sum();
            for (a, v) in values().enumerate() {
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
        if l.tag[node as usize] & 0xff == TERMINAL {
            l.payoffs[l.index[node as usize] as usize + self.inputs.me as usize]
        } else {
            self.walk(node, depth, reach)
        }
    }

    /// The traverser's value at `node`, reached by the others (chance
    /// included) with probability `reach` (never 0: such subtrees weigh
    /// nothing and are skipped).
    fn walk(&mut self, node: u32, depth: usize, reach: f64) -> f64 {
        let l = self.inputs.layout;
        let tag = l.tag[node as usize];
        let (kind, n) = (tag & 0xff, (tag >> 8) as usize);
        let index = l.index[node as usize] as usize;
        let first = l.first[node as usize];
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
