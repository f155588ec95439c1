//! Unit tests of the interner: exact sets, keys, the memo and imports.
use super::*;
use crate::value::Encode;

#[test]
fn equal_fact_lists_are_one_state_and_order_matters() {
    let mut i = InfoInterner::new();
    let a = i.push(InfoState::EMPTY, &[1, 3]);
    let b = i.push(a, &[2, 7]);
    let a2 = i.push(InfoState::EMPTY, &[1, 3]);
    let b2 = i.push(a2, &[2, 7]);
    assert_eq!(i.resolve(b), i.resolve(b2));
    let first = i.push(InfoState::EMPTY, &[2, 7]);
    let c = i.push(first, &[1, 3]);
    assert_ne!(i.resolve(b), i.resolve(c));
    assert_eq!(i.facts(b), vec![vec![1u64, 3], vec![2, 7]]);
    let rb = i.resolve(b);
    assert_eq!(i.facts(rb), vec![vec![1u64, 3], vec![2, 7]]);
    // A fact that is a prefix of another is a different fact.
    let (x, y) = (i.push(InfoState::EMPTY, &[1]), i.push(InfoState::EMPTY, &[1, 0]));
    assert_ne!(i.resolve(x), i.resolve(y));
}

#[test]
fn infosets_need_equal_player_state_and_choices() {
    let mut i = InfoInterner::new();
    let st = i.push(InfoState::EMPTY, &[5]);
    let (x, new_x) = i.infoset(0, st, &[0, 1]);
    let (y, new_y) = i.infoset(0, st, &[0, 1]);
    assert!(new_x && !new_y && x == y);
    assert_ne!(i.infoset(1, st, &[0, 1]).0, x);
    assert_ne!(i.infoset(0, st, &[0, 2]).0, x);
    assert_eq!(i.infoset_choices(x), vec![0, 1]);
}

