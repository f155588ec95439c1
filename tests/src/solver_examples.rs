//! The examples written for the solvers beyond the LP (liar's dice, goofspiel,
//! the double oracle's domains, a general-sum and a larger 3-player game)
//! against counts and values computed by others: OpenSpiel's trees walked
//! with pyspiel, a Python port of the GT Library's border-patrolling game,
//! enumerations written here, and the published equilibria.

use galac_runtime::tree::{build, BuildOptions, Tree};
use galac_solvers::best_response::evaluate;
use galac_solvers::lp::Backend;
use galac_solvers::Profile;

use crate::solve::{check, solve_example};
use crate::trees::{counts, example, tree_of};

/// (nodes, terminals, chance nodes, info sets per player, sequences per player)
/// of an example built with `params`.
type Counts = (u64, u64, u64, Vec<u64>, Vec<u64>);

fn counts_of(file: &str, params: &[&str]) -> Counts {
    counts(&tree_of(&example(file, params)).stats())
}

#[test]
fn liars_dice_matches_openspiel() {
    // pyspiel liars_dice (numdice, dice_sides): nodes with chance and
    // terminal nodes, info sets as distinct information_state_string.
    let cases: &[(&[&str], Counts)] = &[
        (&[], (294_883, 147_420, 7, vec![12_288, 12_288], vec![24_571, 24_571])),
        (&["sides=4"], (8_181, 4_080, 5, vec![512, 512], vec![1_021, 1_021])),
        (&["dice=2", "sides=2"], (8_191, 4_080, 15, vec![384, 384], vec![766, 766])),
    ];
    for (params, expected) in cases {
        assert_eq!(&counts_of("liars_dice.gala", params), expected, "{params:?}");
    }
}

#[test]
fn liars_dice_with_four_sides_is_worth_one_sixteenth() {
    // OpenSpiel's CFR+ (2,000 iterations) gives 0.062495 at NashConv 3e-5.
    for backend in [Backend::Clarabel, Backend::Highs] {
        check(&solve_example("liars_dice.gala", &["sides=4"], backend), 1.0 / 16.0, 1e-6);
    }
}

#[test]
fn goofspiel_matches_openspiel_turn_based() {
    // pyspiel goofspiel(num_cards, points_order=descending,
    // returns_type=win_loss, imp_info=True) through convert_to_turn_based.
    let cases: &[(&str, Counts)] = &[
        ("cards=1", (3, 1, 0, vec![1, 1], vec![2, 2])),
        ("cards=3", (67, 36, 0, vec![8, 8], vec![18, 18])),
        ("cards=4", (1_077, 576, 0, vec![81, 81], vec![175, 175])),
        ("cards=5", (26_931, 14_400, 0, vec![1_062, 1_062], vec![2_284, 2_284])),
    ];
    for (param, expected) in cases {
        assert_eq!(&counts_of("goofspiel.gala", &[param]), expected, "{param}");
    }
}

#[test]
fn goofspiel_is_symmetric_so_worth_zero() {
    check(&solve_example("goofspiel.gala", &[], Backend::Clarabel), 0.0, 1e-7);
}

#[test]
fn generic_poker_is_leduc_and_matches_universal_poker() {
    // The defaults are OpenSpiel's leduc_poker; with one bet size the family
    // is universal_poker (limit betting, raise cap max_raises + 1).
    assert_eq!(counts_of("generic_poker.gala", &[]), counts_of("leduc.gala", &[]));
    assert_eq!(counts_of("generic_poker.gala", &[]), (9_457, 5_520, 157, vec![468, 468], vec![1_093, 1_093]));
    assert_eq!(
        counts_of("generic_poker.gala", &["types=4", "per_type=2"]),
        (26_049, 15_344, 289, vec![864, 864], vec![2_017, 2_017])
    );
    check(&solve_example("generic_poker.gala", &[], Backend::Clarabel), -0.085_606_424_078, 1e-6);
}

