//! Conventions a command-line user expects: completions and a man page,
//! JSON from `check` with places in the file, a `schema` key in every JSON
//! answer, actions in the game's order (not alphabetical), and `-` for
//! standard input and output.

use crate::common::{example, galac, kuhn};

#[test]
fn completions_and_the_man_page_name_every_command() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let (code, out, err) = galac(&["completions", shell], "");
        assert_eq!(code, 0, "{shell}: {err}");
        for command in ["solve", "play", "simulate"] {
            assert!(out.contains(command), "{shell} completions miss {command}");
        }
    }
    let (code, out, _) = galac(&["man"], "");
    assert_eq!(code, 0);
    assert!(out.contains(".TH galac 1"), "{}", &out[..out.len().min(200)]);
    assert!(out.contains("simulate"));
    let (code, _, _) = galac(&["completions", "tcsh"], "");
    assert_eq!(code, 2);
}

#[test]
fn check_reports_diagnostics_as_json_with_lines_and_columns() {
    let bad = "game x {\n    players a;\n    flow { choose a m in 1..=2 } }\n";
    let (code, out, _) = galac(&["check", "-", "--format", "json"], bad);
    assert_eq!(code, 1);
    let json: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(json["schema"], "galac.check/1");
    assert_eq!(json["valid"], false);
    let d = &json["diagnostics"][0];
    assert_eq!(d["severity"], "error");
    // The missing `;` right after `1..=2`: line 3, column 31.
    assert_eq!(d["message"], "missing `;` before `}`");
    assert_eq!((d["place"]["line"].as_u64(), d["place"]["column"].as_u64()), (Some(3), Some(31)), "{d}");
    let (code, out, _) = galac(&["check", &kuhn(), "--format", "json"], "");
    assert_eq!(code, 0);
    let json: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!((json["valid"].as_bool(), json["diagnostics"].as_array().map(Vec::len)), (Some(true), Some(0)));
}

