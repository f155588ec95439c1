//! The sequence-form double oracle (`--solver do`): its flags, its run
//! through the [`Harness`], its curve file and report. The tree is built only to check the answer
//! independently, and only when it is small (or not at all with
//! `--no-tree`); otherwise the check is the oracle's own exact best
//! responses on the full game, whose gap is the answer's NashConv.

use galac_runtime::cancel::Reason;
use galac_runtime::game::Game;
use galac_runtime::ids::{IdVec, InfosetId};
use galac_runtime::info::InfoInterner;
use galac_solvers::best_response::Evaluator;
use galac_solvers::double_oracle::{
    solve_game_certified, Certifier, DefaultStrategy, DoOptions, DoSolution, Iteration, Variant,
};
use galac_solvers::lp::LpError;
use galac_solvers::solver::{Control, Progress, SolveError};

use super::do_check::{self, checked_with_labels, labels_meanwhile, Checked, EvaluatorSlot};
use super::do_curve::{curve_as_it_goes, curve_csv};
use super::harness::{Harness, StopArgs};
use super::lp::LpArgs;
use super::solved::{fields, with_hint};
use crate::report::{Report, SolveHead, SolveJson, SolveTail, Strategy, SOLVE_SCHEMA};
use crate::{Format, LimitArgs};

/// What an interrupted run says (it ends with status 130).
pub const INTERRUPTED: &str = "interrupted (Ctrl-C or a signal): the double oracle stopped within its iteration, \
                               without an answer (`--time-limit SECONDS` stops it with the best profile so far)";

/// A run of the double oracle as `solve` asks for it.
pub struct Request<'a> {
    pub args: &'a DoArgs,
    pub lp: &'a LpArgs,
    pub stop: &'a StopArgs,
    pub limits: &'a LimitArgs,
    /// `--curve`.
    pub curve: Option<&'a std::path::Path>,
    pub format: Format,
    /// `--out`.
    pub out: Option<&'a std::path::Path>,
    /// Why `solve` chose the double oracle, when no `--solver` named it.
    pub why: Option<String>,
}

/// Flags of the double oracle (`--solver do`).
#[derive(clap::Args, Debug, Clone)]
pub struct DoArgs {
    /// Double oracle: who best-responds each iteration: b (both players),
    /// sa (alternating), swp (the player with the worse bound).
    #[arg(long, default_value = "b", value_name = "b|sa|swp")]
    pub variant: String,
    /// Double oracle: stop when the gap between the bounds is at most this
    /// times the payoff range.
    #[arg(long, default_value_t = 1e-9, value_name = "X")]
    pub do_epsilon: f64,
    /// Double oracle: stop after this many iterations.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub do_max_iterations: Option<u64>,
    /// Double oracle: never build the full tree, even a small one, to check
    /// the answer (the check is then the oracle's own best responses).
    #[arg(long)]
    pub no_tree: bool,
    /// Double oracle: best responses without branch and bound (to compare;
    /// the answer is the same).
    #[arg(long)]
    pub do_no_prune: bool,
    /// Double oracle: start the restricted game from the support of this
    /// many CFR+ iterations (actions of average probability at least
    /// 0.01) instead of the first actions; builds the full tree.
    #[arg(long, value_name = "N", conflicts_with = "no_tree", value_parser = clap::value_parser!(u64).range(1..))]
    pub warm_start_cfr: Option<u64>,
    /// Double oracle: how a player plays where the restricted game defines
    /// nothing (outside it and below its temporary leaves): first (the
    /// paper's first action) or cfr (the warm start's CFR+ average on its
    /// support, renormalised; needs --warm-start-cfr). Default: cfr with
    /// --warm-start-cfr, else first.
    #[arg(long, value_name = "first|cfr")]
    pub do_default: Option<String>,
}

/// Actions a CFR+ warm start keeps: average probability at least this.
const WARM_SUPPORT: f64 = 0.01;

/// The support of `iterations` CFR+ iterations on `tree`: per information
/// set, the actions the average strategy plays with probability at least
/// [`WARM_SUPPORT`] (none at sets it never reaches).
pub fn cfr_support(tree: &galac_runtime::tree::Tree, iterations: u64) -> Result<IdVec<InfosetId, Vec<u32>>, String> {
    Ok(cfr_average(tree, iterations, 1)?.iter().map(|set| set.iter().map(|&(a, _)| a).collect()).collect())
}

