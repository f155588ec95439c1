//! The compiled games against the interpreter: for every example (and a game
//! with hostile names), the generated Rust builds a tree identical to the
//! interpreter's (a digest over node order, kinds, players, information
//! sets, chance probabilities and payoffs; and the labels), with the same
//! solve results and the known values.

use galac_runtime::game::Family;
use galac_runtime::ids::{InfosetId, PlayerId};
use galac_runtime::tree::{build, BuildOptions, Tree};
use galac_solvers::best_response::evaluate;
use galac_solvers::lp::{self, Backend};
use galac_solvers::sequence_form::SequenceForm;
use galac_solvers::Profile;

use crate::games::{digest, instantiate, load_interp};
use crate::repo_root;
use galac_runtime::memory::MemoryLimit;

/// A compiled game's tree (labels on) with `name=value` param overrides,
/// or the error its build stops with.
type CompiledTree = fn(&[&str]) -> Result<Tree, String>;

/// Default params can make a large tree (blind tic-tac-toe: 87 M nodes);
/// past this many nodes both executions stop with the same error, and the
/// game is compared with smaller params below. With `GALAC_SLOW_TESTS=1`
/// (CI): more, so that liar's dice (294,883 nodes) is compared whole.
const DEFAULT_PARAMS_NODES: u64 = 300_000;

/// The same without `GALAC_SLOW_TESTS=1`: the interpreter, unoptimised in
/// the test build, took minutes of the suite on the largest examples.
const QUICK_PARAMS_NODES: u64 = 30_000;

fn options() -> BuildOptions {
    let max_nodes = if crate::slow_tests() { DEFAULT_PARAMS_NODES } else { QUICK_PARAMS_NODES };
    BuildOptions { labels: true, max_nodes, ..BuildOptions::default() }
}

fn compiled_tree<F: Family>(family: &F, params: &[&str]) -> Result<Tree, String> {
    let game = instantiate(family, params)?;
    build(&game, &options()).map(|b| b.0).map_err(|e| e.to_string())
}

// The modules of every example and codegen test game, and `ALL_GAMES`.
include!(concat!(env!("OUT_DIR"), "/all_games.rs"));

fn labels(t: &Tree) -> Vec<(String, Vec<String>)> {
    t.infosets.keys().map(|i| (t.infoset_label(i).to_string(), t.action_labels(i).to_vec())).collect()
}

fn interpreted(file: &str, params: &[&str]) -> Tree {
    let game = load_interp(file, params).unwrap_or_else(|e| panic!("{e}"));
    build(&game, &BuildOptions { labels: true, ..BuildOptions::default() }).unwrap_or_else(|e| panic!("{e}")).0
}

fn compiled<F: Family>(family: &F, params: &[&str]) -> Tree {
    let game = instantiate(family, params).unwrap_or_else(|e| panic!("{e}"));
    build(&game, &BuildOptions { labels: true, ..BuildOptions::default() }).unwrap_or_else(|e| panic!("{e}")).0
}

fn same_tree(file: &str, params: &[&str], c: Tree) {
    let i = interpreted(file, params);
    assert_eq!(i.stats(), c.stats(), "{file} {params:?}: stats differ");
    assert_eq!(digest(&i), digest(&c), "{file} {params:?}: trees differ");
    assert_eq!(labels(&i), labels(&c), "{file} {params:?}: labels differ");
    assert_eq!(i.chance_labels, c.chance_labels, "{file} {params:?}: chance labels differ");
}

/// Every game found in `examples/` and `tests/codegen/`, with its default
/// params: the same tree through both executions, or the same error.
#[test]
fn every_compiled_game_equals_the_interpreter() {
    assert!(ALL_GAMES.len() >= 10, "the build script found {} games", ALL_GAMES.len());
    if !crate::slow_tests() {
        crate::announce(&format!(
            "compiled::every_compiled_game_equals_the_interpreter: trees compared up to {QUICK_PARAMS_NODES} nodes \
             ({DEFAULT_PARAMS_NODES} with GALAC_SLOW_TESTS=1)"
        ));
    }
    for (file, compiled) in ALL_GAMES {
        let params = crate::games::cut_down(file);
        let interpreted =
            load_interp(file, params).and_then(|g| build(&g, &options()).map(|b| b.0).map_err(|e| e.to_string()));
        match (interpreted, compiled(params)) {
            (Ok(_), Ok(c)) => same_tree(file, params, c),
            (Err(i), Err(c)) => assert_eq!(i, c, "{file}: the executions fail differently"),
            (i, c) => panic!("{file}: interpreter {:?}, compiled {:?}", i.err(), c.err()),
        }
    }
}

