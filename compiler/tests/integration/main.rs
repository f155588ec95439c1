//! Integration tests of the compiler library's robustness: hostile input
//! thrown at the front end (the `galac` binary's own tests are in `cli/`).

mod robustness;
