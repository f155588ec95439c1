//! Step limits in both executions: a loop, a call, a builtin, a repeated
//! test skipped in generated code, list equality, a count read with its
//! line and filtered candidates stop at the same step with the same
//! located message in the interpreter and in the compiled game, at every
//! limit (issue 52.11's charges among them).

use galac_runtime::game::Family;
use galac_runtime::tree::{build, BuildOptions};

use crate::compiled::{
    endless, endless_calls, equal_cells, filter_steps, line_count, listed_moves, outcomes_at_every_limit,
    remembered_calls, remembered_conjuncts, repeated_test,
};
use crate::repo_root;

/// A flow that loops forever (even through blocks without instructions)
/// stops with the same located error in both executions, whatever the limit.
#[test]
fn step_limit_errors_equal_the_interpreters() {
    let path = repo_root().join("tests/codegen/endless.gala");
    let bytes = std::fs::read(&path).expect("game file");
    for limit in [7, 1000, galac_runtime::game::DEFAULT_STEP_LIMIT] {
        let mut interp =
            galac_compiler::driver::load_interp("endless.gala", &bytes, &[]).unwrap_or_else(|e| panic!("{e}"));
        interp.step_limit = limit;
        let i = build(&interp, &BuildOptions::default()).err().map(|e| e.to_string());
        let game = endless::Family.instantiate(&[], limit).unwrap_or_else(|e| panic!("{e}"));
        let c = build(&game, &BuildOptions::default()).err().map(|e| e.to_string());
        let expected = format!("endless.gala:10:13: no event within {limit} steps: an endless loop, or more work between two events than the step limit allows");
        let first_line = i.as_deref().and_then(|e| e.lines().next());
        assert_eq!(first_line, Some(expected.as_str()), "interpreter, limit {limit}");
        assert_eq!(c, i, "limit {limit}");
    }
}

/// Builds the codegen test game `name` through both executions at each step
/// limit of `limits` (and the default); each must stop with the same
/// step-limit error. Returns the places (file:line:col) where they stopped.
fn step_limit_places<F: Family>(
    name: &str,
    family: &F,
    limits: std::ops::Range<u64>,
) -> std::collections::BTreeSet<String> {
    let file = format!("{name}.gala");
    let bytes = std::fs::read(repo_root().join("tests/codegen").join(&file)).expect("game file");
    let mut places = std::collections::BTreeSet::new();
    for (limit, error) in outcomes_at_every_limit(&file, &bytes, family, &[], limits) {
        let i = error.unwrap_or_else(|| panic!("limit {limit}: no error"));
        assert!(i.contains(&format!("no event within {limit} steps")), "limit {limit}: {i}");
        places.insert(i.split(": ").next().unwrap_or_default().to_string());
    }
    places
}

/// Calls and `combinations` count steps in both executions alike: at every
/// limit, the loop stops at the same step (in the fn, at the call, at the
/// builtin or at the loop's head) with the same message.
#[test]
fn step_limits_through_calls_and_builtins_equal_the_interpreters() {
    let places = step_limit_places("endless_calls", &endless_calls::Family, 1..120);
    // The limits fall on every statement of the fn, the call and the builtin.
    assert!(places.len() >= 12, "{places:?}");
}

/// A player's choice over a list a fn makes, remembered by the interpreter
/// with the steps its evaluation took, is offered again after more work
/// (a longer loop for a later deal): at every limit both executions stop at
/// the same step with the same message (a remembered list whose steps no
/// longer fit is evaluated again, and stops where it did), the fn's body
/// among the places.
#[test]
fn step_limits_at_a_remembered_choice_equal_the_interpreters() {
    let bytes = std::fs::read(repo_root().join("tests/codegen/listed_moves.gala")).expect("game file");
    let outcomes = outcomes_at_every_limit("listed_moves.gala", &bytes, &listed_moves::Family, &[], 1..80);
    let body = String::from_utf8_lossy(&bytes).lines().position(|l| l.contains("xs = push(xs, i);")).expect("the fn");
    let at = format!("listed_moves.gala:{}:", body + 1);
    let in_body = outcomes.iter().filter(|(_, e)| e.as_deref().is_some_and(|e| e.starts_with(&at))).count();
    assert!(in_body >= 3, "{outcomes:?}");
    assert!(outcomes.last().is_some_and(|(_, e)| e.is_none()), "the default limit builds the tree");
}

/// A chance's `where` remembered conjunct by conjunct by the interpreter,
/// its steps (a step per item, and each conjunct's where the ones before it
/// held) taken at once where they fit: at every limit both executions stop
/// at the same step with the same message, the remembered tests among the
/// places, and from some limit on build the same tree.
#[test]
fn step_limits_at_remembered_conjuncts_equal_the_interpreters() {
    let bytes = std::fs::read(repo_root().join("tests/codegen/remembered_conjuncts.gala")).expect("game file");
    let outcomes =
        outcomes_at_every_limit("remembered_conjuncts.gala", &bytes, &remembered_conjuncts::Family, &[], 1..40);
    let line =
        String::from_utf8_lossy(&bytes).lines().position(|l| l.contains("!contains(held, e)")).expect("the test");
    let at = format!("remembered_conjuncts.gala:{}:", line + 1);
    assert!(outcomes.iter().any(|(_, e)| e.as_deref().is_some_and(|e| e.starts_with(&at))), "{outcomes:?}");
    assert!(outcomes.iter().any(|(_, e)| e.is_none()), "{outcomes:?}");
}

