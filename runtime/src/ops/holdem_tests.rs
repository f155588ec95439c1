//! Tests of the hold'em builtins against counts known independently of
//! any evaluator: the hand classes of all 2,598,960 five-card hands and
//! the number of distinct five-card values (7,462).

use super::*;
use crate::value::Dyn;

// rs_poker's cards, values and the tables made from them, as the build
// script has them.
#[path = "holdem_rs.rs"]
mod holdem_rs;
use crate::ops::holdem_keys;
use holdem_rs::{rs_value, tables, RS_CARDS};
use rs_poker::core::SevenCardAccum;

const AT: &str = "t: ";

/// The card of the standard deck numbered `i` (0 to 51).
fn card(i: usize) -> i64 {
    ((i as i64 / SUITS) << SUIT_BITS) | (i as i64 % SUITS)
}

fn rank_of(ids: &[usize]) -> i64 {
    let cards: Vec<i64> = ids.iter().map(|&i| card(i)).collect();
    hand_rank(&cards, AT).expect("a valid hand")
}

#[test]
fn five_card_classes_have_their_known_counts() {
    let mut counts = [0u64; 10];
    let mut values = std::collections::HashSet::new();
    for a in 0..52 {
        for b in a + 1..52 {
            for c in b + 1..52 {
                for d in c + 1..52 {
                    for e in d + 1..52 {
                        let v = rank_of(&[a, b, c, d, e]);
                        counts[hand_class(v) as usize] += 1;
                        values.insert(v);
                    }
                }
            }
        }
    }
    assert_eq!(counts, [0, 1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 40]);
    assert_eq!(values.len(), 7_462);
}

/// A seven-card hand is worth its best five cards: checked on hands
/// drawn by a fixed sequence against the best of the 21 five-card subsets.
#[test]
fn seven_cards_are_worth_their_best_five() {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..20_000 {
        let mut ids: Vec<usize> = Vec::new();
        while ids.len() < 7 {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            let i = (seed >> 33) as usize % 52;
            if !ids.contains(&i) {
                ids.push(i);
            }
        }
        let mut best = 0;
        for skip1 in 0..7 {
            for skip2 in skip1 + 1..7 {
                let five: Vec<usize> = (0..7).filter(|&k| k != skip1 && k != skip2).map(|k| ids[k]).collect();
                best = best.max(rank_of(&five));
            }
        }
        assert_eq!(rank_of(&ids), best, "{ids:?}");
        assert_eq!(
            rank_of(&ids[..6]),
            (0..6).map(|k| rank_of(&[&ids[..k], &ids[k + 1..6]].concat())).max().unwrap_or(0)
        );
    }
}

#[test]
fn known_hands_compare_as_players_expect() {
    // Ranks 0 = two .. 12 = ace; suits s h d c.
    let c = |r: i64, s: i64| (r << SUIT_BITS) | s;
    let hand = |cs: &[(i64, i64)]| hand_rank(&cs.iter().map(|&(r, s)| c(r, s)).collect::<Vec<_>>(), AT).expect("valid");
    let wheel = hand(&[(12, 0), (0, 1), (1, 2), (2, 3), (3, 0)]);
    let six_high = hand(&[(4, 0), (0, 1), (1, 2), (2, 3), (3, 0)]);
    assert_eq!(hand_class(wheel), class::STRAIGHT);
    assert!(six_high > wheel);
    let steel_wheel = hand(&[(12, 0), (0, 0), (1, 0), (2, 0), (3, 0)]);
    assert_eq!(hand_class(steel_wheel), class::STRAIGHT_FLUSH);
    // Two pair with a better kicker wins; the suits never matter.
    let a = hand(&[(10, 0), (10, 1), (5, 0), (5, 2), (12, 3)]);
    let b = hand(&[(10, 2), (10, 3), (5, 1), (5, 3), (11, 3)]);
    assert!(a > b);
    assert_eq!(hand(&[(10, 0), (10, 1), (5, 0), (5, 2), (12, 3)]), hand(&[(10, 2), (10, 3), (5, 1), (5, 3), (12, 0)]));
}

#[test]
fn bad_hands_are_errors() {
    let c = |r: i64, s: i64| (r << SUIT_BITS) | s;
    for n in [0, 4, 8] {
        let hand: Vec<i64> = (0..n).map(|r| c(r, 0)).collect();
        assert!(hand_rank(&hand, AT).unwrap_err().to_string().contains(&format!("5 to 7 cards, got {n}")));
    }
    let twice = [c(0, 0), c(0, 0), c(1, 0), c(2, 1), c(3, 1)];
    assert!(hand_rank(&twice, AT).unwrap_err().to_string().contains("a card twice"));
    let big = [c(13, 0), c(0, 0), c(1, 0), c(2, 1), c(3, 1)];
    assert!(hand_rank(&big, AT).unwrap_err().to_string().contains("not a card of the standard deck"));
    // Each way out of the deck, alone among six good cards (the seventh
    // card, so the seven-card path sees it too): ranks 13 to 15 (whose
    // table entries exist), past 15, negative, suits past 3, and suit bits
    // that would land the card on another card's entry, or bits past the
    // 32 the card's index is made from.
    let good: Vec<i64> = (0..6).map(|r| c(r, r % 4)).collect();
    for bad in [
        c(13, 1),
        c(15, 3),
        c(16, 0),
        -1,
        i64::MIN,
        c(-1, 0),
        c(5, 4),
        c(7, 1 << 14),
        c(2, 1 << 15),
        c(0, 0xffff),
        c(5, 0) | 1 << 40,
        c(5, 0) | 1 << 32,
    ] {
        for n in [4, 5, 6] {
            let hand: Vec<i64> = good[..n].iter().copied().chain([bad]).collect();
            let e = hand_rank(&hand, AT).expect_err("a card outside the deck");
            assert!(e.to_string().contains("not a card of the standard deck"), "{bad:#x}: {e}");
        }
    }
    // A card twice, anywhere among seven, or three or four times.
    for at in 0..6 {
        let mut hand = good.clone();
        hand.push(good[at]);
        assert!(hand_rank(&hand, AT).unwrap_err().to_string().contains("a card twice"));
    }
    for times in [3, 4] {
        let hand: Vec<i64> = good[..7 - times].iter().copied().chain(std::iter::repeat_n(c(12, 3), times)).collect();
        assert!(hand_rank(&hand, AT).unwrap_err().to_string().contains("a card twice"), "{hand:?}");
    }
    // The interpreter's values, on the five-card path and the seven-card one.
    let dyns: Vec<Dyn> = [c(12, 0), c(11, 0), c(10, 0), c(9, 0), c(8, 0)].into_iter().map(Dyn::Int).collect();
    assert_eq!(hand_class(hand_rank(&dyns, AT).expect("valid")), class::STRAIGHT_FLUSH);
    let seven: Vec<Dyn> = dyns.iter().cloned().chain([Dyn::Int(c(0, 1)), Dyn::Int(c(0, 2))]).collect();
    assert_eq!(hand_rank(&seven, AT).expect("valid"), hand_rank(&dyns, AT).expect("valid"));
    let bad: Vec<Dyn> = dyns.iter().cloned().chain([Dyn::Int(c(0, 1)), Dyn::Int(c(13, 2))]).collect();
    assert!(hand_rank(&bad, AT).unwrap_err().to_string().contains("not a card of the standard deck"));
}

