//! The hand evaluator's rate (`hand_rank`, the builtin both executions
//! call) on seven cards, on one core, with its answers checked against
//! the known class counts of all 133,784,560 seven-card hands.
//!
//! ```text
//! cargo bench -p galac-tests --bench hand_rank            # every hand, then 200M random hands, three times
//! ```
//!
//! Without `--bench` (as `cargo test --benches` runs it) it evaluates
//! 100,000 random hands once, as a smoke test, or as many as its first
//! argument says (callgrind's instructions a hand: the difference of two
//! such runs over the difference of their hands). Either way it first
//! reports the cost of the first call (the tables are statics the
//! runtime's build script writes: its first reads of their pages).

use std::hint::black_box;
use std::time::Instant;

use galac_runtime::ops::hand_rank;
use galac_runtime::ops::holdem::hand_class;
use galac_runtime::value::SUIT_BITS;
use galac_tests::cpu_seconds;

/// Seven-card hands per class (none of class 0), high card to straight flush (the standard
/// enumeration, e.g. Wikipedia's "Poker probability", 7-card table).
const SEVEN_CARD_CLASSES: [u64; 10] =
    [0, 23_294_460, 58_627_800, 31_433_400, 6_461_620, 6_180_020, 4_047_644, 3_473_184, 224_848, 41_584];

fn card(i: usize) -> i64 {
    ((i as i64 / 4) << SUIT_BITS) | (i as i64 % 4)
}

const AT: &str = "bench: ";

/// Every seven-card hand once: the class counts and the distinct values.
fn every_hand() {
    let mut counts = [0u64; 10];
    let mut values = std::collections::HashSet::new();
    let mut hand = [0i64; 7];
    let start = Instant::now();
    let mut n = 0u64;
    for a in 0..46 {
        hand[0] = card(a);
        for b in a + 1..47 {
            hand[1] = card(b);
            for c in b + 1..48 {
                hand[2] = card(c);
                for d in c + 1..49 {
                    hand[3] = card(d);
                    for e in d + 1..50 {
                        hand[4] = card(e);
                        for f in e + 1..51 {
                            hand[5] = card(f);
                            for g in f + 1..52 {
                                hand[6] = card(g);
                                let v = hand_rank(&hand, AT).expect("valid");
                                counts[hand_class(v) as usize] += 1;
                                values.insert(v);
                                n += 1;
                            }
                        }
                    }
                }
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    assert_eq!(counts, SEVEN_CARD_CLASSES, "seven-card class counts");
    // The distinct values of seven-card hands: 4,824 classes.
    assert_eq!(values.len(), 4_824, "distinct seven-card values");
    println!("all {n} seven-card hands in {secs:.1} s (with the counting); classes and 4,824 values as expected");
}

/// `n` random seven-card hands (SplitMix64 draws), made beforehand, then
/// evaluated in a timed loop: hands per second of wall time and per CPU
/// second (one core's rate when the machine's other work shares it).
fn random_hands(n: usize) -> (f64, f64) {
    let mut state = 0x853c_49e6_748f_ea9bu64;
    let mut next = move || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    const POOL: usize = 1 << 16;
    let hands: Vec<[i64; 7]> = (0..POOL)
        .map(|_| {
            let mut used = 0u64;
            let mut h = [0i64; 7];
            for slot in &mut h {
                let mut i = (next() % 52) as usize;
                while used >> i & 1 == 1 {
                    i = (next() % 52) as usize;
                }
                used |= 1 << i;
                *slot = card(i);
            }
            h
        })
        .collect();
    let (start, cpu) = (Instant::now(), cpu_seconds());
    let mut sum = 0i64;
    for k in 0..n {
        sum = sum.wrapping_add(hand_rank(black_box(&hands[k % POOL]), AT).expect("valid"));
    }
    black_box(sum);
    let (secs, cpu) = (start.elapsed().as_secs_f64(), cpu_seconds() - cpu);
    (n as f64 / secs, n as f64 / cpu)
}

/// The first call, whose reads of the evaluator's tables are their pages'
/// first (`Tables` in runtime/src/ops/holdem.rs).
fn first_call() {
    let start = Instant::now();
    black_box(hand_rank(&[card(0), card(5), card(10), card(15), card(20), card(25), card(30)], AT).expect("valid"));
    println!("first call: {:.1} ms", start.elapsed().as_secs_f64() * 1e3);
}

fn main() {
    let bench = std::env::args().any(|a| a == "--bench");
    first_call();
    if !bench {
        let n = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(100_000);
        let (rate, _) = random_hands(n);
        println!("hand_rank smoke test: {:.1} M hands/s", rate / 1e6);
        return;
    }
    every_hand();
    for _ in 0..3 {
        let (rate, per_cpu) = random_hands(200_000_000);
        println!("200M random seven-card hands: {:.1} M hands/s, {:.1} M per CPU second", rate / 1e6, per_cpu / 1e6);
    }
}
