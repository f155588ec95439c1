//! Progress bars (indicatif) on long steps: drawn on standard error only
//! when it is a terminal, never with `--quiet`, so that pipes, files and
//! tests see nothing of them.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A bar for `total` units of `what` ("plays"), hidden when standard error
/// is not a terminal or `quiet` is set.
pub fn bar(total: u64, what: &str, quiet: bool) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden());
    }
    let bar = ProgressBar::new(total);
    let template = format!("{{wide_bar}} {{human_pos}}/{{human_len}} {what} ({{per_sec}}, {{eta}} left) {{msg}}");
    if let Ok(style) = ProgressStyle::with_template(&template) {
        bar.set_style(style);
    }
    bar
}

/// A spinner with the time so far, for one long call (an LP solve) that
/// reports no progress, hidden like [`bar`]; it turns until dropped.
pub fn spinner(what: &str, quiet: bool) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new_spinner();
    let template = format!("{{spinner}} {what} ({{elapsed}})");
    if let Ok(style) = ProgressStyle::with_template(&template) {
        bar.set_style(style);
    }
    bar.enable_steady_tick(std::time::Duration::from_millis(100));
    bar
}

/// A counter of `what` ("nodes") for steps whose end is not known in
/// advance, hidden like [`bar`].
pub fn counter(what: &str, quiet: bool) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new_spinner();
    let template = format!("{{spinner}} {{human_pos}} {what} ({{per_sec}}, {{elapsed}}) {{msg}}");
    if let Ok(style) = ProgressStyle::with_template(&template) {
        bar.set_style(style);
    }
    bar
}
