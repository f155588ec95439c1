//! Progress bars (indicatif) on long steps: drawn on standard error only
//! when it is a terminal, never with `--quiet`, so that pipes, files and
//! tests see nothing of them.

use std::io::IsTerminal;

use indicatif::{HumanCount, ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

/// Whether nothing is to be drawn: `--quiet`, or standard error is not a terminal.
fn silent(quiet: bool) -> bool {
    quiet || !std::io::stderr().is_terminal()
}

/// `bar` drawn with `template` (an indicatif template; the default style if
/// it does not parse). `{rate}` is the rate in whole units with thousands
/// separators (`1,234,567/s`; indicatif's `{per_sec}` shows four decimals).
fn styled(bar: ProgressBar, template: &str) -> ProgressBar {
    if let Ok(style) = ProgressStyle::with_template(template) {
        let rate = |state: &ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = write!(w, "{}/s", HumanCount(state.per_sec().max(0.0) as u64));
        };
        bar.set_style(style.with_key("rate", rate));
    }
    bar
}

/// A bar for `total` units of `what` ("plays"), hidden when standard error
/// is not a terminal or `quiet` is set.
pub fn bar(total: u64, what: &str, quiet: bool) -> ProgressBar {
    if silent(quiet) {
        return ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden());
    }
    styled(
        ProgressBar::new(total),
        &format!("{{wide_bar}} {{human_pos}}/{{human_len}} {what} ({{rate}}, {{eta}} left) {{msg}}"),
    )
}

/// A spinner with the time so far, for one long call (an LP solve) that
/// reports no progress, hidden like [`bar`]; it turns until dropped.
pub fn spinner(what: &str, quiet: bool) -> ProgressBar {
    if silent(quiet) {
        return ProgressBar::hidden();
    }
    let bar = styled(ProgressBar::new_spinner(), &format!("{{spinner}} {what} ({{elapsed}})"));
    bar.enable_steady_tick(std::time::Duration::from_millis(100));
    bar
}

/// A counter of `what` ("nodes") for steps whose end is not known in
/// advance, hidden like [`bar`].
pub fn counter(what: &str, quiet: bool) -> ProgressBar {
    if silent(quiet) {
        return ProgressBar::hidden();
    }
    styled(ProgressBar::new_spinner(), &format!("{{spinner}} {{human_pos}} {what} ({{rate}}, {{elapsed}}) {{msg}}"))
}
