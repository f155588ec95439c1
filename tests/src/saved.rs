//! Saved trees (docs/tree-format.md): a tree read back equals the tree
//! built (digest, labels, stats), solves to the same known value, and
//! every kind of damaged or foreign file is refused with its own error.

use galac_runtime::game::Game;
use galac_runtime::ids::{InfosetId, PlayerId};
use galac_runtime::tree::{build, load, save, BuildError, BuildOptions, LoadError, Tree, FORMAT_VERSION};

use crate::games::{digest, load_interp};
use galac_runtime::memory::MemoryLimit;

/// The default limits, which the test trees are far below.
const ANY: BuildOptions = BuildOptions {
    max_nodes: 200_000_000,
    memory: MemoryLimit::from_bytes(8 << 30),
    labels: false,
    progress: None,
    cancel: None,
};

/// A game's tree with labels, and the game.
fn built(file: &str, params: &[&str]) -> (galac_compiler::interp::Interp, Tree) {
    let game = load_interp(file, params).unwrap_or_else(|e| panic!("{e}"));
    let tree = build(&game, &BuildOptions { labels: true, ..BuildOptions::default() }).unwrap().0;
    (game, tree)
}

fn saved(game: &impl Game, tree: &Tree) -> Vec<u8> {
    let mut bytes = Vec::new();
    save(tree, game.info(), &mut bytes).unwrap();
    bytes
}

fn labels(t: &Tree) -> Vec<(String, Vec<String>)> {
    t.infosets.keys().map(|i| (t.infoset_label(i).to_string(), t.action_labels(i).to_vec())).collect()
}

#[test]
fn a_saved_tree_reads_back_equal_to_the_built_one() {
    for (file, params) in [("leduc.gala", &[][..]), ("kuhn.gala", &[]), ("liars_dice.gala", &["dice=1", "sides=3"])] {
        let (game, tree) = built(file, params);
        let back = load(saved(&game, &tree).as_slice(), game.info(), &ANY).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(digest(&back), digest(&tree), "{file}");
        assert_eq!(labels(&back), labels(&tree), "{file}");
        assert_eq!(back.chance_labels, tree.chance_labels, "{file}");
        assert_eq!(back.player_names, tree.player_names, "{file}");
        assert_eq!(back.stats(), tree.stats(), "{file}");
    }
    // Without labels too (what `tree` builds when it does not save).
    let game = load_interp("leduc.gala", &[]).unwrap();
    let bare = build(&game, &BuildOptions::default()).unwrap().0;
    let back = load(saved(&game, &bare).as_slice(), game.info(), &ANY).unwrap();
    assert_eq!((digest(&back), back.stats()), (digest(&bare), bare.stats()));
    assert_eq!(back.infoset_label(InfosetId(0)), "");
}

/// Leduc's value (OpenSpiel's, as in tests/src/solve.rs) from the tree read
/// back, with the returned profile's NashConv computed apart.
#[test]
fn a_tree_read_back_solves_to_the_known_value() {
    let (game, tree) = built("leduc.gala", &[]);
    let back = load(saved(&game, &tree).as_slice(), game.info(), &ANY).unwrap();
    let solve = crate::compiled::solve;
    let (value, probs, nash_conv) = solve(&back);
    assert!((value - -0.085_606_424_078).abs() < 1e-6, "{value}");
    assert!(nash_conv.abs() < 1e-9, "NashConv {nash_conv}");
    assert_eq!((value, probs), { (solve(&tree).0, solve(&tree).1) });
}

/// Replaces the trailing checksum with that of the bytes before it, as a
/// writer that meant them would.
fn resum(bytes: &mut [u8]) {
    let n = bytes.len() - 4;
    let crc = crc32(&bytes[..n]);
    bytes[n..].copy_from_slice(&crc.to_le_bytes());
}

/// CRC-32 (IEEE, reflected), written out here apart from the crate the
/// format uses.
fn crc32(bytes: &[u8]) -> u32 {
    !bytes.iter().fold(!0u32, |mut c, &b| {
        c ^= u32::from(b);
        for _ in 0..8 {
            c = if c & 1 != 0 { (c >> 1) ^ 0xedb8_8320 } else { c >> 1 };
        }
        c
    })
}

