//! The hold'em examples on cut-down spots (a few hands a player): the joint
//! deal against an enumeration written here, the action tree against
//! postflop-solver's sizing rules counted by hand, and the value of the LP
//! against CFR+, each profile checked by the independent best response.

use galac_runtime::ids::NodeId;
use galac_runtime::tree::{build, BuildOptions, Tree};
use galac_solvers::best_response::evaluate;
use galac_solvers::cfr::{CfrConfig, CfrSolver, Variant};
use galac_solvers::lp::Backend;
use galac_solvers::solver::RunToEnd;

use crate::games::load_interp;

/// Hands written as `--param` takes them, with their weights spelled out
/// again below for the enumeration.
const OOP: &str = "oop_range=AsAh,KsKh:0.5,QcQh,9s8s";
const IP: &str = "ip_range=AhKd:0.25,JsJh,7s8h";

fn river_tree(params: &[&str]) -> Tree {
    let game = load_interp("holdem_river.gala", params).unwrap_or_else(|e| panic!("{e}"));
    build(&game, &BuildOptions { labels: true, ..BuildOptions::default() }).unwrap_or_else(|e| panic!("{e}")).0
}

/// The deal's probabilities are the products of the weights over the pairs
/// that share no card with each other or the board (Td9d6hQc2s), normalised:
/// QcQh is dead on the board, AsAh never meets AhKd.
#[test]
fn river_hands_are_dealt_jointly_by_their_weights() {
    let tree = river_tree(&[OOP, IP]);
    let oop = [("AsAh", 1.0), ("KsKh", 0.5), ("QcQh", 1.0), ("9s8s", 1.0)];
    let ip = [("AhKd", 0.25), ("JsJh", 1.0), ("7s8h", 1.0)];
    let board = ["Td", "9d", "6h", "Qc", "2s"];
    let cards = |h: &str| [h[..2].to_string(), h[2..].to_string()];
    let mut expected = Vec::new();
    for (h1, w1) in oop {
        for (h2, w2) in ip {
            let (c1, c2) = (cards(h1), cards(h2));
            let clash = c1.iter().any(|c| c2.contains(c) || board.contains(&c.as_str()))
                || c2.iter().any(|c| board.contains(&c.as_str()));
            if !clash {
                expected.push(w1 * w2);
            }
        }
    }
    let total: f64 = expected.iter().sum();
    let root = NodeId::ROOT;
    let probs: Vec<f64> = tree.chance_probs(root).iter().map(|r| r.num as f64 / r.den as f64).collect();
    assert_eq!(probs.len(), 8, "{:?}", tree.chance_outcome_labels(root));
    let mut want: Vec<f64> = expected.iter().map(|w| w / total).collect();
    let mut got = probs.clone();
    want.sort_by(f64::total_cmp);
    got.sort_by(f64::total_cmp);
    for (g, w) in got.iter().zip(&want) {
        assert!((g - w).abs() < 1e-12, "{got:?} != {want:?}");
    }
}

/// Each deal has postflop-solver's river tree for pot 200, stack 900, bets
/// 50% and 100%, raises 2.5x and all-in, counted by hand: facing a bet of
/// 625 (2.5 x 250) the raise reaches the stack, so only all-in is left (2
/// nodes); facing 250: raise 625 or all-in (4); facing 100: raise 250 or
/// all-in (6); facing 200: raise 500 (then all-in only) or all-in (4);
/// after a check, IP: 1 + 6 + 4 + 1 = 12; at the root 1 + 12 + 6 + 4 + 1 =
/// 24 decision nodes.
#[test]
fn river_betting_follows_postflop_solvers_sizes() {
    let tree = river_tree(&[OOP, IP]);
    let deals = tree.children(NodeId::ROOT).len();
    let decisions = tree.nodes().filter(|&n| tree.infoset(n).is_some()).count();
    assert_eq!(decisions, 24 * deals);
    let first = tree.children(NodeId::ROOT).start;
    let set = tree.infoset(first).expect("oop decides first");
    assert_eq!(tree.action_labels(set), ["Check", "Bet(100)", "Bet(200)", "AllIn(900)"]);
    // The bet sizes of a smaller pot; postflop-solver's tree for pot 60 and
    // stack 100 (run beside this test) has 16 action nodes.
    let small = river_tree(&[OOP, IP, "pot=60", "stack=100"]);
    let set = small.infoset(small.children(NodeId::ROOT).start).expect("oop decides first");
    assert_eq!(small.action_labels(set), ["Check", "Bet(30)", "Bet(60)", "AllIn(100)"]);
    let decisions = small.nodes().filter(|&n| small.infoset(n).is_some()).count();
    assert_eq!(decisions, 16 * small.children(NodeId::ROOT).len());
}

