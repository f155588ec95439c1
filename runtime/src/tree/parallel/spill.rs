//! Saving a tree built on several threads without holding its nodes.
//!
//! Each part of the parallel build ([`super::threads`]) writes its nodes,
//! in its own numbering, to a scratch file of its own as it builds them,
//! block by block as a build on one thread writes the saved file
//! ([`crate::tree::stream`]): nodes reached after their block went out are kept
//! in a short list. The merge matches each part's information sets and
//! tables with the global ones ([`super::merge`]), then reads the part's
//! blocks back in order, maps and shifts each node, and writes the saved
//! file's blocks in order. The root's children (each part's first nodes,
//! in the file's first block) are patched in at the end. So the build holds
//! what the parts hold besides their nodes (their tables, labels and
//! interners) and a few blocks, and the file is byte for byte the one
//! [`crate::tree::save`] writes for the tree built in memory.

use std::io;
use std::time::Instant;

use super::merge::{prepare, Merging, Shift};
use super::parts::Part;
use super::scratch::MakeScratch;
use super::threads::{build_parts, split, Split};
use crate::game::{Game, Node};
use crate::info::InfoInterner;
use crate::tree::build::{finish, Budget};
use crate::tree::nodes::Tree;
use crate::tree::options::{BuildError, BuildOptions};
use crate::tree::outflow::{streamed_stats, BlockSink, Kinds};
use crate::tree::saved::BLOCK;
use crate::tree::set_labels::KeptLabels;
use crate::tree::stream::{build_saving_into, Saved, Storage, TreeFile};

/// Builds the tree of the game `make` creates on up to `threads` threads
/// and writes it to `out` as [`crate::tree::save`] would (the same bytes),
/// without holding its nodes: each part writes them to a scratch file that
/// `scratch` makes, and the merge copies them, renumbered, into `out`. As
/// [`crate::tree::build_parallel`] falls back to a build on one thread, this
/// falls back to [`crate::tree::build_saving`], and also when a scratch file cannot be
/// made, written or read back.
pub fn build_parallel_saving<G: Game, W: Storage>(
    make: &(dyn Fn() -> Option<G> + Sync),
    opts: &BuildOptions,
    threads: usize,
    mut out: W,
    scratch: &MakeScratch<'_>,
) -> Result<Saved, BuildError> {
    parallel_saving_into(make, opts, threads, &mut out, scratch)
}

/// [`build_parallel_saving`] into a borrowed file.
fn parallel_saving_into<G: Game>(
    make: &(dyn Fn() -> Option<G> + Sync),
    opts: &BuildOptions,
    threads: usize,
    out: &mut dyn Storage,
    scratch: &MakeScratch<'_>,
) -> Result<Saved, BuildError> {
    let start = Instant::now();
    let Split { game, mut global, state, root, bounds } = split(make, threads, opts)?;
    if bounds.is_empty() {
        return build_saving_into(&game, opts, out);
    }
    let budget = Budget::default();
    let parts = match build_parts(make, &bounds, opts, threads, &budget, Some(scratch), false) {
        // A scratch file that could not be made or written (the parts
        // write nothing else): on one thread, which needs none.
        Err(BuildError::Write(_)) => None,
        parts => parts?,
    };
    let Some(parts) = parts else { return build_saving_into(&game, opts, out) };
    let merged = match merge_saving(&game, &mut global, &state, root, parts, &bounds, opts, &budget, out) {
        Err(BuildError::TooMuchMemory { .. }) => None,
        merged => merged?,
    };
    // Too large to merge, parts that disagree on perfect recall, or a
    // scratch file that could not be read back: on one thread (which
    // writes every byte of the file again).
    let Some(mut saved) = merged else { return build_saving_into(&game, opts, out) };
    saved.seconds = start.elapsed().as_secs_f64();
    Ok(saved)
}

/// The saved file's blocks written in order as the merge makes its nodes;
/// the root's children, made last, patched in.
struct Ordered<'a> {
    file: TreeFile<'a>,
    data: Vec<u32>,
    first: Vec<u32>,
    /// Nodes pushed.
    n_nodes: u64,
    /// The root's children: node, data, first child.
    head: Vec<[u32; 3]>,
}

impl<'a> Ordered<'a> {
    /// The bytes it holds: a block's two arrays and its bytes.
    const BYTES: u64 = 16 * BLOCK as u64;

