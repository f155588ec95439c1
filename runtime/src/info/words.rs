//! The interner's shared vocabulary: information states, the tags that
//! start its facts, its sentinel ids, and the entries of its trie and arena
//! ([`super::interner`], [`super::import`], [`super::offered`],
//! [`super::facts`], [`super::memo`]).

/// An information state (a fact list). `EMPTY` is the empty list. The value
/// is either an interned trie entry or, with the top bit set, a pending fact
/// in the arena; both stand for the same list of facts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct InfoState(pub u32);

impl InfoState {
    pub const EMPTY: InfoState = InfoState(0);
}

/// The first word of the fact "the player chose this", appended after each
/// of the player's own choices; distinct from every fact tag.
pub const CHOSE_TAG: u64 = u64::MAX;
/// First word of an information-set key (player, choice list).
pub(super) const INFOSET_TAG: u64 = u64::MAX - 1;
/// First word of an own-move record that names its offered list by id
/// ([`InfoInterner::push_offered`](super::InfoInterner::push_offered)): `[OFFERED_TAG, key, record...]`. It
/// never packs (the offset word overflows every width), so the id it holds,
/// local to its interner, never passes for a packed fact's.
pub(super) const OFFERED_TAG: u64 = u64::MAX - 2;

pub(super) const NONE: u32 = u32::MAX;
/// In an [`ImportCache`](super::ImportCache): a state the importing interner does not have.
pub(super) const ABSENT: u32 = NONE - 1;
/// Marks an [`InfoState`] that is a pending (arena) fact.
pub(super) const PENDING: u32 = 1 << 31;
/// Interned entries and pending facts stay below this so that ids never
/// reach [`PENDING`] and the indexes (homed near state ids, at most 11/8
/// slots a state) never need more than 2^31 slots;
/// the builder stops with a memory error before (see [`InfoInterner::is_full`](super::InfoInterner::is_full)).
pub(super) const MAX_ENTRIES: usize = 5 << 28;

/// Per interned state: its parent and its last fact (an id in the fact
/// dictionary), the key of its trie edge.
pub(super) struct Entry {
    pub(super) parent: u32,
    pub(super) fact: u32,
}

/// A fact pushed but not yet interned.
pub(super) struct Pending {
    pub(super) parent: InfoState,
    /// The fact's id if it packs (packed when pushed: in generated code the
    /// words are known there, and packing folds into a few instructions),
    /// or once a lookup needed it; else `NONE`.
    pub(super) fact: u32,
    /// Where its words start in `pending_words` (kept only for facts that do
    /// not pack; they end where the next fact's start).
    pub(super) start: u32,
    /// The interned state, once some lookup needed it.
    pub(super) interned: u32,
}

/// Whether two short word lists are equal, word by word (`==` on slices
/// calls memcmp, which pays off only on longer ones).
#[inline]
pub(super) fn same_words(a: &[u64], b: &[u64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}

/// The words of the pending fact `i`, one that does not pack.
pub(super) fn unpacked_words<'a>(pending: &[Pending], words: &'a [u64], i: u32) -> &'a [u64] {
    let start = pending[i as usize].start as usize;
    let end = pending.get(i as usize + 1).map_or(words.len(), |next| next.start as usize);
    &words[start..end]
}

/// An information set as the interner keeps it, eight bytes (the player is
/// the choice key's second word).
#[derive(Clone, Copy)]
pub(super) struct SetKey {
    /// An interned state.
    pub(super) state: u32,
    /// The fact `[INFOSET_TAG, player] ++ choice list`.
    pub(super) choice_key: u32,
}
