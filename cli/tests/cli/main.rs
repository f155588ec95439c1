//! The command-line tests of galac, in one test binary (each file under
//! `tests/` would be a binary of its own, linked apart): every module runs
//! the `galac` executable as a user does.

mod cfr;
mod cli;
mod common;
mod conventions;
mod play;
mod solvers;
mod use_answers;
