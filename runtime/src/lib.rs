//! galac-runtime: the library every galac-generated solver links.
//!
//! It holds the [`game::Game`] trait that generated code and the interpreter
//! implement, exact information-state interning ([`info`]), exact chance
//! probabilities ([`rational`]) and the flat game tree ([`tree`]). The runtime
//! never depends on the compiler.

pub mod algo;
pub mod app;
pub mod export;
pub mod game;
pub mod info;
pub mod labels;
pub mod ops;
pub mod rational;
pub mod seqform;
pub mod tree;
pub mod value;
