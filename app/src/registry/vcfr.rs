//! Public-state vector CFR (`--solver vcfr|vcfr+`): its run through the
//! [`Harness`], with the CFR family's `--iterations` and `--check-every`.
//! The algorithm lives in `galac_solvers::vector`; this module only drives it.
//! The answer's findings count the public game's nodes per street
//! (`public_game`: decisions and leaves), as the hold'em bench compares them.

use galac_runtime::tree::Tree;
use galac_solvers::cfr::Variant;
use galac_solvers::solver::Solver;
use galac_solvers::vector::{VcfrConfig, VcfrSolver};

use super::cfr::CfrArgs;
use super::harness::{Harness, StopArgs};
use super::solved::{fields, with_hint, Context, Solved};

/// The `solve` answer's fields of vector CFR.
#[derive(serde::Serialize)]
struct Findings {
    public_game: galac_solvers::vector::PerStreet,
}

/// Runs vector CFR (`variant`: CFR+ or DCFR) on `tree`.
pub fn run(args: &CfrArgs, stop: &StopArgs, variant: Variant, tree: &Tree, cx: &Context) -> Result<Solved, String> {
    let (iterations, checks) = args.schedule(stop);
    let threads = cx.limits.threads_or_all();
    let config = VcfrConfig { checks, threads, memory: cx.limits.memory(), ..VcfrConfig::new(variant, iterations) };
    let solver = VcfrSolver { config };
    let done = std::cell::Cell::new(0u64);
    let mut harness = Harness::new("iterations", Some(iterations), stop, cx.limits.quiet);
    harness.cancel = cx.limits.cancel.clone();
    harness.each = Some(Box::new(|p| done.set(p.iteration)));
    // As the CFR family's: the arrays estimated first, then the process watched.
    let watch = crate::memory::watch(cx.limits, "vector CFR");
    let result = solver.solve_public(tree, &mut harness);
    drop(watch);
    harness.finish();
    let (solution, streets) = result.map_err(|e| with_hint(&e))?;
    let stopped = if solution.stopped { ", stopped" } else { "" };
    let curve = std::mem::take(&mut harness.curve);
    drop(harness);
    Ok(Solved {
        name: format!("{} ({} iterations{stopped})", solver.name(), done.get()),
        solution,
        notes: vec![format!("public game: decisions {:?}, leaves {:?} per street", streets.decisions, streets.leaves)],
        curve: Some(curve),
        findings: Some(fields(&Findings { public_game: streets })?),
        distributed: None,
    })
}
