//! The memo of [`super::InfoInterner::infoset`]: (interned base state, the
//! two newest pending facts, the player) → the information set, its choice
//! key and its state.
//!
//! A depth-first builder meets a player's information sets again in later
//! subtrees (another card of the other player, another board), and in the
//! order it first met them. So each entry links to the entry the player met
//! next (a new entry goes right after the one the player's previous lookup
//! found), and a lookup first tries the entry after that one, then the one
//! after it (a replay may skip an entry: a card dealt elsewhere). A guess is
//! a compare on an entry whose address was known a node ahead and which lies
//! after the ones read before. A hash index answers when the guesses are
//! wrong (rarely on poker-like games, and mostly for new sets): one table over all entries, a word pair per entry, so that the
//! memo costs little memory next to the tree.
//!
//! The memo only speeds lookups up (the trie answers every key exactly), so
//! it is bounded: when full it grows if the build meets its sets again
//! often enough to pay for it ([`LOOKUPS_PER_SET`]), up to
//! [`MAX_ENTRIES`], else it forgets every entry and starts again. A
//! depth-first build meets a set again within a window (the replay of a
//! subtree under another hidden move), so the newest entries are the ones
//! worth keeping: a memo that kept its first entries would miss every key
//! met after it filled. A memo that misses too often while it fills rests
//! for a while ([`MISSES_TO_REST`]), twice as long after each filling that
//! missed as often ([`MAX_BACKOFF`]). The window grows with the game: a
//! poker that deals again and again needs millions of entries, while
//! blind tic-tac-toe, which meets each set a few times, builds as fast
//! with a small memo and holds less. The sizes and rules were chosen by
//! measurement: docs/perf/tree-build.md, "The memo".

use super::compact_index::K;
use super::id_index::IdIndex;
use super::words::NONE;

/// The most entries the memo holds (36 bytes each, about 200 MB with the index).
const MAX_ENTRIES: usize = 1 << 22;
/// The entries a memo holds before it grows (36 bytes each: a small
/// memory next to a large tree; games that meet their sets often grow it
/// at once).
const MIN_ENTRIES: usize = 1 << 18;
/// A full memo grows only if the build has met each information set this
/// many times on average (lookups per set so far): poker meets its sets
/// again and again, from one deal to the next, and needs a memo as large
/// as its window; blind tic-tac-toe meets each about 4 times, and a larger
/// memo did not speed it up.
const LOOKUPS_PER_SET: u64 = 8;
/// A memo that fills while more than one lookup in this many missed rests:
/// its misses (a probe of its index, a cache miss, then an insert) cost
/// more than its hits save over the trie's lookups, homed near their
/// states. A game whose sets are met a few times, the meetings farther
/// apart than a memo's worth of entries (blind tic-tac-toe), builds faster
/// without a memo; poker and Leduc miss a few percent.
const MISSES_TO_REST: u64 = 4;
/// A resting memo answers nothing for this many times the lookups of its
/// last filling, then starts again (a game may change as the build goes).
const REST: u64 = 4;
/// Each rest after a filling that missed as often as the one before is
/// twice as long, up to `2^MAX_BACKOFF` times [`REST`]: a game whose memo
/// misses at every filling (each miss an index probe, a cache miss) pays
/// for fewer fillings, while a game that changes as the build goes still
/// gets its memo back (a memo that never restarted would not).
const MAX_BACKOFF: u32 = 5;

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
    /// The entry the same player met next, `NONE` if none yet.
    next: u32,
}

pub(super) struct Memo {
    /// In the order they were added (the links give the order of use).
    entries: Vec<Entry>,
    /// Entries by the hash of (base, key).
    index: IdIndex,
    /// Per player: the entry their last lookup found or added.
    cursor: Vec<u32>,
    /// The key of the last lookup if it missed, and the empty index slot
    /// where the key goes: the insert that follows a miss does not probe
    /// again. Any insert clears it, so the slot is still empty when used.
    vacant: Option<(u32, [u32; 3], usize)>,
    /// At this many entries the memo grows or starts again.
    max: usize,
    /// Lookups so far.
    lookups: u64,
    /// Information sets so far ([`Memo::new_set`]).
    sets: u64,
    /// Lookups since the memo last started (again).
    since_start: u64,
    /// Lookups left while the memo rests ([`MISSES_TO_REST`]).
    resting: u64,
    /// Rests in a row, each after a filling that missed too often
    /// ([`MAX_BACKOFF`]).
    rests: u32,
}

