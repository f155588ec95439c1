//! Integration tests of the `galac` binary and of the front end's robustness.
//! One test binary: `cli` runs the real executable, `robustness` throws
//! hostile input at the library.

mod cli;
mod robustness;
