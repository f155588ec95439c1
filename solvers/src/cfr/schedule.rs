//! When a run computes the exact exploitability of its average strategy.
//!
//! A check (one best response per player) can cost as much as hundreds of
//! iterations, so the automatic schedule spaces checks by their measured
//! cost, and aims them at the iteration where the measured curve says a
//! target will be reached:
//! - never closer than a quarter of the iterations so far, nor than three
//!   checks' worth of iterations (checks cost at most about a quarter of
//!   the run while they close in on a target);
//! - never farther than twice the iterations so far (a target is passed by
//!   at most that factor), nor, once the run is long, than nine checks'
//!   worth (checks cost about a tenth of the run);
//! - in between, at the predicted iteration: NashConv extrapolated as a
//!   power of the iteration count through the last two checks (through the
//!   first alone, as 1/t).

/// When a run computes the exact exploitability of its average strategy
/// (a best response per player: far dearer than an iteration on most trees).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Checks {
    /// Never during the run.
    Never,
    /// Every this many iterations (and after the last): a reproducible curve.
    Every(u64),
    /// As the module comment says, aiming at the NashConv `target` if one
    /// is given (the run's observer is expected to stop there).
    Auto { target: Option<f64> },
}

/// The schedule of one run.
#[derive(Clone, Debug)]
pub struct Schedule {
    checks: Checks,
    /// The iteration of the next automatic check.
    next: u64,
    /// The last two checks: iteration and NashConv.
    points: [Option<(u64, f64)>; 2],
    /// The cheapest check so far, in iterations (a check that the machine
    /// interrupted looks dearer than it is).
    per_check: f64,
}

impl Schedule {
    /// A schedule; the first automatic check comes after the next iteration.
    pub fn new(checks: Checks, iteration: u64) -> Schedule {
        Schedule { checks, next: iteration + 1, points: [None, None], per_check: f64::INFINITY }
    }

    /// Whether iteration `t` (the run's last if `last`) is checked.
    pub fn due(&self, t: u64, last: bool) -> bool {
        match self.checks {
            Checks::Never => false,
            Checks::Every(k) => last || t.is_multiple_of(k.max(1)),
            Checks::Auto { .. } => last || t >= self.next,
        }
    }

    /// Records a check at iteration `t` that found `nash_conv`, given the
    /// seconds an iteration and a check took, and plans the next.
    pub fn checked(&mut self, t: u64, nash_conv: f64, iteration_secs: f64, check_secs: f64) {
        self.points = [self.points[1], Some((t, nash_conv))];
        let Checks::Auto { target } = self.checks else { return };
        self.per_check = self.per_check.min(check_secs / iteration_secs.max(1e-12));
        let per_check = self.per_check;
        let lo = (t / 4).max((3.0 * per_check).ceil() as u64).max(1);
        let hi = lo.max(t.min((9.0 * per_check).ceil() as u64));
        let gap = match target.and_then(|e| self.predict(e)) {
            Some(at) => at.saturating_sub(t).clamp(lo, hi),
            None => hi,
        };
        self.next = t.saturating_add(gap);
    }

    /// The iteration at which NashConv should reach `target`, if falling.
    fn predict(&self, target: f64) -> Option<u64> {
        let (tb, eb) = self.points[1]?;
        if !(eb > 0.0 && target > 0.0) {
            return None;
        }
        let slope = match self.points[0] {
            Some((ta, ea)) if ea > 0.0 && ta < tb => (eb / ea).ln() / (tb as f64 / ta as f64).ln(),
            _ => -1.0,
        };
        if slope.is_nan() || slope >= -0.05 {
            return None;
        }
        let at = tb as f64 * (target / eb).powf(1.0 / slope);
        Some(at.min(u64::MAX as f64 / 2.0).ceil() as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::{Checks, Schedule};

    /// On curves NashConv = c / t^s, with checks costing from a tenth of
    /// an iteration to 50 iterations, a run aiming at a target stops
    /// within twice the iterations the target needs (or within the first
    /// few checks' worth when that is more), with checks costing at most a
    /// third of the run.
    #[test]
    fn automatic_checks_stop_near_the_target() {
        for slope in [0.5, 1.0, 2.0] {
            for per_check in [0.1, 4.0, 50.0] {
                for needed in [3u64, 40, 1_000, 100_000] {
                    let curve = |t: u64| (t as f64).powf(-slope);
                    let target = curve(needed);
                    let mut s = Schedule::new(Checks::Auto { target: Some(target) }, 0);
                    let (mut t, mut checks) = (0u64, 0u64);
                    loop {
                        t += 1;
                        if s.due(t, false) {
                            checks += 1;
                            if curve(t) <= target {
                                break;
                            }
                            s.checked(t, curve(t), 1.0, per_check);
                        }
                    }
                    let bound = (2 * needed).max((9.0 * per_check) as u64 + 1);
                    let cost = checks as f64 * per_check / (t as f64 + checks as f64 * per_check);
                    let what =
                        format!("slope {slope}, per check {per_check}, needed {needed}: stop {t}, {checks} checks");
                    assert!(t >= needed && t <= bound, "{what}");
                    assert!(cost <= 0.34 || t <= (9.0 * per_check) as u64 + 1, "{what}: cost {cost}");
                }
            }
        }
    }
}
