//! The command-line tests of galac, in one test binary (each file under
//! `tests/` would be a binary of its own, linked apart): every module runs
//! the `galac` executable as a user does. The binary's own unit tests run
//! here too (`galac_main`): the package has this one test binary (the
//! `galac` target has `test = false`).
//!
//! Snapshots live in `snapshots/`. After an intended change of an output,
//! run `INSTA_UPDATE=always cargo test -p galac --test cli` and review the
//! diff of the `.snap` files (`.cargo/config.toml` sets `INSTA_UPDATE=no`
//! so that CI never writes them).

/// galac's `src/main.rs` and its modules, for their `#[cfg(test)]` unit
/// tests; `crate::cargo` and the like in them resolve through the `use`
/// below.
#[allow(dead_code)]
#[path = "../../src/main.rs"]
mod galac_main;
use galac_main::{build, cargo, game_args};

mod cfr;
mod cli;
mod common;
mod conventions;
mod lsp;
#[cfg(feature = "mpi")]
mod mpi;
mod outputs;
mod play;
mod schema;
mod solve_output;
mod solver_build;
mod solvers;
mod three_players;
mod use_answers;
