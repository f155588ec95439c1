//! The peer side of `bench/holdem_side_by_side.sh`: solves the issue-45 spot with
//! postflop-solver and prints one JSON line of what the side-by-side table needs.
//! Built by the script as a bench-only crate outside the workspace (postflop-solver is
//! AGPL: it is run next to galac, never linked into it).
//!
//! Usage: holdem_peer <river|river-all|turn> <target exploitability, fraction of the pot>

use postflop_solver::*;
use std::time::Instant;

const OOP: &str = "66+,A8s+,A5s-A4s,AJo+,K9s+,KQo,QTs+,JTs,96s+,85s+,75s+,65s,54s";
const IP: &str = "QQ-22,AQs-A2s,ATo+,K5s+,KJo+,Q8s+,J8s+,T7s+,96s+,86s+,75s+,64s+,53s+";
/// Every two-card hand.
const ALL: &str = "22+,A2s+,K2s+,Q2s+,J2s+,T2s+,92s+,82s+,72s+,62s+,52s+,42s+,32s,A2o+,K2o+,Q2o+,J2o+,T2o+,92o+,82o+,72o+,62o+,52o+,42o+,32o";

/// Decision and terminal nodes of the action tree, per street (the deal of a card is
/// not a node here: galac's public tree has one subtree per dealt card).
fn count(tree: &mut ActionTree, street: usize, decisions: &mut [u64; 3], leaves: &mut [u64; 3]) {
    if tree.is_terminal_node() {
        leaves[street] += 1;
        return;
    }
    let street = if tree.is_chance_node() { street + 1 } else { street };
    decisions[street] += 1;
    for action in tree.available_actions().to_vec() {
        tree.play(action).expect("an available action");
        count(tree, street, decisions, leaves);
        tree.undo().expect("a played action");
    }
}

fn peak_rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let case = args.get(1).map(String::as_str).unwrap_or("river");
    let target: f32 = args.get(2).and_then(|t| t.parse().ok()).unwrap_or(0.003);
    let (oop, ip, river) = match case {
        "river" => (OOP, IP, card_from_str("2s").unwrap()),
        "river-all" => (ALL, ALL, card_from_str("2s").unwrap()),
        "turn" => (OOP, IP, NOT_DEALT),
        other => panic!("unknown case {other}: river, river-all or turn"),
    };
    let card_config = CardConfig {
        range: [oop.parse().unwrap(), ip.parse().unwrap()],
        flop: flop_from_str("Td9d6h").unwrap(),
        turn: card_from_str("Qc").unwrap(),
        river,
    };
    let sizes = BetSizeOptions::try_from(("50%, 100%, a", "2.5x, a")).unwrap();
    let tree_config = TreeConfig {
        initial_state: if river == NOT_DEALT { BoardState::Turn } else { BoardState::River },
        starting_pot: 200,
        effective_stack: 900,
        rake_rate: 0.0,
        rake_cap: 0.0,
        flop_bet_sizes: [sizes.clone(), sizes.clone()],
        turn_bet_sizes: [sizes.clone(), sizes.clone()],
        river_bet_sizes: [sizes.clone(), sizes],
        turn_donk_sizes: None,
        river_donk_sizes: None,
        add_allin_threshold: 0.0,
        force_allin_threshold: 0.0,
        merging_threshold: 0.0,
    };
    let built = Instant::now();
    let mut action_tree = ActionTree::new(tree_config).unwrap();
    let (mut decisions, mut leaves) = ([0u64; 3], [0u64; 3]);
    count(&mut action_tree, 0, &mut decisions, &mut leaves);
    action_tree.back_to_root();
    let mut game = PostFlopGame::with_config(card_config, action_tree).unwrap();
    game.allocate_memory(false);
    let build_s = built.elapsed().as_secs_f64();

    let goal = game.tree_config().starting_pot as f32 * target;
    let start = Instant::now();
    let mut exploitability = compute_exploitability(&game);
    let mut iterations = 0;
    while exploitability > goal && iterations < 100_000 {
        solve_step(&game, iterations);
        iterations += 1;
        if iterations % 10 == 0 {
            exploitability = compute_exploitability(&game);
        }
    }
    let solve_s = start.elapsed().as_secs_f64();
    // Each player's value, net of their half of the starting pot (galac's
    // payoffs count the same way).
    let ev = compute_current_ev(&game);
    finalize(&mut game);

    // OOP's first-action frequencies: the root strategy averaged over OOP's hands,
    // weighted by their (card-removal-normalised) weights.
    game.back_to_root();
    game.cache_normalized_weights();
    let actions = game.available_actions();
    let strategy = game.strategy();
    let weights = game.normalized_weights(0);
    let hands = game.private_cards(0).len();
    let total: f64 = weights.iter().map(|&w| f64::from(w)).sum();
    let freqs: Vec<String> = (0..actions.len())
        .map(|a| {
            let f: f64 = (0..hands).map(|h| f64::from(strategy[a * hands + h]) * f64::from(weights[h])).sum();
            format!("\"{:?}\": {:.4}", actions[a], f / total)
        })
        .collect();
    println!(
        "{{\"solver\": \"postflop-solver\", \"case\": \"{case}\", \"hands\": [{}, {}], \"decisions\": {:?}, \"leaves\": {:?}, \
         \"build_s\": {build_s:.3}, \"solve_s\": {solve_s:.3}, \"iterations\": {iterations}, \
         \"exploitability_pot\": {:.5}, \"ev\": [{:.4}, {:.4}], \"peak_rss_mib\": {:.1}, \"oop_root\": {{{}}}}}",
        game.private_cards(0).len(),
        game.private_cards(1).len(),
        decisions,
        leaves,
        exploitability / game.tree_config().starting_pot as f32,
        ev[0],
        ev[1],
        peak_rss_kib() as f64 / 1024.0,
        freqs.join(", ")
    );
}
