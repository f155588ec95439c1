//! `simulate`'s sampling against values computed on the tree by
//! `best_response::evaluate`: the equilibrium of Kuhn poker against itself
//! gives the known game value, -1/18, within its 95% interval; a best
//! response against a fixed strategy gives that best response's value; a
//! seed gives the same totals on any number of threads.

use galac_app::strategies::{Resolver, Source};
use galac_runtime::ids::PlayerId;
use galac_runtime::tree::{build, BuildOptions, Tree};
use galac_solvers::best_response::evaluate;
use galac_solvers::sample::Sampler;
use galac_solvers::Profile;

use crate::games::load_interp;

fn kuhn() -> Tree {
    let game = load_interp("kuhn.gala", &[]).unwrap_or_else(|e| panic!("{e}"));
    build(&game, &BuildOptions { labels: true, ..BuildOptions::default() }).unwrap_or_else(|e| panic!("{e}")).0
}

/// A fixed, non-equilibrium strategy of `second`: bet with any card
/// after a pass, call a bet only with the highest card.
fn aggressive_second(tree: &Tree) -> Profile {
    let mut profile = Profile::uniform(tree);
    for set in tree.infosets.keys() {
        if tree.infosets[set].player != PlayerId(1) {
            continue;
        }
        let label = tree.infoset_label(set);
        let bet = label.contains("moved(Pass)") || label.contains("my_card(3)");
        profile.probs_mut(set).copy_from_slice(if bet { &[0.0, 1.0] } else { &[1.0, 0.0] });
    }
    profile
}

#[test]
fn the_equilibrium_against_itself_gives_the_game_value() {
    let tree = kuhn();
    let info = galac_runtime::game::GameInfo {
        name: "kuhn".into(),
        players: vec!["first".into(), "second".into()],
        params: vec![("cards".into(), "3".into())],
        program: 0,
    };
    let labels = galac_app::report::unique_labels(&tree);
    let profile = Resolver::new(&tree, &info, &labels)
        .combine(&[Source::Solved, Source::Solved])
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(evaluate(&tree, &profile).nash_conv < 1e-6, "the solved profile is not an equilibrium");
    let totals = Sampler::new(&tree, &profile).run(1, 1_000_000, 2, &|_| {});
    let (mean, half) = totals.mean_and_half_width(0);
    assert!((mean - (-1.0 / 18.0)).abs() <= half, "mean {mean} ± {half} misses -1/18");
    assert!(half < 0.005, "interval too wide: {half}");
    // Zero-sum: the second player's mean is the opposite.
    assert_eq!(totals.sum[1], -totals.sum[0]);
}

#[test]
fn a_best_response_against_a_fixed_strategy_earns_its_value() {
    let tree = kuhn();
    let fixed = aggressive_second(&tree);
    let br = galac_solvers::best_response::best_response(&tree, &fixed, PlayerId(0));
    let profile = br.apply_to(&fixed);
    let value = evaluate(&tree, &fixed).best_response[0];
    assert!((br.value - value).abs() < 1e-12);
    // The best response exploits this strategy: it earns more than the game value.
    assert!(value > 0.1, "{value}");
    let totals = Sampler::new(&tree, &profile).run(5, 1_000_000, 2, &|_| {});
    let (mean, half) = totals.mean_and_half_width(0);
    assert!((mean - value).abs() <= half, "mean {mean} ± {half} misses the best response's value {value}");
}

#[test]
fn a_seed_gives_the_same_totals_on_any_number_of_threads() {
    let tree = kuhn();
    let sampler = Sampler::new(&tree, &Profile::uniform(&tree));
    // Not a multiple of the chunk size: the last chunk is partial.
    let one = sampler.run(9, 100_003, 1, &|_| {});
    assert_eq!(one.plays, 100_003);
    for threads in [2, 3, 8] {
        assert_eq!(sampler.run(9, 100_003, threads, &|_| {}), one, "{threads} threads");
    }
    assert_ne!(sampler.run(10, 100_003, 1, &|_| {}), one, "another seed, the same plays");
}

/// Payoffs near i64's bounds: their squares overflow a machine word, yet
/// the interval is that of the spread (the two outcomes are 2 apart, so
/// the standard deviation is 1) and the same on any number of threads.
#[test]
fn the_interval_is_right_for_payoffs_near_the_integer_bounds() {
    let source = "game big { players a, b; flow { choose nature c in 0..=1; if c == 0 { \
        outcome [9000000000000000000, -9000000000000000000]; } else { \
        outcome [8999999999999999998, -8999999999999999998]; } } }";
    let game = galac_compiler::driver::load_interp("big.gala", source.as_bytes(), &[]).unwrap();
    let tree = build(&game, &BuildOptions::default()).unwrap().0;
    let profile = Profile::uniform(&tree);
    let sampler = Sampler::new(&tree, &profile);
    let plays = 200_000;
    let totals = sampler.run(7, plays, 2, &|_| {});
    assert_eq!(totals, sampler.run(7, plays, 1, &|_| {}));
    for p in 0..2 {
        let (mean, half) = totals.mean_and_half_width(p);
        assert!((mean.abs() - 9e18).abs() < 1e4, "{mean}");
        let expected = 1.96 / (plays as f64).sqrt();
        assert!((half / expected - 1.0).abs() < 0.01, "{half} {expected}");
    }
}
