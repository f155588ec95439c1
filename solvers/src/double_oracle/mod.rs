//! The sequence-form double oracle of Bosansky, Kiekintveld, Lisy and
//! Pechoucek (JAIR 2014): an exact Nash equilibrium of a two-player
//! zero-sum (or constant-sum) game from a restricted game that grows only
//! by the sequences best responses ask for, explored lazily through the
//! [`Game`] trait, so the full tree is never built.
//!
//! One iteration: build the restricted game of the allowed sequences
//! ([`restricted`]; temporary leaves valued by [`leaf_value`]), solve its
//! sequence-form LP for the players whose strategy is needed ([`crate::lp`]),
//! extend each strategy by the default one ([`default_strategy`]: the
//! paper's first action, or a mixed one) outside the restricted game, and compute best responses on the full game ([`brs`])
//! whose sequences join the allowed set. The best-response values are
//! exact bounds, and as in the paper the best of all iterations are kept
//! ([`best`]): `upper` is the least of the first player's best responses
//! to the second's extended strategies so far, `lower` the greatest of
//! the first player's payoffs when the second best-responds to the
//! first's. The answer is the strategies those responses answered, so
//! `upper - lower` is exactly its NashConv, and the run stops when it is
//! at most `epsilon` times the payoff range met.
//!
//! Convergence: the LP values of the two players sum to the constant, so a
//! positive gap means some player's best response beats its restricted
//! value; temporary leaves undervalue their mover and overvalue (for the
//! opponent) any play that respects information sets, so such a response
//! must leave the restricted game at a node of its own inside it, i.e. add
//! a sequence. This holds for a mixed default too: below a temporary leaf
//! (a set with no allowed action) perfect recall keeps every later set of
//! its mover out of the restricted game, so the mover's extended strategy
//! there is the default throughout, the play the leaf's value assumes (an
//! expectation over the default's support, against an opponent who sees
//! the whole subtree). An iteration that adds nothing with a gap left (LP
//! round-off) ends the run with `stalled` set.
//!
//! Best responses are pruned with bounds ([`bnb`], the paper's BRS); the
//! bound is the largest payoff met so far, as the game declares none, so
//! a run that would stop on pruned bounds first recomputes both with the
//! unpruned search ([`brs`]), and the bests' too, and stops only if those
//! agree; the returned bounds are always unpruned ones. A caller holding
//! the full tree may certify them there instead ([`certify`]).
//!
//! Variants (the paper's player selection): both players every iteration
//! (DO-B), alternating (DO-SA), or the player whose bound is further from
//! the restricted value (DO-SWP); a player whose response added nothing is
//! followed by the other one.

/// The best strategy of each player so far.
mod best;
/// Best responses pruned with bounds.
mod bnb;
/// Best responses on the full game.
mod brs;
/// The answer on a full tree, and its certification there.
mod certify;
/// Play where the restricted game defines nothing.
mod default_strategy;
/// One iteration's numbers.
mod iteration;
/// The explored nodes.
mod lazy;
/// Temporary leaves' values.
mod leaf_value;
/// The settings of a run.
mod options;
/// The restricted game and its sequence form.
mod restricted;

use std::sync::Arc;
use std::time::Instant;

use rustc_hash::FxHashMap;

use galac_runtime::game::Game;
use galac_runtime::ids::{InfosetId, PlayerId};
use galac_runtime::info::InfoInterner;
use galac_runtime::tree::Tree;

use crate::lp::{self, Backend, WarmBasis};
use crate::solver::{Control, Observer, Progress, SolveError};
use crate::Profile;
use best::Bests;
pub use certify::{Candidate, Certifier};
pub use default_strategy::DefaultStrategy;
pub use iteration::Iteration;
use lazy::{Arena, Explorer, Kind};
pub use options::{DoOptions, Variant};
pub use restricted::Extended;
use restricted::Restricted;

/// A set the answer's restricted game defines, with labels.
#[derive(Clone, Debug, PartialEq)]
pub struct LabelledSet {
    pub player: PlayerId,
    pub label: String,
    pub actions: Vec<String>,
    pub probs: Vec<f64>,
}

