//! Fact ids: a fact (a short word list) is either packed into its id or
//! numbered by a dictionary that compares words exactly.

use super::compact_index::K;
use super::id_index::IdIndex;

/// Ids with this bit are packed facts: short facts of small words are their
/// own ids (no dictionary lookup). Dictionary ids stay below it.
pub(super) const PACKED: u32 = 1 << 31;
/// The most words a packed fact has.
pub(super) const MAX_PACKED_WORDS: usize = 6;
/// Bits per word of a packed fact of 1..=6 words (27 payload bits in all):
/// the first word is a tag (small), later words get more room, so facts
/// like `[tag, card]` and `[CHOSE_TAG, type, value]` pack.
const PACK_WIDTHS: [[u32; 6]; 7] = [
    [0; 6],
    [27, 0, 0, 0, 0, 0],
    [5, 22, 0, 0, 0, 0],
    [3, 4, 20, 0, 0, 0],
    [3, 4, 6, 14, 0, 0],
    [3, 4, 4, 8, 8, 0],
    [3, 4, 5, 5, 5, 5],
];

/// The packed id of `head ++ rest`, if it is short and its words small.
/// Words are offset by 2 so that the tags near `u64::MAX` pack too.
#[inline]
pub(super) fn pack(head: &[u64], rest: &[u64]) -> Option<u32> {
    let n = head.len() + rest.len();
    if n == 0 || n > MAX_PACKED_WORDS {
        return None;
    }
    let widths = &PACK_WIDTHS[n];
    let (mut payload, mut overflow) = (0u64, 0u64);
    // Two plain loops: a chained iterator costs more than the packing.
    for (&w, &width) in head.iter().zip(widths) {
        let t = w.wrapping_add(2);
        overflow |= t >> width;
        payload = (payload << width) | t;
    }
    for (&w, &width) in rest.iter().zip(&widths[head.len()..]) {
        let t = w.wrapping_add(2);
        overflow |= t >> width;
        payload = (payload << width) | t;
    }
    (overflow == 0).then_some(PACKED | (n as u32) << 27 | payload as u32)
}

/// The length field of a packed own-move record that names its offered
/// list by a slot ([`FactDict::offered_id`]) and has a small value;
/// [`pack`]'s facts have lengths 1 to 6.
const OFFERED_LEN: u32 = 7;
/// The length field of such a record whose value is a tuple of one to
/// three small scalars ([`tuple_field`]): blind tic-tac-toe's
/// `(row, col, mark)`, whose record `[CHOSE_TAG, ty, 3, row, col, mark]`
/// was looked up in the dictionary at the player's next decision.
const OFFERED_TUPLE_LEN: u32 = 0;
/// Bits of a packed own-move record's offered-list slot, choice type and
/// value (the value offset by 2, as in [`pack`], or its [`tuple_field`]).
const OFFERED_WIDTHS: [u32; 3] = [15, 4, 8];
/// The most offered lists that packed records name (slots).
const OFFERED_SLOTS: usize = 1 << OFFERED_WIDTHS[0];

/// The length field, the type and the value field of the record `chose`
/// (`[CHOSE_TAG, ty] ++ the value's words`), if they fit a packed own-move
/// record: a value of one word offset by 2, or a tuple's [`tuple_field`].
/// Which form a record gets depends on its words alone.
#[inline]
fn small_record(chose: &[u64]) -> Option<(u32, u32, u32)> {
    let &[super::words::CHOSE_TAG, ty, ref value @ ..] = chose else { return None };
    if ty >> OFFERED_WIDTHS[1] != 0 {
        return None;
    }
    match *value {
        [w] => {
            let t = w.wrapping_add(2);
            (t >> OFFERED_WIDTHS[2] == 0).then_some((OFFERED_LEN, ty as u32, t as u32))
        }
        _ => tuple_field(value).map(|field| (OFFERED_TUPLE_LEN, ty as u32, field)),
    }
}

/// The words `[len] ++ items` (a tuple's encoding, `len` from 1 to 3, its
/// items below `2^(6 / len)`) as eight bits: `len - 1`, then the items
/// side by side (as `choice_key`'s fold masks number them).
#[inline]
fn tuple_field(words: &[u64]) -> Option<u32> {
    let (&len, items) = words.split_first()?;
    if !(1..=3).contains(&len) || items.len() as u64 != len {
        return None;
    }
    let bits = [0, 6, 3, 2][len as usize];
    let (mut field, mut all) = (0u64, 0u64);
    for &item in items {
        all |= item;
        field = field << bits | item;
    }
    (all >> bits == 0).then_some(((len - 1) << 6 | field) as u32)
}

