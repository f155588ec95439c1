//! The sequence-form linear program for two-player zero-sum (or
//! constant-sum) games, solved through good_lp.
//!
//! With `E x = e`, `F y = f` the realization-plan constraints and `A` the
//! first player's payoffs, the first player's optimal plan solves
//!
//! ```text
//!   maximise  q_0   over x >= 0, q free
//!   subject to  E x = e,   F^T q - A^T x <= 0
//! ```
//!
//! (the dual of the second player's best response), and symmetrically the
//! second player's plan solves `minimise p_0` subject to `F y = f`,
//! `E^T p - A y >= 0`. Both optima equal the game value of the first player.
//! Numeric contract: the LP is in `f64`; every answer is checked afterwards
//! by an exact-recall best response on the tree (see `best_response`).

use std::time::Instant;

use good_lp::{variable, Constraint, Expression, ProblemVariables, Solution as _, SolverModel, Variable};

use galac_runtime::cancel::Cancel;
use galac_runtime::ids::{InfosetId, PlayerId};
use galac_runtime::tree::Tree;

use crate::best_response::Evaluator;
use crate::clarabel_run;
pub use crate::highs::library_path as highs_library_path;
pub use crate::lp_model::write_highs_model;
use crate::lp_model::{cold_q_bound, highs_model, n_actions, payoff_scale, warm_q_bound, Boxed};
use crate::sequence_form::SequenceForm;
pub use crate::solver::LpError;
use crate::solver::{Control, Observer, Progress, Solution, SolveError, Solver};
use crate::Profile;

/// The LP solvers galac can use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// Pure-Rust simplex (microlp): exact vertices, no C toolchain needed.
    Microlp,
    /// Pure-Rust interior point (Clarabel).
    Clarabel,
    /// HiGHS's simplex (a shared library loaded at run time: `highs.rs`):
    /// one LP gives both plans, and a basis carries from one LP to a grown one.
    Highs,
}

impl Backend {
    pub const ALL: &'static [Backend] = &[Backend::Microlp, Backend::Clarabel, Backend::Highs];

    /// The backend for the LP of a tree with `sequences` sequences (both
    /// players') and `leaves` leaves when none is named: HiGHS from
    /// [`HIGHS_FROM_SEQUENCES`] sequences with at most
    /// [`HIGHS_LEAVES_PER_SEQUENCE`] leaves a sequence, where its library
    /// loads; else clarabel, faster on small LPs and on ones whose payoff
    /// matrix is dense in chance outcomes (docs/perf/lp.md, "Engines").
    pub fn for_size(sequences: usize, leaves: usize) -> Backend {
        let fits = sequences >= HIGHS_FROM_SEQUENCES && leaves <= HIGHS_LEAVES_PER_SEQUENCE * sequences;
        if fits && crate::highs::available().is_ok() {
            Backend::Highs
        } else {
            Backend::Clarabel
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Backend::Microlp => "microlp",
            Backend::Clarabel => "clarabel",
            Backend::Highs => "highs",
        }
    }

    /// Whether the backend can solve here (HiGHS: whether its library
    /// loads), else why not.
    pub fn available(self) -> Result<(), String> {
        match self {
            Backend::Highs => crate::highs::available(),
            Backend::Microlp | Backend::Clarabel => Ok(()),
        }
    }

    pub fn from_name(name: &str) -> Option<Backend> {
        Backend::ALL.iter().copied().find(|b| b.name() == name)
    }
}

/// From this many sequences (both players') an LP may go to HiGHS unless a
/// backend is named ([`Backend::for_size`]).
pub const HIGHS_FROM_SEQUENCES: usize = 5_000;
/// Past this many leaves a sequence an LP stays with clarabel
/// ([`Backend::for_size`]).
pub const HIGHS_LEAVES_PER_SEQUENCE: usize = 10;

/// Optimal realization plans and the value.
pub struct LpSolution {
    /// The first player's value (the second's is `constant_sum - value`).
    pub value: f64,
    /// Realization plans, indexed by sequence.
    pub plans: [Vec<f64>; 2],
    pub build_seconds: f64,
    pub solve_seconds: f64,
}

