//! The game file and its params, shared by the commands that build a game
//! (`tree`, `solve`, `export`, `ir`), and loading it into the interpreter.

use std::path::PathBuf;

use crate::diagnostic::{render, Severity, SourceMap};
use crate::driver;
use crate::interp::{Interp, Locator};

#[derive(clap::Args, Debug)]
pub struct GameArgs {
    /// The .gala file.
    pub file: PathBuf,
    /// Set a param: `--param cards=13` (repeatable).
    #[arg(long = "param", value_name = "NAME=VALUE")]
    pub params: Vec<String>,
}

/// Reads, checks and lowers a game; on failure prints why and returns the
/// exit status (1 for errors in the game, 2 for a wrong call).
pub fn load(args: &GameArgs, color: bool) -> Result<Interp, i32> {
    let bytes = super::read_source(&args.file).map_err(|msg| {
        eprintln!("error: {msg}");
        2
    })?;
    let mut sources = SourceMap::new();
    let name = args.file.display().to_string();
    let checked = match driver::check_source(&mut sources, &name, &bytes) {
        Ok(c) => c,
        Err(diagnostics) => {
            eprint!("{}", render(&sources, &diagnostics, color));
            let n = diagnostics.iter().filter(|d| d.severity == Severity::Error).count();
            eprintln!("error: `{name}` has {n} error{}", if n == 1 { "" } else { "s" });
            return Err(1);
        }
    };
    eprint!("{}", render(&sources, &checked.warnings, color));
    let program = checked.program;
    let values = driver::parse_param_overrides(&program, &args.params)
        .and_then(|o| driver::param_values(&program, &o))
        .map_err(|msg| {
            eprintln!("error: {msg}");
            2
        })?;
    let ir = crate::lower::lower(&program);
    let text = String::from_utf8_lossy(&bytes);
    Ok(Interp::new(ir, &values, Locator::new(&name, &text)))
}

/// `galac tree/solve/export FILE`: the game file, then the shared solver flags.
#[derive(clap::Args, Debug)]
pub struct RunArgs<A: clap::Args> {
    #[command(flatten)]
    pub game: GameArgs,
    #[command(flatten)]
    pub args: A,
}
