//! The one run harness of every iterative solver (the CFR family, the
//! double oracle): the stop rules (`--time-limit`, `--target-exploitability`,
//! Ctrl-C and SIGTERM), the progress bar and the convergence curve, as one
//! [`Observer`]. A solver's own extras (CFR's checkpoint, the oracle's
//! curve file written during the run) hang off [`Harness::each`].

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use galac_solvers::solver::{Control, Observer, Progress};

/// The stop rules every iterative solver shares (besides its own
/// iteration count).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct StopArgs {
    /// CFR: stop once the exact NashConv of the average strategy is at most E.
    #[arg(long, value_name = "E")]
    pub target_exploitability: Option<f64>,
    /// CFR and the double oracle: stop after this many seconds (the answer
    /// is CFR's current average, the oracle's best profile so far).
    #[arg(long, value_name = "SECONDS")]
    pub time_limit: Option<f64>,
}

impl StopArgs {
    /// Checks the flags before any work starts.
    pub fn validate(&self) -> Result<(), String> {
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
        Ok(())
    }
}

/// One point of the convergence curve (a check of the exact NashConv).
#[derive(Clone, Debug, serde::Serialize)]
pub struct Point {
    pub iteration: u64,
    pub seconds: f64,
    /// Per player: best-response value minus value.
    pub exploitability: Vec<f64>,
    pub nash_conv: f64,
    #[serde(rename = "value")]
    pub values: Vec<f64>,
}

/// Set once Ctrl-C was pressed or SIGTERM (or SIGHUP) received, so a run
/// stops cleanly and keeps its answer and checkpoint ([`crate::signals`]).
pub fn interrupted() -> Arc<AtomicBool> {
    crate::signals::graceful()
}

/// A solver's own step after each progress report.
pub type Each<'a> = Box<dyn FnMut(&Progress) + 'a>;

/// The observer of an iterative run: records the curve, applies the stop
/// rules, draws the progress line, then calls [`Harness::each`].
pub struct Harness<'a> {
    stop: StopArgs,
    interrupted: Arc<AtomicBool>,
    /// Every exact check of the run, in order.
    pub curve: Vec<Point>,
    /// The progress bar (hidden when standard error is not a terminal or
    /// with `--quiet`).
    bar: indicatif::ProgressBar,
    last_draw: Option<Instant>,
    started: Instant,
    first_iteration: Option<u64>,
    /// Called with every report, after the stop rules.
    pub each: Option<Each<'a>>,
    /// A library caller's flag (Ctrl-C in Python, or the memory watch past
    /// `--max-memory`): the run stops at its next report, as on a signal.
    pub cancel: Option<galac_runtime::cancel::Cancel>,
}

impl<'a> Harness<'a> {
    /// A harness for a run of `what` ("iterations") that does at most
    /// `total` of them (`None`: a stop rule ends it; a counter, not a bar).
    pub fn new(what: &str, total: Option<u64>, stop: &StopArgs, quiet: bool) -> Harness<'a> {
        let bar = match total {
            None | Some(u64::MAX) => crate::progress::counter(what, quiet),
            Some(n) => crate::progress::bar(n, what, quiet),
        };
        Harness {
            stop: stop.clone(),
            interrupted: interrupted(),
            curve: Vec::new(),
            bar,
            last_draw: None,
            started: Instant::now(),
            first_iteration: None,
            each: None,
            cancel: None,
        }
    }

    /// Clears the progress bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }

    /// The progress bar's position and message: the last NashConv and the
    /// time left to the target (extrapolated from the last two checks on a
    /// log-log scale), or the bounds on the value.
    fn draw(&mut self, p: &Progress) {
        let first = *self.first_iteration.get_or_insert(p.iteration);
        let elapsed = self.started.elapsed().as_secs_f64();
        let rate = (p.iteration - first + 1) as f64 / elapsed.max(1e-9);
        let mut line = String::new();
        if let Some(last) = self.curve.last() {
            line += &format!("NashConv {:.3e}", last.nash_conv);
        } else if let Some((lo, hi)) = p.bounds {
            line += &format!("bounds [{lo:.9}, {hi:.9}]");
        }
        if let (Some(target), [.., a, b]) = (self.stop.target_exploitability, self.curve.as_slice()) {
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
}

impl Observer for Harness<'_> {
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
            stop |= self.stop.target_exploitability.is_some_and(|t| e.nash_conv <= t);
        }
        stop |= self.stop.time_limit.is_some_and(|t| self.started.elapsed().as_secs_f64() >= t);
        stop |= self.interrupted.load(Ordering::Relaxed) || galac_runtime::cancel::requested(self.cancel.as_ref());
        if !self.bar.is_hidden() && self.last_draw.is_none_or(|d| d.elapsed().as_secs_f64() >= 0.25) {
            self.last_draw = Some(Instant::now());
            self.draw(p);
        }
        if let Some(each) = &mut self.each {
            each(p);
        }
        if stop {
            Control::Stop
        } else {
            Control::Continue
        }
    }
}
