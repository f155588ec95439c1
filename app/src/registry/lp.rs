//! The sequence-form LP (`--solver lp`, two-player zero-sum games): its
//! backend flag and its run (one call, shown by a spinner).

use galac_runtime::tree::{NodeView, Tree};
use galac_solvers::lp::{Backend, LpSolver};
use galac_solvers::solver::{RunToEnd, Solver};

use super::solved::{with_hint, Context, Solved};

/// Flags of the LP (read by the double oracle's restricted LPs too).
#[derive(clap::Args, Debug, Clone)]
pub struct LpArgs {
    /// The LP backend: highs (HiGHS's simplex, where its library loads:
    /// README, "Set up"), clarabel (pure-Rust interior point) or microlp
    /// (pure-Rust simplex). Default: for the full LP, highs from 5,000
    /// sequences with at most 10 leaves a sequence (where it loads), else
    /// clarabel; for the double oracle's
    /// restricted LPs, clarabel (with highs each starts from the last
    /// one's basis).
    #[arg(long, value_name = "NAME")]
    pub lp_backend: Option<String>,
}

impl LpArgs {
    /// The LP backend the flag names (`None`: chosen by the LP's size), or
    /// why it is wrong.
    pub fn backend(&self) -> Result<Option<Backend>, String> {
        let Some(name) = &self.lp_backend else { return Ok(None) };
        let backend = Backend::from_name(name).ok_or_else(|| {
            let names: Vec<&str> = Backend::ALL.iter().map(|b| b.name()).collect();
            format!("unknown LP backend `{name}`; available: {}", names.join(", "))
        })?;
        backend.available()?;
        Ok(Some(backend))
    }
}

/// The engine for the sequence-form LP of `tree` (or of a restricted
/// game of it) when none is named: [`Backend::for_size`] of its sequences
/// and leaves.
pub fn backend_for(tree: &Tree) -> Backend {
    // Sequences of both players: each set's actions, and the two empty ones.
    let sequences = 2 + tree.infosets.iter().map(|i| i.n_actions as usize).sum::<usize>();
    let leaves = tree.nodes().filter(|&n| tree.node(n) == NodeView::Terminal).count();
    Backend::for_size(sequences, leaves)
}

/// The registry's `lp` row.
pub fn run(args: &LpArgs, tree: &Tree, cx: &Context) -> Result<Solved, String> {
    let backend = match args.backend()? {
        Some(named) => named,
        None => backend_for(tree),
    };
    let solver = LpSolver { backend, cancel: cx.limits.cancel.clone() };
    let solution = {
        let _spinner = crate::progress::spinner("solving the sequence-form LP", cx.limits.quiet);
        let _watch = crate::memory::watch(cx.limits, "the sequence-form LP");
        solver.solve(tree, &mut RunToEnd)
    }
    .map_err(|e| with_hint(&e))?;
    Ok(Solved { solution, name: solver.name(), notes: Vec::new(), curve: None, findings: None, distributed: None })
}
