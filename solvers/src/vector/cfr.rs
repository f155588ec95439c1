//! Vector CFR on a [`PublicGame`]: CFR+ or DCFR with alternating updates,
//! regrets and average sums stored per (decision, action, private state)
//! as `f32`, or as 16-bit codes with a scale per node ([`Storage`]). The
//! CFR walk carries `f32` vectors (reach, values, strategies) and sums
//! over the other player's states in `f64` at the leaves; the
//! exploitability checks walk in `f64` ([`super::real`]).
//!
//! An iteration walks the public tree once per player ([`super::walk`]):
//! player 0 against player 1's current strategy, then player 1 against
//! player 0's updated one. With two threads a walk is split once
//! ([`super::split::Plan`]): the nodes above the topmost chance nodes of
//! enough work (or, in a game without them, the root) first, top-down,
//! then every child of those chance nodes (a turn's river subtrees, under
//! every turn line) handed out one at a time to the two threads, each with
//! its part of the arrays (a subtree's slabs are contiguous) and its own
//! arena, then the nodes above combined bottom-up; the checks' evaluation
//! walk shares each of those chance nodes' children ([`super::split`]).
//! The arithmetic is the same whatever the thread count, so the result is
//! too. The two threads are a pool kept for the run.
//!
//! DCFR uses postflop-solver's schedule: regrets discounted by
//! t^alpha/(t^alpha+1) when positive and t^beta/(t^beta+1) when negative
//! (alpha 1.5 and beta 0 by default: negative regrets halved), the average
//! weighting iteration t by t'^gamma (gamma 3), where t' counts from the
//! last power of 4, so the average restarts at iterations 4^k and forgets
//! the early, poor strategies.

use super::game::{PublicGame, PublicNode};
use super::leaf::Leaves;
use super::split::{splits, Plan, Tops};
use super::store::{Cell, Compressed, Layout, Storage, Store, Update, F32};
use super::walk::{arena_len, Walk};
use crate::best_response::Evaluation;
use crate::cfr::Variant;
use crate::solver::SolveError;

/// DCFR with postflop-solver's parameters (see the module comment).
pub const POSTFLOP_DCFR: Variant = Variant::Dcfr { alpha: 1.5, beta: 0.0, gamma: 3.0 };

/// Below this much work (nodes times private states) a subtree is walked
/// on one thread: starting the second one would cost more (the river,
/// whose whole walk is under it, measured slower on two).
pub const PARALLEL_MIN_WORK: usize = 200_000;

/// In a game past [`PARALLEL_MIN_WORK`], a chance node's children are
/// shared between the two threads from this much work in its subtree: a
/// chance node hands out whole subtrees, so far less pays than at a small
/// game's root. The turn's all-in lines (48 showdowns, 49 nodes of 250
/// states) were walked on one thread under the larger bound; shared too,
/// the turn took 2.57–3.21 s on two threads against 2.98–3.13 s
/// (BENCHMARKS.md, Hold'em).
pub const PARALLEL_MIN_CHANCE_WORK: usize = 6_000;

/// A run's regrets and average sums, per slab entry (decision, action,
/// state of the decision's player), as its [`Storage`] keeps them.
enum Arrays {
    F32 {
        regrets: Vec<f32>,
        sums: Vec<f32>,
    },
    /// With two scales per node (its regrets', its sums').
    Compressed {
        regrets: Vec<i16>,
        sums: Vec<u16>,
        scales: Vec<[f32; 2]>,
    },
}

/// `$body` with `$sums` the average sums, whatever their storage.
macro_rules! with_sums {
    ($arrays:expr, |$sums:ident| $body:expr) => {
        match $arrays {
            Arrays::F32 { sums: $sums, .. } => $body,
            Arrays::Compressed { sums: $sums, .. } => $body,
        }
    };
}

