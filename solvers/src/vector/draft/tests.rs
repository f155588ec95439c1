//! The draft's payoff tables (a byte per deal, shared by tables whose
//! deals win, tie and lose alike; their forms per pair averaged per deal
//! or per pair alike) and its decisions' lists of deals and sets.

use std::rc::Rc;

use super::{Deals, Draft, Index, Pays};

/// Two showdown tables at different stakes whose deals win, tie and
/// lose alike share one byte per deal, and each gives back its own
/// payoffs; a table of more than 256 amounts keeps a word per deal.
#[test]
fn tables_keep_a_byte_per_deal_and_share_alike_outcomes() {
    let mut draft = Draft::new(["a".into(), "b".into()], vec![0.25; 4].into());
    let deals = Rc::new(Deals::from(vec![0, 1, 2, 3]));
    let table = |draft: &mut Draft, stake: i64| {
        let pays = [stake, 0, -stake, stake].map(|p| [p, -p]);
        draft.deals_table(0, deals.clone(), pays.into_iter()).unwrap() as usize
    };
    let (small, big) = (table(&mut draft, 50), table(&mut draft, 900));
    let bytes = |t: &Pays| match t {
        Pays::Deals { index: Index::Bytes(b), .. } => b.clone(),
        _ => panic!("not a byte table"),
    };
    assert!(Rc::ptr_eq(&bytes(&draft.tables[small]), &bytes(&draft.tables[big])));
    assert_eq!(draft.tables[big].each().collect::<Vec<_>>(), [(0, 900), (1, 0), (2, -900), (3, 900)]);
    assert_eq!(draft.tables[small].each().collect::<Vec<_>>(), [(0, 50), (1, 0), (2, -50), (3, 50)]);
    let many = Rc::new(Deals::from((0..300).collect::<Vec<u32>>()));
    let wide = draft.deals_table(0, many, (0..300).map(|p| [p, -p])).unwrap() as usize;
    assert!(matches!(&draft.tables[wide], Pays::Deals { index: Index::Words(_), .. }));
    assert_eq!(draft.tables[wide].each().nth(299), Some((299, 299)));
}

/// A leaf's payoffs per pair: where each pair is one deal, averaged per
/// deal with no per-pair arrays, the same forms and bits as the general
/// path's sums and masses per pair; on tables of a constant, a showdown
/// (with a tie) and neither (a matrix), with weights that do not divide
/// evenly.
#[test]
fn payoffs_per_deal_equal_the_sums_per_pair_bit_for_bit() {
    use super::super::game::Payoff;
    // Three states each, every pair but the equal ones dealt once.
    let (n, mut deals, mut prob) = ([3usize, 3], Vec::new(), Vec::new());
    for i in 0..3u32 {
        for j in 0..3u32 {
            if i != j {
                deals.push((i, j));
                prob.push((1.0 + i as f64) / (7.0 + 3.0 * j as f64));
            }
        }
    }
    let mut draft = Draft::new(["a".into(), "b".into()], prob.into());
    let all = Rc::new(Deals::from((0..deals.len() as u32).collect::<Vec<u32>>()));
    let pay = |f: &dyn Fn(u32, u32) -> i64| deals.iter().map(|&(i, j)| f(i, j)).map(|p| [p, -p]).collect::<Vec<_>>();
    let tables =
        [pay(&|_, _| 0), pay(&|i, j| if i > j { 3 } else { -3 }), pay(&|i, j| 5 * i as i64 - 2 * j as i64 + 1)];
    for t in tables {
        let id = draft.open(String::new(), super::NONE, true).unwrap();
        let table = draft.deals_table(id, all.clone(), t.into_iter()).unwrap();
        draft.leaf_table(id, table);
    }
    let class_of = [deals.iter().map(|d| d.0).collect(), deals.iter().map(|d| d.1).collect()];
    let single = draft.payoffs(&class_of, n, true);
    let pairs = draft.payoffs(&class_of, n, false);
    assert!(
        matches!(single.0[..], [Payoff::Constant(_), Payoff::Showdown { .. }, Payoff::Matrix { .. }]),
        "{:?}",
        single.0
    );
    assert_eq!(single.0, pairs.0);
    assert_eq!(single.1, pairs.1);
    let bits = |m: &[f64]| m.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&single.2), bits(&pairs.2));
}

