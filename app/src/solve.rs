//! `solve`: solve a game with the chosen solver (a
//! [`galac_solvers::solver::Solver`]), check the answer with an independent
//! best response, and show the strategies in the game's own terms.
//! `--strategy FILE` evaluates a given profile instead.

use std::path::PathBuf;

use galac_runtime::game::Game;
use galac_runtime::tree::Tree;
use galac_solvers::best_response::evaluate;
use galac_solvers::lp::{Backend, LpSolver};
use galac_solvers::maxn::{states::StateOptions, Ties};
use galac_solvers::solver::{RunToEnd, Solver};
use galac_solvers::Profile;

use galac_solvers::cfr::Variant;

use crate::choose::{self, Choice};
pub use crate::report::unique_labels;
pub(crate) use crate::report::Report;
use crate::{Format, LimitArgs};

#[derive(clap::Args, Debug, Clone)]
pub struct SolveArgs {
    #[command(flatten)]
    pub limits: LimitArgs,
    /// The solver. By default it is chosen from the game: two players and
    /// zero-sum payoffs: lp; two players otherwise: lemke; perfect
    /// information with other numbers of players: maxn; otherwise cfr+.
    #[arg(long, value_enum)]
    pub solver: Option<SolverName>,
    /// max^n's tie rule: first (the first best child in move order) or
    /// average (the mean vector of the tied children, played uniformly).
    #[arg(long, value_enum, default_value_t = TieRule::First)]
    pub ties: TieRule,
    /// max^n over the game's own states (no tree is built) with a
    /// transposition table: equal positions are searched once. Reports the
    /// root vector, the first move and the counts.
    #[arg(long)]
    pub transpositions: bool,
    /// max^n look-ahead over the game's states (no tree is built): search N
    /// moves deep and value the nodes there with the game's `evaluate` fn
    /// (see docs/language.md).
    #[arg(long, value_name = "N")]
    pub depth: Option<u32>,
    /// The LP backend: microlp (pure-Rust simplex), clarabel (pure-Rust
    /// interior point), or highs (when built with the `highs` feature).
    #[arg(long, default_value = "clarabel", value_name = "NAME")]
    pub lp_backend: String,
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
    pub cfr: crate::cfr::CfrArgs,
    #[command(flatten)]
    pub double_oracle: crate::double_oracle::DoArgs,
}

#[derive(Clone, Copy, Debug, clap::ValueEnum, PartialEq, Eq)]
pub enum SolverName {
    /// The sequence-form linear program (two-player zero-sum games).
    Lp,
    /// max^n (perfect-information games, any number of players).
    Maxn,
    /// Lemke's algorithm on the sequence form (two-player games, any payoffs).
    Lemke,
    /// Vanilla CFR (regret matching, uniform average; any number of players).
    Cfr,
    /// CFR+ (regret matching+, alternating updates, linear average).
    #[value(name = "cfr+")]
    CfrPlus,
    /// Discounted CFR (--alpha, --beta, --gamma).
    Dcfr,
    /// Linear CFR.
    Lcfr,
    /// Predictive CFR+ (average weight t^gamma, --gamma).
    #[value(name = "pcfr+")]
    PcfrPlus,
    /// The sequence-form double oracle (two-player zero-sum games): exact,
    /// from a restricted game explored lazily, without the full tree.
    Do,
}

/// max^n's tie rule, as the flag names it.
#[derive(Clone, Copy, Debug, clap::ValueEnum, PartialEq, Eq)]
pub enum TieRule {
    First,
    Average,
}

impl SolveArgs {
    /// The LP solver the flags ask for, or why they are wrong.
    fn solver(&self) -> Result<Box<dyn Solver>, String> {
        Ok(Box::new(LpSolver { backend: self.backend()? }))
    }

    /// The LP backend the flags name, or why it is wrong.
    pub(crate) fn backend(&self) -> Result<Backend, String> {
        Backend::from_name(&self.lp_backend).ok_or_else(|| {
            let names: Vec<&str> = Backend::ALL.iter().map(|b| b.name()).collect();
            format!("unknown LP backend `{}`; available: {}", self.lp_backend, names.join(", "))
        })
    }

    fn ties(&self) -> Ties {
        match self.ties {
            TieRule::First => Ties::First,
            TieRule::Average => Ties::Average,
        }
    }

    /// The solver `--solver` names, if any.
    fn choice(&self) -> Option<Choice> {
        self.solver.map(|s| match s {
            SolverName::Lp => Choice::Lp,
            SolverName::Maxn => Choice::Maxn(self.ties()),
            SolverName::Lemke => Choice::Lemke,
            // `run` hands the double oracle its own run before this.
            SolverName::Do => Choice::Lp,
            cfr => Choice::Cfr(self.cfr.variant(cfr).unwrap_or(Variant::CfrPlus)),
        })
    }
}

