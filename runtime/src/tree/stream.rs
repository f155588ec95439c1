//! Saving a tree while it is built, for trees larger than memory.
//!
//! The saved format (docs/tree-format.md) holds the nodes in blocks of
//! [`BLOCK`] at offsets that depend only on the block's index, so a block
//! can be written as soon as its nodes are done. Nodes are numbered when
//! their parent is expanded and filled in when they are explored: a block
//! written out may still hold nodes waiting on the build stack. Those are
//! written as zeros, kept in a short list when they are explored ("late"
//! nodes: the build's pending siblings, a few per level of the tree), and
//! patched into their blocks at the end. The file's CRC-32 is combined from
//! the CRC of each block as finally written, so nothing is read twice but
//! the few patched blocks. The file equals the one [`super::save`] writes
//! for the tree built in memory, byte for byte.

use std::io::{self, Read, Seek, SeekFrom, Write};
use std::time::Instant;

use super::build::{explore, finish, Budget, ROOM_SETS, ROOM_STATES};
use super::nodes::{Stats, Tree};
use super::options::{BuildError, BuildOptions};
use super::outflow::{streamed_stats, BlockSink, Outflow, KEEP};
use super::saved::{block_bytes, header, write_tables, Summing, BLOCK};
use super::set_labels::KeptLabels;
use crate::game::{Game, GameInfo};
use crate::info::InfoInterner;

/// A saved tree being written: the header (counts left at zero), the
/// blocks at their offsets in any order, the late nodes patched in, then
/// the header again with the counts, the tables and the checksum.
pub(super) struct TreeFile<'a> {
    /// Behind `dyn`: the writing is compiled once, here, not again in each
    /// crate that builds a game's tree (the writer is used per block).
    out: &'a mut dyn Storage,
    header_len: u64,
    /// Per block written: the CRC-32 of its bytes and its node count.
    blocks: Vec<Option<(crc32fast::Hasher, usize)>>,
    buf: Vec<u8>,
}

/// Where a tree is saved as it is built: written, sought, and read back for
/// the patches (a file; a cursor in the tests).
pub trait Storage: Read + Write + Seek {}

impl<T: Read + Write + Seek> Storage for T {}

impl<'a> TreeFile<'a> {
    /// Starts the file `out` of a tree of the game `info` describes: its
    /// header, with the counts to come.
    pub(super) fn new(out: &'a mut dyn Storage, info: &GameInfo) -> io::Result<TreeFile<'a>> {
        let head = header(info, &info.players, 0, 0, 0);
        out.seek(SeekFrom::Start(0))?;
        out.write_all(&head)?;
        Ok(TreeFile { out, header_len: head.len() as u64, blocks: Vec::new(), buf: Vec::new() })
    }

    /// Where block `index` starts.
    fn offset(&self, index: u64) -> u64 {
        self.header_len + index * (8 * BLOCK) as u64
    }

    /// Fills in nodes written out before they were explored: `[node, data,
    /// first child]`, each in a block already written.
    pub(super) fn patch(&mut self, late: &mut [[u32; 3]]) -> io::Result<()> {
        late.sort_unstable_by_key(|l| l[0]);
        for group in late.chunk_by(|a, b| a[0] as usize / BLOCK == b[0] as usize / BLOCK) {
            let index = group[0][0] as usize / BLOCK;
            let Some(Some((_, n))) = self.blocks.get(index) else {
                return Err(io::Error::other("a node came after its block, which was not written"));
            };
            let (n, at) = (*n, self.offset(index as u64));
            self.buf.resize(8 * n, 0);
            self.out.seek(SeekFrom::Start(at))?;
            self.out.read_exact(&mut self.buf)?;
            for &[node, d, f] in group {
                let i = node as usize % BLOCK;
                self.buf[4 * i..4 * i + 4].copy_from_slice(&d.to_le_bytes());
                self.buf[4 * (n + i)..4 * (n + i) + 4].copy_from_slice(&f.to_le_bytes());
            }
            self.out.seek(SeekFrom::Start(at))?;
            self.out.write_all(&self.buf)?;
            let mut crc = crc32fast::Hasher::new();
            crc.update(&self.buf);
            self.blocks[index] = Some((crc, n));
        }
        Ok(())
    }

    /// Writes the header with the counts, the tables of `tree` (whose nodes
    /// are in the blocks) after the `n_nodes` nodes, with the set labels
    /// `kept` in a parallel build's parts after the tree's, and the checksum.
    pub(super) fn finish(mut self, tree: &Tree, info: &GameInfo, n_nodes: u64, kept: &[KeptLabels]) -> io::Result<()> {
        let n_blocks = n_nodes.div_ceil(BLOCK as u64) as usize;
        if self.blocks.len() != n_blocks || self.blocks.iter().any(Option::is_none) {
            return Err(io::Error::other("a block of nodes was not written"));
        }
        let head = header(info, &tree.player_names, n_nodes, tree.max_depth, tree.label_bytes);
        self.out.seek(SeekFrom::Start(0))?;
        self.out.write_all(&head)?;
        let mut crc = crc32fast::Hasher::new();
        crc.update(&head);
        for (block, _) in self.blocks.iter().flatten() {
            crc.combine(block);
        }
        self.out.seek(SeekFrom::Start(self.header_len + 8 * n_nodes))?;
        let mut w =
            Summing { inner: io::BufWriter::with_capacity(1 << 20, &mut self.out), crc: crc32fast::Hasher::new() };
        write_tables(&mut w, tree, kept)?;
        crc.combine(&w.crc);
        w.inner.write_all(&crc.finalize().to_le_bytes())?;
        w.inner.flush()
    }
}

impl BlockSink for TreeFile<'_> {
    fn put_block(&mut self, index: u64, data: &[u32], first_child: &[u32]) -> io::Result<()> {
        block_bytes(data, first_child, &mut self.buf);
        let at = self.offset(index);
        self.out.seek(SeekFrom::Start(at))?;
        self.out.write_all(&self.buf)?;
        let mut crc = crc32fast::Hasher::new();
        crc.update(&self.buf);
        let index = index as usize;
        if self.blocks.len() <= index {
            self.blocks.resize(index + 1, None);
        }
        self.blocks[index] = Some((crc, data.len()));
        Ok(())
    }
}

