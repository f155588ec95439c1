//! A map from (interned state, key) to value, kept as one small hash table
//! per state, all in one arena in the order they were made. The trie
//! (state, fact) → child and the memo of [`super::InfoInterner::infoset`]
//! are both such maps.
//!
//! A depth-first builder meets the states of a subtree in the order it made
//! them the first time, so the tables it reads next lie next to the ones it
//! just read. One global hash table scattered them over many megabytes, and
//! a decision node paid a cache miss for its lookup.

use super::NONE;

/// Multiplier of the interner's hashes (odd, well mixed).
pub(super) const K: u64 = 0xf135_7aea_2e62_a9c5;

/// A table's slot: `value[0] == NONE` marks an empty slot.
#[derive(Clone, Copy)]
struct Slot<const N: usize, const M: usize> {
    key: [u32; N],
    value: [u32; M],
}

/// Capacity of a state's first table (a power of two).
const FIRST_CAPACITY: u32 = 2;

/// Where a state's table is, so that a lookup reads one slot's cache line
/// past this index.
#[derive(Clone, Copy)]
struct Table {
    first: u32,
    /// A power of two; 0 for no table.
    capacity: u32,
    len: u32,
}

const NO_TABLE: Table = Table { first: 0, capacity: 0, len: 0 };

/// Maps (state, `[u32; N]`) to `[u32; M]`; a value's first word is never
/// `NONE`.
pub(super) struct PerStateMap<const N: usize, const M: usize> {
    /// Per interned state: its table in `slots`.
    tables: Vec<Table>,
    slots: Vec<Slot<N, M>>,
}

impl<const N: usize, const M: usize> PerStateMap<N, M> {
    pub(super) fn new() -> Self {
        PerStateMap { tables: Vec::new(), slots: Vec::new() }
    }

    #[inline]
    fn home(key: &[u32; N], capacity: u32) -> usize {
        let mut h = 0u64;
        for &k in key {
            h = (h.rotate_left(32) ^ u64::from(k)).wrapping_mul(K);
        }
        (h >> 32) as usize & (capacity as usize - 1)
    }

    /// The value of `key` in the table of `state`.
    #[inline]
    pub(super) fn find(&self, state: u32, key: &[u32; N]) -> Option<[u32; M]> {
        let t = *self.tables.get(state as usize)?;
        if t.capacity == 0 {
            return None;
        }
        let slots = &self.slots[t.first as usize..(t.first + t.capacity) as usize];
        let mask = t.capacity as usize - 1;
        let mut i = Self::home(key, t.capacity);
        loop {
            let slot = &slots[i];
            if slot.value[0] == NONE {
                return None;
            }
            if slot.key == *key {
                return Some(slot.value);
            }
            i = (i + 1) & mask;
        }
    }

    /// Adds `key` (not in the table of `state`) with `value`.
    pub(super) fn insert(&mut self, state: u32, key: [u32; N], value: [u32; M]) {
        debug_assert_ne!(value[0], NONE);
        let b = state as usize;
        if self.tables.len() <= b {
            // Only up to `b`: the `Vec` grows its capacity by doubling, but
            // the entries past `b` would be written (and faulted in) now.
            self.tables.resize(b + 1, NO_TABLE);
        }
        let mut t = self.tables[b];
        if t.capacity == 0 {
            t = Table { first: self.alloc(FIRST_CAPACITY), capacity: FIRST_CAPACITY, len: 0 };
        } else if (t.len + 1) * 4 > t.capacity * 3 {
            // At most three quarters full, so a probe always ends.
            let old = t;
            t = Table { first: self.alloc(old.capacity * 2), capacity: old.capacity * 2, len: old.len };
            for j in old.first..old.first + old.capacity {
                let slot = self.slots[j as usize];
                if slot.value[0] != NONE {
                    self.place(t, slot.key, slot.value);
                }
            }
        }
        self.place(t, key, value);
        t.len += 1;
        self.tables[b] = t;
    }

    /// `capacity` empty slots at the end of the arena (a grown table's old
    /// slots are left behind: at most the size of the tables in use).
    fn alloc(&mut self, capacity: u32) -> u32 {
        let first = self.slots.len() as u32;
        self.slots.resize(self.slots.len() + capacity as usize, Slot { key: [0; N], value: [NONE; M] });
        first
    }

    fn place(&mut self, t: Table, key: [u32; N], value: [u32; M]) {
        let mask = t.capacity as usize - 1;
        let mut i = Self::home(&key, t.capacity);
        while self.slots[t.first as usize + i].value[0] != NONE {
            i = (i + 1) & mask;
        }
        self.slots[t.first as usize + i] = Slot { key, value };
    }

    /// The arena's length in slots (for the interner's id limit).
    pub(super) fn arena_len(&self) -> usize {
        self.slots.len()
    }

    pub(super) fn bytes(&self) -> usize {
        self.tables.capacity() * std::mem::size_of::<Table>() + self.slots.capacity() * std::mem::size_of::<Slot<N, M>>()
    }
}

#[cfg(test)]
mod tests {
    use super::PerStateMap;

    #[test]
    fn every_key_is_found_in_its_own_base_after_growth() {
        let mut m = PerStateMap::<3, 2>::new();
        for base in [0u32, 7, 3] {
            for k in 0..100u32 {
                assert_eq!(m.find(base, &[k, k * 3, base]), None);
                m.insert(base, [k, k * 3, base], [k + base, 1]);
            }
        }
        for base in [0u32, 7, 3] {
            for k in 0..100u32 {
                assert_eq!(m.find(base, &[k, k * 3, base]), Some([k + base, 1]));
                assert_eq!(m.find(base, &[k, k * 3, base + 1]), None);
            }
        }
        assert_eq!(m.find(1, &[0, 0, 1]), None);
        assert_eq!(m.find(1000, &[0, 0, 0]), None);
    }
}
