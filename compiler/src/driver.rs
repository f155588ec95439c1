//! What the `galac` subcommands share around [`crate::compile`]: params
//! set by `name=value`, the one-line summary of a valid game, and the
//! shorthands that compile a file in one call.

use crate::compile::{compile, Compiled};
use crate::diagnostic::{Diagnostic, SourceMap};

pub use crate::compile::MAX_SOURCE_BYTES;

/// [`compile`], under the name its callers outside the compiler know.
pub fn check_source(sources: &mut SourceMap, name: &str, bytes: &[u8]) -> Result<Compiled, Vec<Diagnostic>> {
    compile(sources, name, bytes)
}

pub use crate::codegen::Specialised;
pub use crate::compile::{param_values, parse_param_overrides, summary};
pub use crate::typeck::consts::ParamValue;

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
