//! max^n over the game's own states (`galac_solvers::maxn::states`), with
//! and without transpositions, against max^n on the built tree: the same
//! root vector (to the bit) and root choice, and without transpositions
//! the same node and tie counts. With them, the positions stored equal an
//! enumeration of Nim's positions written here.

use std::collections::HashSet;

use galac_runtime::ids::NodeId;
use galac_runtime::tree::{build, BuildOptions};
use galac_solvers::maxn::{full, states, Ties};
use galac_solvers::solver::SolveError;

use crate::games::load_interp;
use galac_runtime::memory::MemoryLimit;

/// Checks the state search on `file` against the tree under both tie
/// rules; returns the stats with transpositions (first tie rule).
fn check(file: &str, params: &[&str]) -> states::StateStats {
    let game = load_interp(file, params).unwrap_or_else(|e| panic!("{e}"));
    let tree = build(&game, &BuildOptions::default()).unwrap_or_else(|e| panic!("{e}")).0;
    let n = tree.n_players as usize;
    let mut with_first = None;
    for ties in [Ties::First, Ties::Average] {
        let back = full::backward(&tree, ties);
        let root_choice = back.best[0] - tree.children(NodeId::ROOT).start;
        let plain = states::search(
            &game,
            ties,
            states::StateOptions { transpositions: false, depth: None, memory: MemoryLimit::NONE },
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(plain.value, back.values[..n], "{file} {ties:?}");
        assert_eq!(plain.choice, Some(root_choice), "{file} {ties:?}");
        assert_eq!(plain.stats.nodes, tree.n_nodes() as u64, "{file} {ties:?}: every node once");
        assert_eq!(plain.stats.ties, back.ties, "{file} {ties:?}");
        assert_eq!(plain.stats.transpositions, 0);
        let tt = states::search(
            &game,
            ties,
            states::StateOptions { transpositions: true, depth: None, memory: MemoryLimit::NONE },
        )
        .unwrap_or_else(|e| panic!("{e}"));
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
        let plain = states::search(
            &game,
            ties,
            states::StateOptions { transpositions: false, depth: None, memory: MemoryLimit::NONE },
        )
        .expect("perfect information");
        let tt = states::search(
            &game,
            ties,
            states::StateOptions { transpositions: true, depth: None, memory: MemoryLimit::NONE },
        )
        .expect("perfect information");
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
        let Err(SolveError::Unsupported { reason, .. }) = states::search(
            &game,
            Ties::First,
            states::StateOptions { transpositions: tt, depth: None, memory: MemoryLimit::NONE },
        ) else {
            panic!("kuhn has hidden cards");
        };
        assert!(reason.contains("not of perfect information"), "{reason}");
    }
}

/// Luckhardt & Irani's Nim estimate (section VI) where `mover` is to play:
/// the play lasts between `a` (non-empty piles) and `b` (tokens) more moves,
/// and the player `k` places after the mover wins when it lasts `k` mod 3.
fn paper_estimate(heap: &[i64], mover: usize) -> [f64; 3] {
    let a = heap.iter().filter(|&&h| h > 0).count() as i64;
    let b: i64 = heap.iter().sum();
    let mut v = [0.0; 3];
    for k in a..=b {
        v[(mover + k as usize) % 3] += 1.0 / (b - a + 1) as f64;
    }
    v
}

/// examples/nim3.gala (the paper's rule) looked ahead `depth` moves, from
/// the rules: (vector, first best move's index, nodes, nodes estimated).
fn nim_ahead(heap: &mut Vec<i64>, mover: usize, depth: u32, ties: Ties) -> ([f64; 3], Option<usize>, u64, u64) {
    if heap.iter().all(|&h| h == 0) {
        let mut v = [0.0; 3];
        v[mover] = 1.0;
        return (v, None, 1, 0);
    }
    if depth == 0 {
        return (paper_estimate(heap, mover), None, 1, 1);
    }
    let (mut kids, mut nodes, mut estimated) = (Vec::new(), 1, 0);
    for pile in 0..heap.len() {
        for take in 1..=heap[pile] {
            heap[pile] -= take;
            let (v, _, n, e) = nim_ahead(heap, (mover + 1) % 3, depth - 1, ties);
            heap[pile] += take;
            kids.push(v);
            nodes += n;
            estimated += e;
        }
    }
    let top = kids.iter().map(|v| v[mover]).fold(f64::NEG_INFINITY, f64::max);
    let best: Vec<usize> = (0..kids.len()).filter(|&k| (kids[k][mover] - top).abs() < 1e-9).collect();
    let v = match ties {
        Ties::First => kids[best[0]],
        Ties::Average => [0, 1, 2].map(|p| best.iter().map(|&k| kids[k][p]).sum::<f64>() / best.len() as f64),
    };
    (v, Some(best[0]), nodes, estimated)
}

#[test]
fn look_ahead_equals_an_enumeration_with_the_papers_estimate() {
    for (piles, tokens) in [(3, 2), (3, 3)] {
        let params = [format!("piles={piles}"), format!("tokens={tokens}")];
        let params: Vec<&str> = params.iter().map(String::as_str).collect();
        let game = load_interp("nim3.gala", &params).unwrap_or_else(|e| panic!("{e}"));
        for depth in 0..=4 {
            for ties in [Ties::First, Ties::Average] {
                let (value, choice, nodes, estimated) = nim_ahead(&mut vec![tokens; piles], 0, depth, ties);
                for transpositions in [false, true] {
                    let options =
                        states::StateOptions { transpositions, depth: Some(depth), memory: MemoryLimit::NONE };
                    let r = states::search(&game, ties, options).unwrap_or_else(|e| panic!("{e}"));
                    let what = format!("{piles}x{tokens}, depth {depth}, {ties:?}, transpositions {transpositions}");
                    assert!(r.value.iter().zip(value).all(|(a, b)| (a - b).abs() < 1e-12), "{what}: {:?}", r.value);
                    assert_eq!(r.choice.map(|c| c as usize), choice, "{what}");
                    if !transpositions {
                        assert_eq!((r.stats.nodes, r.stats.evaluated), (nodes, estimated), "{what}");
                    }
                }
            }
        }
    }
    // The paper's example: 2-2-2 Nim three moves ahead, ties averaged: A
    // takes a whole pile.
    let (value, choice, ..) = nim_ahead(&mut vec![2, 2, 2], 0, 3, Ties::Average);
    assert_eq!((value, choice), ([0.5, 0.5, 0.0], Some(1)));
}

#[test]
fn the_evaluate_fn_is_checked() {
    let game = |sig: &str| {
        let src = format!(
            "game g {{ players A, B; var n: int = 2;
              fn evaluate({sig} {{ return ([n, 0], 1); }}
              flow {{ choose A x in 0..=1; payoff A += x; end; }} }}"
        );
        galac_compiler::driver::load_interp("g.gala", src.as_bytes(), &[]).err().unwrap_or_default()
    };
    assert_eq!(game("n: int) -> ([player]int, int)"), "");
    assert!(
        game("n: int) -> [player]int").contains("must return `([player]int, int)`"),
        "{}",
        game("n: int) -> [player]int")
    );
    assert!(game("m: int) -> ([player]int, int)").contains("names no state variable"));
    assert!(game("n: bool) -> ([player]int, int)").contains("has type `bool`"));
    // A game without the fn cannot be searched to a depth.
    let kuhnless = load_interp("nim222.gala", &[]).unwrap_or_else(|e| panic!("{e}"));
    let options = states::StateOptions { transpositions: false, depth: Some(2), memory: MemoryLimit::NONE };
    let Err(SolveError::Unsupported { reason, .. }) = states::search(&kuhnless, Ties::First, options) else {
        panic!("nim222 has no evaluate fn");
    };
    assert!(reason.contains("no `evaluate` fn"), "{reason}");
}