/// [`cfr_support`] with the average's probabilities of those actions (not
/// renormalised): the seed and the mixed default strategy of a warm start
/// (the double oracle's set numbers are the tree's: both come from one
/// interner).
/// `threads` as CFR's (the average is the same on any number).
pub fn cfr_average(
    tree: &galac_runtime::tree::Tree,
    iterations: u64,
    threads: usize,
) -> Result<IdVec<InfosetId, Vec<(u32, f64)>>, String> {
    use galac_solvers::cfr::{CfrConfig, CfrSolver, Variant as CfrVariant};
    let mut config = CfrConfig::new(CfrVariant::CfrPlus, iterations);
    config.threads = threads;
    let solver = CfrSolver { config, resume: None };
    let mut quiet = |_: &Progress| Control::Continue;
    // Read from the sums as the average profile normalises them, without
    // making that profile; an unreached set keeps no action.
    let sums = solver.run_sums(tree, &mut quiet).map_err(|e| e.to_string())?;
    let average: IdVec<InfosetId, Vec<(u32, f64)>> = tree
        .infosets
        .keys()
        .map(|set| match galac_solvers::cfr::state::normalised(sums.of(tree, set)) {
            Some(probs) => (0..).zip(probs).filter(|&(_, x)| x >= WARM_SUPPORT).collect(),
            None => Vec::new(),
        })
        .collect();
    Ok(average)
}

/// Trees estimated below this many nodes are built to check the answer
/// with an independent best response (about 0.1 GB at 40 bytes a node).
const CHECK_TREE_NODES: f64 = 3_000_000.0;

/// What a run starts from: the full tree when it is built, the interner
/// the run uses, and the CFR+ warm start's seed.
struct Start {
    tree: Option<galac_runtime::tree::Tree>,
    interner: InfoInterner,
    tree_seconds: f64,
    seed: IdVec<InfosetId, Vec<u32>>,
    /// The default strategy (`--do-default`).
    default: DefaultStrategy,
    warm_seconds: f64,
}

/// Builds the tree when it is small enough for the check or the warm start
/// needs it (with the interner the run uses), and runs the warm start.
/// With `later` (a maker of copies of `game`, when the labels are made by a
/// second build meanwhile: [`labels_meanwhile`]) the tree is built without
/// labels, on the run's threads when it is not small; else with its labels,
/// on this thread.
fn start<G: Game>(game: &G, req: &Request, later: crate::Maker<G>) -> Result<Start, String> {
    let d = req.args;
    let clock = std::time::Instant::now();
    let small = galac_runtime::tree::looks_smaller_than(game, CHECK_TREE_NODES);
    let (tree, interner) = if d.warm_start_cfr.is_none() && (d.no_tree || !small) {
        (None, InfoInterner::new())
    } else {
        // A tree not small for the check is not small for two threads
        // either (`PARALLEL_MIN_NODES` is below `CHECK_TREE_NODES`).
        let parallel = |estimate: Option<f64>| !small || estimate.is_none_or(|n| n >= crate::PARALLEL_MIN_NODES);
        let (tree, interner) = crate::building::try_build_tree_own(game, later, req.limits, later.is_none(), parallel)
            .map_err(|e| build_error(&e, req))?;
        (Some(tree), interner)
    };
    let tree_seconds = clock.elapsed().as_secs_f64();
    let clock = std::time::Instant::now();
    let average = match (d.warm_start_cfr, &tree) {
        (Some(n), Some(tree)) => cfr_average(tree, n, req.limits.threads_or_all())?,
        _ => IdVec::new(),
    };
    let seed = average.iter().map(|set| set.iter().map(|&(a, _)| a).collect()).collect();
    let default = if default_is_cfr(d) { DefaultStrategy::from_weights(&average) } else { DefaultStrategy::default() };
    Ok(Start { tree, interner, tree_seconds, seed, default, warm_seconds: clock.elapsed().as_secs_f64() })
}

