//! galac-runtime: the library every galac-generated solver links.
//!
//! It will hold the `Game` trait that generated code and the interpreter
//! implement, the flat game tree with exact information sets, the solvers
//! and the exporters. The runtime never depends on the compiler.
