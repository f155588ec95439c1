//! The game file and its params, shared by the commands that build a game
//! (`tree`, `solve`, `export`, `ir`), and loading it into the interpreter.

use std::path::PathBuf;

use galac_compiler::diagnostic::{render, Severity, SourceMap};
use galac_compiler::driver;
use galac_compiler::interp::{Interp, Locator};

#[derive(clap::Args, Debug)]
pub struct GameArgs {
    /// The .gala file.
    pub file: PathBuf,
    /// Set a param: `--param cards=13` (repeatable).
    #[arg(long = "param", value_name = "NAME=VALUE")]
    pub params: Vec<String>,
    /// Treat the game's warnings (unused names, unreachable statements,
    /// plays without payoff, useless reveals) as errors.
    #[arg(long)]
    pub deny_warnings: bool,
}

/// A checked game with its param values, and the source it came from.
pub struct Loaded {
    pub program: galac_compiler::typeck::tast::Program,
    pub values: Vec<galac_compiler::driver::ParamValue>,
    pub name: String,
    pub text: String,
}

/// Reads and checks a game and its param overrides; on failure prints why
/// and returns the exit status (1 for errors in the game, 2 for a wrong call).
pub fn check(args: &GameArgs, color: bool) -> Result<Loaded, i32> {
    let bytes = crate::read_source(&args.file).map_err(|msg| {
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
    if args.deny_warnings && !checked.warnings.is_empty() {
        let n = checked.warnings.len();
        eprintln!("error: `{name}` has {n} warning{} and --deny-warnings is set", if n == 1 { "" } else { "s" });
        return Err(1);
    }
    let program = checked.program;
    let values = driver::parse_param_overrides(&program, &args.params)
        .and_then(|o| driver::param_values(&program, &o))
        .map_err(|msg| {
            eprintln!("error: {msg}");
            2
        })?;
    Ok(Loaded { program, values, name, text: String::from_utf8_lossy(&bytes).into_owned() })
}

/// Reads, checks and lowers a game for the interpreter (see [`check`]).
pub fn load(args: &GameArgs, color: bool) -> Result<Interp, i32> {
    Ok(check(args, color)?.interp())
}

impl Loaded {
    /// The game lowered into a new interpreter (one per thread that builds).
    pub fn interp(&self) -> Interp {
        Interp::new(galac_compiler::lower::lower(&self.program), &self.values, Locator::new(&self.name, &self.text))
    }
}

/// `galac tree/solve/export FILE`: the game file, then the shared solver flags.
#[derive(clap::Args, Debug)]
pub struct RunArgs<A: clap::Args> {
    #[command(flatten)]
    pub game: GameArgs,
    #[command(flatten)]
    pub args: A,
}