/// The message of the tree's build failing: the memory watch's when it
/// cancelled the build ([`crate::memory::watch`]), else the build's own,
/// with the flag that raises the limit it hit.
fn build_error(e: &galac_runtime::tree::BuildError, req: &Request) -> String {
    match req.limits.cancel.as_ref().and_then(|c| c.reason()) {
        Some(Reason::MemoryLimit(message)) => message.clone(),
        _ => match crate::building::limit_hint(e) {
            Some(hint) => format!("{e}\n{hint}"),
            None => e.to_string(),
        },
    }
}

/// Whether the default strategy is the warm start's CFR+ average
/// (`--do-default`, by default with `--warm-start-cfr`).
fn default_is_cfr(d: &DoArgs) -> bool {
    d.do_default.as_deref().map_or(d.warm_start_cfr.is_some(), |x| x == "cfr")
}

/// The variant and LP backend the flags name, once the oracle's own flags
/// are checked; else why not (the shared stop rules are checked by `solve`
/// before the request is made).
pub fn checked_flags(req: &Request) -> Result<(Variant, Option<galac_solvers::lp::Backend>), String> {
    let d = req.args;
    let variant = Variant::from_name(&d.variant)
        .ok_or_else(|| format!("unknown variant `{}`; available: b, sa, swp", d.variant))?;
    let backend = req.lp.backend()?;
    match (d.do_default.as_deref().unwrap_or("first"), d.warm_start_cfr) {
        ("first", _) | ("cfr", Some(_)) => {}
        ("cfr", None) => return Err("--do-default cfr needs --warm-start-cfr N".into()),
        (other, _) => return Err(format!("unknown default strategy `{other}`; available: first, cfr")),
    }
    if d.do_epsilon.is_nan() || d.do_epsilon < 0.0 {
        return Err("--do-epsilon must be a number >= 0".into());
    }
    Ok((variant, backend))
}

/// The double oracle's answer as `solve` shows it: with the full tree,
/// the report every solver's answer gets; without, the oracle's own text
/// and its `solve` JSON answer (one line).
pub enum Shown<'a, 'b> {
    Report(&'a Report<'b>),
    Untreed { text: &'a str, json: &'a str },
}

/// Runs the double oracle and reports; returns the exit status.
pub fn run<G: Game>(game: &G, make: crate::Maker<G>, req: &Request) -> i32 {
    if let Err(msg) = checked_flags(req) {
        eprintln!("error: {msg}");
        return 2;
    }
    let shown = solve(game, make, req, |shown| match shown {
        Shown::Report(report) => i32::from(!report.emit(req.format, req.out)),
        Shown::Untreed { text, json } => crate::report::emit_lines(req.format, req.out, text, json),
    });
    shown.unwrap_or_else(|msg| {
        eprintln!("error: {msg}");
        // Status 130, as a signal's ([`crate::signals`]).
        if crate::signals::signalled() {
            130
        } else {
            1
        }
    })
}

/// Runs the double oracle (and writes `--curve`) and hands its answer to
/// `show`: the one run of `galac solve --solver do` and of Python's
/// `solve("do")`. An error says why the run failed, with the flag that
/// raises a limit it hit.
/// With `make` (a maker of copies of `game`) and two threads, a tree built
/// for the warm start is built without labels, and the labels by a second
/// build on another thread while the oracle runs ([`labels_meanwhile`]).
/// The whole run (the trees, the oracle's own walks) uses the game's
/// specialised copy when it has one: the oracle asks its game for sets in
/// the tree's interner, so one game must do both
/// ([`galac_runtime::tree::build_own`]), and the copy is the faster.
pub fn solve<G: Game, T>(
    game: &G,
    make: crate::Maker<G>,
    req: &Request,
    show: impl FnOnce(Shown<'_, '_>) -> T,
) -> Result<T, String> {
    let Some(fast) = game.specialised() else {
        return solve_with(game, make, req, show);
    };
    // The maker's copies have `game`'s params, so each has its specialised copy.
    let make_fast = || make.and_then(|make| make()).and_then(|copy| copy.specialised());
    let make_fast: crate::Maker<G::Specialised> = make.map(|_| &make_fast as _);
    solve_with(&fast, make_fast, req, show)
}