#[test]
fn solve_reports_the_search_over_states() {
    let game = load_interp("nim3.gala", &["piles=3", "tokens=2"]).unwrap_or_else(|e| panic!("{e}"));
    let options = states::StateOptions { transpositions: true, depth: Some(3), memory: MemoryLimit::NONE };
    let report = galac_app::registry::maxn::state_search(&game, Ties::Average, options).expect("nim3 has evaluate");
    let text = &report.text;
    assert!(text.contains("look-ahead to depth 3"), "{text}");
    assert!(text.contains("A 0.500000000, B 0.500000000, C 0.000000000"), "{text}");
    assert!(text.contains("first move: (0, 2)"), "{text}");
    assert!(text.contains("principal variation: A (0, 2), "), "{text}");
    let kuhn = load_interp("kuhn.gala", &[]).unwrap_or_else(|e| panic!("{e}"));
    let options = states::StateOptions { transpositions: true, depth: None, memory: MemoryLimit::NONE };
    let Err(err) = galac_app::registry::maxn::state_search(&kuhn, Ties::First, options) else { panic!("hidden cards") };
    assert!(err.to_string().contains("not of perfect information"), "{err}");
}

/// The JSON of `--depth` / `--transpositions` has the solve schema, the
/// root vector per player and the principal variation, which equals the
/// one max^n finds on the built tree (searched to the end, with and
/// without transpositions), move by move with the tree's labels.
#[test]
fn the_search_over_states_reports_json_with_the_trees_principal_variation() {
    for (file, params) in [("nim3.gala", &["piles=3", "tokens=2"][..]), ("nim222.gala", &[][..])] {
        let game = load_interp(file, params).unwrap_or_else(|e| panic!("{e}"));
        let opts = BuildOptions { labels: true, ..BuildOptions::default() };
        let tree = build(&game, &opts).unwrap_or_else(|e| panic!("{e}")).0;
        for ties in [Ties::First, Ties::Average] {
            let (_, tree_report) = galac_solvers::maxn::solve(&tree, ties).unwrap_or_else(|e| panic!("{e}"));
            let tree_pv: Vec<serde_json::Value> = tree_report
                .principal_variation
                .iter()
                .map(|&(set, a)| {
                    let player = &tree.player_names[tree.infosets[set].player.index()];
                    serde_json::json!({"player": player, "action": tree.action_labels(set)[a as usize]})
                })
                .collect();
            assert!(!tree_pv.is_empty(), "{file}");
            for transpositions in [false, true] {
                let options = states::StateOptions { transpositions, depth: None, memory: MemoryLimit::NONE };
                let r = galac_app::registry::maxn::state_search(&game, ties, options).unwrap_or_else(|e| panic!("{e}"));
                let json = &r.json;
                assert_eq!(json["schema"], "galac.solve/1");
                assert_eq!(json["game"], galac_runtime::game::Game::info(&game).name.as_str());
                for (p, v) in tree.player_names.iter().zip(&tree_report.value) {
                    assert_eq!(json["value"][p].as_f64(), Some(*v), "{file} {ties:?} {transpositions}: {json}");
                }
                assert_eq!(
                    json["principal_variation"],
                    serde_json::Value::Array(tree_pv.clone()),
                    "{file} {ties:?} {transpositions}"
                );
                assert_eq!(json["pv_ends_at_chance"], tree_report.pv_ends_at_chance);
                if !transpositions {
                    assert_eq!(json["search"]["ties"].as_u64(), Some(tree_report.ties), "{file} {ties:?}");
                }
                assert!(json["strategy"].is_null(), "no tree, no profile");
            }
        }
    }
    // With a depth limit the variation stops at the limit.
    let game = load_interp("nim3.gala", &["piles=3", "tokens=3"]).unwrap_or_else(|e| panic!("{e}"));
    for transpositions in [false, true] {
        let options = states::StateOptions { transpositions, depth: Some(2), memory: MemoryLimit::NONE };
        let r = states::search(&game, Ties::First, options).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(r.principal_variation.len(), 2, "{r:?}");
        assert_eq!(r.principal_variation.first().copied(), r.choice);
    }
}

