//! `solve`: solve a game with the chosen solver (a
//! [`galac_solvers::solver::Solver`]), check the answer with an independent
//! best response, and show the strategies in the game's own terms.
//! `--strategy FILE` evaluates a given profile instead.

use std::path::PathBuf;

use galac_runtime::game::{Game, GameInfo};
use galac_runtime::ids::{IdSlice, InfosetId};
use galac_runtime::tree::Tree;
use galac_solvers::best_response::evaluate_on;
use galac_solvers::lp::Backend;
use galac_solvers::maxn::states::StateOptions;

use crate::registry::{self, Run, Shape, SolverId};
use crate::report::{emit_small, unique_labels, Report};
use crate::{Format, LimitArgs};

#[derive(clap::Args, Debug, Clone)]
pub struct SolveArgs {
    #[command(flatten)]
    pub limits: LimitArgs,
    /// The solver. By default it is chosen from the game: two players and
    /// a tree estimated at over 5,000,000 nodes: do (seeded by CFR+ on the
    /// tree under 200,000,000 when the opponent sees the first move only
    /// in part, as in blind tic-tac-toe); two players and
    /// zero-sum payoffs: lp; two players otherwise: lemke; perfect
    /// information with other numbers of players: maxn; otherwise cfr+.
    #[arg(long, value_parser = registry::parser())]
    pub solver: Option<SolverId>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Write the strategy profile as JSON to this file.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Evaluate this strategy profile (JSON, as written by --out) instead of solving.
    #[arg(long, value_name = "FILE")]
    pub strategy: Option<PathBuf>,
    /// With --strategy: information sets the file does not list get uniform play
    /// (they are counted in the report) instead of being an error.
    #[arg(long, requires = "strategy")]
    pub partial_strategy: bool,
    /// Iterative solvers (the CFR family, the double oracle): write the
    /// convergence curve to this file as CSV (it is also in the JSON answer).
    #[arg(long, value_name = "FILE")]
    pub curve: Option<PathBuf>,
    /// Also turn the answer into fractions (solved exactly on its supports
    /// in two-player zero-sum games, else rounded) and check them in exact
    /// arithmetic: the value as a fraction when they are an exact
    /// equilibrium, else an exact interval that holds it.
    #[arg(long)]
    pub exact: bool,
    #[command(flatten)]
    pub flags: registry::Flags,
}

impl SolveArgs {
    /// Whether the named solver explores the game itself (no tree).
    fn explores_the_game(&self) -> bool {
        self.solver.is_some_and(|row| matches!(row.run, Run::Game))
    }
}

/// A strategy file read for `--strategy`, as the answer the report shows.
fn given_strategy(
    info: &GameInfo,
    path: &std::path::Path,
    tree: &Tree,
    labels: &IdSlice<InfosetId, String>,
    partial: bool,
) -> Result<registry::Solved, String> {
    let loaded = crate::strategy_file::read(path, info, tree, labels, partial)?;
    let name = if loaded.filled.is_empty() {
        "given strategy".to_string()
    } else {
        format!(
            "given strategy ({} of {} information sets not in the file: uniform play there)",
            loaded.filled.len(),
            tree.infosets.len()
        )
    };
    let solution = galac_solvers::solver::Solution {
        profile: loaded.profile,
        unreached: Vec::new(),
        phases: Vec::new(),
        stopped: false,
    };
    Ok(registry::Solved { solution, name, notes: Vec::new(), curve: None, findings: None, distributed: None })
}