/// [`solve`] on `game` as given.
fn solve_with<G: Game, T>(
    game: &G,
    make: crate::Maker<G>,
    req: &Request,
    show: impl FnOnce(Shown<'_, '_>) -> T,
) -> Result<T, String> {
    let d = req.args;
    let (variant, backend) = checked_flags(req)?;
    let later = make.filter(|_| d.warm_start_cfr.is_some() && req.limits.threads_or_all() > 1);
    // Its own count covers the restricted game's tree, not the LPs' working
    // memory, nor the game states its warm start's build holds: the watch
    // bounds the whole.
    let _watch = req.limits.watch("the double oracle");
    let Start { mut tree, mut interner, tree_seconds, seed, default, warm_seconds } = start(game, req, later)?;
    // Seeded by CFR+ on the built tree, the restricted games hold much of
    // it: their LPs go to the engine the full LP would (HiGHS from the last
    // basis on a sparse one: liar's dice 1.0 s against clarabel's 1.6 s;
    // clarabel on a dense one, where HiGHS's simplex took minutes: 13-rank
    // Leduc; docs/perf/double-oracle.md).
    // From the paper's start on a large game, HiGHS from the last basis
    // ([`unseeded_lp_backend`]).
    let backend = match (backend, &tree) {
        (None, Some(tree)) if d.warm_start_cfr.is_some() => Some(super::lp::backend_for(tree)),
        (None, _) if d.warm_start_cfr.is_none() => super::oracle_default::unseeded_lp_backend(game),
        _ => backend,
    };
    let options = DoOptions {
        variant,
        backend,
        epsilon: d.do_epsilon,
        max_iterations: d.do_max_iterations.unwrap_or(u64::MAX),
        labels: tree.is_none(),
        max_nodes: req.limits.max_nodes,
        memory: req.limits.memory(),
        prune: !d.do_no_prune,
        seed,
        default,
        check_warm: false,
        cancel: Some(req.limits.cancel.clone().unwrap_or_default()),
    };
    let mut harness = Harness::new(&format!("do-{} iterations", variant.name()), None, req.stop, req.limits.quiet);
    // Ctrl-C or SIGTERM stops the run within its step (a restricted LP of
    // 13-rank Leduc takes HiGHS a minute), without an answer: the last
    // bounds may come from a pruned search not yet certified.
    if let Some(cancel) = &options.cancel {
        crate::signals::cancel_on_signal(cancel);
    }
    if let Some(path) = req.curve.filter(|p| *p != std::path::Path::new("-")) {
        harness.each = Some(curve_as_it_goes(path));
    }
    // With the tree, the oracle's bounds are certified by the answer's
    // check on it (`do_check::certifier`), made once.
    let slot = EvaluatorSlot::default();
    let mut certified = None;
    let (result, labelled) = {
        let threads = req.limits.threads_or_all();
        let mut certify = tree.as_ref().map(|tree| do_check::certifier(tree, &slot, threads, &mut certified));
        let certifier = certify.as_mut().map(|c| c as Certifier<'_>);
        let oracle = || solve_game_certified(game, &mut interner, &options, &mut harness, certifier);
        match (later, &tree) {
            (Some(make), Some(tree)) => labels_meanwhile(make, req.limits, tree, &slot, oracle),
            _ => (oracle(), None),
        }
    };
    let evaluator = slot.into_inner().unwrap_or_else(|e| e.into_inner());
    if let (Ok(_), Some(tree), Some(labelled)) = (&result, &mut tree, labelled) {
        tree.adopt_labels(labelled?)?;
    }
    harness.finish();
    // The report is made once, here, for any game: `show` is called
    // through `&mut dyn FnMut`, once.
    let mut show = Some(show);
    let mut shown = None;
    let check = (evaluator, certified);
    let run = Run { result, tree: tree.as_ref(), check, options: &options, variant, tree_seconds, warm_seconds };
    report(game.info(), run, req, &mut |answer| shown = show.take().map(|show| show(answer)))?;
    Ok(shown.expect("report shows the answer once it is made"))
}

/// What a run of the oracle gives its report.
struct Run<'a> {
    result: Result<DoSolution, SolveError>,
    /// The full tree, when it was built.
    tree: Option<&'a galac_runtime::tree::Tree>,
    /// The check's evaluator of `tree`, when it was made beside the oracle,
    /// and the check the oracle's certifier made last.
    check: (Option<Evaluator>, Option<Checked>),
    options: &'a DoOptions,
    variant: Variant,
    tree_seconds: f64,
    warm_seconds: f64,
}

