//! galac-solvers: algorithms over a game tree. They see a game only through
//! the flat [`galac_runtime::tree::Tree`] (and the sequence form built from
//! it); they never parse flags or print.

pub mod best_response;
pub mod cfr;
pub mod lemke;
pub mod lp;
pub mod maxn;
pub mod profile;
pub mod sequence_form;
pub mod solver;
pub mod treeplex;

pub use profile::Profile;