/// The turn spot's betting is postflop-solver's: its action tree for pot
/// 200, stack 900 and these sizes has 24 turn nodes and, over the 11 turn
/// lines that see a river without an all-in, 112 river nodes (run beside
/// this test); each deal here sees each of the 44 river cards left.
#[test]
fn turn_betting_follows_postflop_solvers_tree() {
    let game = load_interp("holdem_turn.gala", crate::games::cut_down("examples/holdem_turn.gala"))
        .unwrap_or_else(|e| panic!("{e}"));
    let tree = build(&game, &BuildOptions::default()).unwrap_or_else(|e| panic!("{e}")).0;
    let deals = tree.children(NodeId::ROOT).len();
    let decisions = tree.nodes().filter(|&n| tree.infoset(n).is_some()).count();
    assert_eq!(decisions, deals * (24 + 44 * 112));
}

/// The value of the cut-down river spot: the LP's exact equilibrium
/// (NashConv ~ 0 by the best response) and CFR+ agree, and CFR+'s average
/// profile is nearly unexploitable by the independent best response.
#[test]
fn cut_down_river_value_agrees_between_lp_and_cfr() {
    let src = std::fs::read_to_string(crate::repo_root().join("examples/holdem_river.gala")).expect("example");
    let lp = crate::solve::solve_src(&src, &[OOP, IP], Backend::Clarabel);
    let range = crate::solve::payoff_range(&lp.tree);
    assert!(lp.eval.nash_conv <= 1e-6 * range, "LP NashConv {}", lp.eval.nash_conv);
    assert!((lp.eval.values[0] - lp.lp_value).abs() <= 1e-6 * range, "{} vs {}", lp.eval.values[0], lp.lp_value);

    let tree = river_tree(&[OOP, IP]);
    let solver = CfrSolver { config: CfrConfig::new(Variant::CfrPlus, 2000), resume: None };
    let (sol, _) = solver.run(&tree, &mut RunToEnd).expect("runs");
    let eval = evaluate(&tree, &sol.profile);
    let pot = 200.0;
    assert!(eval.nash_conv / 2.0 < 0.001 * pot, "CFR+ exploitability {}", eval.nash_conv / 2.0);
    assert!((eval.values[0] - lp.lp_value).abs() < 0.002 * pot, "CFR+ {} vs LP {}", eval.values[0], lp.lp_value);
}

/// Vector CFR on the cut-down river: its public game is derived from the
/// tree (the joint deal factors as each range's weights with card
/// removal), and its answer, mapped back onto the tree, is nearly
/// unexploitable by the independent best response and worth the LP's value.
#[test]
fn cut_down_river_solves_with_vector_cfr_to_the_lps_value() {
    use galac_solvers::solver::Solver;
    use galac_solvers::vector::{VcfrConfig, VcfrSolver, POSTFLOP_DCFR};
    let src = std::fs::read_to_string(crate::repo_root().join("examples/holdem_river.gala")).expect("example");
    let lp = crate::solve::solve_src(&src, &[OOP, IP], Backend::Clarabel);
    let tree = river_tree(&[OOP, IP]);
    let solution =
        VcfrSolver { config: VcfrConfig::new(POSTFLOP_DCFR, 1000) }.solve(&tree, &mut RunToEnd).expect("solves");
    let eval = evaluate(&tree, &solution.profile);
    let pot = 200.0;
    assert!(eval.nash_conv / 2.0 < 0.001 * pot, "vector CFR exploitability {}", eval.nash_conv / 2.0);
    assert!((eval.values[0] - lp.lp_value).abs() < 0.002 * pot, "vector CFR {} vs LP {}", eval.values[0], lp.lp_value);
}