#[test]
fn choice_keys_are_equal_exactly_for_equal_lists() {
    fn key<T: Encode>(ty: u32, xs: &[T]) -> Vec<u64> {
        choice_key(ty, xs, &mut [0; 2], &mut Vec::new()).to_vec()
    }
    // Ascending one-word values below 64 take the bitmask form.
    assert_eq!(key(3, &[0u8, 2]), vec![13, 0b101]);
    assert_eq!(key(3, &[63i64]), vec![13, 1 << 63]);
    assert_eq!(key(0, &[false, true]), vec![1, 0b11]);
    // Ascending sequences of one to three small items (below 2^(6 / len))
    // take a bitmask of their items side by side, with their length.
    assert_eq!(key(1, &[(1i64, 2i64)]), vec![7 + (2 << 48), 1 << (1 << 3 | 2)]);
    assert_eq!(key(1, &[(0i64, 0i64), (1, 2)]), vec![7 + (2 << 48), 1 | 1 << 10]);
    assert_eq!(key(1, &[(1u8, 2i64, true)]), vec![7 + (3 << 48), 1 << (1 << 4 | 2 << 2 | 1)]);
    assert_eq!(key(1, &[[7i64, 0]]), vec![7 + (2 << 48), 1 << 56]);
    assert_eq!(key(2, &[(63i64,)]), vec![11 + (1 << 48), 1 << 63]);
    // Other one-word values, and short sequences of small scalars
    // (folded: the length, then a byte each), take a word each.
    assert_eq!(key(3, &[2u8, 0]), vec![14, 2, 0]);
    assert_eq!(key(3, &[1i64, 1]), vec![14, 1, 1]);
    assert_eq!(key(3, &[64i64]), vec![14, 64]);
    assert_eq!(key(3, &[-1i64, 0]), vec![14, u64::MAX, 0]);
    assert_eq!(key(1, &[(1i64, 8i64)]), vec![6, 2 << 16 | 1 << 8 | 8]);
    assert_eq!(key(1, &[(1i64, 2i64), (0, 0)]), vec![6, 2 << 16 | 1 << 8 | 2, 2 << 16]);
    assert_eq!(key(1, &[(1i64,), (1i64,)]), vec![6, 1 << 8 | 1, 1 << 8 | 1]);
    assert_eq!(key(1, &[(1u8, 4i64, true)]), vec![6, 3 << 24 | 1 << 16 | 4 << 8 | 1]);
    assert_eq!(key(1, &[(0i64, 0i64, 0i64, 0i64)]), vec![6, 4 << 32]);
    // Sequences with a word of 256 or more, or of more than 7 items,
    // take the full encoding.
    assert_eq!(key(1, &[(1i64, 256i64)]), vec![4, 2, 1, 256]);
    assert_eq!(key(1, &[(1i64, 2i64), (-1, 0)]), vec![4, 2, 1, 2, 2, u64::MAX, 0]);
    assert_eq!(key(2, &[[0u8; 8]]), vec![8, 8, 0, 0, 0, 0, 0, 0, 0, 0]);
    // A list, a tuple and an array of the same items fold alike (the
    // interpreter holds all three as one kind of sequence).
    let list = crate::value::List::from_vec(vec![1i64, 2]);
    assert_eq!(list.word(), (1i64, 2i64).word());
    assert_eq!(list.word(), [1i64, 2].word());
    assert_eq!(crate::value::List::<i64>::default().word(), Some(0));

    // Every list of up to three scalars (some out of the bitmask
    // form's range) of two types, and every list of up to two
    // sequences (some folding, some not: an item of 256, or 8 items)
    // of two types: equal keys exactly for equal lists.
    fn assert_one_to_one<T: Encode + PartialEq + std::fmt::Debug>(lists: &[(u32, Vec<T>)]) {
        let keys: Vec<Vec<u64>> = lists.iter().map(|(ty, xs)| key(*ty, xs)).collect();
        for (i, a) in keys.iter().enumerate() {
            for (j, b) in keys.iter().enumerate() {
                assert_eq!(a == b, lists[i] == lists[j], "{:?} and {:?}", lists[i], lists[j]);
            }
        }
    }
    fn lists_of<T: Clone>(values: &[T], max_len: usize) -> Vec<(u32, Vec<T>)> {
        let mut lists = Vec::new();
        for ty in [1, 2] {
            let mut level = vec![Vec::new()];
            for _ in 0..=max_len {
                lists.extend(level.iter().map(|xs| (ty, xs.clone())));
                level = level
                    .iter()
                    .flat_map(|xs| values.iter().map(move |v| [xs.clone(), vec![v.clone()]].concat()))
                    .collect();
            }
        }
        lists
    }
    assert_one_to_one(&lists_of(&[-1i64, 0, 1, 2, 5, 63, 64], 3));
    let items = [0i64, 1, 255, 256];
    let mut seqs: Vec<crate::value::List<i64>> = lists_of(&items, 2)
        .into_iter()
        .filter(|(ty, _)| *ty == 1)
        .map(|(_, xs)| crate::value::List::from_vec(xs))
        .collect();
    seqs.push(crate::value::List::from_vec(vec![1; 7]));
    seqs.push(crate::value::List::from_vec(vec![1; 8]));
    assert_one_to_one(&lists_of(&seqs, 2));
    // Pairs and triples of small items (some too large for the bitmask).
    let pairs: Vec<(i64, i64)> = [(0, 0), (0, 1), (1, 0), (7, 7), (8, 0), (2, 3)].to_vec();
    assert_one_to_one(&lists_of(&pairs, 3));
    let triples: Vec<(i64, i64, u8)> = [(0, 0, 1), (0, 2, 2), (2, 1, 1), (3, 3, 3), (4, 0, 0)].to_vec();
    assert_one_to_one(&lists_of(&triples, 3));
}

#[test]
fn packed_and_dictionary_facts_round_trip_and_never_collide() {
    let mut i = InfoInterner::new();
    let facts: Vec<Vec<u64>> = vec![
        vec![0],
        vec![u64::MAX],
        vec![u64::MAX - 1, 1, 2],
        vec![(1 << 27) - 3],
        vec![(1 << 27) - 2],
        vec![1, (1 << 22) - 3],
        vec![1, (1 << 22) - 2],
        vec![(1 << 5) - 3, 7],
        vec![(1 << 5) - 2, 7],
        vec![2, 12 << 16],
        vec![u64::MAX, 1, 12 << 16],
        vec![u64::MAX, 3, 2, (1 << 14) - 3],
        vec![u64::MAX, 3, 2, (1 << 14) - 2],
        vec![u64::MAX, 1, 5, 9, 13, 13],
        vec![u64::MAX, 1, 5, 9, 13, 14],
        vec![1, 2, 3, 4, 5, 6, 7],
        vec![(-1i64) as u64, 0],
        vec![0, 0, 0],
        vec![0, 0],
    ];
    let mut ids = std::collections::HashSet::new();
    for f in &facts {
        let id = i.facts.id(f, &[]);
        assert!(ids.insert(id), "{f:?}");
        assert_eq!(i.facts.id(&f[..1], &f[1..]), id);
        assert_eq!(&i.facts.words_of(id), f);
    }
}

