//! `--distributed`: a CFR run shared among the ranks of an MPI job
//! (`mpirun -np R galac solve ... --distributed`), with the `mpi` feature;
//! without it the flag is refused. The algorithm is
//! `galac_solvers::cfr::distributed`; this module starts MPI, checks that
//! every rank runs the same program on the same game with the same flags,
//! and tells the rest of the command whether this process is rank 0 (the
//! one that writes the answer and the files).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use galac_runtime::game::GameInfo;
use galac_runtime::tree::Tree;
use galac_solvers::cfr::distributed::{all_ok, broadcast, Collective};

/// Set in ranks other than 0 of a distributed run: they print and write
/// nothing (rank 0 reports the answer every rank holds).
static FOLLOWER: AtomicBool = AtomicBool::new(false);

/// Whether this process is a rank other than 0 of a distributed run.
pub fn follower() -> bool {
    FOLLOWER.load(Ordering::Relaxed)
}

/// The digest of this program's file: its bytes (not its path, so that a
/// copy of the same solver on each machine of a cluster passes).
fn program_digest() -> Result<u64, String> {
    use std::hash::Hasher;
    use std::io::Read;
    let mut h = std::hash::DefaultHasher::new();
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this program's file: {e}"))?;
    let mut file =
        std::fs::File::open(&exe).map_err(|e| format!("cannot read this program's file `{}`: {e}", exe.display()))?;
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = file.read(&mut buf).map_err(|e| format!("cannot read `{}`: {e}", exe.display()))?;
        if n == 0 {
            break;
        }
        h.write(&buf[..n]);
    }
    Ok(h.finish())
}

/// The digest of the arguments after the program's name (the flags, and
/// the game file's name for galac).
fn arguments_digest() -> u64 {
    use std::hash::Hasher;
    let mut h = std::hash::DefaultHasher::new();
    for arg in std::env::args_os().skip(1) {
        h.write(arg.as_encoded_bytes());
        h.write_u8(0);
    }
    h.finish()
}

/// The digest of the game every rank's tree, whole or its shard, is the
/// same of: its name, params and rules (`info`: the program's checksum,
/// which tells an edited game file from another rank's), its information
/// sets (player and actions of each, in order) and its players.
fn game_digest(info: &GameInfo, tree: &Tree) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::hash::DefaultHasher::new();
    (&info.name, &info.params, info.program, tree.n_players, tree.infosets.len()).hash(&mut h);
    for set in &tree.infosets {
        h.write_u32(set.player.0);
        h.write_u32(set.n_actions);
    }
    h.finish()
}

/// What rank 0 and the others compare at start, in this order, named for
/// the message.
const SAME_ON_EVERY_RANK: [&str; 3] = ["program file", "arguments", "game (its rules, params or information sets)"];

/// Checks at start that every rank of `comm` runs the same program (its
/// file's bytes) with the same arguments on the same game (`info` and the
/// information sets of `tree`): every rank gets the same answer, and a
/// rank that differs from rank 0 says in what. Only fixed-size
/// collectives run before it, so ranks that differ in anything still
/// meet here.
pub fn check_same_job(comm: &dyn Collective, info: &GameInfo, tree: &Tree) -> Result<(), String> {
    let program = program_digest();
    if !all_ok(comm, program.is_ok()) {
        return Err(match program {
            Err(e) => format!("rank {}: {e}", comm.rank()),
            Ok(_) => format!("rank {}: another rank could not read its program file (see its message)", comm.rank()),
        });
    }
    let mine = [program.unwrap_or_default(), arguments_digest(), game_digest(info, tree)];
    let mut leader = mine;
    broadcast(comm, &mut leader);
    let differs: Vec<&str> =
        SAME_ON_EVERY_RANK.iter().zip(mine.iter().zip(&leader)).filter(|(_, (a, b))| a != b).map(|(w, _)| *w).collect();
    if !all_ok(comm, differs.is_empty()) {
        let who = match differs.as_slice() {
            [] => "another rank differs from rank 0".to_string(),
            what => format!("this rank differs from rank 0 in its {}", what.join(", ")),
        };
        return Err(format!(
            "rank {}: the ranks of this job do not all run the same program on the same game with the same flags \
             ({who}): start every rank from the same executable, game, params and arguments",
            comm.rank()
        ));
    }
    Ok(())
}

#[cfg(feature = "mpi")]
mod mpi_job {
    use galac_solvers::cfr::distributed::Collective;
    use mpi::collective::SystemOperation;
    use mpi::topology::SimpleCommunicator;
    use mpi::traits::{Communicator, CommunicatorCollectives};

    /// The MPI job: initialised once for the run, finalised when dropped.
    pub struct Job {
        world: SimpleCommunicator,
        /// Receive buffers of the collectives (reused).
        ints: std::cell::RefCell<Vec<i64>>,
        bits: std::cell::RefCell<Vec<u64>>,
        _universe: mpi::environment::Universe,
    }

    impl Job {
        /// Starts MPI (refused when it was started before in this process).
        pub fn start() -> Result<Job, String> {
            let universe = mpi::initialize().ok_or("MPI was already started in this process")?;
            let world = universe.world();
            Ok(Job { world, ints: Default::default(), bits: Default::default(), _universe: universe })
        }
    }