/// Both players' optimal plans: by clarabel and microlp each from its own
/// LP, by HiGHS both from one (the second's as the duals, as in
/// [`solve_both`]).
/// HiGHS and clarabel stop within an iteration once `cancel` is set
/// ([`LpError::Cancelled`]); microlp has no way to be stopped and runs to
/// its end.
pub fn solve(sf: &SequenceForm, backend: Backend, cancel: Option<&Cancel>) -> Result<LpSolution, LpError> {
    if backend == Backend::Highs {
        return solve_highs(sf, None, cancel);
    }
    let (x, v1, b1, s1) = solve_player(sf, PlayerId(0), backend, cancel)?;
    let (y, _v2, b2, s2) = solve_player(sf, PlayerId(1), backend, cancel)?;
    Ok(LpSolution { value: v1, plans: [x, y], build_seconds: b1 + b2, solve_seconds: s1 + s2 })
}

/// Solves the LP of player `me` (0 maximises the first player's payoff, 1
/// minimises it); returns the plan, the value, and build and solve times.
/// The double oracle solves one player's LP when it needs only that
/// player's strategy. Cancelled as [`solve`] is.
pub fn solve_player(
    sf: &SequenceForm,
    me: PlayerId,
    backend: Backend,
    cancel: Option<&Cancel>,
) -> Result<(Vec<f64>, f64, f64, f64), LpError> {
    if backend == Backend::Highs {
        let LpSolution { value, plans: [x, y], build_seconds, solve_seconds } = solve_highs(sf, None, cancel)?;
        return Ok((if me.0 == 0 { x } else { y }, value, build_seconds, solve_seconds));
    }
    let start = Instant::now();
    let lp = PlayerLp::new(sf, me);
    let build_seconds = start.elapsed().as_secs_f64();
    let start = Instant::now();
    let (plan, dual0, scale) = (lp.plan.clone(), lp.duals[0], lp.scale);
    let (n_plan, which) = (lp.plan.len(), lp.which());
    let fail = lp.failure(backend);
    let (problem, constraints) = lp.problem();
    let (values, value) = match backend {
        Backend::Microlp => {
            let sol = problem.using(good_lp::microlp).with_all(constraints).solve().map_err(fail)?;
            (plan.iter().map(|v| sol.value(*v)).collect::<Vec<f64>>(), sol.value(dual0) / scale)
        }
        Backend::Clarabel => {
            let sol = clarabel_run::run(
                clarabel_run::model(problem).with_all(constraints),
                n_plan,
                Backend::Clarabel.name(),
                which,
                cancel,
            )?;
            (sol.x[..n_plan].to_vec(), sol.x[n_plan] / scale)
        }
        Backend::Highs => unreachable!("HiGHS is solved above"),
    };
    Ok((values, value, build_seconds, start.elapsed().as_secs_f64()))
}

/// Both players' optimal plans from one LP: the second player's plan is
/// the dual of the first player's LP (its multipliers on the rows
/// `F^T q - A^T x <= 0`, one per second-player sequence, satisfy `F y = f`,
/// `y >= 0` and are optimal by strong duality). With clarabel this halves
/// the double oracle's LP time; microlp solves the two LPs. With HiGHS and
/// `warm`, the simplex starts from the basis the last LP of the same
/// growing game ended at (and `warm` keeps this one's for the next).
/// Cancelled as [`solve`] is.
pub fn solve_both(
    sf: &SequenceForm,
    backend: Backend,
    warm: Option<(&StableIds, &mut WarmBasis)>,
    cancel: Option<&Cancel>,
) -> Result<LpSolution, LpError> {
    match backend {
        Backend::Microlp => return solve(sf, backend, cancel),
        Backend::Highs => return solve_highs(sf, warm, cancel),
        Backend::Clarabel => {}
    }
    let start = Instant::now();
    let lp = PlayerLp::new(sf, PlayerId(0));
    let build_seconds = start.elapsed().as_secs_f64();
    let start = Instant::now();
    let (n_plan, scale, first_row, which) = (lp.plan.len(), lp.scale, lp.first_opponent_row, lp.which());
    let (problem, constraints) = lp.problem();
    let sol = clarabel_run::run(
        clarabel_run::model(problem).with_all(constraints),
        n_plan,
        Backend::Clarabel.name(),
        which,
        cancel,
    )?;
    let x = sol.x[..n_plan].to_vec();
    let value = sol.x[n_plan] / scale;
    // The sign of a multiplier is a convention of the backend; the plan is
    // its size. The plan's `>= 0` bounds are the model's first rows.
    let y: Vec<f64> = sol.z[n_plan + first_row..].iter().map(|d| d.abs()).collect();
    Ok(LpSolution { value, plans: [x, y], build_seconds, solve_seconds: start.elapsed().as_secs_f64() })
}

