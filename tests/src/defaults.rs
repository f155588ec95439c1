//! The solver `solve` picks without `--solver` before any tree is built
//! (`registry::default_before_tree`): the double oracle for a large
//! two-player zero-sum game (seeded by CFR+ on the tree below the LP's
//! size), nothing (build the tree) otherwise, and that seed's independence
//! of the thread count, and the engine of the restricted LPs of the
//! oracle from the paper's start; a game whose LP over the public tree is
//! small gets the full LP (the tree is built); a hand game past the
//! seeded oracle's size that one representative deal walks gets vector
//! CFR on its rules; past the LP's size, a game whose first move the
//! opponent sees only in part (blind tic-tac-toe) gets the seeded oracle.
//! Hand games' choice of vector CFR on the tree is tested with the hold'em
//! spots (`holdem.rs`).

use galac_app::registry::{
    default_before_tree, first_move_seen_in_part, unseeded_lp_backend, Chosen, LP_MAX_NODES, SEEDED_DO_NODES,
    SEEDED_TREE_MAX_NODES, SEED_CFR_ITERATIONS,
};
use galac_solvers::lp::Backend;

/// A game of two (or three) players choosing in turn from `0..n`, four
/// choices: `n^4` leaves paying `outcome`.
fn game(players: &str, n: u32, outcome: &str) -> galac_compiler::interp::Interp {
    let src = format!(
        "game g {{ players {players}; flow {{ choose a x in 0..{n}; choose b y in 0..{n}; choose a z in 0..{n}; \
         choose b w in 0..{n}; outcome [{outcome}]; }} }}"
    );
    crate::trees::load(&src, &[])
}

/// The choice's solver and seed.
fn chosen(c: Option<Chosen>) -> Option<(&'static str, Option<u64>)> {
    c.map(|c| (c.row.name, c.warm_start_cfr))
}

/// Without `--solver`, a two-player game estimated past the LP's size goes
/// to the double oracle from the paper's start, before any tree is built,
/// unless the leaves its random plays reach pay different totals (then the
/// game is not zero-sum and the tree's solvers choose); a small game or
/// three players never does.
#[test]
fn large_zero_sum_games_go_to_the_oracle_before_any_tree() {
    // 60^4 leaves: about 13.2M nodes.
    assert!(60f64.powi(4) > LP_MAX_NODES);
    assert_eq!(chosen(default_before_tree(&game("a, b", 60, "x - y, y - x"))), Some(("do", None)));
    assert!(default_before_tree(&game("a, b", 60, "x, y")).is_none(), "general-sum");
    assert!(default_before_tree(&game("a, b, c", 60, "x - y, y - x, 0")).is_none(), "three players");
    let small = "game s { players a, b; flow { choose a x in 0..3; outcome [x, -x]; } }";
    assert!(default_before_tree(&crate::trees::load(small, &[])).is_none(), "small");
}

/// From `SEEDED_DO_NODES` to the LP's size a zero-sum two-player game goes
/// to the double oracle seeded by CFR+ (the old rule built the tree for
/// the full LP there), and says why; under it the tree is built for the
/// LP.
#[test]
fn mid_sized_zero_sum_games_go_to_the_seeded_oracle() {
    // 25^4 leaves: 406,901 nodes; 14^4: 41,371 nodes.
    assert!(25f64.powi(4) > SEEDED_DO_NODES && 25f64.powi(4) < LP_MAX_NODES && 41_371.0 < SEEDED_DO_NODES);
    let c = default_before_tree(&game("a, b", 25, "x - y, y - x")).expect("chosen before the tree");
    assert_eq!((c.row.name, c.warm_start_cfr), ("do", Some(SEED_CFR_ITERATIONS)));
    assert!(c.why.contains("seeded by 100 iterations of CFR+"), "{}", c.why);
    assert!(default_before_tree(&game("a, b", 25, "x, y")).is_none(), "general-sum");
    assert!(default_before_tree(&game("a, b", 14, "x - y, y - x")).is_none(), "under the seeded oracle's size");
}

/// The oracle from the paper's start solves its restricted LPs by HiGHS
/// from the last basis on a game estimated past the LP's size (where the
/// default picks it before any tree; the old rule: clarabel everywhere),
/// and by clarabel under it, where HiGHS's vertex solutions took the oracle
/// more LPs (docs/perf/double-oracle.md, "Restricted LPs"). HiGHS loads in
/// the tests as in CI (README, "Set up").
#[test]
fn the_unseeded_oracle_takes_highs_past_the_lps_size() {
    Backend::Highs.available().expect("HiGHS loads (README, Set up)");
    assert_eq!(unseeded_lp_backend(&game("a, b", 60, "x - y, y - x")), Some(Backend::Highs));
    assert_eq!(unseeded_lp_backend(&game("a, b", 25, "x - y, y - x")), None);
}

/// The warm start's CFR+ average is the same on one thread and on two (the
/// oracle's seed runs on `--threads`): Leduc, whose tree CFR splits.
#[test]
fn the_warm_start_is_the_same_on_two_threads() {
    use galac_app::registry::double_oracle::cfr_average;
    let src = std::fs::read_to_string(crate::repo_root().join("examples/leduc.gala")).expect("example");
    let game = galac_compiler::driver::load_interp("leduc.gala", src.as_bytes(), &[]).expect("loads");
    let (tree, _, _) =
        galac_runtime::tree::build_own(&game, &galac_runtime::tree::BuildOptions::default()).expect("builds");
    let one = cfr_average(&tree, 30, 1).expect("CFR+");
    let two = cfr_average(&tree, 30, 2).expect("CFR+");
    assert!(one.iter().any(|set| set.len() > 1), "a mixed average");
    assert_eq!(one, two);
}

