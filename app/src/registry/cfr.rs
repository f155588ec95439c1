//! The CFR family (`--solver cfr|cfr+|dcfr|lcfr|pcfr+`): its flags, its
//! checkpoints and its run through the [`Harness`]. The algorithms live in
//! `galac_solvers::cfr`; this module only drives them.

use std::path::PathBuf;

use galac_runtime::tree::Tree;
use galac_solvers::cfr::{Cfr, CfrConfig, CfrSolver, CfrState, Checks, Fingerprint, Variant};

use super::harness::{Harness, Point, StopArgs};
use super::solved::{with_hint, Context, DistributedRun, Solved};

/// Flags of the CFR solvers (refused with the others: the registry's `RUN_FLAGS`).
#[derive(clap::Args, Debug, Clone)]
pub struct CfrArgs {
    /// CFR: stop after this many iterations in all (default 1000 when no
    /// other stop rule is given; a resumed run counts its earlier ones).
    #[arg(long, value_name = "N")]
    pub iterations: Option<u64>,
    /// CFR: compute the exact exploitability every N iterations (0, the
    /// default: as often as costs about a tenth of the run).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub check_every: u64,
    /// CFR: save the run's state to this file when it stops.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// CFR: continue the run saved in this file (same game and solver).
    #[arg(long, value_name = "FILE")]
    pub resume: Option<PathBuf>,
    /// CFR: update the players one after the other (alternating) or all at
    /// once (simultaneous). Default: simultaneous for cfr, alternating for
    /// the others (OpenSpiel's CFRSolver alternates: `--updates alternating`).
    #[arg(long, value_enum, value_name = "ORDER")]
    pub updates: Option<Updates>,
    /// DCFR: the discount exponent of positive regrets.
    #[arg(long, value_name = "X", default_value_t = 1.5)]
    pub alpha: f64,
    /// DCFR: the discount exponent of negative regrets.
    #[arg(long, value_name = "X", default_value_t = 0.0)]
    pub beta: f64,
    /// DCFR and PCFR+: iteration t weighs t^gamma in the average strategy.
    #[arg(long, value_name = "X", default_value_t = 2.0)]
    pub gamma: f64,
    /// CFR: share the run among the ranks of an MPI job (`mpirun -np R
    /// galac solve ... --distributed`, galac built with the `mpi`
    /// feature); the answer is the same bit for bit for any R.
    #[arg(long)]
    pub distributed: bool,
    /// Vector CFR: keep the regrets and average sums in 16 bits an entry
    /// (a scale per decision), as postflop-solver's compression does:
    /// half the solve's arrays, for an answer a little coarser.
    #[arg(long)]
    pub compress: bool,
}

/// The order of the players' updates within an iteration.
#[derive(Clone, Copy, Debug, clap::ValueEnum, PartialEq, Eq)]
pub enum Updates {
    Alternating,
    Simultaneous,
}

/// Iterations of a run that no stop rule ends otherwise.
pub const DEFAULT_ITERATIONS: u64 = 1000;

impl CfrArgs {
    /// Checks the flags before the tree is built.
    pub fn validate(&self) -> Result<(), String> {
        if self.iterations == Some(0) {
            return Err("--iterations must be at least 1".into());
        }
        for (flag, x) in [("--alpha", self.alpha), ("--beta", self.beta), ("--gamma", self.gamma)] {
            if !x.is_finite() {
                return Err(format!("{flag} must be a finite number"));
            }
        }
        Ok(())
    }

    /// How vector CFR keeps its regrets and sums (`--compress`).
    pub fn storage(&self) -> galac_solvers::vector::Storage {
        use galac_solvers::vector::Storage;
        if self.compress {
            Storage::Compressed
        } else {
            Storage::F32
        }
    }

    /// The iterations to run (`--iterations`; without it and without a
    /// stop rule, [`DEFAULT_ITERATIONS`]; with a stop rule, until it
    /// stops) and when to check the exploitability (`--check-every`, or
    /// the schedule's own choice for `--target-exploitability`), as every
    /// CFR-family run reads them.
    pub fn schedule(&self, stop: &StopArgs) -> (u64, Checks) {
        let no_rule = stop.target_exploitability.is_none() && stop.time_limit.is_none();
        let iterations = self.iterations.unwrap_or(if no_rule { DEFAULT_ITERATIONS } else { u64::MAX });
        let checks = match self.check_every {
            0 => Checks::Auto { target: stop.target_exploitability },
            k => Checks::Every(k),
        };
        (iterations, checks)
    }
}

