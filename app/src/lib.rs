//! The command line every solver shares: `tree`, `solve`, `export`, `play`,
//! `simulate`, `explain` and `plot`, with
//! the same flags and output formats whether the game runs through galac's
//! interpreter or is compiled into its own binary.
//!
//! Exit status: 0 on success, 1 when the game cannot be built or solved,
//! 2 when the program was called wrongly.

// `json_answers!` reaches the modules below by its textual scope: named
// through the crate root it would make each of them depend on lib.rs.
#[macro_use]
pub mod answer;
pub mod building;
pub mod cards;
pub mod commands;
pub mod distributed;
pub mod exact;
pub mod explain;
pub mod export;
pub mod formats;
pub mod hands;
pub mod hands_public;
mod input;
pub mod json_sets;
pub mod matrix;
pub mod memory;
mod output;
pub mod play;
pub mod play_public;
pub mod plot;
pub mod private_info;
pub mod progress;
pub mod registry;
pub mod report;
pub mod shell;
pub mod signals;
pub mod simulate;
pub mod solve;
pub mod strategies;
pub mod strategy_file;
pub mod tree;

#[cfg(test)]
mod saving_tests;

pub use answer::{emit, emit_json, params_json, title, Format};
pub use building::{build_saving, build_tree, defaults, load_tree, LimitArgs, Maker, PARALLEL_MIN_NODES};
pub use galac_runtime::game::{Family, DEFAULT_STEP_LIMIT};
pub use input::{param_files, read_bounded};
pub use output::{check_writable, process_alive, protect, write_atomically};

#[derive(clap::Parser, Debug)]
struct SolverCli {
    #[command(subcommand)]
    cmd: commands::SharedCommand<ParamArgs>,
}

#[derive(clap::Args, Debug)]
struct ParamArgs {
    /// Set a param of the game: `--param cards=13` (repeatable);
    /// `--param oop_range=@oop.txt` reads the value from a file.
    #[arg(long = "param", value_name = "NAME=VALUE")]
    params: Vec<String>,
}

/// The `main` of a compiled solver: parses the process arguments and runs
/// the command; returns the exit status.
pub fn main<F: Family>(family: &F) -> i32 {
    let (cli, command) = match parse_args(family.name(), &family.param_help()) {
        Ok(parsed) => parsed,
        Err(code) => return code,
    };
    let source = format!("{} (compiled)", family.name());
    cli.cmd.run(
        || command,
        |game, limits, run| {
            let params = &match param_files(&game.params) {
                Ok(params) => params,
                Err(msg) => {
                    eprintln!("error: {msg}");
                    return 2;
                }
            };
            let g = match family.instantiate(params, limits.step_limit) {
                Ok(g) => g,
                Err(msg) => {
                    eprintln!("error: {msg}");
                    return 2;
                }
            };
            let make = || family.instantiate(params, limits.step_limit).ok();
            run(&g, Some(&make), &source)
        },
    )
}

/// [`main`]'s command line for the game `name` (its params described by
/// `param_help`), and the program's description for `completions` and
/// `man`; `Err` holds the exit status after clap's message (or `--help`).
fn parse_args(name: &str, param_help: &str) -> Result<(SolverCli, clap::Command), i32> {
    use clap::{CommandFactory, FromArgMatches};
    memory::return_large_blocks();
    building::mark_compiled_solver();
    let about = format!("Solver for the game `{name}`, compiled by galac.\n\nParams: {param_help}");
    // `kuhn --version`: "kuhn compiled by galac 0.1.0".
    let version = format!("compiled by galac {}", env!("CARGO_PKG_VERSION"));
    let command = SolverCli::command().name(name.to_string()).about(about).version(version);
    let matches = match command.clone().try_get_matches() {
        Ok(m) => m,
        Err(e) => {
            let _ = e.print();
            return Err(if e.use_stderr() { 2 } else { 0 });
        }
    };
    match SolverCli::from_arg_matches(&matches) {
        Ok(cli) => Ok((cli, command)),
        Err(e) => {
            let _ = e.print();
            Err(2)
        }
    }
}