/// The search keeps every information state it meets (and the table every
/// position): under a memory bound it stops with an error instead of
/// exhausting memory, and within a large enough bound it finishes.
#[test]
fn the_search_over_states_counts_its_memory() {
    let game = load_interp("nim3.gala", &["piles=3", "tokens=3"]).unwrap_or_else(|e| panic!("{e}"));
    for transpositions in [false, true] {
        let small = states::StateOptions { transpositions, depth: None, memory: MemoryLimit::from_bytes(8 << 10) };
        let Err(err) = states::search(&game, Ties::First, small) else {
            panic!("24,136 nodes' information states in 8 KiB (transpositions {transpositions})")
        };
        let SolveError::TooMuchMemory { needed, limit } = err else { panic!("{err}") };
        assert_eq!(limit, 8 << 10);
        assert!(needed > limit, "{needed}");
        let large = states::StateOptions { transpositions, depth: None, memory: MemoryLimit::from_bytes(256 << 20) };
        let unbounded = states::StateOptions { memory: MemoryLimit::NONE, ..large };
        assert_eq!(states::search(&game, Ties::First, large), states::search(&game, Ties::First, unbounded));
    }
    let options =
        states::StateOptions { transpositions: false, depth: None, memory: MemoryLimit::from_bytes(64 << 10) };
    let Err(err) = galac_app::registry::maxn::state_search(&game, Ties::First, options) else {
        panic!("over the bound")
    };
    assert!(matches!(err, SolveError::TooMuchMemory { .. }), "{err}");
}

/// The example of docs/language.md's look-ahead section loads and gives the
/// answer the text states (worked out there by hand).
#[test]
fn the_documented_look_ahead_example_checks() {
    let doc = std::fs::read_to_string(crate::repo_root().join("docs/language.md")).expect("docs/language.md");
    let section = &doc[doc.find("## Look-ahead").expect("the look-ahead section")..];
    let start = section.find("```gala\n").expect("its example") + "```gala\n".len();
    let src = &section[start..start + section[start..].find("```").expect("the example's end")];
    let game = galac_compiler::driver::load_interp("race.gala", src.as_bytes(), &[]).unwrap_or_else(|e| panic!("{e}"));
    let options = states::StateOptions { transpositions: false, depth: Some(1), memory: MemoryLimit::NONE };
    let r = states::search(&game, Ties::First, options).unwrap_or_else(|e| panic!("{e}"));
    assert!(r.value.iter().zip([0.6, 0.2, 0.2]).all(|(a, b)| (a - b).abs() < 1e-12), "{:?}", r.value);
    assert_eq!((r.choice, r.stats.evaluated), (Some(1), 2));
    // Searched to the end it needs no estimate.
    let end = states::search(
        &game,
        Ties::First,
        states::StateOptions { transpositions: true, depth: None, memory: MemoryLimit::NONE },
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(end.stats.evaluated, 0);
}