#[test]
fn each_damage_to_a_saved_tree_gives_its_error() {
    let (game, tree) = built("kuhn.gala", &[]);
    let good = saved(&game, &tree);
    let info = game.info();
    let read = |bytes: &[u8]| load(bytes, info, &ANY).map(|t| t.n_nodes());
    assert_eq!(read(&good).unwrap(), tree.n_nodes());
    // The checksum is CRC-32 of everything before it.
    assert_eq!(crc32(&good[..good.len() - 4]).to_le_bytes(), good[good.len() - 4..]);

    let mut magic = good.clone();
    magic[0] = b'X';
    assert!(matches!(read(&magic), Err(LoadError::Magic)));
    assert!(matches!(read(b"GAL"), Err(LoadError::Magic)));
    assert!(matches!(read(b"PK\x03\x04 a zip file"), Err(LoadError::Magic)));

    let mut version = good.clone();
    version[8..12].copy_from_slice(&(FORMAT_VERSION + 1).to_le_bytes());
    match read(&version) {
        Err(LoadError::Version { found }) => assert_eq!(found, FORMAT_VERSION + 1),
        other => panic!("{other:?}"),
    }

    // Every cut short of the whole file, past the magic and version.
    for len in 12..good.len() {
        assert!(matches!(read(&good[..len]), Err(LoadError::Truncated)), "cut at {len} of {}", good.len());
    }
    let mut longer = good.clone();
    longer.push(0);
    assert!(matches!(read(&longer), Err(LoadError::Invalid(_))));

    // One bit flipped in the node arrays, or in the checksum itself.
    for at in [good.len() / 2, good.len() - 1] {
        let mut flipped = good.clone();
        flipped[at] ^= 0x10;
        assert!(matches!(read(&flipped), Err(LoadError::Checksum)), "flip at {at}");
    }

    // A file whose checksum matches but whose root's children point
    // outside the tree: refused, not followed.
    let n = tree.n_nodes();
    let strings = |list: &mut dyn Iterator<Item = &String>| list.map(|s| 4 + s.len()).sum::<usize>();
    let params = strings(&mut info.params.iter().flat_map(|(k, v)| [k, v]));
    let header = 12 + 4 + info.name.len() + 8 + 8 + params + 8 + strings(&mut info.players.iter()) + 8 + 4 + 8;
    // One block: the nodes' data, then their first children.
    let first_child_of_root = header + 4 * n;
    let mut bad = good.clone();
    assert_eq!(u32::from_le_bytes(bad[first_child_of_root..first_child_of_root + 4].try_into().unwrap()), 1);
    bad[first_child_of_root..first_child_of_root + 4].copy_from_slice(&(n as u32).to_le_bytes());
    resum(&mut bad);
    assert!(matches!(read(&bad), Err(LoadError::Invalid(_))), "{:?}", read(&bad));
}

#[test]
fn a_tree_of_other_params_or_another_game_is_refused() {
    let (game, tree) = built("leduc.gala", &[]);
    let bytes = saved(&game, &tree);
    let other = load_interp("leduc.gala", &["ranks=4"]).unwrap();
    match load(bytes.as_slice(), other.info(), &ANY) {
        Err(e @ LoadError::OtherGame { .. }) => {
            let msg = e.to_string();
            assert!(msg.contains("ranks=3") && msg.contains("ranks=4"), "{msg}");
        }
        other => panic!("{:?}", other.map(|t| t.n_nodes())),
    }
    let kuhn = load_interp("kuhn.gala", &[]).unwrap();
    assert!(matches!(load(bytes.as_slice(), kuhn.info(), &ANY), Err(LoadError::OtherGame { .. })));
}

