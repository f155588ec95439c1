//! What evaluation carries besides the interpreter: where names read
//! their values ([`Env`]), the step budget ([`Budget`]) and the binding of
//! patterns. A leaf of `interp`: both the interpreter and the evaluator use
//! it.

use galac_runtime::game::GameError;
use galac_runtime::ops;
use galac_runtime::value::Dyn as Value;

use crate::typeck::tast::Pattern;

/// Where names read their values: state variables and the current locals
/// (for flows both are the slot array).
pub struct Env<'a> {
    pub vars: &'a [Value],
    pub locals: &'a [Value],
}

/// Counts evaluation steps so that endless loops stop with an error: the
/// steps `left` of the `limit`, counted down as generated code does
/// ([`ops::steps`]).
pub struct Budget {
    pub left: u64,
    pub limit: u64,
}

impl Budget {
    /// The whole step limit, for one `root` or `advance`.
    pub fn new(limit: u64) -> Budget {
        Budget { left: limit, limit }
    }

    /// Counts one step ([`ops::STEP`]) at `at`.
    pub fn step(&mut self, at: impl ops::At) -> Result<(), GameError> {
        ops::step(&mut self.left, self.limit, at)
    }

    /// Counts `n` steps at once (a block and its instructions) at `at`.
    pub fn steps(&mut self, n: u64, at: impl ops::At) -> Result<(), GameError> {
        ops::steps(&mut self.left, n, self.limit, at)
    }
}

/// Destructures `v` into the locals or slots of a pattern.
pub fn bind(p: &Pattern, v: Value, slots: &mut [Value]) {
    match p {
        Pattern::Bind(l) => slots[l.0 as usize] = v,
        Pattern::Wildcard => {}
        Pattern::Tuple(ps) => {
            if let Value::Seq(xs) = v {
                for (p, x) in ps.iter().zip(xs.iter()) {
                    bind(p, x.clone(), slots);
                }
            }
        }
    }
}