/// A game in vector CFR's class whose LP over the public tree is small
/// (13-rank Leduc: showdowns and folds as running sums) has its tree built
/// for the full LP, which takes that form, where the old rule sent it to
/// the seeded oracle; liar's dice, whose leaves are payoff matrices (a
/// public LP as large as the scalar one), still goes to the oracle.
#[test]
fn games_with_a_small_public_lp_get_the_full_lp() {
    let load = |file: &str, params: &[&str]| {
        let src = std::fs::read_to_string(crate::repo_root().join("examples").join(file)).expect("example");
        let params: Vec<String> = params.iter().map(|s| s.to_string()).collect();
        galac_compiler::driver::load_interp(file, src.as_bytes(), &params).expect("loads")
    };
    assert!(default_before_tree(&load("leduc.gala", &["ranks=13"])).is_none(), "13-rank Leduc: the LP");
    let dice = default_before_tree(&load("liars_dice.gala", &[])).expect("chosen before the tree");
    assert_eq!((dice.row.name, dice.warm_start_cfr), ("do", Some(SEED_CFR_ITERATIONS)));
}

/// The river spot (under `VCFR_TREELESS_NODES` and the LP's size) goes
/// to vector CFR on its rules before any tree, as the turn does, because
/// one representative deal walks its public game: cheaper than its tree
/// (BENCHMARKS.md, Hold'em; the old rule built the tree). Leduc (no
/// two-card hands) keeps its tree, named or not.
#[test]
fn a_hand_game_one_deal_walks_is_solved_on_its_rules() {
    use galac_app::registry::{vcfr_on_rules, VCFR_TREELESS_NODES};
    use galac_runtime::game::Game;
    let river = crate::games::load_interp("holdem_river.gala", &[]).unwrap_or_else(|e| panic!("{e}"));
    let guess = galac_runtime::tree::estimate(&river, f64::INFINITY).expect("estimates");
    assert!(guess.nodes > SEEDED_DO_NODES && guess.nodes < VCFR_TREELESS_NODES, "{guess:?}");
    assert!(river.representative().is_ok());
    assert!(vcfr_on_rules(&river, guess.nodes));
    let c = default_before_tree(&river).expect("chosen before the tree");
    assert_eq!(c.row.name, "vcfr", "{}", c.why);
    assert!(c.why.contains("one representative deal walks the public game"), "{}", c.why);
    let leduc = crate::games::load_interp("leduc.gala", &[]).unwrap_or_else(|e| panic!("{e}"));
    let guess = galac_runtime::tree::estimate(&leduc, f64::INFINITY).expect("estimates");
    assert!(!vcfr_on_rules(&leduc, guess.nodes));
}

/// Blind tic-tac-toe (estimated past the LP's size; the opponent sees the
/// square of each move, not the mark) goes to the double oracle seeded by
/// CFR+, which solves it, where the old rule sent it to the oracle from the
/// paper's start, whose bounds stayed at [-1, 1]; phantom tic-tac-toe of 6
/// to 9 marks (the opponent sees nothing of a move), which the oracle
/// from the paper's start solves without any tree, stays there; and a move
/// seen whole (Leduc's bets) is not "seen in part"
/// (docs/perf/double-oracle.md, "Choosing by default").
#[test]
fn a_move_seen_in_part_past_the_lps_size_gets_the_seeded_oracle() {
    let load = |file: &str, params: &[&str]| crate::games::load_interp(file, params).unwrap_or_else(|e| panic!("{e}"));
    let blind = load("blind_tictactoe.gala", &[]);
    assert!(first_move_seen_in_part(&blind));
    let guess = galac_runtime::tree::estimate(&blind, f64::INFINITY).expect("estimates");
    assert!(guess.nodes > LP_MAX_NODES && guess.nodes < SEEDED_TREE_MAX_NODES, "{guess:?}");
    let c = default_before_tree(&blind).expect("chosen before the tree");
    assert_eq!((c.row.name, c.warm_start_cfr), ("do", Some(SEED_CFR_ITERATIONS)), "{}", c.why);
    assert!(c.why.contains("a move the opponent sees only in part"), "{}", c.why);
    for marks in 6..=9 {
        let phantom = load("phantom_ttt.gala", &[&format!("marks={marks}")]);
        assert!(!first_move_seen_in_part(&phantom), "{marks} marks");
        assert_eq!(chosen(default_before_tree(&phantom)), Some(("do", None)), "{marks} marks");
    }
    // The compiled games too (a compiled game's actions are valid only
    // until its next `advance`: the check once indexed past them).
    use crate::compiled::{blind_tictactoe, phantom_ttt};
    use crate::games::instantiate;
    let compiled = instantiate(&blind_tictactoe::Family, &[]).unwrap_or_else(|e| panic!("{e}"));
    assert!(first_move_seen_in_part(&compiled));
    let c = default_before_tree(&compiled).expect("chosen before the tree");
    assert_eq!((c.row.name, c.warm_start_cfr), ("do", Some(SEED_CFR_ITERATIONS)), "{}", c.why);
    let compiled = instantiate(&phantom_ttt::Family, &["marks=9"]).unwrap_or_else(|e| panic!("{e}"));
    assert!(!first_move_seen_in_part(&compiled));
    assert!(!first_move_seen_in_part(&load("leduc.gala", &[])));
    assert!(!first_move_seen_in_part(&game("a, b", 60, "x - y, y - x")), "moves seen whole");
}
