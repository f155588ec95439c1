//! `deal_hands`' arguments as the interpreter reads them ([`DealArgs`]):
//! the builtin's list and a chance's rows (`candidates::deal_rows`) are
//! both made from their pairs, one at a time (`ops::holdem::Pairs`). A
//! leaf of `interp`, as `env` is.

use galac_runtime::game::GameError;
use galac_runtime::ops;
use galac_runtime::value::{Items, Scalar};

use super::env::{Budget, Env};
use super::{Interp, Value};
use crate::typeck::tast::{Builtin, Expr, ExprKind};

impl Interp {
    /// `deal_hands(args)`'s two ranges (each a list of (hand, weight)),
    /// each also as (cards, weight) pairs, the form
    /// `ops::holdem::Pairs` reads, and the board.
    pub(super) fn deal_args(&self, args: &[Expr], env: &Env, b: &mut Budget) -> Result<DealArgs, GameError> {
        let (first, second) = (self.seq(&args[0], env, b)?, self.seq(&args[1], env, b)?);
        let board: Vec<i64> = self.seq(&args[2], env, b)?.iter().map(Scalar::int).collect();
        let hands = |r: &[Value]| -> Vec<(Vec<i64>, i64)> {
            r.iter()
                .map(|h| match h {
                    Value::Seq(parts) if parts.len() == 2 => {
                        (parts[0].items().iter().map(Scalar::int).collect(), parts[1].int())
                    }
                    _ => (Vec::new(), 0),
                })
                .collect()
        };
        let hands = [hands(&first), hands(&second)];
        Ok(DealArgs { ranges: [first, second], hands, board })
    }

    /// Where `e` is a call of `deal_hands`: its arguments ([`DealArgs`]),
    /// so that a chance over it makes no tuple per deal (nor a list of
    /// the pairs: they are made one at a time); else `None`.
    pub fn deal_hands(&self, e: &Expr, env: &Env, b: &mut Budget) -> Option<Result<DealArgs, GameError>> {
        let ExprKind::Builtin(Builtin::DealHands, args) = &e.kind else { return None };
        Some(self.deal_args(args, env, b))
    }
}

/// `deal_hands`' arguments as the interpreter reads them
/// ([`Interp::deal_hands`]): the two ranges as values (each entry a
/// (hand, weight)), each as (cards, weight) pairs, and the board.
pub struct DealArgs {
    pub ranges: [std::rc::Rc<Vec<Value>>; 2],
    hands: [Vec<(Vec<i64>, i64)>; 2],
    board: Vec<i64>,
}

impl DealArgs {
    /// The pairs dealt (their indexes in the ranges and their weights),
    /// checked, counted and their steps taken, made one at a time.
    pub fn pairs(
        &self,
        left: &mut u64,
        limit: u64,
        at: impl ops::At,
    ) -> Result<ops::holdem::Pairs<'_, Vec<i64>>, GameError> {
        ops::holdem::Pairs::new(&self.hands[0], &self.hands[1], &self.board, left, limit, at)
    }
}
