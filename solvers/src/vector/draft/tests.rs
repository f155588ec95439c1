//! The draft's payoff tables (a byte per deal, shared by tables whose
//! deals win, tie and lose alike; their forms per pair averaged per deal
//! or per pair alike) and its decisions' lists of deals and sets.

use std::rc::Rc;

use super::{Draft, Index, Pays};

/// Two showdown tables at different stakes whose deals win, tie and
/// lose alike share one byte per deal, and each gives back its own
/// payoffs; a table of more than 256 amounts keeps a word per deal.
#[test]
fn tables_keep_a_byte_per_deal_and_share_alike_outcomes() {
    let mut draft = Draft::new(["a".into(), "b".into()], vec![0.25; 4]);
    let deals = Rc::new(vec![0, 1, 2, 3]);
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
    let many = Rc::new((0..300).collect::<Vec<u32>>());
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
    let mut draft = Draft::new(["a".into(), "b".into()], prob);
    let all = Rc::new((0..deals.len() as u32).collect::<Vec<u32>>());
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
    let mut draft = Draft::new(["a".into(), "b".into()], vec![0.25; 4]);
    let id = draft.open(String::new(), super::NONE, true).unwrap();
    let mut listed = DealSets::with_capacity(4);
    [(0, 10), (1, 11), (3, 12)].into_iter().for_each(|(d, s)| listed.push(d, s, 2));
    assert_eq!(listed.deals, [0, 1, 3]);
    draft.decision_sets(id, 0, 2, listed, &Named).unwrap();
    assert_eq!((draft.decisions[0].1.as_slice(), draft.decisions[0].2.as_slice()), (&[0, 1, 3][..], &[10, 11, 12][..]));
    let id = draft.open(String::new(), super::NONE, true).unwrap();
    let mut in_order = DealSets::with_capacity(2);
    [(0, 20), (1, 21)].into_iter().for_each(|(d, s)| in_order.push(d, s, 2));
    assert!(in_order.deals.is_empty());
    draft.decision_sets(id, 0, 2, in_order, &Named).unwrap();
    assert_eq!(draft.decisions[1].1.as_slice(), &[0, 1]);
    let id = draft.open(String::new(), super::NONE, true).unwrap();
    let err = draft.decision(id, 0, 2, [(0, 30, 2), (1, 31, 3)].into_iter(), &Named).unwrap_err();
    assert!(err.to_string().contains("moves offered to a"), "{err}");
}
