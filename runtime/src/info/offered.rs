//! An own move's record names the list of options it was offered by the
//! id of its information set's choice key rather than spelling the list
//! out: the list is nearly always that of the set just asked for, whose id
//! and words the interner keeps ([`OfferedList`]).

use super::{same_words, InfoInterner, InfoState, Pending, INFOSET_TAG, NONE, OFFERED_TAG, PENDING};

/// The longest choice list copied as soon as its set is asked for.
const SHORT_LIST: usize = 4;

/// A list offered to a player, with its id.
pub(super) struct OfferedList {
    player: u32,
    /// The id of the list's choice key (`[INFOSET_TAG, player] ++ words`).
    key: u32,
    /// The list's length, and its words (`choice_key`) if `copied`: in
    /// `short` if it is [`SHORT_LIST`] words or fewer (a few stores, no
    /// call, where replacing a list in a vector took one at each decision),
    /// else in `long`.
    len: usize,
    short: [u64; SHORT_LIST],
    long: Vec<u64>,
    copied: bool,
    /// Whether a move record has asked for its list: only then is a short
    /// list copied before a record asks (a compiled game whose records are
    /// all deferred names each list by the id `advance` kept, and never
    /// asks).
    wanted: bool,
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
    /// its list up ([`InfoInterner::offered_list`]).
    #[inline]
    pub(super) fn offer(&mut self, player: u32, key: u32, words: &[u64]) {
        if self.wanted && (self.key != key || self.player != player) {
            (self.player, self.key) = (player, key);
            self.copy(words, false);
        }
    }

    /// Keeps `words` as the list's, if short or if `long` says so.
    #[inline]
    fn copy(&mut self, words: &[u64], long: bool) {
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
    fn key_of(&self, player: u32, offered: &[u64]) -> Option<u32> {
        let words = if self.len <= SHORT_LIST { &self.short[..self.len] } else { &self.long[..] };
        (self.copied && self.player == player && same_words(words, offered)).then_some(self.key)
    }
}

impl InfoInterner {
    /// The state `state` followed by `player`'s own-move record `chose`
    /// (`[CHOSE_TAG, type, value...]`) with the options it was offered
    /// (`offered`, a choice list's key): the fact `chose ++ offered`
    /// ([`facts`](Self::facts) gives those words back), held as the record
    /// and the id of the offered list, packed with the list's slot when the
    /// record's type and value are small ([`FactDict::offered_id`](super::facts::FactDict::offered_id)):
    /// the fact [`push_deferred`](Self::push_deferred) makes, so that a
    /// record made now and one made later are the same fact. The list is
    /// nearly always that of the information set just asked for (a compare
    /// finds its id), so a move's record is a few words however many
    /// options there were (blind tic-tac-toe offers 18). A game records a
    /// choice this way or with [`push`](Self::push), always the same way:
    /// the two make different states (as do two players' records of one
    /// move: states are compared within one player's). Always inlined into the game's `apply`: a call
    /// saves and restores six registers for a few dozen instructions, at
    /// every move whose record is made there (docs/perf/tree-build.md, "The
    /// interner").
    #[inline(always)]
    pub fn push_offered(&mut self, state: InfoState, player: u32, chose: &[u64], offered: &[u64]) -> InfoState {
        let key = self.offered_key(player, offered);
        self.push_deferred(state, key, chose)
    }

    /// The id of `offered`, a list offered to `player` (the choice key
    /// [`infoset_with_key`](Self::infoset_with_key) gives).
    #[inline(always)]
    fn offered_key(&mut self, player: u32, offered: &[u64]) -> u32 {
        self.last_list.wanted = true;
        // The list is nearly always that of the information set just
        // asked for, whose id is known.
        match self.last_list.key_of(player, offered) {
            Some(key) => key,
            None => self.offered_list(player, offered),
        }
    }

    /// The state `state` followed by the own-move record `chose` with the
    /// offered list whose id is `key` (from
    /// [`infoset_with_key`](Self::infoset_with_key)): what
    /// [`push_offered`](Self::push_offered) makes. Generated code defers
    /// the record of a move until the flow reaches a choice or a fact for
    /// the mover (a leaf, two thirds of blind tic-tac-toe's nodes, never
    /// does): the same fact, so the same states.
    #[inline(always)]
    pub fn push_deferred(&mut self, state: InfoState, key: u32, chose: &[u64]) -> InfoState {
        let id = self.pending.len() as u32;
        let start = self.pending_words.len() as u32;
        // A record of a small value (liar's dice's bids) or of a tuple of
        // small items (blind tic-tac-toe's marks) packs with its list's
        // slot when made (keeping the words and packing them only when a
        // lookup needs them cost more than packing at once).
        let fact = self.facts.packed_offered_id(key, chose, &mut self.last_offered).unwrap_or(NONE);
        if fact == NONE {
            self.pending_words.extend_from_slice(&[OFFERED_TAG, u64::from(key)]);
            self.pending_words.extend_from_slice(chose);
        }
        self.pending.push(Pending { parent: state, fact, start, interned: NONE });
        InfoState(PENDING | id)
    }

    /// Makes `offered`, a list offered to `player`, the list of
    /// [`Self::last_list`], and returns its choice key's id (out of line:
    /// the list is nearly always the one [`Self::infoset`] was just asked
    /// for).
    #[inline(never)]
    fn offered_list(&mut self, player: u32, offered: &[u64]) -> u32 {
        let head = [INFOSET_TAG, u64::from(player)];
        let list = &mut self.last_list;
        if list.key == NONE || list.player != player || !self.facts.matches(list.key, &head, offered) {
            (list.player, list.key) = (player, self.facts.id(&head, offered));
        }
        list.copy(offered, true);
        list.key
    }
}
