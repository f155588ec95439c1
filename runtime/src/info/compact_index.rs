//! A hash index of dense ids whose keys live elsewhere (the trie's entries,
//! the information sets' keys) in four bytes a slot: open addressing over
//! `u32` slots, at most four fifths full, each key homed near an id it
//! names (see [`CompactIndex::home`]).
//!
//! Keys homed near one id lie in a run after its home, so a `near` id with
//! many keys (a state dealt one of 100,000 cards: as many trie edges)
//! would make a run as long, probed by every lookup under it: a build
//! quadratic in the deal's width. A lookup therefore probes at most a
//! window of slots from a key's home ([`CompactIndex::window`]); a key whose
//! window was full when it was placed goes to an overflow index homed by
//! its whole hash, where a lookup whose window is full looks next.
//!
//! Ids stay below the slot count (an index holds at most that many ids), so
//! a slot holds its id plus one in its low `bits` bits and, above them,
//! bits of the key's hash that tell most other keys apart without reading
//! them. A lookup compares a stored key only when those bits agree; keys
//! are always compared in full before an id is returned. Four bytes a
//! slot, rather than a child table per state, is what lets a game of
//! millions of states and sets keep its interner small next to its tree
//! (docs/perf/tree-build.md, "The interner").

use super::id_index::IdIndex;

/// Multiplier of the interner's hashes (odd, well mixed).
pub(super) const K: u64 = 0xf135_7aea_2e62_a9c5;

/// The hash of a key of two words, for [`CompactIndex`] (its top bits
/// spread keys near one home, its middle bits are kept in the slot).
#[inline]
pub(super) fn pair_hash(a: u32, b: u32) -> u64 {
    let h = (u64::from(a) << 32 | u64::from(b)).wrapping_mul(K);
    (h ^ (h >> 29)).wrapping_mul(K)
}

/// How many slots the children of one `near` id spread over.
const SPREAD_BITS: u32 = 5;

/// The most slots a lookup probes from a key's home before it looks in the
/// overflow (in an index at most 8/11 full, a run this long is rare by
/// chance: the window fills where a `near` id has more keys than that).
const WINDOW: usize = 256;

/// Homes per `near` id, in 256ths, of an index with one id per `near` id
/// (the trie's edges, homed near their parents): 11/8, so that the table
/// is at most about 8/11 full where it is written: fuller (5/4), lookups
/// probe several times as many slots; emptier (3/2), a two-thread build's
/// peak passes 1.3x the tree (docs/perf/tree-build.md, "The interner").
const EDGE_SCALE: u64 = 352;
/// The most homes per `near` id, in 256ths, of a [`CompactIndex::scaled`]
/// index: 5/4, so that it is at most four fifths full where it is written
/// (its lookups probe about two slots: blind tic-tac-toe's sets).
const FULL_SCALE: u64 = 320;
/// The least scale of a [`CompactIndex::scaled`] index.
const MIN_SCALE: u64 = 16;
/// The window of a scaled index below [`FULL_SCALE`]: a key that does not
/// fit within this many slots of its home means its ids are denser there
/// than its scale says, and they are homed at [`FULL_SCALE`] again.
const CROWDED: usize = 1024;

pub(super) struct CompactIndex {
    /// 0 for an empty slot, else `check | (id + 1)`. The table has `1 <<
    /// bits` slots, all reserved, but only those below `slots.len()` are
    /// written (zeroed as a write reaches them); the others are empty.
    /// Keys are homed near their ids, so a small game uses the start of the
    /// table and never touches the rest (zeroing it all would cost a small
    /// game's fresh build page faults for tables it never uses).
    slots: Vec<u32>,
    /// log2 of the slot count (at most 31: ids stay below 2^31).
    bits: u32,
    /// The ids held, in the slots and the overflow.
    len: usize,
    /// Homes per `near` id, in 256ths ([`FULL_SCALE`] unless scaled).
    scale: u64,
    /// Whether `scale` follows the ids per `near` id (see
    /// [`CompactIndex::scaled`]); the largest `near` id met by
    /// [`CompactIndex::reach`].
    scaled: bool,
    max_near: u32,
    /// The keys whose window was full when they were placed, by their
    /// whole hash. No key is removed from the slots, so a window once full
    /// stays full until the slots are placed again, which places these
    /// keys again too ([`CompactIndex::settle`]).
    overflow: IdIndex,
}

/// Where a key not found goes: a slot, or the overflow's slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Vacant {
    Slot(usize),
    Overflow(usize),
}

