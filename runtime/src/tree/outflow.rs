//! A build's nodes on their way out of memory: [`Outflow`] hands the
//! finished blocks of nodes to a [`BlockSink`] (the saved file of
//! [`super::stream`], or a part's scratch file in [`super::parallel`]) as
//! the exploration goes, keeps the nodes explored after their block went
//! out ("late" nodes) and counts the kinds of the nodes written, for the
//! tree's [`Stats`]. Without a sink the nodes stay in the tree.

use std::io;

use super::nodes::{Stats, Tree, CHANCE_BIT};
use super::options::BuildError;
use super::saved::BLOCK;

/// Nodes a streamed build keeps in memory behind the newest one: it writes
/// out the blocks before them when it has twice as many (16 MiB). The
/// fewer, the more nodes are still waiting when their block goes out (in
/// the runtime's tests, one block: a test's small parallel parts get late
/// nodes too).
pub(super) const KEEP: usize = if cfg!(test) { BLOCK } else { 1 << 20 };

/// Where a streamed build's blocks of nodes go.
pub(super) trait BlockSink {
    /// Writes block `index` (nodes `index * BLOCK ..`; a full block except
    /// the last).
    fn put_block(&mut self, index: u64, data: &[u32], first_child: &[u32]) -> io::Result<()>;
}

/// Node kinds counted as blocks go out (for the tree's [`Stats`]).
#[derive(Default)]
pub(super) struct Kinds {
    terminals: u64,
    chance: u64,
    decisions: Vec<u64>,
}

impl Kinds {
    /// Counts `by` more (or fewer) nodes of the kind a node with data `d`
    /// and first child `first` has.
    pub(super) fn add(&mut self, tree: &Tree, d: u32, first: u32, by: i64) {
        let count = if first == 0 {
            &mut self.terminals
        } else if d & CHANCE_BIT != 0 {
            &mut self.chance
        } else {
            let player = tree.infosets.raw[d as usize].player.index();
            if self.decisions.len() <= player {
                self.decisions.resize(player + 1, 0);
            }
            &mut self.decisions[player]
        };
        *count = count.wrapping_add_signed(by);
    }

    /// Adds the counts of `other`.
    pub(super) fn absorb(&mut self, other: Kinds) {
        self.terminals += other.terminals;
        self.chance += other.chance;
        if self.decisions.len() < other.decisions.len() {
            self.decisions.resize(other.decisions.len(), 0);
        }
        for (count, k) in self.decisions.iter_mut().zip(other.decisions) {
            *count += k;
        }
    }
}

/// A build's nodes on their way out: with a sink, the tree's node arrays
/// hold the nodes from `base` on, the ones before having been written.
pub(super) struct Outflow<'a> {
    pub(super) sink: Option<&'a mut dyn BlockSink>,
    /// The first node in the tree's arrays (a multiple of [`BLOCK`]).
    pub(super) base: usize,
    /// Nodes explored after their block was written: node, data, first child.
    pub(super) late: Vec<[u32; 3]>,
    pub(super) kinds: Kinds,
    /// Nodes kept in memory behind the newest (see [`KEEP`]).
    pub(super) keep: usize,
}

impl<'a> Outflow<'a> {
    /// No sink: the nodes stay in the tree.
    pub(super) fn none() -> Outflow<'a> {
        Outflow { sink: None, base: 0, late: Vec::new(), kinds: Kinds::default(), keep: KEEP }
    }

    /// Blocks written to `sink` as the build goes.
    pub(super) fn to(sink: &'a mut dyn BlockSink) -> Outflow<'a> {
        Outflow { sink: Some(sink), ..Outflow::none() }
    }

    /// Sets a node's data and first child.
    #[inline]
    pub(super) fn put(&mut self, tree: &mut Tree, node: u32, d: u32, first: u32) {
        match (node as usize).checked_sub(self.base) {
            Some(i) => {
                tree.data[i] = d;
                tree.first_child[i] = first;
            }
            None => self.put_late(tree, node, d, first),
        }
    }

    /// A node whose block went out with zeros in its place (counted then
    /// as a leaf).
    #[cold]
    #[inline(never)]
    fn put_late(&mut self, tree: &Tree, node: u32, d: u32, first: u32) {
        self.late.push([node, d, first]);
        self.kinds.add(tree, 0, 0, -1);
        self.kinds.add(tree, d, first, 1);
    }

    /// Writes out the nodes before `end` (relative to `base`) in blocks,
    /// counting their kinds, and drops them from the tree.
    fn write(&mut self, tree: &mut Tree, end: usize) -> Result<(), BuildError> {
        let Some(sink) = self.sink.as_deref_mut() else { return Ok(()) };
        for from in (0..end).step_by(BLOCK) {
            let to = end.min(from + BLOCK);
            let (data, first) = (&tree.data[from..to], &tree.first_child[from..to]);
            sink.put_block(((self.base + from) / BLOCK) as u64, data, first)
                .map_err(|e| BuildError::Write(e.to_string()))?;
            for (&d, &f) in data.iter().zip(first) {
                self.kinds.add(tree, d, f, 1);
            }
        }
        tree.data.drain(..end);
        tree.first_child.drain(..end);
        self.base += end;
        Ok(())
    }

    /// Writes out the full blocks behind the last `keep` of the
    /// `n_nodes` nodes made, once there are twice as many in memory.
    pub(super) fn write_behind(&mut self, tree: &mut Tree, n_nodes: usize) -> Result<(), BuildError> {
        if self.sink.is_none() || n_nodes - self.base < 2 * self.keep {
            return Ok(());
        }
        let end = (n_nodes - self.keep) / BLOCK * BLOCK - self.base;
        self.write(tree, end)
    }

    /// Writes out the rest, the build being done.
    pub(super) fn write_rest(&mut self, tree: &mut Tree, n_nodes: usize) -> Result<(), BuildError> {
        self.write(tree, n_nodes - self.base)
    }
}

/// The [`Stats`] of a tree whose nodes were written out (`tree` holds its
/// tables), from the kinds counted on the way.
pub(super) fn streamed_stats(tree: &Tree, n_nodes: usize, kinds: Kinds) -> Stats {
    let mut stats = tree.stats();
    stats.nodes = n_nodes as u64;
    stats.terminals = kinds.terminals;
    stats.chance_nodes = kinds.chance;
    for (count, &k) in stats.decision_nodes.iter_mut().zip(kinds.decisions.iter()) {
        *count = k;
    }
    stats.bytes = tree.bytes() + 8 * n_nodes as u64;
    stats
}