/// Both executions report the same game (name, players, params and the
/// checksum of the program that a saved tree is matched against), so a
/// tree saved by either is read by the other.
#[test]
fn compiled_games_report_the_interpreters_game_info() {
    use crate::compiled::{hostile_names, kuhn, leduc};
    use crate::games::instantiate;
    let cases = [
        ("kuhn.gala", &[][..], instantiate(&kuhn::Family, &[]).unwrap().info().clone()),
        ("leduc.gala", &["ranks=4"], instantiate(&leduc::Family, &["ranks=4"]).unwrap().info().clone()),
        ("tests/codegen/hostile_names.gala", &[], instantiate(&hostile_names::Family, &[]).unwrap().info().clone()),
    ];
    for (file, params, compiled) in cases {
        let interp = load_interp(file, params).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(interp.info(), &compiled, "{file} {params:?}");
        assert_ne!(compiled.program, 0, "{file}");
    }
}

/// A tree saved from one version of a program is refused for a version
/// whose rules differ (the same name, players and params: only the
/// program's checksum tells them apart), and read for a version that
/// differs in comments and layout only.
#[test]
fn a_tree_of_an_edited_program_is_refused_and_one_of_a_reformatted_program_is_read() {
    let (game, tree) = built("leduc.gala", &[]);
    let bytes = saved(&game, &tree);
    let source = std::fs::read_to_string(crate::repo_root().join("examples/leduc.gala")).unwrap();
    let interp = |text: &str| galac_compiler::driver::load_interp("leduc.gala", text.as_bytes(), &[]).unwrap();
    // A rule changed inside a function: a pair now counts for less.
    let edited = source.replace("return ranks * ranks + high;", "return ranks * ranks + high - 1;");
    assert_ne!(edited, source);
    match load(bytes.as_slice(), interp(&edited).info(), &ANY) {
        Err(e @ LoadError::OtherProgram { .. }) => assert!(e.to_string().contains("another version of `leduc`"), "{e}"),
        other => panic!("{:?}", other.map(|t| t.n_nodes())),
    }
    let reformatted = format!("// a new first comment\n\n{}", source.replace("    ", "        "));
    let back = load(bytes.as_slice(), interp(&reformatted).info(), &ANY).unwrap();
    assert_eq!(digest(&back), digest(&tree));
}

/// What a solver does with a tree read back: every walk the commands make,
/// and, on a two-player zero-sum tree, the LP's profile, whose NashConv
/// (computed by `evaluate`) must be 0 up to the payoffs' scale.
fn use_tree(t: &Tree) {
    let _ = (t.stats(), t.preorder(), digest(t));
    let mut efg = Vec::new();
    galac_app::formats::efg::write_efg(t, "t", "", &mut efg).unwrap();
    let _ = galac_solvers::treeplex::Treeplex::new(t);
    let Ok(sf) = galac_solvers::sequence_form::SequenceForm::new(t) else { return };
    let Ok(sol) = galac_solvers::lp::solve(&sf, galac_solvers::lp::Backend::Clarabel, None) else { return };
    let mut profile = galac_solvers::Profile::uniform(t);
    sf.behaviour(t, PlayerId(0), &sol.plans[0], &mut profile);
    sf.behaviour(t, PlayerId(1), &sol.plans[1], &mut profile);
    let eval = galac_solvers::best_response::evaluate(t, &profile);
    let scale = t.nodes().flat_map(|n| t.payoffs(n).to_vec()).map(|x| (x as f64).abs()).fold(1.0, f64::max);
    assert!(eval.nash_conv.abs() <= 1e-6 * scale, "NashConv {} at payoffs up to {scale}", eval.nash_conv);
}