#[test]
fn pending_facts_that_pack_and_that_do_not_keep_their_words() {
    // Long facts keep their words until looked up; short ones are packed
    // when pushed. Both read back, truncate, and intern alike.
    let long: Vec<u64> = (0..9).collect();
    let mut i = InfoInterner::new();
    let a = i.push(InfoState::EMPTY, &long);
    let b = i.push(a, &[4, 2]);
    let mark = i.mark();
    let c = i.push(b, &[u64::MAX, 1, 1 << 40]);
    let d = i.push(c, &long[..7]);
    assert_eq!(i.facts(d), vec![long.clone(), vec![4, 2], vec![u64::MAX, 1, 1 << 40], long[..7].to_vec()]);
    let (set, _) = i.infoset(1, d, &[3]);
    i.truncate(mark);
    assert_eq!(i.facts(b), vec![long.clone(), vec![4, 2]]);
    let c2 = i.push(b, &[u64::MAX, 1, 1 << 40]);
    let d2 = i.push(c2, &long[..7]);
    assert_eq!(i.facts(d2), vec![long.clone(), vec![4, 2], vec![u64::MAX, 1, 1 << 40], long[..7].to_vec()]);
    assert_eq!(i.infoset(1, d2, &[3]), (set, false));
    // The same facts pushed afresh are the same state.
    let a3 = i.push(InfoState::EMPTY, &long);
    let b3 = i.push(a3, &[4, 2]);
    assert_eq!(i.resolve(b3), i.resolve(b));
}

#[test]
fn truncated_pending_facts_leave_interned_ones_intact() {
    let mut i = InfoInterner::new();
    let a = i.push(InfoState::EMPTY, &[1]);
    let mark = i.mark();
    let b = i.push(a, &[2]);
    let (set, _) = i.infoset(0, b, &[9]);
    i.truncate(mark);
    // The pending slot is reused; the information set is still found.
    let b2 = i.push(a, &[2]);
    assert_eq!(b2, b);
    assert_eq!(i.infoset(0, b2, &[9]), (set, false));
    let c = i.push(a, &[3]);
    assert_ne!(i.infoset(0, c, &[9]).0, set);
}

#[test]
fn a_replayed_subtree_adds_no_memo_entries() {
    // A player sees a card, chooses, sees the opponent's move, chooses
    // again, ...; the same subtree is then explored again (as under
    // another card of the opponent). Siblings share pending facts, so
    // a memo hit must intern them as a miss does, or the replay would
    // meet its keys in other shapes and add entries.
    let mut i = InfoInterner::new();
    let mut entries = None;
    for _ in 0..3 {
        let mark = i.mark();
        let card = i.push(InfoState::EMPTY, &[1, 5]);
        let root = i.infoset(0, card, &[0, 1]).0;
        for a in 0..2 {
            let chose = i.push(card, &[CHOSE_TAG, a]);
            for b in 0..3 {
                let seen = i.push(chose, &[2, b]);
                let (set, _) = i.infoset(0, seen, &[0, 1]);
                assert_ne!(set, root);
                for c in 0..2 {
                    let again = i.push(seen, &[CHOSE_TAG, c]);
                    let last = i.push(again, &[2, c]);
                    i.infoset(0, last, &[0, 1]);
                }
            }
        }
        i.truncate(mark);
        let now = i.memo.len();
        assert_eq!(*entries.get_or_insert(now), now);
    }
    assert_eq!(i.n_infosets(), 1 + 2 * 3 + 2 * 3 * 2);
}

#[test]
fn many_children_and_growth_keep_states_distinct() {
    let mut i = InfoInterner::new();
    let mut seen = std::collections::HashSet::new();
    for x in 0..5000u64 {
        let s = i.push(InfoState::EMPTY, &[x % 7, x]);
        let s = i.push(s, &[x / 3]);
        assert!(seen.insert(i.resolve(s)));
    }
    for x in 0..5000u64 {
        let s = i.push(InfoState::EMPTY, &[x % 7, x]);
        let s = i.push(s, &[x / 3]);
        assert!(seen.contains(&i.resolve(s)));
    }
}

