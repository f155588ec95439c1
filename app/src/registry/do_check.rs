//! The seeded oracle's check of its answer on the full tree: the
//! evaluator that makes it (made beside the oracle, while a second build
//! makes the tree's labels), the oracle's certifier on the tree, whose
//! evaluation of the answer is the check, and the answer's labels made
//! beside the check.

use std::sync::{Mutex, MutexGuard};

use galac_runtime::cancel::Reason;
use galac_runtime::game::Game;
use galac_runtime::ids::{IdVec, InfosetId};
use galac_runtime::tree::{Tree, TreeLabels};
use galac_solvers::best_response::{Evaluation, Evaluator};
use galac_solvers::double_oracle::{Candidate, DoSolution};
use galac_solvers::solver::SolveError;
use galac_solvers::Profile;

use crate::report::unique_labels;
use crate::LimitArgs;

/// The check's evaluator of a tree, made once, by whichever thread needs
/// it first: the labels' ([`labels_meanwhile`]) or the oracle's certifier.
pub(super) type EvaluatorSlot = Mutex<Option<Evaluator>>;

/// The evaluator in `slot`, made there (of `tree`, on `threads`) if none is.
fn evaluator_in<'s>(slot: &'s EvaluatorSlot, tree: &Tree, threads: usize) -> MutexGuard<'s, Option<Evaluator>> {
    // A panic elsewhere holding the lock left the evaluator whole: its
    // buffers are reset by each evaluation.
    let mut guard = slot.lock().unwrap_or_else(|e| e.into_inner());
    if guard.is_none() {
        *guard = Some(Evaluator::with_threads(tree, threads));
    }
    guard
}

/// The answer's profile on `tree` and its exact check.
pub(super) type Checked = (Profile, Evaluation);

/// The oracle's certifier on `tree` (`double_oracle::Certifier`): the
/// candidate's profile, checked by the evaluator in `slot`; the last
/// check is kept in `checked`, the report's when the run ends on it.
pub(super) fn certifier<'a>(
    tree: &'a Tree,
    slot: &'a EvaluatorSlot,
    threads: usize,
    checked: &'a mut Option<Checked>,
) -> impl FnMut(&Candidate<'_>) -> Result<[f64; 2], SolveError> + 'a {
    move |candidate| {
        let profile = candidate.profile(tree)?;
        let eval = evaluator_in(slot, tree, threads).as_mut().expect("made above").evaluate(tree, &profile);
        let values = [eval.best_response[0], eval.best_response[1]];
        *checked = Some((profile, eval));
        Ok(values)
    }
}

/// Runs `oracle` on this thread while another builds the game's tree again
/// with labels (from a copy `make` makes, numbering its sets as the first
/// build did), for [`Tree::adopt_labels`]: the labels
/// of a large tree are much of its build, and the oracle leaves the second
/// core idle (docs/perf/double-oracle.md, "Two cores"). That thread then
/// makes the check's evaluator of `tree` in `slot` (its preorder and each
/// player's sets: a function of the tree alone) unless the oracle's
/// certifier made it first. The second build is stopped if the oracle
/// fails; no labelled tree if `make` makes no game.
pub(super) fn labels_meanwhile<G: Game, R>(
    make: &(dyn Fn() -> Option<G> + Sync),
    limits: &LimitArgs,
    tree: &Tree,
    slot: &EvaluatorSlot,
    oracle: impl FnOnce() -> Result<R, SolveError>,
) -> (Result<R, SolveError>, Option<Result<TreeLabels, String>>) {
    let cancel = galac_runtime::cancel::Cancel::new();
    let opts = galac_runtime::tree::BuildOptions { cancel: Some(cancel.clone()), ..limits.build_options(true) };
    let threads = limits.threads_or_all();
    std::thread::scope(|s| {
        let labels = s.spawn(|| {
            // The labels alone are kept: the second build's nodes are let
            // go before the certifier's evaluation may need the room.
            let labelled = make().map(|game| {
                let (labelled, _, _) = galac_runtime::tree::build_own(&game, &opts).map_err(|e| e.to_string())?;
                tree.labels_of(labelled)
            });
            if !cancel.is_cancelled() {
                drop(evaluator_in(slot, tree, threads));
            }
            labelled
        });
        let result = oracle();
        if result.is_err() {
            cancel.cancel(Reason::Interrupted);
        }
        let labelled = labels.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
        (result, labelled)
    })
}

/// The answer on `tree`: its sets' unique labels when `whole` asks for
/// them, its profile and the profile's exact check: `certified` when the
/// run ended on it ([`DoSolution::tree_certified`]), else made by
/// `evaluator` (of `tree`; made here if `None`). With two threads the
/// labels are made while the profile is made and checked: neither reads
/// the other.
#[allow(clippy::type_complexity)]
pub(super) fn checked_with_labels(
    sol: &DoSolution,
    tree: &Tree,
    whole: bool,
    (evaluator, certified): (Option<Evaluator>, Option<Checked>),
    threads: usize,
) -> Result<(Option<IdVec<InfosetId, String>>, Profile, Evaluation), String> {
    let certified = certified.filter(|_| sol.tree_certified);
    let checked = || match certified {
        Some(checked) => Ok(checked),
        None => {
            let profile = sol.profile(tree).map_err(|e| e.to_string())?;
            let mut evaluator = evaluator.unwrap_or_else(|| Evaluator::with_threads(tree, threads));
            let eval = evaluator.evaluate(tree, &profile);
            Ok::<_, String>((profile, eval))
        }
    };
    let labels = || whole.then(|| unique_labels(tree));
    let (labels, checked) = if threads > 1 && whole {
        std::thread::scope(|s| {
            let labels = s.spawn(labels);
            let checked = checked();
            (labels.join().unwrap_or_else(|e| std::panic::resume_unwind(e)), checked)
        })
    } else {
        (labels(), checked())
    };
    let (profile, eval) = checked?;
    Ok((labels, profile, eval))
}
