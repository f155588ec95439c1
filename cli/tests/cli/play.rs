//! `galac play` and `galac simulate` as a user runs them: a scripted Kuhn
//! session against the solved strategy, checked line by line (and each
//! game's payoffs against Kuhn's rules, computed here), bad input, and
//! `simulate`'s JSON answer.

use crate::common::{example, galac, kuhn};

/// Kuhn's payoff to `first` for a play "chance c, chance d, first m, ...".
fn kuhn_payoff(play: &str) -> i64 {
    let parts: Vec<&str> = play.split(", ").collect();
    let card = |i: usize| parts[i].trim_start_matches("chance ").parse::<i64>().expect("a card");
    let (c, d) = (card(0), card(1));
    let moves: Vec<&str> = parts[2..].iter().map(|m| m.split(' ').nth(1).expect("player move")).collect();
    let showdown = |stake: i64| if c > d { stake } else { -stake };
    match moves[..] {
        ["Pass", "Pass"] => showdown(1),
        ["Pass", "Bet", "Pass"] => -1,
        ["Pass", "Bet", "Bet"] | ["Bet", "Bet"] => showdown(2),
        ["Bet", "Pass"] => 1,
        _ => panic!("not a Kuhn play: {play}"),
    }
}

#[test]
fn a_scripted_kuhn_session_against_the_solved_strategy() {
    let kuhn = kuhn();
    let args = ["play", &kuhn, "--seed", "3", "--games", "4"];
    let (code, out, err) = galac(&args, "Bet\nPass\nbet\n1\n");
    assert_eq!(code, 0, "{err}");
    // `second`'s equilibrium strategy in Kuhn poker is unique, so the
    // session does not depend on which equilibrium the LP returns.
    let expected = "\
kuhn (cards=3): you play first; the others play solved (lp (clarabel)); seed 3
Choose an action by its label or its number (`quit` stops).

game 1 of 4
first to play; you know: my_card(3)
  1 Pass
  2 Bet
> Bet
the play: chance 3, chance 1, first Bet, second Pass
payoffs: first 1, second -1

game 2 of 4
first to play; you know: my_card(2)
  1 Pass
  2 Bet
> Pass
the play: chance 2, chance 1, first Pass, second Pass
payoffs: first 1, second -1

game 3 of 4
first to play; you know: my_card(3)
  1 Pass
  2 Bet
> bet
the play: chance 3, chance 1, first Bet, second Pass
payoffs: first 1, second -1

game 4 of 4
first to play; you know: my_card(3)
  1 Pass
  2 Bet
> 1
the play: chance 3, chance 1, first Pass, second Pass
payoffs: first 1, second -1

total over 4 games: first 4, second -4; you (first) +4, +1.00 a game
";
    for (i, (got, want)) in out.lines().zip(expected.lines()).enumerate() {
        assert_eq!(got, want, "line {}", i + 1);
    }
    assert_eq!(out.lines().count(), expected.lines().count(), "{out}");
    // Each game's payoffs are Kuhn's for the play shown.
    let plays: Vec<&str> = out.lines().filter_map(|l| l.strip_prefix("the play: ")).collect();
    let payoffs: Vec<&str> = out.lines().filter_map(|l| l.strip_prefix("payoffs: first ")).collect();
    assert_eq!(plays.len(), 4);
    for (play, pay) in plays.iter().zip(&payoffs) {
        let first: i64 = pay.split(',').next().and_then(|x| x.parse().ok()).expect("a payoff");
        assert_eq!(first, kuhn_payoff(play), "{play}");
    }
}

#[test]
fn the_second_seat_sees_the_first_move_and_a_wrong_move_is_an_error() {
    let kuhn = kuhn();
    let (code, out, _) = galac(&["play", &kuhn, "--seat", "2", "--seed", "3", "--against", "uniform"], "");
    assert_eq!(code, 1);
    let facts = out.lines().find(|l| l.starts_with("second to play; you know: ")).expect("a prompt");
    assert!(facts.contains("my_card(") && facts.contains("moved("), "{facts}");
    assert!(!facts.contains("first"), "{facts}: the other seat's card is hidden");
    let (code, _, err) = galac(&["play", &kuhn, "--seed", "3"], "Raise\n");
    assert_eq!(code, 1);
    assert!(err.contains("`Raise` is not an action here: 1 Pass, 2 Bet"), "{err}");
    let (code, _, err) = galac(&["play", &kuhn, "--seed", "3"], "quit\n");
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = galac(&["play", &kuhn, "--seat", "third"], "");
    assert_eq!(code, 2);
    assert!(err.contains("not a seat of this game: first, second"), "{err}");
}