    impl Collective for Job {
        fn rank(&self) -> usize {
            self.world.rank() as usize
        }
        fn size(&self) -> usize {
            self.world.size() as usize
        }
        fn sum(&self, x: &mut [i64]) {
            let mut out = self.ints.borrow_mut();
            out.resize(x.len(), 0);
            self.world.all_reduce_into(&*x, &mut out[..], SystemOperation::sum());
            x.copy_from_slice(&out);
        }
        fn or(&self, x: &mut [u64]) {
            let mut out = self.bits.borrow_mut();
            out.resize(x.len(), 0);
            self.world.all_reduce_into(&*x, &mut out[..], SystemOperation::bitwise_or());
            x.copy_from_slice(&out);
        }
    }
}

/// Starts the MPI job of a `--distributed` run; marks this process a
/// follower unless it is rank 0. Without the `mpi` feature, an error.
#[cfg(feature = "mpi")]
pub fn start() -> Result<Box<dyn Collective>, String> {
    let job = mpi_job::Job::start()?;
    FOLLOWER.store(job.rank() != 0, Ordering::Relaxed);
    crate::signals::in_job(job.rank());
    Ok(Box::new(job))
}

/// Starts the MPI job of a `--distributed` run; marks this process a
/// follower unless it is rank 0. Without the `mpi` feature, an error.
#[cfg(not(feature = "mpi"))]
pub fn start() -> Result<Box<dyn Collective>, String> {
    Err("`--distributed` needs a galac built with the `mpi` feature (README, \"On a cluster (MPI)\")".into())
}

/// Rank `rank`'s checkpoint file of a job of `ranks` ranks given `path`:
/// `path.rank{rank}-of-{ranks}`. Each rank holds its own shard, so each
/// writes its own file, and a run resumes on the rank count that wrote it.
pub fn rank_file(path: &Path, rank: usize, ranks: usize) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(format!(".rank{rank}-of-{ranks}"));
    PathBuf::from(name)
}

/// The message for a distributed `--resume FILE` whose file for this rank
/// count is missing: the rank counts whose files are there, if any.
pub fn missing_rank_file(path: &Path, ranks: usize) -> String {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let prefix = format!("{name}.rank0-of-");
    let mut found: Vec<usize> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries.filter_map(|e| e.ok()?.file_name().to_str()?.strip_prefix(&prefix)?.parse().ok()).collect()
        })
        .unwrap_or_default();
    found.sort_unstable();
    let file = rank_file(path, 0, ranks);
    match found.as_slice() {
        [] => format!(
            "no checkpoint of this job at `{}` (a distributed run writes one file per rank, `{}` and so on)",
            path.display(),
            file.display()
        ),
        counts => format!(
            "the checkpoint `{}` was written by a job of {} ranks, not {ranks}: a distributed run resumes only on \
             the rank count that wrote it (each rank holds its own shard of the tree); run it with `mpirun -np {}`",
            path.display(),
            counts.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" or "),
            counts[0]
        ),
    }
}

/// The report's line on the shards (`sharded`: each rank built its shard,
/// not the whole tree): the nodes of the whole tree (the shards' own
/// nodes, the root and its children counted once) and of the largest
/// shard; and the whole tree's node count if sharded (a collective).
pub fn shard_note(comm: &dyn Collective, tree: &Tree, sharded: bool) -> (String, Option<u64>) {
    let kids = tree.children(galac_runtime::ids::NodeId::ROOT).count() as i64;
    let n = tree.n_nodes() as i64;
    let mut sums = vec![0i64; comm.size()];
    sums[comm.rank()] = n;
    comm.sum(&mut sums);
    let whole: i64 = sums.iter().map(|s| s - 1 - kids).sum::<i64>() + 1 + kids;
    let largest = sums.iter().copied().max().unwrap_or(0);
    if sharded {
        let note = format!(
            "each rank holds its shard of the tree's {whole} nodes: at most {largest} (with the root and its children)"
        );
        (note, Some(whole as u64))
    } else {
        (format!("each rank holds the whole tree ({n} nodes, read from the saved tree)"), None)
    }
}

/// This rank's shard of the tree of `game` (the subtrees of its units:
/// `galac_runtime::tree::build_shard`), with the seconds it took; `None`
/// after the message, on every rank if any failed (so that none waits in
/// a collective).
pub fn build_shard<G: galac_runtime::game::Game>(
    comm: &dyn Collective,
    game: &G,
    limits: &crate::LimitArgs,
) -> Option<(Tree, f64)> {
    let shard = galac_runtime::tree::Shard { rank: comm.rank() as u32, ranks: comm.size() as u32 };
    let built = galac_runtime::tree::build_shard(game, &limits.build_options(true), shard);
    let own_error = built.as_ref().err().cloned();
    match agreed(comm, built.map(|(tree, _, seconds)| (tree, seconds)).map_err(|e| e.to_string())) {
        Ok(built) => Some(built),
        Err(e) => {
            eprintln!("error: {e}");
            if let Some(e) = own_error {
                crate::building::print_limit_hint(&e);
            }
            None
        }
    }
}

/// `result` if every rank of `comm` succeeded; else an error on every
/// rank (a rank's own message, or a pointer to the failed rank's), so
/// that no rank goes on into a collective the others have left.
pub fn agreed<T>(comm: &dyn Collective, result: Result<T, String>) -> Result<T, String> {
    match (all_ok(comm, result.is_ok()), result) {
        (true, r) => r,
        (false, Err(e)) => Err(format!("rank {}: {e}", comm.rank())),
        (false, Ok(_)) => Err(format!("rank {}: another rank of the job failed (see its message)", comm.rank())),
    }
}
