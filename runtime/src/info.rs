//! Exact interning of information states and information sets.
//!
//! A player's information state is the list of facts revealed to them (and
//! their own choices), in order. It is stored as a trie: each state is a
//! parent state plus one fact, a word sequence. Interning compares the words
//! exactly; the hash only finds candidates. Each state keeps a list of its
//! children (scanned when short, hashed when long), so the common lookup is a
//! few comparisons without a hash-map probe. Two decision nodes share an
//! information set iff the player, the information state and the list of
//! available choices are all equal.

use rustc_hash::FxHasher;
use std::hash::{Hash, Hasher};

/// An interned information state (a fact list). `EMPTY` is the empty list.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct InfoState(pub u32);

impl InfoState {
    pub const EMPTY: InfoState = InfoState(0);
}

/// The first word of the fact "the player chose this", appended after each
/// of the player's own choices; distinct from every fact tag.
pub const CHOSE_TAG: u64 = u64::MAX;
/// First word of an information-set key (player, choice list).
const INFOSET_TAG: u64 = u64::MAX - 1;

/// The bucket keys are already hashes: pass them through.
#[derive(Default)]
struct IdentityHasher(u64);

impl Hasher for IdentityHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 << 8) | u64::from(*b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

type Buckets = std::collections::HashMap<u64, u32, std::hash::BuildHasherDefault<IdentityHasher>>;

/// Parents with more children than this find them through the hash map;
/// the others by a short scan of their child list.
const SCAN_LIMIT: u32 = 12;

struct Entry {
    parent: u32,
    start: u32,
    len: u32,
    hash: u64,
    /// First child, and the next sibling, in the parent's child list.
    first_child: u32,
    next_sibling: u32,
    n_children: u32,
    /// Next entry with the same bucket hash (wide parents only).
    next_in_bucket: u32,
    /// The information-set index, if this entry is an information-set key.
    infoset: u32,
}

const NONE: u32 = u32::MAX;

/// Owns all interned states; ids are dense and stable.
pub struct InfoInterner {
    entries: Vec<Entry>,
    words: Vec<u64>,
    /// (parent, fact hash) → entry, for parents with many children.
    buckets: Buckets,
    /// Per infoset index: (player, info state, key entry).
    infosets: Vec<InfosetKey>,
}

/// What identifies an information set.
#[derive(Clone, Copy, Debug)]
pub struct InfosetKey {
    pub player: u32,
    pub state: InfoState,
    entry: u32,
}

impl Default for InfoInterner {
    fn default() -> Self {
        InfoInterner::new()
    }
}

fn fact_hash(head: &[u64], rest: &[u64]) -> u64 {
    let mut h = FxHasher::default();
    (head.len() + rest.len()).hash(&mut h);
    for w in head.iter().chain(rest) {
        w.hash(&mut h);
    }
    h.finish()
}

impl InfoInterner {
    pub fn new() -> InfoInterner {
        // Entry 0 is the empty information state.
        let root = Entry {
            parent: NONE,
            start: 0,
            len: 0,
            hash: 0,
            first_child: NONE,
            next_sibling: NONE,
            n_children: 0,
            next_in_bucket: NONE,
            infoset: NONE,
        };
        InfoInterner { entries: vec![root], words: Vec::new(), buckets: Default::default(), infosets: Vec::new() }
    }

    /// Exact comparison, word by word (facts are a few words: an inlined
    /// loop beats a `memcmp` call).
    #[inline]
    fn same(&self, e: &Entry, head: &[u64], rest: &[u64]) -> bool {
        let stored = &self.words[e.start as usize..(e.start + e.len) as usize];
        if stored.len() != head.len() + rest.len() {
            return false;
        }
        let mut equal = true;
        for (a, b) in stored.iter().zip(head.iter().chain(rest.iter())) {
            equal &= a == b;
        }
        equal
    }

    /// The child of `parent` for the fact `head ++ rest` (created if new).
    fn intern(&mut self, parent: u32, head: &[u64], rest: &[u64]) -> u32 {
        let hash = fact_hash(head, rest);
        let p = &self.entries[parent as usize];
        let wide = p.n_children > SCAN_LIMIT;
        let bucket_key = hash ^ (u64::from(parent)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        if wide {
            let mut cur = self.buckets.get(&bucket_key).copied().unwrap_or(NONE);
            while cur != NONE {
                let e = &self.entries[cur as usize];
                if e.parent == parent && e.hash == hash && self.same(e, head, rest) {
                    return cur;
                }
                cur = e.next_in_bucket;
            }
        } else {
            let mut cur = p.first_child;
            while cur != NONE {
                let e = &self.entries[cur as usize];
                if e.hash == hash && self.same(e, head, rest) {
                    return cur;
                }
                cur = e.next_sibling;
            }
        }
        let id = self.entries.len() as u32;
        let start = self.words.len() as u32;
        self.words.extend_from_slice(head);
        self.words.extend_from_slice(rest);
        let first_child = self.entries[parent as usize].first_child;
        self.entries.push(Entry {
            parent,
            start,
            len: (head.len() + rest.len()) as u32,
            hash,
            first_child: NONE,
            next_sibling: first_child,
            n_children: 0,
            next_in_bucket: NONE,
            infoset: NONE,
        });
        let p = &mut self.entries[parent as usize];
        p.first_child = id;
        p.n_children += 1;
        let n = p.n_children;
        if n == SCAN_LIMIT + 1 {
            // Becoming wide: index all children, this one included.
            let mut cur = id;
            while cur != NONE {
                let (h, next) = (self.entries[cur as usize].hash, self.entries[cur as usize].next_sibling);
                self.index_in_bucket(cur, h ^ (u64::from(parent)).wrapping_mul(0x9e37_79b9_7f4a_7c15));
                cur = next;
            }
        } else if n > SCAN_LIMIT + 1 {
            self.index_in_bucket(id, bucket_key);
        }
        id
    }

    fn index_in_bucket(&mut self, id: u32, key: u64) {
        let prev = self.buckets.insert(key, id).unwrap_or(NONE);
        self.entries[id as usize].next_in_bucket = prev;
    }

    /// The state `state` followed by `fact` (words: a tag, then arguments).
    pub fn push(&mut self, state: InfoState, fact: &[u64]) -> InfoState {
        InfoState(self.intern(state.0, fact, &[]))
    }

    /// The information set of `player` in `state` choosing among `choices`
    /// (the encoded choice list); returns its dense index (0, 1, ... in order
    /// of first appearance, over all players) and whether it is new.
    pub fn infoset(&mut self, player: u32, state: InfoState, choices: &[u64]) -> (u32, bool) {
        let entry = self.intern(state.0, &[INFOSET_TAG, u64::from(player)], choices);
        let known = self.entries[entry as usize].infoset;
        if known != NONE {
            return (known, false);
        }
        let idx = self.infosets.len() as u32;
        self.entries[entry as usize].infoset = idx;
        self.infosets.push(InfosetKey { player, state, entry });
        (idx, true)
    }

    pub fn n_infosets(&self) -> usize {
        self.infosets.len()
    }

    pub fn infoset_key(&self, idx: u32) -> InfosetKey {
        self.infosets[idx as usize]
    }

    /// The encoded choice list of an information set.
    pub fn infoset_choices(&self, idx: u32) -> &[u64] {
        let e = &self.entries[self.infosets[idx as usize].entry as usize];
        &self.words[(e.start + 2) as usize..(e.start + e.len) as usize]
    }

    /// The facts of a state, oldest first.
    pub fn facts(&self, state: InfoState) -> Vec<&[u64]> {
        let mut out = Vec::new();
        let mut cur = state.0;
        while cur != 0 && cur != NONE {
            let e = &self.entries[cur as usize];
            out.push(&self.words[e.start as usize..(e.start + e.len) as usize]);
            cur = e.parent;
        }
        out.reverse();
        out
    }

    /// Bytes held by the interner (for memory reports).
    pub fn bytes(&self) -> usize {
        self.entries.capacity() * std::mem::size_of::<Entry>()
            + self.words.capacity() * 8
            + self.buckets.capacity() * 16
            + self.infosets.capacity() * std::mem::size_of::<InfosetKey>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_fact_lists_are_one_state_and_order_matters() {
        let mut i = InfoInterner::new();
        let a = i.push(InfoState::EMPTY, &[1, 3]);
        let b = i.push(a, &[2, 7]);
        let a2 = i.push(InfoState::EMPTY, &[1, 3]);
        let b2 = i.push(a2, &[2, 7]);
        assert_eq!(b, b2);
        let first = i.push(InfoState::EMPTY, &[2, 7]);
        let c = i.push(first, &[1, 3]);
        assert_ne!(b, c);
        assert_eq!(i.facts(b), vec![&[1u64, 3][..], &[2, 7][..]]);
        // A fact that is a prefix of another is a different fact.
        assert_ne!(i.push(InfoState::EMPTY, &[1]), i.push(InfoState::EMPTY, &[1, 0]));
    }

    #[test]
    fn infosets_need_equal_player_state_and_choices() {
        let mut i = InfoInterner::new();
        let st = i.push(InfoState::EMPTY, &[5]);
        let (x, new_x) = i.infoset(0, st, &[0, 1]);
        let (y, new_y) = i.infoset(0, st, &[0, 1]);
        assert!(new_x && !new_y && x == y);
        assert_ne!(i.infoset(1, st, &[0, 1]).0, x);
        assert_ne!(i.infoset(0, st, &[0, 2]).0, x);
        assert_eq!(i.infoset_choices(x), &[0, 1]);
    }
}
