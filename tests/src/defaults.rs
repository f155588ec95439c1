//! The solver `solve` picks without `--solver` before any tree is built
//! (`registry::default_before_tree`): the double oracle for a large
//! two-player zero-sum game, nothing (build the tree) otherwise. Hand games'
//! choice of vector CFR is tested with the hold'em spots (`holdem.rs`).

/// Without `--solver`, a two-player game estimated past the LP's size goes
/// to the double oracle before any tree is built, unless the leaves its
/// random plays reach pay different totals (then the game is not
/// zero-sum and the tree's solvers choose); a small game or three players
/// never does.
#[test]
fn large_zero_sum_games_go_to_the_oracle_before_any_tree() {
    use galac_app::registry::default_before_tree;
    let game = |players: &str, outcome: &str| {
        format!(
            "game g {{ players {players}; flow {{ choose a x in 0..60; choose b y in 0..60; choose a z in 0..60; \
             choose b w in 0..60; outcome [{outcome}]; }} }}"
        )
    };
    let load = |src: String| crate::trees::load(&src, &[]);
    let zero = load(game("a, b", "x - y, y - x"));
    assert_eq!(default_before_tree(&zero).map(|(row, _)| row.name), Some("do"));
    assert!(default_before_tree(&load(game("a, b", "x, y"))).is_none(), "general-sum");
    assert!(default_before_tree(&load(game("a, b, c", "x - y, y - x, 0"))).is_none(), "three players");
    let small = "game s { players a, b; flow { choose a x in 0..3; outcome [x, -x]; } }";
    assert!(default_before_tree(&load(small.to_string())).is_none(), "small");
}
