//! The `galac` command line: argument parsing and exit codes. The compiler
//! itself is the `galac-compiler` library; this binary adds file IO, the
//! cache and cargo.
//!
//! Exit status: 0 on success, 1 when the game description has errors,
//! 2 when galac was called wrongly (bad flag, missing file).

// `pub(crate)`: the command-line tests compile this file as a module of
// their binary, for the unit tests below and in these modules, and import
// the modules at their crate root, where `crate::cargo` and the like look.
pub(crate) mod build;
pub(crate) mod cargo;
mod check;
mod fmt;
pub(crate) mod game_args;
mod ir;

use clap::{Parser, Subcommand, ValueEnum};
use galac_app::commands::SharedCommand;
use galac_compiler::interp::Interp;

/// galac compiles games written in the Gala language into solvers.
#[derive(Parser, Debug)]
#[command(name = "galac", version, about, long_about = None)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub cmd: Command,
}

#[derive(clap::Args, Debug)]
pub struct GlobalArgs {
    /// When to colour diagnostics.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto, global = true)]
    pub color: ColorChoice,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

/// galac's own commands, then the commands it shares with every compiled
/// solver (on the game a .gala file describes).
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Check a game description: parse it, resolve names and check types.
    ///
    /// Prints a one-line summary (players, params, flows) and exits 0 when the
    /// game is valid; prints every error found and exits 1 otherwise.
    Check(check::CheckArgs),
    /// Format game descriptions in the one canonical layout.
    ///
    /// Rewrites each file in place (keeping every comment; the program's
    /// meaning never changes), or formats standard input to standard output
    /// for `-`. With `--check`, changes nothing and exits 1 if a file is not
    /// formatted.
    Fmt(fmt::FmtArgs),
    /// Run the Gala language server (LSP over standard input and output).
    ///
    /// For editors: diagnostics as you type, hover, go to definition, find
    /// references, document symbols, formatting and rename.
    Lsp,
    /// Print the intermediate representation (control-flow graph) of a game.
    Ir(ir::IrArgs),
    /// Compile a game into a standalone solver binary (also: `galac FILE.gala -o BINARY`).
    Build(build::BuildArgs),
    /// Compile the crates every solver links into galac's cache (once per
    /// galac version), so that the first `galac FILE.gala -o BINARY`
    /// compiles only its game: seconds instead of minutes.
    Prepare(build::PrepareArgs),
    #[command(flatten)]
    Shared(SharedCommand<game_args::GameArgs>),
}

fn main() {
    galac_app::memory::return_large_blocks();
    std::process::exit(run());
}

/// Runs galac with the process arguments; returns the exit status.
fn run() -> i32 {
    // One tree for every use: made once, built only as far as parsing goes
    // (the subcommand given, not every one with `build`), and dropped
    // before the command runs.
    let parsed = {
        let mut cli_command = command();
        let argv = with_build_implied(&cli_command, std::env::args_os().collect());
        cli_command
            .try_get_matches_from_mut(argv)
            .and_then(|matches| <Cli as clap::FromArgMatches>::from_arg_matches(&matches))
            .map_err(|e| e.format(&mut cli_command))
    };
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    let color = match cli.global.color {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            use std::io::IsTerminal;
            std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none()
        }
    };
    match cli.cmd {
        Command::Check(args) => check::run(&args, color),
        Command::Fmt(args) => fmt::run(&args, color),
        Command::Lsp => match galac_lsp::run_stdio() {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("error: galac lsp: {e}");
                1
            }
        },
        Command::Ir(args) => ir::run(&args, color),
        Command::Build(args) => build::run(&args, color),
        Command::Prepare(args) => build::prepare(&args),
        Command::Shared(cmd) => {
            // Only `plot` may come without its file (see `command`).
            let no_file = cmd.game_args().is_some_and(|game| game.file().as_os_str().is_empty());
            if let Some(plot) = cmd.plot_args().filter(|_| no_file) {
                return galac_app::plot::run_without_game(plot).unwrap_or_else(|| {
                    eprintln!(
                        "error: this chart needs the game: `galac plot FILE.gala CHART ...` (only `curve` does not)"
                    );
                    2
                });
            }
            cmd.run(command, |game, limits, run| {
                with_game(game, limits, color, |g, make| run(g, Some(make), &game.file().display().to_string()))
            })
        }
    }
}

