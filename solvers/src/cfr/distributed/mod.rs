//! A CFR run shared among the ranks of a job (MPI processes in the app's
//! `mpi` feature; threads standing in for them in tests: [`LocalRanks`]).
//! docs/distributed-cfr.md says what is built and what is not.
//!
//! The work units are the root's children: each rank walks a contiguous
//! run of them, cut by count ([`units`], the runtime's
//! [`galac_runtime::tree::Shard::children`]). A rank may hold the whole tree or only its shard
//! ([`galac_runtime::tree::build_shard`]: its units' subtrees, the other
//! root children as leaves paying 0, every information set of the tree);
//! either way it holds every per-slot array and does every update itself,
//! as each thread of [`super::crew`] does: only the traverser's
//! instantaneous regrets and its values at the root's children cross
//! between ranks, once per traversal. The exploitability checks are
//! distributed too ([`evaluate`]).
//!
//! The answer does not depend on the rank count, bit for bit. Each unit is
//! walked into a buffer of its own (a fixed order of additions inside the
//! unit), and the units' regrets are summed in fixed point: each unit's
//! `f64` is rounded to a multiple of 2^-e ([`Fixed`], `e` from the game's
//! payoffs only) and the multiples are added as integers, which is exact
//! and so independent of the order and of how the units are grouped into
//! ranks. An `f64` sum over ranks (an `MPI_Allreduce`) is not: its order
//! depends on the rank count and the MPI library. The values at the root's
//! children are exchanged as bit patterns (each written by one rank, or-ed
//! with the others' zeros). So a run on 1, 2 or 64 ranks makes the same
//! numbers; they differ from the threaded solver's (which adds its two
//! chunks in `f64`) in the last bits only.

use std::time::Instant;

use galac_runtime::ids::{IdRange, InfosetId, NodeId, PlayerId, SeqId};
use galac_runtime::tree::{NodeView, Tree};

use super::crew::{update_player, InstRegrets};
use super::layout::Layout;
use super::rules::Variant;
use super::schedule::Schedule;
use super::sets::Sets;
use super::state::CfrState;
use super::sync::{load, store, Floats};
use super::{average, state, walk, CfrConfig};
use crate::best_response::Evaluation;
use crate::solver::{Control, Observer, Progress, Solution, SolveError};
use crate::treeplex::Treeplex;
use crate::Profile;

mod collective;
pub mod evaluate;
mod local;

pub(crate) use collective::sum_fixed;
pub use collective::{all_ok, broadcast, units, Collective, Fixed};
pub use evaluate::ShardEvaluator;
pub use local::{LocalRanks, Shared};

/// Makes every rank's treeplex the whole tree's: a shard's own walk finds
/// the parent sequence only of the sets it holds, and the ranks that hold
/// a set agree on it (perfect recall). A no-op on whole trees.
fn share_parents(tree: &Tree, plex: &mut Treeplex, comm: &dyn Collective) {
    let mut parent = vec![0u64; tree.infosets.len()];
    for node in tree.nodes() {
        if let NodeView::Decision { infoset, .. } = tree.node(node) {
            parent[infoset.index()] = u64::from(plex.parent_seq[infoset].0) + 1;
        }
    }
    comm.or(&mut parent);
    for (i, p) in parent.iter().enumerate() {
        if *p > 0 {
            plex.parent_seq[InfosetId(i as u32)] = SeqId((*p - 1) as u32);
        }
    }
}

impl<'t> super::Cfr<'t> {
    /// [`super::Cfr::new`] for [`super::Cfr::run_distributed`]: the memory
    /// check counts its buffers ([`estimate_bytes`]) instead of the
    /// threads'.
    pub fn new_distributed(tree: &'t Tree, config: CfrConfig, resume: Option<CfrState>) -> Result<Self, SolveError> {
        let bytes = Self::shared_bytes(tree, &config) + estimate_bytes(tree);
        Self::set_up(tree, bytes, config, resume)
    }
}

