//! max^n over the game's own states (`galac_solvers::maxn::states`), with
//! and without transpositions, against max^n on the built tree: the same
//! root vector (to the bit) and root choice, and without transpositions
//! the same node and tie counts. With them, the positions stored equal an
//! enumeration of Nim's positions written here.

use std::collections::HashSet;

use galac_runtime::tree::{build, BuildOptions};
use galac_solvers::maxn::{full, states, Ties};
use galac_solvers::solver::SolveError;

use crate::games::load_interp;

/// Checks the state search on `file` against the tree under both tie
/// rules; returns the stats with transpositions (first tie rule).
fn check(file: &str, params: &[&str]) -> states::StateStats {
    let game = load_interp(file, params).unwrap_or_else(|e| panic!("{e}"));
    let tree = build(&game, &BuildOptions::default()).unwrap_or_else(|e| panic!("{e}")).0;
    let n = tree.n_players as usize;
    let mut with_first = None;
    for ties in [Ties::First, Ties::Average] {
        let back = full::backward(&tree, ties);
        let root_choice = back.best[0] - tree.children(0).start;
        let plain = states::search(&game, ties, states::StateOptions { transpositions: false, depth: None }).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(plain.value, back.values[..n], "{file} {ties:?}");
        assert_eq!(plain.choice, Some(root_choice), "{file} {ties:?}");
        assert_eq!(plain.stats.nodes, tree.n_nodes() as u64, "{file} {ties:?}: every node once");
        assert_eq!(plain.stats.ties, back.ties, "{file} {ties:?}");
        assert_eq!(plain.stats.transpositions, 0);
        let tt = states::search(&game, ties, states::StateOptions { transpositions: true, depth: None }).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(tt.value, back.values[..n], "{file} {ties:?}: transpositions change the vector");
        assert_eq!(tt.choice, Some(root_choice), "{file} {ties:?}");
        assert!(tt.stats.nodes < plain.stats.nodes, "{file} {ties:?}: {:?}", tt.stats);
        assert!(tt.stats.transpositions > 0);
        if ties == Ties::First {
            with_first = Some(tt.stats);
        }
    }
    with_first.expect("the first tie rule ran")
}

/// The positions max^n with transpositions stores on examples/nim3.gala:
/// the root, and after each move the heap before the move is taken off,
/// the previous taker, the mover and the move (the locals the flow still
/// reads), over every reachable (heap, mover, last taker).
fn nim3_positions(piles: usize, tokens: i64) -> u64 {
    let mut seen = HashSet::new();
    let mut keys = HashSet::new();
    let mut stack = vec![(vec![tokens; piles], 0usize, 0usize)];
    while let Some((heap, mover, last)) = stack.pop() {
        if heap.iter().sum::<i64>() == 0 || !seen.insert((heap.clone(), mover, last)) {
            continue;
        }
        for pile in 0..piles {
            for take in 1..=heap[pile] {
                keys.insert((heap.clone(), last, mover, pile, take));
                let mut next = heap.clone();
                next[pile] -= take;
                stack.push((next, (mover + 1) % 3, mover));
            }
        }
    }
    1 + keys.len() as u64
}

#[test]
fn transpositions_keep_the_trees_answer_on_nim() {
    let stats = check("nim3.gala", &[]);
    assert_eq!(stats.stored, nim3_positions(3, 3), "{stats:?}");
    let stats = check("nim3.gala", &["piles=2", "tokens=4"]);
    assert_eq!(stats.stored, nim3_positions(2, 4), "{stats:?}");
    check("nim222.gala", &[]);
}

#[test]
fn transpositions_keep_expected_vectors_at_chance_nodes() {
    // Two dice rolled in either order reach the same sums.
    let src = "game dice2 {
        players A, B, C;
        var total: int = 0;
        flow {
            choose nature d in 1..=2;
            reveal all rolled(d);
            total += d;
            choose nature e in 1..=2;
            reveal all rolled(e);
            total += e;
            choose A a in 0..=1;
            reveal all chose(a);
            choose B b in 0..=1;
            payoff A += total * a + b;
            payoff B += (1 - a) * total + 2 * b * a;
            payoff C += 3 - total * b;
            end;
        }
    }";
    let game = galac_compiler::driver::load_interp("dice2.gala", src.as_bytes(), &[]).expect("dice2 loads");
    let tree = build(&game, &BuildOptions::default()).expect("dice2 builds").0;
    for ties in [Ties::First, Ties::Average] {
        let back = full::backward(&tree, ties);
        let plain = states::search(&game, ties, states::StateOptions { transpositions: false, depth: None }).expect("perfect information");
        let tt = states::search(&game, ties, states::StateOptions { transpositions: true, depth: None }).expect("perfect information");
        assert_eq!(plain.value, back.values[..3], "{ties:?}");
        assert_eq!(tt.value, back.values[..3], "{ties:?}");
        assert_eq!(plain.stats.nodes, tree.n_nodes() as u64);
        // (1, 2) and (2, 1) make the same total: after (2, 1), both of A's
        // moves lead to positions searched after (1, 2). (A's own node is
        // not one: the second roll is still to be added to the total there.)
        assert_eq!(tt.stats.transpositions, 2, "{ties:?}: {:?}", tt.stats);
    }
}

#[test]
fn the_state_search_refuses_imperfect_information() {
    let game = load_interp("kuhn.gala", &[]).unwrap_or_else(|e| panic!("{e}"));
    for tt in [false, true] {
        let Err(SolveError::Unsupported { reason, .. }) = states::search(&game, Ties::First, states::StateOptions { transpositions: tt, depth: None }) else {
            panic!("kuhn has hidden cards");
        };
        assert!(reason.contains("not of perfect information"), "{reason}");
    }
}
