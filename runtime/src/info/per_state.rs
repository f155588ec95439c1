//! The trie's edges, (interned state, fact) → child, kept as one small hash
//! table per state, all in one arena in the order they were made.
//!
//! A depth-first builder meets the states of a subtree in the order it made
//! them the first time, so the tables it reads next lie next to the ones it
//! just read. One global hash table scattered them over many megabytes, and
//! a decision node paid a cache miss for its lookup.
//!
//! Most states have one child or none (an information set's key has none),
//! so a state's only child is kept in its table record: no slots, and a
//! lookup reads nothing else.

use super::NONE;

/// Multiplier of the interner's hashes (odd, well mixed).
pub(super) const K: u64 = 0xf135_7aea_2e62_a9c5;

/// A table's slot: `child == NONE` marks an empty slot.
#[derive(Clone, Copy)]
struct Slot {
    fact: u32,
    child: u32,
}

/// Capacity of a state's first table, made at its second child (a power of
/// two, above the load limit at two children).
const FIRST_CAPACITY: u32 = 4;

/// A state's children. With `capacity == 0`: no child if `b == NONE`, else
/// one, the fact `a` leading to `b`. Else a table of `capacity` slots (a
/// power of two) from `a` in the arena, holding `b` children.
#[derive(Clone, Copy)]
struct Table {
    a: u32,
    b: u32,
    capacity: u32,
}

const NO_CHILDREN: Table = Table { a: 0, b: NONE, capacity: 0 };

/// Maps (state, fact) to the child state; a child is never `NONE`.
pub(super) struct PerStateMap {
    /// Per interned state: its children.
    tables: Vec<Table>,
    slots: Vec<Slot>,
}

impl PerStateMap {
    /// Room for the tables of `states` states and about as many slots.
    pub(super) fn with_capacity(states: usize) -> Self {
        PerStateMap { tables: Vec::with_capacity(states), slots: Vec::with_capacity(states) }
    }

    #[inline]
    fn home(fact: u32, capacity: u32) -> usize {
        let h = u64::from(fact).wrapping_mul(K);
        (h >> 32) as usize & (capacity as usize - 1)
    }

    /// The child of `state` by `fact`.
    #[inline]
    pub(super) fn find(&self, state: u32, fact: u32) -> Option<u32> {
        let t = *self.tables.get(state as usize)?;
        if t.capacity == 0 {
            return (t.b != NONE && t.a == fact).then_some(t.b);
        }
        let slots = &self.slots[t.a as usize..(t.a + t.capacity) as usize];
        let mask = t.capacity as usize - 1;
        let mut i = Self::home(fact, t.capacity);
        loop {
            let slot = slots[i];
            if slot.child == NONE {
                return None;
            }
            if slot.fact == fact {
                return Some(slot.child);
            }
            i = (i + 1) & mask;
        }
    }

    /// Adds the edge `fact` → `child` (`fact` not yet a key of `state`).
    pub(super) fn insert(&mut self, state: u32, fact: u32, child: u32) {
        debug_assert_ne!(child, NONE);
        let s = state as usize;
        if self.tables.len() <= s {
            // Only up to `s`: the `Vec` grows its capacity by doubling, but
            // the entries past `s` would be written (and faulted in) now.
            self.tables.resize(s + 1, NO_CHILDREN);
        }
        let t = self.tables[s];
        self.tables[s] = match t {
            Table { b: NONE, capacity: 0, .. } => Table { a: fact, b: child, capacity: 0 },
            Table { capacity: 0, .. } => {
                let table = Table { a: self.alloc(FIRST_CAPACITY), b: 2, capacity: FIRST_CAPACITY };
                self.place(table, t.a, t.b);
                self.place(table, fact, child);
                table
            }
            // At most three quarters full, so a probe always ends.
            Table { b: len, capacity, .. } if (len + 1) * 4 > capacity * 3 => {
                // The old slots are left behind: the arena holds at most
                // the size of the tables in use.
                let table = Table { a: self.alloc(capacity * 2), b: len + 1, capacity: capacity * 2 };
                for j in t.a..t.a + capacity {
                    let slot = self.slots[j as usize];
                    if slot.child != NONE {
                        self.place(table, slot.fact, slot.child);
                    }
                }
                self.place(table, fact, child);
                table
            }
            Table { b: len, .. } => {
                self.place(t, fact, child);
                Table { b: len + 1, ..t }
            }
        };
    }

    /// `capacity` empty slots at the end of the arena.
    fn alloc(&mut self, capacity: u32) -> u32 {
        let first = self.slots.len() as u32;
        self.slots.resize(self.slots.len() + capacity as usize, Slot { fact: 0, child: NONE });
        first
    }

    fn place(&mut self, t: Table, fact: u32, child: u32) {
        let mask = t.capacity as usize - 1;
        let mut i = Self::home(fact, t.capacity);
        while self.slots[t.a as usize + i].child != NONE {
            i = (i + 1) & mask;
        }
        self.slots[t.a as usize + i] = Slot { fact, child };
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
    use super::PerStateMap;

    #[test]
    fn every_child_is_found_under_its_own_state_after_growth() {
        let mut m = PerStateMap::with_capacity(0);
        // States with no child, one (kept in the record), a few and many.
        let sizes = [(0u32, 100u32), (7, 1), (3, 2), (5, 3), (9, 0), (2, 13)];
        for &(state, n) in &sizes {
            for k in 0..n {
                assert_eq!(m.find(state, k * 3), None);
                m.insert(state, k * 3, k + state * 1000);
            }
        }
        for &(state, n) in &sizes {
            for k in 0..n {
                assert_eq!(m.find(state, k * 3), Some(k + state * 1000));
                assert_eq!(m.find(state, k * 3 + 1), None);
            }
            assert_eq!(m.find(state, n * 3), None);
        }
        assert_eq!(m.find(1, 0), None);
        assert_eq!(m.find(1000, 0), None);
    }
}