/// Bytes a distributed run holds besides the state, the layout and the
/// checks (for the memory check before anything is allocated): a unit's
/// regret buffer and the summed regrets (per slot), the fixed-point sums,
/// their limbs and MPI's receive buffer (per slot of a player), the
/// root's values, the walk's scratch, and per set the parent sequences
/// shared and the depths the checks' levels are made from (the checks'
/// evaluator is counted with the state, as the threaded solver's).
pub fn estimate_bytes(tree: &Tree) -> u64 {
    let (slots, max_player_slots) = super::slot_counts(tree);
    let kids = walk::root_children(tree).len() as u64;
    16 * slots
        + 48 * max_player_slots
        + 24 * kids * u64::from(tree.n_players)
        + 16 * tree.infosets.len() as u64
        + 8 * (walk::scratch_len(tree) + 2 * walk::max_actions(tree)) as u64
}

/// One rank's share of a run: its units and the buffers of a traversal.
struct Rank<'a> {
    tree: &'a Tree,
    layout: &'a Layout,
    plex: &'a crate::treeplex::Treeplex,
    variant: Variant,
    alternating: bool,
    comm: &'a dyn Collective,
    sets: Vec<Sets>,
    units: IdRange<NodeId>,
    fixed: Fixed,
    /// One unit's instantaneous regrets, per slot (all zero between units).
    unit: Floats,
    /// The rank's fixed-point sum of its units' regrets, per slot of the
    /// traverser (from its first).
    sum: Vec<i128>,
    /// The limbs exchanged: all low limbs, then all high ones.
    limbs: Vec<i64>,
    /// Per player: the player's value at each child of the root.
    values: Vec<Floats>,
    /// The values' bit patterns exchanged.
    bits: Vec<u64>,
    /// Per player: the instantaneous regrets summed over every unit, per
    /// slot of the player (from its first), until the player's update.
    inst: Vec<Vec<f64>>,
    scratch: Vec<f64>,
    set_root: Vec<f64>,
    seq_reach: Vec<f64>,
    /// Bytes sent by this rank so far (what a ring reduction would send:
    /// about its buffer once per collective).
    sent: u64,
}

impl<'a> Rank<'a> {
    /// Player `p`'s traversal: its share of the average, the walk of this
    /// rank's units, and the sum over all ranks into `inst[p]`.
    fn walk(&mut self, p: usize, t: u64, state: &mut CfrState) {
        let sets = &self.sets[p];
        average::accumulate(
            sets,
            &state.current,
            self.variant.average_weight(t),
            &mut state.average,
            &mut self.seq_reach,
        );
        let slots = sets.slots();
        let inputs = walk::Inputs {
            tree: self.tree,
            layout: self.layout,
            first_slot: &self.plex.slots.first_slot,
            current: &state.current,
            me: PlayerId::from_index(p),
        };
        self.sum.iter_mut().for_each(|v| *v = 0);
        let kids = walk::root_children(self.tree);
        (0..kids.len()).for_each(|i| self.values[p].set(i, 0.0));
        let cells = self.unit.cells();
        for u in self.units {
            walk::walk_chunk(inputs, IdRange::new(u, u + 1), &self.unit, &self.values[p], &mut self.scratch);
            // Into the rank's sum, leaving the buffer zero for the next unit
            // (most slots are outside the unit: a test, no conversion).
            for (v, s) in self.sum.iter_mut().zip(slots.clone()) {
                let x = load(cells, s);
                if x != 0.0 {
                    *v += self.fixed.to_fixed(x);
                    store(cells, s, 0.0);
                }
            }
        }
        let n = slots.len();
        sum_fixed(self.comm, self.fixed, &self.sum[..n], &mut self.limbs, &mut self.inst[p]);
        for (b, i) in self.bits.iter_mut().zip(0..kids.len()) {
            *b = self.values[p].get(i).to_bits();
        }
        self.comm.or(&mut self.bits);
        for (i, b) in self.bits.iter().enumerate() {
            self.values[p].set(i, f64::from_bits(*b));
        }
        self.sent += 8 * (2 * n + kids.len()) as u64;
    }