/// 16-bit storage on cut-down rivers (4 x 3 hands, and the grid tests'
/// 32 x 9): the answer mapped onto the tree is nearly unexploitable by the
/// independent best response and worth the `f32` run's value within the
/// two NashConvs (each profile is worth the game's value within its own:
/// `vector_cfr::leduc_in_sixteen_bits_reaches_its_value_and_the_f32_runs`).
#[test]
fn cut_down_rivers_in_sixteen_bits_agree_with_f32() {
    use galac_solvers::solver::Solver;
    use galac_solvers::vector::{Storage, VcfrConfig, VcfrSolver, POSTFLOP_DCFR};
    let pot = 200.0;
    for spot in [[OOP, IP], [GRID_OOP, GRID_IP]] {
        let tree = river_tree(&spot);
        let evals: Vec<_> = [Storage::F32, Storage::Compressed]
            .into_iter()
            .map(|storage| {
                let config = VcfrConfig { storage, ..VcfrConfig::new(POSTFLOP_DCFR, 1000) };
                let solution = VcfrSolver { config }.solve(&tree, &mut RunToEnd).expect("solves");
                evaluate(&tree, &solution.profile)
            })
            .collect();
        let (full, packed) = (&evals[0], &evals[1]);
        let what = format!("{spot:?}: f32 {full:?}, 16 bits {packed:?}");
        assert!(packed.nash_conv / 2.0 < 0.001 * pot, "{what}");
        // Plus the sums' rounding: a decided spot's NashConvs are both 0.
        let slack = packed.nash_conv + full.nash_conv + 1e-9 * pot;
        assert!((packed.values[0] - full.values[0]).abs() <= slack, "{what}");
    }
}

/// A spot with one hand each is decided: 5-4 high against aces never
/// pays off a bet, so OOP wins exactly the half pot it has in.
#[test]
fn a_known_winner_takes_the_half_pot() {
    let src = std::fs::read_to_string(crate::repo_root().join("examples/holdem_river.gala")).expect("example");
    let s = crate::solve::solve_src(&src, &["oop_range=AsAh", "ip_range=5s4s"], Backend::Clarabel);
    assert!((s.lp_value - 100.0).abs() < 1e-6, "{}", s.lp_value);
    assert!((s.eval.values[0] - 100.0).abs() < 1e-6, "{}", s.eval.values[0]);
}

/// The derived game of the cut-down river removes conflicting hands by
/// their cards (read back from the states' labels), and its run equals,
/// value for value, the run of the same game derived without labels,
/// which removes them by conflict lists: to 1e-5 relative, as the CFR
/// walk's `f32` vectors round the two removals' sums differently (the
/// leaves alone agree to 1e-12 in `f64`: `vector::tests`).
#[test]
fn card_removal_equals_the_conflict_lists_on_the_river() {
    use galac_solvers::vector::game::Removal;
    use galac_solvers::vector::{from_tree, VectorCfr, POSTFLOP_DCFR};
    let game = load_interp("holdem_river.gala", &[OOP, IP]).unwrap_or_else(|e| panic!("{e}"));
    let runs: Vec<_> = [true, false]
        .iter()
        .map(|&labels| {
            let tree =
                build(&game, &BuildOptions { labels, ..BuildOptions::default() }).unwrap_or_else(|e| panic!("{e}")).0;
            let derived = from_tree(&tree).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(matches!(derived.game.removal, Removal::Cards(_)), labels);
            let mut cfr = VectorCfr::new(&derived.game, POSTFLOP_DCFR, 1).expect("runs");
            for _ in 0..200 {
                cfr.iterate();
            }
            cfr.evaluate()
        })
        .collect();
    let (cards, lists) = (&runs[0], &runs[1]);
    assert!(lists.nash_conv > 0.0 && lists.nash_conv < 0.01 * 200.0, "{lists:?}");
    for (a, b) in cards.values.iter().chain(&cards.best_response).zip(lists.values.iter().chain(&lists.best_response)) {
        assert!((a - b).abs() <= 1e-5 * (1.0 + b.abs()), "cards {cards:?}, lists {lists:?}");
    }
}

