//! The steps of a CFR iteration and how threads share them.
//!
//! An iteration is a fixed sequence of steps. With alternating updates
//! step `i` updates player `i - 1` (from the walk of the step before) and
//! then walks player `i`: `walk(0)`, `update(0) walk(1)`, ...,
//! `update(n - 1)`; with simultaneous ones `walk(all)`, `update(all)`. A
//! walk has two parts, the two chunks of the root ([`walk::split`]), each
//! adding into its own regret buffer. With one thread the main thread
//! walks both chunks; with two, a worker kept for the whole run walks
//! chunk 1 and a [`SpinBarrier`] ends each step.
//!
//! Every thread keeps its own copy of the regrets and the current
//! strategy and does every update itself, from both chunks' buffers summed
//! in chunk order: the updates are not shared out, but no thread waits for
//! another's half of the strategy, and the only data that crosses between
//! the cores is the other chunk's regrets, read once. An iteration ends
//! with an update, so it needs one barrier per walk step plus the one
//! that starts it. Part 0 also accumulates the average strategy. Every
//! number is computed by the same operations in the same order whatever
//! the thread count, so the result does not depend on it.

use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use galac_runtime::ids::{IdRange, IdSlice, InfosetId, NodeId, PlayerId, SlotId};
use galac_runtime::tree::Tree;

use super::layout::Layout;
use super::rules::Variant;
use super::sets::Sets;
use super::sync::{load, Floats, SpinBarrier};
use super::{average, walk};
use crate::treeplex::Treeplex;

/// Below this many nodes a run stays on one thread: a step lasts too
/// little for the barrier's hand-over to pay.
pub const PARALLEL_MIN_NODES: usize = 5_000;

/// What all threads of a run read (and write through [`Floats`], each in
/// its own chunk's buffers).
pub struct Team<'a> {
    pub tree: &'a Tree,
    pub layout: &'a Layout,
    pub first_slot: &'a IdSlice<InfosetId, SlotId>,
    pub variant: Variant,
    pub alternating: bool,
    /// Per player.
    pub sets: Vec<Sets>,
    chunks: [IdRange<NodeId>; 2],
    /// Per chunk: the instantaneous regrets of the walk, per slot (zeroed
    /// by the walk that writes them, before it starts).
    inst: [Floats; 2],
    /// Per player, the player's value at each child of the root (kept per
    /// player for simultaneous updates).
    values: Vec<Floats>,
    barrier: SpinBarrier,
    /// The iteration under way (0: the run is over).
    iteration: AtomicU64,
    /// 1 or 2.
    pub threads: usize,
}

/// What one thread of a run (0: the main thread, 1: the worker) holds
/// alone: its copy of the state the updates change, and scratch.
pub struct Part {
    /// Accumulated regrets, per slot.
    pub regrets: Vec<f64>,
    /// Predictions, per slot (empty unless predictive).
    pub prediction: Vec<f64>,
    /// The current strategy, per slot.
    pub current: Vec<f64>,
    /// The walk's child values per depth.
    scratch: Vec<f64>,
    /// The root set's own instantaneous regrets.
    set_root: Vec<f64>,
    /// Part 0 only: the average-strategy sums and the reach per sequence.
    average: Option<(Vec<f64>, Vec<f64>)>,
}

impl Part {
    /// Part 0 of a run from these arrays (taken from the run's state).
    pub fn main(
        tree: &Tree,
        plex: &Treeplex,
        regrets: Vec<f64>,
        prediction: Vec<f64>,
        current: Vec<f64>,
        average: Vec<f64>,
    ) -> Part {
        let max_seqs = tree.players().map(|p| plex.n_seqs(p)).max().unwrap_or(1);
        Part {
            regrets,
            prediction,
            current,
            scratch: vec![0.0; walk::scratch_len(tree)],
            set_root: vec![0.0; walk::max_actions(tree)],
            average: Some((average, vec![0.0; max_seqs])),
        }
    }

    /// The worker's part: a copy of `main`'s state, without the average.
    pub fn worker(main: &Part) -> Part {
        Part {
            regrets: main.regrets.clone(),
            prediction: main.prediction.clone(),
            current: main.current.clone(),
            scratch: main.scratch.clone(),
            set_root: main.set_root.clone(),
            average: None,
        }
    }

    /// A part that is never used (a run on one thread).
    pub fn empty() -> Part {
        Part {
            regrets: Vec::new(),
            prediction: Vec::new(),
            current: Vec::new(),
            scratch: Vec::new(),
            set_root: Vec::new(),
            average: None,
        }
    }

