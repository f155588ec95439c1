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
pub mod source;
pub mod span;
pub mod typeck;

pub use compile::{compile, Compiled};