#[test]
fn compiled_trees_with_params_equal_the_interpreters() {
    same_tree("kuhn.gala", &[], compiled(&kuhn::Family, &[]));
    same_tree("leduc.gala", &[], compiled(&leduc::Family, &[]));
    same_tree("leduc.gala", &["ranks=4", "suits=3"], compiled(&leduc::Family, &["ranks=4", "suits=3"]));
    same_tree("poker.gala", &[], compiled(&poker::Family, &[]));
    same_tree(
        "poker.gala",
        &["cards=2", "ranks=4", "suits=2"],
        compiled(&poker::Family, &["cards=2", "ranks=4", "suits=2"]),
    );
    same_tree("inspection.gala", &[], compiled(&inspection::Family, &[]));
    same_tree(
        "inspection.gala",
        &["stages=6", "inspections=3"],
        compiled(&inspection::Family, &["stages=6", "inspections=3"]),
    );
    same_tree("blind_tictactoe.gala", &["size=2", "line=2"], compiled(&blind_tictactoe::Family, &["size=2", "line=2"]));
    same_tree("nim222.gala", &[], compiled(&nim222::Family, &[]));
    same_tree("tests/codegen/hostile_names.gala", &[], compiled(&hostile_names::Family, &[]));
    same_tree("tests/codegen/slot_sharing.gala", &[], compiled(&slot_sharing::Family, &[]));
    same_tree("tests/codegen/slot_sharing.gala", &["n=4"], compiled(&slot_sharing::Family, &["n=4"]));
    same_tree("tests/codegen/domains.gala", &[], compiled(&domains::Family, &[]));
    same_tree("tests/codegen/domains.gala", &["n=5", "size=3"], compiled(&domains::Family, &["n=5", "size=3"]));
}

/// A `where` starting with a test of a lifted lookup skips the inner
/// candidate loop when the test fails, the constant on either side
/// (`tests/codegen/skipped_candidates.gala`):
/// at every step limit, and with a domain past the grid's columns, the
/// same tree or the same error as the interpreter.
#[test]
fn skipped_candidates_build_the_interpreters_tree() {
    let bytes = std::fs::read(repo_root().join("tests/codegen/skipped_candidates.gala")).expect("game file");
    let mut errors = std::collections::BTreeSet::new();
    for params in [&[][..], &["cols=4"], &["rows=1", "cols=2"]] {
        for flipped in ["flipped=false", "flipped=true"] {
            let params: Vec<String> = params.iter().chain(&[flipped]).map(|p| p.to_string()).collect();
            errors.extend(same_at_every_limit(
                "skipped_candidates.gala",
                &bytes,
                &skipped_candidates::Family,
                &params,
                80,
            ));
        }
    }
    assert!(errors.iter().any(|e| e.contains("out of bounds")), "{errors:?}");
}

/// Own-move records made at the next choice or before a fact told to the
/// mover, not in `apply`, and facts made at the next choice
/// (`tests/codegen/deferred_records.gala`, codegen's deferred.rs and
/// sunk.rs): the interpreter's trees and errors at every step limit.
#[test]
fn deferred_records_build_the_interpreters_tree() {
    let bytes = std::fs::read(repo_root().join("tests/codegen/deferred_records.gala")).expect("game file");
    // Each limit not reached builds the whole tree: the first 30 limits
    // (and the default one) unless GALAC_SLOW_TESTS=1.
    let limits = if crate::slow_tests() { 90 } else { 30 };
    for params in [&[][..], &["n=4"]] {
        let params: Vec<String> = params.iter().map(|p| p.to_string()).collect();
        same_at_every_limit("deferred_records.gala", &bytes, &deferred_records::Family, &params, limits);
    }
}

