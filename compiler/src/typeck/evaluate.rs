//! The look-ahead heuristic: a fn named `evaluate` is the game's evaluation
//! of a position for a depth-limited max^n search (`solve --depth N`). Its
//! params name state variables (it is called with their values at the node
//! where the search stops) and it returns each player's estimate as a
//! fraction: `([player]int, int)`, the numerators and their common positive
//! denominator, so that estimates are on the payoffs' scale and exact.
//! No syntax of its own: it is an ordinary pure fn, checked here.

use super::tast::{Fn, Var};
use super::types::Ty;
use crate::diagnostic::Diagnostic;

/// The name that makes a fn the game's heuristic.
pub const EVALUATE: &str = "evaluate";

/// Checks the `evaluate` fn, if any: `([player]int, int)` out, and every
/// param a state variable of the same name and type.
pub fn check(vars: &[Var], fns: &[Fn]) -> Vec<Diagnostic> {
    let mut problems = Vec::new();
    let Some(f) = fns.iter().find(|f| f.name == EVALUATE) else { return problems };
    if f.ret != Ty::Tuple(vec![Ty::PerPlayer(Box::new(Ty::Int)), Ty::Int]) {
        problems.push(
            Diagnostic::error(format!("`{EVALUATE}` must return `([player]int, int)`, not `{}`", f.ret))
                .primary(f.span, "the look-ahead heuristic: each player's estimate over a common denominator")
                .help("a fn named `evaluate` estimates each player's payoff where a depth-limited search stops"),
        );
    }
    for p in &f.locals[..f.n_params as usize] {
        match vars.iter().find(|v| v.name == p.name) {
            Some(v) if v.ty == p.ty => {}
            Some(v) => problems.push(
                Diagnostic::error(format!(
                    "param `{}` of `{EVALUATE}` has type `{}`; the variable is `{}`",
                    p.name, p.ty, v.ty
                ))
                .primary(f.span, "its params receive the state variables of the same names"),
            ),
            None => problems.push(
                Diagnostic::error(format!("param `{}` of `{EVALUATE}` names no state variable", p.name))
                    .primary(f.span, "its params receive the state variables of the same names"),
            ),
        }
    }
    problems
}
