//! `--distributed`: a CFR run shared among the ranks of an MPI job
//! (`mpirun -np R galac solve ... --distributed`), with the `mpi` feature;
//! without it the flag is refused. The algorithm is
//! `galac_solvers::cfr::distributed`; this module starts MPI, checks that
//! every rank runs the same program on the same game with the same flags,
//! and tells the rest of the command whether this process is rank 0 (the
//! one that writes the answer and the files).

use std::sync::atomic::{AtomicBool, Ordering};

use galac_runtime::tree::Tree;
use galac_solvers::cfr::distributed::{all_ok, broadcast, Collective};

/// Set in ranks other than 0 of a distributed run: they print and write
/// nothing (rank 0 reports the answer every rank holds).
static FOLLOWER: AtomicBool = AtomicBool::new(false);

/// Whether this process is a rank other than 0 of a distributed run.
pub fn follower() -> bool {
    FOLLOWER.load(Ordering::Relaxed)
}

/// A digest of what must be the same on every rank: the program (the
/// executable's bytes), its arguments and the tree's fingerprint
/// (`what`: its size and the checksum of its payoffs and chance
/// probabilities).
fn job_digest(what: &[u64]) -> Result<u64, String> {
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
    for arg in std::env::args_os() {
        h.write(arg.as_encoded_bytes());
        h.write_u8(0);
    }
    what.iter().for_each(|x| h.write_u64(*x));
    Ok(h.finish())
}

/// Checks at start that every rank of `comm` runs the same program with
/// the same arguments on the same tree: every rank gets the same answer.
pub fn check_same_job(comm: &dyn Collective, tree: &Tree) -> Result<(), String> {
    let fp = galac_solvers::cfr::Fingerprint::of(tree, &galac_solvers::cfr::Variant::Cfr);
    let mine = job_digest(&[fp.nodes, fp.slots, u64::from(fp.digest), comm.size() as u64]);
    if !all_ok(comm, mine.is_ok()) {
        return Err(match mine {
            Err(e) => format!("rank {}: {e}", comm.rank()),
            Ok(_) => format!("rank {}: another rank could not read its program file (see its message)", comm.rank()),
        });
    }
    let mine = mine.unwrap_or_default();
    let mut leader = [mine];
    broadcast(comm, &mut leader);
    if !all_ok(comm, leader[0] == mine) {
        let who = if leader[0] == mine { "some rank" } else { "this rank" };
        return Err(format!(
            "rank {}: the ranks of this job do not all run the same program on the same game with the same flags \
             ({who} differs from rank 0): start every rank from the same executable, game, params and arguments",
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
    Ok(Box::new(job))
}

/// Starts the MPI job of a `--distributed` run; marks this process a
/// follower unless it is rank 0. Without the `mpi` feature, an error.
#[cfg(not(feature = "mpi"))]
pub fn start() -> Result<Box<dyn Collective>, String> {
    Err("`--distributed` needs a galac built with the `mpi` feature (README, \"On a cluster (MPI)\")".into())
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