/// An interner's sets looked up in another ([`InfoInterner::find_infoset`])
/// are found exactly when that one has the same key (player, facts with
/// packed and dictionary words, choices), as importing them finds, and
/// nothing is added; once kept as keys alone, they still import.
#[test]
fn sets_of_another_interner_are_found_exactly_and_without_adding() {
    let long: Vec<u64> = (0..40).collect();
    let sets = |i: &mut InfoInterner, extra: u64| {
        let a = i.push(InfoState::EMPTY, &[1, 2]);
        let b = i.push(a, &long);
        let c = i.push(b, &[3, extra]);
        vec![i.infoset(0, a, &[0, 1]).0, i.infoset(1, b, &long).0, i.infoset(0, c, &[0, 1]).0, i.infoset(1, c, &[7]).0]
    };
    let mut here = InfoInterner::new();
    let ours = sets(&mut here, 4);
    let mut there = InfoInterner::new();
    // Only the last two sets' states differ (the fact `[3, 5]`).
    let theirs = sets(&mut there, 5);
    let keys = there.into_keys();
    let (n_sets, n_states) = (here.n_infosets(), here.entries.len());
    let mut cache = ImportCache::default();
    let found: Vec<Option<u32>> = theirs.iter().map(|&s| here.find_infoset(&keys, s, &mut cache)).collect();
    assert_eq!(found, vec![Some(ours[0]), Some(ours[1]), None, None]);
    assert_eq!((here.n_infosets(), here.entries.len()), (n_sets, n_states));
    let mut cache = ImportCache::default();
    let imported: Vec<(u32, bool)> = theirs.iter().map(|&s| here.import_infoset(&keys, s, &mut cache)).collect();
    assert_eq!(&imported[..2], &[(ours[0], false), (ours[1], false)]);
    assert!(imported[2..].iter().all(|&(s, new)| new && !ours.contains(&s)));
}

/// A move recorded with its offered list by id is the same fact list as
/// the list spelled out: equal records and lists make one state, a
/// different list another, whichever information set came before, and the
/// facts and an import give the words back.
#[test]
fn moves_recorded_with_their_offered_list_by_id_are_exact() {
    // A record that packs with its list's id, and two that do not (a
    // large value, a large type): looked up in the dictionary.
    for chose in [[CHOSE_TAG, 0, 7], [CHOSE_TAG, 0, 1 << 40], [CHOSE_TAG, 17, 7]] {
        moves_recorded_by_id_are_exact(chose);
    }
}

fn moves_recorded_by_id_are_exact(chose: [u64; 3]) {
    let long: Vec<u64> = (0..19u64).map(|w| 2 + (w << 40)).collect();
    let other: Vec<u64> = long.iter().map(|w| w + 1).collect();
    let mut i = InfoInterner::new();
    let card = i.push(InfoState::EMPTY, &[1, 5]);
    let (set, _) = i.infoset(0, card, &long);
    let a = i.push_offered(card, 0, &chose, &long);
    // Not after its own set: the list is looked up.
    i.infoset(1, card, &other);
    let b = i.push_offered(card, 0, &chose, &long);
    let c = i.push_offered(card, 0, &chose, &other);
    let d = i.push_offered(card, 1, &chose, &long);
    assert_eq!(i.resolve(a), i.resolve(b));
    assert_ne!(i.resolve(a), i.resolve(c));
    assert_eq!(i.facts(a), vec![vec![1, 5], [&chose[..], &long].concat()]);
    // Another player's record names its list through its own sets: the
    // same words (states are compared within one player's).
    let d = i.resolve(d);
    assert_eq!(i.facts(d), i.facts(a));
    // Made now or later from its list's id (a deferred record), a record
    // is the same fact, with a long list or a short one.
    for list in [&long[..], &[5, 6]] {
        let now = i.push_offered(card, 0, &chose, list);
        let (_, _, key) = i.infoset_with_key(0, card, list);
        let later = i.push_deferred(card, key, &chose);
        assert_eq!(i.resolve(now), i.resolve(later));
        assert_eq!(i.facts(later)[1], [&chose[..], list].concat());
    }
    let next = i.infoset(0, a, &[4, 2]).0;
    assert_ne!(next, set);
    // Imported into an interner that has met other lists first.
    let mut j = InfoInterner::new();
    j.infoset(0, InfoState::EMPTY, &other);
    // The other list takes the first slot here (a record that packs
    // names its list by slot).
    j.push_offered(InfoState::EMPTY, 0, &chose, &other);
    let want = i.facts(a);
    let keys = i.into_keys();
    let mut cache = ImportCache::default();
    let (moved, new) = j.import_infoset(&keys, next, &mut cache);
    assert!(new);
    assert_eq!(j.facts(j.infoset_key(moved).state), want);
    let card = j.push(InfoState::EMPTY, &[1, 5]);
    let again = j.push_offered(card, 0, &chose, &long);
    assert_eq!(j.infoset(0, again, &[4, 2]), (moved, false));
}