/// Runs the variant on `tree`: reads the checkpoint to resume, draws the
/// progress line on a terminal, writes the checkpoint and the curve file.
pub fn run(args: &CfrArgs, stop: &StopArgs, variant: Variant, tree: &Tree, cx: &Context) -> Result<Solved, String> {
    let (iterations, checks) = args.schedule(stop);
    let mut config = CfrConfig::new(variant, iterations);
    // All cores by default: the solver times one thread against two
    // while it runs and keeps the faster (the answer is the same).
    config.threads = cx.limits.threads_or_all();
    config.memory = cx.limits.memory();
    config.checks = checks;
    if let Some(order) = args.updates {
        config.alternating = order == Updates::Alternating;
    }
    let fingerprint = Fingerprint::of(tree, &variant);
    let job = match (args.distributed, cx.job) {
        (true, Some(job)) => {
            // One thread per rank: the job's ranks are its parallelism.
            config.threads = 1;
            Some(job)
        }
        (true, None) => return Err("`--distributed` runs a job started before the tree is built".into()),
        (false, _) => None,
    };
    // A distributed run's checkpoints: one file per rank (each holds the
    // fingerprint of its shard), named for the rank and the rank count.
    let rank_file = |path: &PathBuf| match job {
        Some(job) => crate::distributed::rank_file(path, job.rank(), job.size()),
        None => path.clone(),
    };
    let read_resume = || -> Result<Option<CfrState>, String> {
        let Some(path) = &args.resume else { return Ok(None) };
        let path = rank_file(path);
        if let (Some(job), false) = (job, path.exists()) {
            return Err(crate::distributed::missing_rank_file(args.resume.as_deref().unwrap_or(&path), job.size()));
        }
        let bytes = crate::read_bounded(&path, cx.limits.memory().bytes())?;
        let state = CfrState::from_bytes(&bytes, &fingerprint).map_err(|e| format!("`{}`: {e}", path.display()))?;
        Ok(Some(state))
    };
    let resume = match job {
        Some(job) => crate::distributed::agreed(job, read_resume())?,
        None => read_resume()?,
    };
    let solver = CfrSolver { config, resume };
    let leader = !crate::distributed::follower();
    let mut notes = Vec::new();
    let mut harness = Harness::new("iterations", Some(iterations), stop, cx.limits.quiet || !leader);
    harness.cancel = cx.limits.cancel.clone();
    // Its arrays are estimated before they are made; the watch holds the
    // whole process (the tree's check, the evaluator) to the limit too.
    let watch = cx.limits.watch("the CFR solver");
    let mut distributed = None;
    let result = match job {
        Some(job) => {
            let cfr =
                Cfr::new_distributed(tree, solver.config.clone(), solver.resume.clone()).map_err(|e| with_hint(&e));
            let cfr = crate::distributed::agreed(job, cfr)?;
            let (solution, state, traffic) = cfr.run_distributed(&mut harness, job);
            let per_iteration = traffic.bytes / traffic.iterations.max(1);
            let ranks = if job.size() == 1 { "1 rank".to_string() } else { format!("{} ranks", job.size()) };
            notes.push(format!(
                "distributed over {ranks} (MPI): {per_iteration} bytes a rank into the collectives an iteration"
            ));
            let (note, whole_nodes) = crate::distributed::shard_note(job, tree, cx.limits.tree.is_none());
            notes.push(note);
            distributed = Some(DistributedRun { evaluation: traffic.evaluation, whole_nodes });
            Ok((solution, state))
        }
        None => solver.run(tree, &mut harness).map_err(|e| with_hint(&e)),
    };
    drop(watch);
    harness.finish();
    let (solution, state) = result?;
    if let Some(path) = &args.checkpoint {
        // Every rank writes its own file.
        let path = &rank_file(path);
        let bytes = state.to_bytes(&fingerprint);
        crate::write_atomically(path, |mut f| std::io::Write::write_all(&mut f, &bytes))
            .map_err(|e| format!("cannot write `{}`: {e}", path.display()))?;
    }
    if !leader {
        let name = galac_solvers::solver::Solver::name(&solver);
        return Ok(Solved { name, solution, notes: Vec::new(), curve: None, findings: None, distributed });
    }
    if let Some(path) = cx.curve {
        let csv = curve_csv(&harness.curve, &tree.player_names);
        crate::write_atomically(path, |mut f| std::io::Write::write_all(&mut f, csv.as_bytes()))
            .map_err(|e| format!("cannot write `{}`: {e}", path.display()))?;
    }
    let stopped = if solution.stopped { ", stopped" } else { "" };
    let name = galac_solvers::solver::Solver::name(&solver);
    Ok(Solved {
        name: format!("{name} ({} iterations{stopped})", state.iteration),
        solution,
        notes,
        curve: Some(harness.curve),
        findings: None,
        distributed,
    })
}

/// The curve as CSV: a header, then one line per check.
pub fn curve_csv(curve: &[Point], players: &[String]) -> String {
    let mut out = String::from("iteration,seconds");
    for p in players {
        out += &format!(",exploitability_{p}");
    }
    out += ",nash_conv";
    for p in players {
        out += &format!(",value_{p}");
    }
    out.push('\n');
    for pt in curve {
        out += &format!("{},{:.6}", pt.iteration, pt.seconds);
        for e in &pt.exploitability {
            out += &format!(",{e:.9e}");
        }
        out += &format!(",{:.9e}", pt.nash_conv);
        for v in &pt.values {
            out += &format!(",{v:.9}");
        }
        out.push('\n');
    }
    out
}