/// The words whose [`tuple_field`] is `field`, into `out`; returns how
/// many (at most 5).
fn tuple_words(field: u32, out: &mut [u64]) -> usize {
    let len = u64::from(field >> 6) + 1;
    let bits = 6 / len;
    let item = |i: u64| (u64::from(field) >> (bits * (len - 1 - i))) & ((1 << bits) - 1);
    out[0] = len;
    for i in 0..len {
        out[1 + i as usize] = item(i);
    }
    1 + len as usize
}

/// An own-move record `[CHOSE_TAG, ty] ++ value` unpacked from its id
/// ([`unpack_offered`]), on the stack: a merge imports one per packed
/// record, and a `Vec` took two allocations each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Record {
    words: [u64; 7],
    len: usize,
}

impl std::ops::Deref for Record {
    type Target = [u64];
    fn deref(&self) -> &[u64] {
        &self.words[..self.len]
    }
}

/// The packed id of a record of length field `len`, type `ty` and value
/// field `value` ([`small_record`]) whose offered list has the slot `slot`.
#[inline]
fn pack_offered(slot: u32, (len, ty, value): (u32, u32, u32)) -> u32 {
    let [_, wt, wv] = OFFERED_WIDTHS;
    PACKED | len << 27 | slot << (wt + wv) | ty << wv | value
}

/// The slot and the record `[CHOSE_TAG, ty] ++ value` of `id`, if
/// [`pack_offered`] made it.
fn unpack_offered(id: u32) -> Option<(u32, Record)> {
    let len = (id >> 27) & 7;
    if id & PACKED == 0 || (len != OFFERED_LEN && len != OFFERED_TUPLE_LEN) {
        return None;
    }
    let [ws, wt, wv] = OFFERED_WIDTHS;
    let field = |shift: u32, width: u32| (id >> shift) & ((1 << width) - 1);
    let mut words = [super::words::CHOSE_TAG, u64::from(field(wv, wt)), 0, 0, 0, 0, 0];
    let n = match len {
        OFFERED_LEN => {
            words[2] = u64::from(field(0, wv)).wrapping_sub(2);
            1
        }
        _ => tuple_words(field(0, wv), &mut words[2..]),
    };
    Some((field(wt + wv, ws), Record { words, len: 2 + n }))
}

/// Word `i` of the packed fact `id` (zero past its end).
fn unpacked_word(id: u32, i: usize) -> u64 {
    let n = ((id >> 27) & 7) as usize;
    let widths = &PACK_WIDTHS[n][..n];
    if i >= n {
        return 0;
    }
    let shift: u32 = widths[i + 1..].iter().sum();
    u64::from((id >> shift) & ((1 << widths[i]) - 1)).wrapping_sub(2)
}

fn unpack(id: u32) -> Vec<u64> {
    let n = ((id >> 27) & 7) as usize;
    let widths = &PACK_WIDTHS[n][..n];
    let mut shift: u32 = widths.iter().sum();
    widths
        .iter()
        .map(|&width| {
            shift -= width;
            u64::from((id >> shift) & ((1 << width) - 1)).wrapping_sub(2)
        })
        .collect()
}

/// Distinct facts (word lists) by dense id. Games have few distinct facts,
/// so this stays in cache.
pub(super) struct FactDict {
    /// (start, len) in `words`.
    pub(super) facts: Vec<(u32, u32)>,
    words: Vec<u64>,
    /// Ids by the hash of their words.
    index: IdIndex,
    /// Per slot, the offered list (a choice key's id) that packed own-move
    /// records name by that slot, and the slots by the hash of their list.
    offered: Vec<u32>,
    /// Made when the first slot is given (most games give none).
    offered_index: Option<IdIndex>,
    /// The slot of each list whose key is a dictionary id (`NONE` for
    /// none yet; only as long as the largest such id given a slot): a
    /// load where the index took a call and a probe at each decision node
    /// whose list differs from the last one's (blind tic-tac-toe's).
    slot_by_id: Vec<u32>,
    /// The slots of lists whose keys pack (liar's dice's bids, Leduc's
    /// bets: a bitmask), the last one met per [`packed_key_slot`]
    /// (`(key, NONE)` for none): a load where the index took a call and a
    /// probe at each record whose list differs from the last one's (liar's
    /// dice's, at nearly every decision). Empty until the first such list
    /// gets a slot.
    slot_by_packed_key: Vec<(u32, u32)>,
    /// Ids of four-word facts by a cheap hash of their words
    /// ([`recent_slot`]), the last one looked up per slot; `NONE` for
    /// none, empty until the first such lookup.
    recent: Vec<u32>,
}

