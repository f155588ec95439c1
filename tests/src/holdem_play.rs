//! `play` on the public game (what a spot whose tree is too large to build,
//! a turn, is played on), on cut-down river spots: the deal against the
//! weights enumerated here, card removal, and every payoff against the
//! winner worked out by hand.

use galac_app::play::PlayArgs;
use galac_app::play_public::{run_with, Played};

use crate::games::load_interp;

/// Plays `games` games of the river spot with `params`, every move of the
/// person(s) being the first action (a check, or a fold facing a bet).
fn play(params: &[&str], against: &str, games: u32) -> Vec<Played> {
    let game = load_interp("holdem_river.gala", params).unwrap_or_else(|e| panic!("{e}"));
    let mut args: PlayArgs = galac_app::defaults();
    args.against = against.to_string();
    args.games = games;
    args.seed = Some(7);
    args.limits.quiet = true;
    args.format = galac_app::Format::Json;
    let moves = "1\n".repeat(4 * games as usize);
    let mut played = Vec::new();
    let status = run_with(&game, &args, &mut moves.as_bytes(), true, &mut played);
    assert_eq!(status, 0);
    assert_eq!(played.len(), games as usize);
    played
}

/// The cards of a hand (`AsAh`) or of a trail's deal (`chance oop AsAh`), sorted.
fn cards(text: &str) -> Vec<String> {
    let hand = text.rsplit(' ').next().unwrap_or(text);
    let mut cards: Vec<String> = (0..hand.len() / 2).map(|k| hand[2 * k..2 * k + 2].to_string()).collect();
    cards.sort();
    cards
}

/// OOP holds 5-4 against aces and always checks or folds: whatever IP
/// plays (uniformly), OOP loses the half pot it has in, by a check-down or
/// a fold, and both happen over the games.
#[test]
fn a_player_who_checks_or_folds_a_lost_hand_loses_the_half_pot() {
    let played = play(&["oop_range=5s4s", "ip_range=AsAh"], "uniform", 24);
    for p in &played {
        assert_eq!(p.payoffs, [-100, 100], "{:?}", p.trail);
        assert_eq!(cards(&p.trail[0]), ["4s", "5s"], "{:?}", p.trail);
        assert_eq!(cards(&p.trail[1]), ["Ah", "As"], "{:?}", p.trail);
    }
    let folded = played.iter().filter(|p| p.trail.last().is_some_and(|m| m.ends_with("Fold"))).count();
    assert!(folded > 0 && folded < played.len(), "{folded} of {} folded", played.len());
}

/// With every seat checking, each game is a showdown: the pairs come as
/// often as their weights say among those that share no card with each
/// other or the board (Td9d6hQc2s: QcQh is dead, AsAh never meets AhKd),
/// and each pays the half pot to the winner worked out by hand (7s8h makes
/// the straight; KK beats AK; 9s8s a pair of nines beats ace high).
#[test]
fn the_public_game_deals_by_the_weights_and_pays_the_showdowns() {
    let oop = [("AsAh", 1.0), ("KsKh", 0.5), ("QcQh", 1.0), ("9s8s", 1.0)];
    let ip = [("AhKd", 0.25), ("JsJh", 1.0), ("7s8h", 1.0)];
    // OOP's payoff per pair; None: never dealt.
    let winner = |o: &str, i: &str| match (o, i) {
        ("QcQh", _) | ("AsAh", "AhKd") => None,
        (_, "7s8h") => Some(-100),
        ("9s8s", "JsJh") => Some(-100),
        _ => Some(100),
    };
    let games = 3000;
    let played = play(&["oop_range=AsAh,KsKh:0.5,QcQh,9s8s", "ip_range=AhKd:0.25,JsJh,7s8h"], "human", games);
    let total: f64 =
        oop.iter().flat_map(|(o, a)| ip.iter().filter(|(i, _)| winner(o, i).is_some()).map(move |(_, b)| a * b)).sum();
    let mut seen = 0;
    for (o, a) in oop {
        for (i, b) in ip {
            let key = (cards(o), cards(i));
            let these: Vec<&Played> =
                played.iter().filter(|p| (cards(&p.trail[0]), cards(&p.trail[1])) == key).collect();
            seen += these.len();
            let Some(pays) = winner(o, i) else {
                assert!(these.is_empty(), "{o} with {i} was dealt");
                continue;
            };
            let share = these.len() as f64 / f64::from(games);
            let want = a * b / total;
            assert!((share - want).abs() < 0.03, "{o} with {i}: {share} of the games, {want} expected");
            for p in these {
                assert_eq!(p.payoffs, [pays, -pays], "{:?}", p.trail);
                assert_eq!(p.trail[2..], ["oop Check", "ip Check"], "{:?}", p.trail);
            }
        }
    }
    assert_eq!(seen, games as usize);
}

