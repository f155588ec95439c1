//! The leaves' cheap forms against the general one: a constant and a
//! showdown give, state by state, the values of the payoff matrix they
//! stand for, card removal included (by conflict lists and by cards); the
//! 16-bit storage's codes.

use super::cards::Cards;
use super::game::{Conflicts, Payoff, PrivateStates, PublicGame, PublicNode, Ranking, Removal};
use super::leaf;

/// A small deterministic generator (SplitMix64), enough for test data.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// A one-leaf game with `payoff`, these conflicts and rankings.
fn leaf_game(n: [usize; 2], removal: Removal, payoff: Payoff, rankings: Vec<Ranking>, matrix: Vec<f64>) -> PublicGame {
    let states = |k: usize| PrivateStates { labels: vec![String::new(); k], weights: vec![1.0; k] };
    let game = PublicGame {
        player_names: ["a".into(), "b".into()],
        states: [states(n[0]), states(n[1])],
        removal,
        nodes: vec![PublicNode::Terminal { payoff: 0 }],
        child_ids: Vec::new(),
        labels: vec![String::new()],
        outcomes: Vec::new(),
        excluded: Vec::new(),
        payoffs: vec![payoff],
        rankings,
        matrix,
    };
    game.validate().expect("a valid game");
    game
}

#[test]
fn constants_and_showdowns_equal_their_matrices() {
    let mut rng = Rng(7);
    for case in 0..300 {
        let n = [1 + rng.below(9) as usize, 1 + rng.below(9) as usize];
        // Hands of up to two of 8 cards, two-card hands different within
        // a player; the pairs sharing a card conflict.
        let mut hand = || (0..rng.below(3)).fold(0u64, |h, _| h | 1 << rng.below(8));
        let hands = [0, 1].map(|p| {
            let mut list: Vec<u64> = Vec::new();
            while list.len() < n[p] {
                let h = hand();
                if h.count_ones() < 2 || !list.contains(&h) {
                    list.push(h);
                }
            }
            list
        });
        let conflicting = |i: usize, j: usize| hands[0][i] & hands[1][j] != 0;
        let conflicts: Vec<(u32, u32)> = (0..n[0])
            .flat_map(|i| (0..n[1]).map(move |j| (i, j)))
            .filter(|&(i, j)| conflicting(i, j))
            .map(|(i, j)| (i as u32, j as u32))
            .collect();
        let rank = [0, 1].map(|p| (0..n[p]).map(|_| rng.below(4) as u32).collect::<Vec<u32>>());
        let [win, lose, tie] = [1.0 + rng.below(5) as f64, -(1.0 + rng.below(5) as f64), rng.below(3) as f64 - 1.0];
        let constant = rng.below(9) as f64 - 4.0;
        let mut shown = vec![0.0; n[0] * n[1]];
        let mut flat = vec![0.0; n[0] * n[1]];
        for i in 0..n[0] {
            for j in 0..n[1] {
                if !conflicting(i, j) {
                    let (a, b) = (rank[0][i], rank[1][j]);
                    shown[i * n[1] + j] = if a > b {
                        win
                    } else if a < b {
                        lose
                    } else {
                        tie
                    };
                    flat[i * n[1] + j] = constant;
                }
            }
        }
        let showdown = Payoff::Showdown { ranking: 0, win, lose, tie };
        let lists = || Removal::Lists(Conflicts::from_pairs(n, &conflicts));
        let cards = || Removal::Cards(Cards::new(hands.clone()).expect("two cards at most"));
        let ranking = || vec![Ranking::new(rank.clone())];
        let fast = [
            (leaf_game(n, lists(), showdown, ranking(), Vec::new()), 0),
            (leaf_game(n, cards(), showdown, ranking(), Vec::new()), 0),
            (leaf_game(n, lists(), Payoff::Constant(constant), Vec::new(), Vec::new()), 1),
            (leaf_game(n, cards(), Payoff::Constant(constant), Vec::new(), Vec::new()), 1),
        ];
        let slow = [shown, flat].map(|m| leaf_game(n, lists(), Payoff::Matrix { start: 0 }, Vec::new(), m));
        for p in 0..2 {
            // Some states out of reach: the card sums skip them; in every
            // fourth case none is in reach (a line the other player no
            // longer takes), which the cards' leaves answer without their
            // passes. Every state must be written (`got` starts as NaN).
            let none = case % 4 == 3;
            let opp: Vec<f64> =
                (0..n[1 - p]).map(|_| if none || rng.below(4) == 0 { 0.0 } else { rng.unit() }).collect();
            for (fast, which) in &fast {
                let slow = &slow[*which];
                let (mut got, mut want) = (vec![f64::NAN; n[p]], vec![0.0; n[p]]);
                leaf::values(fast, &leaf::Leaves::new(fast), &fast.payoffs[0], p, &opp, &mut got);
                leaf::values(slow, &leaf::Leaves::new(slow), &slow.payoffs[0], p, &opp, &mut want);
                for (g, w) in got.iter().zip(&want) {
                    assert!((g - w).abs() < 1e-12, "case {case}, player {p}: {got:?} against {want:?}");
                }
            }
            // A fold and a showdown valued in one go, as at a decision of
            // `p` with both among its children, against the same reach.
            let game = &fast[1].0;
            let payoffs = [&Payoff::Constant(constant), &showdown];
            let (mut fold, mut call) = (vec![f64::NAN; n[p]], vec![f64::NAN; n[p]]);
            leaf::fused_values(game, &leaf::Leaves::new(game), payoffs, p, &opp, &mut fold, &mut call);
            for (got, slow) in [(fold, &slow[1]), (call, &slow[0])] {
                let mut want = vec![0.0; n[p]];
                leaf::values(slow, &leaf::Leaves::new(slow), &slow.payoffs[0], p, &opp, &mut want);
                for (g, w) in got.iter().zip(&want) {
                    assert!((g - w).abs() < 1e-12, "case {case}, player {p}, fused: {got:?} against {want:?}");
                }
            }
        }
    }
}

