//! Another interner's sets found or interned here: a parallel build's
//! parts are matched against one interner by their keys alone.

use super::compact_index::pair_hash;
use super::facts::FactDict;
use super::facts::PACKED;
use super::interner::InfoInterner;
use super::words::{Entry, InfoState, SetKey, ABSENT, NONE, OFFERED_TAG};

/// What names an interner's states and sets (their facts, trie entries and
/// keys) without what finds them (indexes, memo, pending facts): a parallel
/// build's part keeps only this once done, to be imported into the global
/// interner (on blind tic-tac-toe's parts, about half their interners).
pub struct InfoKeys {
    /// Boxed: an enum of a part's interner or its keys stays small.
    facts: Box<FactDict>,
    entries: Vec<Entry>,
    infosets: Vec<SetKey>,
}

impl InfoKeys {
    /// Bytes held (for memory reports).
    pub fn bytes(&self) -> usize {
        self.facts.bytes()
            + self.entries.capacity() * std::mem::size_of::<Entry>()
            + self.infosets.capacity() * std::mem::size_of::<SetKey>()
    }
}

/// What [`InfoInterner::import_infoset`] remembers about one other interner.
#[derive(Default)]
pub struct ImportCache {
    states: Vec<u32>,
    facts: Vec<u32>,
}

impl ImportCache {
    /// Bytes held (a word per state and per fact of the other interner
    /// met so far; for memory reports).
    pub fn bytes(&self) -> usize {
        (self.states.capacity() + self.facts.capacity()) * std::mem::size_of::<u32>()
    }
}

impl InfoInterner {
    /// Its keys alone (see [`InfoKeys`]), the rest given back.
    pub fn into_keys(self) -> InfoKeys {
        let InfoInterner { facts, entries, infosets, .. } = self;
        InfoKeys { facts: Box::new(facts), entries, infosets }
    }

    /// The information set `idx` of `other`, interned here exactly (same
    /// player, facts and choices); `cache` remembers `other`'s states and
    /// facts already mapped (use one cache per `other`).
    pub fn import_infoset(&mut self, other: &InfoKeys, idx: u32, cache: &mut ImportCache) -> (u32, bool) {
        let key = other.infosets[idx as usize];
        let state = self.import_state(other, key.state, cache);
        let choice_key = self.import_fact(other, key.choice_key, cache);
        self.infoset_of_key(InfoState(state), choice_key)
    }

    /// The information set `idx` of `other` if this interner has it (same
    /// player, facts and choices), found without adding it or its states
    /// (only facts, which are few); `cache` as for
    /// [`InfoInterner::import_infoset`]. For the last part of a parallel
    /// build: its sets not found here need no state in any interner.
    pub fn find_infoset(&mut self, other: &InfoKeys, idx: u32, cache: &mut ImportCache) -> Option<u32> {
        let key = other.infosets[idx as usize];
        let state = self.find_state(other, key.state, cache)?;
        let choice_key = self.import_fact(other, key.choice_key, cache);
        let infosets = &self.infosets;
        self.sets
            .find(pair_hash(state, choice_key), state, |id| {
                let k = &infosets[id as usize];
                k.state == state && k.choice_key == choice_key
            })
            .ok()
    }

    /// `other`'s interned state `id` if this interner has it; `cache` marks
    /// the states it has not ([`ABSENT`]).
    fn find_state(&mut self, other: &InfoKeys, id: u32, cache: &mut ImportCache) -> Option<u32> {
        let (path, mut mapped) = unmapped_path(other, id, cache);
        for &e in path.iter().rev() {
            if mapped != ABSENT {
                let fact = self.import_fact(other, other.entries[e as usize].fact, cache);
                let entries = &self.entries;
                mapped = self
                    .children
                    .find(pair_hash(mapped, fact), mapped, |id| {
                        let e = &entries[id as usize];
                        e.parent == mapped && e.fact == fact
                    })
                    .unwrap_or(ABSENT);
            }
            cache.states[e as usize] = mapped;
        }
        (mapped != ABSENT).then_some(mapped)
    }

    /// `other`'s fact `fact`, interned here (an offered list's id inside a
    /// move record translated too).
    fn import_fact(&mut self, other: &InfoKeys, fact: u32, cache: &mut ImportCache) -> u32 {
        if fact & PACKED != 0 {
            return match other.facts.offered_record(fact) {
                // A packed move record names `other`'s slot of its list.
                Some((key, chose)) => {
                    let key = self.import_fact(other, key, cache);
                    self.facts.offered_id(key, &chose, &mut self.last_offered)
                }
                None => fact, // other packed ids mean the same words everywhere
            };
        }
        if cache.facts.len() <= fact as usize {
            cache.facts.resize(fact as usize + 1, NONE);
        }
        if cache.facts[fact as usize] == NONE {
            cache.facts[fact as usize] = match other.facts.get(fact) {
                // The offered list's id is `other`'s own.
                &[OFFERED_TAG, key, ref chose @ ..] => {
                    let key = self.import_fact(other, key as u32, cache);
                    self.facts.offered_id(key, chose, &mut self.last_offered)
                }
                words => self.facts.id(words, &[]),
            };
        }
        cache.facts[fact as usize]
    }

    /// `other`'s interned state `id`, interned here.
    fn import_state(&mut self, other: &InfoKeys, id: u32, cache: &mut ImportCache) -> u32 {
        // Up to the nearest state already mapped, then down, mapping each.
        let (path, mut mapped) = unmapped_path(other, id, cache);
        for &e in path.iter().rev() {
            let fact = self.import_fact(other, other.entries[e as usize].fact, cache);
            mapped = self.child(mapped, fact);
            cache.states[e as usize] = mapped;
        }
        mapped
    }
}

/// `other`'s states from `id` up to the nearest one `cache` has mapped
/// (`id` first), and what that one maps to.
fn unmapped_path(other: &InfoKeys, id: u32, cache: &mut ImportCache) -> (Vec<u32>, u32) {
    if cache.states.len() < other.entries.len() {
        cache.states.resize(other.entries.len(), NONE);
        cache.states[0] = 0;
    }
    let mut path = Vec::new();
    let mut cur = id;
    while cache.states[cur as usize] == NONE {
        path.push(cur);
        cur = other.entries[cur as usize].parent;
    }
    (path, cache.states[cur as usize])
}
