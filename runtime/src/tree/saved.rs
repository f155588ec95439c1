//! A tree saved as bytes and read back, so that a solver can load a large
//! tree instead of building it again (the format: docs/tree-format.md).
//!
//! Little-endian throughout: the magic bytes, the format version, the
//! game's name, the checksum of its program, its params and players (a
//! tree of another game, of an edited program or of other params is refused), the node arrays and tables, then a CRC-32 of every
//! byte before it. The arrays go through in chunks, so neither side holds
//! a second copy of the tree. Reading checks every index a solver follows,
//! so a damaged file is an error, never a panic.

use std::io::{self, Read, Write};

use super::chances::Distributions;
use super::nodes::{ChanceNode, Infoset, Tree};
use super::options::{BuildError, BuildOptions};
use super::payoffs::PayoffTable;
use super::set_labels::KeptLabels;
use crate::game::GameInfo;
use crate::ids::{IdVec, PlayerId};
use crate::memory::MemoryLimit;
use crate::rational::Ratio;

/// The first bytes of a saved tree.
const MAGIC: [u8; 8] = *b"GALATREE";

/// The version of the format this code writes and reads.
pub const FORMAT_VERSION: u32 = 4;

/// Values converted per chunk of an array.
const CHUNK: usize = 1 << 16;

/// Nodes per block of the node section: a block holds its nodes' data,
/// then their first children, so that a builder can write a block as soon
/// as its nodes are done, before it knows how many nodes the tree has.
pub(super) const BLOCK: usize = 1 << 16;

/// Why a saved tree cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("not a saved galac tree (it does not start with the format's magic bytes)")]
    Magic,
    #[error("the saved tree is in format version {found}; this program reads version {FORMAT_VERSION}")]
    Version { found: u32 },
    #[error("the saved tree is truncated")]
    Truncated,
    #[error("the saved tree is damaged: its checksum does not match its contents")]
    Checksum,
    #[error("the saved tree is of {saved}, not of {wanted}")]
    OtherGame { saved: String, wanted: String },
    #[error("the saved tree was built from another version of `{name}`: the rules of the program differ; save it again from this version")]
    OtherProgram { name: String },
    #[error("the saved tree is inconsistent: {0}")]
    Invalid(String),
    #[error("cannot read the saved tree: {0}")]
    Io(io::Error),
    /// Over `--max-nodes` or `--max-memory`, found from the counts in the
    /// file before their arrays are allocated.
    #[error(transparent)]
    Limit(BuildError),
}

impl From<io::Error> for LoadError {
    fn from(e: io::Error) -> LoadError {
        if e.kind() == io::ErrorKind::UnexpectedEof {
            LoadError::Truncated
        } else {
            LoadError::Io(e)
        }
    }
}

/// A writer that keeps the CRC-32 of what passes through.
pub(super) struct Summing<W> {
    pub(super) inner: W,
    pub(super) crc: crc32fast::Hasher,
}

impl<W: Write> Summing<W> {
    fn bytes(&mut self, b: &[u8]) -> io::Result<()> {
        self.crc.update(b);
        self.inner.write_all(b)
    }

    fn u32(&mut self, v: u32) -> io::Result<()> {
        self.bytes(&v.to_le_bytes())
    }

    fn u64(&mut self, v: u64) -> io::Result<()> {
        self.bytes(&v.to_le_bytes())
    }

    fn str(&mut self, s: &str) -> io::Result<()> {
        let len = u32::try_from(s.len()).map_err(|_| io::Error::other("a label longer than 4 GiB"))?;
        self.u32(len)?;
        self.bytes(s.as_bytes())
    }

    fn strs(&mut self, list: &[String]) -> io::Result<()> {
        self.u64(list.len() as u64)?;
        list.iter().try_for_each(|s| self.str(s))
    }

    /// A count, then each item's little-endian words, a chunk at a time.
    fn array<T, const N: usize>(&mut self, items: &[T], words: impl Fn(&T) -> [u8; N]) -> io::Result<()> {
        self.u64(items.len() as u64)?;
        let mut buf = Vec::with_capacity(CHUNK * N);
        for chunk in items.chunks(CHUNK) {
            buf.clear();
            chunk.iter().for_each(|x| buf.extend_from_slice(&words(x)));
            self.bytes(&buf)?;
        }
        Ok(())
    }
}

