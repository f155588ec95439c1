//! An open-addressing hash map with inline keys, for the interner's trie.

use super::NONE;

/// Multiplier of the interner's hashes (odd, well mixed).
pub(super) const K: u64 = 0xf135_7aea_2e62_a9c5;

/// An open-addressing hash map from `[u32; N]` to `u32` with the keys
/// inline, so that a lookup touches one cache line (linear probing, at most
/// half full; the value `NONE` marks an empty slot).
pub(super) struct FlatMap<const N: usize> {
    slots: Vec<([u32; N], u32)>,
    pub(super) len: usize,
    shift: u32,
}

impl<const N: usize> FlatMap<N> {
    pub(super) fn new() -> Self {
        FlatMap { slots: vec![([0; N], NONE); 1 << 10], len: 0, shift: 64 - 10 }
    }

    /// The home slot: the first half of the key picks a run of 8 slots,
    /// the second half the slot in it. Keys sharing their first half (the
    /// children of one state) are looked up close together in time by the
    /// depth-first builder, and this way they also share cache lines.
    #[inline]
    fn home(&self, key: &[u32; N]) -> usize {
        let (mut h1, mut h2) = (0u64, 0u64);
        for &k in &key[..N / 2] {
            h1 = (h1.rotate_left(32) ^ u64::from(k)).wrapping_mul(K);
        }
        for &k in &key[N / 2..] {
            h2 = (h2.rotate_left(32) ^ u64::from(k)).wrapping_mul(K);
        }
        (((h1 >> self.shift) as usize) & !7) | (h2 >> 61) as usize
    }

    /// The value of `key`, or the empty slot where it would go.
    #[inline]
    pub(super) fn find(&self, key: &[u32; N]) -> Result<u32, usize> {
        let mask = self.slots.len() - 1;
        let mut i = self.home(key);
        loop {
            let (k, v) = &self.slots[i];
            if *v == NONE {
                return Err(i);
            }
            if k == key {
                return Ok(*v);
            }
            i = (i + 1) & mask;
        }
    }

    /// Inserts at the slot `find` returned.
    pub(super) fn insert_at(&mut self, slot: usize, key: [u32; N], value: u32) {
        self.slots[slot] = (key, value);
        self.len += 1;
        if self.len * 2 > self.slots.len() {
            let n = self.slots.len() * 2;
            let old = std::mem::replace(&mut self.slots, vec![([0; N], NONE); n]);
            self.shift -= 1;
            let mask = self.slots.len() - 1;
            for (k, v) in old.into_iter().filter(|(_, v)| *v != NONE) {
                let mut i = self.home(&k);
                while self.slots[i].1 != NONE {
                    i = (i + 1) & mask;
                }
                self.slots[i] = (k, v);
            }
        }
    }

    pub(super) fn bytes(&self) -> usize {
        self.slots.capacity() * std::mem::size_of::<([u32; N], u32)>()
    }
}