/// What a build that saved its tree as it went says of the tree.
#[derive(Clone, Debug)]
pub struct Saved {
    pub stats: Stats,
    /// As [`Tree::build_bytes`].
    pub build_bytes: u64,
    /// Seconds to build and write.
    pub seconds: f64,
}

/// Builds the tree of `game` on this thread and writes it to `out` as
/// [`super::save`] would (the same bytes), without holding its nodes:
/// blocks go out as the build finishes them.
pub fn build_saving<G: Game, W: Storage>(game: &G, opts: &BuildOptions, mut out: W) -> Result<Saved, BuildError> {
    build_saving_into(game, opts, &mut out)
}

/// [`build_saving`] into a borrowed file.
pub(crate) fn build_saving_into<G: Game>(
    game: &G,
    opts: &BuildOptions,
    out: &mut dyn Storage,
) -> Result<Saved, BuildError> {
    build_saving_keeping(game, opts, out, KEEP).map(|(saved, _)| saved)
}

/// [`build_saving`] keeping `keep` nodes in memory; also says how many
/// nodes came after their block.
fn build_saving_keeping<G: Game>(
    game: &G,
    opts: &BuildOptions,
    out: &mut dyn Storage,
    keep: usize,
) -> Result<(Saved, usize), BuildError> {
    let start = Instant::now();
    let write_error = |e: io::Error| BuildError::Write(e.to_string());
    let mut file = TreeFile::new(out, game.info()).map_err(write_error)?;
    let mut interner = InfoInterner::with_room(ROOM_STATES, ROOM_SETS);
    let mut outflow = Outflow { sink: Some(&mut file), keep, ..Outflow::none() };
    let roots = vec![game.root()?];
    let (mut tree, _) = explore(game, roots, None, None, None, opts, &mut interner, &Budget::default(), &mut outflow)?;
    let Outflow { base: n_nodes, mut late, kinds, .. } = outflow;
    // The node arrays' capacity is still the most the window held.
    finish(&mut tree, &interner, opts)?;
    tree.build_bytes += (late.capacity() * 12) as u64;
    file.patch(&mut late).map_err(write_error)?;
    file.finish(&tree, game.info(), n_nodes as u64, &[]).map_err(write_error)?;
    let stats = streamed_stats(&tree, n_nodes, kinds);
    Ok((Saved { stats, build_bytes: tree.build_bytes, seconds: start.elapsed().as_secs_f64() }, late.len()))
}

