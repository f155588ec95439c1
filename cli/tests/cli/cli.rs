//! The command line: exit statuses and messages for valid input, invalid
//! programs and wrong calls.

use std::path::PathBuf;
use std::process::Command;

/// A galac command whose cache is under cargo's target directory: tests
/// never write to the user's `~/.cache`.
pub(crate) fn galac_at(exe: &std::path::Path) -> Command {
    let mut cmd = Command::new(exe);
    cmd.env("GALAC_CACHE_DIR", std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("galac-cache"));
    cmd
}

pub(crate) fn galac_cmd() -> Command {
    galac_at(std::path::Path::new(env!("CARGO_BIN_EXE_galac")))
}

pub(crate) fn galac(args: &[&str]) -> (i32, String, String) {
    let out = galac_cmd().args(args).output().expect("run galac");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn temp_file(name: &str, contents: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("galac-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, contents).expect("write temp file");
    path
}

/// A source is refused when compiling it could pass the memory limit (at
/// `MAX_BYTES_PER_SOURCE_BYTE` a byte): exit 2, the sizes and the flag
/// named; the same file compiles under a limit that covers it (issue 52.10).
#[test]
fn a_source_too_large_for_the_memory_limit_is_refused() {
    let padded = format!("{VALID}{}", " ".repeat(8 << 10));
    let file = temp_file("padded.gala", padded.as_bytes());
    let file = file.to_str().expect("utf-8 path");
    let (code, _, err) = galac(&["tree", file, "--max-memory", "1"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("compiling it may need up to 3 MiB") && err.contains("(1 MiB, --max-memory)"), "{err}");
    let (code, _, err) = galac(&["tree", file, "--max-memory", "64"]);
    assert_eq!(code, 0, "{err}");
}

const VALID: &str = "game coin {
    players alice, bob;
    param stake: int = 1;
    flow {
        choose nature h in bool;
        reveal all landed(h);
        if h { outcome [stake, -stake]; } else { outcome [-stake, stake]; }
    }
}
";

#[test]
fn check_valid_game_prints_summary_and_exits_0() {
    let path = temp_file("coin.gala", VALID.as_bytes());
    let (code, out, err) = galac(&["check", path.to_str().unwrap_or_default()]);
    assert_eq!(code, 0, "stderr: {err}");
    assert_eq!(out.trim(), "coin: ok; 2 players (alice, bob); 1 param (stake=1); 1 flow (main)");
}

#[test]
fn param_override_shows_in_summary() {
    let path = temp_file("coin2.gala", VALID.as_bytes());
    let (code, out, _) = galac(&["check", path.to_str().unwrap_or_default(), "--param", "stake=5"]);
    assert_eq!(code, 0);
    assert!(out.contains("stake=5"), "{out}");
}

#[test]
fn invalid_program_exits_1_with_located_message() {
    let path = temp_file("bad.gala", b"game g {\n    players a, b;\n    flow { outcome [1, x]; }\n}\n");
    let (code, out, err) = galac(&["check", "--color", "never", path.to_str().unwrap_or_default()]);
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert!(err.contains("error: unknown name `x`"), "{err}");
    assert!(err.contains("bad.gala:3:24"), "{err}");
}

#[test]
fn wrong_calls_exit_2() {
    let valid = temp_file("coin3.gala", VALID.as_bytes());
    let valid = valid.to_str().unwrap_or_default();
    let cases: &[(&[&str], &str)] = &[
        (&["check", "/nonexistent/game.gala"], "cannot read `/nonexistent/game.gala`: no such file"),
        (&["check", "/tmp"], "is a directory"),
        (&["check", valid, "--param", "stakes=2"], "has no param `stakes`; its params are: stake"),
        (&["check", valid, "--param", "stake=lots"], "`stake` is an int"),
        (&["check", valid, "--param", "stake"], "expected `name=value`"),
        (&["check", valid, "--frobnicate"], "unexpected argument '--frobnicate'"),
        (&["tree", valid, "--repeat", "0"], "0 is not in 1.."),
        (&["chekc", valid], "unrecognized subcommand 'chekc'"),
        (&[], "Usage"),
    ];
    for (args, want) in cases {
        let (code, _, err) = galac(args);
        assert_eq!(code, 2, "galac {args:?}: {err}");
        assert!(err.contains(want), "galac {args:?}: expected `{want}` in {err}");
    }
}

#[test]
fn tree_repeat_reports_the_fastest_of_its_builds() {
    let path = temp_file("coin4.gala", VALID.as_bytes());
    let path = path.to_str().unwrap_or_default();
    let (code, out, err) = galac(&["tree", path, "--repeat", "3", "--format", "json"]);
    assert_eq!(code, 0, "stderr: {err}");
    let json: serde_json::Value = serde_json::from_str(&out).expect("json");
    let builds: Vec<f64> =
        json["build_seconds"].as_array().expect("build_seconds").iter().filter_map(|b| b.as_f64()).collect();
    assert_eq!(builds.len(), 3, "{out}");
    assert_eq!(json["seconds"].as_f64(), builds.iter().copied().reduce(f64::min), "{out}");
    assert_eq!(json["nodes"], 3, "{out}");
    let (code, out, _) = galac(&["tree", path, "--repeat", "2"]);
    assert_eq!(code, 0);
    assert!(out.contains("builds: 2 in this process; generation is the fastest (first "), "{out}");
    // One build (the default) reports just that build.
    let (_, out, _) = galac(&["tree", path]);
    assert!(out.contains("generation: ") && !out.contains("builds:"), "{out}");
}

/// A game whose root is a decision (its set the parts' placeholder), in
/// several blocks of nodes: saved on two threads (each part through a
/// scratch file, no scratch file left behind) it is the file saved on one.
#[test]
fn a_tree_saved_on_two_threads_is_the_one_saved_on_one() {
    let game = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/blind_tictactoe.gala");
    let game = game.to_str().unwrap_or_default();
    let dir = std::env::temp_dir().join(format!("galac-two-threads-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let saved = |threads: &str| {
        let file = dir.join(format!("t{threads}.tree"));
        let args =
            ["tree", game, "--param", "line=2", "--threads", threads, "--save", file.to_str().unwrap_or_default()];
        let (code, out, err) = galac(&args);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("nodes: 197619 "), "{out}");
        std::fs::read(file).expect("saved")
    };
    let (one, two) = (saved("1"), saved("2"));
    assert!(one == two, "the files differ");
    let left: Vec<_> = std::fs::read_dir(&dir).expect("dir").flatten().map(|e| e.file_name()).collect();
    assert_eq!(left.len(), 2, "{left:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `tree --save` then `--tree`: the same answer and export as a build;
/// a damaged file or one of other params is an error, not a panic.
#[test]
fn a_saved_tree_is_read_instead_of_built() {
    let leduc = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/leduc.gala");
    let leduc = leduc.to_str().unwrap_or_default();
    let file = temp_file("leduc.tree", b"");
    let file = file.to_str().unwrap_or_default();
    assert_eq!(galac(&["tree", leduc, "--save", file]).0, 0);
    // Saved as it is built on one thread, after it on two, or read then
    // saved again: the same bytes, and the report of a plain build.
    let figures = |s: &str| {
        let kept = |l: &&str| !["generation:", "memory:"].iter().any(|p| l.starts_with(p));
        s.lines().filter(kept).collect::<Vec<_>>().join("\n")
    };
    let plain = galac(&["tree", leduc]).1;
    for how in [&["--threads", "1"][..], &["--threads", "2"], &["--tree", file]] {
        let again = temp_file("again.tree", b"");
        let (code, report, err) =
            galac(&[&["tree", leduc, "--save", again.to_str().unwrap_or_default()], how].concat());
        assert_eq!(code, 0, "{err}");
        assert_eq!(figures(&report), figures(&plain), "{how:?}");
        assert!(std::fs::read(&again).ok() == std::fs::read(file).ok(), "{how:?}");
    }
    let without_time = |s: &str| s.lines().filter(|l| !l.starts_with("time:")).collect::<Vec<_>>().join("\n");
    let (code, built, _) = galac(&["solve", leduc]);
    let (code_read, read, err) = galac(&["solve", leduc, "--tree", file]);
    assert_eq!((code, code_read), (0, 0), "{err}");
    assert_eq!(without_time(&built), without_time(&read));
    assert!(read.contains("value: first -0.0856"), "{read}");
    let (efg_built, efg_read) = (temp_file("built.efg", b""), temp_file("read.efg", b""));
    assert_eq!(galac(&["export", leduc, "--efg", efg_built.to_str().unwrap_or_default()]).0, 0);
    assert_eq!(galac(&["export", leduc, "--tree", file, "--efg", efg_read.to_str().unwrap_or_default()]).0, 0);
    assert_eq!(std::fs::read(efg_built).ok(), std::fs::read(efg_read).ok());
    let (code, _, err) = galac(&["solve", leduc, "--param", "ranks=4", "--tree", file]);
    assert_eq!(code, 1);
    assert!(err.contains("is of leduc (ranks=3, suits=2, max_raises=2), not of leduc (ranks=4"), "{err}");
    let mut bytes = std::fs::read(file).expect("saved");
    bytes[1000] ^= 1;
    let damaged = temp_file("damaged.tree", &bytes);
    let (code, _, err) = galac(&["export", leduc, "--tree", damaged.to_str().unwrap_or_default(), "--efg", "-"]);
    assert_eq!(code, 1);
    assert!(err.contains("checksum does not match"), "{err}");
    let (code, _, err) = galac(&["solve", leduc, "--tree", "/nonexistent/leduc.tree"]);
    assert_eq!(code, 1);
    assert!(err.contains("cannot read the tree in `/nonexistent/leduc.tree`"), "{err}");
    // The limits apply to a tree read as to one built (Leduc: 9,457 nodes).
    let (code, _, err) = galac(&["solve", leduc, "--tree", file, "--max-nodes", "9000"]);
    assert_eq!(code, 1);
    assert!(err.contains("more than 9000 nodes") && err.contains("hint: raise the limit with --max-nodes"), "{err}");
    // No limit can be below the source's own need (52.10): `--max-memory 0`
    // refuses the game before its tree is read; the tree read's own limit
    // is checked in `tests/src/saved.rs` (Leduc's tree is under 1 MiB).
    let (code, _, err) = galac(&["tree", leduc, "--tree", file, "--max-memory", "0"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("compiling it may need up to") && err.contains("--max-memory"), "{err}");
    // A build's memory counts its interner (more than the tree); a tree read holds only itself.
    let held = |extra: &[&str]| {
        let (code, out, err) = galac(&[&["tree", leduc, "--format", "json"], extra].concat());
        assert_eq!(code, 0, "{err}");
        let json: serde_json::Value = serde_json::from_str(&out).expect("json");
        (json["bytes"].as_u64().unwrap_or(0), json["build_bytes"].as_u64())
    };
    // (The saved file has labels: the tree read is larger than the one built.)
    let ((built, held_built), (_, held_read)) = (held(&[]), held(&["--tree", file]));
    assert!(built > 0 && held_built > Some(built) && held_read == Some(0), "{built} {held_built:?} {held_read:?}");
    let (_, out, _) = galac(&["tree", leduc]);
    assert!(
        out.contains(&format!("; the build held {} bytes with the information-set interner", held_built.unwrap_or(0)))
    );
}

#[test]
fn help_names_the_commands() {
    let (code, out, _) = galac(&["--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("check"), "{out}");
    let (code, out, _) = galac(&["check", "--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("--param"), "{out}");
}

#[test]
fn hostile_files_give_errors_not_panics() {
    let cases: &[(&str, &[u8], &str)] = &[
        ("empty.gala", b"", "unexpected end of file"),
        ("latin1.gala", b"game g { players a\xe9; }", "not valid UTF-8"),
        ("nul.gala", b"game \0 g {}", "unexpected character"),
    ];
    for (name, bytes, want) in cases {
        let path = temp_file(name, bytes);
        let (code, _, err) = galac(&["check", "--color", "never", path.to_str().unwrap_or_default()]);
        assert_eq!(code, 1, "{name}: {err}");
        assert!(err.contains(want), "{name}: expected `{want}` in {err}");
        assert!(!err.contains("panicked"), "{name}: {err}");
    }
}

/// `solve --out` writes a profile that `solve --strategy` evaluates: the
/// solved one has exploitability ~0; a changed one is exploitable.
#[test]
fn strategy_files_round_trip_and_are_evaluated() {
    let kuhn = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/kuhn.gala");
    let kuhn = kuhn.to_str().unwrap_or_default();
    let dir = std::env::temp_dir().join(format!("galac-strategy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let out = dir.join("kuhn.json");
    let (code, _, err) = galac(&["solve", kuhn, "--out", out.to_str().unwrap_or_default()]);
    assert_eq!(code, 0, "{err}");
    let (code, stdout, err) =
        galac(&["solve", kuhn, "--strategy", out.to_str().unwrap_or_default(), "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&stdout).expect("json");
    assert!(json["exploitability"].as_f64().unwrap_or(1.0).abs() < 1e-9, "{stdout}");
    assert!((json["value"]["first"].as_f64().unwrap_or(0.0) + 1.0 / 18.0).abs() < 1e-9);

    // Always bet with the lowest card: exploitable.
    let mut profile: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).expect("read")).expect("json");
    profile["strategy"]["first: my_card(1)"] = serde_json::json!({ "Pass": 0.0, "Bet": 1.0 });
    let changed = dir.join("changed.json");
    std::fs::write(&changed, profile.to_string()).expect("write");
    let (code, stdout, _) =
        galac(&["solve", kuhn, "--strategy", changed.to_str().unwrap_or_default(), "--format", "json"]);
    assert_eq!(code, 0);
    let json: serde_json::Value = serde_json::from_str(&stdout).expect("json");
    assert!(json["exploitability"].as_f64().unwrap_or(0.0) > 0.01, "{stdout}");

    // Probabilities that do not sum to 1 are refused.
    profile["strategy"]["first: my_card(1)"] = serde_json::json!({ "Pass": 0.5, "Bet": 0.2 });
    std::fs::write(&changed, profile.to_string()).expect("write");
    let (code, _, err) = galac(&["solve", kuhn, "--strategy", changed.to_str().unwrap_or_default()]);
    assert_eq!(code, 1);
    assert!(err.contains("sum to 0.7"), "{err}");

    // A file for other params, another game, unknown sets or actions, or a
    // missing set is refused, naming the first mismatch (issue 25, item 11).
    let solved: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&out).expect("read")).expect("json");
    let refused = |edit: &dyn Fn(&mut serde_json::Value), extra: &[&str], wanted: &str| {
        let mut p = solved.clone();
        edit(&mut p);
        std::fs::write(&changed, p.to_string()).expect("write");
        let mut args = vec!["solve", kuhn, "--strategy", changed.to_str().unwrap_or_default()];
        args.extend_from_slice(extra);
        let (code, _, err) = galac(&args);
        assert_eq!(code, 1, "{wanted}: {err}");
        assert!(err.contains(wanted), "wanted {wanted:?} in {err}");
    };
    refused(
        &|p| p["params"]["cards"] = serde_json::json!(4),
        &[],
        "was made with param cards=4, and this game has cards=3",
    );
    refused(&|p| p["game"] = serde_json::json!("leduc"), &[], "is a strategy for the game \"leduc\", not `kuhn`");
    refused(
        &|p| p["program"] = serde_json::json!("0123456789abcdef"),
        &[],
        "was made for another version of `kuhn`: the rules of the program differ",
    );
    refused(
        &|p| p["strategy"]["first: my_card(9)"] = serde_json::json!({ "Pass": 1.0, "Bet": 0.0 }),
        &[],
        "\"first: my_card(9)\", which is not an information set of this game",
    );
    refused(
        &|p| p["strategy"]["first: my_card(1)"]["Raise"] = serde_json::json!(0.5),
        &[],
        "names action \"Raise\", which is not one of \"Pass\", \"Bet\"",
    );
    let drop_set = |p: &mut serde_json::Value| {
        p["strategy"].as_object_mut().map(|s| s.remove("first: my_card(1)"));
    };
    refused(&drop_set, &[], "has no strategy for the information set \"first: my_card(1)\"");
    // ... unless a partial profile is asked for: then it is filled, and said.
    let mut partial = solved.clone();
    drop_set(&mut partial);
    std::fs::write(&changed, partial.to_string()).expect("write");
    let (code, stdout, err) =
        galac(&["solve", kuhn, "--strategy", changed.to_str().unwrap_or_default(), "--partial-strategy"]);
    assert_eq!(code, 0, "{err}");
    assert!(stdout.contains("1 of 12 information sets not in the file: uniform play there"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Inputs are read with a bound (`/dev/zero` used to fill the memory), and
/// a param given twice is refused rather than one of its values dropped.
#[test]
fn endless_inputs_and_repeated_params_are_errors() {
    let kuhn = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/kuhn.gala");
    let kuhn = kuhn.to_str().unwrap_or_default();
    let (code, _, err) = galac(&["check", "/dev/zero"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("`/dev/zero` is larger than 64 MiB"), "{err}");
    let (code, _, err) = galac(&["solve", kuhn, "--strategy", "/dev/zero"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("`/dev/zero` is larger than 1024 MiB"), "{err}");
    let (code, _, err) = galac(&["tree", kuhn, "--param", "cards=3", "--param", "cards=4"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("param override `cards=4`: `cards` is set twice"), "{err}");
}