/// The result of a run.
#[derive(Clone, Debug)]
pub struct DoSolution {
    /// The final bounds on the first player's value; `upper - lower` is the
    /// NashConv of `strategies`.
    pub lower: f64,
    pub upper: f64,
    /// Each player's extended strategy.
    pub strategies: [Extended; 2],
    pub iterations: Vec<Iteration>,
    /// The observer stopped the run, or it hit the iteration limit.
    pub stopped: bool,
    /// An iteration added no sequence while the gap was above epsilon.
    pub stalled: bool,
    /// The payoff range met (the first player's payoffs) and epsilon in payoff units.
    pub payoff_range: f64,
    pub tolerance: f64,
    /// Nodes explored in all.
    pub explored: usize,
    /// Per interned set met: its first global slot (`NONE` if not met) and actions.
    set_slots: Vec<(u32, u32)>,
    /// With [`DoOptions::labels`]: the defined sets, labelled.
    pub labelled: Vec<LabelledSet>,
    /// Restricted LPs solved from the last one's basis, and from scratch
    /// (HiGHS; other backends solve every LP from scratch and count none).
    pub lp_starts: [u64; 2],
    /// HiGHS's simplex iterations over all restricted LPs (0 with the
    /// other backends): how far each basis was from the next optimum.
    pub simplex_iterations: i64,
    /// The LP backends the restricted games used, in the order first used.
    pub lp_backends: Vec<Backend>,
    /// The run ended on its certifier's evaluation of these strategies
    /// ([`solve_game_certified`]), not on its own unpruned searches.
    pub tree_certified: bool,
}

impl DoSolution {
    /// The NashConv of the answer, exact up to floating point.
    pub fn gap(&self) -> f64 {
        self.upper - self.lower
    }

    /// The answer as a profile of `tree`, which must have been built with
    /// the interner the run used (so that set ids agree); the default
    /// strategy where the restricted game defines nothing.
    pub fn profile(&self, tree: &Tree) -> Result<Profile, SolveError> {
        let [s0, s1] = &self.strategies;
        Candidate { strategies: [s0, s1], set_slots: &self.set_slots }.profile(tree)
    }
}

/// Solves `game` by the double oracle. Information sets are interned in
/// `interner` (pass the one a tree was built with to map the answer onto
/// that tree with [`DoSolution::profile`]). Progress goes to `observer`
/// once per iteration.
pub fn solve_game<G: Game>(
    game: &G,
    interner: &mut InfoInterner,
    options: &DoOptions,
    observer: &mut dyn Observer,
) -> Result<DoSolution, SolveError> {
    solve_game_certified(game, interner, options, observer, None)
}

/// [`solve_game`], whose pruned bounds, when they say the run may stop,
/// are certified by `certifier` (see [`certify`]): the run stops if the
/// exact values it gives for the answer still close the gap, and else
/// certifies them by its own unpruned searches, as without one.
pub fn solve_game_certified<G: Game>(
    game: &G,
    interner: &mut InfoInterner,
    options: &DoOptions,
    observer: &mut dyn Observer,
    mut certifier: Option<Certifier<'_>>,
) -> Result<DoSolution, SolveError> {
    let start = Instant::now();
    let default = Arc::new(options.default.clone());
    let mut run = Run {
        ex: Explorer::new(game, interner, options.max_nodes, options.memory)?,
        options,
        allowed: Vec::new(),
        leaf_values: FxHashMap::default(),
        strategies: [Extended::of_default(&default), Extended::of_default(&default)],
        default,
        bests: Bests::default(),
        bounds: [None, None],
        lp_value: 0.0,
        restricted: None,
        solved: [false, false],
        spare: [None, None],
        quiet: [false, false],
        next: 0,
        hints: [Vec::new(), Vec::new()],
        warm: WarmBasis::default(),
        backends: Vec::new(),
    };
    run.seed()?;
    let mut iterations: Vec<Iteration> = Vec::new();
    let (mut stopped, mut stalled, mut stop) = (false, false, false);
    // Set when the run would stop on pruned bounds: the next iteration
    // certifies them, and the run stops after it unless they moved.
    let mut certify = false;
    // Whether the iteration that asked for the certifying one added nothing:
    // a certifying iteration answers strategies already answered, so adding
    // nothing then means a stall only if it did before too.
    let mut was_quiet = false;
    // Whether the bounds to certify close the gap (the certifier is asked
    // only then), and whether its values ended the run.
    let (mut closes, mut tree_certified) = (false, false);
    loop {
        if galac_runtime::cancel::requested(options.cancel.as_ref()) {
            return Err(SolveError::Cancelled);
        }
        let number = iterations.len() as u64 + 1;
        let mut on_tree = None;
        if let (true, Some(c)) = (certify && closes, certifier.as_deref_mut()) {
            let (t, limits) = (Instant::now(), (run.constant(), run.tolerance()));
            let bounds = certify::certified_by(c, &mut run.bests, &run.strategies, &run.ex.arena, limits)?;
            on_tree = bounds.map(|bounds| Iteration::on_tree(number, bounds, run.lp_value, run.ex.arena.len(), t));
            // The exact values leave a gap: the run's own unpruned
            // searches certify from now on, and find what to add.
            if on_tree.is_none() {
                certifier = None;
            }
        }
        let tree = on_tree.is_some();
        let mut it = match on_tree {
            Some(it) => it,
            None => run.iteration(number, certify)?,
        };
        it.seconds = start.elapsed().as_secs_f64();
        if let (true, Some(prev)) = (it.nodes == 0, iterations.last()) {
            // A certifying iteration after sequences were added has no
            // restricted game of its own: the last one's size stands.
            (it.sequences, it.nodes, it.temp_leaves) = (prev.sequences, prev.nodes, prev.temp_leaves);
        }
        let gap = run.gap();
        let progress = Progress {
            iteration: it.iteration,
            seconds: it.seconds,
            exploitability: gap,
            bounds: it.lower.zip(it.upper),
            evaluation: None,
        };
        // A certifying iteration makes both bests' values exact too.
        let exact = !options.prune || (it.certified && run.bests.exact());
        iterations.push(it);
        let control = observer.progress(&progress);
        let converged = gap.is_some_and(|g| g <= run.tolerance());
        stop |= control == Control::Stop || iterations.len() as u64 >= options.max_iterations;
        let quiet = run.quiet == [true, true] && (!certify || was_quiet);
        if tree {
            tree_certified = true;
            break;
        }
        if (converged || quiet || stop) && !exact {
            (certify, was_quiet, closes) = (true, quiet, converged);
            continue;
        }
        certify = false;
        if converged {
            break;
        }
        if quiet {
            stalled = true;
            break;
        }
        if stop {
            stopped = true;
            break;
        }
    }
    let mut sol = run.finish(iterations, stopped, stalled)?;
    sol.tree_certified = tree_certified;
    Ok(sol)
}

