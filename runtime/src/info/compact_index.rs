//! A hash index of dense ids whose keys live elsewhere (the trie's entries,
//! the information sets' keys) in four bytes a slot: open addressing over
//! `u32` slots, at most four fifths full, each key homed near an id it
//! names (see [`CompactIndex::home`]).
//!
//! Ids stay below the slot count (an index holds at most that many ids), so
//! a slot holds its id plus one in its low `bits` bits and, above them,
//! bits of the key's hash that tell most other keys apart without reading
//! them. A lookup compares a stored key only when those bits agree; keys
//! are always compared in full before an id is returned. Blind
//! tic-tac-toe's 9.8 M information states and 6.65 M sets are indexed in
//! 67 MB each, where per-state child tables took 383 MB.

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

pub(super) struct CompactIndex {
    /// 0 for an empty slot, else `check | (id + 1)`. The table has `1 <<
    /// bits` slots, all reserved, but only those below `slots.len()` are
    /// written (zeroed as a write reaches them); the others are empty.
    /// Keys are homed near their ids, so a small game uses the start of the
    /// table and never touches the rest: a fresh build of the 9,457-node
    /// Leduc zeroed 40 KB of tables it did not use, 10 page faults.
    slots: Vec<u32>,
    /// log2 of the slot count (at most 31: ids stay below 2^31).
    bits: u32,
    len: usize,
}

impl CompactIndex {
    /// Room for `ids` ids before the table grows.
    pub(super) fn with_capacity(ids: usize) -> CompactIndex {
        let mut bits = 8;
        while ids * 5 > (4usize << bits) {
            bits += 1;
        }
        CompactIndex { slots: Vec::with_capacity(1 << bits), bits, len: 0 }
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
    /// scaled by 5/4, plus a few bits of its hash. The keys of states made
    /// close together in a depth-first build lie close together, like those
    /// states, so a lookup under a state made or used recently reads memory
    /// in cache (homes from the hash alone cost a cache miss per lookup:
    /// 10% of blind tic-tac-toe's build for the edges, 8% for the sets).
    #[inline]
    fn home(&self, h: u64, near: u32) -> usize {
        let near = near as usize;
        (near + (near >> 2) + (h >> (64 - SPREAD_BITS)) as usize) & (self.size() - 1)
    }

    /// The id of hash `h` and `near` id whose key
    /// `is_key` accepts, or the empty slot where such an id goes (for
    /// [`CompactIndex::insert`]).
    #[inline]
    pub(super) fn find(&self, h: u64, near: u32, mut is_key: impl FnMut(u32) -> bool) -> Result<u32, usize> {
        let check = self.check(h);
        let low = (1u32 << self.bits).wrapping_sub(1);
        let mask = self.size() - 1;
        let mut i = self.home(h, near);
        loop {
            let s = self.slot(i);
            if s == 0 {
                return Err(i);
            }
            if s & !low == check && is_key((s & low) - 1) {
                return Ok((s & low) - 1);
            }
            i = (i + 1) & mask;
        }
    }

    /// Puts `id`, of hash `h`, in `slot`, which a [`CompactIndex::find`] of
    /// `h` has just returned (nothing added since). `hash` gives the hash
    /// and the `near` id of any id held, to place them again when the table
    /// grows.
    #[inline]
    pub(super) fn insert(&mut self, slot: usize, h: u64, id: u32, hash: impl Fn(u32) -> (u64, u32)) {
        debug_assert!((id as usize) < self.size() - 1);
        self.set(slot, self.check(h) | (id + 1));
        self.len += 1;
        if self.len * 5 > self.size() * 4 {
            self.grow(hash);
        }
    }

    /// Grows the table until the home of `near` lies in its lower four
    /// fifths, for an index whose `near` ids are not its own ids (the
    /// information sets, homed near their states). `hash` is as
    /// for [`CompactIndex::insert`].
    #[inline]
    pub(super) fn reach(&mut self, near: u32, hash: impl Fn(u32) -> (u64, u32)) {
        while near as usize * 5 >= self.size() * 4 {
            self.grow(&hash);
        }
    }

    #[cold]
    #[inline(never)]
    fn grow(&mut self, hash: impl Fn(u32) -> (u64, u32)) {
        let low = (1u32 << self.bits) - 1;
        let old = std::mem::take(&mut self.slots);
        self.bits += 1;
        self.slots = Vec::with_capacity(self.size());
        // The keys keep their homes (those that wrapped around move up):
        // the new table is written about as far as the old one was.
        self.slots.resize(old.len(), 0);
        let mask = self.size() - 1;
        for s in old.into_iter().filter(|&s| s != 0) {
            let id = (s & low) - 1;
            let (h, near) = hash(id);
            let mut i = self.home(h, near);
            while self.slot(i) != 0 {
                i = (i + 1) & mask;
            }
            self.set(i, self.check(h) | (id + 1));
        }
    }

    /// Bytes in use: the written slots (the reserved rest is never
    /// touched, so it takes no memory).
    pub(super) fn bytes(&self) -> usize {
        self.slots.len() * 4
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
                index.insert(slot, hash(k), id as u32, |i| (hash(keys[i as usize]), near(keys[i as usize])));
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
            index.insert(slot, h, k, hash);
        }
        assert_eq!((index.slots.len(), index.size()), (1024, 8192));
        assert!(index.slots.capacity() >= 4096 * 5 / 4);
        for k in 0..200u32 {
            let (h, near) = hash(k);
            assert_eq!(index.find(h, near, |i| i == k).ok(), (k < 100).then_some(k));
        }
    }
}