/// A strategy file read for `--strategy`, and how the report names it.
fn given_strategy<G: Game>(
    game: &G,
    path: &std::path::Path,
    tree: &Tree,
    labels: &[String],
    partial: bool,
) -> Result<(Profile, String), String> {
    let loaded = crate::strategy_file::read(path, game.info(), tree, labels, partial)?;
    let name = if loaded.filled.is_empty() {
        "given strategy".to_string()
    } else {
        format!(
            "given strategy ({} of {} information sets not in the file: uniform play there)",
            loaded.filled.len(),
            tree.infosets.len()
        )
    };
    Ok((loaded.profile, name))
}

pub fn run<G: Game>(game: &G, args: &SolveArgs, make: crate::Maker<G>) -> i32 {
    if refuses_tree_file(args) || refuses_cfr_flags(args) || refuses_with_the_oracle(args) {
        return 2;
    }
    if args.solver == Some(SolverName::Do) {
        return crate::double_oracle::run(game, args);
    }
    if args.depth.is_some() || args.transpositions {
        return state_search(game, args);
    }
    let solver = match args.cfr.validate().and_then(|()| args.solver()) {
        Ok(s) => s,
        Err(msg) => {
            eprintln!("error: {msg}");
            return 2;
        }
    };
    let Some((tree, gen_seconds)) = crate::build_tree(game, make, &args.limits, true) else {
        return 1;
    };
    let labels = unique_labels(&tree);
    let mut notes = Vec::new();
    let mut curve = None;
    let mut fields = Vec::new();
    let (profile, unreached, solver_name, phases) = match &args.strategy {
        Some(path) => match given_strategy(game, path, &tree, &labels, args.partial_strategy) {
            Ok((profile, name)) => (profile, Vec::new(), name, Vec::new()),
            Err(msg) => {
                eprintln!("error: {msg}");
                return 1;
            }
        },
        None => {
            let (choice, why) = match args.choice() {
                Some(c) => (c, None),
                None => match choose::auto(&tree, args.ties(), args.cfr.variant(SolverName::CfrPlus)) {
                    Ok((c, why)) => (c, Some(why)),
                    Err(msg) => {
                        eprintln!("error: {msg}");
                        return 1;
                    }
                },
            };
            if refuses_cfr_flags_for(&choice, why.as_deref(), args) {
                return 2;
            }
            let solved = match choice {
                Choice::Lp => {
                    let _spinner = crate::progress::spinner("solving the sequence-form LP", args.limits.quiet);
                    solver.solve(&tree, &mut RunToEnd)
                }
                .map_err(|e| e.to_string())
                .map(|sol| choose::Answer {
                    profile: sol.profile,
                    unreached: sol.unreached,
                    name: solver.name(),
                    phases: sol.phases,
                    notes: Vec::new(),
                    json: Vec::new(),
                }),
                // The CFR family runs through `CfrArgs::run`, which keeps the
                // curve and the checkpoint.
                Choice::Cfr(variant) => args.cfr.run(&tree, variant, &args.limits, args.curve.as_deref()).map(|run| {
                    let stopped = if run.solution.stopped { ", stopped" } else { "" };
                    let name = format!("{} ({} iterations{stopped})", run.name, run.iterations);
                    curve = Some(run.curve);
                    choose::Answer {
                        profile: run.solution.profile,
                        unreached: run.solution.unreached,
                        name,
                        phases: run.solution.phases,
                        notes: Vec::new(),
                        json: Vec::new(),
                    }
                }),
                _ => choose::run(choice, &tree),
            };
            match solved {
                Ok(a) => {
                    if let Some(why) = why {
                        notes.push(format!("chosen because: {why}"));
                    }
                    notes.extend(a.notes);
                    fields = a.json;
                    (a.profile, a.unreached, a.name, a.phases)
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    return 1;
                }
            }
        }
    };
    let eval = evaluate(&tree, &profile);
    let exact = args.exact.then(|| {
        let retry = args.strategy.is_none() && args.backend().ok() != Some(Backend::Microlp);
        crate::exact::section(&tree, &profile, &labels, game.info(), retry)
    });
    let report = Report {
        info: game.info(),
        tree: &tree,
        labels: &labels,
        profile: &profile,
        unreached: &unreached,
        eval: &eval,
        solver: &solver_name,
        generate_seconds: gen_seconds,
        phases: &phases,
        notes: &notes,
        curve: curve.as_deref(),
        fields: &fields,
        extra: exact.map(|(text, json)| (text, "exact", json)),
    };
    if report.emit(args.format, args.out.as_deref()) {
        0
    } else {
        1
    }
}

/// Refuses `--exact` and `--strategy` with `--solver do` (both need the
/// full tree the oracle does without); after the message.
fn refuses_with_the_oracle(args: &SolveArgs) -> bool {
    if args.solver != Some(SolverName::Do) || !(args.strategy.is_some() || args.exact) {
        return false;
    }
    let flag = if args.exact { "--exact` checks on the full tree" } else { "--strategy` evaluates a given profile" };
    eprintln!("error: `{flag}; use it without `--solver do`");
    true
}