/// Where a sequence form's sequences and information sets sit in a larger
/// game that stays the same while the sequence form grows (the double
/// oracle's restricted games): a key per sequence of each player (0 for
/// the empty one, distinct keys below [`StableIds::n_seq_keys`] for the
/// others) and per information set (distinct, from 1, below
/// [`StableIds::n_set_keys`]; 0 stands for the root row).
pub struct StableIds {
    pub seqs: [Vec<u32>; 2],
    pub sets: Vec<u32>,
    pub n_seq_keys: usize,
    pub n_set_keys: usize,
}

/// The basis an LP ended at, by stable key ([`StableIds`]), to start the
/// next LP of the same growing game from: per player, the status of each
/// sequence's element (the first player's sequences are columns of the LP,
/// the second's rows) and of each information set's (the first player's
/// sets are rows, the second's columns). Elements the last LP did not have
/// start as the slack basis would: new rows basic, new columns at a bound.
#[derive(Clone, Debug, Default)]
pub struct WarmBasis {
    seq: [Vec<i8>; 2],
    set: [Vec<i8>; 2],
    /// LPs solved from a carried basis, and from scratch.
    pub warm: u64,
    pub cold: u64,
    /// Simplex iterations, in all.
    pub iterations: i64,
}

/// No status known.
const UNKNOWN: i8 = -1;

impl WarmBasis {
    /// Statuses of `lp`'s columns and rows from the last basis; `None`
    /// before any.
    fn statuses(&self, sf: &SequenceForm, ids: &StableIds) -> Option<(Vec<i8>, Vec<i8>)> {
        use crate::highs::{BASIC, LOWER, ZERO};
        if self.seq[0].is_empty() {
            return None;
        }
        let get = |v: &[i8], k: u32, new: i8| match v.get(k as usize) {
            Some(&s) if s != UNKNOWN => s,
            _ => new,
        };
        let tp = &sf.treeplex;
        let mut cols = Vec::new();
        let mut rows = Vec::new();
        cols.extend(ids.seqs[0].iter().map(|&k| get(&self.seq[0], k, LOWER)));
        cols.push(get(&self.set[1], 0, BASIC));
        cols.extend(tp.infosets_of[PlayerId(1)].iter().map(|&i| get(&self.set[1], ids.sets[i.index()], ZERO)));
        rows.push(get(&self.set[0], 0, BASIC));
        rows.extend(tp.infosets_of[PlayerId(0)].iter().map(|&i| get(&self.set[0], ids.sets[i.index()], BASIC)));
        rows.extend(ids.seqs[1].iter().map(|&k| get(&self.seq[1], k, BASIC)));
        Some((cols, rows))
    }

    /// Keeps the basis `lp` ended at.
    fn keep(&mut self, sf: &SequenceForm, ids: &StableIds, cols: &[i8], rows: &[i8]) {
        let tp = &sf.treeplex;
        for v in &mut self.seq {
            v.clear();
            v.resize(ids.n_seq_keys, UNKNOWN);
        }
        for v in &mut self.set {
            v.clear();
            v.resize(ids.n_set_keys, UNKNOWN);
        }
        let n0 = ids.seqs[0].len();
        for (&k, &s) in ids.seqs[0].iter().zip(cols) {
            self.seq[0][k as usize] = s;
        }
        self.set[1][0] = cols[n0];
        for (&i, &s) in tp.infosets_of[PlayerId(1)].iter().zip(&cols[n0 + 1..]) {
            self.set[1][ids.sets[i.index()] as usize] = s;
        }
        self.set[0][0] = rows[0];
        let n_sets0 = tp.infosets_of[PlayerId(0)].len();
        for (&i, &s) in tp.infosets_of[PlayerId(0)].iter().zip(&rows[1..]) {
            self.set[0][ids.sets[i.index()] as usize] = s;
        }
        for (&k, &s) in ids.seqs[1].iter().zip(&rows[1 + n_sets0..]) {
            self.seq[1][k as usize] = s;
        }
    }
}