pub fn run<G: Game>(game: &G, args: &SolveArgs, make: crate::Maker<G>) -> i32 {
    if refuses_tree_file(args) || refuses_run_flags(args) || refuses_with_the_oracle(args) {
        return 2;
    }
    if !outputs_writable(args) {
        return 1;
    }
    if args.flags.cfr.checkpoint.is_some() {
        // From now on a signal stops the run at its next check (after the
        // tree is built) and the checkpoint is written, rather than lost.
        registry::harness::interrupted();
    }
    let states = args.flags.maxn.depth.is_some() || args.flags.maxn.transpositions;
    let untreed = untreed(game, args, states);
    if let Some(registry::Chosen { row, why, .. }) = &untreed {
        if refuses_run_flags_for(row, Some(why), args) {
            return 2;
        }
    }
    if let Some(code) = vector_without_tree(game, args, &untreed) {
        return code;
    }
    if args.explores_the_game() || untreed.is_some() {
        if let Err(msg) = args.flags.validate() {
            eprintln!("error: {msg}");
            return 2;
        }
        let f = &args.flags;
        let oracle = seeded(&f.double_oracle, untreed.as_ref());
        let req = registry::double_oracle::Request {
            args: &oracle,
            lp: &f.lp,
            stop: &f.stop,
            limits: &args.limits,
            curve: args.curve.as_deref(),
            format: args.format,
            out: args.out.as_deref(),
            why: untreed.map(|c| dropped_seed(c, &oracle)),
        };
        return registry::double_oracle::run(game, make, &req);
    }
    if states {
        return state_search(game, args);
    }
    if let Err(msg) = args.flags.validate().and_then(|()| args.flags.lp.backend().map(|_| ())) {
        eprintln!("error: {msg}");
        return 2;
    }
    // A distributed run starts its job first: each rank builds only its
    // shard of the tree (unless it reads a saved tree, whole).
    if args.flags.cfr.distributed && args.exact {
        eprintln!("error: `--exact` checks on the whole tree, which no rank of a `--distributed` run holds; drop one of the two flags");
        return 2;
    }
    let job = match args.flags.cfr.distributed {
        true => match crate::distributed::start() {
            Ok(job) => Some(job),
            Err(e) => {
                eprintln!("error: {e}");
                return 1;
            }
        },
        false => None,
    };
    let built = match &job {
        Some(job) if args.limits.tree.is_none() => crate::distributed::build_shard(&**job, game, &args.limits),
        _ => crate::build_tree(game, make, &args.limits, true),
    };
    let Some((tree, gen_seconds)) = built else {
        return 1;
    };
    solve_tree(game.info(), &tree, gen_seconds, args, job.as_deref())
}

/// `solve` on the built tree (in `gen_seconds`; with a distributed run's
/// `job`, the rank's shard): the answer, checked and reported; the exit
/// status.
fn solve_tree(
    info: &GameInfo,
    tree: &Tree,
    gen_seconds: f64,
    args: &SolveArgs,
    job: Option<&dyn galac_solvers::cfr::distributed::Collective>,
) -> i32 {
    // Before any collective whose size depends on the game or the flags.
    if let Some(Err(e)) = job.map(|job| crate::distributed::check_same_job(job, info, tree)) {
        eprintln!("error: {e}");
        return 1;
    }
    let labels = unique_labels(tree);
    let (solved, why) = match answer(info, args, tree, &labels, job) {
        Ok(answer) => answer,
        Err(code) => return code,
    };
    if crate::distributed::follower() {
        // Rank 0 of the job reports the answer every rank holds.
        return 0;
    }
    let mut notes: Vec<String> = why.map(|why| format!("chosen because: {why}")).into_iter().collect();
    notes.extend(solved.notes);
    let profile = &solved.solution.profile;
    // A distributed run's ranks evaluated the answer together (rank 0 may
    // hold only its shard).
    let eval = match &solved.distributed {
        Some(run) => run.evaluation.clone(),
        None => evaluate_on(tree, profile, args.limits.threads_or_all()),
    };
    let exact = args.exact.then(|| {
        let retry = args.strategy.is_none() && args.flags.lp.backend().ok() != Some(Some(Backend::Microlp));
        crate::exact::section(tree, profile, &labels, info, retry)
    });
    let (sections, exact) = exact.map_or((String::new(), None), |(text, json)| (text, Some(json)));
    let report = Report {
        info,
        tree,
        labels: Some(&labels),
        profile,
        unreached: &solved.solution.unreached,
        eval: &eval,
        solver: &solved.name,
        generate_seconds: gen_seconds,
        phases: &solved.solution.phases,
        notes: &notes,
        curve: solved.curve.as_deref(),
        findings: solved.findings.as_ref(),
        sections,
        exact,
        whole_nodes: solved.distributed.as_ref().and_then(|run| run.whole_nodes),
    };
    if report.emit(args.format, args.out.as_deref()) {
        0
    } else {
        1
    }
}

/// The answer to report on the built tree, and why its solver was chosen:
/// the `--strategy` file's, else the named solver's or the default's (the
/// registry's choice on the tree's shape). `Err` holds the exit code, the
/// error already printed.
fn answer(
    info: &GameInfo,
    args: &SolveArgs,
    tree: &Tree,
    labels: &IdSlice<InfosetId, String>,
    job: Option<&dyn galac_solvers::cfr::distributed::Collective>,
) -> Result<(registry::Solved, Option<String>), i32> {
    if let Some(path) = &args.strategy {
        return given_strategy(info, path, tree, labels, args.partial_strategy).map(|solved| (solved, None)).map_err(
            |msg| {
                eprintln!("error: {msg}");
                1
            },
        );
    }
    let (row, why) = match args.solver {
        Some(row) => (row, None),
        None => {
            let (row, why) = registry::default_for(&Shape::of(tree));
            (row, Some(why))
        }
    };
    if refuses_run_flags_for(row, why.as_deref(), args) {
        return Err(2);
    }
    let Run::Tree(run) = row.run else {
        eprintln!("error: `--solver {}` does not solve a built tree", row.name);
        return Err(1);
    };
    let cx = registry::Context { limits: &args.limits, curve: args.curve.as_deref(), job };
    run(&args.flags, tree, &cx).map(|solved| (solved, why)).map_err(|e| {
        eprintln!("error: {e}");
        1
    })
}

