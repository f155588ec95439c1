//! Progress bars (indicatif) on long steps: drawn on standard error only
//! when it is a terminal, never with `--quiet`, so that pipes, files and
//! tests see nothing of them.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Whether nothing is to be drawn: `--quiet`, or standard error is not a terminal.
fn silent(quiet: bool) -> bool {
    quiet || !std::io::stderr().is_terminal()
}

/// `bar` drawn with `template` (an indicatif template; the default style if
/// it does not parse).
fn styled(bar: ProgressBar, template: &str) -> ProgressBar {
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style);
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
        &format!("{{wide_bar}} {{human_pos}}/{{human_len}} {what} ({{per_sec}}, {{eta}} left) {{msg}}"),
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
    styled(ProgressBar::new_spinner(), &format!("{{spinner}} {{human_pos}} {what} ({{per_sec}}, {{elapsed}}) {{msg}}"))
}