/// Both plans and the value from the first player's LP by HiGHS's simplex
/// (the second player's plan as its duals, as in [`solve_both`]), from
/// the basis in `warm` when it has one.
fn solve_highs(
    sf: &SequenceForm,
    warm: Option<(&StableIds, &mut WarmBasis)>,
    cancel: Option<&Cancel>,
) -> Result<LpSolution, LpError> {
    let basis = warm.as_ref().and_then(|(ids, basis)| basis.statuses(sf, ids));
    // A one-off LP bounds the `q` where that measured faster
    // (`lp_model::cold_q_bound`); the double oracle's (with `warm`) box
    // every column, the plans' too (`lp_model::Boxed::All`): a new column
    // that improves the objective is then flipped to its other bound
    // instead of sending HiGHS's dual simplex to its phase 1, which took
    // half the simplex time of blind tic-tac-toe's restricted LPs
    // (docs/perf/double-oracle.md, "Boxed restricted LPs").
    let boxed = match warm {
        None => cold_q_bound(sf).map_or(Boxed::Free, Boxed::Values),
        Some(_) => Boxed::All(warm_q_bound(sf)),
    };
    solve_highs_from(sf, boxed, basis, warm, cancel)
}

/// HiGHS's cold LP with the `q` within `[-q_bound, q_bound]`, as
/// [`solve`] gives it with `lp_model::value_bound`'s bound on sparse LPs
/// ([`cold_q_bound`]); public for the tests,
/// which give it too tight a bound to see it fall back to free `q`.
pub fn solve_highs_bounded(sf: &SequenceForm, q_bound: f64) -> Result<LpSolution, LpError> {
    solve_highs_from(sf, Boxed::Values(q_bound), None, None, None)
}

/// [`solve_highs`] with the columns bounded as `boxed` says: if a bound
/// holds a `q` with a nonzero reduced cost (the second
/// player's plan read from the duals would then not be the LP's), the LP is
/// solved again with free columns.
fn solve_highs_from(
    sf: &SequenceForm,
    boxed: Boxed,
    basis: Option<(Vec<i8>, Vec<i8>)>,
    warm: Option<(&StableIds, &mut WarmBasis)>,
    cancel: Option<&Cancel>,
) -> Result<LpSolution, LpError> {
    let start = Instant::now();
    let (model, scale) = highs_model(sf, boxed);
    let mut build_seconds = start.elapsed().as_secs_f64();
    let start = Instant::now();
    // Bounded, HiGHS's default tolerances ([`crate::highs::DEFAULT_TOLERANCE`]).
    let bounded_tolerance = crate::highs::DEFAULT_TOLERANCE;
    let run = |model: &crate::highs::Model, basis: Option<&(Vec<i8>, Vec<i8>)>, tolerance: f64| {
        crate::highs::solve(model, basis.map(|(c, r)| (&c[..], &r[..])), tolerance, cancel).map_err(|e| match e {
            crate::highs::Failure::Cancelled => LpError::Cancelled,
            crate::highs::Failure::Other(status) => {
                LpError::Solver { backend: Backend::Highs.name(), which: "first player's", status }
            }
        })
    };
    let n0 = sf.treeplex.n_seqs(PlayerId(0));
    // A bound holds a `q` where its reduced cost is not zero (the plans'
    // box, `lp_model::PLAN_BOX`, is never reached at a feasible point).
    let held = |opt: &crate::highs::Optimum| opt.col_duals[n0..].iter().any(|d| d.abs() > bounded_tolerance);
    let bounded = boxed != Boxed::Free;
    let tolerance = if bounded { bounded_tolerance } else { crate::highs::TOLERANCE };
    let opt = match (run(&model, basis.as_ref(), tolerance), bounded) {
        (Err(LpError::Cancelled), _) => return Err(LpError::Cancelled),
        (answer, false) => answer?,
        (Ok(opt), true) if !held(&opt) => opt,
        // A bound that held, or one so tight that the LP had no optimum.
        (_, true) => {
            let rebuild = Instant::now();
            let (free, _) = highs_model(sf, Boxed::Free);
            build_seconds += rebuild.elapsed().as_secs_f64();
            run(&free, None, crate::highs::TOLERANCE)?
        }
    };
    let first_seq_row = 1 + sf.treeplex.infosets_of[PlayerId(0)].len();
    let x = opt.cols[..n0].to_vec();
    let y: Vec<f64> = opt.row_duals[first_seq_row..].iter().map(|d| d.abs()).collect();
    if let Some((ids, basis)) = warm {
        basis.keep(sf, ids, &opt.col_basis, &opt.row_basis);
        if opt.warm {
            basis.warm += 1;
        } else {
            basis.cold += 1;
        }
        basis.iterations += opt.iterations;
    }
    Ok(LpSolution {
        value: opt.objective / scale,
        plans: [x, y],
        build_seconds,
        solve_seconds: start.elapsed().as_secs_f64(),
    })
}

