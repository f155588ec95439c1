//! A loop's `until has_line(board, k, v)` and, after it said no, the loop's
//! `unless count(board, x) == 0` read in one pass over the board
//! (`ops::line_and_count`): blind tic-tac-toe asks both after each move,
//! and the count's own pass took about 107 instructions.
//!
//! The count is made with the line (a pure, infallible read of the same
//! board: nothing between the two tests writes the variables the `until`
//! reads, see `goto_known`) and its steps are charged where the count is
//! read (`ops::counted`), as `ops::count2d` charges them: the same value,
//! the same steps, the same errors. Only a count of a constant (an enum
//! variant, a number, a player) on the same variable is taken.

use proc_macro2::TokenStream;
use quote::quote;

use super::emitter::{Ctx, Emitter};
use crate::ir;
use crate::typeck::tast::{Builtin, Expr, ExprKind, VarId};

/// The local holding `ops::line_and_count`'s answer.
const SCAN: &str = "__scan";

impl Emitter<'_> {
    /// For a branch on `cond` to `else_to`: when `cond` is `has_line` of a
    /// variable and the test run in place after it said no counts that
    /// variable's cells equal to a constant, the statements making both
    /// (`let __scan = ...;`, with the line's steps), the test of the line
    /// (`__scan.0`), and the
    /// count's arguments (their address names it, [`Self::scanned_count`]).
    pub(super) fn board_scan(
        &self,
        cond: &Expr,
        else_to: ir::BlockId,
        inlined: &[bool],
    ) -> Option<(TokenStream, TokenStream, *const Expr)> {
        let ExprKind::Builtin(Builtin::HasLine, line) = &cond.kind else { return None };
        let ExprKind::Var(board) = line[0].kind else { return None };
        let again = self.run_in_place(else_to, cond, inlined)?;
        let count = find_count(again, board)?;
        let ctx = Ctx::Flow;
        let (xs, k, v, x) =
            (self.slice(&line[0], ctx), self.expr(&line[1], ctx), self.expr(&line[2], ctx), self.expr(&count[1], ctx));
        let name = quote::format_ident!("{}", SCAN);
        // `has_line`'s steps, a step per cell, where it reads the board.
        let at = self.at(cond.span);
        let make = quote!(
            let #name = ::galac_runtime::ops::line_and_count(#xs, #k, &(#v), &(#x));
            ::galac_runtime::ops::steps(steps, #name.2 * ::galac_runtime::ops::STEP, g.step_limit, #at)?;
        );
        Some((make, quote!(#name.0), count.as_ptr()))
    }

    /// The count named by `args` (a `count` builtin's arguments) if it is
    /// the one [`Self::board_scan`] made, as read from it.
    pub(super) fn scanned_count(&self, args: &[Expr], at: &proc_macro2::Literal) -> Option<TokenStream> {
        if self.scan.get() != Some(args.as_ptr()) {
            return None;
        }
        let name = quote::format_ident!("{}", SCAN);
        Some(quote!(::galac_runtime::ops::counted(#name.1, #name.2, steps, g.step_limit, #at)?))
    }
}

/// A `count` of `board`'s cells equal to a constant in `e`: its arguments.
fn find_count(e: &Expr, board: VarId) -> Option<&[Expr]> {
    if let ExprKind::Builtin(Builtin::Count, args) = &e.kind {
        let constant =
            matches!(args[1].kind, ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Player(_) | ExprKind::Variant(..));
        let cells = !args[0].ty.element().is_some_and(|t| *t == args[1].ty);
        if matches!(args[0].kind, ExprKind::Var(v) if v.0 == board.0) && constant && cells {
            return Some(args);
        }
    }
    e.kind.children().find_map(|c| find_count(c, board))
}