/// A decision's deals in order are listed only when one is out of order,
/// and come out the same either way; a deal offered other moves than the
/// first is refused where it comes.
#[test]
fn decision_sets_list_the_deals_and_refuse_other_moves() {
    use super::{DealSets, Sets};
    struct Named;
    impl Sets for Named {
        fn label(&self, _: u32) -> String {
            String::new()
        }
        fn name(&self, set: u32) -> String {
            format!("set {set}")
        }
        fn player(&self, _: u32) -> usize {
            0
        }
    }
    let mut draft = Draft::new(["a".into(), "b".into()], vec![0.25; 4].into());
    let id = draft.open(String::new(), super::NONE, true).unwrap();
    let mut listed = DealSets::with_capacity(4);
    [(0, 10), (1, 11), (3, 12)].into_iter().for_each(|(d, s)| listed.push(d, s, 2));
    assert_eq!(listed.deals, [0, 1, 3]);
    draft.decision_sets(id, 0, 2, listed, &Named).unwrap();
    assert!(draft.decisions[0].1.iter().eq([0, 1, 3]));
    assert!(draft.decisions[0].2.iter().eq([10, 11, 12]));
    let id = draft.open(String::new(), super::NONE, true).unwrap();
    let mut in_order = DealSets::with_capacity(2);
    [(0, 20), (1, 21)].into_iter().for_each(|(d, s)| in_order.push(d, s, 2));
    assert!(in_order.deals.is_empty());
    draft.decision_sets(id, 0, 2, in_order, &Named).unwrap();
    assert!(matches!(*draft.decisions[1].1, Deals::All(2)));
    let id = draft.open(String::new(), super::NONE, true).unwrap();
    let err = draft.decision(id, 0, 2, [(0, 30, 2), (1, 31, 3)].into_iter(), &Named).unwrap_err();
    assert!(err.to_string().contains("moves offered to a"), "{err}");
}

/// A showdown's table made from each deal's comparison outcome
/// (`outcome_table`, a byte a deal) is the table listing each deal's
/// payoffs makes, and shares its bytes; with a tie that pays what a win
/// pays (two amounts, not three) too, whose outcomes are named as the
/// last table's but rank otherwise (the last bytes are not taken).
#[test]
fn outcome_tables_equal_listed_payoffs() {
    let mut draft = Draft::new(["a".into(), "b".into()], vec![0.2; 5].into());
    let deals = Rc::new(Deals::from(vec![0, 1, 2, 3, 4]));
    let outcomes = [2u8, 1, 0, 2, 0];
    for pays in [[[-7, 7], [0, 0], [7, -7]], [[-3, 3], [3, -3], [3, -3]], [[-9, 9], [0, 0], [9, -9]]] {
        let listed = draft.deals_table(0, deals.clone(), outcomes.iter().map(|&o| pays[o as usize])).unwrap();
        let made = draft.outcome_table(0, deals.clone(), (&outcomes, 1), pays.map(Some)).unwrap();
        let [listed, made] = [listed, made].map(|t| &draft.tables[t as usize]);
        assert_eq!(listed.each().collect::<Vec<_>>(), made.each().collect::<Vec<_>>());
        match (listed, made) {
            (
                Pays::Deals { values: a, index: Index::Bytes(x), .. },
                Pays::Deals { values: b, index: Index::Bytes(y), .. },
            ) => {
                assert_eq!(a, b);
                assert!(Rc::ptr_eq(x, y));
            }
            _ => panic!("not byte tables"),
        }
    }
    let err = draft.outcome_table(0, deals, (&outcomes, 2), [Some([-1, 2]), None, Some([1, -1])]).unwrap_err();
    assert!(err.to_string().contains("zero-sum"), "{err}");
}

