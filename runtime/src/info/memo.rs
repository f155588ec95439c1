//! The memo of [`super::InfoInterner::infoset`]: (interned base state, the
//! two newest pending facts, the player) → the information set, its choice
//! key and its state.
//!
//! A depth-first builder meets a player's information sets again in later
//! subtrees (another card of the other player, another board), and in the
//! order it first met them. So the entries are kept in the order they were
//! added, each linked to the next entry the same player added, and a lookup
//! first tries the entry after the one that player's previous lookup found.
//! That guess is one compare on an entry whose address was known a node
//! ahead and which lies after the ones read before; the hash index, whose
//! tables were last read many subtrees ago, answers when the guess is
//! wrong.

use super::per_state::PerStateMap;
use super::NONE;

/// What the memo knows of a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Found {
    pub set: u32,
    pub choice_key: u32,
    /// The information set's (interned) information state.
    pub state: u32,
    /// The interned state of the base and the older fact (`NONE` without
    /// one): a hit interns the facts of its key as a miss would, so that
    /// the next lookup's key does not depend on which of the two it was.
    pub mid: u32,
}

#[derive(Clone, Copy)]
struct Entry {
    base: u32,
    /// The older and the newer pending fact, and the player.
    key: [u32; 3],
    found: Found,
    /// The next entry the same player added, `NONE` if none yet.
    next: u32,
}

pub(super) struct Memo {
    /// In the order they were added.
    entries: Vec<Entry>,
    /// (base, key) → entry.
    index: PerStateMap<3, 1>,
    /// Per player: the entry their last lookup found or added.
    cursor: Vec<u32>,
    /// Per player: the entry they added last.
    last_added: Vec<u32>,
}

impl Memo {
    pub(super) fn new() -> Memo {
        Memo { entries: Vec::new(), index: PerStateMap::new(), cursor: Vec::new(), last_added: Vec::new() }
    }

    /// The entry of `key` (`[older, newer, player]`) under `base`.
    #[inline]
    pub(super) fn find(&mut self, base: u32, key: [u32; 3]) -> Option<Found> {
        let player = key[2] as usize;
        if let Some(&at) = self.cursor.get(player) {
            let guess = self.entries.get(at as usize).map_or(NONE, |e| e.next);
            if let Some(e) = self.entries.get(guess as usize) {
                if e.base == base && e.key == key {
                    self.cursor[player] = guess;
                    return Some(e.found);
                }
            }
        }
        let [at] = self.index.find(base, &key)?;
        if let Some(c) = self.cursor.get_mut(player) {
            *c = at;
        }
        Some(self.entries[at as usize].found)
    }

    /// Adds `key` (not in the memo) under `base`.
    pub(super) fn insert(&mut self, base: u32, key: [u32; 3], found: Found) {
        let at = self.entries.len() as u32;
        self.entries.push(Entry { base, key, found, next: NONE });
        self.index.insert(base, key, [at]);
        let player = key[2] as usize;
        if self.cursor.len() <= player {
            self.cursor.resize(player + 1, NONE);
            self.last_added.resize(player + 1, NONE);
        }
        if let Some(last) = self.entries.get_mut(self.last_added[player] as usize) {
            last.next = at;
        }
        self.last_added[player] = at;
        self.cursor[player] = at;
    }

    /// Entries and index slots (for the interner's id limit).
    pub(super) fn len(&self) -> usize {
        self.entries.len().max(self.index.arena_len())
    }

    pub(super) fn bytes(&self) -> usize {
        self.entries.capacity() * std::mem::size_of::<Entry>() + self.index.bytes() + self.cursor.capacity() * 8
    }
}

#[cfg(test)]
mod tests {
    use super::{Found, Memo};

    fn found(x: u32) -> Found {
        Found { set: x, choice_key: x + 1, state: x + 2, mid: x + 3 }
    }

    #[test]
    fn lookups_find_their_own_key_whatever_the_guess() {
        let mut m = Memo::new();
        // Two players adding keys in turns under a few bases.
        for base in 0..4u32 {
            for k in 0..20u32 {
                for player in 0..2u32 {
                    assert_eq!(m.find(base, [k, k + base, player]), None);
                    m.insert(base, [k, k + base, player], found(base * 1000 + k * 10 + player));
                }
            }
        }
        // The same order (the guesses hit), then another order (they miss).
        let keys: Vec<(u32, u32, u32)> =
            (0..4).flat_map(|b| (0..20).flat_map(move |k| (0..2).map(move |p| (b, k, p)))).collect();
        for &(base, k, player) in keys.iter().chain(keys.iter().rev()) {
            assert_eq!(m.find(base, [k, k + base, player]), Some(found(base * 1000 + k * 10 + player)));
            assert_eq!(m.find(base, [k, k + base + 1, player]), None);
            assert_eq!(m.find(base + 1, [k, k + base, player]), None);
        }
    }
}