/// Writes `tree`, a tree of the game `info` describes, to `out` (which the
/// caller buffers).
pub fn save(tree: &Tree, info: &GameInfo, out: impl Write) -> io::Result<()> {
    let mut w = Summing { inner: out, crc: crc32fast::Hasher::new() };
    w.bytes(&header(info, &tree.player_names, tree.n_nodes() as u64, tree.max_depth, tree.label_bytes))?;
    let mut buf = Vec::new();
    for (data, first) in tree.data.chunks(BLOCK).zip(tree.first_child.chunks(BLOCK)) {
        block_bytes(data, first, &mut buf);
        w.bytes(&buf)?;
    }
    write_tables(&mut w, tree, &[])?;
    let crc = w.crc.clone().finalize();
    w.inner.write_all(&crc.to_le_bytes())?;
    w.inner.flush()
}

/// The bytes before the node blocks: magic, version, game, program, params,
/// players, node count, max depth and label bytes (a fixed length for a
/// game, whatever the counts: a streamed save writes it first with zero
/// counts and again at the end).
pub(super) fn header(info: &GameInfo, players: &[String], n_nodes: u64, max_depth: u32, label_bytes: u64) -> Vec<u8> {
    let mut w = Summing { inner: Vec::new(), crc: crc32fast::Hasher::new() };
    let written: io::Result<()> = (|| {
        w.bytes(&MAGIC)?;
        w.u32(FORMAT_VERSION)?;
        w.str(&info.name)?;
        w.u64(info.program)?;
        w.u64(info.params.len() as u64)?;
        for (k, v) in &info.params {
            w.str(k)?;
            w.str(v)?;
        }
        w.strs(players)?;
        w.u64(n_nodes)?;
        w.u32(max_depth)?;
        w.u64(label_bytes)
    })();
    // Writing to a `Vec` fails only on a string over 4 GiB, which a game's
    // name, params and players never are.
    debug_assert!(written.is_ok());
    w.inner
}

/// A block of nodes as the file holds it: their data, then their first
/// children, little-endian (into `buf`, cleared first).
pub(super) fn block_bytes(data: &[u32], first_child: &[u32], buf: &mut Vec<u8>) {
    buf.clear();
    buf.reserve(8 * data.len());
    data.iter().chain(first_child).for_each(|x| buf.extend_from_slice(&x.to_le_bytes()));
}

/// Appends the nodes of a block as [`block_bytes`] wrote it (`8 * k`
/// bytes: `k` data words, then `k` first children).
pub(super) fn block_words(buf: &[u8], data: &mut Vec<u32>, first_child: &mut Vec<u32>) {
    let k = buf.len() / 8;
    let word = |w: &[u8]| u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
    data.extend(buf[..4 * k].chunks_exact(4).map(word));
    first_child.extend(buf[4 * k..8 * k].chunks_exact(4).map(word));
}

/// The tables after the node blocks, up to the checksum; the sets' labels
/// are the tree's, then those `kept` in a parallel build's parts.
pub(super) fn write_tables<W: Write>(w: &mut Summing<W>, tree: &Tree, kept: &[KeptLabels]) -> io::Result<()> {
    w.array(&tree.chances, |c| words([c.start, c.n, c.labels]))?;
    w.array(tree.dists.probs(), |r| {
        let mut b = [0; 16];
        b[..8].copy_from_slice(&r.num.to_le_bytes());
        b[8..].copy_from_slice(&r.den.to_le_bytes());
        b
    })?;
    w.u64(tree.payoffs.len() as u64)?;
    let values: Vec<i64> = (0..tree.payoffs.len() as u32).flat_map(|id| tree.payoffs.get(id).to_vec()).collect();
    w.array(&values, |x| x.to_le_bytes())?;
    w.array(&tree.infosets.raw, |s| words([s.player.0, s.index_in_player, s.n_actions]))?;
    w.u64((tree.set_labels.len() + kept.iter().map(KeptLabels::len).sum::<usize>()) as u64)?;
    for (label, actions) in tree.set_labels.iter().chain(kept.iter().flat_map(KeptLabels::iter)) {
        w.str(label)?;
        w.strs(actions)?;
    }
    w.strs(&tree.chance_labels)
}

