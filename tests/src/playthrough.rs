//! Playthrough goldens: Kuhn and Leduc played along fixed sequences of moves
//! through the runtime's `Game` API, as a user of the library (or `galac
//! play`) walks a game: at each node its kind, the player to move and the
//! label of their information set, the legal actions (or chance outcomes
//! with their probabilities) by label, and the move taken; at the end the
//! payoffs. The interpreter's walk is snapshotted, and the compiled game's
//! walk must be the same text.

use std::fmt::Write as _;

use galac_runtime::game::{Game, Node};
use galac_runtime::info::InfoInterner;

use crate::games::{instantiate, load_interp};

crate::compiled_games!(kuhn, leduc);

/// The walk of `game` along `moves` (action or outcome labels, one per node
/// before the leaf) as text; panics if a move is not legal where it is
/// played, or if the moves do not end exactly at a leaf.
fn playthrough<G: Game>(game: &G, moves: &[&str]) -> String {
    let gi = game.info();
    let params: Vec<String> = gi.params.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let mut out = format!("game: {} ({}); players: {}\n", gi.name, params.join(", "), gi.players.join(", "));
    let mut info = InfoInterner::new();
    let mut state = game.root().unwrap_or_else(|e| panic!("root: {e}"));
    let mut probs = Vec::new();
    let mut moves = moves.iter();
    loop {
        let node = game.advance(&mut state, &mut info).unwrap_or_else(|e| panic!("advance: {e}"));
        let labels: Vec<String> = match node {
            Node::Terminal => break,
            Node::Chance { n_outcomes } => {
                game.chance_probs(&state, &mut probs);
                assert_eq!(probs.len(), n_outcomes as usize, "one probability per outcome");
                let labels: Vec<String> = (0..n_outcomes).map(|a| game.action_label(&state, a)).collect();
                let shown: Vec<String> = labels.iter().zip(&probs).map(|(l, p)| format!("{l} ({p})")).collect();
                writeln!(out, "chance: {}", shown.join(", ")).expect("write");
                labels
            }
            Node::Decision { player, infoset, n_actions } => {
                let labels: Vec<String> = (0..n_actions).map(|a| game.action_label(&state, a)).collect();
                let who = &gi.players[player as usize];
                writeln!(out, "{who} to move at [{}]: {}", game.infoset_label(&info, infoset), labels.join(", "))
                    .expect("write");
                labels
            }
        };
        let Some(want) = moves.next() else { panic!("the moves end before the play:\n{out}") };
        let Some(a) = labels.iter().position(|l| l == want) else {
            panic!("`{want}` is not legal here: {labels:?}\n{out}")
        };
        writeln!(out, "  -> {want}").expect("write");
        game.apply(&mut state, a as u32, &mut info).unwrap_or_else(|e| panic!("apply: {e}"));
    }
    assert!(moves.next().is_none(), "the play ended before the moves:\n{out}");
    let mut buf = Vec::new();
    let payoffs = game.payoffs(&state, &mut buf);
    let shown: Vec<String> = gi.players.iter().zip(payoffs).map(|(p, x)| format!("{p} {x}")).collect();
    writeln!(out, "payoffs: {}", shown.join(", ")).expect("write");
    out
}

/// The walks of each play through the interpreter, checked equal through
/// the compiled game, joined for one snapshot.
fn walks<G: Game>(file: &str, compiled: &G, plays: &[&[&str]]) -> String {
    let interp = load_interp(file, &[]).unwrap_or_else(|e| panic!("{e}"));
    let mut all = String::new();
    for (i, moves) in plays.iter().enumerate() {
        let text = playthrough(&interp, moves);
        assert_eq!(text, playthrough(compiled, moves), "{file}: the compiled game walks play {} differently", i + 1);
        writeln!(all, "== play {}: {}\n{text}", i + 1, moves.join(", ")).expect("write");
    }
    all
}

#[test]
fn kuhn_playthroughs() {
    let compiled = instantiate(&kuhn::Family, &[]).unwrap_or_else(|e| panic!("{e}"));
    let plays: &[&[&str]] = &[
        // Pass, Bet, Bet: a showdown for 2 that the higher card wins.
        &["3", "1", "Pass", "Bet", "Bet"],
        // Bet, Pass: `second` folds.
        &["1", "2", "Bet", "Pass"],
        // Pass, Bet, Pass: `first` folds.
        &["2", "3", "Pass", "Bet", "Pass"],
        // Pass, Pass: a showdown for the antes.
        &["1", "3", "Pass", "Pass"],
    ];
    insta::assert_snapshot!(walks("kuhn.gala", &compiled, plays));
}

#[test]
fn leduc_playthroughs() {
    let compiled = instantiate(&leduc::Family, &[]).unwrap_or_else(|e| panic!("{e}"));
    let plays: &[&[&str]] = &[
        // King against jack: raise and call, then two raises on the board
        // and a call; the higher card takes the pot at the showdown.
        &["card(2, 0)", "card(0, 1)", "Raise", "Call", "card(1, 0)", "Raise", "Raise", "Call"],
        // `first` checks, `second` raises, `first` folds in round 1.
        &["card(0, 0)", "card(0, 1)", "Call", "Raise", "Fold"],
        // `first` pairs the board and re-raises to the cap; `second` calls.
        &["card(1, 0)", "card(2, 1)", "Call", "Call", "card(1, 1)", "Call", "Raise", "Raise", "Call"],
        // Two jacks checked down: the pot is split.
        &["card(0, 0)", "card(0, 1)", "Call", "Call", "card(2, 0)", "Call", "Call"],
    ];
    insta::assert_snapshot!(walks("leduc.gala", &compiled, plays));
}