/// Three cards in a hand are refused, with the state named.
#[test]
fn hands_of_three_cards_are_refused() {
    let err = Cards::new([vec![0b11], vec![0b1, 0b111]]).expect_err("refused");
    assert_eq!(err, "state 1 of player 1 holds 3 cards; card removal takes at most two");
    let err = Cards::new([vec![0b11, 0b101, 0b11], vec![0b1]]).expect_err("refused");
    assert_eq!(err, "two states of player 0 hold the same cards; card removal needs one");
    // The per-card sums have a slot per card of 52, and two more.
    let err = Cards::new([vec![0b11], vec![1 << 52 | 1]]).expect_err("refused");
    assert_eq!(err, "state 0 of player 1 holds card 52; card removal takes cards 0 to 51");
}

/// Hands are read back from the labels only where they explain the
/// conflicts exactly: a label naming another card, a third card or a card
/// outside the deck, or labels without cards, leave the lists.
#[test]
fn hands_from_labels_must_explain_the_conflicts() {
    let labels = |xs: &[&str]| xs.iter().map(|x| x.to_string()).collect::<Vec<String>>();
    // As, Ah against Ah, Kd and 5s, 4s (ranks from 0 for a two).
    let oop = labels(&["hand([card(12, 0), card(12, 1)])"]);
    let ip = labels(&["hand([card(12, 1), card(11, 2)]), moved(Check)", "hand([card(3, 0), card(2, 0)])"]);
    let conflicts = |_: usize, j: usize| j == 0;
    let cards = Cards::from_labels([&oop, &ip], conflicts).expect("explained");
    assert_eq!(cards.hands[0], vec![1 << 48 | 1 << 49]);
    assert_eq!(cards.same, [vec![super::cards::NO_SAME], vec![super::cards::NO_SAME; 2]]);
    assert!(Cards::from_labels([&oop, &ip], |_, _| false).is_none(), "a conflict left unexplained");
    let third = labels(&["hand([card(12, 0), card(12, 1), card(11, 0)])"]);
    assert!(Cards::from_labels([&third, &ip], conflicts).is_none(), "three cards");
    let outside = labels(&["hand([card(12, 7), card(12, 1)])"]);
    assert!(Cards::from_labels([&outside, &ip], conflicts).is_none(), "a fifth suit");
    let plain = labels(&["J", "Q"]);
    assert!(Cards::from_labels([&plain, &plain], |_, _| false).is_none(), "no cards at all");
}