/// log2 of the slots of [`FactDict::recent`] (4 KiB).
const RECENT_BITS: u32 = 10;

/// log2 of the entries of [`FactDict::slot_by_packed_key`] (2 KiB).
const PACKED_KEY_BITS: u32 = 8;

/// The entry of a packed list key in [`FactDict::slot_by_packed_key`].
#[inline(always)]
fn packed_key_slot(key: u32) -> usize {
    (u64::from(key).wrapping_mul(K) >> (64 - PACKED_KEY_BITS)) as usize
}

/// The slot of a four-word fact in [`FactDict::recent`]: a cheap hash of
/// its last three words (the first, a choice key's tag, is the same).
#[inline(always)]
fn recent_slot(key: &[u64; 4]) -> usize {
    ((key[1] ^ key[2].rotate_left(8) ^ key[3]).wrapping_mul(K) >> (64 - RECENT_BITS)) as usize
}

/// Hash of `head ++ rest` (the same for every split of the words): four
/// independent multiply chains, word `i` into chain `i % 4`, then mixed, so
/// that long choice lists hash at about a word per cycle.
#[inline]
fn words_hash(head: &[u64], rest: &[u64]) -> u64 {
    #[inline(always)]
    fn mix(lane: u64, w: u64) -> u64 {
        (lane ^ w).wrapping_mul(K).rotate_left(29)
    }
    let n = (head.len() + rest.len()) as u64;
    let mut l = [n, n ^ 0x9e37_79b9_7f4a_7c15, n ^ 0x7f4a_7c15_9e37_79b9, n ^ K];
    for (i, &w) in head.iter().enumerate() {
        l[i & 3] = mix(l[i & 3], w);
    }
    // Lane 0 takes the next word from here on.
    let shift = head.len() & 3;
    l = rotate_lanes(l, shift);
    let mut chunks = rest.chunks_exact(4);
    for c in &mut chunks {
        l = [mix(l[0], c[0]), mix(l[1], c[1]), mix(l[2], c[2]), mix(l[3], c[3])];
    }
    for (k, &w) in chunks.remainder().iter().enumerate() {
        l[k] = mix(l[k], w);
    }
    l = rotate_lanes(l, (4 - shift) & 3);
    let mut h = l[0];
    for lane in &l[1..] {
        h = (h.rotate_left(26) ^ lane).wrapping_mul(K);
    }
    h
}

/// `lanes.rotate_left(by)` (`by` below 4) as four fixed shuffles: the
/// slice method calls `ptr_rotate` and `memcpy`, a cost at every hash
/// (liar's dice hashes an own-move fact at each decision node).
#[inline(always)]
fn rotate_lanes(l: [u64; 4], by: usize) -> [u64; 4] {
    match by {
        0 => l,
        1 => [l[1], l[2], l[3], l[0]],
        2 => [l[2], l[3], l[0], l[1]],
        _ => [l[3], l[0], l[1], l[2]],
    }
}

impl FactDict {
    pub(super) fn new() -> FactDict {
        FactDict {
            facts: Vec::new(),
            words: Vec::new(),
            index: IdIndex::new(),
            offered: Vec::new(),
            offered_index: None,
            slot_by_id: Vec::new(),
            slot_by_packed_key: Vec::new(),
            recent: Vec::new(),
        }
    }

    pub(super) fn get(&self, id: u32) -> &[u64] {
        let (start, len) = self.facts[id as usize];
        &self.words[start as usize..(start + len) as usize]
    }

    /// The words of a fact id (packed or not).
    pub(super) fn words_of(&self, id: u32) -> Vec<u64> {
        if let Some((key, chose)) = self.offered_record(id) {
            [&[super::words::OFFERED_TAG, u64::from(key)][..], &chose[..]].concat()
        } else if id & PACKED != 0 {
            unpack(id)
        } else {
            self.get(id).to_vec()
        }
    }

