//! `solve --solver cfr|cfr+|dcfr|lcfr|pcfr+`: the CFR family's flags, stop
//! rules (iterations, target exploitability, time limit, Ctrl-C), progress
//! bar (progress.rs), convergence curve and checkpoints. The algorithms live in
//! `galac_solvers::cfr`; this module only drives them.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use galac_runtime::tree::Tree;
use galac_solvers::cfr::{CfrConfig, CfrSolver, CfrState, Checks, Fingerprint, Variant};
use galac_solvers::solver::{Control, Observer, Progress, Solution};

/// Flags of the CFR solvers (ignored by the others).
#[derive(clap::Args, Debug, Clone)]
pub struct CfrArgs {
    /// CFR: stop after this many iterations in all (default 1000 when no
    /// other stop rule is given; a resumed run counts its earlier ones).
    #[arg(long, value_name = "N")]
    pub iterations: Option<u64>,
    /// CFR: stop once the exact NashConv of the average strategy is at most E.
    #[arg(long, value_name = "E")]
    pub target_exploitability: Option<f64>,
    /// CFR and the double oracle: stop after this many seconds (the answer
    /// is CFR's current average, the oracle's best profile so far).
    #[arg(long, value_name = "SECONDS")]
    pub time_limit: Option<f64>,
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
}

/// The order of the players' updates within an iteration.
#[derive(Clone, Copy, Debug, clap::ValueEnum, PartialEq, Eq)]
pub enum Updates {
    Alternating,
    Simultaneous,
}

/// One point of the convergence curve.
#[derive(Clone, Debug)]
pub struct Point {
    pub iteration: u64,
    pub seconds: f64,
    /// Per player: best-response value minus value.
    pub exploitability: Vec<f64>,
    pub nash_conv: f64,
    pub values: Vec<f64>,
}

/// What a CFR run returns besides its answer.
pub struct CfrRun {
    pub solution: Solution,
    pub name: String,
    pub curve: Vec<Point>,
    pub iterations: u64,
}

/// Set once Ctrl-C was pressed; the handler is installed once per process.
fn interrupted() -> Arc<AtomicBool> {
    static FLAG: std::sync::OnceLock<Arc<AtomicBool>> = std::sync::OnceLock::new();
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let set = flag.clone();
        // Without a handler Ctrl-C kills the run; with one it stops cleanly.
        let _ = ctrlc::set_handler(move || set.store(true, Ordering::SeqCst));
        flag
    })
    .clone()
}

impl CfrArgs {
    /// The variant for a solver name.
    pub fn variant(&self, name: crate::solve::SolverName) -> Option<Variant> {
        use crate::solve::SolverName as S;
        Some(match name {
            S::Cfr => Variant::Cfr,
            S::CfrPlus => Variant::CfrPlus,
            S::Dcfr => Variant::Dcfr { alpha: self.alpha, beta: self.beta, gamma: self.gamma },
            S::Lcfr => Variant::Lcfr,
            S::PcfrPlus => Variant::PcfrPlus { gamma: self.gamma },
            _ => return None,
        })
    }

    /// Checks the flags before the tree is built.
    pub fn validate(&self) -> Result<(), String> {
        if self.iterations == Some(0) {
            return Err("--iterations must be at least 1".into());
        }
        if let Some(e) = self.target_exploitability {
            if !(e.is_finite() && e >= 0.0) {
                return Err(format!("--target-exploitability must be a number >= 0, not {e}"));
            }
        }
        if let Some(t) = self.time_limit {
            if !(t.is_finite() && t > 0.0) {
                return Err(format!("--time-limit must be a positive number of seconds, not {t}"));
            }
        }
        for (flag, x) in [("--alpha", self.alpha), ("--beta", self.beta), ("--gamma", self.gamma)] {
            if !x.is_finite() {
                return Err(format!("{flag} must be a finite number"));
            }
        }
        Ok(())
    }