/// 16-bit storage: codes decode to within a step of their scale
/// (`scale / i16::MAX` for regrets, `/ u16::MAX` for sums), the largest
/// magnitude is the scale, and the rounding is unbiased: a value between
/// two codes decodes, on average over seeds, to itself. A node of zeros
/// keeps the scale 0 (no division by zero) and decodes to zeros; one huge
/// entry, an infinite one or NaN leave finite codes, and regret matching
/// on them no NaN.
#[test]
fn sixteen_bit_codes_round_trip_within_a_step() {
    use super::store::{decode_signed, decode_unsigned, encode_signed, encode_unsigned};
    use super::walk::regret_matching;
    let mut rng = Rng(11);
    for case in 0..300 {
        let len = 1 + rng.below(40) as usize;
        let magnitude = 10f64.powi(rng.below(16) as i32 - 8);
        let values: Vec<f32> = (0..len).map(|_| ((rng.unit() * 2.0 - 1.0) * magnitude) as f32).collect();
        let largest = values.iter().fold(0f32, |m, x| m.max(x.abs()));
        let seed = rng.next() as u32;
        let mut signed = vec![0i16; len];
        let scale = encode_signed(&values, &mut signed, seed);
        assert_eq!(scale, largest, "case {case}");
        // A step, and `f32`'s rounding of the product, of the dither added
        // and of the decoding: a few units in the last place of a code
        // below 65,536 (2^-8 each), under 0.02 of a step.
        let step = scale / f32::from(i16::MAX);
        for (x, &c) in values.iter().zip(&signed) {
            let back = decode_signed(c, scale);
            assert!((back - x).abs() <= 1.02 * step, "case {case}: {x} coded {c}, back {back}, step {step}");
        }
        // The largest entry spans the codes (a step less if the product rounds under).
        assert!(signed.iter().any(|c| c.unsigned_abs() >= i16::MAX as u16 - 1), "case {case}: {signed:?}");
        let sums: Vec<f32> = values.iter().map(|x| x.abs()).collect();
        let mut unsigned = vec![0u16; len];
        let scale = encode_unsigned(&sums, &mut unsigned, seed);
        assert_eq!(scale, largest, "case {case}");
        let step = scale / f32::from(u16::MAX);
        for (x, &c) in sums.iter().zip(&unsigned) {
            let back = decode_unsigned(c, scale);
            assert!((back - x).abs() <= 1.02 * step, "case {case}: {x} coded {c}, back {back}, step {step}");
        }
    }
    // Unbiased: 0.3 and -0.3 of a step above a code (next to the largest
    // entry, 1), over 20,000 seeds, decode on average to themselves within
    // 0.02 of a step (the mean of 0/1 draws: a standard deviation of 0.0032).
    for frac in [0.3f32, -0.3] {
        let step = 1.0 / f32::from(i16::MAX);
        let x = (100.0 + frac) * step;
        let mean_signed: f64 = (0..20_000u32)
            .map(|seed| {
                let mut codes = [0i16; 2];
                encode_signed(&[1.0, x], &mut codes, seed.wrapping_mul(2_654_435_761));
                f64::from(decode_signed(codes[1], 1.0))
            })
            .sum::<f64>()
            / 20_000.0;
        assert!((mean_signed - f64::from(x)).abs() < 0.02 * f64::from(step), "{frac}: {mean_signed} for {x}");
        let step = 1.0 / f32::from(u16::MAX);
        let x = (100.0 + frac) * step;
        let mean_unsigned: f64 = (0..20_000u32)
            .map(|seed| {
                let mut codes = [0u16; 2];
                encode_unsigned(&[1.0, x], &mut codes, seed.wrapping_mul(2_654_435_761));
                f64::from(decode_unsigned(codes[1], 1.0))
            })
            .sum::<f64>()
            / 20_000.0;
        assert!((mean_unsigned - f64::from(x)).abs() < 0.02 * f64::from(step), "{frac}: {mean_unsigned} for {x}");
    }
    // A node of zeros.
    let mut codes = vec![7i16; 4];
    assert_eq!(encode_signed(&[0.0; 4], &mut codes, 1), 0.0);
    assert_eq!(codes, [0; 4]);
    assert_eq!(decode_signed(0, 0.0), 0.0);
    let mut zeros = vec![7u16; 4];
    assert_eq!(encode_unsigned(&[0.0; 4], &mut zeros, 1), 0.0);
    assert_eq!((zeros, decode_unsigned(0, 0.0)), (vec![0; 4], 0.0));
    let (mut sigma, mut denom) = (vec![0.0f64; 4], vec![0.0f64; 2]);
    regret_matching(&codes, 1, &mut sigma, &mut denom);
    assert_eq!(sigma, [0.25; 4], "no positive regret: uniform");
    // One huge entry among small ones; infinities; NaN (codes 0).
    for (values, want) in [
        ([f32::MAX, 1.0, -1.0, 0.0], [i16::MAX, 0, 0, 0]),
        ([f32::INFINITY, 1.0, -3.0, 0.5], [i16::MAX, 0, 0, 0]),
        ([f32::NEG_INFINITY, 1.0, -3.0, 0.5], [-i16::MAX, 0, 0, 0]),
        ([-1e30, 1e-30, 2.0, 0.0], [-i16::MAX, 0, 0, 0]),
        ([f32::NAN, 2.0, -0.5, 0.0], [0, i16::MAX, -8192, 0]),
    ] {
        let scale = encode_signed(&values, &mut codes, 3);
        assert!(scale.is_finite() && scale > 0.0, "{values:?}: {scale}");
        // -0.5 of 2 is 8191.75 steps down: -8192 or -8191 by the dither.
        assert!(codes.iter().zip(want).all(|(&c, w)| c == w || (w == -8192 && c == -8191)), "{values:?}: {codes:?}");
        assert!(codes.iter().all(|&c| decode_signed(c, scale).is_finite()), "{values:?}");
        regret_matching(&codes, 1, &mut sigma, &mut denom);
        assert!(sigma.iter().all(|p| p.is_finite()) && (sigma.iter().sum::<f64>() - 1.0).abs() < 1e-12, "{sigma:?}");
    }
    let mut sums = vec![7u16; 4];
    assert_eq!(encode_unsigned(&[f32::INFINITY, 1.0, f32::NAN, -2.0], &mut sums, 5), f32::MAX / 2.0);
    assert_eq!(sums, [u16::MAX, 0, 0, 0]);
}

