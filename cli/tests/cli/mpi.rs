//! `galac solve --distributed` under `mpirun` (the `mpi` feature, OpenMPI;
//! README, "On a cluster (MPI)"): the answer is the same bit for bit on
//! any number of ranks, and the threaded solver's up to rounding over a
//! few iterations; each rank holds only its shard of the tree; a
//! checkpoint (a file per rank) resumes on its rank count and is refused
//! on another; ranks that differ are refused at start; a rank that dies
//! ends the job. The rank counts are
//! `GALAC_MPI_RANKS` (default `1,2,3,4`; `.ci/run` runs 2 and 4).

use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn example(name: &str) -> String {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples").join(name).to_string_lossy().into_owned()
}

fn test_game(name: &str) -> String {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games").join(name).to_string_lossy().into_owned()
}

/// The rank counts to try.
fn rank_counts() -> Vec<usize> {
    let list = std::env::var("GALAC_MPI_RANKS").unwrap_or_else(|_| "1,2,3,4".into());
    list.split(',').map(|r| r.trim().parse().expect("GALAC_MPI_RANKS: numbers")).collect()
}

/// `mpirun` on this machine's loopback: more ranks than cores, as root in
/// a container, without the shared-memory path a container forbids.
fn mpirun() -> Command {
    let mut c = Command::new("mpirun");
    c.env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .env("OMPI_MCA_rmaps_base_oversubscribe", "1")
        .env("OMPI_MCA_btl_vader_single_copy_mechanism", "none")
        .env("GALAC_CACHE_DIR", cache());
    c
}

/// The cache of compiled solvers that the command-line tests share.
fn cache() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("galac-cache")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// `galac ARGS` on `ranks` ranks.
fn on_ranks(ranks: usize, args: &[&str]) -> Output {
    mpirun()
        .args(["-np", &ranks.to_string(), env!("CARGO_BIN_EXE_galac")])
        .args(args)
        .output()
        .expect("run mpirun (OpenMPI's openmpi-bin)")
}

/// The JSON answer of `galac ARGS --distributed --format json` on `ranks` ranks.
fn answer(ranks: usize, args: &[&str]) -> serde_json::Value {
    answer_of(env!("CARGO_BIN_EXE_galac"), ranks, args)
}

/// The JSON answer of `PROGRAM ARGS --distributed --format json` on
/// `ranks` ranks (galac or a compiled solver).
fn answer_of(program: &str, ranks: usize, args: &[&str]) -> serde_json::Value {
    let out = mpirun()
        .args(["-np", &ranks.to_string(), program])
        .args([args, &["--distributed", "--format", "json"]].concat())
        .output()
        .expect("run mpirun (OpenMPI's openmpi-bin)");
    assert!(out.status.success(), "{ranks} ranks: {}", text(&out.stderr));
    // Rank 0 alone writes the answer.
    serde_json::from_str(&text(&out.stdout)).unwrap_or_else(|e| panic!("{ranks} ranks: {e}: {}", text(&out.stdout)))
}

/// The same answer on every rank count; returns it.
fn same_on_every_rank_count(args: &[&str]) -> serde_json::Value {
    let counts = rank_counts();
    let first = answer(counts[0], args);
    for &ranks in &counts[1..] {
        let other = answer(ranks, args);
        assert_eq!(first["strategy"], other["strategy"], "{ranks} ranks against {}", counts[0]);
        assert_eq!(first["exploitability"], other["exploitability"], "{ranks} ranks against {}", counts[0]);
    }
    first
}

/// The threaded solver's NashConv up to rounding, on the last rank count.
/// Only over a few iterations: the two sum the regrets in other orders,
/// and CFR's dynamics (a regret at exactly 0 or just above it) make the
/// last bits' difference grow with the iterations (Leduc CFR+: 1e-16 of
/// the NashConv after 10 iterations, 6e-11 after 100, 4% after 500).
fn close_to_threaded(args: &[&str]) {
    let ranks = *rank_counts().last().expect("a rank count");
    let distributed = answer(ranks, args);
    let threaded = Command::new(env!("CARGO_BIN_EXE_galac"))
        .args(args)
        .args(["--format", "json", "--threads", "2"])
        .stderr(Stdio::inherit())
        .output()
        .expect("run galac");
    assert!(threaded.status.success());
    let threaded: serde_json::Value = serde_json::from_str(&text(&threaded.stdout)).expect("json");
    let got = distributed["exploitability"].as_f64().expect("a number");
    let want = threaded["exploitability"].as_f64().expect("a number");
    assert!((got - want).abs() <= 1e-9 * want, "NashConv {got:e} on {ranks} ranks, {want:e} threaded");
}