/// A file with a valid checksum can hold anything: each byte of a saved
/// Kuhn (with labels) and of 300 spread bytes of a saved Leduc (without) is
/// changed in a few ways, the checksum made right again, and reading then
/// gives an error or a tree that every command walks and the LP solves
/// (checked as above), never a panic.
#[test]
fn no_file_with_a_valid_checksum_makes_reading_or_solving_panic() {
    let (kuhn, labelled) = built("kuhn.gala", &[]);
    let leduc = load_interp("leduc.gala", &[]).unwrap();
    let bare = build(&leduc, &BuildOptions::default()).unwrap().0;
    let mut loaded = 0;
    for (game, tree, positions) in [(&kuhn, &labelled, usize::MAX), (&leduc, &bare, 300)] {
        let good = saved(game, tree);
        let stride = (good.len() / positions).max(1);
        let original = digest(tree);
        for at in (0..good.len() - 4).step_by(stride) {
            let b = good[at];
            let mut values = vec![b ^ 1, b ^ 0x80, 0, 0xff, b.wrapping_add(1)];
            values.retain(|&v| v != b);
            for v in values {
                let mut bytes = good.clone();
                bytes[at] = v;
                resum(&mut bytes);
                let info = game.info();
                let outcome = std::panic::catch_unwind(|| match load(bytes.as_slice(), info, &ANY) {
                    // The same nodes and numbers (a label changed, say): solved already.
                    Ok(t) if digest(&t) == original => true,
                    Ok(t) => {
                        use_tree(&t);
                        true
                    }
                    Err(_) => false,
                });
                match outcome {
                    Ok(ok) => loaded += usize::from(ok),
                    Err(_) => panic!("{}: byte {at} of {} set to {v} (was {b}): a panic", game.info().name, good.len()),
                }
            }
        }
    }
    // Changes to labels and payoffs leave a tree to read: the loop did
    // reach the solvers.
    assert!(loaded > 100, "{loaded}");
}

/// `--max-nodes` and `--max-memory` apply to a tree read back, from the
/// counts in the file: a file that claims 2^40 nodes is refused before
/// anything is allocated for them.
#[test]
fn a_saved_tree_is_read_within_the_node_and_memory_limits() {
    let (game, tree) = built("leduc.gala", &[]);
    let good = saved(&game, &tree);
    let back = load(good.as_slice(), game.info(), &ANY).unwrap();
    let n = tree.n_nodes() as u64;
    let within = |max_nodes, max_bytes| {
        load(
            good.as_slice(),
            game.info(),
            &BuildOptions { max_nodes, memory: MemoryLimit::from_bytes(max_bytes), ..ANY },
        )
    };
    assert!(within(n, back.bytes()).is_ok());
    match within(n - 1, back.bytes()) {
        Err(LoadError::Limit(BuildError::TooManyNodes { limit })) => assert_eq!(limit, n - 1),
        other => panic!("{:?}", other.map(|t| t.n_nodes())),
    }
    assert!(matches!(within(n, back.bytes() - 1), Err(LoadError::Limit(BuildError::TooMuchMemory { .. }))));
    // Far below the node arrays' 8 bytes a node: refused at their counts.
    assert!(matches!(within(n, 4 * n), Err(LoadError::Limit(BuildError::TooMuchMemory { .. }))));
    // The node count follows the players: claim 2^40 nodes.
    let info = game.info();
    let strings = |list: &mut dyn Iterator<Item = &String>| list.map(|s| 4 + s.len()).sum::<usize>();
    let params = strings(&mut info.params.iter().flat_map(|(k, v)| [k, v]));
    let header = 12 + 4 + info.name.len() + 8 + 8 + params + 8 + strings(&mut info.players.iter());
    let mut huge = good.clone();
    assert_eq!(u64::from_le_bytes(huge[header..header + 8].try_into().unwrap()), n);
    huge[header..header + 8].copy_from_slice(&(1u64 << 40).to_le_bytes());
    resum(&mut huge);
    let read = |max_nodes| load(huge.as_slice(), info, &BuildOptions { max_nodes, ..ANY }).map(|t| t.n_nodes());
    assert!(matches!(read(ANY.max_nodes), Err(LoadError::Limit(BuildError::TooManyNodes { .. }))));
    assert!(matches!(read(u64::MAX), Err(LoadError::Limit(BuildError::TooMuchMemory { .. }))));

    // Endless params, as from a pipe: an empty name and value each, which
    // hold no string bytes, are still counted and stop at the limit.
    let mut head = good[..12].to_vec();
    head.extend_from_slice(&(info.name.len() as u32).to_le_bytes());
    head.extend_from_slice(info.name.as_bytes());
    head.extend_from_slice(&info.program.to_le_bytes());
    head.extend_from_slice(&(1u64 << 40).to_le_bytes());
    let endless = std::io::Read::chain(head.as_slice(), std::io::repeat(0));
    let small = BuildOptions { memory: MemoryLimit::from_bytes(64 << 20), ..ANY };
    assert!(matches!(load(endless, info, &small), Err(LoadError::Limit(BuildError::TooMuchMemory { .. }))));
}