impl CompactIndex {
    /// Room for `ids` ids, each its own `near` id (the trie's edges),
    /// before the table grows.
    pub(super) fn with_capacity(ids: usize) -> CompactIndex {
        CompactIndex::homed(ids, EDGE_SCALE, false)
    }

    /// Room for `ids` ids homed at `scale` (at least [`FULL_SCALE`]).
    fn homed(ids: usize, scale: u64, scaled: bool) -> CompactIndex {
        let mut bits = 8;
        while (ids as u64 * scale) >> 8 >= 1 << bits {
            bits += 1;
        }
        CompactIndex {
            slots: Vec::with_capacity(1 << bits),
            bits,
            len: 0,
            scale,
            scaled,
            max_near: 0,
            overflow: IdIndex::new(),
        }
    }

    /// As [`CompactIndex::with_capacity`], for keys homed near ids of
    /// another kind (the information sets, near their states), fewer than
    /// those: the homes are scaled by the ids per `near` id so far each
    /// time the table grows, and the table is written about as far as the
    /// ids need: a game with fewer sets than states (blind tic-tac-toe has
    /// 0.68 a state) would otherwise write slots for sets it never has. A
    /// key placed far from its home
    /// ([`CROWDED`]) homes them at 5/4 a state again.
    pub(super) fn scaled(ids: usize) -> CompactIndex {
        CompactIndex::homed(ids, FULL_SCALE, true)
    }

    /// The slot count (a power of two).
    #[inline]
    fn size(&self) -> usize {
        1 << self.bits
    }

    /// Slot `i`: 0 if it is empty (or not written yet).
    #[inline]
    fn slot(&self, i: usize) -> u32 {
        self.slots.get(i).copied().unwrap_or(0)
    }

    /// Writes slot `i`, zeroing the unwritten slots up to it first (a
    /// page at a time: one call per 1,024 slots, not per new key).
    #[inline]
    fn set(&mut self, i: usize, s: u32) {
        if i >= self.slots.len() {
            self.slots.resize((i + 1).next_multiple_of(1024).min(self.size()), 0);
        }
        self.slots[i] = s;
    }

    /// The hash bits kept in a slot for hash `h` (bits 32.. of the hash,
    /// above the id's bits; the home slot comes from its top bits).
    #[inline]
    fn check(&self, h: u64) -> u32 {
        ((h >> 32) as u32) << self.bits
    }

    /// A key's home: its `near` id (a trie edge's parent, a set's state)
    /// scaled ([`EDGE_SCALE`] for the edges), plus a few bits of its hash.
    /// The keys of states made close together in a depth-first build lie
    /// close together, like those states, so a lookup under a state made or
    /// used recently reads memory in cache (homes from the hash alone cost
    /// a cache miss per lookup: docs/perf/tree-build.md, "The interner").
    #[inline]
    fn home(&self, h: u64, near: u32) -> usize {
        (self.base(near) + (h >> (64 - SPREAD_BITS)) as usize) & (self.size() - 1)
    }

    /// The first home of the keys near `near`.
    #[inline]
    fn base(&self, near: u32) -> usize {
        ((u64::from(near) * self.scale) >> 8) as usize
    }

    /// The id of hash `h` and `near` id whose key `is_key` accepts, or
    /// where such an id goes (for [`CompactIndex::insert`]).
    #[inline]
    pub(super) fn find(&self, h: u64, near: u32, mut is_key: impl FnMut(u32) -> bool) -> Result<u32, Vacant> {
        let check = self.check(h);
        let low = (1u32 << self.bits).wrapping_sub(1);
        let mask = self.size() - 1;
        let mut i = self.home(h, near);
        for _ in 0..self.window() {
            let s = self.slot(i);
            if s == 0 {
                return Err(Vacant::Slot(i));
            }
            if s & !low == check && is_key((s & low) - 1) {
                return Ok((s & low) - 1);
            }
            i = (i + 1) & mask;
        }
        self.overflow.find(h, is_key).map_err(Vacant::Overflow)
    }

    /// The most slots a lookup probes from a key's home: [`WINDOW`], or
    /// [`CROWDED`] in a scaled index below full scale, where a key placed
    /// that far from its home means the ids are denser than the scale
    /// says ([`CompactIndex::insert`] homes them at full scale again).
    #[inline]
    fn window(&self) -> usize {
        if self.scale < FULL_SCALE {
            CROWDED
        } else {
            WINDOW
        }
    }

