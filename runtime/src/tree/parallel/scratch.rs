//! Scratch files of a parallel build that saves its tree: each part
//! writes its nodes, block by block, to a [`Scratch`] file of its own
//! ([`PartFile`]) as it builds them, and the merge reads them back in
//! order ([`Spill`]); see [`super::spill`].

use std::io::{self, Read, Seek, SeekFrom, Write};

use crate::tree::outflow::{BlockSink, Kinds};
use crate::tree::saved::{block_bytes, block_words, BLOCK};

/// A scratch file: written, then read back from its start.
pub trait Scratch: Read + Write + Seek + Send {}

impl<T: Read + Write + Seek + Send> Scratch for T {}

/// Makes a new, empty scratch file (one per part of a parallel build; it
/// is dropped when the merge has read it).
pub type MakeScratch<'a> = dyn Fn() -> io::Result<Box<dyn Scratch>> + Sync + 'a;

/// A part's nodes on their way to its scratch file: its blocks, in order.
pub(super) struct PartFile {
    out: Box<dyn Scratch>,
    blocks: u64,
    buf: Vec<u8>,
}

impl PartFile {
    pub(super) fn new(out: Box<dyn Scratch>) -> PartFile {
        PartFile { out, blocks: 0, buf: Vec::new() }
    }
}

impl BlockSink for PartFile {
    fn put_block(&mut self, index: u64, data: &[u32], first_child: &[u32]) -> io::Result<()> {
        if index != self.blocks {
            return Err(io::Error::other("a part's blocks of nodes came out of order"));
        }
        block_bytes(data, first_child, &mut self.buf);
        self.out.write_all(&self.buf)?;
        self.blocks += 1;
        Ok(())
    }
}

/// A part's nodes, written to its scratch file as they were built.
pub(super) struct Spill {
    file: Box<dyn Scratch>,
    pub(super) n_nodes: usize,
    /// The nodes reached after their block was written (node, data, first
    /// child), by node.
    late: Vec<[u32; 3]>,
    /// Their kinds, counted with the part's sets (whose players are the
    /// global sets' players).
    pub(super) kinds: Kinds,
}

impl Spill {
    /// The bytes the merge holds to read a part's nodes back: a block's
    /// bytes and its two arrays.
    pub(super) const IN_FLIGHT: u64 = 16 * BLOCK as u64;

    pub(super) fn new(file: PartFile, n_nodes: usize, mut late: Vec<[u32; 3]>, kinds: Kinds) -> Spill {
        late.sort_unstable_by_key(|l| l[0]);
        Spill { file: file.out, n_nodes, late, kinds }
    }

    /// Bytes held (the late nodes).
    pub(super) fn bytes(&self) -> u64 {
        (self.late.capacity() * 12) as u64
    }

    /// Reads the nodes back from the start, a block at a time, the late
    /// ones patched in: calls `each` with the block's first node, its data
    /// and first children. The outer error is the scratch file's; the
    /// inner one, the first of `each`, which stops the reading.
    pub(super) fn read<E>(
        &mut self,
        mut each: impl FnMut(usize, &[u32], &[u32]) -> Result<(), E>,
    ) -> io::Result<Result<(), E>> {
        self.file.seek(SeekFrom::Start(0))?;
        let mut buf = vec![0u8; 8 * BLOCK];
        let (mut data, mut first) = (Vec::with_capacity(BLOCK), Vec::with_capacity(BLOCK));
        let mut late = self.late.iter().peekable();
        for from in (0..self.n_nodes).step_by(BLOCK) {
            let n = BLOCK.min(self.n_nodes - from);
            self.file.read_exact(&mut buf[..8 * n])?;
            data.clear();
            first.clear();
            block_words(&buf[..8 * n], &mut data, &mut first);
            while let Some(&&[node, d, f]) = late.peek() {
                let Some(i) = (node as usize).checked_sub(from).filter(|&i| i < n) else { break };
                (data[i], first[i]) = (d, f);
                late.next();
            }
            if let Err(e) = each(from, &data, &first) {
                return Ok(Err(e));
            }
        }
        match late.next() {
            Some(_) => Err(io::Error::other("a late node is not one of the part's")),
            None => Ok(Ok(())),
        }
    }
}