#[test]
fn json_answers_have_a_schema_and_actions_in_the_games_order() {
    let kuhn = kuhn();
    let (code, out, err) = galac(&["tree", &kuhn, "--format", "json"], "");
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with(r#"{"schema":"galac.tree/1","game":"kuhn""#), "{out}");
    // The game file from standard input, the strategy file to standard output.
    let source = std::fs::read_to_string(&kuhn).expect("kuhn.gala");
    let (code, out, err) = galac(&["solve", "-", "--format", "json", "--out", "-"], &source);
    assert_eq!(code, 0, "{err}");
    let mut lines = out.lines();
    let strategy = lines.next().unwrap_or_default();
    let report = lines.next().unwrap_or_default();
    assert_eq!(strategy, report, "--out - writes the same JSON as the report");
    let json: serde_json::Value = serde_json::from_str(strategy).expect("json");
    assert_eq!(json["schema"], "galac.solve/1");
    // `enum Move { Pass, Bet }`: Pass first, as the game declares it.
    let at = |key: &str| strategy.find(key).unwrap_or(usize::MAX);
    let set = at(r#""first: my_card(1)":{"#);
    assert!(set < at(r#""Pass":"#) && at(r#""Pass":"#) < at(r#""Bet":"#), "{strategy}");
    let (code, out, _) = galac(&["export", &kuhn, "--efg", "-"], "");
    assert_eq!(code, 0);
    assert!(out.starts_with("EFG 2 R \"kuhn (cards=3)\""), "{out}");
}

#[test]
fn ir_export_and_play_answer_in_json_with_a_schema() {
    let kuhn = kuhn();
    let (code, out, err) = galac(&["ir", &kuhn, "--format", "json"], "");
    assert_eq!(code, 0, "{err}");
    let ir: serde_json::Value = serde_json::from_str(&out).expect("ir json");
    assert_eq!((ir["schema"].as_str(), ir["game"].as_str()), (Some("galac.ir/1"), Some("kuhn")));
    assert_eq!(ir["players"], serde_json::json!(["first", "second"]));
    // The entry block is listed, and its lines are those `ir` prints.
    let (_, text, _) = galac(&["ir", &kuhn], "");
    let blocks = ir["blocks"].as_array().expect("blocks");
    assert!(blocks.iter().any(|b| b["id"] == ir["entry"]), "{ir}");
    for b in blocks {
        let term = b["term"].as_str().unwrap_or_default();
        assert!(text.contains(&format!("    {term}\n")), "`{term}` is not in the text IR");
    }
    let dir = std::env::temp_dir().join(format!("galac-conventions-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let efg = dir.join("kuhn.efg").display().to_string();
    let (code, out, err) = galac(&["export", &kuhn, "--efg", &efg, "--format", "json"], "");
    assert_eq!(code, 0, "{err}");
    let export: serde_json::Value = serde_json::from_str(&out).expect("export json");
    assert_eq!(export["schema"], "galac.export/1");
    // Kuhn's tree: 58 nodes, 12 information sets (Gambit's count too).
    assert_eq!((export["nodes"].as_u64(), export["infosets"].as_u64()), (Some(58), Some(12)), "{export}");
    assert_eq!(export["files"], serde_json::json!([{"kind": "efg", "path": efg}]));
    assert!(std::fs::read_to_string(&efg).is_ok_and(|t| t.starts_with("EFG 2 R")));
    let _ = std::fs::remove_dir_all(&dir);
    // JSON on standard output leaves no room for the EFG there.
    let (code, _, err) = galac(&["export", &kuhn, "--efg", "-", "--format", "json"], "");
    assert_eq!(code, 2, "{err}");
    // `play --format json`: one record per game on standard output, the
    // conversation on standard error.
    let (code, out, err) =
        galac(&["play", &kuhn, "--against", "uniform", "--seed", "7", "--games", "2", "--format", "json"], "2\n2\n");
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("first to play; you know: my_card("), "{err}");
    let games: Vec<serde_json::Value> = out.lines().map(|l| serde_json::from_str(l).expect("play json")).collect();
    assert_eq!(games.len(), 2, "{out}");
    for (i, g) in games.iter().enumerate() {
        assert_eq!((g["schema"].as_str(), g["game"].as_u64()), (Some("galac.play/1"), Some(i as u64 + 1)));
        assert_eq!((g["seed"].as_u64(), g["seat"].as_str()), (Some(7), Some("first")));
        let play: Vec<&str> = g["play"].as_array().expect("play").iter().filter_map(|m| m.as_str()).collect();
        assert_eq!(play.get(2), Some(&"first Bet"), "{g}");
        // Zero-sum: the two payoffs cancel, and betting risks 1 or 2.
        let (a, b) = (g["payoffs"]["first"].as_i64().unwrap_or(0), g["payoffs"]["second"].as_i64().unwrap_or(0));
        assert_eq!(a + b, 0, "{g}");
        assert!([1, 2].contains(&a.abs()), "{g}");
    }
}

/// Off a terminal, a long step writes a plain progress line now and then
/// (here every time it draws: `GALAC_PROGRESS_EVERY=0`), and a tree
/// estimated large is announced before its build, with its size against
/// `--max-nodes` and the faster ways.
#[test]
fn long_steps_are_announced_and_show_progress_off_a_terminal() {
    let leduc = crate::common::example("leduc.gala");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_galac"))
        .args(["tree", &leduc, "--param", "ranks=5", "--threads", "1"])
        .env("GALAC_PROGRESS_EVERY", "0")
        .output()
        .expect("run galac");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.lines().any(|l| l.contains(" nodes (") && l.contains("/s")), "no progress line: {err}");
    assert!(!err.contains('\r') && !err.contains('\u{1b}'), "terminal codes off a terminal: {err:?}");
    let blind = crate::common::example("blind_tictactoe.gala");
    let (code, _, err) = galac(&["tree", &blind, "--max-nodes", "1000"], "");
    assert_eq!(code, 1);
    let note = err.lines().next().unwrap_or_default();
    assert!(note.starts_with("note: the tree is estimated at about "), "{err}");
    assert!(note.contains("more than --max-nodes (1000)") && note.contains("--solver do"), "{note}");
    assert!(note.contains("galac FILE.gala -o SOLVER"), "{note}");
    // The double oracle's warm start builds the whole tree too: announced
    // as any build, with the way that needs none of it.
    let args =
        ["solve", &leduc, "--param", "ranks=1000", "--solver", "do", "--warm-start-cfr", "10", "--max-nodes", "1000"];
    let (code, _, err) = galac(&args, "");
    assert_eq!(code, 1, "{err}");
    let note = err.lines().next().unwrap_or_default();
    assert!(note.starts_with("note: the tree is estimated at about "), "{err}");
    assert!(note.contains("more than --max-nodes (1000)") && note.contains("without --warm-start-cfr"), "{note}");
    assert!(err.contains("hint: raise the limit with --max-nodes"), "{err}");
}

/// `ir` ends with the public-course proof: the turn's hands are private
/// and steer only the payoff, a showdown; a game that branches on a dealt card after
/// a move is not proved, at the branch.
#[test]
fn ir_says_whether_private_values_steer_the_course() {
    let (code, out, err) = galac(&["ir", &example("holdem_turn.gala"), "--format", "json"], "");
    assert_eq!(code, 0, "{err}");
    let ir: serde_json::Value = serde_json::from_str(&out).expect("ir json");
    let public = &ir["public"];
    assert_eq!(public["proved"], true, "{public}");
    assert_eq!(public["private"], serde_json::json!(["s2", "s3", "s4"]), "{public}");
    assert_eq!(public["removal"].as_array().map(Vec::len), Some(1), "{public}");
    // Its payoff compares the two hands' ranks: a showdown, named in words too.
    assert!(public["strengths"].as_array().is_some_and(|pair| pair.len() == 2), "{public}");
    let detail = public["detail"].as_str().unwrap_or_default();
    assert!(detail.ends_with("the payoff is a showdown of `a` (oop) against `b` (ip)"), "{detail}");
    let steered = "game g {\n  players a, b;\n  flow {\n    choose nature c in 0..3;\n    reveal a card(c);\n    \
                   choose a x in [0, 1];\n    reveal b moved(x);\n    if c > 1 { choose b y in [0, 1]; reveal a moved(y); }\n    \
                   outcome [x, -x];\n  }\n}\n";
    let (code, out, err) = galac(&["ir", "-"], steered);
    assert_eq!(code, 0, "{err}");
    let last = out.lines().last().unwrap_or_default();
    assert!(last.starts_with("public course: not proved: "), "{last}");
    assert!(
        last.ends_with(
            ":8:8: which way the play goes here depends on the private value `c` (dealt by chance and not \
                        shown to every player)"
        ),
        "{last}"
    );
}