    /// Makes this (the worker's) copy of the state equal to `main`'s again
    /// after iterations the main thread did alone.
    pub fn catch_up(&mut self, main: &Part) {
        self.regrets.copy_from_slice(&main.regrets);
        self.prediction.copy_from_slice(&main.prediction);
        self.current.copy_from_slice(&main.current);
    }

    /// The average-strategy sums (part 0 only; empty otherwise).
    pub fn average_sums(&self) -> &[f64] {
        self.average.as_ref().map_or(&[][..], |(a, _)| &**a)
    }

    /// The average-strategy sums, given back (part 0 only).
    pub fn into_average(self) -> Vec<f64> {
        self.average.map(|(a, _)| a).unwrap_or_default()
    }
}

/// Bytes a run's team and parts hold besides the state (for the memory
/// estimate before allocating); with `two` threads the worker's copy of
/// the regrets, current strategy and predictions too.
pub fn estimate_bytes(tree: &Tree, slots: u64, max_player_slots: u64, two: bool) -> u64 {
    let kids = if tree.n_nodes() > 0 { tree.children(NodeId::ROOT).len() as u64 } else { 0 };
    let sets = tree.infosets.len() as u64;
    let copies = if two { 3 * slots } else { 0 };
    8 * (2 * slots + copies + kids * u64::from(tree.n_players) + max_player_slots + 1)
        + 8 * sets
        + 2 * 8 * (walk::scratch_len(tree) + 2 * walk::max_actions(tree)) as u64
}

/// One player's instantaneous regrets of an iteration: `slot(i)` for the
/// player's `i`-th slot, plus `root_extra` on the slots `root` (the root's
/// set when it is the player's, whose regrets come from the root's
/// children's values rather than from a walk; empty otherwise).
pub struct InstRegrets<'a, F: Fn(usize) -> f64> {
    pub slot: F,
    pub root: Range<usize>,
    pub root_extra: &'a [f64],
}

/// One player's update from the iteration's instantaneous regrets, in two
/// passes over the player's slab (set by set is slower, and the update is
/// on the critical path of both threads; docs/perf/cfr.md):
/// [`Variant::slot_rule`] over the slab, then [`Variant::strategy`] per
/// set. The root's slots are a piece of their own, so the rule's loop over
/// the rest tests nothing per slot. The arrays are per slot of every
/// player (`prediction` empty unless the variant is predictive).
#[inline(always)]
pub fn update_player<F: Fn(usize) -> f64>(
    variant: Variant,
    t: u64,
    sets: &Sets,
    regrets: &mut [f64],
    prediction: &mut [f64],
    current: &mut [f64],
    inst: InstRegrets<F>,
) {
    let slots = sets.slots();
    let rule = variant.slot_rule(t);
    let (lo, slot, extra) = (slots.start, &inst.slot, inst.root_extra);
    let r = if inst.root.is_empty() { slots.end..slots.end } else { inst.root };
    // The slab in pieces: before the root's set, the root's set, after it.
    for (piece, at_root) in [(lo..r.start, false), (r.clone(), true), (r.end..slots.end, false)] {
        if piece.is_empty() {
            continue;
        }
        let (a, b) = (piece.start, piece.end);
        let pred = if variant.predictive() { &mut prediction[a..b] } else { &mut [][..] };
        let (regrets, current) = (&mut regrets[a..b], &mut current[a..b]);
        if at_root {
            rule.apply(regrets, pred, current, |i| slot(a - lo + i) + extra[a - r.start + i]);
        } else {
            rule.apply(regrets, pred, current, |i| slot(a - lo + i));
        }
    }
    for w in sets.starts.windows(2) {
        let (s, e) = (w[0].index(), w[1].index());
        variant.strategy(&regrets[s..e], &mut current[s..e]);
    }
}