/// Ranges of the grid tests, against the board Td9d6hQc2s: AA keeps its 6
/// hands, KQs loses KcQc (3 left), KQo the 3 with Qc (9 left), T9s the
/// diamonds (3 left), 22 the three with 2s (3 left), AsKs is one hand of
/// AKs, 76 both kinds less the 6h (3 and 9).
const GRID_OOP: &str = "oop_range=AA,KQs,KQo,T9s,22,AsKs,76";
const GRID_IP: &str = "ip_range=JJ,A5s";

/// A cut-down river solved by CFR+ on the scalar tree, with every set's
/// view (reach, action values).
fn solved_grid_spot() -> (Tree, galac_solvers::Profile) {
    let tree = river_tree(&[GRID_OOP, GRID_IP]);
    let solver = CfrSolver { config: CfrConfig::new(Variant::CfrPlus, 300), resume: None };
    let (sol, _) = solver.run(&tree, &mut RunToEnd).expect("runs");
    (tree, sol.profile)
}

/// Every grid of the spot, hand by hand.
fn all_grids(tree: &Tree, profile: &galac_solvers::Profile) -> Vec<galac_app::hands::Grid> {
    let public = galac_app::private_info::public_view(tree);
    let views = galac_solvers::beliefs::explain(tree, profile);
    galac_app::hands::grids(tree, profile, &views, &public, |_| true)
}

/// Two cards of the 52 (rank 0 a two, suit 0 spades), written as text.
fn card_text(rank: usize, suit: usize) -> String {
    format!("{}{}", "23456789TJQKA".as_bytes()[rank] as char, "shdc".as_bytes()[suit] as char)
}

/// The grid's cells hold the hands an enumeration of all 1,326 two-card
/// hands finds for OOP's range less the board, cell by cell.
#[test]
fn grid_cells_hold_the_hands_an_enumeration_finds() {
    let (tree, profile) = solved_grid_spot();
    let grids = all_grids(&tree, &profile);
    let root = &galac_app::hands::first_of_each_player(&grids)[0];
    assert_eq!((root.player.index(), root.line.as_str()), (0, "start"));
    assert_eq!(root.cells.len(), 169);
    // The enumeration: classes named high rank first, `s` or `o` unless a pair.
    let board = ["Td", "9d", "6h", "Qc", "2s"];
    let classes = ["AA", "KQs", "KQo", "T9s", "22", "76s", "76o"];
    let mut want: std::collections::BTreeMap<String, u32> = Default::default();
    for a in 0..52 {
        for b in 0..a {
            let (ra, sa, rb, sb) = (a / 4, a % 4, b / 4, b % 4);
            let (ca, cb) = (card_text(ra, sa), card_text(rb, sb));
            if board.contains(&ca.as_str()) || board.contains(&cb.as_str()) {
                continue;
            }
            let (hi, lo) = (ra.max(rb), ra.min(rb));
            let ranks = "23456789TJQKA".as_bytes();
            let kind = if hi == lo {
                ""
            } else if sa == sb {
                "s"
            } else {
                "o"
            };
            let name = format!("{}{}{kind}", ranks[hi] as char, ranks[lo] as char);
            let explicit = (ca == "As" && cb == "Ks") || (ca == "Ks" && cb == "As");
            if classes.contains(&name.as_str()) || explicit {
                *want.entry(name).or_insert(0) += 1;
            }
        }
    }
    assert_eq!(want["AA"], 6);
    assert_eq!((want["KQs"], want["KQo"], want["T9s"], want["22"], want["AKs"]), (3, 9, 3, 3, 1));
    let got: std::collections::BTreeMap<String, u32> =
        root.cells.iter().filter(|c| c.combos > 0).map(|c| (c.name.clone(), c.combos)).collect();
    assert_eq!(got, want);
    assert_eq!(root.combos.len() as u32, want.values().sum::<u32>());
}

