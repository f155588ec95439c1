//! How many threads the next CFR iteration uses. The result is the same
//! either way, so the run times one thread against two as it goes and
//! mostly uses the faster.

use std::sync::Mutex;
use std::time::Instant;

use super::crew::{Part, Team};

/// Measure a thread count this long before comparing.
const WINDOW_SECS: f64 = 0.05;
/// Time the other thread count again after this many windows at first;
/// each time it loses again the wait doubles, up to `PROBE_MAX` (on a
/// busy machine two threads lose by up to five times, and every probe
/// costs).
const PROBE_EVERY: u32 = 8;
/// The longest wait between probes, in windows.
const PROBE_MAX: u32 = 128;

/// Whether the next iteration runs on one thread or two. The result is the
/// same either way, so the run times both in turn and mostly uses the
/// faster: on a machine whose other core is busy, the two threads wait
/// for each other at every step and one thread is faster.
pub struct Pace {
    allowed: bool,
    two: bool,
    /// The window under way: seconds and iterations.
    window: (f64, u64),
    /// Iterations per second of one thread and of two, last measured.
    rate: [Option<f64>; 2],
    /// Windows since the other count was last timed.
    since_probe: u32,
    /// Windows between probes.
    probe_every: u32,
    /// The window under way is a probe.
    probing: bool,
    /// The worker's copy of the state is up to date.
    synced: bool,
    /// An iteration has been timed already: the first is not, as it pays
    /// for touching the run's arrays for the first time (on a large tree
    /// several times a later one's cost, which would cost two threads the
    /// first comparison).
    warmed: bool,
    /// A fixed thread count per iteration instead of the timing (tests).
    script: Option<fn(u64) -> bool>,
}

impl Pace {
    /// Starts with two threads if `allowed`.
    pub fn new(allowed: bool) -> Pace {
        Pace {
            allowed,
            two: allowed,
            window: (0.0, 0),
            rate: [None, None],
            since_probe: 0,
            probe_every: PROBE_EVERY,
            probing: false,
            synced: true,
            warmed: false,
            script: None,
        }
    }

    /// Two threads at iteration `t` when `two_at(t)` (and `allowed`),
    /// whatever the timing: to test the hand-overs between counts.
    pub fn scripted(allowed: bool, two_at: fn(u64) -> bool) -> Pace {
        Pace { script: Some(two_at), ..Pace::new(allowed) }
    }

    /// Whether the next iteration uses two threads.
    pub fn two(&self) -> bool {
        self.two
    }

    /// Records an iteration that took `secs`; at the end of a window,
    /// picks the count of the next one: the faster, or the other to time
    /// it again.
    pub fn record(&mut self, secs: f64) {
        if !self.allowed || !std::mem::replace(&mut self.warmed, true) {
            return;
        }
        self.window.0 += secs;
        self.window.1 += 1;
        if self.window.0 < WINDOW_SECS || self.window.1 < 2 {
            return;
        }
        self.rate[usize::from(self.two)] = Some(self.window.1 as f64 / self.window.0);
        self.window = (0.0, 0);
        let faster = self.rate[1] > self.rate[0];
        if std::mem::take(&mut self.probing) {
            // The probe lost: wait longer before the next one.
            let lost = faster != self.two;
            self.probe_every = if lost { (2 * self.probe_every).min(PROBE_MAX) } else { PROBE_EVERY };
        }
        let other = usize::from(!self.two);
        if self.rate[other].is_none() || self.since_probe >= self.probe_every {
            self.two = !self.two;
            self.since_probe = 0;
            self.probing = self.rate[other].is_some();
        } else {
            self.since_probe += 1;
            self.two = faster;
        }
    }

    /// Times iteration `t` of `team` with the count chosen (or the
    /// script's), first bringing the worker's copy of the state up to date
    /// if the main thread went on alone since the worker's last iteration.
    /// That copy is not timed: it is the price of a switch, paid once, not
    /// of two threads' iterations (on a large tree it costs about one
    /// iteration, and counted in a probe's window of two iterations it
    /// made two threads lose every probe).
    pub fn iterate(&mut self, team: &Team, t: u64, p0: &mut Part, p1: &Mutex<Part>) {
        let two = self.script.map_or(self.two, |two_at| self.allowed && two_at(t));
        if two && !self.synced {
            p1.lock().unwrap_or_else(|e| e.into_inner()).catch_up(p0);
        }
        self.synced = two;
        let at = Instant::now();
        team.iterate(t, p0, !two);
        self.record(at.elapsed().as_secs_f64());
    }
}

#[cfg(test)]
mod tests {
    use super::Pace;

    /// The first iteration is not timed: fed a first iteration on two
    /// threads ten times slower than one thread's, then two threads
    /// faster, the pace leaves two threads only to time one thread once
    /// (timed, that first iteration made one thread look faster, and the
    /// run stayed on it until the next probe).
    #[test]
    fn the_first_iteration_is_not_timed() {
        let mut pace = Pace::new(true);
        assert!(pace.two());
        pace.record(1.0);
        let mut on_one = 0;
        for _ in 0..20 {
            on_one += u32::from(!pace.two());
            pace.record(if pace.two() { 0.06 } else { 0.1 });
        }
        assert!(on_one <= 2, "{on_one} of the first 20 iterations on one thread");
    }

    /// Fed iteration times where one count is five times faster, the pace
    /// spends nearly every iteration on the faster count, either way, and
    /// never stops timing the other.
    #[test]
    fn the_pace_keeps_the_faster_thread_count() {
        for two_faster in [false, true] {
            let mut pace = Pace::new(true);
            let (mut on_two, mut switches, mut last) = (0u32, 0u32, true);
            for _ in 0..20_000 {
                let two = pace.two();
                on_two += u32::from(two);
                switches += u32::from(two != last);
                last = two;
                let fast = two == two_faster;
                pace.record(if fast { 0.001 } else { 0.005 });
            }
            let on_faster = if two_faster { on_two } else { 20_000 - on_two };
            assert!(on_faster >= 19_000, "two faster: {two_faster}, {on_faster} on the faster");
            assert!(switches >= 4, "{switches}");
        }
    }
}