/// `len` of a Rust array reads its argument (an index past the board's
/// rows, a `sort`'s steps) and an empty array compares with `[]`
/// (`tests/codegen/fixed_len.gala`): the interpreter's trees and errors at
/// every step limit.
#[test]
fn lengths_of_rust_arrays_read_their_argument() {
    let bytes = std::fs::read(repo_root().join("tests/codegen/fixed_len.gala")).expect("game file");
    let mut errors = std::collections::BTreeSet::new();
    for params in [&[][..], &["rows=3"]] {
        let params: Vec<String> = params.iter().map(|p| p.to_string()).collect();
        errors.extend(same_at_every_limit("fixed_len.gala", &bytes, &fixed_len::Family, &params, 40));
    }
    assert!(errors.iter().any(|e| e.contains("out of bounds")), "{errors:?}");
    assert!(errors.iter().any(|e| e.contains("passes the limit")), "{errors:?}");
}

/// Builds `file` (its text `bytes`, with `params`) through the interpreter
/// and through `family` at each step limit in `limits` and at the default
/// one: the same tree or the same error each time. Returns each limit with
/// the error met, if any.
pub(crate) fn outcomes_at_every_limit<F: Family>(
    file: &str,
    bytes: &[u8],
    family: &F,
    params: &[String],
    limits: std::ops::Range<u64>,
) -> Vec<(u64, Option<String>)> {
    let mut outcomes = Vec::new();
    for limit in limits.chain([galac_runtime::game::DEFAULT_STEP_LIMIT]) {
        let mut interp = galac_compiler::driver::load_interp(file, bytes, params).unwrap_or_else(|e| panic!("{e}"));
        interp.step_limit = limit;
        let game = family.instantiate(params, limit).unwrap_or_else(|e| panic!("{e}"));
        match (build(&interp, &BuildOptions::default()), build(&game, &BuildOptions::default())) {
            (Ok(i), Ok(c)) => {
                assert_eq!(digest(&i.0), digest(&c.0), "{params:?} limit {limit}");
                outcomes.push((limit, None));
            }
            (i, c) => {
                let (i, c) = (i.err().map(|e| e.to_string()), c.err().map(|e| e.to_string()));
                assert_eq!(c, i, "{params:?} limit {limit}");
                outcomes.push((limit, i));
            }
        }
    }
    outcomes
}

/// The errors of [`outcomes_at_every_limit`] over limits `1..limits`.
fn same_at_every_limit<F: Family>(
    file: &str,
    bytes: &[u8],
    family: &F,
    params: &[String],
    limits: u64,
) -> std::collections::BTreeSet<String> {
    outcomes_at_every_limit(file, bytes, family, params, 1..limits).into_iter().filter_map(|(_, e)| e).collect()
}

/// A game whose arrays' lengths are params builds with its copy compiled
/// for the defaults (arrays as Rust arrays) when the params have them, with
/// the general game (lists) otherwise, and both build the interpreter's tree.
#[test]
fn arrays_of_param_lengths_build_the_interpreters_tree_in_both_copies() {
    use galac_runtime::game::Game;
    let file = "tests/codegen/fixed_arrays.gala";
    for (params, copy) in [(&[][..], true), (&["n=3"][..], true), (&["n=4"][..], false), (&["n=2"][..], false)] {
        let game = instantiate(&fixed_arrays::Family, params).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(game.specialised().is_some(), copy, "{params:?}");
        same_tree(file, params, compiled(&fixed_arrays::Family, params));
    }
    // Blind tic-tac-toe's board too (its defaults make 87 M nodes: a
    // smaller game with the same array lengths is checked above).
    let game = instantiate(&blind_tictactoe::Family, &[]).unwrap_or_else(|e| panic!("{e}"));
    assert!(game.specialised().is_some());
}

/// Values a byte cannot hold and arrays longer than 32 (players): the
/// compiled game has the interpreter's tree, not a capped one.
#[test]
fn large_enums_and_many_players_compile_exactly() {
    let big = compiled(&enum300::Family, &[]);
    assert_eq!(big.stats().nodes, 901);
    same_tree("tests/codegen/enum300.gala", &[], big);
    same_tree("tests/codegen/players40.gala", &[], compiled(&players40::Family, &[]));
}

