//! `tree --save` on two threads over the memory limit: the builds in
//! memory do not fit, and [`crate::build_saving`] saves within the limit
//! (on two threads, the parts writing their nodes as they go, or, if those
//! hold too much, on one).

use galac_runtime::game::{Game, GameError, GameInfo, Node};
use galac_runtime::info::{InfoInterner, InfoState, CHOSE_TAG};
use galac_runtime::rational::Ratio;
use galac_runtime::tree::{build, build_parallel, BuildError, BuildOptions};

/// Two players who take turns choosing among `actions[d]` at depth `d`,
/// each knowing only their own choices: many nodes, few information sets
/// (so the labels, held whole by any build, stay small next to the nodes).
struct Blind {
    info: GameInfo,
    actions: Vec<u32>,
}

/// (depth, each player's information state, the last action)
type State = (u32, [InfoState; 2], u32);

impl Game for Blind {
    type State = State;
    type Specialised = Self;
    fn info(&self) -> &GameInfo {
        &self.info
    }
    fn root(&self) -> Result<State, GameError> {
        Ok((0, [InfoState::EMPTY; 2], 0))
    }
    fn advance(&self, s: &mut State, info: &mut InfoInterner) -> Result<Node, GameError> {
        let Some(&n_actions) = self.actions.get(s.0 as usize) else { return Ok(Node::Terminal) };
        let player = s.0 % 2;
        let (infoset, _) = info.infoset(player, s.1[player as usize], &[u64::from(n_actions)]);
        Ok(Node::Decision { player, infoset, n_actions })
    }
    fn apply(&self, s: &mut State, action: u32, info: &mut InfoInterner) -> Result<(), GameError> {
        let own = &mut s.1[(s.0 % 2) as usize];
        *own = info.push(*own, &[CHOSE_TAG, u64::from(action)]);
        (s.0, s.2) = (s.0 + 1, action);
        Ok(())
    }
    fn chance_probs(&self, _: &State, out: &mut Vec<Ratio>) {
        out.clear();
    }
    fn payoffs<'a>(&self, s: &'a State, out: &'a mut Vec<i64>) -> &'a [i64] {
        out.clear();
        out.extend([i64::from(s.2), -i64::from(s.2)]);
        out
    }
    fn action_label(&self, _: &State, action: u32) -> String {
        action.to_string()
    }
    /// From the set's facts, as a game's labels are (its number would be
    /// a parallel part's own).
    fn infoset_label(&self, info: &InfoInterner, infoset: u32) -> String {
        format!("{:?}", info.facts(info.infoset_key(infoset).state))
    }
}

/// 3 then 2 actions a level, 20 levels: 3,145,726 nodes (25 MB of nodes,
/// 32 MiB of node arrays while they grow; a streamed build holds at most 2
/// Mi nodes, and writes them out from its first blocks).
fn game() -> Blind {
    let info = GameInfo { name: "blind".into(), players: vec!["a".into(), "b".into()], params: Vec::new(), program: 0 };
    Blind { info, actions: std::iter::once(3).chain(std::iter::repeat_n(2, 19)).collect() }
}

/// A file in the temporary directory, removed when dropped.
struct TempFile(std::path::PathBuf);

impl TempFile {
    fn new(name: &str) -> TempFile {
        TempFile(std::env::temp_dir().join(format!("galac-app-{}-{name}", std::process::id())))
    }

    fn create(&self) -> std::fs::File {
        std::fs::OpenOptions::new().read(true).write(true).create(true).truncate(true).open(&self.0).expect("temp file")
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

#[test]
fn over_the_memory_limit_two_threads_save_within_it() {
    let make = || Some(game());
    let limits = |threads, max_memory| crate::LimitArgs {
        max_nodes: 200_000_000,
        max_memory,
        step_limit: crate::DEFAULT_STEP_LIMIT,
        threads,
        tree: None,
        quiet: true,
        cancel: None,
    };
    // What a streamed save holds, and a build in memory, in MiB.
    let one = TempFile::new("one.tree");
    let streamed = crate::build_saving(&game(), Some(&make), &limits(1, 8192), &one.create(), &one.0).expect("saved");
    let in_memory = build(&game(), &BuildOptions::default()).expect("built").0.build_bytes();
    let (need, held) = (streamed.build_bytes.div_ceil(1 << 20), in_memory >> 20);
    assert!(need < held, "a streamed save holds {need} MiB, a build in memory {held} MiB");
    // Between the two: the builds in memory stop, on two threads and on one.
    let opts = limits(2, need).build_options(true);
    assert!(matches!(build_parallel(&make, &opts, 2), Err(BuildError::TooMuchMemory { .. })));
    // So the save is made as it builds, within the limit: the same file.
    let two = TempFile::new("two.tree");
    let saved = crate::build_saving(&game(), Some(&make), &limits(2, need), &two.create(), &two.0)
        .expect("saved within the limit");
    assert_eq!(saved.stats, streamed.stats);
    assert!(saved.build_bytes <= need << 20, "{} bytes held", saved.build_bytes);
    assert!(std::fs::read(&one.0).ok() == std::fs::read(&two.0).ok(), "the two files differ");
}
