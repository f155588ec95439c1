//! The steps of a CFR iteration and how threads share them.
//!
//! An iteration is a fixed sequence of steps: with alternating updates
//! `walk(0), update(0), walk(1), update(1), ...`; with simultaneous ones
//! `walk(0), walk(1), ..., update(all)`. A walk step has two parts, the
//! two chunks of the root ([`walk::split`]), each adding into its own
//! regret buffer; an update step has two parts too, each player's sets cut
//! in two halves of about equal slot count, each part summing the two
//! buffers (in chunk order) and applying the update rule to its sets.
//! Part 0 also accumulates the walked player's average strategy. With one
//! thread the main thread does both parts of every step; with two, a
//! worker kept for the whole run does part 1 and a [`SpinBarrier`] ends
//! each step. Either way every number is computed by the same operations
//! in the same order, so the result does not depend on the thread count.

use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use galac_runtime::tree::{NodeView, Tree};

use super::layout::Layout;
use super::rules::Variant;
use super::sync::{Floats, SpinBarrier};
use super::{average, walk};
use crate::treeplex::Treeplex;

/// Below this many nodes a run stays on one thread: a step lasts too
/// little for the barrier's hand-over to pay.
pub const PARALLEL_MIN_NODES: usize = 5_000;

/// One player's information sets in slot order, compactly: the slot
/// bounds and the parent sequence of each.
pub struct Sets {
    /// The first slot of each set, then one past the last.
    pub starts: Vec<u32>,
    /// Per set: the player's sequence leading to it.
    pub parents: Vec<u32>,
    /// The set index (in this list) where part 1 of the update begins.
    pub cut: usize,
    /// The index in this list of the root's set, if the root is the player's.
    pub root: Option<usize>,
}

impl Sets {
    /// Player `p`'s sets.
    fn new(tree: &Tree, plex: &Treeplex, p: usize) -> Sets {
        let of = &plex.infosets_of[p];
        let mut starts: Vec<u32> = of.iter().map(|&s| plex.slots.first_slot[s as usize]).collect();
        starts.push(plex.slots.player_slots[p + 1]);
        let parents = of.iter().map(|&s| plex.parent_seq[s as usize]).collect();
        let (first, end) = (starts[0], starts[of.len()]);
        let cut = starts.iter().position(|&s| 2 * (s - first) >= end - first).unwrap_or(of.len()).min(of.len());
        let root = match tree.n_nodes() {
            0 => None,
            _ => match tree.node(0) {
                NodeView::Decision { player, infoset } if player as usize == p => of.iter().position(|&s| s == infoset),
                _ => None,
            },
        };
        Sets { starts, parents, cut, root }
    }

    /// The sets of update part `k`.
    fn part(&self, k: usize) -> Range<usize> {
        let n = self.parents.len();
        if k == 0 {
            0..self.cut
        } else {
            self.cut..n
        }
    }

    /// The slots of update part `k`.
    fn slots(&self, k: usize) -> Range<usize> {
        let sets = self.part(k);
        self.starts[sets.start] as usize..self.starts[sets.end] as usize
    }
}

/// What all threads of a run read (and write through [`Floats`], each in
/// its own part).
pub struct Team<'a> {
    pub tree: &'a Tree,
    pub layout: &'a Layout,
    pub first_slot: &'a [u32],
    pub variant: Variant,
    pub alternating: bool,
    /// The current strategy of every player, per slot.
    pub current: Floats,
    /// Per player.
    pub sets: Vec<Sets>,
    chunks: [Range<u32>; 2],
    /// Per chunk: the instantaneous regrets of the walk, per slot (zeroed
    /// again by the update that reads them).
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