/// A `combinations` size or a domain's range out of range is the same
/// located error in both executions.
#[test]
fn sizes_out_of_range_fail_alike() {
    let path = repo_root().join("tests/codegen/domains.gala");
    let bytes = std::fs::read(&path).expect("game file");
    let cases = [
        ("size=-1", "28:21: combination size -1 is out of range"),
        ("size=99999999", "28:21: combination size 99999999 is out of range"),
        ("top=9223372036854775807", "26:47: integer overflow"),
        ("top=200000000", "26:47: range of 200000000 values is too large"),
    ];
    for (param, error) in cases {
        let params = [param.to_string()];
        let interp =
            galac_compiler::driver::load_interp("domains.gala", &bytes, &params).unwrap_or_else(|e| panic!("{e}"));
        let i = build(&interp, &BuildOptions::default()).err().map(|e| e.to_string());
        let game = domains::Family.instantiate(&params, galac_runtime::game::DEFAULT_STEP_LIMIT);
        let c = build(&game.unwrap_or_else(|e| panic!("{e}")), &BuildOptions::default()).err().map(|e| e.to_string());
        let first_line = i.as_deref().and_then(|e| e.lines().next());
        assert_eq!(first_line, Some(format!("domains.gala:{error}").as_str()), "{param}");
        assert_eq!(c, i, "{param}");
    }
}

/// When both the chooser and the candidates of a choice fail, both
/// executions report the chooser's error (it is evaluated first).
#[test]
fn a_failing_chooser_is_reported_before_failing_candidates() {
    let path = repo_root().join("tests/codegen/chooser_first.gala");
    let bytes = std::fs::read(&path).expect("game file");
    let interp =
        galac_compiler::driver::load_interp("chooser_first.gala", &bytes, &[]).unwrap_or_else(|e| panic!("{e}"));
    let i = build(&interp, &BuildOptions::default()).err().map(|e| e.to_string());
    let game = chooser_first::Family
        .instantiate(&[], galac_runtime::game::DEFAULT_STEP_LIMIT)
        .unwrap_or_else(|e| panic!("{e}"));
    let c = build(&game, &BuildOptions::default()).err().map(|e| e.to_string());
    let expected = "chooser_first.gala:8:16: index 5 is out of bounds for length 2";
    assert_eq!(i.as_deref(), Some(expected));
    assert_eq!(c.as_deref(), Some(expected));
}

/// Lookups of a `where` made once per outer candidate loop in the
/// compiled code (`tests/codegen/lifted_reads.gala`): at every step limit
/// and for domains reaching past the grid's rows or columns, both
/// executions build the same tree or stop with the same error at the same
/// candidate (none when no candidate reads the bad row).
#[test]
fn lifted_reads_fail_where_the_interpreter_does() {
    let path = repo_root().join("tests/codegen/lifted_reads.gala");
    let bytes = std::fs::read(&path).expect("game file");
    let at = "lifted_reads.gala:17:36: index";
    let cases: [(&[&str], Option<String>); 5] = [
        (&[], None),
        (&["cols=4"], Some(format!("{at} 3 is out of bounds for length 3"))),
        (&["rows=3"], Some(format!("{at} 2 is out of bounds for length 2"))),
        (
            &["rows=3", "need=3"],
            Some("lifted_reads.gala:16:13: a has no choice: the domain is empty (after `where`)".into()),
        ),
        (
            &["rows=3", "cols=0"],
            Some("lifted_reads.gala:16:13: a has no choice: the domain is empty (after `where`)".into()),
        ),
    ];
    for (params, expected) in cases {
        let params: Vec<String> = params.iter().map(|p| p.to_string()).collect();
        let stops = same_at_every_limit("lifted_reads.gala", &bytes, &lifted_reads::Family, &params, 60);
        let last = galac_compiler::driver::load_interp("lifted_reads.gala", &bytes, &params)
            .ok()
            .and_then(|g| build(&g, &BuildOptions::default()).err().map(|e| e.to_string()));
        assert_eq!(last, expected, "{params:?}");
        // Small limits stop at steps before and among the candidates.
        assert!(stops.iter().any(|e| e.contains("no event within")), "{params:?}: {stops:?}");
    }
}