    /// Runs the variant on `tree`: reads the checkpoint to resume, draws
    /// the progress line on a terminal, writes the checkpoint and curve.
    /// `curve`: the file for the convergence curve (`--curve`), if any.
    pub fn run(
        &self,
        tree: &Tree,
        variant: Variant,
        limits: &crate::LimitArgs,
        curve: Option<&std::path::Path>,
    ) -> Result<CfrRun, String> {
        let no_rule = self.target_exploitability.is_none() && self.time_limit.is_none();
        let iterations = self.iterations.unwrap_or(if no_rule { 1000 } else { u64::MAX });
        // All cores by default: the solver times one thread against two
        // while it runs and keeps the faster (the answer is the same).
        let threads = match limits.threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        };
        let mut config = CfrConfig::new(variant, iterations);
        config.threads = threads;
        config.max_bytes = limits.max_memory.saturating_mul(1 << 20);
        config.checks = match self.check_every {
            0 => Checks::Auto { target: self.target_exploitability },
            k => Checks::Every(k),
        };
        if let Some(order) = self.updates {
            config.alternating = order == Updates::Alternating;
        }
        let fingerprint = Fingerprint::of(tree, &variant);
        let resume = match &self.resume {
            Some(path) => {
                let bytes = crate::read_bounded(path, limits.max_memory.saturating_mul(1 << 20))?;
                Some(CfrState::from_bytes(&bytes, &fingerprint).map_err(|e| format!("`{}`: {e}", path.display()))?)
            }
            None => None,
        };
        let solver = CfrSolver { config, resume };
        let mut watch = Watch::new(self, iterations, limits.quiet);
        let (solution, state) = solver.run(tree, &mut watch).map_err(|e| e.to_string())?;
        watch.finish_line();
        if let Some(path) = &self.checkpoint {
            let bytes = state.to_bytes(&fingerprint);
            crate::write_atomically(path, |mut f| std::io::Write::write_all(&mut f, &bytes))
                .map_err(|e| format!("cannot write `{}`: {e}", path.display()))?;
        }
        if let Some(path) = curve {
            let csv = curve_csv(&watch.curve, &tree.player_names);
            crate::write_atomically(path, |mut f| std::io::Write::write_all(&mut f, csv.as_bytes()))
                .map_err(|e| format!("cannot write `{}`: {e}", path.display()))?;
        }
        let name = galac_solvers::solver::Solver::name(&solver);
        Ok(CfrRun { solution, name, curve: watch.curve, iterations: state.iteration })
    }
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

/// The observer of a CFR run: records the curve, applies the stop rules,
/// draws the progress line.
struct Watch {
    target: Option<f64>,
    time_limit: Option<f64>,
    interrupted: Arc<AtomicBool>,
    curve: Vec<Point>,
    /// The progress bar (hidden when standard error is not a terminal or
    /// with `--quiet`).
    bar: indicatif::ProgressBar,
    last_draw: Option<Instant>,
    started: Instant,
    first_iteration: Option<u64>,
}

impl Watch {
    /// `iterations`: the most the run may do (`u64::MAX` when a stop rule
    /// ends it: then a counter, not a bar).
    fn new(args: &CfrArgs, iterations: u64, quiet: bool) -> Watch {
        let bar = match iterations {
            u64::MAX => crate::progress::counter("iterations", quiet),
            n => crate::progress::bar(n, "iterations", quiet),
        };
        Watch {
            target: args.target_exploitability,
            time_limit: args.time_limit,
            interrupted: interrupted(),
            curve: Vec::new(),
            bar,
            last_draw: None,
            started: Instant::now(),
            first_iteration: None,
        }
    }

    /// The progress bar's position and message: last NashConv, and the
    /// time left to the target, extrapolated from the last two checks on a
    /// log-log scale.
    fn draw(&mut self, p: &Progress) {
        let first = *self.first_iteration.get_or_insert(p.iteration);
        let elapsed = self.started.elapsed().as_secs_f64();
        let rate = (p.iteration - first + 1) as f64 / elapsed.max(1e-9);
        let mut line = String::new();
        if let Some(last) = self.curve.last() {
            line += &format!("NashConv {:.3e}", last.nash_conv);
        }
        if let (Some(target), [.., a, b]) = (self.target, self.curve.as_slice()) {
            let slope = (b.nash_conv.ln() - a.nash_conv.ln()) / ((b.iteration as f64).ln() - (a.iteration as f64).ln());
            if slope < 0.0 && b.nash_conv > target {
                let at = (b.iteration as f64) * (target / b.nash_conv).powf(1.0 / slope);
                let left = (at - p.iteration as f64).max(0.0) / rate;
                line += &format!(", about {left:.0} s to {target:.1e}");
            }
        }
        self.bar.set_position(p.iteration);
        self.bar.set_message(line);
    }

    /// Clears the progress bar.
    fn finish_line(&self) {
        self.bar.finish_and_clear();
    }
}

impl Observer for Watch {
    fn progress(&mut self, p: &Progress) -> Control {
        let mut stop = false;
        if let Some(e) = &p.evaluation {
            self.curve.push(Point {
                iteration: p.iteration,
                seconds: p.seconds,
                exploitability: e.best_response.iter().zip(&e.values).map(|(b, v)| b - v).collect(),
                nash_conv: e.nash_conv,
                values: e.values.clone(),
            });
            stop |= self.target.is_some_and(|t| e.nash_conv <= t);
        }
        stop |= self.time_limit.is_some_and(|t| self.started.elapsed().as_secs_f64() >= t);
        stop |= self.interrupted.load(Ordering::Relaxed);
        if !self.bar.is_hidden() && self.last_draw.is_none_or(|d| d.elapsed().as_secs_f64() >= 0.25) {
            self.last_draw = Some(Instant::now());
            self.draw(p);
        }
        if stop {
            Control::Stop
        } else {
            Control::Continue
        }
    }
}
