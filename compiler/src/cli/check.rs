//! `galac check FILE`: report every problem in a game description, or a
//! one-line summary of a valid one.

use std::path::PathBuf;

use crate::diagnostic::{render, SourceMap};
use crate::driver;

#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// The .gala file to check.
    pub file: PathBuf,
    /// Set a param: `--param cards=13` (repeatable).
    #[arg(long = "param", value_name = "NAME=VALUE")]
    pub params: Vec<String>,
}

pub fn run(args: &CheckArgs, color: bool) -> i32 {
    let bytes = match super::read_source(&args.file) {
        Ok(b) => b,
        Err(msg) => {
            eprintln!("error: {msg}");
            return 2;
        }
    };
    let mut sources = SourceMap::new();
    let name = args.file.display().to_string();
    let checked = match driver::check_source(&mut sources, &name, &bytes) {
        Ok(c) => c,
        Err(diagnostics) => {
            eprint!("{}", render(&sources, &diagnostics, color));
            let n = diagnostics.iter().filter(|d| d.severity == crate::diagnostic::Severity::Error).count();
            eprintln!("error: `{name}` has {n} error{}", if n == 1 { "" } else { "s" });
            return 1;
        }
    };
    eprint!("{}", render(&sources, &checked.warnings, color));
    let program = &checked.program;
    let values = driver::parse_param_overrides(program, &args.params)
        .and_then(|o| driver::param_values(program, &o));
    let values = match values {
        Ok(v) => v,
        Err(msg) => {
            eprintln!("error: {msg}");
            return 2;
        }
    };
    super::emit(&format!("{}\n", summary(program, &values)));
    0
}

/// `kuhn: ok; 2 players (first, second); 1 param (ante=1); 3 flows (deal, bet, main)`
pub fn summary(program: &crate::typeck::tast::Program, values: &[driver::ParamValue]) -> String {
    let plural = |items: &[String], word: &str| match items.len() {
        0 => format!("no {word}s"),
        1 => format!("1 {word} ({})", items[0]),
        n => format!("{n} {word}s ({})", items.join(", ")),
    };
    let params: Vec<String> = program.params.iter().zip(values).map(|(p, v)| format!("{}={v}", p.name)).collect();
    let flows: Vec<String> = program.flows.iter().map(|f| f.name.clone().unwrap_or_else(|| "main".into())).collect();
    format!(
        "{}: ok; {}; {}; {}",
        program.name,
        plural(&program.players, "player"),
        plural(&params, "param"),
        plural(&flows, "flow")
    )
}