/// The state of a run between iterations.
struct Run<'a, 'g, G: Game> {
    ex: Explorer<'g, G>,
    options: &'a DoOptions,
    /// Per global slot: whether the sequence is allowed.
    allowed: Vec<bool>,
    /// Values of temporary leaves met so far, by node.
    leaf_values: FxHashMap<u32, f64>,
    strategies: [Extended; 2],
    /// The options' default strategy, shared by the extended strategies.
    default: Arc<DefaultStrategy>,
    /// Each player's best strategy so far: the answer, and the bounds.
    bests: Bests,
    /// Best-response values against the current strategies: the first
    /// player's and the second's (the bounds are the bests').
    bounds: [Option<f64>; 2],
    lp_value: f64,
    /// The current restricted game, and whose LP was solved on it.
    restricted: Option<Restricted>,
    solved: [bool; 2],
    /// Plans solved with the other player's, not yet used (a strategy
    /// changes only when its opponent responds to it).
    spare: [Option<Extended>; 2],
    /// Whose best response added nothing since the restricted game changed.
    quiet: [bool; 2],
    /// The next player of the alternating policy.
    next: usize,
    /// Per player and set: the pruned search's last choice, tried first.
    hints: [Vec<u32>; 2],
    /// The last restricted LP's basis (HiGHS), the next one's start.
    warm: WarmBasis,
    /// The LP backends used, in the order first used.
    backends: Vec<Backend>,
}

impl<G: Game> Run<'_, '_, G> {
    /// What the two payoffs sum to.
    fn constant(&self) -> f64 {
        self.ex.arena.constant_sum.unwrap_or(0) as f64
    }

    /// (lower, upper) on the first player's value.
    fn bound_pair(&self) -> (Option<f64>, Option<f64>) {
        (self.bounds[1].map(|b| self.constant() - b), self.bounds[0])
    }

    /// `upper - lower` of the bests once both are known: the NashConv of
    /// the answer.
    fn gap(&self) -> Option<f64> {
        let (lo, hi) = self.bests.bounds(self.constant());
        Some(hi? - lo?)
    }

    /// The first player's payoff range met so far (at least 1).
    fn payoff_range(&self) -> f64 {
        self.ex.arena.payoff_range.map_or(1.0, |(lo, hi)| ((hi - lo) as f64).max(1.0))
    }

    /// The gap at which the run stops.
    fn tolerance(&self) -> f64 {
        self.options.epsilon * self.payoff_range()
    }

