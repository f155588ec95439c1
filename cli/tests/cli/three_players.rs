//! The five commands that use a game's solution (`solve`, `explain`, `plot
//! strategy`, `play`, `simulate`) on a three-player game of imperfect
//! information (`tests/games/kuhn3.gala`), each with the default solver
//! (CFR+, through the solver registry's one default): all answer.

use crate::common::{galac, test_game};

/// (command, arguments, standard input, what a good answer contains)
fn cases(game: &str) -> Vec<(&'static str, Vec<String>, &'static str, Vec<&'static str>)> {
    let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    vec![
        (
            "solve",
            args(&["solve", game]),
            "",
            vec!["game: kuhn3 (cards=4)", "solver: cfr+", "strategy of third:", "an e-equilibrium"],
        ),
        ("explain", args(&["explain", game]), "", vec!["== first", "== second", "== third", "beliefs: "]),
        (
            "plot strategy",
            args(&["plot", game, "strategy", "--player", "third", "-o", "-"]),
            "",
            vec!["<svg", "strategy of third"],
        ),
        (
            "play",
            args(&["play", game, "--seed", "5", "--games", "2"]),
            // Pass whenever asked: at most two decisions of `first` a game.
            "Pass\nPass\nPass\nPass\n",
            vec!["first to play; you know: my_card(", "payoffs: first ", "total over 2 games: first "],
        ),
        (
            "simulate",
            args(&["simulate", game, "-n", "2000", "--seed", "5"]),
            "",
            vec!["simulate: 2000 plays of kuhn3, seed 5", "solved by: cfr+", "third   solved: mean "],
        ),
    ]
}

#[test]
fn the_commands_on_a_solution_answer_for_three_players_with_imperfect_information() {
    let game = test_game("kuhn3.gala");
    let mut failing = Vec::new();
    for (name, args, input, wanted) in cases(&game) {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, out, err) = galac(&args, input);
        assert!(!err.contains("panicked"), "{name}: {err}");
        if code != 0 {
            failing.push(name);
            assert!(err.starts_with("error: "), "{name} fails with a message: {err}");
            continue;
        }
        for w in wanted {
            assert!(out.contains(w), "{name}: `{w}` not in\n{out}");
        }
    }
    assert!(failing.is_empty(), "failing on a three-player game of imperfect information: {failing:?}");
}
