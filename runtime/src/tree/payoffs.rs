//! The distinct payoff vectors of a tree.
//!
//! Most leaves of a game share their payoff vector with many others (a poker
//! hand ends with one of a few pot sizes won or lost), so a leaf stores the
//! id of its vector here instead of the vector: 4 bytes per leaf instead of
//! 8 per player, which is less memory to fault in and to write.

/// Multiplier of the hash (odd, well mixed).
const K: u64 = 0x9e37_79b9_7f4a_7c15;
const EMPTY: u32 = u32::MAX;

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
}

impl PayoffTable {
    pub(super) fn new(n: usize) -> PayoffTable {
        PayoffTable { n, count: 0, values: Vec::new(), slots: vec![EMPTY; 1 << 6], shift: 64 - 6 }
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

    /// The id of the vector `v` (of `n` entries), added if new.
    #[inline]
    pub(super) fn intern(&mut self, v: &[i64]) -> u32 {
        debug_assert_eq!(v.len(), self.n);
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
        (self.values.capacity() * 8 + self.slots.capacity() * 4) as u64
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
}
