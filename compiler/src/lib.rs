//! galac: the Gala game-description compiler. [`compile`] is its entry
//! point: a source file parsed, checked and lowered once into a
//! [`Compiled`] game, which the interpreter runs and `codegen` turns into
//! Rust.
pub mod ast;
pub mod codegen;
pub mod compile;
pub mod delimiters;
pub mod diagnostic;
pub mod driver;
pub mod format;
pub mod interp;
pub mod ir;
pub mod lexer;
pub mod lint;
pub mod lower;
pub mod offers;
pub mod parser;
pub mod public;
pub mod source;
pub mod span;
pub mod typeck;

pub use compile::{compile, Compiled};

/// The integration tests (hostile input, the builtin tables against the
/// docs), compiled into the crate's one test binary rather than a second
/// one: they use only the public API, through the crate's own name.
#[cfg(test)]
extern crate self as galac_compiler;
#[cfg(test)]
#[path = "../tests/integration/main.rs"]
mod integration;