/// A vector CFR run on one public game.
pub struct VectorCfr<'g> {
    game: &'g PublicGame,
    variant: Variant,
    slab: Vec<usize>,
    leaves: Leaves,
    /// The regrets and average sums.
    arrays: Arrays,
    /// Iterations done.
    pub iteration: u64,
    /// Per thread, the CFR walk's arena and the evaluation walk's.
    arenas: [Vec<f32>; 2],
    eval_arenas: [Vec<f64>; 2],
    /// The root's values in the CFR walk, and in the evaluation walk
    /// (twice a player's states: it gives two vectors).
    out: Vec<f32>,
    eval_out: Vec<f64>,
    /// Per player, the starting reach of its own states (ones) and the
    /// other's (its weights), as the CFR walk carries them.
    ones: [Vec<f32>; 2],
    weights: [Vec<f32>; 2],
    /// Per node, whether its children are shared between the threads
    /// ([`splits`]; empty: one thread).
    split: Vec<bool>,
    /// With two threads, the CFR walk's one split and its top's vectors.
    shared: Option<(Plan, Tops)>,
    /// With two threads, the pool the walks run in: its two threads live
    /// as long as the run, so a split costs a hand-over to a waiting
    /// thread, not a thread's start (what kept small games on one).
    pool: Option<rayon_core::ThreadPool>,
}

impl<'g> VectorCfr<'g> {
    /// A run of `variant` (CFR+ or DCFR) on `game`, on up to `threads` threads.
    pub fn new(game: &'g PublicGame, variant: Variant, threads: usize) -> Result<VectorCfr<'g>, SolveError> {
        Self::with_storage(game, variant, threads, Storage::F32)
    }

    /// [`Self::new`] keeping the regrets and sums as `storage` says.
    pub fn with_storage(
        game: &'g PublicGame,
        variant: Variant,
        threads: usize,
        storage: Storage,
    ) -> Result<VectorCfr<'g>, SolveError> {
        Self::with_min_work(game, variant, threads, PARALLEL_MIN_WORK, storage)
    }