    fn new(file: TreeFile<'a>) -> Ordered<'a> {
        Ordered {
            file,
            data: Vec::with_capacity(BLOCK),
            first: Vec::with_capacity(BLOCK),
            n_nodes: 0,
            head: Vec::new(),
        }
    }

    /// Appends a node, and writes its block when full.
    #[inline]
    fn push(&mut self, d: u32, f: u32) -> io::Result<()> {
        self.data.push(d);
        self.first.push(f);
        self.n_nodes += 1;
        if self.data.len() == BLOCK {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        let index = (self.n_nodes - 1) / BLOCK as u64;
        self.file.put_block(index, &self.data, &self.first)?;
        self.data.clear();
        self.first.clear();
        Ok(())
    }

    /// Writes the last block, patches the root's children in, then the
    /// header, the tables of `tree` with the set labels `kept` in the parts
    /// and the checksum.
    fn finish(mut self, tree: &Tree, info: &crate::game::GameInfo, kept: &[KeptLabels]) -> io::Result<()> {
        if !self.data.is_empty() {
            self.flush()?;
        }
        self.file.patch(&mut self.head)?;
        self.file.finish(tree, info, self.n_nodes, kept)
    }
}

/// The root node, then the parts in child order, renumbered, written to
/// `out`; `None` if the parts disagree on perfect recall or a part's
/// scratch file cannot be read back.
#[allow(clippy::too_many_arguments)]
fn merge_saving<G: Game>(
    game: &G,
    global: &mut InfoInterner,
    root_state: &G::State,
    root: Node,
    mut parts: Vec<Part>,
    bounds: &[u32],
    opts: &BuildOptions,
    budget: &Budget,
    out: &mut dyn Storage,
) -> Result<Option<Saved>, BuildError> {
    let write_error = |e: io::Error| BuildError::Write(e.to_string());
    let n = *bounds.last().unwrap_or(&0);
    let (total, held) = prepare(&mut parts, budget, opts, false)?;
    let held = held + Ordered::BYTES;
    let (mut merging, root_data) = Merging::start(game, global, root_state, root, n, opts, held)?;
    // The parts' labels go to the file from where they are.
    merging.keep_labels();
    let mut ordered = Ordered::new(TreeFile::new(out, game.info()).map_err(write_error)?);
    let mut kinds = Kinds::default();
    kinds.add(&merging.tree, root_data, 1, 1);
    ordered.push(root_data, 1).map_err(write_error)?;
    // The root's children, filled in at the end from each part's roots.
    for _ in 0..n {
        ordered.push(0, 0).map_err(write_error)?;
    }
    let mut base = 1 + n;
    for (i, Part { tree: mut part, info, before, spill }) in parts.into_iter().enumerate() {
        let mut spill = spill.ok_or_else(|| BuildError::Write("a part's nodes were not written".into()))?;
        let shift = Shift { base, k: bounds[i + 1] - bounds[i] };
        let k = shift.k as usize;
        base += (spill.n_nodes - k) as u32;
        let Some(remap) = merging.add(&mut part, info, &before, i + 2 == bounds.len())? else {
            return Ok(None);
        };
        drop(part);
        kinds.absorb(std::mem::take(&mut spill.kinds));
        let head = 1 + bounds[i];
        let read = spill.read(|from, data, first| {
            for (j, (&d, &f)) in (from..).zip(data.iter().zip(first)) {
                let (d, f) = (remap.data(f, d), shift.first(f));
                if j < k {
                    ordered.head.push([head + j as u32, d, f]);
                } else {
                    ordered.push(d, f)?;
                }
            }
            Ok(())
        });
        match read {
            Ok(written) => written.map_err(write_error)?,
            Err(_) => return Ok(None),
        }
    }
    let (mut tree, kept) = (merging.tree, merging.kept.unwrap_or_default());
    if ordered.n_nodes != total as u64 {
        return Err(BuildError::Write("the parts' nodes are not the tree's".into()));
    }
    // The parts held the most at once while they were built, or the merge
    // did.
    tree.build_bytes = tree.build_bytes.max(budget.peak());
    opts.memory.check(tree.build_bytes)?;
    finish(&mut tree, global, opts)?;
    ordered.finish(&tree, game.info(), &kept).map_err(write_error)?;
    let mut stats = streamed_stats(&tree, total, kinds);
    // The tree's bytes as if it held every set's labels.
    stats.bytes += kept.iter().map(KeptLabels::index_bytes).sum::<u64>();
    Ok(Some(Saved { stats, build_bytes: tree.build_bytes, seconds: 0.0 }))
}

#[cfg(test)]
mod tests {
    use super::build_parallel_saving;
    use crate::game::Game;
    use crate::tree::test_games::sides;
    use crate::tree::tests::deep;
    use crate::tree::{build, save, BuildOptions};
    use crate::tree::{MakeScratch, Scratch};
    use std::io::{self, Cursor};

    /// A tree saved on two threads, each part's nodes through a scratch
    /// file (some reached after their block went out) and renumbered into
    /// blocks that do not start where the parts' did, is byte for byte the
    /// tree built in memory then saved.
    #[test]
    fn a_tree_saved_from_parts_is_the_one_saved_after() {
        let (tree, _, _) = build(&deep(), &BuildOptions::default()).unwrap();
        let mut saved = Vec::new();
        save(&tree, deep().info(), &mut saved).unwrap();
        let make = || Some(deep());
        let scratch = || -> io::Result<Box<dyn Scratch>> { Ok(Box::new(Cursor::new(Vec::new()))) };
        let mut streamed = Cursor::new(Vec::new());
        let report = build_parallel_saving(&make, &BuildOptions::default(), 2, &mut streamed, &scratch).unwrap();
        assert_eq!(report.stats, tree.stats());
        assert!(saved == streamed.into_inner(), "the file saved from parts differs");
        // Less than the tree's node arrays held.
        assert!(report.build_bytes < tree.node_bytes(), "{} bytes held", report.build_bytes);
    }

    /// With labels, the parts' new sets' labels, written from the parts
    /// after the merged tree's own, make the file one thread saves, with
    /// the same label bytes; whichever side is deeper.
    #[test]
    fn labels_written_from_the_parts_are_the_ones_saved_on_one_thread() {
        let scratch = || -> io::Result<Box<dyn Scratch>> { Ok(Box::new(Cursor::new(Vec::new()))) };
        for depths in [[2, 9], [9, 2], [6, 6]] {
            let game = || sides(depths);
            let opts = BuildOptions { labels: true, ..BuildOptions::default() };
            let (tree, _, _) = build(&game(), &opts).unwrap();
            let mut saved = Vec::new();
            save(&tree, game().info(), &mut saved).unwrap();
            let make = || Some(game());
            let mut streamed = Cursor::new(Vec::new());
            let report = build_parallel_saving(&make, &opts, 2, &mut streamed, &scratch).unwrap();
            assert_eq!(report.stats, tree.stats(), "depths {depths:?}");
            assert!(saved == streamed.into_inner(), "depths {depths:?}: the file saved from parts differs");
        }
    }

    /// A scratch file that cannot be read back (`read`), or written
    /// (not `read`).
    struct Broken {
        file: Cursor<Vec<u8>>,
        read: bool,
    }

    impl io::Read for Broken {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.read {
                return Err(io::Error::other("cannot read"));
            }
            self.file.read(buf)
        }
    }

    impl io::Write for Broken {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if !self.read {
                return Err(io::Error::other("cannot write"));
            }
            self.file.write(buf)
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    impl io::Seek for Broken {
        fn seek(&mut self, to: io::SeekFrom) -> io::Result<u64> {
            self.file.seek(to)
        }
    }

    /// A scratch file that cannot be made, written or read back: the tree
    /// is saved on one thread, the same bytes.
    #[test]
    fn a_scratch_file_that_fails_gives_the_save_on_one_thread() {
        let (tree, _, _) = build(&deep(), &BuildOptions::default()).unwrap();
        let mut saved = Vec::new();
        save(&tree, deep().info(), &mut saved).unwrap();
        let make = || Some(deep());
        // Scratch files asked for: the parallel path was taken and failed.
        let asked = std::sync::atomic::AtomicUsize::new(0);
        let ask = || asked.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let no_file = || -> io::Result<Box<dyn Scratch>> {
            ask();
            Err(io::Error::other("no scratch"))
        };
        let no_write = || -> io::Result<Box<dyn Scratch>> {
            ask();
            Ok(Box::new(Broken { file: Cursor::default(), read: false }))
        };
        let no_read = || -> io::Result<Box<dyn Scratch>> {
            ask();
            Ok(Box::new(Broken { file: Cursor::default(), read: true }))
        };
        for (what, scratch) in [("made", &no_file as &MakeScratch<'_>), ("written", &no_write), ("read", &no_read)] {
            asked.store(0, std::sync::atomic::Ordering::Relaxed);
            let mut out = Cursor::new(Vec::new());
            let report = build_parallel_saving(&make, &BuildOptions::default(), 2, &mut out, scratch);
            assert!(asked.load(std::sync::atomic::Ordering::Relaxed) > 0, "a scratch file not {what}: none asked for");
            assert_eq!(report.map(|r| r.stats).ok(), Some(tree.stats()), "a scratch file not {what}");
            assert!(saved == out.into_inner(), "a scratch file not {what}: another file");
        }
    }
}