/// The LP's answer on `t`: the first player's value, the behaviour
/// probabilities and the profile's NashConv (computed by `evaluate`).
pub(crate) fn solve(t: &Tree) -> (f64, Vec<f64>, f64) {
    let sf = SequenceForm::new(t).expect("two-player zero-sum");
    let sol = lp::solve(&sf, Backend::Clarabel, None).expect("LP solves");
    let mut profile = Profile::uniform(t);
    sf.behaviour(t, PlayerId(0), &sol.plans[0], &mut profile);
    sf.behaviour(t, PlayerId(1), &sol.plans[1], &mut profile);
    let eval = evaluate(t, &profile);
    (eval.values[0], profile.probs, eval.nash_conv)
}

#[test]
fn compiled_solves_equal_the_interpreters_and_the_known_values() {
    let cases: Vec<(&str, Tree, Option<f64>)> = vec![
        ("kuhn.gala", compiled(&kuhn::Family, &[]), Some(-1.0 / 18.0)),
        ("leduc.gala", compiled(&leduc::Family, &[]), Some(-0.085_606_424_078)),
        ("poker.gala", compiled(&poker::Family, &[]), None),
        ("inspection.gala", compiled(&inspection::Family, &[]), None),
    ];
    for (file, tree, known) in cases {
        let (v, probs, nash_conv) = solve(&tree);
        let (vi, probs_i, _) = solve(&interpreted(file, &[]));
        assert_eq!(v, vi, "{file}: values differ");
        assert_eq!(probs, probs_i, "{file}: strategies differ");
        assert!(nash_conv.abs() < 1e-9, "{file}: NashConv {nash_conv}");
        if let Some(k) = known {
            assert!((v - k).abs() < 1e-6, "{file}: {v} is not {k}");
        }
    }
}

#[test]
fn compiled_params_are_checked_like_galacs() {
    let err = kuhn::Family.instantiate(&["card=4".into()], 1000).err().unwrap_or_default();
    assert_eq!(err, "param override `card=4`: game `kuhn` has no param `card`; its params are: cards");
    let err = kuhn::Family.instantiate(&["cards=x".into()], 1000).err().unwrap_or_default();
    assert_eq!(err, "param override `cards=x`: `cards` is an int; `x` is not a 64-bit integer");
}

/// A param value that breaks its `where` condition (the turn's board has
/// four cards, the pot is even, the stack positive) is refused before the
/// game exists, by generated code with the interpreter's located message.
#[test]
fn params_that_break_their_conditions_are_refused_alike() {
    let cases = [
        ("board=Td9d6h", "holdem_turn.gala:27:", "param `board` breaks its condition `len(board) == 4`"),
        ("pot=201", "holdem_turn.gala:30:", "param `pot` breaks its condition `pot > 0 && pot % 2 == 0`"),
        ("stack=-5", "holdem_turn.gala:31:", "param `stack` breaks its condition `stack > 0`"),
    ];
    for (param, at, what) in cases {
        let compiled = holdem_turn::Family.instantiate(&[param.into()], 1000).err().unwrap_or_default();
        let interpreted = load_interp("holdem_turn.gala", &[param]).err().unwrap_or_default();
        assert!(compiled.starts_with(at) && compiled.ends_with(what), "{param}: {compiled}");
        assert_eq!(compiled, interpreted, "{param}");
    }
    assert!(holdem_turn::Family.instantiate(&["board=Td9d6h2c".into()], 1000).is_ok());
}

/// The parallel builder gives the sequential builder's tree, whatever the
/// number of threads.
#[test]
fn parallel_builds_equal_sequential_ones() {
    use galac_runtime::tree::build_parallel;
    fn check<F: Family>(family: &F, params: &[&str]) {
        let params: Vec<String> = params.iter().map(|s| s.to_string()).collect();
        let make = || family.instantiate(&params, galac_runtime::game::DEFAULT_STEP_LIMIT).ok();
        let opts = BuildOptions { labels: true, ..BuildOptions::default() };
        let one = build(&make().expect("game"), &opts).expect("tree").0;
        for threads in [2, 3, 7] {
            let many = build_parallel(&make, &opts, threads).expect("tree").0;
            assert_eq!(one.stats(), many.stats());
            assert_eq!(digest(&one), digest(&many), "{threads} threads");
            assert_eq!(labels(&one), labels(&many));
            assert_eq!(one.chance_labels, many.chance_labels);
        }
    }
    check(&kuhn::Family, &[]);
    check(&leduc::Family, &[]);
    check(&poker::Family, &["cards=2", "ranks=4", "suits=2"]);
    check(&inspection::Family, &["stages=6", "inspections=3"]);
    check(&nim222::Family, &[]);
    check(&hostile_names::Family, &[]);
    check(&slot_sharing::Family, &[]);
}

