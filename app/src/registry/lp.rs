//! The sequence-form LP (`--solver lp`, two-player zero-sum games): its
//! backend flag and its run (one call, shown by a spinner).

use galac_runtime::tree::Tree;
use galac_solvers::lp::{Backend, LpSolver};
use galac_solvers::solver::{RunToEnd, Solver};

use super::solved::{with_hint, Context, Solved};

/// Flags of the LP (read by the double oracle's restricted LPs too).
#[derive(clap::Args, Debug, Clone)]
pub struct LpArgs {
    /// The LP backend: highs (HiGHS's simplex; the default where the HiGHS
    /// library loads: README, "Set up"), clarabel (pure-Rust interior
    /// point; the default otherwise) or microlp (pure-Rust simplex).
    #[arg(long, value_name = "NAME")]
    pub lp_backend: Option<String>,
}

impl LpArgs {
    /// The LP backend the flag names, or why it is wrong.
    pub fn backend(&self) -> Result<Backend, String> {
        let Some(name) = &self.lp_backend else { return Ok(Backend::preferred()) };
        let backend = Backend::from_name(name).ok_or_else(|| {
            let names: Vec<&str> = Backend::ALL.iter().map(|b| b.name()).collect();
            format!("unknown LP backend `{name}`; available: {}", names.join(", "))
        })?;
        backend.available()?;
        Ok(backend)
    }
}

/// The registry's `lp` row.
pub fn run(args: &LpArgs, tree: &Tree, cx: &Context) -> Result<Solved, String> {
    let solver = LpSolver { backend: args.backend()? };
    let solution = {
        let _spinner = crate::progress::spinner("solving the sequence-form LP", cx.limits.quiet);
        let _watch = crate::memory::watch(cx.limits.memory(), "the sequence-form LP");
        solver.solve(tree, &mut RunToEnd)
    }
    .map_err(|e| with_hint(&e))?;
    Ok(Solved { solution, name: solver.name(), notes: Vec::new(), curve: None, findings: None })
}