/// galac's command line: [`Cli`], with `plot`'s FILE optional, since
/// `plot curve --curve c.csv` reads only its CSV files (clap takes the one
/// positional given as CHART, the required one). The indices are set
/// again: `mut_arg` moves an argument after the others.
fn command() -> clap::Command {
    <Cli as clap::CommandFactory>::command().mut_subcommand("plot", |plot| {
        plot.allow_missing_positional(true)
            .mut_arg("file", |file| file.required(false).index(1))
            .mut_arg("chart", |chart| chart.index(2))
    })
}

/// `galac FILE.gala -o BIN` is `galac build FILE.gala -o BIN`: without a
/// subcommand of `cli` (any argument named as one, or as an alias, or
/// `help`, the subcommand clap adds as it builds the tree), `build` goes
/// before the first `.gala` argument. `cli` need not be built.
fn with_build_implied(cli: &clap::Command, mut argv: Vec<std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    let help = (!cli.is_disable_help_subcommand_set()).then_some("help");
    let commands: Vec<&str> = cli
        .get_subcommands()
        .flat_map(|c| std::iter::once(c.get_name()).chain(c.get_all_aliases()))
        .chain(help)
        .collect();
    let has_command = argv.iter().skip(1).any(|a| commands.contains(&a.to_string_lossy().as_ref()));
    if !has_command {
        if let Some(at) = argv.iter().skip(1).position(|a| a.to_string_lossy().ends_with(".gala")) {
            argv.insert(at + 1, "build".into());
        }
    }
    argv
}

/// Compiles the game and runs `f` with an interpreter of it and a maker of
/// more instances, for the tree builder's other threads; or returns the
/// failure's exit status.
fn with_game(
    game: &game_args::GameArgs,
    limits: &galac_app::building::LimitArgs,
    color: bool,
    f: impl FnOnce(&Interp, &(dyn Fn() -> Option<Interp> + Sync)) -> i32,
) -> i32 {
    let step_limit = limits.step_limit;
    let loaded = match game_args::check(game, limits.max_memory, color) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let instance = || {
        let mut interp = loaded.interp();
        interp.step_limit = step_limit;
        interp
    };
    let make = || Some(instance());
    f(&instance(), &make)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn implied(args: &[&str]) -> Vec<String> {
        let argv = std::iter::once("galac").chain(args.iter().copied()).map(Into::into).collect();
        with_build_implied(&command(), argv).iter().skip(1).map(|a| a.to_string_lossy().into_owned()).collect()
    }

    /// Every subcommand, galac's own and the shared ones, is taken as one:
    /// `galac tree g.gala` never becomes `galac tree build g.gala`.
    #[test]
    fn build_is_implied_only_without_a_subcommand() {
        let mut cli = <Cli as clap::CommandFactory>::command();
        cli.build();
        let names: Vec<String> = cli.get_subcommands().map(|c| c.get_name().to_string()).collect();
        for name in ["check", "tree", "ir", "solve", "export", "play", "simulate", "explain", "plot", "build", "help"] {
            assert!(names.iter().any(|n| n == name), "{name} in {names:?}");
        }
        for name in &names {
            assert_eq!(implied(&[name, "g.gala"]), [name.as_str(), "g.gala"]);
        }
        assert_eq!(implied(&["g.gala", "-o", "g"]), ["build", "g.gala", "-o", "g"]);
        assert_eq!(implied(&["--color", "never", "g.gala"]), ["--color", "never", "build", "g.gala"]);
    }
}
