//! The sequence-form LP (`--solver lp`, two-player zero-sum games): its
//! backend flag and its run (one call, shown by a spinner).

use galac_runtime::tree::{NodeView, Tree};
/// Where HiGHS is loaded from, for the solvers galac compiles.
pub use galac_solvers::lp::highs_library_path;
use galac_solvers::lp::{Backend, LpSolver, HIGHS_FROM_SEQUENCES};
use galac_solvers::lp_public::{PublicLp, PublicLpSolver, PUBLIC_BACKEND};
use galac_solvers::solver::{RunToEnd, Solver};
use galac_solvers::vector::FromTree;

use super::solved::{with_hint, Context, Solved};

/// Flags of the LP (read by the double oracle's restricted LPs too).
#[derive(clap::Args, Debug, Clone)]
pub struct LpArgs {
    /// The LP backend: highs (HiGHS's simplex, where its library loads:
    /// README, "Set up"), clarabel (pure-Rust interior point) or microlp
    /// (pure-Rust simplex). Default: for the full LP of a game in vector
    /// CFR's class whose LP over the public tree is small (nonzeros at most
    /// a third of the tree's nodes, from 5,000 sequences), that LP by
    /// clarabel; else highs from 5,000 sequences with at most 10 leaves a
    /// sequence (where it loads), else clarabel; for the double oracle's
    /// restricted LPs, the full LP's engine on the tree when seeded by
    /// CFR+, else highs on games estimated at 5,000,000 nodes or more
    /// (where it loads), else clarabel (with highs each starts from the
    /// last one's basis).
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
    Backend::for_size(sequences(tree), leaves(tree))
}

/// The public LP of `tree` (`galac_solvers::lp_public`), when it is the
/// better form: a tree of at least [`HIGHS_FROM_SEQUENCES`] sequences in
/// vector CFR's class whose public LP has at most a third as many nonzeros
/// as the tree has nodes (the scalar LP has a payoff entry for about every
/// leaf; `registry::default_before_tree` applies the same rule to the
/// tree's estimate). 13-rank Leduc (showdowns and folds; 1,179,777 nodes)
/// has 203,558 nonzeros against the scalar LP's 754,522; liar's dice,
/// whose leaves are payoff matrices, 141,453 for 294,883 nodes, and there
/// the scalar LP is faster (docs/perf/lp.md, "The public LP"). With the
/// seconds the public game took to derive.
fn public_form(tree: &Tree) -> Option<(FromTree, f64)> {
    let start = std::time::Instant::now();
    if sequences(tree) < HIGHS_FROM_SEQUENCES {
        return None;
    }
    let derived = galac_solvers::vector::from_tree(tree).ok()?;
    let nonzeros = PublicLp::new(&derived.game).size().nonzeros;
    (3 * nonzeros <= tree.n_nodes()).then(|| (derived, start.elapsed().as_secs_f64()))
}

/// Sequences of both players: each set's actions, and the two empty ones.
fn sequences(tree: &Tree) -> usize {
    2 + tree.infosets.iter().map(|i| i.n_actions as usize).sum::<usize>()
}

fn leaves(tree: &Tree) -> usize {
    tree.nodes().filter(|&n| tree.node(n) == NodeView::Terminal).count()
}

/// The registry's `lp` row.
pub fn run(args: &LpArgs, tree: &Tree, cx: &Context) -> Result<Solved, String> {
    let named = args.backend()?;
    if named != Some(Backend::Microlp) {
        // The public game's derivation counts against the memory limit too.
        let public = {
            let _watch = cx.limits.watch("the sequence-form LP");
            public_form(tree)
        };
        if let Some((derived, seconds)) = public {
            let solver = PublicLpSolver { backend: named.unwrap_or(PUBLIC_BACKEND), cancel: cx.limits.cancel.clone() };
            let solution = {
                let _spinner =
                    crate::progress::spinner("solving the sequence-form LP on the public tree", cx.limits.quiet);
                let _watch = cx.limits.watch("the sequence-form LP");
                solver.solve_derived(tree, &derived, seconds, &mut RunToEnd)
            }
            .map_err(|e| with_hint(&e))?;
            let note =
                "the LP is written over the public tree: a showdown or fold costs O(n) nonzeros, not n x n".into();
            return Ok(Solved {
                solution,
                name: solver.name(),
                notes: vec![note],
                curve: None,
                findings: None,
                distributed: None,
            });
        }
    }
    let backend = match named {
        Some(named) => named,
        None => backend_for(tree),
    };
    let solver = LpSolver { backend, cancel: cx.limits.cancel.clone() };
    let solution = {
        let _spinner = crate::progress::spinner("solving the sequence-form LP", cx.limits.quiet);
        let _watch = cx.limits.watch("the sequence-form LP");
        solver.solve(tree, &mut RunToEnd)
    }
    .map_err(|e| with_hint(&e))?;
    Ok(Solved { solution, name: solver.name(), notes: Vec::new(), curve: None, findings: None, distributed: None })
}
