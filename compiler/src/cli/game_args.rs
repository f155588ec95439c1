//! Flags shared by the commands that build a game (`tree`, `export`, `ir`),
//! and loading a game description into the interpreter.

use std::path::PathBuf;

use galac_runtime::tree::BuildOptions;

use crate::diagnostic::{render, Severity, SourceMap};
use crate::driver;
use crate::interp::{Interp, Locator, DEFAULT_STEP_LIMIT};

#[derive(clap::Args, Debug)]
pub struct GameArgs {
    /// The .gala file.
    pub file: PathBuf,
    /// Set a param: `--param cards=13` (repeatable).
    #[arg(long = "param", value_name = "NAME=VALUE")]
    pub params: Vec<String>,
}

#[derive(clap::Args, Debug)]
pub struct LimitArgs {
    /// Stop with an error when the tree would exceed this many nodes.
    #[arg(long, value_name = "N", default_value_t = 200_000_000)]
    pub max_nodes: u64,
    /// Stop with an error when the tree would need more memory (MiB).
    #[arg(long, value_name = "MIB", default_value_t = 8192)]
    pub max_memory: u64,
    /// Evaluation steps allowed between two events of a play (catches endless loops).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_STEP_LIMIT)]
    pub step_limit: u64,
}

impl LimitArgs {
    pub fn build_options(&self, labels: bool) -> BuildOptions {
        BuildOptions { max_nodes: self.max_nodes, max_bytes: self.max_memory.saturating_mul(1 << 20), labels }
    }
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
