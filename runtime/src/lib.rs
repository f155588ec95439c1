//! galac-runtime: what galac-generated game code calls, and nothing else.
//!
//! It holds the [`game::Game`] trait that generated code and the interpreter
//! implement (and [`game::Family`], a game with run-time params), exact
//! information-state interning ([`info`]), values and checked operations
//! ([`value`], [`ops`]), exact chance probabilities ([`rational`]), labels
//! and the flat game tree with its builders ([`tree`]), whose nodes, sets
//! and players are typed ids ([`ids`]). The runtime never
//! depends on the compiler, the solvers or the command line.

pub mod cancel;
pub mod donors;
mod error;
pub mod game;
pub mod ids;
pub mod info;
pub mod labels;
pub mod memory;
pub mod notation;
pub mod ops;
pub mod params;
pub mod rational;
pub mod recent;
pub mod rng;
mod room;
pub mod tree;
pub mod value;