/// One betting round of generic poker from its rules, `first` to act:
/// (decision nodes per player, fold leaves, plays that go on).
fn generic_poker_round(bets: u64, raises: u64, max_raises: u64) -> ([u64; 2], u64, u64) {
    fn go(p: usize, facing: bool, raised: u64, checks: u64, sizes: (u64, u64, u64), out: &mut ([u64; 2], u64, u64)) {
        let (bets, raises, max_raises) = sizes;
        out.0[p] += 1;
        if facing {
            out.1 += 1; // fold
            out.2 += 1; // call
            if raised < max_raises {
                for _ in 0..raises {
                    go(1 - p, true, raised + 1, checks, sizes, out);
                }
            }
        } else {
            if checks == 1 {
                out.2 += 1;
            } else {
                go(1 - p, false, raised, 1, sizes, out);
            }
            for _ in 0..bets {
                go(1 - p, true, raised, checks, sizes, out);
            }
        }
    }
    let mut out = ([0; 2], 0, 0);
    go(0, false, 0, 0, (bets, raises, max_raises), &mut out);
    out
}

#[test]
fn generic_poker_with_more_bet_sizes_matches_an_enumeration() {
    // Deal (n cards, then n - 1), round 1, a table card (n - 2), round 2.
    // A player's information sets: his card with each round-1 node where he
    // acts, and his card, a round-1 play, the table card with each round-2 one.
    for (params, cards, sizes) in [
        (&["bet_sizes=2"][..], 6, (2, 2, 1)),
        (&["types=2", "bet_sizes=2", "raise_sizes=1", "max_raises=2"][..], 4, (2, 1, 2)),
    ] {
        let (dec, folds, goes_on) = generic_poker_round(sizes.0, sizes.1, sizes.2);
        let round = dec[0] + dec[1] + folds;
        let nodes = 1 + cards + cards * (cards - 1) * (round + goes_on * (1 + (cards - 2) * (round + goes_on)));
        let sets: Vec<u64> = dec.iter().map(|d| cards * d + cards * goes_on * (cards - 1) * d).collect();
        let (n, _, _, s, _) = counts_of("generic_poker.gala", params);
        assert_eq!((n, s), (nodes, sets), "{params:?}");
    }
}

#[test]
fn phantom_ttt_matches_openspiel_cut_at_the_mark_limit() {
    // pyspiel phantom_ttt walked until `marks` marks are on the board:
    // obstype=reveal-nothing for the default observation, reveal-numturns
    // for reveal_attempts.
    // (marks, nodes, leaves, info sets with reveal-nothing, with reveal-numturns)
    let cases = [(3, 2_323, 2_016, [82, 10], [163, 10]), (4, 49_699, 42_336, [82, 1_171], [163, 2_332])];
    for (marks, nodes, leaves, nothing, numturns) in cases {
        let m = format!("marks={marks}");
        let (n, t, c, sets, _) = counts_of("phantom_ttt.gala", &[&m]);
        assert_eq!((n, t, c, sets), (nodes, leaves, 0, nothing.to_vec()), "{m}");
        let (n, t, c, sets, _) = counts_of("phantom_ttt.gala", &[&m, "reveal_attempts=true"]);
        assert_eq!((n, t, c, sets), (nodes, leaves, 0, numturns.to_vec()), "{m}, reveal_attempts");
    }
}

#[test]
fn search_game_matches_a_port_of_the_gt_library() {
    // An independent Python port of the GT Library's BPGGameState and
    // BPGExpander on its graph files, with the defender's information set
    // keyed by his moves and the tracks seen after each of them.
    let cases: &[(&[&str], Counts)] = &[
        (&["graph=0"], (8_033, 6_302, 0, vec![28, 87], vec![76, 518])),
        (&[], (8_511, 6_710, 0, vec![28, 87], vec![78, 518])),
        (&["graph=2"], (8_907, 7_050, 0, vec![28, 87], vec![80, 518])),
        (&["graph=1", "slow_moves=false"], (4_039, 3_154, 0, vec![15, 87], vec![37, 518])),
        (&["graph=1", "depth=4"], (66_839, 52_058, 0, vec![74, 736], vec![190, 4_247])),
    ];
    for (params, expected) in cases {
        assert_eq!(&counts_of("search_game.gala", params), expected, "{params:?}");
    }
    // OpenSpiel's CFR+ on the exported tree (efg_game) approaches -1/3.
    check(&solve_example("search_game.gala", &[], Backend::Clarabel), -1.0 / 3.0, 1e-6);
}