/// What one part of every step (0: the main thread's, 1: the other's)
/// writes alone.
pub struct Part<'a> {
    k: usize,
    /// Per player: this part's accumulated regrets (from the part's first slot).
    regrets: Vec<&'a mut [f64]>,
    /// Per player: this part's predictions (empty unless predictive).
    prediction: Vec<&'a mut [f64]>,
    /// The walk's child values per depth.
    scratch: Vec<f64>,
    /// One set's summed regrets and next strategy.
    set_inst: Vec<f64>,
    set_current: Vec<f64>,
    /// Part 0 only: the average-strategy sums and the reach per sequence.
    average: Option<(&'a mut [f64], Vec<f64>)>,
}

impl Part<'_> {
    /// The average-strategy sums (part 0 only; empty otherwise).
    pub fn average_sums(&self) -> &[f64] {
        self.average.as_ref().map_or(&[][..], |(a, _)| &**a)
    }
}

/// Bytes a run's team and parts hold besides the state (for the memory
/// estimate before allocating).
pub fn estimate_bytes(tree: &Tree, slots: u64, max_player_slots: u64) -> u64 {
    let kids = if tree.n_nodes() > 0 { tree.children(0).len() as u64 } else { 0 };
    let sets = tree.infosets.len() as u64;
    8 * (3 * slots + kids * u64::from(tree.n_players) + max_player_slots + 1)
        + 8 * sets
        + 8 * tree.n_nodes() as u64 // subtree sizes, while splitting
        + 2 * 8 * (walk::scratch_len(tree) + 2 * walk::max_actions(tree)) as u64
}

/// Splits `xs` (all players' slots) into the two parts' slices per player.
fn split_parts<'a>(mut xs: &'a mut [f64], sets: &[Sets]) -> [Vec<&'a mut [f64]>; 2] {
    let mut out = [Vec::new(), Vec::new()];
    for s in sets {
        for (k, part) in out.iter_mut().enumerate() {
            let len = s.slots(k).len().min(xs.len());
            let (mine, rest) = std::mem::take(&mut xs).split_at_mut(len);
            part.push(mine);
            xs = rest;
        }
    }
    out
}