    /// Word `i` of the fact `id` (packed or not; zero past its end).
    pub(super) fn word(&self, id: u32, i: usize) -> u64 {
        if self.offered_record(id).is_some() {
            self.words_of(id).get(i).copied().unwrap_or(0)
        } else if id & PACKED != 0 {
            unpacked_word(id, i)
        } else {
            self.get(id).get(i).copied().unwrap_or(0)
        }
    }

    /// Whether `id` is the fact `head ++ rest` (its id without a lookup).
    /// Always inlined: it is a memo hit's check, and out of line the call
    /// cost more than the compare (docs/perf/tree-build.md, "The interner").
    #[inline(always)]
    pub(super) fn matches(&self, id: u32, head: &[u64], rest: &[u64]) -> bool {
        if id & PACKED != 0 {
            return pack(head, rest) == Some(id);
        }
        let stored = self.get(id);
        let (h, r) = stored.split_at(head.len().min(stored.len()));
        // The head (a tag and a word) and a short rest (a mask key) word by
        // word: `==` on slices calls memcmp, which pays off only on longer
        // ones.
        let same = |a: &[u64], b: &[u64]| a.iter().zip(b).all(|(x, y)| x == y);
        stored.len() == head.len() + rest.len()
            && same(h, head)
            && if rest.len() <= 4 { same(r, rest) } else { r == rest }
    }

    /// The id of the fact `head ++ rest`: packed if it can be, else from
    /// the dictionary (added if new).
    #[inline]
    pub(super) fn id(&mut self, head: &[u64], rest: &[u64]) -> u32 {
        match pack(head, rest) {
            Some(id) => id,
            None => match self.recent_id(head, rest) {
                Some(id) => id,
                None => self.lookup(head, rest),
            },
        }
    }

    /// The id of the own-move record `[OFFERED_TAG, key] ++ chose`, the
    /// record `chose` (`[CHOSE_TAG, ty, value]`) of a choice among the
    /// list whose choice key has the id `key`
    /// ([`super::InfoInterner::push_offered`]). A record of a small type
    /// and a small value or a fold of small items packs with its list's
    /// slot (a dense number of the lists that such records name), with no
    /// dictionary lookup at the player's next decision (liar's dice's
    /// bids, blind tic-tac-toe's marks); others are in the dictionary.
    /// `last` caches the slot of the list last asked for. A record gets
    /// the same id however it comes: packed iff [`small_record`] takes it
    /// and its list has a slot, which it keeps (slots are given while
    /// fewer than [`OFFERED_SLOTS`] are).
    pub(super) fn offered_id(&mut self, key: u32, chose: &[u64], last: &mut (u32, u32)) -> u32 {
        match self.packed_offered_id(key, chose, last) {
            Some(id) => id,
            None => self.lookup(&[super::words::OFFERED_TAG, u64::from(key)], chose),
        }
    }

    /// [`offered_id`](Self::offered_id) if the record packs.
    #[inline]
    pub(super) fn packed_offered_id(&mut self, key: u32, chose: &[u64], last: &mut (u32, u32)) -> Option<u32> {
        let record = small_record(chose)?;
        if last.0 != key {
            let known = match key & PACKED {
                0 => self.slot_by_id.get(key as usize).copied(),
                _ => {
                    self.slot_by_packed_key.get(packed_key_slot(key)).and_then(|&(k, slot)| (k == key).then_some(slot))
                }
            };
            let slot = match known {
                Some(slot) if slot != super::words::NONE => slot,
                _ => self.offered_slot(key),
            };
            *last = (key, slot);
        }
        (last.1 != super::words::NONE).then(|| pack_offered(last.1, record))
    }

    /// The slot of the offered list `key`, given if it has none yet;
    /// `NONE` when every slot is taken.
    #[inline(never)]
    fn offered_slot(&mut self, key: u32) -> u32 {
        let h = u64::from(key).wrapping_mul(K);
        let offered = &self.offered;
        let index = self.offered_index.get_or_insert_with(IdIndex::new);
        match index.find(h, |slot| offered[slot as usize] == key) {
            Ok(slot) => {
                if let Some(e) = self.slot_by_packed_key.get_mut(packed_key_slot(key)).filter(|_| key & PACKED != 0) {
                    *e = (key, slot);
                }
                slot
            }
            Err(_) if self.offered.len() >= OFFERED_SLOTS => super::words::NONE,
            Err(at) => {
                let slot = self.offered.len() as u32;
                self.offered.push(key);
                index.insert(at, h, slot);
                if key & PACKED == 0 {
                    if self.slot_by_id.len() <= key as usize {
                        self.slot_by_id.resize(key as usize + 1, super::words::NONE);
                    }
                    self.slot_by_id[key as usize] = slot;
                } else {
                    if self.slot_by_packed_key.is_empty() {
                        self.slot_by_packed_key = vec![(0, super::words::NONE); 1 << PACKED_KEY_BITS];
                    }
                    self.slot_by_packed_key[packed_key_slot(key)] = (key, slot);
                }
                slot
            }
        }
    }