/// The interpreter builds on several threads too (`galac tree` and `solve`
/// do by default), and gives its sequential tree.
#[test]
fn parallel_interpreted_builds_equal_sequential_ones() {
    use galac_runtime::tree::build_parallel;
    for (file, params) in [
        ("leduc.gala", &[][..]),
        ("poker.gala", &["cards=2", "ranks=4", "suits=2"][..]),
        ("blind_tictactoe.gala", &["size=2", "line=2"][..]),
        ("tests/codegen/domains.gala", &[][..]),
    ] {
        let make = || load_interp(file, params).ok();
        let opts = BuildOptions { labels: true, ..BuildOptions::default() };
        let one = interpreted(file, params);
        for threads in [2, 3] {
            let many = build_parallel(&make, &opts, threads).expect("tree").0;
            assert_eq!(digest(&one), digest(&many), "{file}, {threads} threads");
            assert_eq!(labels(&one), labels(&many), "{file}");
        }
    }
}

/// A param default that cannot be computed from the overrides fails alike,
/// naming the param (the differential test found the messages apart).
#[test]
fn param_defaults_fail_alike() {
    let path = repo_root().join("tests/codegen/param_defaults.gala");
    let bytes = std::fs::read(&path).expect("game file");
    let cases = [
        ("n=-9223372036854775808", "the default of param `m` cannot be computed: integer overflow"),
        ("d=0", "the default of param `q` cannot be computed: division by zero"),
    ];
    for (param, error) in cases {
        let params = [param.to_string()];
        let i = galac_compiler::driver::load_interp("param_defaults.gala", &bytes, &params).err();
        let c = param_defaults::Family.instantiate(&params, galac_runtime::game::DEFAULT_STEP_LIMIT).err();
        assert_eq!(i.as_deref(), Some(error), "{param}");
        assert_eq!(c.as_deref(), Some(error), "{param}");
    }
    let params = ["n=-9223372036854775807".to_string(), "d=-1".to_string()];
    let i = galac_compiler::driver::load_interp("param_defaults.gala", &bytes, &params).err();
    let c = param_defaults::Family.instantiate(&params, galac_runtime::game::DEFAULT_STEP_LIMIT).err();
    assert_eq!(i, c);
}

/// max^n over game states gives the same positions (every node's key), the
/// same root vector and the same counts, with and without transpositions,
/// in both executions; games with hidden information fail alike.
#[test]
fn compiled_positions_and_transpositions_equal_the_interpreters() {
    use crate::games::position_digest;
    use galac_solvers::maxn::{states, Ties};
    fn check<F: Family>(file: &str, family: &F, params: &[&str]) {
        let i = load_interp(file, params).unwrap_or_else(|e| panic!("{e}"));
        let c = instantiate(family, params).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(position_digest(&i, 1 << 20), position_digest(&c, 1 << 20), "{file} {params:?}");
        for tt in [false, true] {
            let a = states::search(
                &i,
                Ties::First,
                states::StateOptions { transpositions: tt, depth: None, memory: MemoryLimit::NONE },
            )
            .map_err(|e| e.to_string());
            let b = states::search(
                &c,
                Ties::First,
                states::StateOptions { transpositions: tt, depth: None, memory: MemoryLimit::NONE },
            )
            .map_err(|e| e.to_string());
            assert_eq!(a, b, "{file} {params:?}, transpositions {tt}");
        }
    }
    check("nim3.gala", &nim3::Family, &[]);
    // The look-ahead: the game's `evaluate` in both executions.
    for (depth, tt) in [(3, false), (5, true)] {
        let options = states::StateOptions { transpositions: tt, depth: Some(depth), memory: MemoryLimit::NONE };
        let i = load_interp("nim3.gala", &["piles=4"]).unwrap_or_else(|e| panic!("{e}"));
        let c = instantiate(&nim3::Family, &["piles=4"]).unwrap_or_else(|e| panic!("{e}"));
        let a = states::search(&i, Ties::Average, options).map_err(|e| e.to_string());
        assert!(a.as_ref().is_ok_and(|r| r.stats.evaluated > 0), "{a:?}");
        assert_eq!(a, states::search(&c, Ties::Average, options).map_err(|e| e.to_string()), "depth {depth}");
    }
    check("nim3.gala", &nim3::Family, &["piles=2", "tokens=4", "last_wins=true"]);
    check("nim222.gala", &nim222::Family, &[]);
    check("kuhn.gala", &kuhn::Family, &[]);
    check("tests/codegen/slot_sharing.gala", &slot_sharing::Family, &[]);
    check("tests/codegen/domains.gala", &domains::Family, &[]);
}

