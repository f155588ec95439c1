//! The draft's payoff tables: a byte per deal, shared by tables whose
//! deals win, tie and lose alike.

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