/// The oracle's flags with the default's seed, unless they say otherwise
/// (`--warm-start-cfr`, `--no-tree`).
fn seeded(
    flags: &registry::double_oracle::DoArgs,
    chosen: Option<&registry::Chosen>,
) -> registry::double_oracle::DoArgs {
    let mut oracle = flags.clone();
    if let Some(n) = chosen.and_then(|c| c.warm_start_cfr) {
        if oracle.warm_start_cfr.is_none() && !oracle.no_tree {
            oracle.warm_start_cfr = Some(n);
        }
    }
    oracle
}

/// Why the default was chosen, and where `--no-tree` took away its seed
/// (CFR+ runs on the tree) that the oracle runs from the paper's start.
fn dropped_seed(chosen: registry::Chosen, oracle: &registry::double_oracle::DoArgs) -> String {
    match (chosen.warm_start_cfr, oracle.warm_start_cfr) {
        (Some(_), None) => format!(
            "{}; `--no-tree` builds no tree for CFR+ to seed it, so the oracle starts from the paper's start",
            chosen.why
        ),
        _ => chosen.why,
    }
}

/// Vector CFR on a game whose public game is derived from the rules
/// (`registry::vcfr_on_rules`: named, or the default's choice before any
/// tree), never the tree. `None` when
/// `solve` goes on to build the tree.
fn vector_without_tree<G: Game>(game: &G, args: &SolveArgs, untreed: &Option<registry::Chosen>) -> Option<i32> {
    let vector = |row: SolverId| row.name.starts_with("vcfr");
    let named_vector = args.solver.is_some_and(vector)
        && args.strategy.is_none()
        && !args.exact
        && args.limits.tree.is_none()
        && galac_runtime::tree::estimate(game, registry::VCFR_TREELESS_NODES)
            .is_some_and(|e| registry::vcfr_on_rules(game, e.nodes))
        && !(args.curve.is_some() && tree_fits(game));
    if !(named_vector || untreed.as_ref().is_some_and(|c| vector(c.row))) {
        return None;
    }
    if let Err(msg) = args.flags.validate() {
        eprintln!("error: {msg}");
        return Some(2);
    }
    if args.curve.is_some() {
        eprintln!("error: `--curve` is written on the built tree; this game's is too large for vector CFR to build");
        return Some(2);
    }
    let row = untreed.as_ref().map_or_else(|| args.solver.expect("named"), |c| c.row);
    let variant =
        if row.name == "vcfr+" { galac_solvers::cfr::Variant::CfrPlus } else { galac_solvers::vector::POSTFLOP_DCFR };
    let req = registry::vcfr::GameRequest {
        cfr: &args.flags.cfr,
        stop: &args.flags.stop,
        variant,
        limits: &args.limits,
        format: args.format,
        out: args.out.as_deref(),
        why: untreed.as_ref().map(|c| c.why.clone()),
    };
    Some(registry::vcfr::run_game(game, &req))
}

/// Without `--solver`, the registry's choice before any tree (a
/// two-player game too large for the LP's tree goes to the double oracle,
/// a hand game to vector CFR on its rules). `--curve` is written on the
/// built tree: vector CFR on the rules of a game whose tree fits
/// (`VCFR_TREELESS_NODES`) gives way to the tree.
fn untreed<G: Game>(game: &G, args: &SolveArgs, states: bool) -> Option<registry::Chosen> {
    let chosen = args.solver.is_none() && args.strategy.is_none() && !args.exact && args.limits.tree.is_none();
    let untreed = (chosen && !states).then(|| registry::default_before_tree(game)).flatten();
    untreed.filter(|c| !(c.row.name == "vcfr" && args.curve.is_some() && tree_fits(game)))
}

/// Whether the game's tree is estimated under `VCFR_TREELESS_NODES` (so
/// that vector CFR may build it).
fn tree_fits<G: Game>(game: &G) -> bool {
    galac_runtime::tree::estimate(game, registry::VCFR_TREELESS_NODES)
        .is_some_and(|e| e.nodes < registry::VCFR_TREELESS_NODES)
}