#[test]
fn leduc_is_the_same_on_any_rank_count_and_has_its_value() {
    let leduc = example("leduc.gala");
    let answer = same_on_every_rank_count(&["solve", &leduc, "--solver", "cfr+", "--iterations", "500"]);
    let value = answer["value"]["first"].as_f64().expect("a value");
    assert!((value - -0.085_606_424_078).abs() < 3e-3, "value {value}");
    close_to_threaded(&["solve", &leduc, "--solver", "cfr+", "--iterations", "30"]);
}

#[test]
fn liars_dice_and_three_player_kuhn_are_the_same_on_any_rank_count() {
    let dice = example("liars_dice.gala");
    same_on_every_rank_count(&["solve", &dice, "--param", "sides=4", "--solver", "cfr+", "--iterations", "100"]);
    close_to_threaded(&["solve", &dice, "--param", "sides=4", "--solver", "cfr+", "--iterations", "20"]);
    let kuhn3 = test_game("kuhn3.gala");
    same_on_every_rank_count(&["solve", &kuhn3, "--solver", "dcfr", "--iterations", "300"]);
    close_to_threaded(&["solve", &kuhn3, "--solver", "dcfr", "--iterations", "20"]);
}

/// The main path: a solver compiled by a galac built with the
/// `mpi` feature runs as `mpirun -np R ./solver solve --distributed`, and
/// its answer is the same bit for bit on 1 rank, on every rank count, and
/// as galac's own (the same tree, the same code). The solver is built in
/// the cache the other tests that compile games share, unoptimised as
/// theirs (the answer does not depend on it), so the crates it links
/// (with rsmpi's bindings) compile once.
#[test]
fn a_compiled_solver_runs_distributed_with_the_same_answer() {
    let leduc = example("leduc.gala");
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("mpi-solver-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let solver = dir.join("leduc_solver");
    let solver = solver.to_str().expect("a UTF-8 path");
    let out = Command::new(env!("CARGO_BIN_EXE_galac"))
        .env("GALAC_CACHE_DIR", cache())
        .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "0")
        .args([&leduc, "-o", solver, "--quiet"])
        .output()
        .expect("run galac");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let args = ["solve", "--solver", "cfr+", "--iterations", "200"];
    let galac = answer(1, &[&args[..1], &[leduc.as_str()], &args[1..]].concat());
    let mut counts = rank_counts();
    counts.insert(0, 1);
    counts.dedup();
    for ranks in counts {
        let compiled = answer_of(solver, ranks, &args);
        let notes = compiled["notes"].to_string();
        assert!(notes.contains(&format!("distributed over {ranks} rank")), "{notes}");
        assert_eq!(compiled["strategy"], galac["strategy"], "the solver on {ranks} ranks against galac");
        assert_eq!(compiled["exploitability"], galac["exploitability"], "the solver on {ranks} ranks against galac");
    }
    // The same game through another program is another job.
    let distributed = [&args[..], &["--distributed"]].concat();
    let out = two_programs(
        &[&[env!("CARGO_BIN_EXE_galac"), args[0], leduc.as_str()][..], &distributed[1..]].concat(),
        &[&[solver][..], &distributed].concat(),
    );
    refused_at_start(&out, "this rank differs from rank 0 in its program file, arguments");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A checkpoint written on two ranks is one file per rank; it resumes on
/// two ranks and ends where one rank's uninterrupted run ends; on three it
/// is refused, saying the rank count that wrote it.
#[test]
fn a_checkpoint_resumes_on_its_rank_count_and_another_is_refused() {
    let leduc = example("leduc.gala");
    let dir = std::env::temp_dir().join(format!("galac-mpi-ckpt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let ckpt = dir.join("run.ckpt").to_string_lossy().into_owned();
    let base = ["solve", &leduc, "--solver", "pcfr+", "--check-every", "1000"];
    let whole = answer(1, &[&base[..], &["--iterations", "80"]].concat());
    answer(2, &[&base[..], &["--iterations", "30", "--checkpoint", &ckpt]].concat());
    for rank in 0..2 {
        assert!(dir.join(format!("run.ckpt.rank{rank}-of-2")).exists(), "rank {rank}'s file");
    }
    let resumed = answer(2, &[&base[..], &["--iterations", "80", "--resume", &ckpt]].concat());
    assert_eq!(whole["strategy"], resumed["strategy"]);
    assert_eq!(whole["exploitability"], resumed["exploitability"]);
    let args = [&base[..], &["--iterations", "80", "--resume", &ckpt, "--distributed"]].concat();
    let out = on_ranks(3, &args);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(err.contains("was written by a job of 2 ranks, not 3"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Each rank builds only its shard: the report says how many nodes the
/// largest holds, fewer than the whole tree's, which it counts right.
#[test]
fn each_rank_holds_only_its_shard() {
    let leduc = example("leduc.gala");
    let tree = Command::new(env!("CARGO_BIN_EXE_galac"))
        .args(["tree", &leduc, "--format", "json"])
        .output()
        .expect("run galac");
    let tree: serde_json::Value = serde_json::from_str(&text(&tree.stdout)).expect("json");
    let nodes = tree["nodes"].as_u64().expect("a node count");
    let out = on_ranks(2, &["solve", &leduc, "--solver", "cfr+", "--iterations", "5", "--distributed"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    let line = report.lines().find(|l| l.contains("its shard of the tree's")).unwrap_or_else(|| panic!("{report}"));
    assert!(line.contains(&format!("the tree's {nodes} nodes")), "{line}");
    let largest: u64 = line
        .split("at most ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{line}"));
    assert!(largest < nodes * 3 / 4, "{line}");
}

/// `mpirun -np 1 A : -np 1 B`: a job of two ranks running A and B.
fn two_programs(a: &[&str], b: &[&str]) -> Output {
    mpirun().args(["-np", "1"]).args(a).arg(":").args(["-np", "1"]).args(b).output().expect("run mpirun")
}

/// The message of a job whose ranks differ: it failed, and a rank says
/// in what it differs from rank 0 (`what`).
fn refused_at_start(out: &Output, what: &str) {
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(err.contains("do not all run the same program on the same game with the same flags"), "{err}");
    // Every rank finds the mismatch, but mpirun ends the job at the first
    // rank that exits non-zero: the others' messages may be cut off, so
    // only the rank that differs may have spoken.
    assert!(err.contains("rank 1: the ranks") || err.contains("rank 0: the ranks"), "a rank says why: {err}");
    assert!(err.contains(what) || err.contains("another rank differs from rank 0"), "{what}: {err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// Ranks started with other flags, or on a game with other params, are
/// refused at start, every rank stopping with a message that says in what
/// it differs (and no rank waits for the others forever).
#[test]
fn ranks_that_differ_are_refused_at_start() {
    let kuhn = example("kuhn.gala");
    let galac = env!("CARGO_BIN_EXE_galac");
    let one = [galac, "solve", &kuhn, "--solver", "cfr+", "--distributed", "--iterations"];
    let out = two_programs(&[&one[..], &["10"]].concat(), &[&one[..], &["11"]].concat());
    refused_at_start(&out, "this rank differs from rank 0 in its arguments");
    // Another param: another game, and the collectives that follow the
    // check (sized by the game) are never reached.
    let dice = example("liars_dice.gala");
    let with = |sides: &'static str| [galac, "solve", &dice, "--param", sides, "--solver", "cfr+", "--distributed"];
    let out = two_programs(&with("sides=4"), &with("sides=3"));
    refused_at_start(
        &out,
        "this rank differs from rank 0 in its arguments, game (its rules, params or information sets)",
    );
}

/// A rank killed in the middle of a run ends the whole job, soon.
#[test]
fn a_rank_that_dies_ends_the_job() {
    let leduc = example("leduc.gala");
    let mut job = mpirun()
        .args(["-np", "2", env!("CARGO_BIN_EXE_galac")])
        .args(["solve", &leduc, "--solver", "cfr+", "--iterations", "100000000", "--distributed"])
        .env("GALAC_PROGRESS_EVERY", "0.2")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run mpirun");
    // The job's standard error, a line at a time.
    let (lines, from_job) = std::sync::mpsc::channel();
    let stderr = job.stderr.take().expect("piped");
    std::thread::spawn(move || {
        use std::io::BufRead;
        for line in std::io::BufReader::new(stderr).lines().map_while(Result::ok) {
            let _ = lines.send(line);
        }
    });
    // Rank 0's progress line: every rank is past the start (MPI and its
    // signal note set up) and iterating.
    let mut err = String::new();
    while !err.contains("iterations (") {
        match from_job.recv_timeout(Duration::from_secs(120)) {
            Ok(line) => err += &(line + "\n"),
            Err(e) => panic!("no progress line ({e}): {err}"),
        }
    }
    // The ranks: galac processes below mpirun.
    let rank = std::fs::read_dir("/proc")
        .expect("/proc")
        .flatten()
        .find_map(|e| {
            let pid: u32 = e.file_name().to_str()?.parse().ok()?;
            let cmd = std::fs::read(e.path().join("cmdline")).ok()?;
            let ours = cmd.starts_with(env!("CARGO_BIN_EXE_galac").as_bytes()) && text(&cmd).contains("100000000");
            ours.then_some(pid)
        })
        .expect("a rank");
    Command::new("kill").args(["-9", &rank.to_string()]).status().expect("kill");
    let killed = Instant::now();
    let status = loop {
        if let Some(status) = job.try_wait().expect("wait") {
            break status;
        }
        if killed.elapsed() > Duration::from_secs(60) {
            let _ = job.kill();
            panic!("the job went on for a minute after a rank died");
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(!status.success());
    // The rank left alive says why it ends, though it was waiting for the
    // dead one in a collective.
    err.extend(from_job.iter().map(|line| line + "\n"));
    assert!(err.contains("ended by a signal: mpirun ends every rank when a rank of the job fails"), "{err}");
}