/// Liar's dice with its calls written as alternatives (`Bid(q, f)`, `Liar`:
/// issue 26) is the numbered liar's dice node for node, information sets
/// included; only the labels differ, and they show the calls. Its value with
/// four sides is OpenSpiel's 1/16 (see the example's header).
#[test]
fn liars_dice_with_calls_is_the_numbered_game() {
    for params in [&[][..], &["sides=4"], &["dice=2", "sides=2"]] {
        let calls = compiled(&liars_dice_calls::Family, params);
        let numbered = compiled(&liars_dice::Family, params);
        // The bytes differ: the labels are longer.
        let shape = |t: &Tree| galac_runtime::tree::Stats { bytes: 0, ..t.stats() };
        assert_eq!(shape(&calls), shape(&numbered), "{params:?}");
        assert_eq!(digest(&calls), digest(&numbered), "{params:?}");
    }
    let tree = compiled(&liars_dice_calls::Family, &["sides=4"]);
    let first_move = tree.action_labels(InfosetId(0)).to_vec();
    assert_eq!(first_move.first().map(String::as_str), Some("Bid(1, 1)"));
    assert_eq!(first_move.last().map(String::as_str), Some("Bid(2, 4)"));
    let answers = tree.infosets.keys().any(|i| tree.action_labels(i).iter().any(|a| a == "Liar"));
    assert!(answers, "some information set offers `Liar`");
    let (value, _, nash_conv) = solve(&tree);
    assert!((value - 1.0 / 16.0).abs() < 1e-9, "value {value}");
    assert!(nash_conv.abs() < 1e-9, "NashConv {nash_conv}");
    let (numbered_value, _, _) = solve(&compiled(&liars_dice::Family, &["sides=4"]));
    assert!((value - numbered_value).abs() < 1e-12, "{value} against {numbered_value}");
}

/// The double oracle walks the game itself, no tree, making a node's
/// children in its own order; on the compiled games it must give the
/// interpreter's runs (restricted games of the same sizes) and answers the
/// full tree certifies. A compiled game keeps a node's candidates only
/// until its next `advance` (`Game::apply`); the oracle once applied a
/// node's actions after advancing a sibling, and indexed past the
/// candidates (or would have taken a wrong one).
#[test]
fn the_double_oracle_on_compiled_games_equals_the_interpreter() {
    use crate::double_oracle::{check_example, check_game, Checked};
    fn compiled_run<F: Family>(family: &F, file: &str, params: &[&str]) -> Vec<Checked> {
        let game = instantiate(family, params).unwrap_or_else(|e| panic!("{e}"));
        let what = format!("compiled {file} {params:?}");
        let checked = check_game(&game, &what).unwrap_or_else(|| panic!("{what}: not two-player zero-sum"));
        assert_eq!(checked, check_example(file, params), "{what}: the restricted games differ from the interpreter's");
        checked
    }
    // The longest of these runs: with GALAC_SLOW_TESTS=1 only.
    if crate::slow_tests() {
        compiled_run(&phantom_ttt::Family, "phantom_ttt.gala", &["marks=4"]);
    } else {
        crate::announce(
            "compiled::the_double_oracle_on_compiled_games: phantom_ttt skipped (GALAC_SLOW_TESTS=1 runs it)",
        );
    }
    compiled_run(&leduc::Family, "leduc.gala", &[]);
    compiled_run(&search_game::Family, "search_game.gala", &["depth=3"]);
    // With a specialised copy (its choice types numbered apart).
    compiled_run(&choice_arrays::Family, "tests/codegen/choice_arrays.gala", &[]);
}
