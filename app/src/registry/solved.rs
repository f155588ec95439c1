//! What every solver's run shares: the [`Context`] it is given and the
//! [`Solved`] answer it returns, and the hint a limit error gets. A leaf of
//! the registry: the solvers' modules use it, it uses none of them.

use std::path::Path;

use galac_solvers::best_response::Evaluation;
use galac_solvers::cfr::distributed::Collective;
use galac_solvers::solver::{Solution, SolveError};

use super::harness::Point;
use crate::LimitArgs;

/// What a run of a solver on a tree needs besides its flags.
pub struct Context<'a> {
    pub limits: &'a LimitArgs,
    /// The file for the convergence curve (`--curve`), if any.
    pub curve: Option<&'a Path>,
    /// The MPI job of a `--distributed` run (started before the tree, of
    /// which this rank built its shard).
    pub job: Option<&'a dyn Collective>,
}

/// A solver's answer with what the report shows of it.
pub struct Solved {
    pub solution: Solution,
    /// How the report names the run ("cfr+ (1000 iterations)").
    pub name: String,
    /// Lines for the report, after the solver's name.
    pub notes: Vec<String>,
    /// An iterative solver's convergence curve.
    pub curve: Option<Vec<Point>>,
    /// The solver's own fields of the `solve` JSON answer (from its own
    /// serde struct: [`fields`]).
    pub findings: Option<Fields>,
    /// What a distributed run (`--distributed`) found that the report
    /// cannot compute from this rank's tree.
    pub distributed: Option<DistributedRun>,
}

/// What the report of a distributed run takes from the run, not from rank
/// 0's tree, which may be only its shard.
#[derive(Clone, Debug)]
pub struct DistributedRun {
    /// The answer's exploitability, computed by the ranks together.
    pub evaluation: Evaluation,
    /// The whole tree's node count when each rank built only its shard.
    pub whole_nodes: Option<u64>,
}

/// JSON fields, flattened into the `solve` answer.
pub type Fields = serde_json::Map<String, serde_json::Value>;

/// A solver's own serde struct as the fields of the `solve` answer.
pub fn fields(findings: &dyn crate::answer::Json) -> Result<Fields, String> {
    match findings.json_value() {
        Ok(serde_json::Value::Object(map)) => Ok(map),
        Ok(other) => Err(format!("a solver's findings are not a JSON object: {other}")),
        Err(e) => Err(format!("a solver's findings cannot be written as JSON: {e}")),
    }
}

/// The message of a solver's error, with the flag that raises the limit
/// it hit, if any, on a line of its own.
pub fn with_hint(e: &SolveError) -> String {
    match e {
        SolveError::TooMuchMemory { .. } | SolveError::ExploredMemory { .. } => {
            format!("{e}\nhint: raise the limit with --max-memory")
        }
        SolveError::ExploredNodes { .. } => format!("{e}\nhint: raise the limit with --max-nodes"),
        _ => e.to_string(),
    }
}