    /// Allows the seed's actions (`DoOptions::seed`) at the sets that
    /// seeded paths from the root reach, expanding the game along them.
    fn seed(&mut self) -> Result<(), SolveError> {
        let seed = &self.options.seed;
        if seed.is_empty() {
            return Ok(());
        }
        let seeded = |set: u32| seed.get(InfosetId(set)).map_or(&[][..], |v| &v[..]);
        let follow = |arena: &Arena, node: u32, a: u32| match arena.kind(node) {
            Kind::Decision { set, .. } => seeded(set).contains(&a),
            Kind::Chance => true,
            Kind::Terminal => false,
        };
        let order = self.ex.region(&follow)?;
        let mut slots = Vec::new();
        for node in order {
            if let Kind::Decision { set, .. } = self.ex.arena.kind(node) {
                let n = self.ex.arena.set(set).n_actions;
                slots.extend(seeded(set).iter().filter(|&&a| a < n).map(|&a| self.ex.arena.slot(set, a)));
            }
        }
        self.allow(&slots);
        Ok(())
    }

    /// Who computes a best response this iteration.
    fn responders(&mut self) -> [bool; 2] {
        let one = |p: usize| [p == 0, p == 1];
        let quiet_other = |run: &Self| match run.quiet {
            [true, false] => Some(1),
            [false, true] => Some(0),
            _ => None,
        };
        let p = match self.options.variant {
            Variant::Both => return [true, true],
            Variant::Alternating => quiet_other(self).unwrap_or(self.next),
            Variant::WorsePlayer => quiet_other(self).unwrap_or_else(|| {
                let (lo, hi) = self.bound_pair();
                match (lo, hi) {
                    (None, _) => 1,
                    (_, None) => 0,
                    (Some(lo), Some(hi)) => {
                        let (d0, d1) = ((hi - self.lp_value).abs(), (self.lp_value - lo).abs());
                        if d0 > d1 {
                            0
                        } else if d1 > d0 {
                            1
                        } else {
                            self.next
                        }
                    }
                }
            }),
        };
        self.next = 1 - p;
        one(p)
    }

    /// The strategies the responders `who` respond to, from the LP of the
    /// current restricted game (solved once per restricted game; clarabel
    /// and HiGHS give both plans from one LP, the second's as its dual, and
    /// HiGHS starts from the basis of the last restricted game's LP).
    fn solve_lps(&mut self, who: [bool; 2]) -> Result<(), SolveError> {
        let rg = self.restricted.as_ref().expect("built before its LP");
        let needed = (0..2).any(|me| who[me] && !self.solved[1 - me]);
        let backend = self.options.lp_backend();
        if needed && !self.backends.contains(&backend) {
            self.backends.push(backend);
        }
        if needed && backend != Backend::Microlp {
            let cancel = self.options.cancel.as_ref();
            let sol = lp::solve_both(&rg.sf, backend, Some((&rg.ids, &mut self.warm)), cancel)?;
            if self.options.check_warm {
                let cold = lp::solve_both(&rg.sf, backend, None, cancel)?;
                if (cold.value - sol.value).abs() > 1e-9 * self.payoff_range() {
                    return Err(SolveError::Unsupported {
                        solver: "the double oracle",
                        reason: format!(
                            "internal error, please report: the restricted LP from the last basis has value {}, \
                             from scratch {}",
                            sol.value, cold.value
                        ),
                    });
                }
            }
            for (p, plan) in sol.plans.iter().enumerate() {
                self.spare[p] = Some(rg.extended(&self.ex.arena, PlayerId::from_index(p), plan, &self.default));
            }
            self.lp_value = sol.value;
            self.solved = [true, true];
        }
        for (me, &responds) in who.iter().enumerate() {
            let opp = 1 - me;
            // A strategy is replaced only when its opponent responds to it,
            // so that each bound stays the response to the current strategy.
            if !responds {
                continue;
            }
            if let Some(ext) = self.spare[opp].take() {
                self.strategies[opp] = ext;
                self.bests.replaced(opp);
            } else if !self.solved[opp] {
                let (plan, value, _, _) =
                    lp::solve_player(&rg.sf, PlayerId::from_index(opp), backend, self.options.cancel.as_ref())?;
                self.strategies[opp] = rg.extended(&self.ex.arena, PlayerId::from_index(opp), &plan, &self.default);
                self.bests.replaced(opp);
                self.lp_value = value;
                self.solved[opp] = true;
            }
        }
        Ok(())
    }

