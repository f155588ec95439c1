//! The command-line tests of galac, in one test binary (each file under
//! `tests/` would be a binary of its own, linked apart): every module runs
//! the `galac` executable as a user does.
//!
//! Snapshots live in `snapshots/`. After an intended change of an output,
//! run `INSTA_UPDATE=always cargo test -p galac --test cli` and review the
//! diff of the `.snap` files (`.cargo/config.toml` sets `INSTA_UPDATE=no`
//! so that CI never writes them).

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
mod solvers;
mod three_players;
mod use_answers;