impl<'a> Team<'a> {
    /// The team for a run from `current`, and its two parts, which borrow
    /// the regrets, predictions and average sums.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        tree: &'a Tree,
        plex: &'a Treeplex,
        layout: &'a Layout,
        variant: Variant,
        alternating: bool,
        threads: usize,
        current: &[f64],
        state: (&'a mut [f64], &'a mut [f64], &'a mut [f64]),
    ) -> (Team<'a>, [Part<'a>; 2]) {
        let (regrets, prediction, avg) = state;
        let sets: Vec<Sets> = (0..tree.n_players as usize).map(|p| Sets::new(tree, plex, p)).collect();
        let n = plex.slots.len();
        let kids = if tree.n_nodes() > 0 { tree.children(0).len() } else { 0 };
        let max_seqs = (0..tree.n_players as usize).map(|p| plex.n_seqs(p)).max().unwrap_or(1);
        let [r0, r1] = split_parts(regrets, &sets);
        let [m0, m1] = split_parts(prediction, &sets);
        let part = |k, regrets, prediction, average| Part {
            k,
            regrets,
            prediction,
            scratch: vec![0.0; walk::scratch_len(tree)],
            set_inst: vec![0.0; walk::max_actions(tree)],
            set_current: vec![0.0; walk::max_actions(tree)],
            average,
        };
        let parts = [part(0, r0, m0, Some((avg, vec![0.0; max_seqs]))), part(1, r1, m1, None)];
        let team = Team {
            tree,
            layout,
            first_slot: &plex.slots.first_slot,
            variant,
            alternating,
            current: Floats::from_slice(current),
            sets,
            chunks: walk::split(tree),
            inst: [Floats::zeros(n), Floats::zeros(n)],
            values: (0..tree.n_players).map(|_| Floats::zeros(kids)).collect(),
            barrier: SpinBarrier::new(threads.clamp(1, 2)),
            iteration: AtomicU64::new(0),
            threads: threads.clamp(1, 2),
        };
        (team, parts)
    }

    /// The number of steps of an iteration.
    fn n_steps(&self) -> usize {
        let n = self.tree.n_players as usize;
        if self.alternating {
            2 * n
        } else {
            n + 1
        }
    }

    /// Part `part.k` of step `i` of iteration `t`.
    fn step(&self, i: usize, t: u64, part: &mut Part) {
        let n = self.tree.n_players as usize;
        let (walk, players) = match (self.alternating, i) {
            (true, i) => (i % 2 == 0, i / 2..i / 2 + 1),
            (false, i) if i < n => (true, i..i + 1),
            (false, _) => (false, 0..n),
        };
        for p in players {
            if walk {
                self.walk(p, t, part);
            } else {
                self.update(p, t, part);
            }
        }
    }

    /// Part `k` of player `p`'s walk (and, in part 0, its average).
    fn walk(&self, p: usize, t: u64, part: &mut Part) {
        if let Some((avg, seq_reach)) = &mut part.average {
            average::accumulate(&self.sets[p], &self.current, self.variant.average_weight(t), avg, seq_reach);
        }
        let inputs = self.inputs(p);
        let k = part.k;
        walk::walk_chunk(inputs, self.chunks[k].clone(), &self.inst[k], &self.values[p], &mut part.scratch);
    }

    /// What a walk for player `p` reads.
    fn inputs(&self, p: usize) -> walk::Inputs<'_> {
        walk::Inputs {
            tree: self.tree,
            layout: self.layout,
            first_slot: self.first_slot,
            current: &self.current,
            me: p as u32,
        }
    }

    /// Part `k` of player `p`'s update: its sets' regrets and next strategy.
    fn update(&self, p: usize, t: u64, part: &mut Part) {
        let sets = &self.sets[p];
        let k = part.k;
        let base = sets.slots(k).start;
        let predictive = self.variant.predictive();
        let Part { regrets, prediction, set_inst, set_current, .. } = part;
        let (regrets, prediction) = (&mut *regrets[p], &mut *prediction[p]);
        for i in sets.part(k) {
            let (s, e) = (sets.starts[i] as usize, sets.starts[i + 1] as usize);
            let inst = &mut set_inst[..e - s];
            for (a, x) in inst.iter_mut().enumerate() {
                *x = self.inst[0].get(s + a) + self.inst[1].get(s + a);
                self.inst[0].set(s + a, 0.0);
                self.inst[1].set(s + a, 0.0);
            }
            if sets.root == Some(i) {
                let cur = &mut set_current[..e - s];
                walk::root_regrets(&self.inputs(p), &self.values[p], cur);
                inst.iter_mut().zip(cur.iter()).for_each(|(x, r)| *x += r);
            }
            let r = s - base..e - base;
            let pred = if predictive { &mut prediction[r.clone()] } else { &mut [][..] };
            let cur = &mut set_current[..e - s];
            self.variant.update(t, &mut regrets[r], inst, pred, cur);
            self.current.write(s, cur);
        }
    }

    /// The worker's loop: part 1 of every step until the run is over.
    /// The part is locked for each iteration the worker takes part in, so
    /// that the main thread may do it alone in between.
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
                self.step(i, t, &mut part);
            }
        }
    }

    /// Iteration `t` from the main thread: with one thread (`p1` given)
    /// both parts of every step, with two part 0 while the worker does
    /// part 1.
    pub fn iterate(&self, t: u64, p0: &mut Part, p1: Option<&mut Part>) {
        if let Some(p1) = p1 {
            for i in 0..self.n_steps() {
                self.step(i, t, p0);
                self.step(i, t, p1);
            }
            return;
        }
        self.iteration.store(t, Ordering::Relaxed);
        for i in 0..self.n_steps() {
            self.barrier.wait();
            self.step(i, t, p0);
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

/// Measure a thread count this long before comparing.
const WINDOW_SECS: f64 = 0.05;
/// Time the other thread count again after this many windows at first;
/// each time it loses again the wait doubles, up to `PROBE_MAX` (on a
/// busy machine two threads lose by up to five times, and every probe
/// costs).
const PROBE_EVERY: u32 = 8;
/// The longest wait between probes, in windows.
const PROBE_MAX: u32 = 128;

/// Whether the next iteration runs on one thread or two. The result is the
/// same either way, so the run times both in turn and mostly uses the
/// faster: on a machine whose other core is busy, the two threads wait
/// for each other at every step and one thread is faster.
pub struct Pace {
    allowed: bool,
    two: bool,
    /// The window under way: seconds and iterations.
    window: (f64, u64),
    /// Iterations per second of one thread and of two, last measured.
    rate: [Option<f64>; 2],
    /// Windows since the other count was last timed.
    since_probe: u32,
    /// Windows between probes.
    probe_every: u32,
    /// The window under way is a probe.
    probing: bool,
}

impl Pace {
    /// Starts with two threads if `allowed`.
    pub fn new(allowed: bool) -> Pace {
        Pace {
            allowed,
            two: allowed,
            window: (0.0, 0),
            rate: [None, None],
            since_probe: 0,
            probe_every: PROBE_EVERY,
            probing: false,
        }
    }

    /// Whether the next iteration uses two threads.
    pub fn two(&self) -> bool {
        self.two
    }

    /// Records an iteration that took `secs`; at the end of a window,
    /// picks the count of the next one: the faster, or the other to time
    /// it again.
    pub fn record(&mut self, secs: f64) {
        if !self.allowed {
            return;
        }
        self.window.0 += secs;
        self.window.1 += 1;
        if self.window.0 < WINDOW_SECS || self.window.1 < 2 {
            return;
        }
        self.rate[usize::from(self.two)] = Some(self.window.1 as f64 / self.window.0);
        self.window = (0.0, 0);
        let faster = self.rate[1] > self.rate[0];
        if std::mem::take(&mut self.probing) {
            // The probe lost: wait longer before the next one.
            let lost = faster != self.two;
            self.probe_every = if lost { (2 * self.probe_every).min(PROBE_MAX) } else { PROBE_EVERY };
        }
        let other = usize::from(!self.two);
        if self.rate[other].is_none() || self.since_probe >= self.probe_every {
            self.two = !self.two;
            self.since_probe = 0;
            self.probing = self.rate[other].is_some();
        } else {
            self.since_probe += 1;
            self.two = faster;
        }
    }

    /// Times iteration `t` of `team` with the count chosen.
    pub fn iterate(&mut self, team: &Team, t: u64, p0: &mut Part, p1: &Mutex<Part>) {
        let at = Instant::now();
        if self.two {
            team.iterate(t, p0, None);
        } else {
            let mut p1 = p1.lock().unwrap_or_else(|e| e.into_inner());
            team.iterate(t, p0, Some(&mut p1));
        }
        self.record(at.elapsed().as_secs_f64());
    }
}

#[cfg(test)]
mod tests {
    use super::Pace;

    /// Fed iteration times where one count is five times faster, the pace
    /// spends nearly every iteration on the faster count, either way, and
    /// never stops timing the other.
    #[test]
    fn the_pace_keeps_the_faster_thread_count() {
        for two_faster in [false, true] {
            let mut pace = Pace::new(true);
            let (mut on_two, mut switches, mut last) = (0u32, 0u32, true);
            for _ in 0..20_000 {
                let two = pace.two();
                on_two += u32::from(two);
                switches += u32::from(two != last);
                last = two;
                let fast = two == two_faster;
                pace.record(if fast { 0.001 } else { 0.005 });
            }
            let on_faster = if two_faster { on_two } else { 20_000 - on_two };
            assert!(on_faster >= 19_000, "two faster: {two_faster}, {on_faster} on the faster");
            assert!(switches >= 4, "{switches}");
        }
    }
}
