//! The distinct payoff vectors of a tree.
//!
//! Most leaves of a game share their payoff vector with many others (a poker
//! hand ends with one of a few pot sizes won or lost), so a leaf stores the
//! id of its vector here instead of the vector: 4 bytes per leaf instead of
//! 8 per player, which is less memory to fault in and to write.
//!
//! Vectors of small payoffs (each entry within a few bits, as in most
//! games' leaves) are found by their entries alone, in a direct table
//! ([`PayoffTable::small`]): no hash, no probe, no compare.

/// Multiplier of the hash (odd, well mixed).
const K: u64 = 0x9e37_79b9_7f4a_7c15;
const EMPTY: u32 = u32::MAX;
/// Bits of a small vector's key ([`PayoffTable::small_key`]): its entries
/// packed, `SMALL_KEY_BITS / n` bits each.
const SMALL_KEY_BITS: u32 = 10;

/// Payoff vectors of `n` entries each, numbered by first appearance.
#[derive(Clone, Debug)]
pub(super) struct PayoffTable {
    n: usize,
    /// Vectors so far (not `values.len() / n`: `n` may be 0).
    count: u32,
    /// Vector `id` is `values[id * n .. (id + 1) * n]`.
    values: Vec<i64>,
    /// Open addressing on the vectors' hash (at most half full): ids.
    slots: Vec<u32>,
    shift: u32,
    /// Bits of each entry in a small vector's key (0: no vector is small:
    /// `n` is 0 or above `SMALL_KEY_BITS / 2`).
    small_bits: u32,
    /// Per small vector's key, its id plus one (0: not met yet, or an id
    /// too large to hold), made at the first small vector.
    small: Vec<u16>,
}

impl PayoffTable {
    pub(super) fn new(n: usize) -> PayoffTable {
        let small_bits = match u32::try_from(n) {
            Ok(n @ 1..) if SMALL_KEY_BITS / n >= 2 => SMALL_KEY_BITS / n,
            _ => 0,
        };
        PayoffTable {
            n,
            count: 0,
            values: Vec::new(),
            slots: vec![EMPTY; 1 << 6],
            shift: 64 - 6,
            small_bits,
            small: Vec::new(),
        }
    }

    /// The key of `v` in [`Self::small`] when each entry fits in
    /// `small_bits` bits (as a signed number), its entries packed: without
    /// a branch on the entries, and two entries (two players) unrolled.
    #[inline]
    fn small_key(&self, v: &[i64]) -> Option<usize> {
        let bits = self.small_bits;
        if bits == 0 {
            return None;
        }
        let half = 1u64 << (bits - 1);
        let biased = |x: i64| (x as u64).wrapping_add(half);
        let (key, over) = match *v {
            [x, y] => {
                let (x, y) = (biased(x), biased(y));
                (x << bits | y, (x | y) >> bits)
            }
            _ => v.iter().fold((0, 0), |(key, over), &x| (key << bits | biased(x), over | biased(x) >> bits)),
        };
        (over == 0).then_some(key as usize)
    }

    #[inline]
    fn hash(v: &[i64]) -> u64 {
        v.iter().fold(v.len() as u64, |h, &x| (h.rotate_left(29) ^ x as u64).wrapping_mul(K))
    }

    pub(super) fn len(&self) -> usize {
        self.count as usize
    }

    #[inline]
    pub(super) fn get(&self, id: u32) -> &[i64] {
        let start = id as usize * self.n;
        &self.values[start..start + self.n]
    }

    /// The id of the vector `v` (of `n` entries), added if new. Always
    /// inlined into the builder's loop: it runs at every leaf, and a call
    /// cost as much as the small vectors' direct lookup
    /// (docs/perf/tree-build.md, "The interner").
    #[inline(always)]
    pub(super) fn intern(&mut self, v: &[i64]) -> u32 {
        debug_assert_eq!(v.len(), self.n);
        let Some(key) = self.small_key(v) else { return self.intern_hashed(v) };
        if let Some(&known @ 1..) = self.small.get(key) {
            return u32::from(known) - 1;
        }
        self.intern_small(v, key)
    }