impl Memo {
    /// Room for `entries` entries.
    pub(super) fn with_capacity(entries: usize) -> Memo {
        Memo {
            entries: Vec::with_capacity(entries),
            index: IdIndex::with_capacity(entries),
            cursor: Vec::new(),
            vacant: None,
            max: MIN_ENTRIES,
            lookups: 0,
            sets: 0,
            since_start: 0,
            resting: 0,
            rests: 0,
        }
    }

    #[inline]
    fn hash(base: u32, key: [u32; 3]) -> u64 {
        let mut h = u64::from(base);
        for k in key {
            h = (h.rotate_left(32) ^ u64::from(k)).wrapping_mul(K);
        }
        h
    }

    /// The entry of (base, key) in the index, or the empty slot where it
    /// would go.
    #[inline]
    fn probe(&self, base: u32, key: [u32; 3], h: u64) -> Result<u32, usize> {
        let entries = &self.entries;
        self.index.find(h, |at| {
            let e = &entries[at as usize];
            e.base == base && e.key == key
        })
    }

    /// The entry of `key` (`[older, newer, player]`) under `base`.
    #[inline]
    pub(super) fn find(&mut self, base: u32, key: [u32; 3]) -> Option<Found> {
        self.lookups += 1;
        if self.resting > 0 {
            self.rest();
            return None;
        }
        self.since_start += 1;
        let player = key[2] as usize;
        let at = self.cursor.get(player).copied().unwrap_or(NONE);
        let mut guess = self.entries.get(at as usize).map_or(NONE, |e| e.next);
        // The entry after the player's last one, or the one after that (a
        // replay may skip one: a card dealt elsewhere in this subtree).
        for _ in 0..2 {
            let Some(e) = self.entries.get(guess as usize) else { break };
            if e.base == base && e.key == key {
                self.cursor[player] = guess;
                return Some(e.found);
            }
            guess = e.next;
        }
        let at = match self.probe(base, key, Self::hash(base, key)) {
            Ok(at) => at,
            Err(slot) => {
                self.vacant = Some((base, key, slot));
                return None;
            }
        };
        if let Some(c) = self.cursor.get_mut(player) {
            *c = at;
        }
        Some(self.entries[at as usize].found)
    }

    /// Adds `key` (not in the memo) under `base`, next after the entry of
    /// the player's last lookup: where a replay of this order will look.
    /// Inlined into its one caller, `InfoInterner::infoset`, on purpose
    /// rather than by chance (which functions share a codegen unit): its
    /// call costs more than its body on small games (docs/perf/tree-build.md,
    /// "The interner").
    #[inline]
    pub(super) fn insert(&mut self, base: u32, key: [u32; 3], found: Found) {
        if self.entries.len() >= self.max {
            self.full();
        }
        if self.resting > 0 {
            return;
        }
        let at = self.entries.len() as u32;
        let player = key[2] as usize;
        if self.cursor.len() <= player {
            self.cursor.resize(player + 1, NONE);
        }
        let before = self.cursor[player];
        let next = self.entries.get(before as usize).map_or(NONE, |e| e.next);
        crate::room::push(&mut self.entries, Entry { base, key, found, next });
        if let Some(e) = self.entries.get_mut(before as usize) {
            e.next = at;
        }
        let h = Self::hash(base, key);
        // Not in the index (the caller's lookup missed); were it there, the
        // older entry would answer and this one would only be a guess.
        let slot = match self.vacant.take() {
            Some((b, k, slot)) if (b, k) == (base, key) => Some(slot),
            _ => self.probe(base, key, h).err(),
        };
        if let Some(slot) = slot {
            self.index.insert(slot, h, at);
        }
        self.cursor[player] = at;
    }

    /// A full memo grows if the build meets its sets again often enough
    /// (see [`LOOKUPS_PER_SET`]), else starts again: a depth-first build
    /// meets a set again within a window, so the newest entries are the
    /// ones worth keeping.
    #[cold]
    fn full(&mut self) {
        if self.max < MAX_ENTRIES && self.lookups >= self.sets * LOOKUPS_PER_SET {
            self.max *= 2;
            self.rests = 0;
        } else {
            // Every entry was added after a miss.
            if self.entries.len() as u64 * MISSES_TO_REST > self.since_start {
                self.resting = self.since_start * (REST << self.rests.min(MAX_BACKOFF));
                self.rests += 1;
                self.give_back();
            } else {
                self.rests = 0;
                self.start_again();
            }
        }
    }

