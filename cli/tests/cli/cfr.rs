//! `galac solve --solver cfr|cfr+|dcfr|lcfr|pcfr+` end to end: the stop
//! rules, the curve in the JSON answer and in its own file (a hand game's
//! from its tree, not its rules), checkpoints that
//! resume exactly, the three-player note, vector CFR's `--compress`, and
//! wrong calls.

use std::process::Command;

fn galac(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_galac"))
        .env("GALAC_CACHE_DIR", std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("galac-cache"))
        .args(args)
        .output()
        .expect("run galac");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn example(name: &str) -> String {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples").join(name).to_string_lossy().into_owned()
}

fn json(args: &[&str]) -> serde_json::Value {
    let (code, out, err) = galac(args);
    assert_eq!(code, 0, "{err}");
    assert!(err.is_empty(), "a short run off a terminal writes no progress line: {err}");
    serde_json::from_str(&out).expect("json")
}

#[test]
fn the_curve_is_in_the_answer_and_in_its_file() {
    let kuhn = example("kuhn.gala");
    let dir = std::env::temp_dir().join(format!("galac-cfr-curve-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let curve_file = dir.join("curve.csv");
    let curve_path = curve_file.to_string_lossy().into_owned();
    let args = ["solve", &kuhn, "--solver", "cfr+", "--iterations", "500", "--check-every", "50", "--format", "json"];
    let answer = json(&[&args[..], &["--curve", &curve_path]].concat());
    let curve = answer["curve"].as_array().expect("a curve");
    assert_eq!(curve.len(), 10);
    assert_eq!(curve[9]["iteration"], 500);
    // The last point is the answer, whose exploitability is evaluated apart.
    assert_eq!(curve[9]["nash_conv"], answer["exploitability"]);
    let first = curve[0]["nash_conv"].as_f64().unwrap_or(0.0);
    assert!(answer["exploitability"].as_f64().unwrap_or(1.0) < first / 10.0);
    let per_player = curve[9]["exploitability"].as_array().expect("per player");
    let sum: f64 = per_player.iter().filter_map(|x| x.as_f64()).sum();
    assert!((sum - curve[9]["nash_conv"].as_f64().unwrap_or(f64::NAN)).abs() < 1e-12);
    let csv = std::fs::read_to_string(&curve_file).expect("curve file");
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 11, "{csv}");
    assert!(lines[0].starts_with("iteration,seconds,exploitability_first,exploitability_second,nash_conv"));
    assert!(lines[10].starts_with("500,"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_target_and_the_time_limit_stop_the_run() {
    let kuhn = example("kuhn.gala");
    let answer = json(&[
        "solve",
        &kuhn,
        "--solver",
        "pcfr+",
        "--target-exploitability",
        "1e-3",
        "--check-every",
        "5",
        "--format",
        "json",
    ]);
    assert!(answer["exploitability"].as_f64().unwrap_or(1.0) <= 1e-3);
    let solver = answer["solver"].as_str().unwrap_or_default();
    assert!(solver.contains("stopped"), "{solver}");
    let leduc = example("leduc.gala");
    let start = std::time::Instant::now();
    let answer = json(&["solve", &leduc, "--solver", "dcfr", "--time-limit", "0.5", "--format", "json"]);
    assert!(start.elapsed().as_secs_f64() < 30.0);
    assert!(answer["solver"].as_str().unwrap_or_default().contains("stopped"));
}

/// N iterations, a checkpoint, M more from it: the strategy of N + M
/// iterations in one run, exactly.
#[test]
fn a_resumed_run_continues_exactly() {
    let leduc = example("leduc.gala");
    let dir = std::env::temp_dir().join(format!("galac-cfr-ckpt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let ckpt = dir.join("run.ckpt").to_string_lossy().into_owned();
    let base = ["solve", &leduc, "--solver", "cfr+", "--format", "json", "--check-every", "1000"];
    let whole = json(&[&base[..], &["--iterations", "60"]].concat());
    json(&[&base[..], &["--iterations", "25", "--checkpoint", &ckpt]].concat());
    let resumed = json(&[&base[..], &["--iterations", "60", "--resume", &ckpt]].concat());
    assert_eq!(whole["strategy"], resumed["strategy"]);
    assert_eq!(whole["exploitability"], resumed["exploitability"]);
    // Another solver cannot resume it.
    let (code, _, err) = galac(&["solve", &leduc, "--solver", "dcfr", "--resume", &ckpt]);
    assert_eq!(code, 1);
    assert!(err.contains("checkpoint was written by cfr+"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn three_players_get_nash_conv_and_a_note_and_wrong_calls_are_refused() {
    let nim = example("nim222.gala");
    let (code, out, err) = galac(&["solve", &nim, "--solver", "cfr", "--iterations", "100"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("exploitability (NashConv)") && out.contains("an e-equilibrium, but equilibria are not unique"),
        "{out}"
    );
    let kuhn = example("kuhn.gala");
    for bad in [&["--iterations", "0"][..], &["--time-limit", "-1"], &["--target-exploitability", "nan"]] {
        let (code, _, err) = galac(&[&["solve", &kuhn, "--solver", "cfr+"][..], bad].concat());
        assert_eq!(code, 2, "{bad:?}: {err}");
        assert!(err.starts_with("error: ") && !err.contains("panicked"), "{err}");
    }
}

/// Without the `mpi` feature `--distributed` is refused with a message
/// saying how to get it (the runs under mpirun: `mpi.rs`).
#[cfg(not(feature = "mpi"))]
#[test]
fn distributed_needs_the_mpi_feature() {
    let kuhn = example("kuhn.gala");
    let (code, out, err) = galac(&["solve", &kuhn, "--solver", "cfr+", "--distributed"]);
    assert_eq!((code, out.as_str()), (1, ""), "{err}");
    assert!(err.contains("`--distributed` needs a galac built with the `mpi` feature"), "{err}");
    // Other solvers do not read it.
    let (code, _, err) = galac(&["solve", &kuhn, "--solver", "lp", "--distributed"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--distributed"), "{err}");
}

/// A hand game solved on its rules writes its JSON answer as it is
/// serialised, a set per public decision and hand, once to `--out` and
/// once to standard output: the same bytes both times, one line, each set
/// labelled with cards as cards and its probabilities summing to 1, and
/// OOP's first decision there for every hand its grid lists, with the
/// grid's frequencies (the grid is made apart, from the average strategy).
#[test]
fn a_hand_games_answer_on_its_rules_is_written_as_it_is_serialised() {
    let river = example("holdem_river.gala");
    let dir = std::env::temp_dir().join(format!("galac-cfr-streamed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("answer.json").to_string_lossy().into_owned();
    let args = [
        "solve",
        &river,
        "--solver",
        "vcfr",
        "--iterations",
        "10",
        "--format",
        "json",
        "--out",
        &file,
        "--param",
        "oop_range=AA,KK,QQ,JJ,TT,AKs,AQs,KQs,ATs,AJs",
        "--param",
        "ip_range=99,88,77,AJs,KJs,QJs,JTs,A5s,A4s",
    ];
    let (code, out, err) = galac(&args);
    assert_eq!(code, 0, "{err}");
    let written = std::fs::read_to_string(&file).expect("--out written");
    assert!(written == out, "--out and standard output differ");
    assert_eq!(out.lines().count(), 1);
    let json: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert!(json["solver"].as_str().unwrap_or("").ends_with("on the public game without the tree"), "{json}");
    let strategy = json["strategy"].as_object().expect("strategy");
    for (label, probs) in strategy {
        assert!(!label.contains("card("), "{label}");
        let sum: f64 = probs.as_object().expect("probs").values().filter_map(serde_json::Value::as_f64).sum();
        assert!((sum - 1.0).abs() < 1e-6, "{label}: {probs}");
    }
    let oop = json["hands"].as_array().and_then(|g| g.iter().find(|g| g["player"] == "oop")).expect("oop's grid");
    let hands = oop["hands"].as_array().expect("hands");
    assert!(hands.len() > 10 && strategy.len() > hands.len(), "{} sets, {} hands", strategy.len(), hands.len());
    for hand in hands {
        let name = hand["hand"].as_str().expect("hand");
        let label = format!("oop: hand([{}, {}])", &name[..2], &name[2..]);
        let probs = strategy.get(&label).unwrap_or_else(|| panic!("no set `{label}`"));
        for (action, f) in
            oop["actions"].as_array().expect("actions").iter().zip(hand["frequencies"].as_array().expect("f"))
        {
            let (action, f) = (action.as_str().expect("action"), f.as_f64().expect("frequency"));
            assert!((probs[action].as_f64().expect("prob") - f).abs() < 1e-9, "{label} {action}: {probs} vs {hand}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A river spot of about 93,000 nodes goes to vector CFR on its rules by
/// default; asked for `--curve`, which is written on the built tree, it
/// builds its tree instead and the answer has the curve (it was refused
/// as too large to build when the rules path was first the default).
#[test]
fn the_curve_of_a_hand_game_solved_on_its_rules_comes_from_its_tree() {
    let river = example("holdem_river.gala");
    let spot = [
        "--param",
        "oop_range=AA,KK,QQ,JJ,TT,AKs,AQs,KQs,ATs,AJs",
        "--param",
        "ip_range=99,88,77,AJs,KJs,QJs,JTs,A5s,A4s",
    ];
    let args = [&["solve", &river, "--iterations", "10", "--check-every", "5", "--format", "json"][..], &spot].concat();
    let rules = json(&args);
    assert!(rules["solver"].as_str().unwrap_or("").ends_with("on the public game without the tree"), "{rules}");
    let dir = std::env::temp_dir().join(format!("galac-cfr-hand-curve-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let curve_path = dir.join("curve.csv").to_string_lossy().into_owned();
    let tree = json(&[&args[..], &["--curve", &curve_path]].concat());
    assert!(!tree["solver"].as_str().unwrap_or("").contains("without the tree"), "{tree}");
    assert_eq!(tree["curve"].as_array().map(Vec::len), Some(2), "{tree}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--compress` keeps vector CFR's regrets and sums in 16 bits an entry:
/// on Leduc (on its tree) the answer, named so, reaches the target by
/// solve's check and the game's value (-0.0856064, the LP's) within it;
/// a river spot solved on its rules by the default's choice takes it too;
/// a solver that keeps no such arrays refuses it, named or chosen.
#[test]
fn compress_runs_vector_cfr_in_16_bits_and_is_refused_elsewhere() {
    let leduc = example("leduc.gala");
    let args =
        ["solve", &leduc, "--solver", "vcfr", "--compress", "--target-exploitability", "0.005", "--format", "json"];
    let answer = json(&args);
    assert!(answer["solver"].as_str().unwrap_or("").contains("compressed to 16 bits"), "{answer}");
    let exploitability = answer["exploitability"].as_f64().unwrap_or(f64::NAN);
    assert!(exploitability <= 0.005, "{answer}");
    let value = answer["value"]["first"].as_f64().unwrap_or(f64::NAN);
    assert!((value + 0.0856064).abs() <= 0.005, "{answer}");
    let river = example("holdem_river.gala");
    let spot = [
        "--param",
        "oop_range=AA,KK,QQ,JJ,TT,AKs,AQs,KQs,ATs,AJs",
        "--param",
        "ip_range=99,88,77,AJs,KJs,QJs,JTs,A5s,A4s",
    ];
    let args = [&["solve", &river, "--compress", "--iterations", "20", "--format", "json"][..], &spot].concat();
    let answer = json(&args);
    let solver = answer["solver"].as_str().unwrap_or("");
    assert!(solver.contains("compressed to 16 bits") && solver.ends_with("without the tree"), "{answer}");
    assert!(answer["exploitability"].as_f64().is_some_and(f64::is_finite), "{answer}");
    let kuhn = example("kuhn.gala");
    let (code, _, err) = galac(&["solve", &kuhn, "--solver", "cfr+", "--compress"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("`--compress` is read by vcfr and vcfr+, not by `--solver cfr+`"), "{err}");
    let (code, _, err) = galac(&["solve", &kuhn, "--compress"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("`--compress` is read by vcfr and vcfr+, not by the solver chosen for this game"), "{err}");
}

/// A range written `@path` is read from that file (as a range exported by
/// another tool): the same answer as the range given inline; a bad item
/// in the file is located by line, and a missing file is named, each with
/// exit 2.
#[test]
fn ranges_are_read_from_files() {
    let river = example("holdem_river.gala");
    let dir = std::env::temp_dir().join(format!("galac-range-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (oop, ip, bad) = (dir.join("oop.txt"), dir.join("ip.txt"), dir.join("bad.txt"));
    std::fs::write(&oop, "AA,KK,QQ,JJ,TT,\nAKs,AQs,KQs,ATs,AJs\n").expect("written");
    std::fs::write(&ip, "99,88,77,AJs,KJs,QJs,JTs,A5s,A4s").expect("written");
    std::fs::write(&bad, "99,88,\n77,AJx").expect("written");
    let solve = ["solve", &river, "--iterations", "10", "--format", "json"];
    let inline = [
        "--param",
        "oop_range=AA,KK,QQ,JJ,TT,AKs,AQs,KQs,ATs,AJs",
        "--param",
        "ip_range=99,88,77,AJs,KJs,QJs,JTs,A5s,A4s",
    ];
    let (oop_arg, ip_arg) = (format!("oop_range=@{}", oop.display()), format!("ip_range=@{}", ip.display()));
    let files = ["--param", &oop_arg, "--param", &ip_arg];
    let (a, b) = (json(&[&solve[..], &inline].concat()), json(&[&solve[..], &files].concat()));
    assert_eq!(a["strategy"], b["strategy"]);
    assert_eq!(a["params"], b["params"]);
    let bad_arg = format!("ip_range=@{}", bad.display());
    let (code, _, err) = galac(&[&solve[..], &["--param", &bad_arg]].concat());
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("`AJx` is not a range item") && err.contains("(at line 2, character 4 of the value)"),
        "{err}"
    );
    let missing = format!("ip_range=@{}", dir.join("none.txt").display());
    let (code, _, err) = galac(&[&solve[..], &["--param", &missing]].concat());
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("none.txt`: no such file"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Ranges that leave no deal (an empty one, one the board blocks) are a
/// located error in the ranges' terms, exit 1, not a chance with nothing
/// to choose.
#[test]
fn ranges_that_deal_nothing_say_why() {
    let river = example("holdem_river.gala");
    for (param, why) in [
        ("oop_range=", "its first range has no hand"),
        ("ip_range=2s2h,2s3s", "each of its second range's 2 hands shares a card with the board"),
    ] {
        let (code, _, err) = galac(&["solve", &river, "--param", param, "--iterations", "10"]);
        assert_eq!(code, 1, "{param}: {err}");
        assert!(
            err.contains("holdem_river.gala:141:38: deal_hands deals no pair of hands: ") && err.contains(why),
            "{err}"
        );
    }
}

/// On the turn, the answer lists no hand at a public line whose river
/// card it holds (the deal never gives it there), and lists the others:
/// the cut-down turn's strategy, set by set.
#[test]
fn the_turns_answer_lists_no_hand_the_river_card_blocks() {
    let turn = example("holdem_turn.gala");
    let args = [
        "solve",
        &turn,
        "--param",
        "oop_range=AsAh,9s8s",
        "--param",
        "ip_range=JsJh,7s8h",
        "--solver",
        "vcfr",
        "--iterations",
        "20",
        "--format",
        "json",
    ];
    let answer = json(&args);
    let strategy = answer["strategy"].as_object().expect("a strategy by set");
    let card = |t: &str| t.len() == 2 && "23456789TJQKA".contains(&t[..1]) && "shdc".contains(&t[1..]);
    let (mut river_lines, mut blocked) = (0, Vec::new());
    for key in strategy.keys() {
        // `oop: hand([As, Ah]), moved(Check), Check Check 2d Check`
        let (hand, line) = key.split_once("])").expect("a hand, then its line");
        let hand: Vec<&str> = hand.split(|c: char| !c.is_ascii_alphanumeric()).filter(|t| card(t)).collect();
        let board: Vec<&str> = line.split(|c: char| !c.is_ascii_alphanumeric()).filter(|t| card(t)).collect();
        assert_eq!(hand.len(), 2, "{key}");
        river_lines += usize::from(!board.is_empty());
        if board.iter().any(|c| hand.contains(c)) {
            blocked.push(key.clone());
        }
    }
    assert!(river_lines > 0, "{answer}");
    assert!(blocked.is_empty(), "{} sets hold their river card, e.g. {:?}", blocked.len(), blocked.first());
}
