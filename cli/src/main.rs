//! The `galac` command line: argument parsing and exit codes. The compiler
//! itself is the `galac-compiler` library; this binary adds file IO, the
//! cache and cargo.
//!
//! Exit status: 0 on success, 1 when the game description has errors,
//! 2 when galac was called wrongly (bad flag, missing file).

mod build;
mod cargo;
mod check;
mod game_args;
mod ir;

use clap::{Parser, Subcommand, ValueEnum};
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

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Check a game description: parse it, resolve names and check types.
    ///
    /// Prints a one-line summary (players, params, flows) and exits 0 when the
    /// game is valid; prints every error found and exits 1 otherwise.
    Check(check::CheckArgs),
    /// Generate the game tree and report its size: nodes, information sets,
    /// sequences, memory and generation time.
    Tree(game_args::RunArgs<galac_app::tree::TreeArgs>),
    /// Print the intermediate representation (control-flow graph) of a game.
    Ir(ir::IrArgs),
    /// Solve a game (two-player zero-sum: sequence-form LP; two-player
    /// general-sum: Lemke; perfect information: max^n; otherwise CFR+; or
    /// the solver `--solver` names), report the value, the exploitability of
    /// the answer and the strategies in the game's terms (boxed: its flags
    /// make it much larger than the other commands).
    Solve(Box<game_args::RunArgs<galac_app::solve::SolveArgs>>),
    /// Write the game tree for other tools: a Gambit extensive-form file
    /// (--efg) and/or a Graphviz drawing (--dot).
    Export(game_args::RunArgs<galac_app::export::ExportArgs>),
    /// Play a game at the terminal against a strategy (solved on the fly,
    /// a strategy file, uniform random) or other people; moves can be
    /// piped in on standard input.
    Play(game_args::RunArgs<galac_app::play::PlayArgs>),
    /// Play many seeded games between one strategy per seat and report
    /// each player's mean payoff with its 95% confidence interval.
    Simulate(game_args::RunArgs<galac_app::simulate::SimulateArgs>),
    /// Write a shell completion script for galac to standard output
    /// (e.g. `galac completions bash > ~/.local/share/bash-completion/completions/galac`).
    Completions {
        #[arg(value_enum)]
        shell: galac_app::shell::Shell,
    },
    /// Write galac's man page (roff) to standard output (`galac man | man -l -`).
    Man,
    /// Explain a strategy profile (a `solve --out` file, or the game solved
    /// on the fly) set by set: action probabilities and values, beliefs.
    Explain(Box<game_args::RunArgs<galac_app::explain::ExplainArgs>>),
    /// Draw a chart as SVG: strategy (action probabilities per set), curve
    /// (convergence from `solve --curve` files) or tree (a small game's tree).
    Plot(Box<game_args::RunArgs<galac_app::plot::PlotArgs>>),
    /// Compile a game into a standalone solver binary (also: `galac FILE.gala -o BINARY`).
    Build(build::BuildArgs),
}

fn main() {
    galac_app::memory::return_large_blocks();
    std::process::exit(run());
}

/// Runs galac with the process arguments; returns the exit status.
fn run() -> i32 {
    // `galac FILE.gala -o BIN` is `galac build FILE.gala -o BIN`: without a
    // subcommand, the first `.gala` argument starts a `build`.
    let mut argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
    const COMMANDS: &[&str] = &[
        "check",
        "tree",
        "ir",
        "solve",
        "export",
        "play",
        "simulate",
        "explain",
        "plot",
        "build",
        "completions",
        "man",
        "help",
    ];
    let has_command = argv.iter().skip(1).any(|a| COMMANDS.contains(&a.to_string_lossy().as_ref()));
    if !has_command {
        if let Some(at) = argv.iter().skip(1).position(|a| a.to_string_lossy().ends_with(".gala")) {
            argv.insert(at + 1, "build".into());
        }
    }
    let cli = match Cli::try_parse_from(argv) {
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
        Command::Ir(args) => ir::run(&args, color),
        Command::Build(args) => build::run(&args, color),
        Command::Completions { shell } => {
            galac_app::shell::completions(<Cli as clap::CommandFactory>::command(), shell)
        }
        Command::Man => galac_app::shell::man(<Cli as clap::CommandFactory>::command()),
        Command::Tree(run) => with_game(&run.game, run.args.limits.step_limit, color, |g, make| {
            galac_app::tree::run(g, &run.args, Some(make))
        }),
        Command::Solve(run) => with_game(&run.game, run.args.limits.step_limit, color, |g, make| {
            galac_app::solve::run(g, &run.args, Some(make))
        }),
        Command::Play(run) => with_game(&run.game, run.args.limits.step_limit, color, |g, make| {
            galac_app::play::run(g, &run.args, Some(make))
        }),
        Command::Simulate(run) => with_game(&run.game, run.args.limits.step_limit, color, |g, make| {
            galac_app::simulate::run(g, &run.args, Some(make))
        }),
        Command::Explain(run) => with_game(&run.game, run.args.limits.step_limit, color, |g, make| {
            galac_app::explain::run(g, &run.args, Some(make))
        }),
        Command::Plot(run) => with_game(&run.game, run.args.limits.step_limit, color, |g, make| {
            galac_app::plot::run(g, &run.args, Some(make))
        }),
        Command::Export(run) => {
            let source = run.game.file.display().to_string();
            with_game(&run.game, run.args.limits.step_limit, color, |g, make| {
                galac_app::export::run(g, &run.args, &source, Some(make))
            })
        }
    }
}

/// Reads a source file, or explains why it cannot be read.
pub(crate) fn read_source(path: &std::path::Path) -> Result<Vec<u8>, String> {
    if path.is_dir() {
        return Err(format!("`{}` is a directory, not a .gala file", path.display()));
    }
    galac_app::read_bounded(path, galac_compiler::compile::MAX_SOURCE_BYTES as u64)
}

/// Compiles the game and runs `f` with an interpreter of it and a maker of
/// more instances, for the tree builder's other threads; or returns the
/// failure's exit status.
fn with_game(
    game: &game_args::GameArgs,
    step_limit: u64,
    color: bool,
    f: impl FnOnce(&Interp, &(dyn Fn() -> Option<Interp> + Sync)) -> i32,
) -> i32 {
    let loaded = match game_args::check(game, color) {
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

use galac_app::emit;