    /// Gives the entries' and the index's memory back while the memo rests
    /// (it keeps nothing then): a memo that rests most of the build (blind
    /// tic-tac-toe's) would otherwise hold its entries at the build's peak,
    /// on each thread (docs/perf/tree-build.md, "Memory of a large build"). The room is
    /// reserved again when it starts again ([`Memo::start_again`]).
    #[cold]
    fn give_back(&mut self) {
        self.entries = Vec::new();
        self.index = IdIndex::with_capacity(0);
        self.cursor.fill(NONE);
        self.vacant = None;
        self.since_start = 0;
    }

    /// One lookup of a resting memo; the last one starts it again.
    #[inline]
    fn rest(&mut self) {
        self.resting -= 1;
        if self.resting == 0 {
            self.start_again();
        }
    }

    /// Notes a new information set (for [`LOOKUPS_PER_SET`]).
    #[inline]
    pub(super) fn new_set(&mut self) {
        self.sets += 1;
    }

    /// Forgets every entry: the keys met next are kept instead of the
    /// oldest ones. The ids the entries name stay valid (the trie is never
    /// cleared), so this only costs lookups.
    fn start_again(&mut self) {
        self.entries.clear();
        if self.entries.capacity() == 0 {
            // After a rest: room for a filling (the entries' pages are
            // written as it fills).
            self.entries.reserve(self.max);
            self.index = IdIndex::with_capacity(self.max);
        } else {
            self.index.clear();
        }
        self.cursor.fill(NONE);
        self.vacant = None;
        self.since_start = 0;
    }

    /// Entries (for the interner's id limit).
    pub(super) fn len(&self) -> usize {
        self.entries.len()
    }

    /// Bytes in use: the entries by their length (their reserved room is
    /// written only as the memo fills, see `Tree::bytes`).
    pub(super) fn bytes(&self) -> usize {
        self.entries.len() * std::mem::size_of::<Entry>() + self.index.bytes() + self.cursor.capacity() * 4
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
        let mut m = Memo::with_capacity(0);
        // Two players adding keys in turns under a few bases.
        for base in 0..4u32 {
            for k in 0..20u32 {
                for player in 0..2u32 {
                    assert_eq!(m.find(base, [k, k + base, player]), None);
                    m.insert(base, [k, k + base, player], found(base * 1000 + k * 10 + player));
                }
            }
        }
        // An insert after a lookup of another key, and one after an insert:
        // the slot the lookup found is not used for them.
        assert_eq!(m.find(9, [1, 2, 0]), None);
        m.insert(9, [3, 4, 0], found(7));
        m.insert(9, [1, 2, 0], found(8));
        assert_eq!((m.find(9, [3, 4, 0]), m.find(9, [1, 2, 0])), (Some(found(7)), Some(found(8))));
        // The same order (the guesses hit), then another order (they miss).
        let keys: Vec<(u32, u32, u32)> =
            (0..4).flat_map(|b| (0..20).flat_map(move |k| (0..2).map(move |p| (b, k, p)))).collect();
        for &(base, k, player) in keys.iter().chain(keys.iter().rev()) {
            assert_eq!(m.find(base, [k, k + base, player]), Some(found(base * 1000 + k * 10 + player)));
            assert_eq!(m.find(base, [k, k + base + 1, player]), None);
            assert_eq!(m.find(base + 1, [k, k + base, player]), None);
        }
    }

    /// A full memo starts again: it holds the keys added since, found
    /// by guess and by hash, and none of the older ones.
    #[test]
    fn a_full_memo_starts_again_with_the_newest_keys() {
        let mut m = Memo::with_capacity(0);
        m.max = 10;
        m.sets = 25;
        for k in 0..25u32 {
            assert_eq!(m.find(0, [k, k, 0]), None);
            m.insert(0, [k, k, 0], found(k));
            // Found often enough not to rest.
            for _ in 0..super::MISSES_TO_REST {
                assert_eq!(m.find(0, [k, k, 0]), Some(found(k)));
            }
        }
        assert_eq!((m.len(), m.resting), (5, 0));
        for k in (0..25u32).chain((0..25).rev()) {
            assert_eq!(m.find(0, [k, k, 0]), (k >= 20).then(|| found(k)), "{k}");
        }
    }

