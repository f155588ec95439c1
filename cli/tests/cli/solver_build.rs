//! `galac FILE -o BIN`: the solver crate galac writes, its cache, its
//! report, and (with `GALAC_SLOW_TESTS=1`) the nested cargo build and the
//! solver it makes, end to end.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::cli::{galac, galac_at, galac_cmd};

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

/// PNG is galac's alone (the renderer would double a solver's build): a
/// compiled solver refuses it clearly and writes nothing.
fn refuses_png(bin: &Path, dir: &Path) {
    let png = dir.join("tree.png");
    let out = Command::new(bin).args(["plot", "tree", "-o", png.to_str().unwrap_or_default()]).output().expect("run");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("SVG only"), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(!png.exists());
}

/// A solver compiled outside galac's checkout (whose `.cargo/config.toml`
/// names the set-up's HiGHS) and without `GALAC_HIGHS_LIB` in the shell
/// still has the HiGHS galac loads baked in: galac gives its path to cargo.
#[cfg(unix)]
#[test]
fn a_compiled_solver_loads_the_highs_galac_loads() {
    let Some(galacs) = option_env!("GALAC_HIGHS_LIB") else {
        crate::common::announce(
            "solver_build::a_compiled_solver_loads_the_highs_galac_loads: galac was built without a HiGHS path",
        );
        return;
    };
    let kuhn = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/kuhn.gala");
    let dir = std::env::temp_dir().join(format!("galac-highs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let out = galac_cmd()
        .current_dir(&dir)
        .env("GALAC_CACHE_DIR", dir.join("cache"))
        .env("CARGO", crate::common::fake_cargo(&dir))
        .env_remove("GALAC_HIGHS_LIB")
        .args([kuhn.to_str().unwrap_or_default(), "-q"])
        .output()
        .expect("run galac");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let given = std::fs::read_to_string(dir.join("cache/target/highs-lib")).expect("the stand-in's record");
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(Path::new(&given), std::path::absolute(galacs).expect("absolute"));
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
            "solver_build::compiles_a_game_into_a_working_solver: built by a stand-in for cargo, the solver not run \
             (GALAC_SLOW_TESTS=1 builds it with cargo and runs it)",
        );
        let _ = std::fs::remove_dir_all(&dir);
        return;
    }
    the_built_solver_works(&kuhn, &bin, &cache);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The slow half of `compiles_a_game_into_a_working_solver`: the solver
/// cargo built at `bin` (from the shared `cache`) runs every command, and
/// a damaged cache is repaired by the next build.
fn the_built_solver_works(kuhn: &Path, bin: &Path, cache: &Path) {
    let dir = bin.parent().expect("the solver's directory");
    let out = Command::new(bin).args(["solve", "--format", "json"]).output().expect("run the solver");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let v = json["value"]["first"].as_f64().unwrap_or(f64::NAN);
    assert!((v + 1.0 / 18.0).abs() < 1e-9, "{v}");
    // `play`, `simulate` and `--version` are in every compiled solver too.
    let out = Command::new(bin).arg("--version").output().expect("run");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        format!("kuhn compiled by galac {}", env!("CARGO_PKG_VERSION"))
    );
    let out = Command::new(bin).args(["simulate", "-n", "1000", "--format", "json"]).output().expect("run the solver");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!((json["schema"].as_str(), json["plays"].as_u64()), (Some("galac.simulate/1"), Some(1000)));
    let mut play = Command::new(bin)
        .args(["play", "--seed", "3", "--against", "uniform"])
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run the solver");
    assert_eq!(play.status.code(), Some(1), "no moves on standard input");
    play.stdout.truncate(200);
    assert!(String::from_utf8_lossy(&play.stdout).contains("first to play; you know: my_card("));
    let out = Command::new(bin).args(["completions", "bash"]).output().expect("run");
    assert!(String::from_utf8_lossy(&out.stdout).contains("simulate"), "completions name the commands");
    // The commands that use the answer are the compiled solver's too.
    let out = Command::new(bin).args(["solve", "--exact"]).output().expect("run the solver");
    assert!(String::from_utf8_lossy(&out.stdout).contains("exact value: first -1/18, second 1/18 (certified)"));
    let out = Command::new(bin).args(["explain", "--player", "second"]).output().expect("run the solver");
    assert!(String::from_utf8_lossy(&out.stdout).contains("beliefs: "), "{}", String::from_utf8_lossy(&out.stderr));
    let out = Command::new(bin).args(["plot", "tree", "-o", "-"]).output().expect("run the solver");
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("<?xml"), "{}", String::from_utf8_lossy(&out.stderr));
    refuses_png(bin, dir);
    // A tree saved by galac's interpreter is read by the compiled solver.
    let saved = dir.join("kuhn.tree");
    let (code, _, err) =
        galac(&["tree", kuhn.to_str().unwrap_or_default(), "--save", saved.to_str().unwrap_or_default()]);
    assert_eq!(code, 0, "{err}");
    let out = Command::new(bin)
        .args(["solve", "--exact", "--tree", saved.to_str().unwrap_or_default()])
        .output()
        .expect("run");
    assert!(String::from_utf8_lossy(&out.stdout).contains("exact value: first -1/18, second 1/18 (certified)"));
    let out = Command::new(bin).args(["tree", "--param", "cards=4"]).output().expect("run");
    assert!(String::from_utf8_lossy(&out.stdout).contains("game: kuhn (cards=4)"));
    let out = Command::new(bin).args(["tree", "--param", "decks=4"]).output().expect("run");
    assert_eq!(out.status.code(), Some(2));
    // A value written `@path` is read from the file, as galac reads it.
    let cards = dir.join("cards.txt");
    std::fs::write(&cards, "4\n").expect("write the param's file");
    let at = format!("cards=@{}", cards.display());
    let out = Command::new(bin).args(["tree", "--param", &at]).output().expect("run");
    assert!(String::from_utf8_lossy(&out.stdout).contains("game: kuhn (cards=4)"));
    let at = format!("cards=@{}", dir.join("none.txt").display());
    let out = Command::new(bin).args(["tree", "--param", &at]).output().expect("run");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("none.txt`: no such file"));
    // A damaged cache is repaired: a deleted manifest and an edited source
    // of the embedded crates are put back before the next build.
    let libs: Vec<PathBuf> = std::fs::read_dir(cache)
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
    let rebuilt = galac_cmd()
        .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "0")
        .args([kuhn.to_str().unwrap_or_default(), "-o", bin.to_str().unwrap_or_default()])
        .output()
        .expect("run galac");
    assert_eq!(rebuilt.status.code(), Some(0), "{}", String::from_utf8_lossy(&rebuilt.stderr));
    assert!(!libs.is_empty(), "no embedded crates in the cache");
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

/// Two games with one (300-character) name, compiled at the same time into
/// one cache: each binary is its own game (they used to swap), and a name
/// longer than a file name may be compiles. Nested cargo builds: with
/// `GALAC_SLOW_TESTS=1` only.
#[test]
fn same_named_games_built_at_once_keep_their_own_binaries() {
    if !crate::common::slow_tests() {
        crate::common::announce(
            "solver_build::same_named_games_built_at_once_keep_their_own_binaries: skipped (GALAC_SLOW_TESTS=1 runs it)",
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
