//! [`InfoInterner`]: the trie of interned information states, the pending
//! facts of the path being explored and the information sets (see
//! [`crate::info`] for how they are laid out).

use super::compact_index::{pair_hash, CompactIndex};
use super::facts::FactDict;
use super::memo::{Found, Memo};
use super::offered::OfferedList;
use super::words::{
    unpacked_words, Entry, InfoState, Pending, SetKey, INFOSET_TAG, MAX_ENTRIES, NONE, OFFERED_TAG, PENDING,
};

/// Owns all interned states; ids are dense and stable.
pub struct InfoInterner {
    pub(super) facts: FactDict,
    /// The trie of interned states: entry 0 is the empty state.
    pub(super) entries: Vec<Entry>,
    /// (parent, fact) → child entry.
    pub(super) children: CompactIndex,
    pub(super) pending: Vec<Pending>,
    pub(super) pending_words: Vec<u64>,
    /// Per infoset index: its info state and choice key.
    pub(super) infosets: Vec<SetKey>,
    /// (info state, choice key) → infoset index.
    pub(super) sets: CompactIndex,
    /// (interned base, the two newest pending facts, the player) →
    /// (information set, its choice key, its state): one lookup per
    /// decision node in the common case (plus a trie lookup per older
    /// pending fact) instead of one per fact and one for the choice list.
    pub(super) memo: Memo,
    /// Reused buffer: the unresolved pending facts of a chain.
    pub(super) chain: Vec<u32>,
    /// The offered list last named by a move record and its slot
    /// ([`FactDict::offered_id`]).
    pub(super) last_offered: (u32, u32),
    /// The choice list of the last information set asked for: what the
    /// records of the moves from there were offered
    /// ([`InfoInterner::push_offered`] checks it word for word).
    pub(super) last_list: OfferedList,
}

/// What identifies an information set.
#[derive(Clone, Copy, Debug)]
pub struct InfosetKey {
    pub player: u32,
    /// Always an interned state.
    pub state: InfoState,
}

impl Default for InfoInterner {
    fn default() -> Self {
        InfoInterner::new()
    }
}

impl InfoInterner {
    pub fn new() -> InfoInterner {
        InfoInterner::with_room(0, 0)
    }

    /// An interner with room for `states` information states and `sets`
    /// information sets before any of its arrays grows (for a build: see
    /// `tree::build::ROOM_NODES`).
    pub fn with_room(states: usize, sets: usize) -> InfoInterner {
        let mut entries = Vec::with_capacity(states.max(1));
        entries.push(Entry { parent: NONE, fact: NONE });
        InfoInterner {
            facts: FactDict::new(),
            entries,
            children: CompactIndex::with_capacity(states),
            pending: Vec::new(),
            pending_words: Vec::new(),
            infosets: Vec::with_capacity(sets),
            sets: CompactIndex::scaled(sets),
            memo: Memo::with_capacity(sets),
            chain: Vec::new(),
            last_offered: (NONE, NONE),
            last_list: OfferedList::none(),
        }
    }

    /// The child of the interned state `parent` by the fact with id `fact`
    /// (always inlined, as is [`Self::infoset_of_key`]: both run at every
    /// new state, and a call cost more than it saved; docs/perf/tree-build.md,
    /// "The interner").
    #[inline(always)]
    pub(super) fn child(&mut self, parent: u32, fact: u32) -> u32 {
        let h = pair_hash(parent, fact);
        let entries = &mut self.entries;
        match self.children.find(h, parent, |id| {
            let e = &entries[id as usize];
            e.parent == parent && e.fact == fact
        }) {
            Ok(id) => id,
            Err(slot) => {
                let id = entries.len() as u32;
                crate::room::push(entries, Entry { parent, fact });
                let entries = &*entries;
                self.children.insert(slot, h, parent, id, |id| {
                    let e = &entries[id as usize];
                    (pair_hash(e.parent, e.fact), e.parent)
                });
                id
            }
        }
    }

    /// The state `state` followed by `fact` (words: a tag, then arguments).
    /// Cheap: the fact is interned only if an information set needs it.
    #[inline]
    pub fn push(&mut self, state: InfoState, fact: &[u64]) -> InfoState {
        let id = self.pending.len() as u32;
        let start = self.pending_words.len() as u32;
        let fact = match super::facts::pack(fact, &[]) {
            Some(packed) => packed,
            None => {
                self.pending_words.extend_from_slice(fact);
                NONE
            }
        };
        self.pending.push(Pending { parent: state, fact, start, interned: NONE });
        InfoState(PENDING | id)
    }

