//! Exact interning of information states and information sets.
//!
//! A player's information state is the list of facts revealed to them (and
//! their own choices), in order. It is stored as a trie: each state is a
//! parent state plus one fact, a word sequence. Interning compares the words
//! exactly; the hash only finds candidates. Two decision nodes share an
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

struct Entry {
    parent: u32,
    start: u32,
    len: u32,
    /// Next entry with the same hash bucket.
    next: u32,
}

const NONE: u32 = u32::MAX;

/// Owns all interned states; ids are dense and stable.
pub struct InfoInterner {
    entries: Vec<Entry>,
    words: Vec<u64>,
    buckets: Buckets,
    /// Information-set entry id → dense infoset index, per player.
    infoset_of_entry: rustc_hash::FxHashMap<u32, u32>,
    /// Per infoset index: (player, info state, choice-list words range).
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

impl InfoInterner {
    pub fn new() -> InfoInterner {
        // Entry 0 is the empty information state.
        let root = Entry { parent: NONE, start: 0, len: 0, next: NONE };
        InfoInterner {
            entries: vec![root],
            words: Vec::new(),
            buckets: Default::default(),
            infoset_of_entry: Default::default(),
            infosets: Vec::new(),
        }
    }

    fn intern(&mut self, parent: u32, fact: &[u64]) -> u32 {
        let mut h = FxHasher::default();
        parent.hash(&mut h);
        fact.hash(&mut h);
        let hash = h.finish();
        let mut cur = self.buckets.get(&hash).copied().unwrap_or(NONE);
        let first = cur;
        while cur != NONE {
            let e = &self.entries[cur as usize];
            if e.parent == parent && self.words[e.start as usize..(e.start + e.len) as usize] == *fact {
                return cur;
            }
            cur = e.next;
        }
        let id = self.entries.len() as u32;
        let start = self.words.len() as u32;
        self.words.extend_from_slice(fact);
        self.entries.push(Entry { parent, start, len: fact.len() as u32, next: first });
        self.buckets.insert(hash, id);
        id
    }

    /// The state `state` followed by `fact` (words: a tag, then arguments).
    pub fn push(&mut self, state: InfoState, fact: &[u64]) -> InfoState {
        InfoState(self.intern(state.0, fact))
    }

    /// The information set of `player` in `state` choosing among `choices`
    /// (the encoded choice list); returns its dense index (0, 1, ... in order
    /// of first appearance, over all players) and whether it is new.
    pub fn infoset(&mut self, player: u32, state: InfoState, choices: &[u64], scratch: &mut Vec<u64>) -> (u32, bool) {
        scratch.clear();
        scratch.push(INFOSET_TAG);
        scratch.push(u64::from(player));
        scratch.extend_from_slice(choices);
        let entry = self.intern(state.0, scratch);
        let next = self.infosets.len() as u32;
        let idx = *self.infoset_of_entry.entry(entry).or_insert(next);
        if idx == next {
            self.infosets.push(InfosetKey { player, state, entry });
            (idx, true)
        } else {
            (idx, false)
        }
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
            + self.infoset_of_entry.capacity() * 8
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
        let mut s = Vec::new();
        let st = i.push(InfoState::EMPTY, &[5]);
        let (x, new_x) = i.infoset(0, st, &[0, 1], &mut s);
        let (y, new_y) = i.infoset(0, st, &[0, 1], &mut s);
        assert!(new_x && !new_y && x == y);
        assert_ne!(i.infoset(1, st, &[0, 1], &mut s).0, x);
        assert_ne!(i.infoset(0, st, &[0, 2], &mut s).0, x);
        assert_eq!(i.infoset_choices(x), &[0, 1]);
    }
}