#[test]
fn a_leduc_hand_shows_cards_as_cards_and_what_is_new_at_each_decision() {
    let leduc = example("leduc.gala");
    let args = ["play", &leduc, "--seed", "5", "--against", "uniform", "--ascii", "--ranks", "JQK"];
    // `2` is Raise or Call at every decision of Leduc: always legal.
    let (code, out, err) = galac(&args, &"2\n".repeat(8));
    assert_eq!(code, 0, "{err}");
    let prompts: Vec<&str> = out.lines().filter(|l| l.starts_with("first to play; ")).collect();
    let first = prompts[0].strip_prefix("first to play; you know: private_card(").expect(prompts[0]);
    let card = first.strip_suffix(')').expect(first);
    assert!(card.len() == 2 && "JQK".contains(&card[..1]) && "shdc".contains(&card[1..]), "{card}");
    // The card shown is the first one dealt, and no label is left as `card(r, s)`.
    let play = out.lines().find_map(|l| l.strip_prefix("the play: ")).expect("the play");
    assert!(play.starts_with(&format!("chance {card}, chance ")), "{play}");
    assert!((0..3).all(|r| !out.contains(&format!("card({r}, "))), "{out}");
    for later in &prompts[1..] {
        assert!(later.starts_with("first to play; new since your last move: "), "{later}");
        assert!(!later.contains("chose "), "{later}: your own move is no news");
    }
    assert!(prompts.len() >= 2, "{out}");
}

/// A hold'em river hand plays to the end from a fixed seed: `1` is Check
/// or Fold, always legal; the hand dealt and the board read as cards.
#[test]
fn a_holdem_river_hand_plays_to_the_end_with_cards_as_cards() {
    let river = example("holdem_river.gala");
    let args = ["play", &river, "--seed", "7", "--param", "oop_range=AA,KQs", "--param", "ip_range=JJ,A5s", "--ascii"];
    let (code, out, err) = galac(&args, &"1\n".repeat(4));
    assert_eq!(code, 0, "{err}");
    let first = out.lines().find(|l| l.starts_with("oop to play; ")).expect(&out);
    let hand = first.strip_prefix("oop to play; you know: hand([").expect(first);
    assert!(hand.len() == 8 && (hand.starts_with('A') || hand.starts_with('K')), "{first}");
    assert!(out.lines().any(|l| l.starts_with("the play: ")), "{out}");
    assert!(!out.contains("card("), "{out}");
}

#[test]
fn simulate_reports_the_game_value_within_its_interval_whatever_the_threads() {
    let kuhn = kuhn();
    let run = |threads: &str| {
        let args = ["simulate", &kuhn, "-n", "300000", "--seed", "4", "--threads", threads, "--format", "json"];
        let (code, out, err) = galac(&args, "");
        assert_eq!(code, 0, "{err}");
        serde_json::from_str::<serde_json::Value>(&out).expect("json")
    };
    let one = run("1");
    assert_eq!(one["schema"], "galac.simulate/1");
    let first = &one["players"][0];
    assert_eq!(first["player"], "first");
    let (lo, hi) = (first["ci95"][0].as_f64().unwrap_or(f64::NAN), first["ci95"][1].as_f64().unwrap_or(f64::NAN));
    assert!(lo <= -1.0 / 18.0 && -1.0 / 18.0 <= hi, "[{lo}, {hi}] misses -1/18");
    let two = run("2");
    assert_eq!(one["players"], two["players"], "the threads changed the answer");
    let (code, _, err) = galac(&["simulate", &kuhn, "-s", "uniform", "-s", "solved", "-s", "uniform"], "");
    assert_eq!(code, 2);
    assert!(err.contains("3 strategies for 2 seats"), "{err}");
}

/// The turn's tree (about 10^9 nodes) is not built: `simulate` and `plot
/// tree` say at once where the game is solved and played instead, and
/// `play` against a best response, or `explain` of a strategy file, say
/// what they can do, before any work.
#[test]
fn a_spot_too_large_for_its_tree_is_refused_at_once_by_what_reads_the_tree() {
    let turn = example("holdem_turn.gala");
    let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("turn_tree.svg");
    let out = out.to_str().expect("utf-8 path");
    for (command, args) in [("simulate", vec!["simulate", &turn]), ("plot", vec!["plot", &turn, "tree", "-o", out])] {
        let (code, _, err) = galac(&args, "");
        assert_eq!(code, 2, "{command}: {err}");
        assert!(err.contains(&format!("`{command}` reads the game's tree")), "{err}");
        assert!(err.contains("`solve` solves this game on its public game"), "{err}");
    }
    let (code, _, err) = galac(&["explain", &turn, "--strategy", "turn.json"], "");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("a strategy file is matched to the tree's information sets"), "{err}");
    let (code, _, err) = galac(&["play", &turn, "--against", "br:uniform"], "");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("a best response is computed on the tree"), "{err}");
}
