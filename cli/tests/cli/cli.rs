//! The command line: exit statuses and messages for valid input, invalid
//! programs and wrong calls.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A galac command whose cache is under cargo's target directory: tests
/// never write to the user's `~/.cache`.
fn galac_at(exe: &std::path::Path) -> Command {
    let mut cmd = Command::new(exe);
    cmd.env("GALAC_CACHE_DIR", std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("galac-cache"));
    cmd
}

fn galac_cmd() -> Command {
    galac_at(std::path::Path::new(env!("CARGO_BIN_EXE_galac")))
}

fn galac(args: &[&str]) -> (i32, String, String) {
    let out = galac_cmd().args(args).output().expect("run galac");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs an executable this process has just written. While the copy was
/// open for writing, another test thread may have forked a child that holds
/// the file until it execs, and running the file fails with ETXTBSY for that
/// moment: so try again then.
fn output_of_fresh_executable(cmd: &mut Command) -> std::process::Output {
    for _ in 0..100 {
        match cmd.output() {
            Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy => {
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            result => return result.expect("run the executable"),
        }
    }
    panic!("the executable stayed busy (ETXTBSY) for 2 s");
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

/// PNG is galac's alone (the renderer would double a solver's build): a
/// compiled solver refuses it clearly and writes nothing.
fn refuses_png(bin: &Path, dir: &Path) {
    let png = dir.join("tree.png");
    let out = Command::new(bin).args(["plot", "tree", "-o", png.to_str().unwrap_or_default()]).output().expect("run");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("SVG only"), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(!png.exists());
}

/// End to end: `galac FILE -o BIN` builds a standalone solver (a nested
/// cargo build in the shared cache) that works without the .gala file.
/// Without `GALAC_SLOW_TESTS=1` galac's side only (the crate it writes, its
/// cache, its report), with a stand-in for cargo in a cache of its own: the
/// nested build took minutes of the test run's CPU (BENCHMARKS.md, "Tests").
#[test]
fn compiles_a_game_into_a_working_solver() {
    let slow = crate::common::slow_tests();
    let kuhn = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/kuhn.gala");
    let dir = std::env::temp_dir().join(format!("galac-build-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let bin = dir.join("kuhn_solver");
    let crate_dir = dir.join("crate");
    // A galac moved away from the source checkout still compiles games.
    let moved = dir.join("galac");
    std::fs::copy(env!("CARGO_BIN_EXE_galac"), &moved).expect("copy galac");
    let (cache, fake) = if slow {
        (std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("galac-cache"), None)
    } else {
        (dir.join("cache"), Some(crate::common::fake_cargo(&dir)))
    };
    // Every galac run below: the cache chosen above, and the stand-in.
    let at_cache = |mut cmd: Command| {
        cmd.env("GALAC_CACHE_DIR", &cache);
        if let Some(fake) = &fake {
            cmd.env("CARGO", fake);
        }
        cmd
    };
    // A crate left by a killed galac (a process id that cannot exist) is
    // removed by the next build.
    let orphan = cache.join("crates").join("kuhn-4194399");
    std::fs::create_dir_all(orphan.join("src")).expect("orphan crate");
    let mut build = at_cache(galac_at(&moved));
    // The test checks what the solver does, not how fast it runs: without
    // optimisation the nested build of the solver's crates takes about half
    // the time (65 s against 113 s for a fresh cache, measured on 2 cores).
    build
        .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "0")
        .args([kuhn.to_str().unwrap_or_default(), "-o", bin.to_str().unwrap_or_default()])
        .args(["--emit-crate", crate_dir.to_str().unwrap_or_default(), "--quiet", "--format", "json"]);
    let out = output_of_fresh_executable(&mut build);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    // `--quiet` says nothing; `--format json` says what was built.
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("build json");
    assert_eq!(report["schema"], "galac.build/1");
    assert_eq!(report["game"], "kuhn");
    assert_eq!(report["binary"].as_str(), bin.to_str());
    assert!(report["seconds"].as_f64().is_some_and(|s| s > 0.0), "{report}");
    // Without `-o` the solver is named after the game, in the current
    // directory (as rustc names its output); cheap now that the cache holds
    // the solver's dependencies.
    let here = dir.join("here");
    std::fs::create_dir_all(&here).expect("temp dir");
    let out = at_cache(galac_cmd())
        .current_dir(&here)
        .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "0")
        .args([kuhn.to_str().unwrap_or_default(), "-q"])
        .output()
        .expect("run galac");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(here.join("kuhn").is_file(), "no `kuhn` in {}", here.display());
    let game_rs = std::fs::read_to_string(crate_dir.join("src/game.rs")).expect("kept crate");
    assert!(!orphan.exists(), "the orphaned crate is still there");
    // A kept crate is never overwritten by the next build.
    let again = at_cache(galac_cmd())
        .args([kuhn.to_str().unwrap_or_default(), "-o", bin.to_str().unwrap_or_default()])
        .args(["--emit-crate", crate_dir.to_str().unwrap_or_default()])
        .output()
        .expect("run galac");
    assert_eq!(again.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&again.stderr).contains("exists and is not empty"));
    assert!(game_rs.starts_with("// @generated by galac"), "{}", &game_rs[..80.min(game_rs.len())]);
    if !slow {
        crate::common::announce(
            "cli::compiles_a_game_into_a_working_solver: built by a stand-in for cargo, the solver not run \
             (GALAC_SLOW_TESTS=1 builds it with cargo and runs it)",
        );
        let _ = std::fs::remove_dir_all(&dir);
        return;
    }
    let out = Command::new(&bin).args(["solve", "--format", "json"]).output().expect("run the solver");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let v = json["value"]["first"].as_f64().unwrap_or(f64::NAN);
    assert!((v + 1.0 / 18.0).abs() < 1e-9, "{v}");
    // `play`, `simulate` and `--version` are in every compiled solver too.
    let out = Command::new(&bin).arg("--version").output().expect("run");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        format!("kuhn compiled by galac {}", env!("CARGO_PKG_VERSION"))
    );
    let out = Command::new(&bin).args(["simulate", "-n", "1000", "--format", "json"]).output().expect("run the solver");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!((json["schema"].as_str(), json["plays"].as_u64()), (Some("galac.simulate/1"), Some(1000)));
    let mut play = Command::new(&bin)
        .args(["play", "--seed", "3", "--against", "uniform"])
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run the solver");
    assert_eq!(play.status.code(), Some(1), "no moves on standard input");
    play.stdout.truncate(200);
    assert!(String::from_utf8_lossy(&play.stdout).contains("first to play; you know: my_card("));
    let out = Command::new(&bin).args(["completions", "bash"]).output().expect("run");
    assert!(String::from_utf8_lossy(&out.stdout).contains("simulate"), "completions name the commands");
    // The commands that use the answer are the compiled solver's too.
    let out = Command::new(&bin).args(["solve", "--exact"]).output().expect("run the solver");
    assert!(String::from_utf8_lossy(&out.stdout).contains("exact value: first -1/18, second 1/18 (certified)"));
    let out = Command::new(&bin).args(["explain", "--player", "second"]).output().expect("run the solver");
    assert!(String::from_utf8_lossy(&out.stdout).contains("beliefs: "), "{}", String::from_utf8_lossy(&out.stderr));
    let out = Command::new(&bin).args(["plot", "tree", "-o", "-"]).output().expect("run the solver");
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("<?xml"), "{}", String::from_utf8_lossy(&out.stderr));
    refuses_png(&bin, &dir);
    // A tree saved by galac's interpreter is read by the compiled solver.
    let saved = dir.join("kuhn.tree");
    let (code, _, err) =
        galac(&["tree", kuhn.to_str().unwrap_or_default(), "--save", saved.to_str().unwrap_or_default()]);
    assert_eq!(code, 0, "{err}");
    let out = Command::new(&bin)
        .args(["solve", "--exact", "--tree", saved.to_str().unwrap_or_default()])
        .output()
        .expect("run");
    assert!(String::from_utf8_lossy(&out.stdout).contains("exact value: first -1/18, second 1/18 (certified)"));
    let out = Command::new(&bin).args(["tree", "--param", "cards=4"]).output().expect("run");
    assert!(String::from_utf8_lossy(&out.stdout).contains("game: kuhn (cards=4)"));
    let out = Command::new(&bin).args(["tree", "--param", "decks=4"]).output().expect("run");
    assert_eq!(out.status.code(), Some(2));
    // A damaged cache is repaired: a deleted manifest and an edited source
    // of the embedded crates are put back before the next build.
    let libs: Vec<PathBuf> = std::fs::read_dir(&cache)
        .map(|d| d.flatten().map(|e| e.path()).filter(|p| p.to_string_lossy().contains("/libs-")).collect())
        .unwrap_or_default();
    // (Under galac's build lock, so that no other test's build sees the damage.)
    let lock = std::fs::File::create(cache.join("build.lock")).ok();
    if let Some(lock) = &lock {
        lock.lock().expect("lock the cache");
        for lib in &libs {
            let _ = std::fs::remove_file(lib.join("runtime/Cargo.toml"));
            let _ = std::fs::write(lib.join("runtime/src/lib.rs"), "compile_error!(\"edited\");");
        }
    }
    drop(lock);
    let rebuilt = at_cache(galac_cmd())
        .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "0")
        .args([kuhn.to_str().unwrap_or_default(), "-o", bin.to_str().unwrap_or_default()])
        .output()
        .expect("run galac");
    assert_eq!(rebuilt.status.code(), Some(0), "{}", String::from_utf8_lossy(&rebuilt.stderr));
    assert!(!libs.is_empty(), "no embedded crates in the cache");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn building_without_cargo_is_a_clear_error() {
    let kuhn = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/kuhn.gala");
    let out = galac_cmd()
        .args([kuhn.to_str().unwrap_or_default(), "-o", "/tmp/never-written"])
        .env("CARGO", "/nonexistent/cargo")
        .output()
        .expect("run galac");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("compiling a game needs a Rust toolchain"), "{err}");
    assert!(!std::path::Path::new("/tmp/never-written").exists());
    // A cargo that fails: the message names no deleted directory and says
    // how to keep the crate.
    let out = galac_cmd()
        .args([kuhn.to_str().unwrap_or_default(), "-o", "/tmp/never-written"])
        .env("CARGO", "false")
        .output()
        .expect("run galac");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("rerun with --emit-crate DIR to keep the crate") && !err.contains("crates/"), "{err}");
}

