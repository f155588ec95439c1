//! What the `galac` subcommands share around [`crate::compile`]: params
//! set by `name=value`, the one-line summary of a valid game, and the
//! shorthands that compile a file in one call.

use crate::compile::{compile, Compiled};
use crate::diagnostic::{Diagnostic, SourceMap};
use crate::typeck::{self, tast, types::Ty};

pub use crate::compile::MAX_SOURCE_BYTES;

/// [`compile`], under the name its callers outside the compiler know.
pub fn check_source(sources: &mut SourceMap, name: &str, bytes: &[u8]) -> Result<Compiled, Vec<Diagnostic>> {
    compile(sources, name, bytes)
}

pub use crate::typeck::consts::ParamValue;

/// Parses `name=value` overrides against the program's params (the same
/// parser and messages as compiled solvers).
pub fn parse_param_overrides(program: &tast::Program, args: &[String]) -> Result<Vec<(usize, ParamValue)>, String> {
    let specs: Vec<galac_runtime::params::ParamSpec> = program
        .params
        .iter()
        .map(|p| galac_runtime::params::ParamSpec { name: &p.name, is_bool: p.ty == Ty::Bool, constant: p.constant })
        .collect();
    let given = galac_runtime::params::parse_overrides(&program.name, &specs, args)?;
    Ok(given.into_iter().enumerate().filter_map(|(i, v)| v.map(|v| (i, v))).collect())
}

/// The value of every param: its default, or the override given for it.
/// Defaults may use earlier params and integer arithmetic.
pub fn param_values(program: &tast::Program, overrides: &[(usize, ParamValue)]) -> Result<Vec<ParamValue>, String> {
    let mut values: Vec<ParamValue> = Vec::with_capacity(program.params.len());
    for (i, p) in program.params.iter().enumerate() {
        let v = match overrides.iter().find(|(idx, _)| *idx == i) {
            Some((_, v)) => v.clone(),
            None => typeck::consts::eval_const(&p.default, &values)
                .map_err(|why| format!("the default of param `{}` cannot be computed: {why}", p.name))?,
        };
        values.push(v);
    }
    Ok(values)
}

/// A game checked and lowered for its params' default values: what
/// `codegen` compiles into a copy specialised to them, beside the general
/// game (arrays whose lengths are params held as Rust arrays).
pub struct Specialised {
    pub ir: crate::ir::Program,
    /// The value of each param the copy is compiled for.
    pub values: Vec<ParamValue>,
}

/// The game in `bytes` checked and lowered for its params' defaults
/// ([`Compiled::specialised`]), or `None` if it does not compile or does
/// not check for them.
pub fn specialise(name: &str, bytes: &[u8]) -> Option<Specialised> {
    compile(&mut SourceMap::new(), name, bytes).ok()?.specialised()
}

/// Compiles a game into the interpreter, with `name=value` param
/// overrides. On failure returns the rendered diagnostics or message.
pub fn load_interp(name: &str, bytes: &[u8], params: &[String]) -> Result<crate::interp::Interp, String> {
    let mut sources = SourceMap::new();
    let compiled = compile(&mut sources, name, bytes).map_err(|d| crate::diagnostic::render(&sources, &d, false))?;
    Ok(compiled.interp(&compiled.param_values(params)?))
}

/// `kuhn: ok; 2 players (first, second); 1 param (ante=1); 3 flows (deal, bet, main)`
pub fn summary(program: &tast::Program, values: &[ParamValue]) -> String {
    let plural = |items: &[String], word: &str| match items.len() {
        0 => format!("no {word}s"),
        1 => format!("1 {word} ({})", items[0]),
        n => format!("{n} {word}s ({})", items.join(", ")),
    };
    let params: Vec<String> = program
        .params
        .iter()
        .zip(values)
        .filter(|(p, _)| !p.constant)
        .map(|(p, v)| format!("{}={v}", p.name))
        .collect();
    let flows: Vec<String> = program.flows.iter().map(|f| f.name.clone().unwrap_or_else(|| "main".into())).collect();
    format!(
        "{}: ok; {}; {}; {}",
        program.name,
        plural(&program.players, "player"),
        plural(&params, "param"),
        plural(&flows, "flow")
    )
}