/// At OOP's first decision the reach of a hand is the deal's chance of it,
/// read here from the root's outcomes; each cell's frequencies are the
/// scalar profile's, weighted by those chances, and sum to 1, as every
/// hand's do; the lone AsKs of AKs plays exactly its set's strategy.
#[test]
fn grid_frequencies_are_the_scalar_profiles_weighted_by_the_deal() {
    use galac_runtime::labels::cards_shown;
    let (tree, profile) = solved_grid_spot();
    let grids = all_grids(&tree, &profile);
    let root = galac_app::hands::first_of_each_player(&grids)[0].clone();
    // The deal's chance of each OOP hand (its first two cards).
    let mut chance: std::collections::HashMap<Vec<(i64, i64)>, f64> = Default::default();
    for (label, p) in tree.chance_outcome_labels(NodeId::ROOT).iter().zip(tree.chance_probs(NodeId::ROOT)) {
        let mut hand = cards_shown(label)[..2].to_vec();
        hand.sort();
        *chance.entry(hand).or_insert(0.0) += p.to_f64();
    }
    let mut cells: std::collections::HashMap<usize, (f64, Vec<f64>)> = Default::default();
    for combo in &root.combos {
        let mut hand = cards_shown(tree.infoset_label(combo.set));
        hand.sort();
        let p = chance[&hand];
        assert!((combo.reach - p).abs() < 1e-12, "{}: reach {} vs deal {p}", combo.hand, combo.reach);
        let probs = profile.probs(combo.set);
        assert!((probs.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        let entry = cells.entry(combo.cell).or_insert((0.0, vec![0.0; probs.len()]));
        entry.0 += p;
        entry.1.iter_mut().zip(probs).for_each(|(x, q)| *x += p * q);
    }
    for (cell, (weight, sums)) in cells {
        let got = &root.cells[cell];
        assert!((got.probs.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{}: {:?}", got.name, got.probs);
        for (g, s) in got.probs.iter().zip(&sums) {
            assert!((g - s / weight).abs() < 1e-9, "{}: {:?} vs {:?}", got.name, got.probs, sums);
        }
    }
    let aks = root.cells.iter().find(|c| c.name == "AKs").expect("AKs");
    let set = root.combos.iter().find(|c| c.hand == "AsKs").expect("AsKs").set;
    assert_eq!(aks.combos, 1);
    assert_eq!(aks.probs, profile.probs(set));
}

/// Hands' values averaged by reach are the players' values: at OOP's
/// first decision, OOP's value of the game; over IP's decisions after each
/// of OOP's first actions, IP's (every first action leads to one), both
/// from the independent evaluation of the scalar tree under the profile.
#[test]
fn grid_values_averaged_by_reach_are_the_games_value() {
    let (tree, profile) = solved_grid_spot();
    let eval = evaluate(&tree, &profile);
    let grids = all_grids(&tree, &profile);
    let firsts = galac_app::hands::first_of_each_player(&grids);
    let root = firsts[0];
    assert!((root.reach - 1.0).abs() < 1e-12, "{}", root.reach);
    let mean: f64 = root.combos.iter().map(|c| c.reach * c.value).sum();
    assert!((root.value - eval.values[0]).abs() < 1e-9, "{} vs {}", root.value, eval.values[0]);
    assert!((mean - eval.values[0]).abs() < 1e-9, "{mean} vs {}", eval.values[0]);
    let ip: Vec<&galac_app::hands::Grid> = grids.iter().filter(|g| g.player.index() == 1 && g.moves == 1).collect();
    assert_eq!(ip.len(), root.actions.len(), "{:?}", ip.iter().map(|g| &g.line).collect::<Vec<_>>());
    let ip_value: f64 = ip.iter().map(|g| g.reach * g.value).sum();
    assert!((ip_value - eval.values[1]).abs() < 1e-9, "{ip_value} vs {}", eval.values[1]);
    for g in &grids {
        for c in g.combos.iter().filter(|c| c.reach > 0.0) {
            assert!((c.probs.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{}: {:?}", c.hand, c.probs);
        }
    }
}

/// Vector CFR's answer counts postflop-solver's river action tree: 24
/// decisions and 45 leaves, on one street.
#[test]
fn the_public_game_of_the_river_has_postflop_solvers_action_tree() {
    use galac_solvers::vector::from_tree;
    let tree = river_tree(&[OOP, IP]);
    let derived = from_tree(&tree).unwrap_or_else(|e| panic!("{e}"));
    let streets = derived.game.per_street();
    assert_eq!((streets.decisions, streets.leaves), (vec![24], vec![45]));
}

/// Without `--solver`, a hand game goes to vector CFR: on the built tree
/// (the cut-down river; the river with every hand, estimated above the
/// LP's size, also builds its tree rather than going to the double oracle
/// or to the far slower derivation from the rules), and before any tree is
/// built for the turn. Leduc, whose cards are not two-card hands, and Kuhn
/// keep the LP.
#[test]
fn hand_games_default_to_vector_cfr_and_card_games_of_one_card_do_not() {
    use galac_app::registry::{default_before_tree, default_for, Shape};
    let tree = river_tree(&[OOP, IP]);
    let (row, why) = default_for(&Shape::of(&tree));
    assert_eq!(row.name, "vcfr", "{why}");
    assert!(why.contains("two-card hand"), "{why}");
    for file in ["leduc.gala", "kuhn.gala"] {
        let game = load_interp(file, &[]).unwrap_or_else(|e| panic!("{e}"));
        let tree = build(&game, &BuildOptions { labels: true, ..BuildOptions::default() }).expect("builds").0;
        assert_eq!(default_for(&Shape::of(&tree)).0.name, "lp", "{file}");
    }
    let all = "22+,A2s+,K2s+,Q2s+,J2s+,T2s+,92s+,82s+,72s+,62s+,52s+,42s+,32s,A2o+,K2o+,Q2o+,J2o+,T2o+,92o+,82o+,\
               72o+,62o+,52o+,42o+,32o";
    let (oop, ip) = (format!("oop_range={all}"), format!("ip_range={all}"));
    let mut every_hand = load_interp("holdem_river.gala", &[&oop, &ip]).unwrap_or_else(|e| panic!("{e}"));
    // The deal of 1,081 x 1,081 hands takes more steps than the default
    // (the bench gives `--step-limit 100000000`).
    every_hand.step_limit = 100_000_000;
    let guess = galac_runtime::tree::estimate(&every_hand, f64::INFINITY).expect("estimates");
    assert!(guess.nodes > galac_app::registry::LP_MAX_NODES, "{guess:?}");
    assert!(guess.nodes < galac_app::registry::VCFR_TREELESS_NODES, "{guess:?}");
    // Under the treeless bound, but one representative deal walks it.
    assert_eq!(default_before_tree(&every_hand).map(|c| c.row.name), Some("vcfr"));
    let turn = load_interp("holdem_turn.gala", &[]).unwrap_or_else(|e| panic!("{e}"));
    let galac_app::registry::Chosen { row, why, .. } = default_before_tree(&turn).expect("chosen before the tree");
    assert_eq!(row.name, "vcfr", "{why}");
}

/// The answers without the tree (a turn's) give each hand at every public
/// decision its reach, frequencies and action values from the vector walk:
/// they are what the scalar tree gives the same average strategy, hand by
/// hand, decision by decision, on a cut-down river and turn (river cards
/// drawn between the decisions).
#[test]
fn hands_values_from_the_public_walk_are_the_scalar_trees() {
    use galac_solvers::vector::{from_tree, VectorCfr, POSTFLOP_DCFR};
    let turn = crate::games::cut_down("examples/holdem_turn.gala");
    for (file, params) in [("holdem_river.gala", &[GRID_OOP, GRID_IP][..]), ("holdem_turn.gala", turn)] {
        let game = load_interp(file, params).unwrap_or_else(|e| panic!("{e}"));
        let tree = build(&game, &BuildOptions { labels: true, ..BuildOptions::default() }).expect("a tree").0;
        let derived = from_tree(&tree).expect("a public game");
        let mut cfr = VectorCfr::new(&derived.game, POSTFLOP_DCFR, 1).expect("runs");
        for _ in 0..60 {
            cfr.iterate();
        }
        let (profile, _) = derived.profile(&tree, &cfr);
        let scalar = all_grids(&tree, &profile);
        let decisions = galac_app::hands_public::decisions(&derived.game);
        let vector = galac_app::hands_public::grids(&derived.game, &mut cfr, &decisions);
        assert_eq!(vector.len(), decisions.len(), "{file}");
        // Every grid of the scalar answer has its twin, hand by hand.
        for s in &scalar {
            let v = vector.iter().find(|v| v.line == s.line && v.player == s.player);
            let v = v.unwrap_or_else(|| panic!("{file}: no vector grid at {}", s.line));
            same_hands(s, v, &format!("{file} at {}", s.line));
        }
        let reached = scalar.iter().filter(|s| s.reach > 0.0).count();
        assert!(scalar.len() >= decisions.len() * 9 / 10 && reached >= 4, "{file}: {} grids", scalar.len());
    }
}

/// Two grids of one decision hold the same hands with the same reach,
/// frequencies and values.
fn same_hands(scalar: &galac_app::hands::Grid, vector: &galac_app::hands::Grid, at: &str) {
    let (s, v) = (scalar, vector);
    assert_eq!(v.actions, s.actions, "{at}");
    // The same two cards, whichever is written first.
    let key = |hand: &str| {
        let mut cards = [hand[..2].to_string(), hand[2..].to_string()];
        cards.sort();
        cards
    };
    let close = |a: f64, b: f64| (a - b).abs() < 1e-6 * (1.0 + b.abs());
    for s in scalar.combos.iter().filter(|c| c.reach > 0.0) {
        let v =
            vector.combos.iter().find(|v| key(&v.hand) == key(&s.hand)).unwrap_or_else(|| panic!("{at}: {}", s.hand));
        assert!(close(v.reach, s.reach), "{at} {}: reach {} vs {}", s.hand, v.reach, s.reach);
        assert!(close(v.value, s.value), "{at} {}: value {} vs {}", s.hand, v.value, s.value);
        for a in 0..s.probs.len() {
            assert!(close(v.probs[a], s.probs[a]), "{at} {}: {:?} vs {:?}", s.hand, v.probs, s.probs);
            let (x, y) = (v.action_values[a], s.action_values[a]);
            assert!(close(x, y), "{at} {} {}: {x} vs {y}", s.hand, vector.actions[a]);
        }
    }
    assert!(close(v.reach, s.reach), "{at}: reach {} vs {}", v.reach, s.reach);
    assert!(s.reach == 0.0 || close(v.value, s.value), "{at}: value {} vs {}", v.value, s.value);
}