    /// Player `p`'s update from `inst[p]` (plus the root's own regrets when
    /// the root is the player's).
    fn update(&mut self, p: usize, t: u64, state: &mut CfrState) {
        let sets = &self.sets[p];
        let inputs = walk::Inputs {
            tree: self.tree,
            layout: self.layout,
            first_slot: &self.plex.slots.first_slot,
            current: &state.current,
            me: PlayerId::from_index(p),
        };
        let root = match sets.root {
            Some(i) if walk::root_regrets(&inputs, &self.values[p], &mut self.set_root) => {
                sets.starts[i].index()..sets.starts[i + 1].index()
            }
            _ => 0..0,
        };
        let (inst, set_root) = (&self.inst[p], &self.set_root);
        let inst = InstRegrets { slot: |i: usize| inst[i], root, root_extra: set_root };
        let CfrState { regrets, prediction, current, .. } = state;
        update_player(self.variant, t, sets, regrets, prediction, current, inst);
    }

    /// Iteration `t`, in the order of [`super::crew`]'s steps.
    fn iterate(&mut self, t: u64, state: &mut CfrState) {
        let n = self.tree.n_players as usize;
        if self.alternating {
            for p in 0..n {
                self.walk(p, t, state);
                self.update(p, t, state);
            }
        } else {
            (0..n).for_each(|p| self.walk(p, t, state));
            (0..n).for_each(|p| self.update(p, t, state));
        }
    }
}

/// What a distributed run measured besides its answer.
#[derive(Clone, Debug, Default)]
pub struct Traffic {
    /// Bytes this rank contributed to the collectives of the iterations
    /// (its buffers; the checks' are not counted).
    pub bytes: u64,
    /// Iterations run.
    pub iterations: u64,
    /// The exploitability of the returned average profile, computed by the
    /// ranks together (no rank can alone when each holds a shard).
    pub evaluation: Evaluation,
}

