//! Own moves recorded with the list of options they were offered, the list
//! named by id ([`InfoInterner::push_offered`],
//! [`InfoInterner::push_deferred`]).

use super::interner::InfoInterner;
use super::words::{InfoState, Pending, INFOSET_TAG, NONE, OFFERED_TAG, PENDING};

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
