//! Clarabel (the interior-point engine good_lp wraps) driven directly, so
//! that a library caller's [`Cancel`] stops it at its next iteration: the
//! sequence-form LP's clarabel backend (`lp.rs`) builds its model here and
//! runs it through [`run`].

use galac_runtime::cancel::Cancel;

use crate::solver::LpError;

/// Clarabel with the tolerances the answers need (about 1e-9 of the range).
pub(crate) fn model(problem: good_lp::variable::UnsolvedProblem) -> good_lp::solvers::clarabel::ClarabelProblem {
    let mut model = problem.using(good_lp::clarabel);
    model.settings().tol_gap_abs(1e-12).tol_gap_rel(1e-12).tol_feas(1e-12).max_iter(500);
    model
}

/// Solves a model made by [`model`] from a player's LP (`lp::PlayerLp`), stopping
/// at the next interior-point iteration once `cancel` is set. good_lp's
/// own `solve` gives no way to stop, so the model is run as clarabel's
/// solver and read by position: good_lp numbers the variables in the
/// order they were added (the plan, then the duals: `PlayerLp::new`) and
/// the constraint rows after one row per bounded variable (the plan's
/// `>= 0`), in the order given. The answer's objective is checked against
/// that reading.
pub(crate) fn run(
    model: good_lp::solvers::clarabel::ClarabelProblem,
    n_plan: usize,
    backend: &'static str,
    which: &'static str,
    cancel: Option<&Cancel>,
) -> Result<clarabel::solver::DefaultSolution<f64>, LpError> {
    use clarabel::solver::{IPSolver as _, SolverStatus as S};
    let fail = |status: String| LpError::Solver { backend, which, status };
    let mut solver = model.try_into_solver().map_err(|e| fail(e.to_string()))?;
    if let Some(cancel) = cancel {
        let cancel = cancel.clone();
        solver.set_termination_callback(move |_| cancel.is_cancelled());
    }
    solver.solve();
    let sol = solver.solution;
    match sol.status {
        S::Solved | S::AlmostSolved | S::AlmostDualInfeasible | S::DualInfeasible => {
            // The objective is the variable after the plan (`q_0`), negated
            // when maximised.
            let q0 = sol.x[n_plan];
            debug_assert!((sol.obj_val.abs() - q0.abs()).abs() <= 1e-6 * (1.0 + q0.abs()), "{} {q0}", sol.obj_val);
            Ok(sol)
        }
        S::CallbackTerminated => Err(LpError::Cancelled),
        other => Err(fail(format!("{other:?}"))),
    }
}