/// Whether every file the run will write (`--out`, `--curve`,
/// `--checkpoint`) can be written, checked before the work starts so that
/// a bad path loses no run; false after the message.
fn outputs_writable(args: &SolveArgs) -> bool {
    let outputs = [("--out", &args.out), ("--curve", &args.curve), ("--checkpoint", &args.flags.cfr.checkpoint)];
    for (flag, path) in outputs {
        let Some(path) = path else { continue };
        if let Err(e) = crate::check_writable(path) {
            eprintln!("error: cannot write `{}` ({flag}): {e}", path.display());
            return false;
        }
    }
    true
}

/// Refuses `--exact` and `--strategy` with `--solver do` (both need the
/// full tree the oracle does without); after the message.
fn refuses_with_the_oracle(args: &SolveArgs) -> bool {
    if !args.explores_the_game() || !(args.strategy.is_some() || args.exact) {
        return false;
    }
    let flag = if args.exact { "--exact` checks on the full tree" } else { "--strategy` evaluates a given profile" };
    let name = args.solver.map_or("", |row| row.name);
    eprintln!("error: `{flag}; use it without `--solver {name}`");
    true
}

/// Refuses, rather than ignores, a run flag given with `--solver` naming a
/// solver that does not read it; after the message.
fn refuses_run_flags(args: &SolveArgs) -> bool {
    let Some(row) = args.solver else { return false };
    let Some(flag) = registry::refused_flag(row, &args.flags) else { return false };
    let (readers, _) = registry::readers(flag);
    eprintln!("error: `{flag}` is read by {readers}, not by `--solver {}`; drop it", row.name);
    true
}

/// Refuses a run flag when the solver chosen for the game (`why` it was
/// chosen: no `--solver`) does not read it; after the message.
fn refuses_run_flags_for(row: SolverId, why: Option<&str>, args: &SolveArgs) -> bool {
    let Some(why) = why else { return false };
    let Some(flag) = registry::refused_flag(row, &args.flags) else { return false };
    let (readers, suggest) = registry::readers(flag);
    eprintln!(
        "error: `{flag}` is read by {readers}, not by the solver chosen for this game ({why}); name one with \
         `--solver {suggest}` or drop the flag"
    );
    true
}

/// `--tree FILE` with a solver that never reads a tree: the double oracle
/// explores the game itself (a tree it builds only checks the answer, with
/// set ids from its own interner, which a saved tree's ids do not share),
/// and `--depth` / `--transpositions` search the game's states. Refused
/// rather than silently ignored: true after the message.
fn refuses_tree_file(args: &SolveArgs) -> bool {
    let Some(file) = &args.limits.tree else { return false };
    let maxn = &args.flags.maxn;
    let other = if let Some(row) = args.solver.filter(|_| args.explores_the_game()) {
        format!("`--solver {}` explores the game itself and never reads a saved tree", row.name)
    } else if maxn.depth.is_some() {
        "`--depth` searches the game's states and never reads a saved tree".into()
    } else if maxn.transpositions {
        "`--transpositions` searches the game's states and never reads a saved tree".into()
    } else {
        return false;
    };
    eprintln!("error: `--tree {}` cannot be used here: {other}; drop one of the two flags", file.display());
    true
}

/// `--depth` / `--transpositions`: max^n over the game's states, no tree.
fn state_search<G: Game>(game: &G, args: &SolveArgs) -> i32 {
    // The search reads no other run flag and draws no curve; another
    // `--solver` was refused with the flags it does not read.
    let flag = registry::refused_by(registry::MAXN_STATE_FLAGS, &args.flags).or(args.curve.as_ref().map(|_| "--curve"));
    if let Some(flag) = flag {
        eprintln!("error: `{flag}` is not read by max^n's search over states (`--depth`, `--transpositions`); drop it");
        return 2;
    }
    if args.strategy.is_some() {
        eprintln!(
            "error: `--depth` and `--transpositions` are max^n's search over states; use them without `--strategy`"
        );
        return 2;
    }
    let maxn = &args.flags.maxn;
    let options = StateOptions { transpositions: maxn.transpositions, depth: maxn.depth, memory: args.limits.memory() };
    match registry::maxn::state_search(game, maxn.ties(), options) {
        Ok(report) => emit_small(args.format, args.out.as_deref(), &report.text, &report.json),
        Err(e) => {
            eprintln!("error: {}", registry::with_hint(&e));
            1
        }
    }
}