    /// Puts `id`, of hash `h` and `near` id `near`, where a
    /// [`CompactIndex::find`] of `h` has just said it goes (nothing added
    /// since). `hash` gives the hash and the `near` id of any id held, to
    /// place them again when the table grows.
    #[inline]
    pub(super) fn insert(&mut self, at: Vacant, h: u64, near: u32, id: u32, hash: impl Fn(u32) -> (u64, u32)) {
        debug_assert!((id as usize) < self.size() - 1);
        self.max_near = self.max_near.max(near);
        self.len += 1;
        self.put(at, h, id);
        // The edges' homes reach past four fifths of the table (11/8 slots
        // an id): it grows before they wrap around its end. The overflow's
        // ids count too: every id must fit in a slot's id bits.
        if self.len * 5 > self.size() * 4 || self.base(self.max_near) >= self.size() {
            self.grow(hash);
        } else if matches!(at, Vacant::Overflow(_)) && self.scale < FULL_SCALE {
            self.scale_up(hash);
        }
    }

    /// Writes `id`, of hash `h`, where a [`CompactIndex::find`] said it goes.
    #[inline]
    fn put(&mut self, at: Vacant, h: u64, id: u32) {
        match at {
            Vacant::Slot(slot) => self.set(slot, self.check(h) | (id + 1)),
            Vacant::Overflow(slot) => self.overflow.insert(slot, h, id),
        }
    }

    /// Homes the keys at [`FULL_SCALE`] again: a scaled index whose window
    /// filled holds ids denser than its scale says.
    #[cold]
    #[inline(never)]
    fn scale_up(&mut self, hash: impl Fn(u32) -> (u64, u32)) {
        (self.scale, self.scaled) = (FULL_SCALE, false);
        let mut bits = self.bits;
        while (u64::from(self.max_near) * FULL_SCALE) >> 8 >= 1 << bits {
            bits += 1;
        }
        self.place(bits, hash);
    }

    /// Grows the table until the home of `near` lies in its lower four
    /// fifths, for an index whose `near` ids are not its own ids (the
    /// information sets, homed near their states). `hash` is as
    /// for [`CompactIndex::insert`].
    #[inline]
    pub(super) fn reach(&mut self, near: u32, hash: impl Fn(u32) -> (u64, u32)) {
        self.max_near = self.max_near.max(near);
        while self.base(near) >= self.size() {
            self.grow(&hash);
        }
    }

    /// Doubles the table; a scaled index first sets its scale from its ids
    /// per `near` id so far (at least [`MIN_SCALE`], a sixteenth above the
    /// ratio so that the table is a little less than four fifths full).
    #[cold]
    #[inline(never)]
    fn grow(&mut self, hash: impl Fn(u32) -> (u64, u32)) {
        let mut scale = self.scale;
        if self.scaled {
            let per_near = FULL_SCALE * 17 * self.len as u64 / (16 * (u64::from(self.max_near) + 1));
            scale = per_near.clamp(MIN_SCALE, FULL_SCALE);
        }
        if scale == self.scale {
            self.double(hash);
        } else {
            self.scale = scale;
            self.place(self.bits + 1, hash);
        }
    }

    /// Doubles the table, the homes unchanged: a key keeps its slot, its
    /// hash bits moved up past the wider id field, with no key read
    /// (placing every key again would read each key for its hash, a cache
    /// miss each), but for the keys from the first slot to the
    /// first empty one past the homes that wrapped around the table's end:
    /// those, and the keys placed past the end, are placed again.
    #[cold]
    #[inline(never)]
    fn double(&mut self, hash: impl Fn(u32) -> (u64, u32)) {
        let size = self.size();
        // The homes at or past `size` wrapped to the slots below `wrapped`.
        let top = self.base(self.max_near) + (1 << SPREAD_BITS);
        if top >= 2 * size {
            return self.place(self.bits + 1, hash);
        }
        let wrapped = top.saturating_sub(size);
        // A key past the first empty slot at or past `wrapped` lies at or
        // after its home, which lies past that slot: it stays.
        let mut run = wrapped.min(self.slots.len());
        while self.slot(run) != 0 {
            run += 1;
        }
        let low = (1u32 << self.bits) - 1;
        let again: Vec<u32> = self.slots[..run].iter().filter(|&&s| s != 0).map(|&s| (s & low) - 1).collect();
        // In place: the table's room grows by `realloc`, which remaps a
        // large block rather than copying it, so the written slots keep
        // their pages (a new table written beside the old one would fault
        // in every written page again and hold both at once).
        self.slots.reserve_exact(2 * size - self.slots.len());
        self.slots[..run].fill(0);
        for s in &mut self.slots[run..] {
            *s = (*s & !low) << 1 | (*s & low);
        }
        self.bits += 1;
        self.settle(again, hash);
    }

