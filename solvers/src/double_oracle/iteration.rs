//! One iteration's numbers: the convergence curve's row.

use std::time::Instant;

/// One iteration's numbers (the convergence curve; serialized as the
/// `solve` JSON answer lists them).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Iteration {
    pub iteration: u64,
    /// Seconds since the start, at the end of the iteration.
    pub seconds: f64,
    /// Bounds on the first player's value (`None` until known).
    pub lower: Option<f64>,
    pub upper: Option<f64>,
    /// The restricted game's value for the first player.
    pub lp_value: f64,
    /// Sequences per player in the restricted game (with the empty one).
    pub sequences: [usize; 2],
    /// Nodes of the restricted game, of them temporary leaves.
    pub nodes: usize,
    pub temp_leaves: usize,
    /// Nodes explored so far (restricted game and best-response searches).
    pub explored: usize,
    /// Which players computed a best response, and the sequences each added.
    pub responded: [bool; 2],
    pub added: [usize; 2],
    pub lp_seconds: f64,
    pub br_seconds: f64,
    /// Whether the best responses were unpruned ones certifying the bounds.
    pub certified: bool,
    pub expand_seconds: f64,
}

impl Iteration {
    /// Iteration `number`, which certified the bounds `(lower, upper)` on
    /// the full tree (`certify`), started at `start`.
    pub(super) fn on_tree(
        number: u64,
        (lower, upper): (Option<f64>, Option<f64>),
        lp_value: f64,
        explored: usize,
        start: Instant,
    ) -> Iteration {
        Iteration {
            iteration: number,
            certified: true,
            responded: [true, true],
            lower,
            upper,
            lp_value,
            explored,
            br_seconds: start.elapsed().as_secs_f64(),
            ..Iteration::default()
        }
    }
}
