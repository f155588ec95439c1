//! Outputs and signals of a long run: every file a run will write is
//! checked before the work starts, so a bad path loses no run; SIGTERM
//! stops a CFR run like Ctrl-C, with its answer printed and its checkpoint
//! written; flags a mode ignores are refused.

use crate::common::{example, galac};

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("outputs_{name}_{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

#[test]
fn an_output_that_cannot_be_written_is_refused_before_the_run() {
    let leduc = example("leduc.gala");
    let bad = "/nonexistent-galac-dir/file";
    for flag in ["--out", "--curve", "--checkpoint"] {
        let (code, out, err) = galac(&["solve", &leduc, "--solver", "cfr+", "--iterations", "3000", flag, bad], "");
        assert_eq!(code, 1, "{flag}: {err}");
        // Refused before the solve: no report was printed.
        assert!(out.is_empty(), "{flag}: {out}");
        assert!(err.starts_with("error: cannot write") && err.contains(&format!("({flag})")), "{flag}: {err}");
    }
}

/// An output path that names the game's source (here through a link and
/// through `./`) is refused before any work, and the source is unchanged:
/// `--out`, `tree --save`, `export --efg` and `build -o`.
#[cfg(unix)]
#[test]
fn no_output_replaces_the_games_source() {
    let dir = scratch("source");
    let source = dir.join("kuhn.gala");
    let text = std::fs::read_to_string(example("kuhn.gala")).expect("kuhn.gala");
    std::fs::write(&source, &text).expect("copy");
    let link = dir.join("link.gala");
    std::os::unix::fs::symlink(&source, &link).expect("symlink");
    let game = source.to_str().expect("utf-8 path");
    let dotted = format!("{}/./kuhn.gala", dir.display());
    let cases: [&[&str]; 5] = [
        &["solve", game, "--out", &dotted],
        &["solve", game, "--solver", "cfr+", "--iterations", "10", "--checkpoint", link.to_str().unwrap()],
        &["tree", game, "--save", game],
        &["export", game, "--efg", link.to_str().unwrap()],
        &["build", game, "-o", game],
    ];
    for args in cases {
        let (code, out, err) = galac(args, "");
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert!(err.contains("it is the game's source file"), "{args:?}: {err}");
        assert_eq!(std::fs::read_to_string(&source).expect("source"), text, "{args:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(unix)]
#[test]
fn sigterm_stops_a_cfr_run_which_keeps_its_answer_and_checkpoint() {
    let dir = scratch("sigterm");
    let ckpt = dir.join("run.ckpt");
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_galac"))
        .args(["solve", &example("leduc.gala"), "--solver", "cfr+", "--iterations", "1000000000", "--checkpoint"])
        .arg(&ckpt)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("galac starts");
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let sent = std::process::Command::new("kill").args(["-TERM", &child.id().to_string()]).status().expect("kill runs");
    assert!(sent.success());
    let output = child.wait_with_output().expect("galac ends");
    let (out, err) = (String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert_eq!(output.status.code(), Some(0), "{err}");
    assert!(out.contains("stopped") && out.contains("exploitability (NashConv)"), "{out}");
    assert!(ckpt.exists(), "no checkpoint after SIGTERM: {err}");
    let ckpt = ckpt.to_str().expect("utf-8 path");
    let (code, out, err) =
        galac(&["solve", &example("leduc.gala"), "--solver", "cfr+", "--iterations", "1", "--resume", ckpt], "");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("solver: cfr+"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Sends `signal` to a galac run with `args` after `after`; its exit status.
#[cfg(unix)]
fn signalled(args: &[&str], signal: &str, after: std::time::Duration) -> Option<i32> {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_galac"))
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("galac starts");
    std::thread::sleep(after);
    let sent = std::process::Command::new("kill").args([signal, &child.id().to_string()]).status().expect("kill runs");
    assert!(sent.success());
    child.wait().expect("galac ends").code()
}

/// SIGTERM to the double oracle stops it within its step (the restricted
/// LP it is solving looks at the signal's flag; before, the run went on to
/// the LP's end, over a minute on 13-rank Leduc), with status 130, a
/// message, and no answer file. Liar's dice from the paper's start takes
/// minutes, so the signal always lands mid-run; a run that went on to its
/// end would stop with status 0 and write its answer.
#[cfg(unix)]
#[test]
fn sigterm_stops_the_double_oracle_within_its_step_without_an_answer() {
    let dir = scratch("sigterm_do");
    let out = dir.join("answer.json");
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_galac"))
        .args(["solve", &example("liars_dice.gala"), "--solver", "do", "--no-tree", "--format", "json", "--out"])
        .arg(&out)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("galac starts");
    std::thread::sleep(std::time::Duration::from_millis(3000));
    let sent = std::process::Command::new("kill").args(["-TERM", &child.id().to_string()]).status().expect("kill runs");
    assert!(sent.success());
    let output = child.wait_with_output().expect("galac ends");
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{err}");
    assert!(err.contains("error: interrupted") && err.contains("without an answer"), "{err}");
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().map(|e| e.file_name()).collect();
    assert!(left.is_empty(), "{left:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Ctrl-C during `tree --save` (a build of minutes) ends the run with
/// status 130 and leaves no hidden temporary file.
#[cfg(unix)]
#[test]
fn an_interrupted_save_leaves_no_temporary_file() {
    let dir = scratch("interrupted_save");
    let save = dir.join("t.tree");
    let args = ["tree", &example("blind_tictactoe.gala"), "--save", save.to_str().unwrap()];
    let code = signalled(&args, "-INT", std::time::Duration::from_millis(1500));
    assert_eq!(code, Some(130));
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().map(|e| e.file_name()).collect();
    assert!(left.is_empty(), "{left:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// SIGTERM to `galac build` stops the cargo it started: no process is
/// left building the crate.
#[cfg(target_os = "linux")]
#[test]
fn a_terminated_build_leaves_no_cargo_behind() {
    let dir = scratch("terminated_build");
    let (krate, solver) = (dir.join("crate"), dir.join("kuhn_solver"));
    let args =
        ["build", &example("kuhn.gala"), "-o", solver.to_str().unwrap(), "--emit-crate", krate.to_str().unwrap()];
    // Long enough for cargo to start, short of the build's end.
    let code = signalled(&args, "-TERM", std::time::Duration::from_millis(2500));
    assert_eq!(code, Some(130));
    std::thread::sleep(std::time::Duration::from_millis(500));
    let needle = krate.join("Cargo.toml").display().to_string();
    let building: Vec<String> = std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
        .map(|c| String::from_utf8_lossy(&c).replace('\0', " "))
        .filter(|c| c.contains(&needle))
        .collect();
    assert!(building.is_empty(), "{building:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_search_over_states_refuses_flags_it_would_ignore() {
    let nim = example("nim3.gala");
    for extra in [&["--time-limit", "1"][..], &["--checkpoint", "x.ckpt"], &["--curve", "c.csv"]] {
        let args = [&["solve", nim.as_str(), "--transpositions"][..], extra].concat();
        let (code, out, err) = galac(&args, "");
        assert_eq!(code, 2, "{extra:?}: {out}");
        assert!(err.contains(extra[0]) && err.contains("search over states"), "{err}");
    }
    // Another solver does not read the search's flags.
    let (code, out, err) = galac(&["solve", nim.as_str(), "--solver", "cfr+", "--depth", "2"], "");
    assert_eq!(code, 2, "{out}");
    assert!(err.contains("`--depth` is read by maxn, not by `--solver cfr+`"), "{err}");
}

/// A checkpoint is resumed only on the game it was written for: other
/// params with the same tree shape (poker's ante changes payoffs only) are
/// refused, and so is a checkpoint holding a value that is not finite.
#[test]
fn a_checkpoint_of_other_params_or_with_a_non_finite_value_is_refused() {
    let dir = scratch("other_params");
    let ckpt = dir.join("p5.ckpt");
    let ckpt = ckpt.to_str().expect("utf-8 path");
    let poker = example("poker.gala");
    let run = |ante: &str, flag: &str, iterations: &str| {
        galac(&["solve", &poker, "--param", ante, "--solver", "cfr+", "--iterations", iterations, flag, ckpt, "-q"], "")
    };
    let (code, _, err) = run("ante=5", "--checkpoint", "50");
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = run("ante=5", "--resume", "60");
    assert_eq!(code, 0, "the same game resumes: {err}");
    assert!(out.contains("cfr+ (60 iterations)"), "{out}");
    let (code, out, err) = run("ante=1", "--resume", "100");
    assert_eq!(code, 1, "{out}");
    assert!(err.contains("other payoffs or chance probabilities"), "{err}");
    // One value made infinite: the tail of the file holds the solver's sums.
    let mut bytes = std::fs::read(ckpt).expect("the checkpoint");
    let at = bytes.len() - 8;
    bytes[at..].copy_from_slice(&f64::INFINITY.to_le_bytes());
    std::fs::write(ckpt, &bytes).expect("write");
    let (code, out, err) = run("ante=5", "--resume", "60");
    assert_eq!(code, 1, "{out}");
    assert!(err.contains("not a finite number"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A damaged build cache (here: cargo fails until its target directory
/// is emptied) is emptied and the build done again, with a note; a build
/// that fails from an empty cache too is reported as the error it is.
#[cfg(unix)]
#[test]
fn a_damaged_build_cache_is_emptied_and_the_build_done_again() {
    let dir = scratch("damaged_cache");
    let cargo = crate::common::fake_cargo(&dir);
    let cache = dir.join("cache");
    std::fs::create_dir_all(cache.join("target")).unwrap();
    std::fs::write(cache.join("target").join("damaged"), b"").unwrap();
    let solver = dir.join("kuhn_solver");
    let build = |always_fails: bool| {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_galac"));
        cmd.args(["build", &example("kuhn.gala"), "-o"])
            .arg(&solver)
            .env("CARGO", &cargo)
            .env("GALAC_CACHE_DIR", &cache);
        if always_fails {
            cmd.env("FAKE_CARGO_ALWAYS_FAILS", "1");
        }
        cmd.output().expect("galac runs")
    };
    // Off a terminal a long build says now and then how far it is.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_galac"))
        .args(["build", &example("kuhn.gala"), "-o"])
        .arg(&solver)
        .env("CARGO", &cargo)
        .env("GALAC_CACHE_DIR", dir.join("other_cache"))
        .env("FAKE_CARGO_SLOW", "1")
        .env("GALAC_PROGRESS_EVERY", "0.2")
        .output()
        .expect("galac runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    // How many crates cargo compiled, of the packages `cargo metadata`
    // resolves (the stand-in resolves three).
    assert!(
        err.contains("cargo: crates compiled: 1 of at most 3, 0 s so far: Compiling galac-solvers v0.1.0"),
        "{err}"
    );
    let out = build(false);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.contains("may be damaged: emptying it and building again"), "{err}");
    let ran = std::process::Command::new(&solver).output().expect("the solver runs");
    assert_eq!(String::from_utf8_lossy(&ran.stdout), "solver\n");
    let out = build(true);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("building again") && err.contains("E0786"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `galac prepare` (the README's set-up) builds the crates every solver
/// links into the cache, says so, and leaves no scratch game behind; a
/// second run (warm) with `--quiet` says nothing. With `GALAC_SLOW_TESTS=1`
/// by cargo, in the cache the other tests that build solvers share, with
/// their profile (optimisation off); else (the build took minutes of the
/// test run's CPU: BENCHMARKS.md, "Tests") by the stand-in for cargo.
#[test]
fn prepare_builds_the_solver_crates_into_the_cache() {
    let slow = crate::common::slow_tests();
    let (cache, fake) = if slow {
        (std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("galac-cache"), None)
    } else {
        crate::common::announce(
            "outputs::prepare_builds_the_solver_crates_into_the_cache: with a stand-in for cargo \
             (GALAC_SLOW_TESTS=1 runs cargo)",
        );
        let dir = scratch("prepare");
        let fake = crate::common::fake_cargo(&dir);
        (dir.join("cache"), Some(fake))
    };
    let prepare = |quiet: bool| {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_galac"));
        cmd.env("GALAC_CACHE_DIR", &cache).env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "0").arg("prepare");
        if let Some(fake) = &fake {
            cmd.env("CARGO", fake);
        }
        if quiet {
            cmd.arg("--quiet");
        }
        cmd.output().expect("run galac prepare")
    };
    let out = prepare(false);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.contains("Compiling the crates every solver links") && err.contains("Finished the crates"), "{err}");
    if slow {
        let libs = std::fs::read_dir(cache.join("target/release/deps")).expect("the cache's target directory");
        let names: Vec<String> = libs.flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
        assert!(names.iter().any(|n| n.starts_with("libgalac_app-") && n.ends_with(".rlib")), "{names:?}");
    }
    let left: Vec<String> = std::fs::read_dir(&cache)
        .expect("the cache")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("prepare-"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    let out = prepare(true);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// A text answer prints at most 1,000 sets a player (6-rank Leduc has
/// 2,016 each) and says how many it left out and where every set is;
/// `--out` still holds every set, and the printed ones agree with it.
#[test]
fn a_large_text_answer_prints_the_first_sets_and_out_holds_every_set() {
    let dir = scratch("capped");
    let out_file = dir.join("answer.json");
    let args =
        ["solve", &example("leduc.gala"), "--param", "ranks=6", "--solver", "cfr+", "--iterations", "10", "--out"];
    let (code, out, err) = galac(&[&args[..], &[out_file.to_str().expect("utf-8 path")]].concat(), "");
    assert_eq!(code, 0, "{err}");
    let answer: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out_file).expect("--out written")).expect("JSON");
    let strategy = answer["strategy"].as_object().expect("strategy map");
    assert_eq!(strategy.len(), 2 * 2016);
    for player in ["first", "second"] {
        let section = out.split(&format!("\nstrategy of {player}:\n")).nth(1).expect("player's section");
        let lines: Vec<&str> = section.lines().take_while(|l| l.starts_with("  ")).collect();
        assert_eq!(lines.len(), 1001, "{player}: {section}");
        assert_eq!(
            lines[1000],
            format!(
                "  ... 1016 more sets of {player} not printed (the first 1000 of 2016 are above); `--out FILE` or \
                 `--format json` writes every set"
            )
        );
        for line in &lines[..1000] {
            let (label, probs) = line.trim_start().rsplit_once(": ").expect("label: probabilities");
            let json = strategy[label].as_object().unwrap_or_else(|| panic!("{label} not in --out"));
            for pair in probs.trim_end_matches(" *").split(", ") {
                let (action, x) = pair.rsplit_once(' ').expect("action probability");
                let x: f64 = x.parse().expect("probability");
                assert!((json[action].as_f64().expect("number") - x).abs() <= 5e-4, "{line}");
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