    /// The offered list's id and the record `[CHOSE_TAG, ty] ++ value` of
    /// `id`, if it is an own-move record packed with its list's slot.
    pub(super) fn offered_record(&self, id: u32) -> Option<(u32, Record)> {
        let (slot, chose) = unpack_offered(id)?;
        Some((self.offered[slot as usize], chose))
    }

    /// The dictionary's id of `head ++ rest` (added if new); out of line,
    /// so that the packed case inlines into the interner.
    #[inline(never)]
    fn lookup(&mut self, head: &[u64], rest: &[u64]) -> u32 {
        // A short choice list's key (`[INFOSET_TAG, player, form, mask]`,
        // at each decision node whose set the memo does not know: blind
        // tic-tac-toe's) as one array of known length, so that the hash
        // and the compare unroll.
        if let ([a, b], [c, d]) = (head, rest) {
            return self.four_words([*a, *b, *c, *d]);
        }
        self.find_or_add(head, rest)
    }

    /// The id of a fact of four words (a short choice list's key) from
    /// the dictionary, kept in [`FactDict::recent`].
    #[inline(always)]
    fn four_words(&mut self, key: [u64; 4]) -> u32 {
        let id = self.find_or_add(&key, &[]);
        if self.recent.is_empty() {
            self.recent = vec![super::words::NONE; 1 << RECENT_BITS];
        }
        self.recent[recent_slot(&key)] = id;
        id
    }

    /// The id of `head ++ rest` if it is a four-word fact that
    /// [`FactDict::recent`] holds, its words compared in full: blind
    /// tic-tac-toe looks a choice list's key up at each decision node whose
    /// set the memo does not know, among a few hundred (its empty cells).
    #[inline(always)]
    fn recent_id(&self, head: &[u64], rest: &[u64]) -> Option<u32> {
        let (&[a, b], &[c, d]) = (head, rest) else { return None };
        let key = [a, b, c, d];
        let id = *self.recent.get(recent_slot(&key))?;
        let &(start, 4) = self.facts.get(id as usize)? else { return None };
        let stored = &self.words[start as usize..start as usize + 4];
        stored.iter().zip(&key).all(|(x, y)| x == y).then_some(id)
    }

    /// [`lookup`](Self::lookup)'s work, inlined into each of its cases.
    #[inline(always)]
    fn find_or_add(&mut self, head: &[u64], rest: &[u64]) -> u32 {
        let h = words_hash(head, rest);
        let (facts, words) = (&self.facts, &self.words);
        // Word by word: the keys are a few words, and `==` on slices calls
        // libc's memcmp twice a lookup, a call per compare of a few words
        // (liar's dice looks up an own-move fact at each decision node).
        let is_key = |id: u32| {
            let (start, len) = facts[id as usize];
            let stored = &words[start as usize..(start + len) as usize];
            stored.len() == head.len() + rest.len() && stored.iter().zip(head.iter().chain(rest)).all(|(a, b)| a == b)
        };
        match self.index.find(h, is_key) {
            Ok(id) => id,
            Err(slot) => {
                let id = self.facts.len() as u32;
                self.facts.push((self.words.len() as u32, (head.len() + rest.len()) as u32));
                self.words.extend_from_slice(head);
                self.words.extend_from_slice(rest);
                self.index.insert(slot, h, id);
                id
            }
        }
    }

    pub(super) fn bytes(&self) -> usize {
        self.facts.capacity() * 8
            + self.words.capacity() * 8
            + self.index.bytes()
            + self.offered.capacity() * 4
            + self.offered_index.as_ref().map_or(0, IdIndex::bytes)
            + self.slot_by_id.capacity() * 4
            + self.slot_by_packed_key.capacity() * 8
            + self.recent.capacity() * 4
    }
}

#[cfg(test)]
mod tests;
