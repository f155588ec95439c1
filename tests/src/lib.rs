//! End-to-end tests of galac over data files: the shipped examples and the
//! invalid programs under `ui/`. One test binary for the whole suite.
//!
//! Snapshots live in `src/snapshots/`. After an intended change of a
//! message, run `INSTA_UPDATE=always cargo test -p galac-tests` and review
//! the diff of the `.snap` files (`.cargo/config.toml` sets
//! `INSTA_UPDATE=no` so that CI never writes them).

#[cfg(test)]
mod beliefs;
#[cfg(test)]
mod cfr;
#[cfg(test)]
mod compiled;
#[cfg(test)]
mod cycles;
#[cfg(test)]
mod defaults;
#[cfg(test)]
mod differential;
#[cfg(test)]
mod distributed;
#[cfg(test)]
mod double_oracle;
#[cfg(test)]
mod double_oracle_highs;
#[cfg(test)]
mod exact;
#[cfg(test)]
mod examples;
#[cfg(test)]
mod format;
#[cfg(test)]
mod gambit;
#[cfg(test)]
mod gambit_lcp;
#[cfg(test)]
mod generated;
#[cfg(test)]
mod holdem;
#[cfg(test)]
mod holdem_play;
#[cfg(test)]
mod language;
#[cfg(test)]
mod layers;
#[cfg(test)]
mod lemke;
#[cfg(test)]
mod lp_public;
#[cfg(test)]
mod maxn;
#[cfg(test)]
mod maxn_states;
#[cfg(test)]
mod memory_return;
#[cfg(test)]
mod playthrough;
#[cfg(test)]
mod public_game;
#[cfg(test)]
mod public_game_states;
#[cfg(test)]
mod saved;
#[cfg(test)]
mod seeded_oracle;
#[cfg(test)]
mod simulate;
#[cfg(test)]
mod solve;
#[cfg(test)]
mod solver_examples;
#[cfg(test)]
mod solver_layer;
#[cfg(test)]
mod step_limits;
#[cfg(test)]
mod strict;
#[cfg(test)]
mod tidy;
#[cfg(test)]
mod trees;
#[cfg(test)]
mod ui;
#[cfg(test)]
mod vector_cfr;

pub mod games;

/// The random program generator, for the solver tests that draw games from it.
#[cfg(test)]
#[path = "../progen/mod.rs"]
#[allow(dead_code)]
mod progen;

/// Writes a line on standard error past libtest's capture, which takes
/// only `print!`/`eprint!`: for what a run must show even when every test
/// passes, e.g. that a test skipped its work (`cargo test` prints it among
/// the test names).
pub fn announce(line: &str) {
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

/// CPU seconds (user and system) of this process so far (the benches'
/// rate per CPU second: a loaded machine shares its cores, so wall time
/// overstates one core's time).
pub fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // After the command name in parentheses: fields 14 and 15 (utime, stime) are the 12th and 13th.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let ticks: Vec<f64> = rest.split_whitespace().skip(11).take(2).filter_map(|t| t.parse().ok()).collect();
    ticks.iter().sum::<f64>() / 100.0
}

/// Whether the slow suites run: `GALAC_SLOW_TESTS=1` (CI sets it; README,
/// "Run the tests"). A test that skips its slow part says so with
/// [`announce`].
pub fn slow_tests() -> bool {
    std::env::var("GALAC_SLOW_TESTS").is_ok_and(|v| v.trim() == "1")
}

/// Whether the slow part `what` of a test runs ([`slow_tests`]); when it
/// does not, says so with [`announce`].
pub fn slow_part(what: &str) -> bool {
    let slow = slow_tests();
    if !slow {
        announce(&format!("{what}: skipped (GALAC_SLOW_TESTS=1 runs it)"));
    }
    slow
}

/// The repository root (the parent of this crate).
pub fn repo_root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).parent().map(|p| p.to_path_buf()).unwrap_or_default()
}

/// Checks a file as `galac check` does, returning the rendered diagnostics
/// (without colour) and the one-line summary when the game is valid.
pub fn check_file(display_name: &str, bytes: &[u8]) -> (Option<String>, String) {
    use galac_compiler::diagnostic::{render, SourceMap};
    let mut sources = SourceMap::new();
    match galac_compiler::driver::check_source(&mut sources, display_name, bytes) {
        Ok(checked) => {
            let values = galac_compiler::driver::param_values(&checked.program, &[]).unwrap_or_default();
            let summary = galac_compiler::driver::summary(&checked.program, &values);
            (Some(summary), render(&sources, &checked.warnings, false))
        }
        Err(diags) => (None, render(&sources, &diags, false)),
    }
}