/// The LP of one player, built and not yet solved.
struct PlayerLp {
    me: PlayerId,
    vars: ProblemVariables,
    /// The player's plan, and one free variable per constraint row of the
    /// opponent (row 0: the empty sequence; row 1 + k: the k-th info set).
    plan: Vec<Variable>,
    duals: Vec<Variable>,
    /// The realization-plan rows, then one row per opponent sequence.
    constraints: Vec<Constraint>,
    first_opponent_row: usize,
    /// The payoff scale (see [`payoff_scale`]).
    scale: f64,
}

impl PlayerLp {
    fn new(sf: &SequenceForm, me: PlayerId) -> Self {
        let other = PlayerId(1 - me.0);
        let mut vars = ProblemVariables::new();
        let plan: Vec<Variable> = (0..sf.treeplex.n_seqs(me)).map(|_| vars.add(variable().min(0.0))).collect();
        let duals: Vec<Variable> = (0..=sf.treeplex.infosets_of[other].len()).map(|_| vars.add(variable())).collect();

        let mut constraints: Vec<Constraint> = Vec::new();
        // Realization-plan constraints of `me`.
        constraints.push(Expression::from(plan[0]).eq(1.0));
        for &set in &sf.treeplex.infosets_of[me] {
            let mut e = Expression::default();
            e.add_mul(-1.0, plan[sf.treeplex.parent_seq[set].index()]);
            let first = sf.treeplex.first_seq(me, set).index();
            for &x in &plan[first..first + n_actions(sf, set)] {
                e.add_mul(1.0, x);
            }
            constraints.push(e.eq(0.0));
        }
        let first_opponent_row = constraints.len();
        // One constraint per opponent sequence j: (F^T q)_j against (A^T x)_j.
        let mut rows: Vec<Expression> = (0..sf.treeplex.n_seqs(other)).map(|_| Expression::default()).collect();
        rows[0].add_mul(1.0, duals[0]);
        for (k, &set) in sf.treeplex.infosets_of[other].iter().enumerate() {
            let q = duals[k + 1];
            rows[sf.treeplex.parent_seq[set].index()].add_mul(-1.0, q);
            let first = sf.treeplex.first_seq(other, set).index();
            for row in &mut rows[first..first + n_actions(sf, set)] {
                row.add_mul(1.0, q);
            }
        }
        let scale = payoff_scale(sf);
        for &(i, j, a) in &sf.payoff {
            let (mine, theirs) = if me.0 == 0 { (i, j) } else { (j, i) };
            rows[theirs.index()].add_mul(-a * scale, plan[mine.index()]);
        }
        for row in rows {
            // Player 0: F^T q - A^T x <= 0; player 1: E^T p - A y >= 0.
            constraints.push(if me.0 == 0 { row.leq(0.0) } else { row.geq(0.0) });
        }
        PlayerLp { me, vars, plan, duals, constraints, first_opponent_row, scale }
    }

    /// The objective (`q_0`, maximised by the first player and minimised
    /// by the second) and the constraints.
    fn problem(self) -> (good_lp::variable::UnsolvedProblem, Vec<Constraint>) {
        let objective: Expression = self.duals[0].into();
        let problem = if self.me.0 == 0 { self.vars.maximise(objective) } else { self.vars.minimise(objective) };
        (problem, self.constraints)
    }

    /// Which LP this is, for messages.
    fn which(&self) -> &'static str {
        if self.me.0 == 0 {
            "first player's"
        } else {
            "second player's"
        }
    }

    /// The error of a failed solve of this LP.
    fn failure(&self, backend: Backend) -> impl Fn(good_lp::ResolutionError) -> LpError {
        let which = self.which();
        move |e| LpError::Solver { backend: backend.name(), which, status: e.to_string() }
    }
}