/// With a `CARGO_HOME` whose registry lacks the solver's crates, galac
/// asks cargo to fetch them; when that fails too (here: no network), the
/// message says what is missing instead of "this is a galac bug" (issue
/// 25, item 13).
#[test]
fn a_registry_without_the_crates_is_named_not_reported_as_a_bug() {
    let kuhn = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/kuhn.gala");
    let home = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("empty-cargo-home");
    std::fs::create_dir_all(&home).expect("cargo home");
    let out_path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("never-built");
    let out = galac_cmd()
        .args([kuhn.to_str().unwrap_or_default(), "-o", out_path.to_str().unwrap_or_default()])
        .env("CARGO_HOME", &home)
        .env("CARGO_NET_OFFLINE", "true")
        .output()
        .expect("run galac");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cargo's local registry lacks crates a solver needs"), "{err}");
    assert!(err.contains("no matching package named") && !err.contains("galac bug"), "{err}");
    assert!(!out_path.exists());
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

/// Two games with one (300-character) name, compiled at the same time into
/// one cache: each binary is its own game (they used to swap), and a name
/// longer than a file name may be compiles. Nested cargo builds: with
/// `GALAC_SLOW_TESTS=1` only.
#[test]
fn same_named_games_built_at_once_keep_their_own_binaries() {
    if !crate::common::slow_tests() {
        crate::common::announce(
            "cli::same_named_games_built_at_once_keep_their_own_binaries: skipped (GALAC_SLOW_TESTS=1 runs it)",
        );
        return;
    }
    let name = "g".repeat(300);
    let small = format!("game {name} {{ players a, b; flow {{ choose a x in bool; outcome [1, -1]; }} }}");
    let large =
        format!("game {name} {{ players a, b; flow {{ choose a x in bool; choose b y in bool; outcome [1, -1]; }} }}");
    let dir = std::env::temp_dir().join(format!("galac-same-name-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let builds: Vec<(PathBuf, std::process::Child)> = [("small", &small), ("large", &large)]
        .into_iter()
        .map(|(which, src)| {
            let file = dir.join(format!("{which}.gala"));
            std::fs::write(&file, src).expect("write game");
            let bin = dir.join(which);
            let child = galac_cmd()
                .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "0")
                .args([file.to_str().unwrap_or_default(), "-o", bin.to_str().unwrap_or_default()])
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("start galac");
            (bin, child)
        })
        .collect();
    for ((bin, child), nodes) in builds.into_iter().zip(["nodes: 3", "nodes: 7"]) {
        let out = child.wait_with_output().expect("galac runs");
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        let out = output_of_fresh_executable(Command::new(&bin).arg("tree"));
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.lines().any(|l| l.starts_with(nodes)), "{} is not its own game:\n{text}", bin.display());
    }
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
