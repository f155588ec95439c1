//! When `solve` gives a game to the double oracle by default, and with
//! which LP engine an unseeded oracle starts: the sizes and the structure
//! (a first move seen only in part) that decide it. It lives apart from
//! the oracle's run ([`super::double_oracle`]), which uses none of the
//! registry's choices (`registry` re-exports these).

/// Trees estimated above this many nodes are not built for the LP when no
/// solver is named: past it the LP's tree and matrix take gigabytes and
/// the LP minutes, while the double oracle explores only the part of the
/// game its equilibrium needs (docs/perf/double-oracle.md, "Choosing by
/// default"). Vector CFR does not build them either: it derives its public
/// game from the rules (`solve.rs`). The engine of the restricted LPs that
/// follows from it is [`unseeded_lp_backend`].
pub const LP_MAX_NODES: f64 = 5_000_000.0;

/// The engine of the double oracle's restricted LPs from the paper's start
/// (no CFR+ seed) when none is named: HiGHS, each LP from the last one's
/// basis, for a game whose tree Knuth's estimate puts at [`LP_MAX_NODES`]
/// or more (the games the oracle gets by default before any tree,
/// `default_before_tree`), where HiGHS loads; else `None` (clarabel).
/// Measured there (docs/perf/double-oracle.md, "Restricted LPs"; user +
/// system CPU seconds, HiGHS against clarabel): 6-mark phantom tic-tac-toe 4.3 against 6.4, 7-mark
/// (275,619,763 nodes) 13.4 against 49.1, the full board 64.5 against 340.
/// Under it clarabel stays: from the paper's start HiGHS took liar's dice
/// 140 s against 79 and Leduc 0.5 against 0.3.
pub fn unseeded_lp_backend<G: galac_runtime::game::Game>(game: &G) -> Option<galac_solvers::lp::Backend> {
    use galac_solvers::lp::Backend;
    let large = !galac_runtime::tree::looks_smaller_than(game, LP_MAX_NODES);
    (large && Backend::Highs.available().is_ok()).then_some(Backend::Highs)
}

/// Past [`LP_MAX_NODES`], a game whose first move the opponent sees only in
/// part ([`first_move_seen_in_part`]) goes to the double oracle seeded by
/// CFR+ on the built tree when its tree is estimated under this many nodes
/// (blind tic-tac-toe: 87,208,051 nodes, a run's peak 7.5 GB; at about 86
/// bytes a node at the peak, 200M nodes is 17 GB); above it, or for any
/// other game, the oracle from the paper's start, which builds no tree.
/// Measured (docs/perf/double-oracle.md, "Choosing by default"): blind
/// tic-tac-toe from the paper's start left its bounds at [-1, 1] (1,920
/// iterations in 71 s), seeded it is solved; phantom tic-tac-toe (6 to 9
/// marks, whose first move the opponent does not see at all) is solved
/// from the paper's start in 4.3 to 67 s of CPU, where the seed alone
/// would build trees of 18M to about 10^10 nodes.
pub const SEEDED_TREE_MAX_NODES: f64 = 200_000_000.0;

/// Whether the second mover's information sets right after the first
/// decision (on the play that takes every chance node's first outcome)
/// tell some of its actions apart but not all: the opponent sees that move
/// only in part (blind tic-tac-toe: the square, not the mark; 18 actions,
/// 9 sets). Then the paper's default, the first action wherever the
/// restricted game is silent, tells the opponent the part it does not see,
/// and a best response plays as with perfect information there (the
/// oracle from the paper's start never left the bounds [-1, 1]); a move
/// seen whole (poker's bets: as many sets as actions) or not at all
/// (phantom tic-tac-toe: one set) is false.
pub fn first_move_seen_in_part<G: galac_runtime::game::Game>(game: &G) -> bool {
    use galac_runtime::game::{advance_out_of_line, Node};
    let mut info = galac_runtime::info::InfoInterner::new();
    let Ok(mut state) = game.root() else { return false };
    // The first decision, through chance nodes' first outcomes.
    let (mover, n) = loop {
        match advance_out_of_line(game, &mut state, &mut info) {
            Ok(Node::Chance { n_outcomes }) if n_outcomes > 0 => {}
            Ok(Node::Decision { player, n_actions, .. }) if n_actions > 1 => break (player, n_actions),
            _ => return false,
        }
        if game.apply(&mut state, 0, &mut info).is_err() {
            return false;
        }
    };
    // The children, all made right after the decision's `advance` (a
    // compiled game's actions are valid only until the next `advance`).
    let mut children = Vec::with_capacity(n as usize);
    for a in 0..n {
        let mut child = state.clone();
        if game.apply(&mut child, a, &mut info).is_err() {
            return false;
        }
        children.push(child);
    }
    // Per child: the next set of another player, through chance nodes'
    // first outcomes (an action that ends the game or leads to the mover's
    // own decision first is left out).
    let mut sets = Vec::with_capacity(n as usize);
    for mut child in children {
        loop {
            match advance_out_of_line(game, &mut child, &mut info) {
                Ok(Node::Chance { n_outcomes }) if n_outcomes > 0 => {
                    if game.apply(&mut child, 0, &mut info).is_err() {
                        return false;
                    }
                }
                Ok(Node::Decision { player, infoset, .. }) if player != mover => {
                    sets.push(infoset);
                    break;
                }
                Ok(_) => break,
                Err(_) => return false,
            }
        }
    }
    let seen = sets.len();
    sets.sort_unstable();
    sets.dedup();
    seen > 1 && sets.len() > 1 && sets.len() < seen
}