/// The joint deal keeps exactly the pairs that share no card with each
/// other or the board, weighted by the product of the weights, and counts
/// its items against the step limit before making them.
#[test]
fn hands_are_dealt_jointly_with_card_removal() {
    let h = |a: usize, b: usize, w: i64| (vec![card(a), card(b)], w);
    let first = [h(0, 1, 2), h(2, 3, 1), h(4, 5, 3)];
    let second = [h(1, 6, 5), h(2, 7, 1), h(8, 9, 4)];
    let board = [card(5)];
    let mut left = 100;
    let pairs: Vec<_> = Pairs::new(&first, &second, &board, &mut left, 100, AT).expect("deal").iter().collect();
    assert_eq!(pairs, [(0, 1, 2), (0, 2, 8), (1, 0, 5), (1, 2, 4)]);
    assert_eq!(left, 96);
    let mut few = 3;
    assert!(Pairs::new(&first, &second, &board, &mut few, 3, AT).is_err());
    // A product of weights that overflows fails after the steps are taken,
    // as the list's making met it.
    let (big, two) = ([h(0, 1, i64::MAX)], [h(2, 3, 1), h(4, 6, 2)]);
    let mut left = 100;
    let e = Pairs::new(&big, &two, &[], &mut left, 100, AT).err().expect("an overflow");
    assert!(e.to_string().contains("overflow"), "{e}");
    assert_eq!(left, 98);
}

/// A deal of no pair is an error that says why, in the ranges' terms: an
/// empty range, a range the board blocks, or two ranges that block each
/// other.
#[test]
fn a_deal_of_no_pair_says_why() {
    let h = |a: usize, b: usize| (vec![card(a), card(b)], 1);
    let why = |first: &[(Vec<i64>, i64)], second: &[(Vec<i64>, i64)]| {
        let mut left = 100;
        Pairs::new(first, second, &[card(5)], &mut left, 100, AT).err().expect("no pair").to_string()
    };
    assert!(why(&[], &[h(0, 1)]).contains("first range has no hand"));
    assert!(why(&[h(0, 1)], &[]).contains("second range has no hand"));
    assert!(
        why(&[h(5, 1), h(2, 5)], &[h(0, 1)]).contains("each of its first range's 2 hands shares a card with the board")
    );
    assert!(why(&[h(0, 1)], &[h(4, 5)]).contains("its second range's one hand shares a card with the board"));
    assert!(why(&[h(0, 1)], &[h(1, 2), h(0, 3)]).contains("each hand of its first range shares a card"));
}

/// The evaluator's tables are rs_poker's values re-keyed by the deck's card
/// numbers: on hands of 5, 6 and 7 cards drawn by a fixed sequence (every
/// flush and straight flush of a suit besides), `hand_rank` equals rs_poker's
/// own evaluation, so both order every hand alike.
#[test]
fn hand_rank_agrees_with_rs_poker() {
    let rs = |ids: &[usize]| {
        let mut acc = SevenCardAccum::new();
        ids.iter().for_each(|&i| acc.add(RS_CARDS[i]));
        i64::from(rs_value(acc.rank()))
    };
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for k in 0..300_000 {
        let mut ids: Vec<usize> = Vec::new();
        while ids.len() < 5 + k % 3 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let i = (seed % 52) as usize;
            if !ids.contains(&i) {
                ids.push(i);
            }
        }
        assert_eq!(rank_of(&ids), rs(&ids), "{ids:?}");
    }
    for bits in 0u32..1 << 13 {
        if (5..=7).contains(&bits.count_ones()) {
            let ids: Vec<usize> = (0..13).filter(|r| bits >> r & 1 == 1).map(|r| r * 4 + 2).collect();
            assert_eq!(rank_of(&ids), rs(&ids), "{ids:?}");
        }
    }
}

/// The statics the evaluator reads are the tables the build script made.
#[test]
fn the_statics_are_the_build_scripts_tables() {
    let (rows, lookup, flush) = tables();
    assert!(ROW_OFFSETS[..] == rows[..] && LOOKUP[..] == lookup[..] && FLUSH[..] == flush[..]);
}
