//! [`GameError`]: why a play could not be continued. A leaf below the game
//! interface ([`crate::game`], which re-exports it), the checked operations
//! ([`crate::ops`]) and the values ([`crate::value`]), which all raise it.

/// Why a play could not be continued. Each names where in the game
/// description it happened when that is known.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    #[error("{at}no event within {limit} steps: an endless loop, or more work between two events than the step limit allows")]
    StepLimit { limit: u64, at: String },
    #[error("{at}no event within {limit} steps: making {items} items passes the limit (a step per item made)")]
    TooManyItems { items: u64, limit: u64, at: String },
    #[error("{at}no event within {limit} steps: reading {cells} cells passes the limit (a step per cell read)")]
    TooManyCells { cells: u64, limit: u64, at: String },
    #[error("{at}integer overflow")]
    Overflow { at: String },
    #[error("{at}division by zero")]
    DivisionByZero { at: String },
    #[error("{at}index {index} is out of bounds for length {len}")]
    IndexOutOfBounds { index: i64, len: usize, at: String },
    #[error("{at}{who} has no choice: the domain is empty (after `where`)")]
    NoChoices { who: String, at: String },
    #[error("{at}chance weight {weight} is not positive")]
    BadWeight { weight: i64, at: String },
    #[error("{at}chance probabilities sum to {sum}, not 1")]
    BadProbabilities { sum: String, at: String },
    #[error("{at}{message}")]
    Other { message: String, at: String },
}

impl GameError {
    /// The message without where in the game it happened (a param's
    /// default is reported by the param's name instead).
    pub fn message(&self) -> String {
        let at = match self {
            GameError::StepLimit { at, .. }
            | GameError::TooManyItems { at, .. }
            | GameError::TooManyCells { at, .. }
            | GameError::Overflow { at }
            | GameError::DivisionByZero { at }
            | GameError::IndexOutOfBounds { at, .. }
            | GameError::NoChoices { at, .. }
            | GameError::BadWeight { at, .. }
            | GameError::BadProbabilities { at, .. }
            | GameError::Other { at, .. } => at.len(),
        };
        self.to_string()[at..].to_string()
    }
}