/// Builds beer-quiche with labels and a profile of it: the sender's
/// probability of Beer per type, the receiver's probability of a duel per
/// breakfast.
fn beer_quiche_profile(beer: [f64; 2], duel: [f64; 2]) -> (Tree, Profile) {
    let game = example("beer_quiche.gala", &[]);
    let opts = BuildOptions { labels: true, ..BuildOptions::default() };
    let tree = build(&game, &opts).unwrap_or_else(|e| panic!("{e}")).0;
    let mut profile = Profile::uniform(&tree);
    let settings = [
        ("sender: sender_type(Strong)", "Beer", beer[0]),
        ("sender: sender_type(Weak)", "Beer", beer[1]),
        ("receiver: breakfast(Beer)", "Duel", duel[0]),
        ("receiver: breakfast(Quiche)", "Duel", duel[1]),
    ];
    for (label, action, p) in settings {
        let set = tree.infosets.keys().find(|&i| tree.infoset_label(i) == label).expect(label);
        let a = tree.action_labels(set).iter().position(|l| l == action).expect(action);
        let probs = profile.probs_mut(set);
        probs[a] = p;
        probs[1 - a] = 1.0 - p;
    }
    (tree, profile)
}

#[test]
fn beer_quiche_has_the_known_pooling_equilibria() {
    let (tree, _) = beer_quiche_profile([1.0, 1.0], [0.0, 0.5]);
    assert_eq!(counts(&tree.stats()), (15, 8, 1, vec![2, 2], vec![5, 5]));
    // (Beer, Beer), concede after Beer, duel after Quiche with p >= 1/2:
    // payoffs 2.9 and 0.9. (Quiche, Quiche) mirrored: 2.1 and 0.9.
    for (beer, duel, values) in [
        ([1.0, 1.0], [0.0, 0.5], [2.9, 0.9]),
        ([1.0, 1.0], [0.0, 1.0], [2.9, 0.9]),
        ([0.0, 0.0], [0.5, 0.0], [2.1, 0.9]),
    ] {
        let (tree, profile) = beer_quiche_profile(beer, duel);
        let e = evaluate(&tree, &profile);
        assert!(e.nash_conv.abs() < 1e-12, "{beer:?} {duel:?}: NashConv {}", e.nash_conv);
        for (v, want) in e.values.iter().zip(values) {
            assert!((v - want).abs() < 1e-12, "{beer:?} {duel:?}: {:?}", e.values);
        }
    }
    // Not equilibria: a duel after Quiche below 1/2 (the weak type eats
    // quiche), and separating (the weak type would drink beer).
    for (beer, duel) in [([1.0, 1.0], [0.0, 0.25]), ([1.0, 0.0], [0.0, 1.0])] {
        let (tree, profile) = beer_quiche_profile(beer, duel);
        assert!(evaluate(&tree, &profile).nash_conv > 0.01, "{beer:?} {duel:?}");
    }
}

#[test]
fn nim3_matches_an_enumeration_of_the_heaps() {
    /// Counts (nodes, leaves, decision nodes per player) below `heaps`.
    fn enumerate(heaps: &mut [u64], max_take: u64, mover: usize, out: &mut (u64, u64, [u64; 3])) {
        out.0 += 1;
        if heaps.iter().sum::<u64>() == 0 {
            out.1 += 1;
            return;
        }
        out.2[mover] += 1;
        for i in 0..heaps.len() {
            for take in 1..=heaps[i].min(max_take) {
                heaps[i] -= take;
                enumerate(heaps, max_take, (mover + 1) % 3, out);
                heaps[i] += take;
            }
        }
    }
    for (params, heaps, max_take) in
        [(&[][..], vec![3u64; 3], 3), (&["piles=4", "tokens=2", "max_take=1"][..], vec![2; 4], 1)]
    {
        let mut expected = (0, 0, [0; 3]);
        enumerate(&mut heaps.clone(), max_take, 0, &mut expected);
        for rule in ["last_wins=false", "last_wins=true"] {
            let all: Vec<&str> = params.iter().copied().chain([rule]).collect();
            let s = tree_of(&example("nim3.gala", &all)).stats();
            let got = (s.nodes, s.terminals, s.decision_nodes.clone(), s.infosets.clone());
            assert_eq!(got, (expected.0, expected.1, expected.2.to_vec(), expected.2.to_vec()), "{all:?}");
        }
    }
}