/// `plot hands` without the tree (the turn's way) draws the chart the
/// tree's way draws on a cut-down river: vector CFR's default run on the
/// same public game gives the same strategy, and the values from the
/// vector walk are the scalar tree's (each cell's tip: its frequencies to
/// three places, its action values to two).
#[test]
fn the_hands_chart_without_the_tree_is_the_trees() {
    let params = ["oop_range=AA,KQs,KQo,T9s,22,AsKs,76", "ip_range=JJ,A5s"];
    let game = load_interp("holdem_river.gala", &params).unwrap_or_else(|e| panic!("{e}"));
    let select: galac_app::explain::Selection = galac_app::defaults();
    let mut limits: galac_app::LimitArgs = galac_app::defaults();
    limits.quiet = true;
    let style = galac_app::cards::CardStyle { symbols: false, ..select.cards.style(true) };
    let opts = galac_runtime::tree::BuildOptions { labels: true, ..Default::default() };
    let tree = galac_runtime::tree::build(&game, &opts).unwrap_or_else(|e| panic!("{e}")).0;
    let on_tree =
        galac_app::plot::charts::hands(galac_runtime::game::Game::info(&game), &tree, &select, &limits, &style)
            .expect("a chart");
    let without = galac_app::plot::charts::hands_without_tree(&game, &select, &limits).expect("a chart");
    let tips = |svg: &str| -> Vec<String> {
        svg.split("<title>").skip(2).map(|t| t.split('<').next().unwrap_or("").to_string()).collect()
    };
    let (a, b) = (tips(&on_tree), tips(&without));
    assert!(a.iter().any(|t| t.contains("value")), "{a:?}");
    assert_eq!(a, b);
}

/// A strategy file written by `solve --out` on the public game is played
/// back by `play`: IP's 5-4 against aces, both hands known, never bets
/// into a sure call in the solved answer (uniform play would bet three
/// times in four), so every game checks down to OOP's half pot.
#[test]
fn a_strategy_file_of_the_public_game_is_played_back() {
    let params = ["oop_range=AsAh", "ip_range=5s4s"];
    let game = load_interp("holdem_river.gala", &params).unwrap_or_else(|e| panic!("{e}"));
    let file = std::env::temp_dir().join(format!("galac_public_strategy_{}.json", std::process::id()));
    let mut cfr: galac_app::registry::cfr::CfrArgs = galac_app::defaults();
    cfr.iterations = Some(200);
    let stop = galac_app::registry::harness::StopArgs::default();
    let mut limits: galac_app::LimitArgs = galac_app::defaults();
    limits.quiet = true;
    let req = galac_app::registry::vcfr::GameRequest {
        cfr: &cfr,
        stop: &stop,
        variant: galac_solvers::vector::POSTFLOP_DCFR,
        limits: &limits,
        format: galac_app::Format::Text,
        out: Some(&file),
        why: None,
    };
    assert_eq!(galac_app::registry::vcfr::run_game(&game, &req), 0);
    let file = file.to_str().expect("a UTF-8 path").to_string();
    let played = play(&params, &file, 20);
    for p in &played {
        assert_eq!(p.trail[2..], ["oop Check", "ip Check"], "{:?}", p.trail);
        assert_eq!(p.payoffs, [100, -100]);
    }
    let uniform = play(&params, "uniform", 20);
    assert!(uniform.iter().any(|p| p.trail[3] != "ip Check"), "uniform play bets some time");
    let _ = std::fs::remove_file(&file);
}