/// Three `u32`s as 12 little-endian bytes.
fn words(v: [u32; 3]) -> [u8; 12] {
    let mut b = [0; 12];
    for (i, x) in v.iter().enumerate() {
        b[4 * i..4 * i + 4].copy_from_slice(&x.to_le_bytes());
    }
    b
}

/// A buffered reader that keeps the CRC-32 of what it has handed out,
/// summed a buffer at a time (per-value updates cost more than the reading).
struct Checking<R> {
    inner: R,
    buf: Box<[u8]>,
    /// Bytes handed out of `buf`, and the end of those read into it.
    pos: usize,
    end: usize,
    /// Bytes of `buf` before this are in `crc`.
    summed: usize,
    crc: crc32fast::Hasher,
    /// Bytes of the arrays and strings read so far, against `limit`.
    held: u64,
    limit: MemoryLimit,
}

impl<R: Read> Checking<R> {
    fn new(inner: R, limit: MemoryLimit) -> Checking<R> {
        let buf = vec![0; 1 << 16].into();
        Checking { inner, buf, pos: 0, end: 0, summed: 0, crc: crc32fast::Hasher::new(), held: 0, limit }
    }

    /// Counts `bytes` more in what the tree being read will hold: an error
    /// past the memory limit.
    fn hold(&mut self, bytes: u64) -> Result<(), LoadError> {
        self.held = self.held.saturating_add(bytes);
        self.limit.check(self.held).map_err(|e| LoadError::Limit(e.into()))
    }

    /// Counts `bytes` less: what was held as it was read but is not kept.
    fn release(&mut self, bytes: u64) {
        self.held = self.held.saturating_sub(bytes);
    }

    /// The CRC-32 of every byte handed out so far.
    fn sum(&mut self) -> u32 {
        self.crc.update(&self.buf[self.summed..self.pos]);
        self.summed = self.pos;
        self.crc.clone().finalize()
    }

    /// Fills `out`, a truncated file being an error.
    fn bytes(&mut self, out: &mut [u8]) -> Result<(), LoadError> {
        let mut done = 0;
        while done < out.len() {
            if self.pos == self.end {
                self.sum();
                self.pos = 0;
                self.summed = 0;
                self.end = loop {
                    match self.inner.read(&mut self.buf) {
                        Ok(0) => return Err(LoadError::Truncated),
                        Ok(n) => break n,
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                        Err(e) => return Err(e.into()),
                    }
                };
            }
            let k = (self.end - self.pos).min(out.len() - done);
            out[done..done + k].copy_from_slice(&self.buf[self.pos..self.pos + k]);
            self.pos += k;
            done += k;
        }
        Ok(())
    }

    /// Whether the input has no bytes left.
    fn at_end(&mut self) -> Result<bool, LoadError> {
        Ok(self.pos == self.end && self.inner.read(&mut [0])? == 0)
    }