/// The report of a run (writing `--curve`), handed to `show`; else why
/// the run failed, with the flag that raises a limit it hit.
fn report(
    info: &galac_runtime::game::GameInfo,
    run: Run<'_>,
    req: &Request,
    show: &mut dyn FnMut(Shown<'_, '_>),
) -> Result<(), String> {
    let Run { result, tree, check, options, variant, tree_seconds, warm_seconds } = run;
    let d = req.args;
    let interrupted = options.cancel.as_ref().and_then(|c| c.reason()) == Some(&Reason::Interrupted);
    let sol = result.map_err(|e| match e {
        SolveError::Cancelled | SolveError::Lp(LpError::Cancelled) if interrupted => INTERRUPTED.to_string(),
        // The default's choice rests on the leaves of a few random plays.
        SolveError::Unsupported { .. } if req.why.is_some() => format!(
            "{e}\nhint: the double oracle was chosen by default (the leaves of random plays were zero-sum); name \
             another solver: `--solver lemke` (two players, any payoffs) or `--solver cfr+` (any game)"
        ),
        e => with_hint(&e),
    })?;
    // `--curve`: one CSV row per iteration (bounds, restricted-game size, times).
    if let Some(path) = req.curve {
        crate::write_atomically(path, |mut f| std::io::Write::write_all(&mut f, curve_csv(&sol).as_bytes()))
            .map_err(|e| format!("cannot write `{}`: {e}", path.display()))?;
    }
    let mut used: Vec<&str> = sol.lp_backends.iter().map(|b| b.name()).collect();
    if used.is_empty() {
        used.push(options.lp_backend().name());
    }
    let solver = format!("double oracle (do-{}, lp {})", variant.name(), used.join("+"));
    let Some(tree) = tree else {
        let (text, json) = untreed_report(info, &sol, &solver, req)?;
        show(Shown::Untreed { text: &text, json: &json });
        return Ok(());
    };
    let notes: Vec<String> = req.why.iter().map(|why| format!("chosen because: {why}")).collect();
    let findings = fields(&Findings { double_oracle: summary(&sol) })?;
    // A text answer prints a few thousand sets: their labels are made as
    // it is written ([`Report::labels`]); JSON holds every set's.
    let whole = req.format == Format::Json || req.out.is_some();
    let threads = req.limits.threads_or_all();
    let (labels, profile, eval) = checked_with_labels(&sol, tree, whole, check, threads)?;
    let mut phases = phases(&sol);
    if d.warm_start_cfr.is_some() {
        phases.insert(0, ("warm start (cfr+)", warm_seconds));
    }
    let report = Report {
        info,
        tree,
        labels: labels.as_deref(),
        profile: &profile,
        unreached: &[],
        eval: &eval,
        solver: &solver,
        generate_seconds: tree_seconds,
        phases: &phases,
        notes: &notes,
        curve: None,
        findings: Some(&findings),
        sections: summary_text(&sol),
        exact: None,
        whole_nodes: None,
    };
    show(Shown::Report(&report));
    Ok(())
}

/// Seconds in each phase over the whole run.
fn phases(sol: &DoSolution) -> Vec<(&'static str, f64)> {
    let sum = |f: fn(&Iteration) -> f64| sol.iterations.iter().map(f).sum::<f64>();
    vec![
        ("expand", sum(|i| i.expand_seconds)),
        ("solve LP", sum(|i| i.lp_seconds)),
        ("best response", sum(|i| i.br_seconds)),
    ]
}

