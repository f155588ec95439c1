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

/// A column-wise LP (the form HiGHS takes, [`crate::highs::Model`]) solved
/// by clarabel directly: equality rows as its zero cone, then the rows
/// `-inf <= a x <= u` and the columns' lower bounds of 0 as its
/// nonnegative cone (every row and column of the LPs galac passes has one
/// of these shapes; free columns have no bound row). Returns the columns'
/// values, the rows' multipliers (in the model's row order) and the
/// objective, maximised or minimised as the model says.
pub(crate) fn solve_model(
    model: &crate::highs::Model,
    which: &'static str,
    cancel: Option<&Cancel>,
) -> Result<ModelOptimum, LpError> {
    use clarabel::algebra::CscMatrix;
    use clarabel::solver::{DefaultSettings, DefaultSolver, IPSolver as _, SolverStatus as S, SupportedConeT};
    let fail = |status: String| LpError::Solver { backend: "clarabel", which, status };
    let (n_cols, n_rows) = (model.cost.len(), model.row_lower.len());
    // Clarabel's row of each model row: equalities first, then the `<=` rows.
    let eq: Vec<bool> = (0..n_rows).map(|r| model.row_lower[r] == model.row_upper[r]).collect();
    if (0..n_rows).any(|r| !eq[r] && model.row_lower[r] != f64::NEG_INFINITY)
        || (0..n_cols)
            .any(|c| model.col_upper[c] != f64::INFINITY || ![0.0, f64::NEG_INFINITY].contains(&model.col_lower[c]))
    {
        return Err(fail("a row or bound clarabel's form here does not take".into()));
    }
    let n_eq = eq.iter().filter(|&&e| e).count();
    let mut at = vec![0usize; n_rows];
    let (mut next_eq, mut next_le) = (0, n_eq);
    for r in 0..n_rows {
        let next = if eq[r] { &mut next_eq } else { &mut next_le };
        at[r] = *next;
        *next += 1;
    }
    let bounded: Vec<usize> = (0..n_cols).filter(|&c| model.col_lower[c] == 0.0).collect();
    let m = n_rows + bounded.len();
    let mut b = vec![0.0; m];
    for r in 0..n_rows {
        b[at[r]] = model.row_upper[r];
    }
    // A, column by column: the model's entries at their rows, then `-x <= 0`.
    let (mut colptr, mut rowval, mut nzval) = (vec![0usize], Vec::new(), Vec::new());
    let mut bound_row = n_rows;
    let mut column: Vec<(usize, f64)> = Vec::new();
    for c in 0..n_cols {
        column.clear();
        let (s, e) = (model.start[c] as usize, model.start[c + 1] as usize);
        column.extend((s..e).map(|k| (at[model.index[k] as usize], model.value[k])));
        if model.col_lower[c] == 0.0 {
            column.push((bound_row, -1.0));
            bound_row += 1;
        }
        column.sort_unstable_by_key(|&(r, _)| r);
        rowval.extend(column.iter().map(|&(r, _)| r));
        nzval.extend(column.iter().map(|&(_, v)| v));
        colptr.push(rowval.len());
    }
    let a = CscMatrix::new(m, n_cols, colptr, rowval, nzval);
    let p = CscMatrix::zeros((n_cols, n_cols));
    let sign = if model.maximise { -1.0 } else { 1.0 };
    let q: Vec<f64> = model.cost.iter().map(|c| sign * c).collect();
    let cones = [SupportedConeT::ZeroConeT(n_eq), SupportedConeT::NonnegativeConeT(m - n_eq)];
    let settings = DefaultSettings::<f64> {
        verbose: false,
        tol_gap_abs: 1e-12,
        tol_gap_rel: 1e-12,
        tol_feas: 1e-12,
        max_iter: 500,
        ..DefaultSettings::default()
    };
    let mut solver = DefaultSolver::new(&p, &q, &a, &b, &cones, settings).map_err(|e| fail(e.to_string()))?;
    if let Some(cancel) = cancel {
        let cancel = cancel.clone();
        solver.set_termination_callback(move |_| cancel.is_cancelled());
    }
    solver.solve();
    let sol = solver.solution;
    match sol.status {
        S::Solved | S::AlmostSolved => {}
        S::CallbackTerminated => return Err(LpError::Cancelled),
        other => return Err(fail(format!("{other:?}"))),
    }
    let row_duals = (0..n_rows).map(|r| sol.z[at[r]]).collect();
    Ok(ModelOptimum { objective: sign * sol.obj_val, cols: sol.x, row_duals })
}

/// [`solve_model`]'s answer.
pub(crate) struct ModelOptimum {
    pub objective: f64,
    pub cols: Vec<f64>,
    pub row_duals: Vec<f64>,
}
