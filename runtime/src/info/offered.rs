//! An own move's record names the list of options it was offered by the
//! id of its information set's choice key rather than spelling the list
//! out: the list is nearly always that of the set just asked for, whose id
//! and words the interner keeps (`OfferedList`).

use super::words::{same_words, NONE};

/// The longest choice list copied as soon as its set is asked for.
const SHORT_LIST: usize = 4;

/// A list offered to a player, with its id.
pub(super) struct OfferedList {
    pub(super) player: u32,
    /// The id of the list's choice key (`[INFOSET_TAG, player] ++ words`).
    pub(super) key: u32,
    /// The list's length, and its words (`choice_key`) if `copied`: in
    /// `short` if it is [`SHORT_LIST`] words or fewer (a few stores, no
    /// call, where replacing a list in a vector took one at each decision),
    /// else in `long`.
    pub(super) len: usize,
    pub(super) short: [u64; SHORT_LIST],
    pub(super) long: Vec<u64>,
    pub(super) copied: bool,
    /// Whether a move record has asked for its list: only then is a short
    /// list copied before a record asks (a compiled game whose records are
    /// all deferred names each list by the id `advance` kept, and never
    /// asks).
    pub(super) wanted: bool,
}

impl OfferedList {
    /// No list yet.
    pub(super) fn none() -> OfferedList {
        OfferedList {
            player: NONE,
            key: NONE,
            len: 0,
            short: [0; SHORT_LIST],
            long: Vec::new(),
            copied: false,
            wanted: false,
        }
    }

    /// The list `words`, whose choice key for `player` has the id `key`;
    /// a short list is copied now (a few stores: liar's dice's bitmask),
    /// a long one when a move record first asks. Nothing is kept until a
    /// record has asked for its list (`wanted`: a game whose records are
    /// all deferred never pays for keeping lists): the first to ask looks
    /// its list up ([`InfoInterner::offered_list`](super::interner::InfoInterner::offered_list)).
    #[inline]
    pub(super) fn offer(&mut self, player: u32, key: u32, words: &[u64]) {
        if self.wanted && (self.key != key || self.player != player) {
            (self.player, self.key) = (player, key);
            self.copy(words, false);
        }
    }

    /// Keeps `words` as the list's, if short or if `long` says so.
    #[inline]
    pub(super) fn copy(&mut self, words: &[u64], long: bool) {
        self.len = words.len();
        self.copied = words.len() <= SHORT_LIST || long;
        if words.len() <= SHORT_LIST {
            // Word by word: `copy_from_slice` calls memcpy.
            for (to, &w) in self.short.iter_mut().zip(words) {
                *to = w;
            }
        } else if long {
            self.long.clear();
            self.long.extend_from_slice(words);
        }
    }

    /// The id of `offered` offered to `player`, if it is this list and
    /// its words are copied.
    #[inline]
    pub(super) fn key_of(&self, player: u32, offered: &[u64]) -> Option<u32> {
        let words = if self.len <= SHORT_LIST { &self.short[..self.len] } else { &self.long[..] };
        (self.copied && self.player == player && same_words(words, offered)).then_some(self.key)
    }
}
