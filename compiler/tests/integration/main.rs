//! Integration tests of the compiler library: hostile input thrown at the
//! front end, and the compiler against the repository's docs and examples
//! (the `galac` binary's own tests are in `cli/`).

mod robustness;
mod tables;
