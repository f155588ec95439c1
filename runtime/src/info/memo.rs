//! The memo of [`super::InfoInterner::infoset`]: (interned base state, the
//! two newest pending facts, the player) → (information set, choice key).
//!
//! One small hash table per base state, all in one arena in the order they
//! were made. A depth-first builder meets the states of a subtree in the
//! order it made them the first time, so the tables it reads next lie next
//! to the ones it just read; one global hash table scattered them over
//! many megabytes, and a decision node paid a cache miss for its lookup.

use super::flat_map::K;
use super::NONE;

/// A table's slot: the key (older fact, newer fact, player) and the value
/// (set, choice key); `value[0] == NONE` marks an empty slot.
#[derive(Clone, Copy)]
struct Slot {
    key: [u32; 3],
    value: [u32; 2],
}

const EMPTY: Slot = Slot { key: [0; 3], value: [NONE; 2] };
/// Capacity of a base's first table (a power of two).
const FIRST_CAPACITY: u32 = 2;

/// Where a base's table is, so that a lookup reads one slot's cache line
/// past this index.
#[derive(Clone, Copy)]
struct Table {
    first: u32,
    /// A power of two; 0 for no table.
    capacity: u32,
    len: u32,
}

const NO_TABLE: Table = Table { first: 0, capacity: 0, len: 0 };

pub(super) struct Memo {
    /// Per interned state: its table in `slots`.
    tables: Vec<Table>,
    slots: Vec<Slot>,
}

impl Memo {
    pub(super) fn new() -> Memo {
        Memo { tables: Vec::new(), slots: Vec::new() }
    }

    #[inline]
    fn home(key: &[u32; 3], capacity: u32) -> usize {
        let h = ((u64::from(key[0]) << 32 | u64::from(key[1])).wrapping_mul(K) ^ u64::from(key[2])).wrapping_mul(K);
        (h >> 32) as usize & (capacity as usize - 1)
    }

    /// The value of `key` in the table of `base`.
    #[inline]
    pub(super) fn find(&self, base: u32, key: &[u32; 3]) -> Option<[u32; 2]> {
        let t = *self.tables.get(base as usize)?;
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

    /// Adds `key` (not in the table of `base`) with `value`.
    pub(super) fn insert(&mut self, base: u32, key: [u32; 3], value: [u32; 2]) {
        debug_assert_ne!(value[0], NONE);
        let b = base as usize;
        if self.tables.len() <= b {
            let len = (b + 1).max(self.tables.len() * 2);
            self.tables.resize(len, NO_TABLE);
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
        self.slots.resize(self.slots.len() + capacity as usize, EMPTY);
        first
    }

    fn place(&mut self, t: Table, key: [u32; 3], value: [u32; 2]) {
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
        self.tables.capacity() * std::mem::size_of::<Table>() + self.slots.capacity() * std::mem::size_of::<Slot>()
    }
}

#[cfg(test)]
mod tests {
    use super::Memo;

    #[test]
    fn every_key_is_found_in_its_own_base_after_growth() {
        let mut m = Memo::new();
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