    fn u32(&mut self) -> Result<u32, LoadError> {
        let mut b = [0; 4];
        self.bytes(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }

    fn u64(&mut self) -> Result<u64, LoadError> {
        let mut b = [0; 8];
        self.bytes(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }

    fn str(&mut self) -> Result<String, LoadError> {
        let len = self.u32()? as usize;
        self.hold(len as u64)?;
        // Grown a chunk at a time: a damaged length fails at the file's
        // end rather than by asking for 4 GiB first.
        let mut buf = Vec::new();
        while buf.len() < len {
            let from = buf.len();
            buf.resize(len.min(from + CHUNK), 0);
            self.bytes(&mut buf[from..])?;
        }
        String::from_utf8(buf).map_err(|_| LoadError::Invalid("a label is not UTF-8".into()))
    }

    fn strs(&mut self) -> Result<Vec<String>, LoadError> {
        let n = self.u64()?;
        // Grown as strings arrive: a damaged count fails at the file's end
        // rather than by asking for its memory first.
        let mut out = Vec::new();
        for _ in 0..n {
            self.hold(std::mem::size_of::<String>() as u64)?;
            out.push(self.str()?);
        }
        Ok(out)
    }

    /// The `n` nodes' blocks (see [`BLOCK`]), at most `max` nodes.
    fn node_blocks(&mut self, n: u64, max: u64) -> Result<(Vec<u32>, Vec<u32>), LoadError> {
        if n > max {
            return Err(LoadError::Limit(BuildError::TooManyNodes { limit: max }));
        }
        self.hold(n.saturating_mul(8))?;
        let n = usize::try_from(n).map_err(|_| LoadError::Invalid("an array too large".into()))?;
        let (mut data, mut first) = (Vec::new(), Vec::new());
        for v in [&mut data, &mut first] {
            v.try_reserve_exact(n).map_err(|_| LoadError::Invalid(format!("{n} nodes")))?;
        }
        let mut buf = vec![0; 8 * BLOCK.min(n)];
        while data.len() < n {
            let k = BLOCK.min(n - data.len());
            self.bytes(&mut buf[..8 * k])?;
            block_words(&buf[..8 * k], &mut data, &mut first);
        }
        Ok((data, first))
    }

    /// An array as [`Summing::array`] writes it.
    fn array<T, const N: usize>(&mut self, item: impl Fn([u8; N]) -> T) -> Result<Vec<T>, LoadError> {
        self.array_within(u64::MAX, item)
    }

    /// An array of at most `max` entries (the node array, under the node
    /// limit).
    fn array_within<T, const N: usize>(&mut self, max: u64, item: impl Fn([u8; N]) -> T) -> Result<Vec<T>, LoadError> {
        let count = self.u64()?;
        if count > max {
            return Err(LoadError::Limit(BuildError::TooManyNodes { limit: max }));
        }
        self.hold(count.saturating_mul(std::mem::size_of::<T>() as u64))?;
        let n = usize::try_from(count).map_err(|_| LoadError::Invalid("an array too large".into()))?;
        let mut out = Vec::new();
        out.try_reserve_exact(n).map_err(|_| LoadError::Invalid(format!("an array of {n} entries")))?;
        let mut buf = vec![0; CHUNK.min(n) * N];
        while out.len() < n {
            let k = CHUNK.min(n - out.len());
            self.bytes(&mut buf[..k * N])?;
            out.extend(buf[..k * N].chunks_exact(N).map(|b| item(b.try_into().expect("chunks of N bytes"))));
        }
        Ok(out)
    }
}

/// Reads a tree that [`save`] wrote for the game `info` describes from
/// `input` (which it buffers itself), within the node and memory limits of
/// `opts` (checked on the counts in the file, before the arrays are
/// allocated, then on the tree read).
pub fn load(input: impl Read, info: &GameInfo, opts: &BuildOptions) -> Result<Tree, LoadError> {
    let mut r = Checking::new(input, opts.memory);
    let mut magic = [0; 8];
    match r.bytes(&mut magic) {
        Err(LoadError::Truncated) => return Err(LoadError::Magic),
        other => other?,
    }
    if magic != MAGIC {
        return Err(LoadError::Magic);
    }
    let found = r.u32()?;
    if found != FORMAT_VERSION {
        return Err(LoadError::Version { found });
    }
    let name = r.str()?;
    let program = r.u64()?;
    let mut params = Vec::new();
    for _ in 0..r.u64()? {
        // Counted like every string list: a damaged or hostile count of
        // params is refused at the memory limit, not read until it is hit.
        r.hold(std::mem::size_of::<(String, String)>() as u64)?;
        params.push((r.str()?, r.str()?));
    }
    let players = r.strs()?;
    if name != info.name || params != info.params || players != info.players {
        let saved = GameInfo { name, players, params, program };
        return Err(LoadError::OtherGame { saved: describe(&saved), wanted: describe(info) });
    }
    if program != info.program {
        return Err(LoadError::OtherProgram { name });
    }
    let mut tree = Tree::empty(players);
    let n_nodes = r.u64()?;
    tree.max_depth = r.u32()?;
    tree.label_bytes = r.u64()?;
    (tree.data, tree.first_child) = r.node_blocks(n_nodes, opts.max_nodes)?;
    tree.chances = r.array(|b: [u8; 12]| {
        let w = |i: usize| u32::from_le_bytes(b[4 * i..4 * i + 4].try_into().expect("4 bytes"));
        ChanceNode { start: w(0), n: w(1), labels: w(2) }
    })?;
    let probs = r.array(|b: [u8; 16]| Ratio {
        num: u64::from_le_bytes(b[..8].try_into().expect("8 bytes")),
        den: u64::from_le_bytes(b[8..].try_into().expect("8 bytes")),
    })?;
    let n_vectors = r.u64()?;
    let values = r.array(i64::from_le_bytes)?;
    tree.infosets = IdVec::from(r.array(|b: [u8; 12]| {
        let w = |i: usize| u32::from_le_bytes(b[4 * i..4 * i + 4].try_into().expect("4 bytes"));
        Infoset { player: PlayerId(w(0)), index_in_player: w(1), n_actions: w(2) }
    })?);
    for _ in 0..r.u64()? {
        r.hold(super::set_labels::SET_INDEX_BYTES)?;
        let (label, actions) = (r.str()?, r.strs()?);
        let kept = tree.set_labels.push(&label, &actions);
        // Held as read; a list of action labels kept already is not held again.
        r.release(label.len() as u64 + super::set_labels::list_bytes(&actions) - kept);
    }
    tree.chance_labels = r.strs()?;
    let sum = r.sum();
    if r.u32()? != sum {
        return Err(LoadError::Checksum);
    }
    if !r.at_end()? {
        return Err(LoadError::Invalid("bytes after the checksum".into()));
    }
    tree.fill_set_actions();
    fill_tables(&mut tree, &probs, n_vectors, &values)?;
    super::validate::check(&tree).map_err(LoadError::Invalid)?;
    tree.shrink_to_fit();
    opts.memory.check(tree.bytes()).map_err(|e| LoadError::Limit(e.into()))?;
    Ok(tree)
}

/// "name (k=v, ...)" of a game, for [`LoadError::OtherGame`].
fn describe(info: &GameInfo) -> String {
    let params: Vec<String> = info.params.iter().map(|(k, v)| format!("{k}={v}")).collect();
    if params.is_empty() {
        info.name.clone()
    } else {
        format!("{} ({})", info.name, params.join(", "))
    }
}

/// Fills the chance distributions and payoff vectors in as the builder
/// does (the same ids, checks and lookup tables), renumbering the nodes'
/// references if the file lists a table entry twice.
fn fill_tables(tree: &mut Tree, probs: &[Ratio], n_vectors: u64, values: &[i64]) -> Result<(), LoadError> {
    let n = tree.n_players as usize;
    if values.len() as u64 != n_vectors.saturating_mul(n as u64) {
        return Err(LoadError::Invalid(format!("{} payoff values for {n_vectors} vectors", values.len())));
    }
    let mut dists = Distributions::default();
    for c in &mut tree.chances {
        let run = probs
            .get(c.start as usize..c.start as usize + c.n as usize)
            .ok_or_else(|| LoadError::Invalid("a chance node's probabilities are out of range".into()))?;
        c.start = dists.intern(run, c.n).map_err(|e| LoadError::Invalid(e.to_string()))?;
    }
    tree.dists = dists;
    let mut payoffs = PayoffTable::new(n);
    let ids: Vec<u32> = (0..n_vectors as usize).map(|i| payoffs.intern(&values[i * n..(i + 1) * n])).collect();
    tree.payoffs = payoffs;
    for (d, &first) in tree.data.iter_mut().zip(&tree.first_child) {
        if first == 0 {
            *d = *ids.get(*d as usize).ok_or_else(|| LoadError::Invalid("a leaf's payoffs are out of range".into()))?;
        }
    }
    Ok(())
}