impl super::Cfr<'_> {
    /// [`Self::run`] shared among the ranks of `comm`: every rank calls it
    /// with its tree (the whole tree, or its shard from
    /// [`galac_runtime::tree::build_shard`]) and the same configuration,
    /// and every rank returns the same answer, state and evaluation (bit
    /// for bit, whatever the rank count). Rank 0's observer decides when
    /// to stop and when to check (the others are told); every rank takes
    /// part in the checks, and every rank's observer sees their results.
    pub fn run_distributed(self, observer: &mut dyn Observer, comm: &dyn Collective) -> (Solution, CfrState, Traffic) {
        let super::Cfr { tree, mut plex, config, mut state, layout, chunks: _ } = self;
        let start = Instant::now();
        let base = state.seconds;
        let mut iteration = state.iteration;
        share_parents(tree, &mut plex, comm);
        let units = units(tree, comm.rank(), comm.size());
        let sets: Vec<Sets> = tree.players().map(|p| Sets::new(tree, &plex, p)).collect();
        let max_slots = sets.iter().map(|s| s.slots().len()).max().unwrap_or(0);
        let kids = walk::root_children(tree).len();
        // The tree's table, not the shard's leaves: the same on every rank.
        let max_payoff = tree.max_abs_payoff() as f64;
        let max_seqs = tree.players().map(|p| plex.n_seqs(p)).max().unwrap_or(1);
        let mut rank = Rank {
            tree,
            layout: &layout,
            plex: &plex,
            variant: config.variant,
            alternating: config.alternating,
            comm,
            units,
            fixed: Fixed::for_payoffs(max_payoff),
            unit: Floats::zeros(plex.slots.len()),
            sum: vec![0; max_slots],
            limbs: vec![0; 2 * max_slots],
            values: (0..tree.n_players).map(|_| Floats::zeros(kids)).collect(),
            bits: vec![0; kids],
            inst: sets.iter().map(|s| vec![0.0; s.slots().len()]).collect(),
            scratch: vec![0.0; walk::scratch_len(tree)],
            set_root: vec![0.0; walk::max_actions(tree)],
            seq_reach: vec![0.0; max_seqs],
            sets,
            sent: 0,
        };
        let leader = comm.rank() == 0;
        let mut checks = Checking::new(tree, comm, &config, iteration, max_payoff);
        let first = iteration;
        let mut stopped = false;
        let mut last_checked = None;
        while iteration < config.iterations {
            iteration += 1;
            rank.iterate(iteration, &mut state);
            let last = iteration == config.iterations;
            let mut due = [u64::from(leader && checks.schedule.due(iteration, last))];
            broadcast(comm, &mut due);
            let evaluation = (due[0] != 0).then(|| checks.check(tree, &plex, comm, iteration, &state.average));
            last_checked = evaluation.as_ref().map(|e| (iteration, e.clone())).or(last_checked);
            let progress = Progress::checked(iteration, base + start.elapsed().as_secs_f64(), evaluation);
            let mut stop = [u64::from(observer.progress(&progress) == Control::Stop)];
            broadcast(comm, &mut stop);
            if stop[0] != 0 {
                stopped = true;
                break;
            }
        }
        let bytes = rank.sent;
        drop(rank);
        // The answer's own evaluation, unless the last iteration was checked.
        let evaluation = match last_checked {
            Some((t, e)) if t == iteration => e,
            _ => {
                state::average_into(tree, &plex, &state.average, &mut checks.profile);
                checks.evaluator.evaluate(tree, &checks.profile, comm)
            }
        };
        let traffic = Traffic { bytes, iterations: iteration - first, evaluation };
        state.iteration = iteration;
        state.seconds = base + start.elapsed().as_secs_f64();
        let (profile, unreached) = state.average_profile(tree, &plex);
        let check_total = checks.total;
        let phases = vec![("cfr", start.elapsed().as_secs_f64() - check_total), ("exploitability checks", check_total)];
        (Solution { profile, unreached, phases, stopped }, state, traffic)
    }
}

/// The exploitability checks of a distributed run: rank 0's schedule says
/// when (it alone times them), every rank evaluates.
struct Checking {
    schedule: Schedule,
    evaluator: ShardEvaluator,
    profile: Profile,
    /// The end of the last check (or the start), and its iteration.
    since: Instant,
    since_iteration: u64,
    /// Seconds spent in checks.
    total: f64,
}

impl Checking {
    /// No check done yet; the run starts after `iteration` (a collective).
    fn new(tree: &Tree, comm: &dyn Collective, config: &CfrConfig, iteration: u64, max_payoff: f64) -> Checking {
        Checking {
            schedule: Schedule::new(config.checks, iteration),
            evaluator: ShardEvaluator::new(tree, comm, max_payoff),
            profile: Profile::uniform(tree),
            since: Instant::now(),
            since_iteration: iteration,
            total: 0.0,
        }
    }

    /// The evaluation of the average strategy after iteration `t` (a
    /// collective); rank 0 plans the next check.
    fn check(&mut self, tree: &Tree, plex: &Treeplex, comm: &dyn Collective, t: u64, average: &[f64]) -> Evaluation {
        let at = Instant::now();
        let iteration_secs = (at - self.since).as_secs_f64() / (t - self.since_iteration).max(1) as f64;
        state::average_into(tree, plex, average, &mut self.profile);
        let e = self.evaluator.evaluate(tree, &self.profile, comm);
        let secs = at.elapsed().as_secs_f64();
        self.total += secs;
        if comm.rank() == 0 {
            self.schedule.checked(t, e.nash_conv, iteration_secs, secs);
        }
        (self.since, self.since_iteration) = (Instant::now(), t);
        e
    }
}