    /// A fact's words as pushed: an own-move record with its offered list
    /// by id ([`push_offered`](Self::push_offered)) spelled out.
    fn spelled(&self, words: Vec<u64>) -> Vec<u64> {
        match words.as_slice() {
            [OFFERED_TAG, key, chose @ ..] => {
                let offered = self.facts.words_of(*key as u32);
                [chose, offered.get(2..).unwrap_or(&[])].concat()
            }
            _ => words,
        }
    }

    /// Collects into `self.chain` the unresolved pending facts of `state`,
    /// newest first, and returns the interned state they extend.
    #[inline]
    fn pending_chain(&mut self, state: InfoState) -> u32 {
        self.chain.clear();
        let mut cur = state.0;
        loop {
            if cur & PENDING == 0 {
                return cur;
            }
            let p = &self.pending[(cur & !PENDING) as usize];
            if p.interned != NONE {
                return p.interned;
            }
            self.chain.push(cur & !PENDING);
            cur = p.parent.0;
        }
    }

    #[inline]
    fn pending_fact_id(&mut self, i: u32) -> u32 {
        let fact = self.pending[i as usize].fact;
        if fact != NONE {
            return fact;
        }
        self.look_up_pending_fact(i)
    }

    /// The dictionary id of the pending fact `i`, one that does not pack
    /// (out of line: most facts pack).
    #[cold]
    #[inline(never)]
    fn look_up_pending_fact(&mut self, i: u32) -> u32 {
        let fact = self.facts.id(unpacked_words(&self.pending, &self.pending_words, i), &[]);
        self.pending[i as usize].fact = fact;
        fact
    }

    /// The interned form of `state` (the same fact list).
    pub fn resolve(&mut self, state: InfoState) -> InfoState {
        let mut base = self.pending_chain(state);
        let chain = std::mem::take(&mut self.chain);
        for &i in chain.iter().rev() {
            let fact = self.pending_fact_id(i);
            base = self.child(base, fact);
            self.pending[i as usize].interned = base;
        }
        self.chain = chain;
        InfoState(base)
    }

    /// The number of pending facts, to [`truncate`](Self::truncate) back to
    /// once every state pushed after this call is gone.
    pub fn mark(&self) -> u32 {
        self.pending.len() as u32
    }

    /// Forgets the pending facts pushed after `mark`. States holding them
    /// must not be used again.
    pub fn truncate(&mut self, mark: u32) {
        if let Some(p) = self.pending.get(mark as usize) {
            self.pending_words.truncate(p.start as usize);
            self.pending.truncate(mark as usize);
        }
    }

    /// The information set of `player` in `state` choosing among `choices`
    /// (the encoded choice list); returns its dense index (0, 1, ... in order
    /// of first appearance, over all players) and whether it is new.
    #[inline]
    pub fn infoset(&mut self, player: u32, state: InfoState, choices: &[u64]) -> (u32, bool) {
        let (set, new, _) = self.infoset_with_key(player, state, choices);
        (set, new)
    }

    /// [`infoset`](Self::infoset), and the id of the choice list's key: what
    /// an own-move record of a choice among `choices` names when it is made
    /// later ([`push_deferred`](Self::push_deferred)). Generated code asks
    /// once per decision node instead of once per child, where a deferred
    /// record would otherwise compare its list with the last one.
    pub fn infoset_with_key(&mut self, player: u32, state: InfoState, choices: &[u64]) -> (u32, bool, u32) {
        let head = [INFOSET_TAG, u64::from(player)];
        // The unresolved pending facts of `state`, newest first: the two
        // newest are the memo's key; older ones go through the trie, so that
        // the memo serves every decision node.
        let mut newest = [NONE; 2];
        let mut n = 0;
        let mut cur = state.0;
        let base = loop {
            if cur & PENDING == 0 {
                break cur;
            }
            let i = cur & !PENDING;
            let p = &self.pending[i as usize];
            if p.interned != NONE {
                break p.interned;
            }
            if n == 2 {
                break self.resolve(InfoState(cur)).0;
            }
            newest[n] = i;
            n += 1;
            cur = p.parent.0;
        };
        // The memo is keyed without the choices: a player's choice list
        // nearly always follows from what they know, so the set found is
        // checked against the choices (a compare, not a hash and a lookup),
        // and a mismatch takes the exact path below.
        let newer = if n == 2 { self.pending_fact_id(newest[0]) } else { NONE };
        let older = if n >= 1 { self.pending_fact_id(newest[n - 1]) } else { NONE };
        let memo_key = [older, newer, player];
        let memo_miss = match self.memo.find(base, memo_key) {
            Some(found) if self.facts.matches(found.choice_key, &head, choices) => {
                self.last_list.offer(player, found.choice_key, choices);
                // Intern the key's facts as the exact path below would.
                if n == 2 {
                    self.pending[newest[1] as usize].interned = found.mid;
                }
                if n >= 1 {
                    self.pending[newest[0] as usize].interned = found.state;
                }
                return (found.set, false, found.choice_key);
            }
            found => found.is_none(),
        };
        let choice_key = self.facts.id(&head, choices);
        self.last_list.offer(player, choice_key, choices);
        // `resolve(state)`, from the facts' ids at hand: the base is
        // interned, and the key's facts follow it.
        let (mut state, mut mid) = (base, NONE);
        if n == 2 {
            state = self.child(state, older);
            mid = state;
            self.pending[newest[1] as usize].interned = state;
        }
        if n >= 1 {
            state = self.child(state, if n == 2 { newer } else { older });
            self.pending[newest[0] as usize].interned = state;
        }
        let (set, new) = self.infoset_of_key(InfoState(state), choice_key);
        if new {
            self.memo.new_set();
        }
        if memo_miss {
            self.memo.insert(base, memo_key, Found { set, choice_key, state, mid });
        }
        (set, new, choice_key)
    }