    /// [`Self::intern`] of a small vector not in [`Self::small`] yet.
    #[cold]
    #[inline(never)]
    fn intern_small(&mut self, v: &[i64], key: usize) -> u32 {
        let id = self.intern_hashed(v);
        if self.small.is_empty() {
            self.small = vec![0; 1 << SMALL_KEY_BITS];
        }
        if let Ok(known) = u16::try_from(id.saturating_add(1)) {
            self.small[key] = known;
        }
        id
    }

    /// [`Self::intern`] through the hash table.
    #[inline]
    fn intern_hashed(&mut self, v: &[i64]) -> u32 {
        let mask = self.slots.len() - 1;
        let mut i = (Self::hash(v) >> self.shift) as usize;
        loop {
            let id = self.slots[i];
            if id == EMPTY {
                break;
            }
            // Word by word: a slice `==` calls memcmp, slow for a few words.
            if self.get(id).iter().zip(v).all(|(a, b)| a == b) {
                return id;
            }
            i = (i + 1) & mask;
        }
        let id = self.count;
        self.count += 1;
        self.values.extend_from_slice(v);
        self.slots[i] = id;
        if self.len() * 2 > self.slots.len() {
            self.grow();
        }
        id
    }

    #[cold]
    fn grow(&mut self) {
        let n = self.slots.len() * 2;
        self.shift -= 1;
        self.slots = vec![EMPTY; n];
        for id in 0..self.len() as u32 {
            let mut i = (Self::hash(self.get(id)) >> self.shift) as usize;
            while self.slots[i] != EMPTY {
                i = (i + 1) & (n - 1);
            }
            self.slots[i] = id;
        }
    }

    pub(super) fn shrink_to_fit(&mut self) {
        self.values.shrink_to_fit();
    }

    pub(super) fn bytes(&self) -> u64 {
        (self.values.capacity() * 8 + self.slots.capacity() * 4 + self.small.capacity() * 2) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::PayoffTable;

    #[test]
    fn equal_vectors_share_an_id_and_ids_follow_first_appearance() {
        let mut t = PayoffTable::new(2);
        let mut ids = Vec::new();
        for k in 0..1000i64 {
            ids.push(t.intern(&[k % 37, -(k % 37)]));
        }
        assert_eq!(t.len(), 37);
        for (k, &id) in ids.iter().enumerate() {
            assert_eq!(t.get(id), &[k as i64 % 37, -(k as i64 % 37)]);
        }
        assert_eq!(ids[..37], (0..37).collect::<Vec<u32>>()[..]);
        // Order within a vector matters.
        assert_ne!(t.intern(&[1, 2]), t.intern(&[2, 1]));
    }

    #[test]
    fn small_and_large_vectors_share_one_numbering() {
        // Entries at the edges of the small keys' range (5 bits a player
        // for two players: -16..=15) and just past them, and wide ones.
        let edges = [-17i64, -16, -1, 0, 1, 15, 16, i64::MIN, i64::MAX];
        for n in [1usize, 2, 3, 5, 6] {
            let mut t = PayoffTable::new(n);
            let mut firsts: Vec<Vec<i64>> = Vec::new();
            for round in 0..2 {
                for (k, &x) in edges.iter().enumerate() {
                    let v: Vec<i64> =
                        (0..n).map(|i| if i % 2 == 0 { x } else { edges[(k + i) % edges.len()] }).collect();
                    let id = t.intern(&v);
                    let expected = firsts.iter().position(|f| *f == v).unwrap_or(firsts.len());
                    assert_eq!(id as usize, expected, "n {n}, round {round}, {v:?}");
                    if expected == firsts.len() {
                        firsts.push(v.clone());
                    }
                    assert_eq!(t.get(id), &v[..]);
                }
            }
            assert_eq!(t.len(), firsts.len());
        }
    }
}
