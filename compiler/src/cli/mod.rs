//! The `galac` command line: argument parsing and exit codes.
//!
//! Exit status: 0 on success, 1 when the game description has errors,
//! 2 when galac was called wrongly (bad flag, missing file).

mod check;
mod export;
mod game_args;
mod ir;
mod solve;
mod tree;

pub use check::summary;

use clap::{Parser, Subcommand, ValueEnum};

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
    Tree(tree::TreeArgs),
    /// Print the intermediate representation (control-flow graph) of a game.
    Ir(ir::IrArgs),
    /// Solve a two-player zero-sum game (sequence-form LP), report the value,
    /// the exploitability of the answer and the strategies in the game's terms.
    Solve(solve::SolveArgs),
    /// Write the game tree for other tools: a Gambit extensive-form file
    /// (--efg) and/or a Graphviz drawing (--dot).
    Export(export::ExportArgs),
}

/// Runs galac with the process arguments; returns the exit status.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
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
        Command::Tree(args) => tree::run(&args, color),
        Command::Ir(args) => ir::run(&args, color),
        Command::Solve(args) => solve::run(&args, color),
        Command::Export(args) => export::run(&args, color),
    }
}

/// Reads a source file, or explains why it cannot be read.
pub(crate) fn read_source(path: &std::path::Path) -> Result<Vec<u8>, String> {
    if path.is_dir() {
        return Err(format!("`{}` is a directory, not a .gala file", path.display()));
    }
    std::fs::read(path).map_err(|e| {
        let why = match e.kind() {
            std::io::ErrorKind::NotFound => "no such file".to_string(),
            std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
            _ => e.to_string(),
        };
        format!("cannot read `{}`: {why}", path.display())
    })
}

/// Writes to standard output; a closed pipe (`galac ... | head`) is not an
/// error worth a panic, so write errors are ignored.
pub(crate) fn emit(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}