    /// The information set of `player` at the interned `state` with the
    /// choice-key fact `choice_key`, through the trie.
    #[inline(always)]
    pub(super) fn infoset_of_key(&mut self, state: InfoState, choice_key: u32) -> (u32, bool) {
        let state = state.0;
        let h = pair_hash(state, choice_key);
        let infosets = &mut self.infosets;
        let rehash = |k: &SetKey| (pair_hash(k.state, k.choice_key), k.state);
        self.sets.reach(state, |id| rehash(&infosets[id as usize]));
        match self.sets.find(h, state, |id| {
            let k = &infosets[id as usize];
            k.state == state && k.choice_key == choice_key
        }) {
            Ok(idx) => (idx, false),
            Err(slot) => {
                let idx = infosets.len() as u32;
                crate::room::push(infosets, SetKey { state, choice_key });
                let infosets = &*infosets;
                self.sets.insert(slot, h, state, idx, |id| rehash(&infosets[id as usize]));
                (idx, true)
            }
        }
    }

    /// Gives back the memo's memory (it only speeds lookups up; later ones
    /// fill it again): for an interner whose build is done.
    pub fn forget_memo(&mut self) {
        self.memo = Memo::with_capacity(0);
    }

    pub fn n_infosets(&self) -> usize {
        self.infosets.len()
    }

    pub fn infoset_key(&self, idx: u32) -> InfosetKey {
        let k = self.infosets[idx as usize];
        InfosetKey { player: self.facts.word(k.choice_key, 1) as u32, state: InfoState(k.state) }
    }

    /// The encoded choice list of an information set.
    pub fn infoset_choices(&self, idx: u32) -> Vec<u64> {
        self.facts.words_of(self.infosets[idx as usize].choice_key).split_off(2)
    }

    /// The facts of a state, oldest first.
    pub fn facts(&self, state: InfoState) -> Vec<Vec<u64>> {
        let mut out = Vec::new();
        let mut cur = state.0;
        while cur != 0 && cur != NONE {
            if cur & PENDING != 0 {
                let i = cur & !PENDING;
                let p = &self.pending[i as usize];
                let words = match p.fact {
                    NONE => unpacked_words(&self.pending, &self.pending_words, i).to_vec(),
                    fact => self.facts.words_of(fact),
                };
                out.push(self.spelled(words));
                cur = p.parent.0;
            } else {
                let e = &self.entries[cur as usize];
                out.push(self.spelled(self.facts.words_of(e.fact)));
                cur = e.parent;
            }
        }
        out.reverse();
        out
    }

    /// Whether the trie is close to the most entries ids can name; a
    /// builder stops (as out of memory) before that.
    pub fn is_full(&self) -> bool {
        let most = [
            self.entries.len(),
            self.infosets.len(),
            self.memo.len(),
            self.facts.facts.len(),
            self.pending.len(),
            self.pending_words.len(),
        ];
        most.into_iter().max().unwrap_or(0) >= MAX_ENTRIES
    }

    /// Bytes held by the interner (for memory reports): the big arrays by
    /// their lengths (their reserved room takes memory only once written,
    /// as `Tree::bytes` says).
    pub fn bytes(&self) -> usize {
        self.facts.bytes()
            + self.entries.len() * std::mem::size_of::<Entry>()
            + self.children.bytes()
            + self.pending.capacity() * std::mem::size_of::<Pending>()
            + self.pending_words.capacity() * 8
            + self.infosets.len() * std::mem::size_of::<SetKey>()
            + self.sets.bytes()
            + self.memo.bytes()
    }
}