/// A split below a decision of the traverser whose fold and call (a
/// showdown) are valued in one go: two threads walk the decisions above
/// the split top-down first, that fold and call included
/// (`split::Plan`), and give one thread's answer bit for bit, with both
/// variants and storages. Cards 0 to 7; player 0 chooses between a fold,
/// a call to a showdown and a bet to a board card (5, 6 or 7, which
/// excludes the hands holding it), after which player 1 folds or calls.
#[test]
fn a_split_below_a_fused_fold_and_call_changes_no_bit() {
    use super::cfr::{VectorCfr, POSTFLOP_DCFR};
    use super::game::Outcome;
    use super::split::splits;
    use super::store::Storage;
    use crate::cfr::Variant;
    let hands = [vec![0b11, 0b101, 0b1_0010, 0b110_0000], vec![0b1100, 0b1001, 0b1010_0000, 0b1_1000]];
    let states =
        |p: usize| PrivateStates { labels: vec![String::new(); 4], weights: vec![1.0, 0.5, 2.0, 1.0 + p as f64] };
    let mut rng = Rng(11);
    let rankings =
        (0..4).map(|_| Ranking::new([0, 1].map(|_| (0..4).map(|_| rng.below(3) as u32).collect()))).collect();
    let showdown = |ranking: u32, stake: f64| Payoff::Showdown { ranking, win: stake, lose: -stake, tie: 0.0 };
    let payoffs = vec![
        Payoff::Constant(-1.0),
        showdown(0, 2.0),
        Payoff::Constant(2.0),
        showdown(1, 4.0),
        showdown(2, 4.0),
        showdown(3, 4.0),
        Payoff::Constant(1.0),
    ];
    let decision = |player: u8, children: std::ops::Range<u32>| PublicNode::Decision { player, children };
    // Preorder: 0 player 1 (1 or a give-up, 14); 1 player 0 (fold 2, call
    // 3, bet 4); 4 the board card (5, 8, 11), each player 1's fold or call.
    let mut nodes = vec![
        decision(1, 0..2),
        decision(0, 2..5),
        PublicNode::Terminal { payoff: 0 },
        PublicNode::Terminal { payoff: 1 },
        PublicNode::Chance { children: 5..8, outcomes: 0..3 },
    ];
    let mut child_ids = vec![1, 14, 2, 3, 4, 5, 8, 11];
    let (mut outcomes, mut excluded) = (Vec::new(), Vec::new());
    for (k, card) in [5u32, 6, 7].into_iter().enumerate() {
        let v = nodes.len() as u32;
        nodes.push(decision(1, child_ids.len() as u32..child_ids.len() as u32 + 2));
        child_ids.extend([v + 1, v + 2]);
        nodes.push(PublicNode::Terminal { payoff: 2 });
        nodes.push(PublicNode::Terminal { payoff: 3 + k as u32 });
        let excluded_of = |p: usize, excluded: &mut Vec<u32>| {
            let start = excluded.len() as u32;
            excluded.extend((0..4u32).filter(|&i| hands[p][i as usize] >> card & 1 == 1));
            start..excluded.len() as u32
        };
        let range = [excluded_of(0, &mut excluded), excluded_of(1, &mut excluded)];
        outcomes.push(Outcome { prob: 1.0 / 3.0, excluded: range });
    }
    nodes.push(PublicNode::Terminal { payoff: 6 });
    let game = PublicGame {
        player_names: ["a".into(), "b".into()],
        states: [states(0), states(1)],
        removal: Removal::Cards(Cards::new(hands.clone()).expect("two cards at most")),
        labels: vec![String::new(); nodes.len()],
        nodes,
        child_ids,
        outcomes,
        excluded,
        payoffs,
        rankings,
        matrix: Vec::new(),
    };
    game.validate().expect("a valid game");
    assert!(leaf::Leaves::new(&game).fused(1).is_some(), "player 0's fold and call are fused");
    let split = splits(&game, 0);
    assert!(split[4] && split.iter().filter(|&&s| s).count() == 1, "split at the board card alone: {split:?}");
    let runs =
        [Variant::CfrPlus, POSTFLOP_DCFR].into_iter().flat_map(|v| [(v, Storage::F32), (v, Storage::Compressed)]);
    for (variant, storage) in runs {
        let answers: Vec<Vec<u64>> = [1, 2]
            .iter()
            .map(|&threads| {
                let mut cfr = VectorCfr::with_min_work(&game, variant, threads, 0, storage).expect("runs");
                assert_eq!(cfr.two_threads(), threads == 2);
                let mut bits = Vec::new();
                for _ in 0..30 {
                    cfr.iterate();
                    let e = cfr.evaluate();
                    bits.extend(e.values.iter().chain(&e.best_response).map(|x| x.to_bits()));
                }
                for (v, node) in game.nodes.iter().enumerate() {
                    if let PublicNode::Decision { player, children } = node {
                        let (p, k) = (*player as usize, children.len());
                        let (mut sigma, mut reached) = (vec![0.0; k * 4], vec![false; 4]);
                        cfr.average(v as u32, p, &mut sigma, &mut reached);
                        bits.extend(sigma.iter().map(|x| x.to_bits()));
                    }
                }
                bits
            })
            .collect();
        assert_eq!(answers[0], answers[1], "{} {storage:?}", variant.name());
    }
}