/// Refuses, rather than ignores, a CFR flag given with `--solver` naming a
/// solver that does not use it (`--time-limit` also bounds the double
/// oracle); after the message.
fn refuses_cfr_flags(args: &SolveArgs) -> bool {
    let Some(name) = args.solver.filter(|&n| args.cfr.variant(n).is_none()) else { return false };
    let Some(flag) = cfr_flag_given(&args.cfr, name == SolverName::Do) else { return false };
    let solver = clap::ValueEnum::to_possible_value(&name).map(|v| v.get_name().to_string()).unwrap_or_default();
    eprintln!("error: `{flag}` is a flag of the CFR solvers, and `--solver {solver}` does not use it; drop it");
    true
}

/// Refuses a CFR flag when the solver chosen for the game (`why` it was
/// chosen: no `--solver`) is not CFR; after the message.
fn refuses_cfr_flags_for(choice: &Choice, why: Option<&str>, args: &SolveArgs) -> bool {
    let (Some(why), Some(flag)) = (why, cfr_flag_given(&args.cfr, false)) else { return false };
    if matches!(choice, Choice::Cfr(_)) {
        return false;
    }
    eprintln!(
        "error: `{flag}` is a flag of the CFR solvers, and the solver chosen for this game ({why}) is not one; \
         name one with `--solver cfr+` or drop the flag"
    );
    true
}

/// The first CFR-only flag given, if any (`--time-limit` not counted when
/// the solver keeps it too).
fn cfr_flag_given(c: &crate::cfr::CfrArgs, time_limit_kept: bool) -> Option<&'static str> {
    let given = [
        ("--iterations", c.iterations.is_some()),
        ("--target-exploitability", c.target_exploitability.is_some()),
        ("--time-limit", c.time_limit.is_some() && !time_limit_kept),
        ("--check-every", c.check_every != 0),
        ("--checkpoint", c.checkpoint.is_some()),
        ("--resume", c.resume.is_some()),
        ("--updates", c.updates.is_some()),
    ];
    given.iter().find(|(_, set)| *set).map(|(flag, _)| *flag)
}

/// `--tree FILE` with a solver that never reads a tree: the double oracle
/// explores the game itself (a tree it builds only checks the answer, with
/// set ids from its own interner, which a saved tree's ids do not share),
/// and `--depth` / `--transpositions` search the game's states. Refused
/// rather than silently ignored: true after the message.
fn refuses_tree_file(args: &SolveArgs) -> bool {
    let Some(file) = &args.limits.tree else { return false };
    let other = if args.solver == Some(SolverName::Do) {
        "`--solver do` explores the game itself and never reads a saved tree"
    } else if args.depth.is_some() {
        "`--depth` searches the game's states and never reads a saved tree"
    } else if args.transpositions {
        "`--transpositions` searches the game's states and never reads a saved tree"
    } else {
        return false;
    };
    eprintln!("error: `--tree {}` cannot be used here: {other}; drop one of the two flags", file.display());
    true
}

/// A small report (built whole): its JSON to `--out` when given, then the
/// report in the chosen format; the exit status (1 after the message when
/// `--out` cannot be written).
pub(crate) fn emit_small(args: &SolveArgs, text: &str, json: &serde_json::Value) -> i32 {
    if let Some(out) = &args.out {
        let line = format!("{json}\n");
        if let Err(e) = crate::write_atomically(out, |mut f| std::io::Write::write_all(&mut f, line.as_bytes())) {
            eprintln!("error: cannot write `{}`: {e}", out.display());
            return 1;
        }
    }
    match args.format {
        Format::Text => crate::emit(text),
        Format::Json => crate::emit(&format!("{json}\n")),
    }
    0
}

/// `--depth` / `--transpositions`: max^n over the game's states, no tree.
fn state_search<G: Game>(game: &G, args: &SolveArgs) -> i32 {
    if args.solver.is_some_and(|s| s != SolverName::Maxn) || args.strategy.is_some() {
        eprintln!(
            "error: `--depth` and `--transpositions` are max^n's search over states; use them without another \
             `--solver` or `--strategy`"
        );
        return 2;
    }
    let options = StateOptions {
        transpositions: args.transpositions,
        depth: args.depth,
        max_bytes: Some(args.limits.max_memory.saturating_mul(1 << 20)),
    };
    match choose::state_search(game, args.ties(), options) {
        Ok(report) => emit_small(args, &report.text, &report.json),
        Err(msg) => {
            eprintln!("error: {msg}");
            if msg.contains("MiB allowed") {
                eprintln!("hint: raise the limit with --max-memory");
            }
            1
        }
    }
}
