//! Tests of fact packing and the fact dictionary.

use super::*;

#[test]
fn a_packed_facts_words_are_read_one_by_one() {
    for fact in [vec![5u64], vec![u64::MAX - 1, 1], vec![3, 0, 7, 100], vec![1, 2, 3, 4, 5, 6]] {
        let id = pack(&fact, &[]).expect("packs");
        let words: Vec<u64> = (0..fact.len() + 1).map(|i| unpacked_word(id, i)).collect();
        assert_eq!(words[..fact.len()], fact[..]);
        assert_eq!((unpack(id), words[fact.len()]), (fact, 0));
    }
}

#[test]
fn a_packed_move_record_gives_its_words_back_and_is_no_other_packed_fact() {
    use super::super::words::{CHOSE_TAG, NONE, OFFERED_TAG};
    let mut dict = FactDict::new();
    let mut last = (NONE, NONE);
    let lists: Vec<u32> = vec![PACKED | 5, 3, PACKED | 5 << 27 | 77, 0];
    let small = [(0u64, 0u64), (1, 12), (15, 253), (2, u64::MAX - 1)];
    let tuples = [vec![3, 3, 0, 2], vec![2, 7, 5], vec![1, 63], vec![1, 0]];
    let records = small.map(|(ty, v)| vec![CHOSE_TAG, ty, v]).into_iter();
    for chose in records.chain(tuples.map(|t| [&[CHOSE_TAG, 3][..], &t].concat())) {
        for &key in &lists {
            let id = dict.offered_id(key, &chose, &mut last);
            let words = [&[OFFERED_TAG, u64::from(key)][..], &chose].concat();
            assert_eq!(dict.words_of(id), words);
            let n = words.len();
            assert_eq!((0..=n).map(|i| dict.word(id, i)).collect::<Vec<_>>(), [&words[..], &[0]].concat());
            assert_eq!(dict.offered_record(id).map(|(k, r)| (k, r.to_vec())), Some((key, chose.clone())));
            assert!(id & PACKED != 0 && pack(&words, &[]).is_none());
            // The same id again, whichever list was asked for last.
            assert_eq!(dict.offered_id(key, &chose, &mut (NONE, NONE)), id);
        }
    }
    assert_eq!(dict.offered.len(), lists.len());
    assert_eq!(dict.offered_record(pack(&[CHOSE_TAG, 0, 7], &[]).expect("packs")), None);
    // Records of a large type or value, or of more words, are looked up.
    let large =
        [vec![254], vec![3, 4, 0, 0], vec![2, 1, 8], vec![1, 64], vec![4, 0, 0, 0, 0], vec![2, 1], vec![1, 2, 3]];
    let records = large.map(|v| [&[CHOSE_TAG, 0][..], &v].concat());
    for chose in
        [vec![CHOSE_TAG, 16, 1], vec![CHOSE_TAG, 16, 1, 0], vec![CHOSE_TAG, 0, 5, 1, 2]].into_iter().chain(records)
    {
        let id = dict.offered_id(3, &chose, &mut last);
        assert_eq!(id & PACKED, 0);
        assert_eq!(dict.words_of(id), [&[OFFERED_TAG, 3][..], &chose].concat());
    }
}

/// Lists whose keys pack, more than [`super::PACKED_KEY_BITS`] has
/// entries (so that some share one), keep one slot each, asked for in any
/// order: a record names its own list, never another's.
#[test]
fn packed_list_keys_keep_their_slots_through_the_shared_entries() {
    use super::super::words::{CHOSE_TAG, NONE};
    let mut dict = FactDict::new();
    let keys: Vec<u32> = (0..3 << super::PACKED_KEY_BITS).map(|i| PACKED | (5 << 27) | (i * 7)).collect();
    let chose = [CHOSE_TAG, 1, 2];
    let ids: Vec<u32> = keys.iter().map(|&k| dict.offered_id(k, &chose, &mut (NONE, NONE))).collect();
    for (n, &i) in [0, 1, 2].iter().cycle().take(keys.len() * 2).enumerate() {
        let at = (n * 7 + i) % keys.len();
        let id = dict.offered_id(keys[at], &chose, &mut (NONE, NONE));
        assert_eq!(id, ids[at]);
        assert_eq!(dict.offered_record(id).map(|(k, _)| k), Some(keys[at]));
    }
    assert_eq!(dict.offered.len(), keys.len());
}

/// Every tuple a field takes comes back from it, so no two share one;
/// the fields fit their width.
#[test]
fn tuple_fields_give_their_words_back() {
    let mut taken = 0;
    // Items up to 17 and large ones, in tuples of each length, and
    // lengths that do not match the items.
    let items: Vec<u64> = (0..18).chain([200, u64::MAX]).collect();
    for len in 0..=4u64 {
        for n in 0..=4 {
            for i in 0..items.len().pow(n) {
                let words: Vec<u64> =
                    std::iter::once(len).chain((0..n).map(|k| items[i / items.len().pow(k) % items.len()])).collect();
                if let Some(field) = tuple_field(&words) {
                    assert!(field >> OFFERED_WIDTHS[2] == 0 && len == u64::from(n), "{words:?}");
                    let mut out = [0; 5];
                    let n = tuple_words(field, &mut out);
                    assert_eq!(out[..n], words[..]);
                    taken += 1;
                }
            }
        }
    }
    assert_eq!(taken, 18 + 64 + 64);
    assert_eq!((tuple_field(&[]), tuple_field(&[0])), (None, None));
}

/// Four-word facts, more than [`super::RECENT_BITS`] has slots (so
/// that some share one), keep one id each, found again through
/// `recent` or the dictionary, and never another key's.
#[test]
fn four_word_facts_keep_their_ids_through_the_recent_slots() {
    let mut dict = FactDict::new();
    let key = |k: u64| ([super::super::words::INFOSET_TAG, k % 2], [7, 1 << 40 | k << 20]);
    let n = 3 << super::RECENT_BITS;
    let ids: Vec<u32> = (0..n).map(|k| dict.id(&key(k).0, &key(k).1)).collect();
    for round in 0..2 {
        for k in (0..n).rev().chain(0..n) {
            let (head, rest) = key(k);
            assert_eq!(dict.id(&head, &rest), ids[k as usize], "{k} in round {round}");
        }
    }
    assert_eq!(dict.facts.len() as u64, n);
}

#[test]
fn lanes_rotate_as_the_slice_method_does() {
    for by in 0..4 {
        let mut rotated = [1u64, 2, 3, 4];
        rotated.rotate_left(by);
        assert_eq!(rotate_lanes([1, 2, 3, 4], by), rotated);
    }
}

#[test]
fn the_hash_does_not_depend_on_where_the_words_are_split() {
    let words: Vec<u64> = (0..23u64).map(|i| i.wrapping_mul(0x1234_5678_9abc_def1)).collect();
    for n in 0..words.len() {
        let whole = words_hash(&words[..n], &[]);
        for split in 0..=n {
            assert_eq!(words_hash(&words[..split], &words[split..n]), whole, "n {n} split {split}");
        }
    }
}