    /// [`Self::new`], taking two threads from `min_work` (nodes times
    /// private states) on instead of [`PARALLEL_MIN_WORK`]: tests check on
    /// small games that threads do not change the result.
    pub fn with_min_work(
        game: &'g PublicGame,
        variant: Variant,
        threads: usize,
        min_work: usize,
        storage: Storage,
    ) -> Result<VectorCfr<'g>, SolveError> {
        if !matches!(variant, Variant::CfrPlus | Variant::Dcfr { .. }) {
            let reason = format!("vector CFR runs CFR+ or DCFR, not {}", variant.name());
            return Err(SolveError::Unsupported { solver: "vcfr", reason });
        }
        game.validate()
            .map_err(|e| SolveError::Unsupported { solver: "vcfr", reason: format!("a malformed public game: {e}") })?;
        let (slab, total) = game.slabs();
        let arena = arena_len(game);
        let n_max = game.states[0].len().max(game.states[1].len());
        let split = split_of(game, threads, min_work);
        let pool = if split.is_empty() {
            None
        } else {
            // The walks recurse on the pool's threads: the stack of a
            // main thread (8 MiB) rather than a spawned thread's 2 MiB.
            let builder = rayon_core::ThreadPoolBuilder::new().num_threads(2).stack_size(8 << 20);
            let pool = builder.thread_name(|i| format!("vcfr-{i}")).build();
            let reason = |e: rayon_core::ThreadPoolBuildError| format!("could not start a second thread: {e}");
            Some(pool.map_err(|e| SolveError::Unsupported { solver: "vcfr", reason: reason(e) })?)
        };
        Ok(VectorCfr {
            game,
            variant,
            slab,
            leaves: Leaves::new(game),
            arrays: match storage {
                Storage::F32 => Arrays::F32 { regrets: vec![0.0; total], sums: vec![0.0; total] },
                Storage::Compressed => Arrays::Compressed {
                    regrets: vec![0; total],
                    sums: vec![0; total],
                    scales: vec![[0.0; 2]; game.nodes.len()],
                },
            },
            iteration: 0,
            arenas: [vec![0.0; arena], if split.is_empty() { Vec::new() } else { vec![0.0; arena] }],
            eval_arenas: [vec![0.0; arena], if split.is_empty() { Vec::new() } else { vec![0.0; arena] }],
            out: vec![0.0; n_max],
            eval_out: vec![0.0; 2 * n_max],
            ones: [vec![1.0; game.states[0].len()], vec![1.0; game.states[1].len()]],
            weights: [0, 1].map(|p| game.states[p].weights.iter().map(|&w| w as f32).collect()),
            shared: (!split.is_empty()).then(|| {
                let plan = Plan::new(game, &split);
                let tops = plan.tops();
                (plan, tops)
            }),
            split,
            pool,
        })
    }

    /// Bytes of the run's arrays for a game, before allocating them.
    pub fn estimate_bytes(game: &PublicGame, threads: usize, storage: Storage) -> u64 {
        let (_, total) = game.slabs();
        let ranked = match &game.removal {
            // The leaves' states in rank order (`Leaves`).
            super::game::Removal::Cards(_) => {
                game.rankings.len() * game.states.iter().map(|s| s.len()).sum::<usize>() * super::cards::ORDER_BYTES
            }
            super::game::Removal::Lists(_) => 0,
        };
        let arrays = storage.bytes(total, game.nodes.len());
        let split = split_of(game, threads, PARALLEL_MIN_WORK);
        let tops = if split.is_empty() { 0 } else { Plan::new(game, &split).bytes() };
        (arrays + 8 * game.nodes.len() + 12 * arena_len(game) * threads.clamp(1, 2) + ranked + tops) as u64
    }

    /// Whether the run uses two threads.
    pub fn two_threads(&self) -> bool {
        !self.split.is_empty()
    }

    /// The update rule of iteration `t` (from 1).
    fn rule(&self, t: u64) -> Update {
        let tf = t as f64;
        match self.variant {
            Variant::Dcfr { alpha, beta, gamma } => {
                let (ta, tb) = (tf.powf(alpha), tf.powf(beta));
                // postflop-solver counts iterations from 0 and restarts the
                // average's weights at each power of 4.
                let t0 = t - 1;
                let restart = if t0 == 0 { 0 } else { 1u64 << ((63 - t0.leading_zeros()) & !1) };
                let since = (t0 - restart) as f64;
                let keep = (since / (since + 1.0)).powf(gamma);
                let (pos, neg) = ((ta / (ta + 1.0)) as f32, (tb / (tb + 1.0)) as f32);
                Update { clip: false, pos, neg, keep: keep as f32, iteration: t as u32 }
            }
            // CFR+: the average weighs iteration t by t.
            _ => Update { clip: true, pos: 1.0, neg: 1.0, keep: ((tf - 1.0) / tf) as f32, iteration: t as u32 },
        }
    }

    /// One iteration: player 0's walk and update, then player 1's.
    pub fn iterate(&mut self) {
        self.iteration += 1;
        let u = self.rule(self.iteration);
        self.in_pool(|cfr| (0..2).for_each(|me| cfr.walk(me, u)));
    }

    /// Runs `f` on this run in its pool (so that a split hands work to
    /// the pool's other thread), or here with one thread.
    fn in_pool<R: Send>(&mut self, f: impl FnOnce(&mut Self) -> R + Send) -> R {
        match self.pool.take() {
            Some(pool) => {
                let r = pool.install(|| f(self));
                self.pool = Some(pool);
                r
            }
            None => f(self),
        }
    }

    /// Player `me`'s CFR walk, on two threads if the run has them.
    fn walk(&mut self, me: usize, u: Update) {
        let game = self.game;
        let walk = Walk { game, slab: &self.slab, me, u, leaves: &self.leaves, split: &self.split };
        let n_me = game.states[me].len();
        let reach = [&self.ones[me][..], &self.weights[1 - me][..]];
        let out = &mut self.out[..n_me];
        let [arena, arena2] = &mut self.arenas;
        let shared = self.shared.as_mut();
        match &mut self.arrays {
            Arrays::F32 { regrets, sums } => {
                let mut store = Store::<F32> { regrets, sums, scales: &mut [], base: 0, first_node: 0 };
                walk_in(&walk, &mut store, shared, reach, out, [arena, arena2])
            }
            Arrays::Compressed { regrets, sums, scales } => {
                let mut store = Store::<Compressed> { regrets, sums, scales, base: 0, first_node: 0 };
                walk_in(&walk, &mut store, shared, reach, out, [arena, arena2])
            }
        }
    }

    /// Every player's value under the average strategies, its best
    /// response's value, and NashConv, from one vector walk per player, on
    /// two threads where the CFR walk uses two (the same answer bit for bit).
    /// The game is zero-sum (a leaf pays player 1 what player 0 loses), so
    /// player 1's value is player 0's negated, and its walk values its
    /// best response alone.
    pub fn evaluate(&mut self) -> Evaluation {
        self.in_pool(|cfr| cfr.evaluate_here())
    }

    /// [`Self::evaluate`] on the calling thread (the pool's, if any).
    fn evaluate_here(&mut self) -> Evaluation {
        let game = self.game;
        let mut value = 0.0;
        let mut best = vec![0.0; 2];
        for (me, best) in best.iter_mut().enumerate() {
            let walk = Walk { game, slab: &self.slab, me, u: self.rule(1), leaves: &self.leaves, split: &self.split };
            let n_me = game.states[me].len();
            let opp = &game.states[1 - me].weights;
            let (avg, rest) = self.eval_out.split_at_mut(n_me);
            let best_out = &mut rest[..n_me];
            let [arena, arena2] = &mut self.eval_arenas;
            let spare = if self.split.is_empty() { None } else { Some(&mut arena2[..]) };
            let weights = &game.states[me].weights;
            with_sums!(&self.arrays, |sums| if me == 0 {
                walk.evaluate::<_, true>(0, &sums[..], opp, avg, best_out, arena, spare)
            } else {
                walk.evaluate::<_, false>(0, &sums[..], opp, avg, best_out, arena, spare)
            });
            if me == 0 {
                value = avg.iter().zip(weights).map(|(v, w)| v * w).sum();
            }
            *best = best_out.iter().zip(weights).map(|(v, w)| v * w).sum();
        }
        let values = vec![value, -value];
        let nash_conv = (best[0] - values[0]) + (best[1] - values[1]);
        Evaluation { values, best_response: best, nash_conv }
    }

    /// The counterfactual values of decision `node`'s actions for the
    /// player who makes it, both players playing their average strategies
    /// below (actions x that player's states, row-major), against `opp`,
    /// the other player's reach of the node (its weights times its play on
    /// the way, and the chance outcomes' probabilities): a state's value for
    /// an action sums the payoffs over the other's states weighted by that
    /// reach, as [`Self::evaluate`]'s do at the root. `None` when `node` is
    /// not a decision or `opp` is not one entry per state of the other.
    pub fn action_values(&mut self, node: u32, opp: &[f64]) -> Option<Vec<f64>> {
        let game = self.game;
        let PublicNode::Decision { player, .. } = game.nodes.get(node as usize)? else { return None };
        let me = *player as usize;
        if opp.len() != game.states[1 - me].len() {
            return None;
        }
        let walk = Walk { game, slab: &self.slab, me, u: self.rule(1), leaves: &self.leaves, split: &[] };
        let n = game.states[me].len();
        let kids = game.children(node);
        let mut values = vec![0.0; kids.len() * n];
        let mut best = vec![0.0; n];
        for (row, &child) in values.chunks_exact_mut(n).zip(kids) {
            let arena = &mut self.eval_arenas[0];
            with_sums!(&self.arrays, |sums| walk.evaluate::<_, true>(
                child,
                &sums[..],
                opp,
                row,
                &mut best,
                arena,
                None
            ));
        }
        Some(values)
    }

    /// The average strategy of decision `node` (actions x the player's
    /// states, row-major), uniform where the sums are all zero; `reached`
    /// per state says whether any sum was positive.
    pub fn average(&self, node: u32, player: usize, sigma: &mut [f64], reached: &mut [bool]) {
        let n = self.game.states[player].len();
        let k = self.game.children(node).len();
        let off = self.slab[node as usize];
        let mut denom = vec![0.0; 2 * n];
        with_sums!(&self.arrays, |sums| {
            let sums = &sums[off..off + k * n];
            for (i, r) in reached.iter_mut().enumerate() {
                *r = (0..k).any(|a| sums[a * n + i].positive() > 0.0);
            }
            super::walk::average(sums, n, sigma, &mut denom);
        });
    }
}

/// Where a run of `game` on `threads` threads splits its walks
/// ([`splits`]), taking two threads from `min_work` (nodes times private
/// states) on; empty: one thread.
fn split_of(game: &PublicGame, threads: usize, min_work: usize) -> Vec<bool> {
    let work = game.nodes.len() * game.states[0].len().max(game.states[1].len());
    if threads > 1 && work >= min_work {
        splits(game, min_work.min(PARALLEL_MIN_CHANCE_WORK))
    } else {
        Vec::new()
    }
}

/// `walk`'s CFR walk of the whole game in `store`: split once by `shared`
/// on two threads (each with its arena), else on this one.
fn walk_in<L: Layout>(
    walk: &Walk,
    store: &mut Store<L>,
    shared: Option<&mut (Plan, Tops)>,
    [own, opp]: [&[f32]; 2],
    out: &mut [f32],
    [arena, spare]: [&mut [f32]; 2],
) {
    match shared {
        Some((plan, tops)) => plan.update(walk, store, tops, [own, opp], out, [arena, spare]),
        None => walk.update(0, store, own, opp, out, arena),
    }
}