    /// A memo asked often enough for each set grows instead of starting
    /// again.
    #[test]
    fn a_full_memo_asked_often_grows() {
        let mut m = Memo::with_capacity(0);
        m.max = 10;
        // Two sets; at the eleventh insert, 8 lookups each.
        m.sets = 2;
        m.lookups = 2 * super::LOOKUPS_PER_SET - 11;
        for k in 0..12u32 {
            assert_eq!(m.find(0, [k, k, 0]), None);
            m.insert(0, [k, k, 0], found(k));
        }
        assert_eq!((m.len(), m.max), (12, 20));
        for k in 0..12u32 {
            assert_eq!(m.find(0, [k, k, 0]), Some(found(k)), "{k}");
        }
    }

    /// A memo that fills while missing more than one lookup in
    /// [`super::MISSES_TO_REST`] answers nothing and keeps nothing for a
    /// while, then starts again and finds what it keeps.
    #[test]
    fn a_memo_that_misses_often_rests_then_starts_again() {
        let mut m = Memo::with_capacity(0);
        m.max = 10;
        m.sets = 1000;
        for k in 0..11u32 {
            assert_eq!(m.find(0, [k, k, 0]), None);
            m.insert(0, [k, k, 0], found(k));
        }
        // Filled by 11 lookups, all missed: resting for 44, holding no
        // entries and the least index.
        assert_eq!((m.len(), m.resting), (0, 11 * super::REST));
        assert_eq!((m.entries.capacity(), m.index.bytes()), (0, super::IdIndex::with_capacity(0).bytes()));
        for k in 0..44u32 {
            assert_eq!(m.find(0, [k % 3, k % 3, 0]), None);
            m.insert(0, [k % 3, k % 3, 0], found(k));
        }
        // The last of them started it again, and it kept that key.
        assert_eq!((m.len(), m.resting), (1, 0));
        assert_eq!((m.find(0, [1, 1, 0]), m.find(0, [2, 2, 0])), (Some(found(43)), None));
    }

    /// Looks up keys `from..` once each (adding those it misses) and each
    /// `hits` times more, until the memo is full and rests or starts
    /// again; returns the lookups it then rests for and the next key.
    fn fill(m: &mut Memo, from: u32, hits: usize) -> (u64, u32) {
        let mut k = from;
        loop {
            if m.find(0, [k, k, 0]).is_none() {
                let full = m.len() == m.max;
                m.insert(0, [k, k, 0], found(k));
                for _ in 0..hits {
                    assert_eq!(m.find(0, [k, k, 0]), Some(found(k)));
                }
                if full {
                    return (m.resting, k + 1);
                }
            }
            k += 1;
        }
    }

    /// Each filling that misses too often rests twice as long as the
    /// last, up to `2^MAX_BACKOFF` times [`super::REST`]; a filling that
    /// finds its keys ends the back-off.
    #[test]
    fn a_memo_that_misses_at_each_filling_rests_longer_each_time() {
        let mut m = Memo::with_capacity(0);
        (m.max, m.sets) = (10, 1000);
        let mut k = 0;
        let mut rests = Vec::new();
        for _ in 0..8 {
            let (rest, next) = fill(&mut m, k, 0);
            k = next;
            rests.push(rest);
            // The rest's lookups, the last of which starts the memo again.
            for _ in 0..rest {
                assert_eq!(m.find(0, [0, 0, 0]), None);
            }
        }
        // Each filling took 11 lookups (the rest's last one started the
        // memo again before it).
        let most = 1 << super::MAX_BACKOFF;
        let expected: Vec<u64> = (0..8).map(|i| 11 * super::REST * (1 << i).min(most)).collect();
        assert_eq!(rests, expected);
        // A filling whose keys are found again starts again, then a bad
        // one rests for the least time again.
        let (rest, next) = fill(&mut m, k, super::MISSES_TO_REST as usize);
        assert_eq!((rest, m.len()), (0, 1));
        // Filled by the last key's finds and 10 misses.
        let (rest, _) = fill(&mut m, next, 0);
        assert_eq!(rest, (super::MISSES_TO_REST + 10) * super::REST);
    }
}
