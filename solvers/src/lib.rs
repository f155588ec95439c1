//! galac-solvers: algorithms over a game tree. They see a game through the
//! flat [`galac_runtime::tree::Tree`] (and the sequence form built from
//! it), except the double oracle, which explores the
//! [`galac_runtime::game::Game`] itself; they never parse flags or print.

pub mod beliefs;
pub mod best_response;
pub mod cfr;
mod clarabel_run;
pub mod double_oracle;
pub mod exact;
mod highs;
pub mod lemke;
pub mod lp;
mod lp_model;
pub mod lp_public;
pub mod maxn;
pub mod profile;
pub mod rational_system;
pub mod rounding;
pub mod sample;
pub mod sequence_form;
pub mod slots;
pub mod solver;
pub mod support;
pub mod treeplex;
pub mod vector;

pub use profile::Profile;