/// Writes `tree` to `out` as [`super::save`] does, its last block first,
/// cutting its node arrays as their blocks go out (so that writing holds
/// no more than the tree); returns its stats.
pub fn save_consuming<W: Storage>(tree: Tree, info: &GameInfo, mut out: W) -> io::Result<Stats> {
    save_consuming_into(tree, info, &mut out)
}

/// [`save_consuming`] into a borrowed file.
fn save_consuming_into(mut tree: Tree, info: &GameInfo, out: &mut dyn Storage) -> io::Result<Stats> {
    let stats = tree.stats();
    let n_nodes = tree.n_nodes();
    let mut file = TreeFile::new(out, info)?;
    for index in (0..n_nodes.div_ceil(BLOCK)).rev() {
        let from = index * BLOCK;
        file.put_block(index as u64, &tree.data[from..], &tree.first_child[from..])?;
        for v in [&mut tree.data, &mut tree.first_child] {
            v.truncate(from);
            // Every 16 MiB: each shrink is a call to the system.
            if index % 64 == 0 {
                v.shrink_to_fit();
            }
        }
    }
    file.finish(&tree, info, n_nodes as u64, &[])?;
    Ok(stats)
}

#[cfg(test)]
mod tests {
    use super::super::tests::deep;
    use super::{build_saving, build_saving_keeping, save_consuming, BLOCK};
    use crate::game::Game;
    use crate::tree::{build, load, save, BuildError, BuildOptions};
    use std::io::{self, Cursor, Read, Seek, SeekFrom, Write};

    /// A file that takes `room` bytes, then fails like a full disk.
    struct Full {
        file: Cursor<Vec<u8>>,
        room: u64,
    }

    impl Write for Full {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if self.file.position() + buf.len() as u64 > self.room {
                return Err(io::Error::other("no space left"));
            }
            self.file.write(buf)
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    impl Read for Full {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            self.file.read(buf)
        }
    }

    impl Seek for Full {
        fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
            self.file.seek(to)
        }
    }

    /// A write that fails stops the build with the write's error, wherever
    /// it fails: in the first blocks, the last, the tables.
    #[test]
    fn a_failed_write_stops_the_build_with_its_error() {
        let game = deep();
        let mut whole = Cursor::new(Vec::new());
        build_saving(&game, &BuildOptions::default(), &mut whole).unwrap();
        let size = whole.into_inner().len() as u64;
        for room in [10, 8 << 20, size - 100, size - 1] {
            let full = Full { file: Cursor::new(Vec::new()), room };
            match build_saving(&game, &BuildOptions::default(), full) {
                Err(BuildError::Write(e)) => assert!(e.contains("no space left"), "{e}"),
                other => panic!("room for {room} of {size} bytes: {:?}", other.map(|s| s.stats.nodes)),
            }
        }
    }

    /// A tree saved while it is built, with blocks written out early and
    /// nodes patched into them, is byte for byte the tree built in memory
    /// then saved (either way), and reads back to it.
    #[test]
    fn a_tree_saved_while_built_is_the_one_saved_after() {
        let game = deep();
        let opts = BuildOptions::default();
        let (tree, _, _) = build(&game, &opts).unwrap();
        let mut saved = Vec::new();
        save(&tree, game.info(), &mut saved).unwrap();
        let stats = tree.stats();
        let preorder = tree.preorder();
        let mut streamed = Cursor::new(Vec::new());
        let (report, late) = build_saving_keeping(&game, &opts, &mut streamed, BLOCK).unwrap();
        assert!(late > 10, "{late} nodes came after their block");
        assert_eq!(report.stats, stats);
        assert!(saved == streamed.into_inner(), "the streamed file differs");
        let mut consumed = Cursor::new(Vec::new());
        assert_eq!(save_consuming(tree, game.info(), &mut consumed).unwrap(), stats);
        assert!(saved == consumed.into_inner(), "the file written from the end differs");
        let back = load(&saved[..], game.info(), &opts).unwrap();
        assert_eq!((back.stats(), back.preorder()), (stats, preorder));
    }
}