    /// One iteration: restricted game, LPs, best responses, new sequences.
    /// A certifying one only recomputes both players' best responses to
    /// the current strategies, unpruned, and to a best strategy that is no
    /// longer current and was answered by a pruned search.
    fn iteration(&mut self, number: u64, certify: bool) -> Result<Iteration, SolveError> {
        let mut it = Iteration { iteration: number, certified: certify, ..Iteration::default() };
        let who = if certify {
            [true, true]
        } else {
            let t = Instant::now();
            if self.restricted.is_none() {
                self.restricted =
                    Some(restricted::build(&mut self.ex, &self.allowed, &mut self.leaf_values, &self.default)?);
                self.solved = [false, false];
                self.quiet = [false, false];
                self.spare = [None, None];
            }
            it.expand_seconds = t.elapsed().as_secs_f64();
            let who = self.responders();
            let t = Instant::now();
            self.solve_lps(who)?;
            it.lp_seconds = t.elapsed().as_secs_f64();
            who
        };
        if let Some(rg) = &self.restricted {
            it.sequences = [rg.sf.treeplex.n_seqs(PlayerId(0)), rg.sf.treeplex.n_seqs(PlayerId(1))];
            (it.nodes, it.temp_leaves) = (rg.nodes, rg.temp_leaves);
        }
        it.lp_value = self.lp_value;
        let t = Instant::now();
        for (me, &responds) in who.iter().enumerate() {
            if !responds {
                continue;
            }
            let opp = &self.strategies[1 - me];
            let response = if self.options.prune && !certify {
                bnb::best_response(&mut self.ex, me as u32, opp, &mut self.hints[me])?
            } else {
                brs::best_response(&mut self.ex, me as u32, opp)?
            };
            self.bounds[me] = Some(response.value);
            let exact = certify || !self.options.prune;
            self.bests.answered(1 - me, response.value, exact, &self.strategies[1 - me]);
            it.added[me] += self.allow(&response.slots);
            self.quiet[me] = it.added[me] == 0;
        }
        for p in 0..2 {
            let Some(best) = self.bests.unchecked(p).filter(|_| certify) else { continue };
            let response = brs::best_response(&mut self.ex, 1 - p as u32, best)?;
            self.bests.checked(p, response.value);
            // The current strategy's unpruned value, found above, was
            // compared with the best's pruned one, which may have been too
            // low: compared again with the exact one, it may now be better.
            if let Some(current) = self.bounds[1 - p] {
                self.bests.answered(p, current, true, &self.strategies[p]);
            }
            let added = self.allow(&response.slots);
            it.added[1 - p] += added;
            self.quiet[1 - p] &= added == 0;
        }
        it.br_seconds = t.elapsed().as_secs_f64();
        it.responded = who;
        if it.added[0] + it.added[1] > 0 {
            self.restricted = None;
        }
        (it.lower, it.upper) = self.bests.bounds(self.constant());
        it.explored = self.ex.arena.len();
        Ok(it)
    }

    /// Allows the sequences of a best response; how many were new.
    fn allow(&mut self, slots: &[u32]) -> usize {
        self.allowed.resize(self.ex.arena.slot_set.len(), false);
        let mut added = 0;
        for &s in slots {
            if !self.allowed[s as usize] {
                self.allowed[s as usize] = true;
                added += 1;
            }
        }
        added
    }

    /// The answer, with labels of its sets when asked for.
    fn finish(mut self, iterations: Vec<Iteration>, stopped: bool, stalled: bool) -> Result<DoSolution, SolveError> {
        let (lower, upper) = self.bests.bounds(self.constant());
        let current = std::mem::take(&mut self.strategies);
        self.strategies = std::mem::take(&mut self.bests).into_strategies(current);
        let arena = &self.ex.arena;
        let set_slots = certify::set_slots(arena);
        let mut labelled = Vec::new();
        if self.options.labels {
            for set in 0..self.ex.arena.sets.len() as u32 {
                let Some(info) = self.ex.arena.sets[set as usize] else { continue };
                let strategy = &self.strategies[info.player as usize];
                if !strategy.is_defined(set) {
                    continue;
                }
                let probs = (0..info.n_actions).map(|a| strategy.prob(set, info.first_slot, a)).collect();
                let (label, actions) = self.ex.labels(set)?;
                labelled.push(LabelledSet { player: PlayerId(info.player), label, actions, probs });
            }
        }
        Ok(DoSolution {
            lower: lower.unwrap_or(f64::NEG_INFINITY),
            upper: upper.unwrap_or(f64::INFINITY),
            payoff_range: self.payoff_range(),
            tolerance: self.tolerance(),
            explored: self.ex.arena.len(),
            strategies: self.strategies,
            iterations,
            stopped,
            stalled,
            set_slots,
            labelled,
            lp_starts: [self.warm.warm, self.warm.cold],
            simplex_iterations: self.warm.iterations,
            lp_backends: self.backends,
            tree_certified: false,
        })
    }
}