/// Fns whose last calls generated code remembers (`galac_runtime::recent::Calls`),
/// called again with the same arguments after more steps each time, so
/// that at some limits a call recalled on one deal does not fit on a later
/// one: at every limit both executions stop at the same step with the same
/// message, some inside that fn on a later deal, and from some limit on
/// build the same tree.
#[test]
fn step_limits_at_remembered_calls_equal_the_interpreters() {
    let bytes = std::fs::read(repo_root().join("tests/codegen/remembered_calls.gala")).expect("game file");
    let outcomes = outcomes_at_every_limit("remembered_calls.gala", &bytes, &remembered_calls::Family, &[], 1..80);
    let text = String::from_utf8_lossy(&bytes);
    let lines: Vec<&str> = text.lines().collect();
    let first = lines.iter().position(|l| l.contains("fn upto(")).expect("upto") + 1;
    let last = first + lines[first..].iter().position(|l| l.contains("fn ")).expect("the next fn");
    let in_upto_later = |e: &str| {
        let line: usize = e.split(':').nth(1).and_then(|l| l.parse().ok()).unwrap_or(0);
        (first..=last).contains(&line) && !e.contains("in the play: nature: 0")
    };
    assert!(outcomes.iter().any(|(_, e)| e.as_deref().is_some_and(in_upto_later)), "{outcomes:?}");
    assert!(outcomes.iter().any(|(_, e)| e.is_none()), "{outcomes:?}");
}

/// A loop's exit test asked again by the `if` after it is skipped in the
/// generated code, its block's steps still counted: at every limit both
/// executions stop at the same step with the same message.
#[test]
fn step_limits_at_a_repeated_test_equal_the_interpreters() {
    let places = step_limit_places("repeated_test", &repeated_test::Family, 1..150);
    // The choice, both loops' heads and bodies, the skipped test and after.
    assert!(places.len() >= 5, "{places:?}");
}

/// `==` and `!=` on lists and arrays take a step per cell, alike in both
/// executions (issue 52.11): at every limit they stop at the same step
/// with the same message, the comparisons (a repeated one skipped in the
/// generated code, a `where` clause, a list of lists) among the places.
#[test]
fn step_limits_at_list_equality_equal_the_interpreters() {
    let bytes = std::fs::read(repo_root().join("tests/codegen/equal_cells.gala")).expect("game file");
    // From some limit on, the whole tree is built.
    let errors = outcomes_at_every_limit("equal_cells.gala", &bytes, &equal_cells::Family, &[], 1..200);
    let places: std::collections::BTreeSet<String> =
        errors.into_iter().filter_map(|(_, e)| Some(e?.split(": ").next().unwrap_or_default().to_string())).collect();
    for at in ["15:15", "19:12", "22:15", "26:34"] {
        assert!(places.contains(&format!("equal_cells.gala:{at}")), "{at}: {places:?}");
    }
}

/// A comparison of a large array in a loop stops at the step limit (it
/// took no steps: a loop of them ran for seconds); the generated code
/// counts the same steps (the test above).
#[test]
fn comparing_large_arrays_in_a_loop_stops_at_the_step_limit() {
    let src = "game big { players a; var board: [[int; 300]; 300] = [[0; 300]; 300]; \
               flow { let n = 0; while n < 1000 && board == [[0; 300]; 300] { n += 1; } outcome [n]; } }";
    let interp = galac_compiler::driver::load_interp("big.gala", src.as_bytes(), &[]).unwrap_or_else(|e| panic!("{e}"));
    let err = build(&interp, &BuildOptions::default()).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(err.starts_with("big.gala:1:107: no event within 1000000 steps"), "{err}");
}

/// A loop's `until has_line` and `unless count(...) == 0` read in one pass
/// in the generated code: at every limit (among them the move's body, the
/// line, the count and the candidates after it) both executions stop at
/// the same step with the same message.
#[test]
fn step_limits_at_a_count_read_with_the_line_equal_the_interpreters() {
    let bytes = std::fs::read(repo_root().join("tests/codegen/line_count.gala")).expect("game file");
    // The game's count is read from the pass that asked `has_line`.
    let ir = galac_compiler::driver::load_interp("line_count.gala", &bytes, &[]).unwrap_or_else(|e| panic!("{e}"));
    let code = galac_compiler::codegen::emit_game(ir.ir(), None, ir.locator(), "line_count.gala").expect("code");
    assert!(code.contains("ops::line_and_count(") && code.contains("ops::counted("), "no one-pass scan");
    // From 89 steps on, the whole tree is built.
    let errors = outcomes_at_every_limit("line_count.gala", &bytes, &line_count::Family, &[], 1..100);
    let places: std::collections::BTreeSet<String> =
        errors.into_iter().filter_map(|(_, e)| Some(e?.split(": ").next().unwrap_or_default().to_string())).collect();
    // The count (at the loop's head and after a move) among them.
    assert!(places.contains("line_count.gala:26:18"), "{places:?}");
    assert!(places.len() >= 5, "{places:?}");
}

/// A `where` costs a step per candidate, with or without calls in it: at
/// every limit, before, among and after the candidates of both choices,
/// both executions stop at the same step with the same message.
#[test]
fn step_limits_among_filtered_candidates_equal_the_interpreters() {
    let places = step_limit_places("filter_steps", &filter_steps::Family, 1..80);
    // Before the first choice, at each choice (its candidates), in the fn and in the loop.
    assert!(places.len() >= 5, "{places:?}");
}