/// The sequence-form LP as a [`Solver`]: two-player zero-sum (or
/// constant-sum) games, one shot.
pub struct LpSolver {
    pub backend: Backend,
    /// Stops the LP when set (not microlp's).
    pub cancel: Option<Cancel>,
}

impl Solver for LpSolver {
    fn name(&self) -> String {
        format!("lp ({})", self.backend.name())
    }

    fn solve(&self, tree: &Tree, observer: &mut dyn Observer) -> Result<Solution, SolveError> {
        let start = Instant::now();
        let sf = SequenceForm::new(tree)
            .map_err(|e| SolveError::Unsupported { solver: "the sequence-form LP", reason: e.to_string() })?;
        let sf_seconds = start.elapsed().as_secs_f64();
        let sol = solve(&sf, self.backend, self.cancel.as_ref())?;
        let mut profile = Profile::uniform(tree);
        let mut unreached = sf.behaviour(tree, PlayerId(0), &sol.plans[0], &mut profile);
        unreached.extend(sf.behaviour(tree, PlayerId(1), &sol.plans[1], &mut profile));
        let phases = vec![("build LP", sf_seconds + sol.build_seconds), ("solve LP", sol.solve_seconds)];
        Ok(finish(tree, profile, unreached, sol.value, phases, 0.0, start, observer))
    }
}

/// The end of an LP solver's run, the scalar LP's and the public LP's
/// alike: the profile without crumbs, one progress report with the value
/// as both bounds (`seconds` before `start`, plus the time since), and the
/// solution with `phases` and the crumbs' time.
#[allow(clippy::too_many_arguments)]
pub(crate) fn finish(
    tree: &Tree,
    profile: Profile,
    unreached: Vec<InfosetId>,
    value: f64,
    mut phases: Vec<(&'static str, f64)>,
    seconds: f64,
    start: Instant,
    observer: &mut dyn Observer,
) -> Solution {
    let start_clean = Instant::now();
    let profile = without_crumbs(tree, profile);
    phases.push(("drop crumbs", start_clean.elapsed().as_secs_f64()));
    let progress = Progress {
        iteration: 1,
        seconds: seconds + start.elapsed().as_secs_f64(),
        exploitability: None,
        bounds: Some((value, value)),
        evaluation: None,
    };
    let stopped = observer.progress(&progress) == Control::Stop;
    Solution { profile, unreached, phases, stopped }
}

/// Behaviour probabilities below these are tried as zero (see [`without_crumbs`]).
const CRUMBS: [f64; 3] = [1e-10, 1e-8, 1e-6];

/// The LP's profile with the crumbs of the interior-point solution dropped,
/// at the threshold whose profile is least exploitable (measured exactly
/// on the tree; the profile as solved when none is better). Clarabel
/// leaves probabilities of about 1e-9 on actions an exact solution does
/// not play, at sets its plan barely reaches, where the division by the
/// parent's weight magnifies them: a value right to many digits can come
/// with a plan far less exact (docs/perf/lp.md, "Crumbs").
pub(crate) fn without_crumbs(tree: &Tree, profile: Profile) -> Profile {
    let mut eval = Evaluator::new(tree);
    let mut best_conv = eval.evaluate(tree, &profile).nash_conv;
    let mut best = None;
    // Probabilities dropped at the previous threshold (the same count: the same profile).
    let mut dropped_before = 0;
    for tau in CRUMBS {
        let mut p = profile.clone();
        let mut dropped = 0;
        for set in tree.infosets.keys() {
            let probs = p.probs_mut(set);
            let total: f64 = probs.iter().filter(|x| **x >= tau).sum();
            if total > 0.0 {
                dropped += probs.iter().filter(|x| **x > 0.0 && **x < tau).count();
                probs.iter_mut().for_each(|x| *x = if *x >= tau { *x / total } else { 0.0 });
            }
        }
        if dropped == dropped_before {
            continue;
        }
        dropped_before = dropped;
        let conv = eval.evaluate(tree, &p).nash_conv;
        if conv < best_conv {
            (best_conv, best) = (conv, Some(p));
        }
    }
    best.unwrap_or(profile)
}