    /// Places the keys again in a table of `1 << bits` slots.
    #[cold]
    #[inline(never)]
    fn place(&mut self, bits: u32, hash: impl Fn(u32) -> (u64, u32)) {
        let low = (1u32 << self.bits) - 1;
        let old = std::mem::take(&mut self.slots);
        self.bits = bits;
        self.slots = Vec::with_capacity(self.size());
        // The keys keep their homes (those that wrapped around move up)
        // unless the scale changed: the new table is written about as far
        // as the old one was, or as the new homes need.
        self.settle(old.into_iter().filter(|&s| s != 0).map(|s| (s & low) - 1), hash);
    }

    /// Places `ids` (taken out of the slots) and then the overflow's keys:
    /// the slots moved, so a key's window may have room now, and a window
    /// that was full may not be (its home wrapped around the end before).
    fn settle(&mut self, ids: impl IntoIterator<Item = u32>, hash: impl Fn(u32) -> (u64, u32)) {
        let overflow = std::mem::replace(&mut self.overflow, IdIndex::new());
        for id in ids.into_iter().chain(overflow.ids()) {
            let (h, near) = hash(id);
            let at = self.find(h, near, |_| false).expect_err("no key is accepted");
            self.put(at, h, id);
        }
    }

    /// Bytes in use: the written slots (the reserved rest is never
    /// touched, so it takes no memory) and the overflow.
    pub(super) fn bytes(&self) -> usize {
        self.slots.len() * 4 + self.overflow.bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::{pair_hash, CompactIndex};

    #[test]
    fn ids_are_found_by_their_full_key_after_growth() {
        // Keys whose hashes collide entirely (k and k + 5000 hash alike):
        // only the key check tells them apart. With near homes, many keys
        // share a near id (k / 40) and the last ones lie near the top.
        let hash = |k: u32| pair_hash(k % 5000, 7);
        for spread in [1, 30] {
            let near = |k: u32| (k % 5000) / 40 * spread;
            let mut index = CompactIndex::with_capacity(0);
            let keys: Vec<u32> = (0..3000).chain(5000..6000).collect();
            for (id, &k) in keys.iter().enumerate() {
                let slot = index.find(hash(k), near(k), |i| keys[i as usize] == k).expect_err("not added yet");
                index.insert(slot, hash(k), near(k), id as u32, |i| (hash(keys[i as usize]), near(keys[i as usize])));
            }
            for (id, &k) in keys.iter().enumerate() {
                assert_eq!(index.find(hash(k), near(k), |i| keys[i as usize] == k), Ok(id as u32));
            }
            assert!(index.find(hash(4000), near(4000), |i| keys[i as usize] == 4000).is_err());
            assert!(index.find(hash(6000), near(6000), |i| keys[i as usize] == 6000).is_err());
            // The table grew to hold them; each key took a written slot.
            assert!(index.slots.capacity() >= 4000 * 5 / 4);
            assert!(index.bytes() >= 4000 * 4);
        }
    }

    /// Adds `keys` (id `k` for the `k`-th; its key and `near` id from
    /// `key`) to `index` as the interner adds sets, reaching each `near`
    /// first; then finds each.
    fn add_and_find(index: &mut CompactIndex, n: u32, key: impl Fn(u32) -> (u64, u32)) {
        for k in 0..n {
            let (h, near) = key(k);
            index.reach(near, &key);
            let slot = index.find(h, near, |i| i == k).expect_err("not added yet");
            index.insert(slot, h, near, k, &key);
        }
        for k in 0..n {
            let (h, near) = key(k);
            assert_eq!(index.find(h, near, |i| i == k), Ok(k));
        }
        assert!(index.find(pair_hash(n, 1), key(n).1, |i| i == n).is_err());
    }

    /// A scaled index homes its keys by its ids per `near` id: with one
    /// key every third `near` id, it is written over about 5/4 slots a
    /// key, where homes at 11/8 slots a `near` id (the edges') write 4.1.
    #[test]
    fn a_scaled_index_is_written_as_far_as_its_keys_need() {
        let key = |k: u32| (pair_hash(k, 1), 3 * k);
        let n = 100_000;
        let mut scaled = CompactIndex::scaled(0);
        add_and_find(&mut scaled, n, key);
        let mut full = CompactIndex::with_capacity(0);
        add_and_find(&mut full, n, key);
        let per_key = |index: &CompactIndex| index.slots.len() as f64 / f64::from(n);
        assert!(per_key(&scaled) < 1.5 && per_key(&full) > 3.5, "{} {}", per_key(&scaled), per_key(&full));
    }

    /// Keys homed near ids below their own, as the trie's edges near their
    /// parents, many near the table's end when it doubles (their homes
    /// wrap around it): each is found after each doubling.
    #[test]
    fn keys_homed_near_the_end_are_found_after_the_table_doubles() {
        for (spread, shift) in [(3, 0), (1, 0), (1, 3), (3, 1), (6, 0)] {
            let key = move |k: u32| (pair_hash(k, 5), (k >> shift) * spread / 3);
            let mut index = CompactIndex::with_capacity(0);
            let mut doublings = 0;
            for k in 0..50_000 {
                let (h, near) = key(k);
                let slot = index.find(h, near, |i| i == k).expect_err("not added yet");
                let bits = index.bits;
                index.insert(slot, h, near, k, key);
                if index.bits != bits {
                    doublings += 1;
                    for j in 0..=k {
                        assert_eq!(index.find(key(j).0, key(j).1, |i| i == j), Ok(j), "{j} of {k}");
                    }
                }
            }
            assert!(doublings >= 8 && index.scale == super::EDGE_SCALE);
        }
    }

    /// Keys denser than the scale says (one a `near` id after many a
    /// tenth as dense) are still found, and home at 5/4 slots a `near` id
    /// again.
    #[test]
    fn a_crowded_scaled_index_homes_its_keys_at_full_scale() {
        let key = |k: u32| (pair_hash(k, 2), if k < 50_000 { 10 * k } else { 450_000 + k });
        let mut index = CompactIndex::scaled(0);
        add_and_find(&mut index, 80_000, key);
        assert_eq!(index.scale, super::FULL_SCALE);
    }

    /// Many keys under one `near` id (a deal of thousands of cards: as many
    /// trie edges under one state) and keys under their own: each is found
    /// after every growth, and no lookup probes past its window (every key
    /// in the slots lies within it of its home; the rest are in the
    /// overflow). The wide `near` ids lie near the table's end as well, so
    /// that their homes wrap around it when the table doubles.
    #[test]
    fn a_near_id_with_many_keys_keeps_lookups_within_the_window() {
        for wide in [0, 7, 20_000, 39_999] {
            let key = move |k: u32| (pair_hash(k, 9), if k.is_multiple_of(4) { wide } else { k / 2 });
            let mut index = CompactIndex::with_capacity(0);
            let n = 80_000;
            for k in 0..n {
                let (h, near) = key(k);
                let slot = index.find(h, near, |i| i == k).expect_err("not added yet");
                let bits = index.bits;
                index.insert(slot, h, near, k, key);
                if index.bits != bits {
                    for j in (0..=k).step_by(97) {
                        assert_eq!(index.find(key(j).0, key(j).1, |i| i == j), Ok(j), "{j} of {k}");
                    }
                }
            }
            let low = (1u32 << index.bits) - 1;
            let mask = index.size() - 1;
            let mut held = 0;
            for (at, &s) in index.slots.iter().enumerate() {
                if s != 0 {
                    let (h, near) = key((s & low) - 1);
                    assert!(at.wrapping_sub(index.home(h, near)) & mask < super::WINDOW, "{at}");
                    held += 1;
                }
            }
            let overflow = n as usize - held;
            assert!(overflow >= n as usize / 4 - super::WINDOW, "{wide}: {overflow} keys in the overflow");
            for k in 0..n {
                assert_eq!(index.find(key(k).0, key(k).1, |i| i == k), Ok(k), "{k}");
            }
            assert!(index.find(pair_hash(n, 9), wide, |i| i == n).is_err());
        }
    }

    #[test]
    fn a_table_is_written_only_up_to_the_homes_it_uses() {
        // 100 keys near ids below 100 in room for 4,096 (8,192 slots): the
        // homes end near 125 plus the spread, so only the first 1,024 slots
        // are written; the rest are empty unwritten.
        let mut index = CompactIndex::with_capacity(4096);
        let hash = |k: u32| (pair_hash(k, 3), k);
        for k in 0..100u32 {
            let (h, near) = hash(k);
            let slot = index.find(h, near, |i| i == k).expect_err("not added yet");
            index.insert(slot, h, near, k, hash);
        }
        assert_eq!((index.slots.len(), index.size()), (1024, 8192));
        assert!(index.slots.capacity() >= 4096 * 5 / 4);
        for k in 0..200u32 {
            let (h, near) = hash(k);
            assert_eq!(index.find(h, near, |i| i == k).ok(), (k < 100).then_some(k));
        }
    }
}
