//! Progress on long steps, on standard error (never with `--quiet`): on a
//! terminal, indicatif bars redrawn in place; off a terminal (a log, CI, a
//! pipe), one plain line every [`LOG_EVERY`] seconds, so a long run is
//! never silent and a short one writes nothing.

use std::io::{IsTerminal, Write};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{HumanCount, ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle, TermLike};

/// Seconds between two progress lines off a terminal (the first comes
/// after as long). `GALAC_PROGRESS_EVERY` sets another (tests use a short
/// one to see the lines).
pub const LOG_EVERY: f64 = 10.0;

/// Where progress goes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    /// `--quiet`: nowhere.
    Hidden,
    /// Standard error is a terminal: redrawn in place.
    Terminal,
    /// Standard error is a file or pipe: a line now and then.
    Log,
}

fn place(quiet: bool) -> Place {
    match (quiet, std::io::stderr().is_terminal()) {
        (true, _) => Place::Hidden,
        (false, true) => Place::Terminal,
        (false, false) => Place::Log,
    }
}

/// A bar drawn at `place` with `template` (an indicatif template; the
/// default style if it does not parse); off a terminal the template's
/// `{spinner}` and `{wide_bar}` are left out. `{rate}` is the rate in
/// whole units with thousands separators (`1,234,567/s`; indicatif's
/// `{per_sec}` shows four decimals).
fn styled(len: Option<u64>, place: Place, template: &str) -> ProgressBar {
    let bar = match place {
        Place::Hidden => return ProgressBar::with_draw_target(len, ProgressDrawTarget::hidden()),
        Place::Terminal => ProgressBar::with_draw_target(len, ProgressDrawTarget::stderr()),
        Place::Log => ProgressBar::with_draw_target(len, ProgressDrawTarget::term_like(Box::new(LineLog::new()))),
    };
    let template = match place {
        Place::Log => template.replace("{spinner} ", "").replace("{wide_bar} ", ""),
        _ => template.to_string(),
    };
    if let Ok(style) = ProgressStyle::with_template(&template) {
        let rate = |state: &ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = write!(w, "{}/s", HumanCount(state.per_sec().max(0.0) as u64));
        };
        bar.set_style(style.with_key("rate", rate));
    }
    bar
}

/// A bar for `total` units of `what` ("plays"), with the time left.
pub fn bar(total: u64, what: &str, quiet: bool) -> ProgressBar {
    styled(
        Some(total),
        place(quiet),
        &format!("{{wide_bar}} {{human_pos}}/{{human_len}} {what} ({{rate}}, {{eta}} left) {{msg}}"),
    )
}

/// A bar for about `estimate` units of `what` ("nodes"), a guess that the
/// count may pass (then the length follows the count: see [`advance_to`]).
pub fn estimated(estimate: u64, what: &str, quiet: bool) -> ProgressBar {
    styled(
        Some(estimate.max(1)),
        place(quiet),
        &format!("{{wide_bar}} {{human_pos}} of about {{human_len}} {what} ({{rate}}, about {{eta}} left) {{msg}}"),
    )
}

/// Sets `bar` at `pos`, lengthening an estimated bar that the count
/// passed (by a tenth more, so it does not claim to be done).
pub fn advance_to(bar: &ProgressBar, pos: u64) {
    if bar.length().is_some_and(|len| pos >= len) {
        bar.set_length(pos + pos / 10 + 1);
    }
    bar.set_position(pos);
}

/// A spinner with the time so far, for one long call (an LP solve) that
/// reports no progress; it turns until dropped.
pub fn spinner(what: &str, quiet: bool) -> ProgressBar {
    let place = place(quiet);
    let bar = styled(None, place, &format!("{{spinner}} {what} ({{elapsed}})"));
    if place != Place::Hidden {
        bar.enable_steady_tick(Duration::from_millis(100));
    }
    bar
}

/// A counter of `what` ("nodes") for steps whose end is not known in
/// advance.
pub fn counter(what: &str, quiet: bool) -> ProgressBar {
    styled(None, place(quiet), &format!("{{spinner}} {{human_pos}} {what} ({{rate}}, {{elapsed}}) {{msg}}"))
}

/// A draw target off a terminal: keeps the frame indicatif draws and
/// writes it to standard error as one line, at most once per period.
#[derive(Debug)]
struct LineLog {
    every: Duration,
    state: Mutex<(String, Instant)>,
}

/// The time between two progress lines off a terminal: [`LOG_EVERY`], or
/// `GALAC_PROGRESS_EVERY` seconds.
pub fn log_every() -> Duration {
    let every = std::env::var("GALAC_PROGRESS_EVERY").ok().and_then(|s| s.parse::<f64>().ok());
    Duration::try_from_secs_f64(every.unwrap_or(LOG_EVERY)).unwrap_or(Duration::from_secs_f64(LOG_EVERY))
}

impl LineLog {
    fn new() -> LineLog {
        LineLog { every: log_every(), state: Mutex::new((String::new(), Instant::now())) }
    }

    fn frame(&self, edit: impl FnOnce(&mut String)) {
        if let Ok(mut state) = self.state.lock() {
            edit(&mut state.0);
        }
    }
}

impl TermLike for LineLog {
    fn width(&self) -> u16 {
        160
    }
    fn move_cursor_up(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn move_cursor_down(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn move_cursor_right(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn move_cursor_left(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn write_line(&self, s: &str) -> std::io::Result<()> {
        self.frame(|f| f.push_str(s));
        Ok(())
    }
    fn write_str(&self, s: &str) -> std::io::Result<()> {
        self.frame(|f| f.push_str(s));
        Ok(())
    }
    fn clear_line(&self) -> std::io::Result<()> {
        self.frame(String::clear);
        Ok(())
    }
    /// Writes the frame when a period has passed since the last line (or
    /// the start) and it holds text.
    fn flush(&self) -> std::io::Result<()> {
        let Ok(mut state) = self.state.lock() else { return Ok(()) };
        let (frame, last) = &mut *state;
        let line = frame.trim();
        if line.is_empty() || last.elapsed() < self.every {
            return Ok(());
        }
        *last = Instant::now();
        let mut err = std::io::stderr().lock();
        writeln!(err, "{line}")?;
        frame.clear();
        err.flush()
    }
}
