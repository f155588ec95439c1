//! Beliefs and action values (galac_solvers::beliefs) on Kuhn poker against
//! hand-computed ones: Bayes' rule on the deal and the betting, written out
//! here for the sets where the hidden card matters.

use galac_runtime::ids::{InfosetId, NodeId};
use galac_runtime::tree::{build, BuildOptions, Tree};
use galac_solvers::beliefs::explain;
use galac_solvers::lp::{Backend, LpSolver};
use galac_solvers::solver::{RunToEnd, Solver};
use galac_solvers::Profile;

fn kuhn() -> Tree {
    let game = crate::games::load_interp("kuhn.gala", &[]).unwrap_or_else(|e| panic!("{e}"));
    build(&game, &BuildOptions { labels: true, ..BuildOptions::default() }).expect("tree").0
}

fn set(tree: &Tree, label: &str) -> InfosetId {
    tree.infosets.keys().find(|&s| tree.infoset_label(s) == label).unwrap_or_else(|| panic!("no set {label}"))
}

/// The probability of `action` at the set labelled `label`.
fn prob(tree: &Tree, profile: &Profile, label: &str, action: &str) -> f64 {
    let s = set(tree, label);
    let a = tree.action_labels(s).iter().position(|x| x == action).expect("an action");
    profile.probs(s)[a]
}

/// The belief in the member where `first` was dealt `deal_first` and
/// `second` `deal_second` (the chance outcomes' labels are the cards).
fn belief(tree: &Tree, beliefs: &[(NodeId, f64)], deal_first: u64, deal_second: u64) -> f64 {
    let mut parent = vec![None; tree.n_nodes()];
    for node in tree.nodes() {
        tree.children(node).for_each(|c| parent[c.index()] = Some(node));
    }
    let want = [deal_first.to_string(), deal_second.to_string()];
    let mut found = f64::NAN;
    for &(member, b) in beliefs {
        let (mut deals, mut at) = (Vec::new(), member);
        while let Some(up) = parent[at.index()] {
            if let Some(label) = tree.chance_outcome_labels(up).get((at - tree.children(up).start) as usize) {
                deals.push(label.clone());
            }
            at = up;
        }
        deals.reverse();
        if deals == want {
            found = b;
        }
    }
    found
}

#[test]
fn kuhn_beliefs_and_values_are_bayes_rule() {
    let tree = kuhn();
    let profile =
        LpSolver { backend: Backend::Clarabel, cancel: None }.solve(&tree, &mut RunToEnd).expect("solved").profile;
    let views = explain(&tree, &profile);
    let bet = |label: &str| prob(&tree, &profile, label, "Bet");
    // `second` holds 2 and faced a bet: `first` holds 1 or 3, dealt alike,
    // and bet with probabilities b1 and b3.
    let (b1, b3) = (bet("first: my_card(1)"), bet("first: my_card(3)"));
    let v = &views[set(&tree, "second: my_card(2), moved(Bet)")];
    let one = b1 / (b1 + b3);
    assert!((belief(&tree, &v.beliefs, 1, 2) - one).abs() < 1e-12, "{v:?}");
    assert!((belief(&tree, &v.beliefs, 3, 2) - (1.0 - one)).abs() < 1e-12, "{v:?}");
    // Folding loses the ante; calling wins 2 against a 1, loses 2 against a 3.
    assert!((v.action_values[0] + 1.0).abs() < 1e-12);
    assert!((v.action_values[1] - (2.0 * one - 2.0 * (1.0 - one))).abs() < 1e-12);
    assert!((v.reach - (b1 + b3) / 6.0).abs() < 1e-12);
    // `first` holds 2, passed and faced a bet: `second` holds 1 or 3 and
    // bet after a pass with probabilities s1 and s3.
    let (s1, s3) = (bet("second: my_card(1), moved(Pass)"), bet("second: my_card(3), moved(Pass)"));
    let v = &views[set(&tree, "first: my_card(2), chose Pass, moved(Bet)")];
    assert!((belief(&tree, &v.beliefs, 2, 1) - s1 / (s1 + s3)).abs() < 1e-12, "{v:?}");
    // At the root sets the other card is uniform.
    let v = &views[set(&tree, "first: my_card(1)")];
    assert!(v.beliefs.iter().all(|(_, b)| (b - 0.5).abs() < 1e-12), "{v:?}");
}

#[test]
fn unreached_sets_say_why() {
    let tree = kuhn();
    // `first` always bets: its sets after a pass are unreached by its own
    // play (beliefs still follow `second`'s play), and `second`'s sets after
    // a pass are unreached by anyone's (no beliefs).
    let mut profile = Profile::uniform(&tree);
    for card in 1..=3 {
        profile.probs_mut(set(&tree, &format!("first: my_card({card})"))).copy_from_slice(&[0.0, 1.0]);
    }
    let views = explain(&tree, &profile);
    let own = &views[set(&tree, "first: my_card(2), chose Pass, moved(Bet)")];
    assert_eq!(own.reach, 0.0);
    assert!((belief(&tree, &own.beliefs, 2, 1) - 0.5).abs() < 1e-12, "{own:?}");
    let none = &views[set(&tree, "second: my_card(2), moved(Pass)")];
    assert!(none.reach == 0.0 && none.beliefs.is_empty() && none.action_values.iter().all(|v| v.is_nan()));
}

/// Each set's private facts (galac_app::private_info), as `explain` groups
/// them, against the rules: in Kuhn and Leduc a player's own card is all it
/// knows that the opponent does not (bets and the table card are seen by
/// both); beer_quiche's sender alone knows its type; nim has no hidden
/// information at all.
#[test]
fn private_information_is_what_only_the_player_was_told() {
    for (file, private_tag) in [("kuhn.gala", "my_card("), ("leduc.gala", "private_card(")] {
        let game = crate::games::load_interp(file, &[]).unwrap_or_else(|e| panic!("{e}"));
        let tree = build(&game, &BuildOptions { labels: true, ..BuildOptions::default() }).expect("tree").0;
        let private = galac_app::private_info::private_facts(&tree);
        for (s, facts) in private.iter_enumerated() {
            let label = tree.infoset_label(s);
            let own: Vec<&str> =
                galac_app::private_info::facts(label).into_iter().filter(|f| f.starts_with(private_tag)).collect();
            assert_eq!(own.len(), 1, "{file}: {label}");
            assert_eq!(facts, &[own[0].to_string()], "{file}: {label}");
        }
    }
    let game = crate::games::load_interp("beer_quiche.gala", &[]).unwrap_or_else(|e| panic!("{e}"));
    let tree = build(&game, &BuildOptions { labels: true, ..BuildOptions::default() }).expect("tree").0;
    for (s, facts) in galac_app::private_info::private_facts(&tree).iter_enumerated() {
        let label = tree.infoset_label(s);
        let expected: Vec<String> = label
            .split(", ")
            .filter(|f| f.contains("sender_type("))
            .map(|f| f.split_once(": ").map_or(f, |(_, x)| x).to_string())
            .collect();
        assert_eq!(facts, &expected, "{label}");
    }
    let game = crate::games::load_interp("nim222.gala", &[]).unwrap_or_else(|e| panic!("{e}"));
    let tree = build(&game, &BuildOptions { labels: true, ..BuildOptions::default() }).expect("tree").0;
    assert!(galac_app::private_info::private_facts(&tree).iter().all(Vec::is_empty));
}