/// The showdown form found once per (deals, byte pattern) and given to
/// the tables of other stakes that share them is each table's own: the
/// payoffs of a draft holding all its tables equal those of drafts
/// holding each alone (where nothing is shared), rankings compared by
/// content; with one probability for every deal and with several (where
/// each deal's average is checked against its amount's), and with
/// constants beside them.
#[test]
fn showdown_forms_shared_by_pattern_are_each_tables_own() {
    use super::super::game::Payoff;
    // Three states each, every pair but the equal ones dealt once; the
    // strengths 0, 1, 2 against 0, 1, 1 (a tie at (1, 2)).
    let mut deals = Vec::new();
    for i in 0..3u32 {
        for j in (0..3u32).filter(|&j| j != i) {
            deals.push((i, j));
        }
    }
    let outcome = |&(i, j): &(u32, u32)| match i.cmp(&j.min(1)) {
        std::cmp::Ordering::Less => 0u8,
        std::cmp::Ordering::Equal => 1,
        std::cmp::Ordering::Greater => 2,
    };
    let outcomes: Vec<u8> = deals.iter().map(outcome).collect();
    let class_of = [deals.iter().map(|d| d.0).collect(), deals.iter().map(|d| d.1).collect()];
    let all = Rc::new(Deals::from((0..deals.len() as u32).collect::<Vec<u32>>()));
    let uniform = vec![1.0 / deals.len() as f64; deals.len()];
    let uneven: Vec<f64> = deals.iter().map(|&(i, j)| (1.0 + i as f64) / (7.0 + 3.0 * j as f64)).collect();
    // The third leaf pays a constant.
    let stakes = [50i64, 900, 3, 50];
    let leaves = |draft: &mut Draft, stakes: &[(usize, i64)]| {
        for &(k, stake) in stakes {
            let id = draft.open(String::new(), super::NONE, true).unwrap();
            let table = match k {
                2 => draft.constant_table(id, [stake, -stake], all.clone()).unwrap(),
                _ => {
                    let pays = [[-stake, stake], [0, 0], [stake, -stake]].map(Some);
                    draft.outcome_table(id, all.clone(), (&outcomes, 1), pays).unwrap()
                }
            };
            draft.leaf_table(id, table);
        }
    };
    for prob in [uniform, uneven] {
        let mut shared = Draft::new(["a".into(), "b".into()], prob.clone().into());
        leaves(&mut shared, &stakes.into_iter().enumerate().collect::<Vec<_>>());
        let (payoffs, rankings, _) = shared.payoffs(&class_of, [3, 3], true);
        // With several probabilities, (w * pay) / w is not always pay: some
        // tables are matrices, and a constant's pairs differ in the last bit.
        let several = prob.iter().any(|&w| w != prob[0]);
        assert!(several || rankings.len() == 1, "one ranking for the tables of one pattern");
        for (k, &stake) in stakes.iter().enumerate() {
            let mut alone = Draft::new(["a".into(), "b".into()], prob.clone().into());
            leaves(&mut alone, &[(k, stake)]);
            let (own, own_rankings, _) = alone.payoffs(&class_of, [3, 3], true);
            match (payoffs[k], own[0]) {
                (
                    Payoff::Showdown { ranking: r, win, lose, tie },
                    Payoff::Showdown { ranking: s, win: w, lose: l, tie: t },
                ) => {
                    assert_eq!([win, lose, tie].map(f64::to_bits), [w, l, t].map(f64::to_bits), "stake {stake}");
                    assert_eq!(rankings[r as usize].rank, own_rankings[s as usize].rank);
                }
                (Payoff::Matrix { .. }, Payoff::Matrix { .. }) if several => {}
                (a, b) if k == 2 => assert!(b == a && (several || a == Payoff::Constant(stake as f64)), "{a:?}, {b:?}"),
                (a, b) => panic!("stake {stake}: {a:?} against {b:?}"),
            }
        }
    }
}