/// The oracle's own lines: bounds, gap, size.
fn summary_text(sol: &DoSolution) -> String {
    let last = sol.iterations.last().cloned().unwrap_or_default();
    let mut out = format!(
        "double oracle: {} iterations; bounds [{:.12}, {:.12}], gap {:.3e} (tolerance {:.3e}){}\n",
        sol.iterations.len(),
        sol.lower,
        sol.upper,
        sol.gap(),
        sol.tolerance,
        if sol.stalled {
            "; stalled: no new sequence with a gap left (LP round-off)"
        } else if sol.stopped {
            "; stopped before convergence"
        } else {
            ""
        }
    );
    out += &format!(
        "restricted game: {} + {} sequences, {} nodes ({} temporary leaves); {} nodes explored\n",
        last.sequences[0], last.sequences[1], last.nodes, last.temp_leaves, sol.explored
    );
    let [warm, cold] = sol.lp_starts;
    if warm > 0 {
        out += &format!(
            "restricted LPs: {warm} started from the last one's basis, {cold} from scratch; {} simplex iterations\n",
            sol.simplex_iterations
        );
    }
    out
}

/// The double oracle's own field of the `solve` JSON answer.
#[derive(serde::Serialize)]
pub struct Findings<'a> {
    pub double_oracle: Summary<'a>,
}
json_answers!(Findings<'_>);

/// The oracle's bounds, gap and per-iteration curve.
#[derive(serde::Serialize)]
pub struct Summary<'a> {
    pub lower: f64,
    pub upper: f64,
    pub gap: f64,
    pub tolerance: f64,
    pub stalled: bool,
    pub stopped: bool,
    pub explored: usize,
    pub iterations: &'a [Iteration],
}

/// The oracle's own JSON: bounds, gap and the per-iteration curve.
fn summary(sol: &DoSolution) -> Summary<'_> {
    Summary {
        lower: sol.lower,
        upper: sol.upper,
        gap: sol.gap(),
        tolerance: sol.tolerance,
        stalled: sol.stalled,
        stopped: sol.stopped,
        explored: sol.explored,
        iterations: &sol.iterations,
    }
}

/// The report without a tree: the oracle's bounds (its gap is the exact
/// NashConv) and the strategy at the sets the restricted game defines, as
/// text and as the `solve` JSON answer (one line).
fn untreed_report(
    info: &galac_runtime::game::GameInfo,
    sol: &DoSolution,
    solver: &str,
    req: &Request,
) -> Result<(String, String), String> {
    let notes: Vec<String> = req.why.iter().map(|why| format!("chosen because: {why}")).collect();
    let mut text = format!("game: {}\nsolver: {solver}\n", crate::title(info));
    for note in &notes {
        text += &format!("note: {note}\n");
    }
    text += &format!("value: {} in [{:.12}, {:.12}]\n", info.players[0], sol.lower, sol.upper);
    text += &format!("exploitability (NashConv, the oracle's own best responses): {:.3e}\n", sol.gap());
    text += &summary_text(sol);
    let phases = phases(sol);
    let times: Vec<String> = phases.iter().map(|(p, t)| format!("{p} {t:.4} s")).collect();
    text += &format!("time: {}\n", times.join(", "));
    for (p, name) in info.players.iter().enumerate() {
        text += &format!("\nstrategy of {name} (elsewhere: the first action):\n");
        for set in sol.labelled.iter().filter(|s| s.player.index() == p) {
            let acts: Vec<String> = set.actions.iter().zip(&set.probs).map(|(a, x)| format!("{a} {x:.3}")).collect();
            text += &format!("  {}: {}\n", set.label, acts.join(", "));
        }
    }
    let findings = fields(&Findings { double_oracle: summary(sol) })?;
    let answer = SolveJson {
        head: SolveHead {
            schema: SOLVE_SCHEMA,
            game: &info.name,
            params: crate::params_json(info),
            program: crate::report::program_hex(info),
            solver,
            notes: &notes,
            value: None,
            value_bounds: Some([sol.lower, sol.upper]),
            exploitability: Some(sol.gap()),
            best_response: None,
            nodes: None,
            infosets: None,
            seconds: crate::report::seconds_json(None, &phases),
            unreached: None,
        },
        strategy: Strategy::Labelled(&sol.labelled),
        tail: SolveTail { hands: None, curve: None, findings: Some(&findings), exact: None, note: None },
    };
    let json = crate::answer::json_line(&answer).map_err(|e| format!("the answer cannot be written as JSON: {e}"))?;
    Ok((text, json))
}