impl<'a> Team<'a> {
    /// The team for a run whose walks cut the root into `chunks`
    /// ([`walk::split`]), with the variant and whether its updates
    /// alternate.
    pub fn new(
        tree: &'a Tree,
        plex: &'a Treeplex,
        layout: &'a Layout,
        chunks: [IdRange<NodeId>; 2],
        (variant, alternating): (Variant, bool),
        threads: usize,
    ) -> Team<'a> {
        let sets: Vec<Sets> = tree.players().map(|p| Sets::new(tree, plex, p)).collect();
        let n = plex.slots.len();
        let kids = if tree.n_nodes() > 0 { tree.children(NodeId::ROOT).len() } else { 0 };
        Team {
            tree,
            layout,
            first_slot: &plex.slots.first_slot,
            variant,
            alternating,
            sets,
            chunks,
            inst: [Floats::zeros(n), Floats::zeros(n)],
            values: (0..tree.n_players).map(|_| Floats::zeros(kids)).collect(),
            barrier: SpinBarrier::new(threads.clamp(1, 2)),
            iteration: AtomicU64::new(0),
            threads: threads.clamp(1, 2),
        }
    }

    /// The number of steps of an iteration.
    fn n_steps(&self) -> usize {
        let n = self.tree.n_players as usize;
        if self.alternating {
            n + 1
        } else {
            2
        }
    }

    /// Step `i` of iteration `t`, walking the root's `chunks` (both when
    /// alone, one each with two threads).
    fn step(&self, i: usize, t: u64, part: &mut Part, chunks: Range<usize>) {
        let n = self.tree.n_players as usize;
        if self.alternating {
            if i > 0 {
                self.update(i - 1, t, part);
            }
            if i < n {
                self.walk(i, t, part, chunks);
            }
        } else if i == 0 {
            (0..n).for_each(|p| self.walk(p, t, part, chunks.clone()));
        } else {
            (0..n).for_each(|p| self.update(p, t, part));
        }
    }

    /// Player `p`'s walk of `chunks` (and, in part 0, its average).
    fn walk(&self, p: usize, t: u64, part: &mut Part, chunks: Range<usize>) {
        if let Some((avg, seq_reach)) = &mut part.average {
            average::accumulate(&self.sets[p], &part.current, self.variant.average_weight(t), avg, seq_reach);
        }
        let inputs = self.inputs(p, &part.current);
        for k in chunks {
            self.sets[p].slots().for_each(|s| self.inst[k].set(s, 0.0));
            walk::walk_chunk(inputs, self.chunks[k], &self.inst[k], &self.values[p], &mut part.scratch);
        }
    }

    /// What a walk for player `p` reads.
    fn inputs<'b>(&'b self, p: usize, current: &'b [f64]) -> walk::Inputs<'b> {
        walk::Inputs {
            tree: self.tree,
            layout: self.layout,
            first_slot: self.first_slot,
            current,
            me: PlayerId::from_index(p),
        }
    }

    /// Player `p`'s update in this part's copy ([`update_player`]), from
    /// both chunks' buffers summed in chunk order.
    fn update(&self, p: usize, t: u64, part: &mut Part) {
        let sets = &self.sets[p];
        let Part { regrets, prediction, current, set_root, .. } = part;
        // The root's own regrets read the current strategy before it changes.
        let inputs = self.inputs(p, current);
        let root = match sets.root {
            Some(i) if walk::root_regrets(&inputs, &self.values[p], set_root) => {
                sets.starts[i].index()..sets.starts[i + 1].index()
            }
            _ => 0..0,
        };
        let (i0, i1) = (self.inst[0].cells(), self.inst[1].cells());
        let start = sets.slots().start;
        let slot = |i: usize| load(i0, start + i) + load(i1, start + i);
        let inst = InstRegrets { slot, root, root_extra: set_root };
        update_player(self.variant, t, sets, regrets, prediction, current, inst);
    }

    /// The worker's loop: its part of every step until the run is over.
    /// The part is locked for each iteration the worker takes part in, so
    /// that the main thread may bring it up to date in between.
    pub fn work(&self, part: &Mutex<Part>) {
        let _guard = super::sync::PanicGuard(&self.barrier);
        loop {
            self.barrier.wait();
            let t = self.iteration.load(Ordering::Relaxed);
            if t == 0 {
                return;
            }
            let mut part = part.lock().unwrap_or_else(|e| e.into_inner());
            for i in 0..self.n_steps() {
                if i > 0 {
                    self.barrier.wait();
                }
                self.step(i, t, &mut part, 1..2);
            }
        }
    }

    /// Iteration `t` from the main thread: `alone`, both chunks of every
    /// walk, else chunk 0 while the worker walks chunk 1.
    pub fn iterate(&self, t: u64, p0: &mut Part, alone: bool) {
        if alone {
            (0..self.n_steps()).for_each(|i| self.step(i, t, p0, 0..2));
            return;
        }
        self.iteration.store(t, Ordering::Relaxed);
        for i in 0..self.n_steps() {
            self.barrier.wait();
            self.step(i, t, p0, 0..1);
        }
    }

    /// Ends the run if the calling thread unwinds (see [`super::sync::PanicGuard`]).
    pub fn guard(&self) -> super::sync::PanicGuard<'_> {
        super::sync::PanicGuard(&self.barrier)
    }

    /// Ends the worker's loop (after its last step).
    pub fn finish(&self) {
        if self.threads > 1 {
            self.iteration.store(0, Ordering::Relaxed);
            self.barrier.wait();
        }
    }
}
