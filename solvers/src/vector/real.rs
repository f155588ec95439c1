//! The numbers a walk carries per private state: `f32` in the CFR walk,
//! where halving the width doubles the lanes of every vector loop (what
//! bounds the walk besides the leaves), and `f64` in the evaluation walk,
//! whose exploitability is compared with the scalar best response's. Sums
//! over the other player's states (the leaves' running sums) are `f64`
//! either way, as postflop-solver keeps them.

use num_traits::{Float, NumAssign};

/// `f32` or `f64`, with the two conversions the walks need.
pub trait Real: Float + NumAssign + Default + Send + Sync + std::fmt::Debug + 'static {
    /// The value as an `f64` (exact).
    fn wide(self) -> f64;
    /// The nearest value to `x`.
    fn of(x: f64) -> Self;
}

impl Real for f32 {
    #[inline(always)]
    fn wide(self) -> f64 {
        f64::from(self)
    }
    #[inline(always)]
    fn of(x: f64) -> f32 {
        x as f32
    }
}

impl Real for f64 {
    #[inline(always)]
    fn wide(self) -> f64 {
        self
    }
    #[inline(always)]
    fn of(x: f64) -> f64 {
        x
    }
}
