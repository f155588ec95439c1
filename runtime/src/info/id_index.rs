//! A hash index of dense ids whose keys live elsewhere (the fact
//! dictionary's words, the memo's entries): open addressing over
//! (the hash's high half, id) pairs, at most half full. A lookup compares a
//! stored key only when the high halves agree, and growing places the pairs
//! again from their high halves alone, without hashing any key again.

use super::words::NONE;

pub(super) struct IdIndex {
    /// (the hash's high half, id); `NONE` ids mark empty slots.
    slots: Vec<(u32, u32)>,
    /// 64 minus log2 of the slot count: a hash's top bits are its home.
    shift: u32,
    len: usize,
}

impl IdIndex {
    pub(super) fn new() -> IdIndex {
        IdIndex::with_capacity(0)
    }

    /// Room for `ids` ids before the table grows (each growth writes a
    /// table twice the size, fresh memory).
    pub(super) fn with_capacity(ids: usize) -> IdIndex {
        let bits = (ids * 2).next_power_of_two().trailing_zeros().max(8);
        IdIndex { slots: vec![(0, NONE); 1 << bits], shift: 64 - bits, len: 0 }
    }

    /// The home slot of a hash whose high half is `tag` (the table has at
    /// most 2^32 slots, so the top bits of the hash are those of `tag`).
    #[inline]
    fn home(&self, tag: u32) -> usize {
        (tag >> (self.shift - 32)) as usize
    }

    /// The id of hash `h` whose key `is_key` accepts, or the empty slot
    /// where such an id goes (for [`IdIndex::insert`]). Always inlined:
    /// the fact dictionary's lookup inlines it twice (one a key length).
    #[inline(always)]
    pub(super) fn find(&self, h: u64, mut is_key: impl FnMut(u32) -> bool) -> Result<u32, usize> {
        let tag = (h >> 32) as u32;
        let mask = self.slots.len() - 1;
        let mut i = self.home(tag);
        loop {
            let (t, id) = self.slots[i];
            if id == NONE {
                return Err(i);
            }
            if t == tag && is_key(id) {
                return Ok(id);
            }
            i = (i + 1) & mask;
        }
    }

    /// Puts `id`, of hash `h`, in `slot`, which a [`IdIndex::find`] of `h`
    /// has just returned (nothing added since).
    pub(super) fn insert(&mut self, slot: usize, h: u64, id: u32) {
        self.slots[slot] = ((h >> 32) as u32, id);
        self.len += 1;
        if self.len * 2 > self.slots.len() {
            self.grow();
        }
    }

    #[cold]
    fn grow(&mut self) {
        let n = self.slots.len() * 2;
        let old = std::mem::replace(&mut self.slots, vec![(0, NONE); n]);
        self.shift -= 1;
        let mask = self.slots.len() - 1;
        for (tag, id) in old.into_iter().filter(|&(_, id)| id != NONE) {
            let mut i = self.home(tag);
            while self.slots[i].1 != NONE {
                i = (i + 1) & mask;
            }
            self.slots[i] = (tag, id);
        }
    }

    /// The ids held, in slot order.
    pub(super) fn ids(self) -> impl Iterator<Item = u32> {
        self.slots.into_iter().filter_map(|(_, id)| (id != NONE).then_some(id))
    }

    /// Forgets every id, keeping the table's size.
    pub(super) fn clear(&mut self) {
        self.slots.fill((0, NONE));
        self.len = 0;
    }

    pub(super) fn bytes(&self) -> usize {
        self.slots.capacity() * 8
    }
}

#[cfg(test)]
mod tests {
    use super::IdIndex;

    #[test]
    fn ids_are_found_by_hash_and_key_after_growth() {
        // Keys with equal hashes (a collision on the whole hash) and keys
        // sharing a hash's high half: the key check tells them apart.
        let hash = |k: u32| u64::from(k / 3).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ u64::from(k % 2);
        let mut index = IdIndex::new();
        for k in 0..1000u32 {
            let slot = index.find(hash(k), |id| id == k).expect_err("not added yet");
            index.insert(slot, hash(k), k);
        }
        for k in 0..1000u32 {
            assert_eq!(index.find(hash(k), |id| id == k), Ok(k));
        }
        assert!(index.find(hash(1000), |id| id == 1000).is_err());
        assert!(index.bytes() >= 2000 * 8);
    }
}
