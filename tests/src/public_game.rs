//! The public game derived from the game's rules without a tree
//! (`galac_solvers::vector::from_game`) against the one derived from the
//! built tree (`from_tree`): the same `PublicGame` on Kuhn, Leduc, liar's
//! dice and the hold'em examples on cut-down spots (a river and turns whose
//! all-in lines deal the river with no decision after it), the same
//! refusals outside the class, and the same game from the interpreter and
//! the compiled code. Its vector CFR answer on the cut-down turn is worth
//! the scalar LP's value. The compiler's proof that private values steer
//! only the payoff agrees with the walk over every deal.

use galac_runtime::tree::{build, BuildOptions};
use galac_solvers::vector::{
    from_game, from_game_by_deal, from_game_per_deal_showdowns, from_tree, VectorCfr, POSTFLOP_DCFR,
};

use crate::compiled::{holdem_river, holdem_turn, kuhn, leduc, liars_dice, poker};
use crate::games::{instantiate, load_interp};
use galac_runtime::game::Family;

/// A turn spot small enough for the LP: two hands a player, so that some
/// deals share a card with the river's and with each other.
const TURN: &[&str] = &["oop_range=AsAh,9s8s,QdQs", "ip_range=JsJh,7s8h,AdKd:0.5"];

/// `from_game` (one representative deal, which these games allow),
/// `from_game_by_deal` and `from_tree` give the same public game for
/// `file` at `params`, and so does `from_game` on the compiled game
/// (`family`), which takes the representative walk too and advances as
/// many states as the interpreter; both give the game their showdowns'
/// payoff code run per deal gives ([`same_showdowns`]).
fn same_public_game<F: Family>(family: &F, file: &str, params: &[&str]) {
    let compiled = instantiate(family, params).unwrap_or_else(|e| panic!("{e}"));
    same_showdowns(&compiled, &format!("{file} compiled"));
    let compiled = from_game(&compiled).unwrap_or_else(|e| panic!("{file} compiled: {e}"));
    assert!(compiled.representative.is_ok(), "{file} compiled: {:?}", compiled.representative);
    let game = load_interp(file, params).unwrap_or_else(|e| panic!("{e}"));
    let tree = build(&game, &BuildOptions { labels: true, ..BuildOptions::default() }).expect("builds").0;
    let from_tree = from_tree(&tree).unwrap_or_else(|e| panic!("{file}: {e}")).game;
    let derived = same_showdowns(&game, file);
    assert!(derived.representative.is_ok(), "{file}: {:?}", derived.representative);
    let by_deal = from_game_by_deal(&game).unwrap_or_else(|e| panic!("{file}: {e}"));
    assert!(by_deal.representative.is_err());
    assert_eq!(derived.game.per_street(), from_tree.per_street(), "{file}");
    assert!(derived.game == from_tree, "{file} {params:?}: the public games differ");
    assert!(by_deal.game == from_tree, "{file} {params:?}: the public games differ");
    assert!(derived.advanced <= by_deal.advanced, "{file}: {} > {}", derived.advanced, by_deal.advanced);
    assert!(compiled.game == from_tree, "{file} {params:?}: the compiled game's public game differs");
    assert_eq!(compiled.representative, derived.representative, "{file}");
    assert_eq!(compiled.advanced, derived.advanced, "{file} {params:?}: states advanced");
}

/// `from_game` of `game` (`what` in messages), which pays a showdown's
/// leaves from the players' strengths where the game gives them, and
/// `from_game_per_deal_showdowns`, which runs the payoff's code for every
/// deal, give the same public game; the first advances fewer states where
/// the game has a showdown (the proof says so), as many otherwise.
fn same_showdowns<G: galac_runtime::game::Game>(game: &G, what: &str) -> galac_solvers::vector::FromGame {
    let derived = from_game(game).unwrap_or_else(|e| panic!("{what}: {e}"));
    let per_deal = from_game_per_deal_showdowns(game).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(derived.game == per_deal.game, "{what}: the showdowns from strengths pay otherwise");
    let showdown = derived.representative.as_ref().is_ok_and(|proof| proof.contains("the payoff is a showdown"));
    match showdown {
        true => assert!(derived.advanced < per_deal.advanced, "{what}: {} states", derived.advanced),
        false => assert_eq!(derived.advanced, per_deal.advanced, "{what}"),
    }
    derived
}

/// The full river spot (36,664 deals), interpreted and compiled: the
/// showdowns paid from the players' strengths give the public game the
/// payoff's code run per deal gives, with far fewer states advanced.
#[test]
fn the_rivers_showdowns_from_strengths_pay_as_per_deal() {
    let game = load_interp("holdem_river.gala", &[]).unwrap_or_else(|e| panic!("{e}"));
    let derived = same_showdowns(&game, "the river");
    let compiled = instantiate(&holdem_river::Family, &[]).unwrap_or_else(|e| panic!("{e}"));
    let b = same_showdowns(&compiled, "the compiled river");
    assert!(derived.game == b.game && derived.advanced == b.advanced);
}

/// The first moves advance a deal's state along the first action's line
/// only, once: the root's step takes the first move on each deal's state
/// there, and the other player's sets at the root's other children are
/// learnt from one deal per class (its set at the first child), so the
/// full river (36,664 deals, each dealt by the root's one chance node; four
/// moves at the root) advances fewer than three states a deal (it was
/// nine: the root, then each child's parent again and the child),
/// interpreted and compiled, and gives the public game of the walk over
/// every deal ([`same_public_game`] on the cut-down spots).
#[test]
fn the_first_moves_advance_a_deal_along_one_line() {
    use galac_runtime::game::{Game, Node};
    use galac_runtime::info::InfoInterner;
    let game = load_interp("holdem_river.gala", &[]).unwrap_or_else(|e| panic!("{e}"));
    let mut root = game.root().expect("a root");
    let deals = match game.advance(&mut root, &mut InfoInterner::new()).expect("advances") {
        Node::Chance { n_outcomes } => u64::from(n_outcomes),
        other => panic!("the river starts with {other:?}"),
    };
    assert_eq!(deals, 36_664);
    let derived = from_game(&game).unwrap_or_else(|e| panic!("{e}"));
    assert!(derived.advanced < 3 * deals, "{} states for {deals} deals", derived.advanced);
    let compiled = instantiate(&holdem_river::Family, &[]).unwrap_or_else(|e| panic!("{e}"));
    let compiled = from_game(&compiled).unwrap_or_else(|e| panic!("{e}"));
    assert!(compiled.game == derived.game && compiled.advanced == derived.advanced);
}

/// On a small turn spot (about 200 deals) the representative walk advances a small part of
/// the states the walk over every deal does (its showdowns are evaluated
/// per deal once per river card and stack, not per leaf).
#[test]
fn the_representative_walk_advances_few_states() {
    let params = ["oop_range=AA,KK,AKs", "ip_range=JJ,88,AQs", "stack=300"];
    let game = load_interp("holdem_turn.gala", &params).unwrap_or_else(|e| panic!("{e}"));
    let derived = from_game(&game).unwrap_or_else(|e| panic!("{e}"));
    let by_deal = from_game_by_deal(&game).unwrap_or_else(|e| panic!("{e}"));
    assert!(derived.game == by_deal.game);
    assert!(10 * derived.advanced < by_deal.advanced, "{} vs {}", derived.advanced, by_deal.advanced);
}

/// The facts each deal's state pushes as the deals are enumerated (each
/// advanced once to see that it is at its first node, then kept as it was
/// before) are forgotten with the advanced copy: no fact is left pending
/// by the derivation, interpreted or compiled (it held two a deal).
#[test]
fn the_derivation_leaves_no_pending_fact() {
    let river = crate::games::cut_down("examples/holdem_river.gala");
    let game = load_interp("holdem_river.gala", river).unwrap_or_else(|e| panic!("{e}"));
    let derived = from_game(&game).unwrap_or_else(|e| panic!("{e}"));
    assert!(derived.representative.is_ok());
    assert_eq!(derived.info.mark(), 0, "facts left pending by the interpreter's derivation");
    let compiled = instantiate(&holdem_river::Family, river).unwrap_or_else(|e| panic!("{e}"));
    let compiled = from_game(&compiled).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(compiled.info.mark(), 0, "facts left pending by the compiled game's derivation");
}

#[test]
fn the_rules_give_the_trees_public_game() {
    same_public_game(&kuhn::Family, "kuhn.gala", &[]);
    same_public_game(&leduc::Family, "leduc.gala", &[]);
    same_public_game(&liars_dice::Family, "liars_dice.gala", &[]);
    let river = crate::games::cut_down("examples/holdem_river.gala");
    same_public_game(&holdem_river::Family, "holdem_river.gala", river);
    let turn = crate::games::cut_down("examples/holdem_turn.gala");
    same_public_game(&holdem_turn::Family, "holdem_turn.gala", turn);
    same_public_game(&holdem_turn::Family, "holdem_turn.gala", TURN);
    // A short stack: every turn line that bets goes all-in, and the river
    // is dealt with no decision after it.
    let short: Vec<&str> = TURN.iter().copied().chain(["stack=150"]).collect();
    same_public_game(&holdem_turn::Family, "holdem_turn.gala", &short);
}

/// The public tree of the cut-down turn counts postflop-solver's action
/// tree per street: 24 turn decisions, then 112 river decisions (over the
/// 11 lines that see the river without an all-in, as `holdem.rs` counts the
/// scalar tree) for each river card: the 48 cards off the board, each left
/// to some deal (a deal sees 44).
#[test]
fn the_turns_public_tree_is_postflop_solvers() {
    let game = load_interp("holdem_turn.gala", TURN).unwrap_or_else(|e| panic!("{e}"));
    let streets = from_game(&game).unwrap_or_else(|e| panic!("{e}")).game.per_street();
    assert_eq!(streets.decisions, vec![24, 48 * 112], "{streets:?}");
}

/// A game whose course a private value steers keeps the walk over every
/// deal, and says why (`galac solve` shows it in a note).
#[test]
fn a_game_the_proof_refuses_is_walked_deal_by_deal() {
    // poker.gala's deal copies its private `betterhand` where a choice is
    // still reachable (`galac_compiler::public`'s known false refusal).
    let game = load_interp("poker.gala", &[]).unwrap_or_else(|e| panic!("{e}"));
    let why = galac_runtime::game::Game::representative(&game).expect_err("refused");
    assert!(why.contains("the private value `betterhand`") && why.contains("poker.gala:"), "{why}");
    // The compiled game says the same, and so is walked deal by deal too.
    let compiled = instantiate(&poker::Family, &[]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(galac_runtime::game::Game::representative(&compiled), Err(why));
    let derived = from_game(&compiled).unwrap_or_else(|e| panic!("{e}"));
    assert!(derived.representative.is_err());
    let steered = "game g {
        players a, b;
        flow {
            choose nature c in 0..3;
            reveal a card(c);
            let h = c;
            choose a x in [0, 1];
            reveal b moved(x);
            choose b y in [0, 1];
            reveal a moved(y);
            if x == 1 { h = 0; choose a z in [0, 1]; reveal b moved(z); }
            outcome [h, -h];
        }
    }";
    let game = galac_compiler::driver::load_interp("steered.gala", steered.as_bytes(), &[]).expect("loads");
    let derived = from_game(&game).unwrap_or_else(|e| panic!("{e}"));
    let why = derived.representative.expect_err("walked deal by deal");
    assert!(why.contains("sets the private value `h`"), "{why}");
    let tree = build(&game, &BuildOptions { labels: true, ..BuildOptions::default() }).expect("builds").0;
    assert!(derived.game == from_tree(&tree).expect("derives").game);
}

/// The compiled game and the interpreter give the same public game, both
/// by one representative deal (the same proof, the same states advanced)
/// on the small turn spot whose walk over every deal advances ten times
/// as many.
#[test]
fn compiled_and_interpreted_rules_give_the_same_public_game() {
    let params = ["oop_range=AA,KK,AKs", "ip_range=JJ,88,AQs", "stack=300"];
    let interp = load_interp("holdem_turn.gala", &params).unwrap_or_else(|e| panic!("{e}"));
    let compiled = instantiate(&holdem_turn::Family, &params).unwrap_or_else(|e| panic!("{e}"));
    let a = from_game(&interp).unwrap_or_else(|e| panic!("{e}"));
    let b = from_game(&compiled).unwrap_or_else(|e| panic!("{e}"));
    assert!(a.game == b.game, "the interpreter's and the compiled code's public games differ");
    assert!(b.representative.is_ok(), "{:?}", b.representative);
    assert_eq!(a.representative, b.representative);
    assert_eq!(a.advanced, b.advanced);
    let by_deal = from_game_by_deal(&compiled).unwrap_or_else(|e| panic!("{e}"));
    assert!(by_deal.game == b.game);
    assert!(10 * b.advanced < by_deal.advanced, "{} vs {}", b.advanced, by_deal.advanced);
}

/// Games outside the class are refused as `from_tree` refuses them.
#[test]
fn the_rules_are_refused_for_the_trees_reasons() {
    for (file, params) in [("beer_quiche.gala", &[][..]), ("inspection.gala", &[]), ("goofspiel.gala", &["cards=3"])] {
        let game = load_interp(file, params).unwrap_or_else(|e| panic!("{e}"));
        let tree = build(&game, &BuildOptions { labels: true, ..BuildOptions::default() }).expect("builds").0;
        let by_tree = from_tree(&tree).err().expect("refused").to_string();
        let by_rules = from_game(&game).err().expect("refused").to_string();
        assert_eq!(by_rules, by_tree, "{file}");
    }
}

/// Vector CFR on the public game of the cut-down turn, derived without a
/// tree, reaches the LP's value of the scalar tree, and its vector best
/// response says it is nearly unexploitable.
#[test]
fn the_turn_solved_from_the_rules_is_worth_the_lps_value() {
    use galac_solvers::lp::Backend;
    let src = std::fs::read_to_string(crate::repo_root().join("examples/holdem_turn.gala")).expect("example");
    let lp = crate::solve::solve_src(&src, TURN, Backend::Clarabel);
    let game = load_interp("holdem_turn.gala", TURN).unwrap_or_else(|e| panic!("{e}"));
    let derived = from_game(&game).unwrap_or_else(|e| panic!("{e}"));
    let mut cfr = VectorCfr::new(&derived.game, POSTFLOP_DCFR, 1).expect("runs");
    for _ in 0..1000 {
        cfr.iterate();
    }
    let e = cfr.evaluate();
    let pot = 200.0;
    assert!(e.nash_conv / 2.0 < 0.001 * pot, "exploitability {}", e.nash_conv / 2.0);
    assert!((e.values[0] - lp.lp_value).abs() < 0.002 * pot, "vector CFR {} vs LP {}", e.values[0], lp.lp_value);
}

/// The compiler's proof that private values steer only the payoff
/// (`galac_compiler::public`) agrees with the walk over every deal: a game
/// it proves is never refused by `from_game` for a course that depends on
/// private information, and a game whose course a dealt card steers is
/// refused by both, each saying so.
#[test]
fn the_compilers_proof_agrees_with_the_walk_over_every_deal() {
    use galac_compiler::public::public_course;
    let turn = crate::games::cut_down("examples/holdem_turn.gala");
    let river = crate::games::cut_down("examples/holdem_river.gala");
    let games: [(&str, &[&str]); 9] = [
        ("kuhn.gala", &[]),
        ("leduc.gala", &[]),
        ("liars_dice.gala", &[]),
        ("generic_poker.gala", &[]),
        ("beer_quiche.gala", &[]),
        ("inspection.gala", &[]),
        ("goofspiel.gala", &["cards=3"]),
        ("holdem_turn.gala", turn),
        ("holdem_river.gala", river),
    ];
    for (file, params) in games {
        let game = load_interp(file, params).unwrap_or_else(|e| panic!("{e}"));
        let proof = public_course(game.ir()).map_err(|e| e.message);
        let walk = from_game_by_deal(&game).err().map(|e| e.to_string());
        if proof.is_ok() {
            assert!(
                !walk.as_deref().is_some_and(|w| w.contains("depend on private information")
                    || w.contains("goes on differently for different deals")),
                "{file}: proved ({proof:?}), but the walk says {walk:?}"
            );
        }
    }
    let steered = "game g {
        players a, b;
        flow {
            choose nature c in 0..3;
            reveal a card(c);
            choose a x in [0, 1];
            reveal b moved(x);
            if c > 1 { choose b y in [0, 1]; reveal a moved(y); }
            outcome [x, -x];
        }
    }";
    let game = galac_compiler::driver::load_interp("steered.gala", steered.as_bytes(), &[]).expect("loads");
    let proof = public_course(game.ir()).expect_err("not proved").message;
    assert!(proof.starts_with("which way the play goes here depends on the private value `c`"), "{proof}");
    let walk = from_game(&game).err().expect("refused").to_string();
    assert!(walk.contains("goes on differently for different deals"), "{walk}");
}

/// The same agreement on the random program generator's two-player games
/// (seeds `0..GALAC_PUBLIC_PROGRAMS`, 300 by default): a program the proof
/// accepts is never refused by the walk over every deal for a course, a
/// choice set or a private state that depends on the deal.
#[test]
fn the_proof_agrees_with_the_walk_on_random_programs() {
    use galac_compiler::public::public_course;
    use galac_runtime::game::Game;
    let n: u64 = std::env::var("GALAC_PUBLIC_PROGRAMS").ok().and_then(|s| s.parse().ok()).unwrap_or(300);
    let (mut proved, mut walked_with_private, mut showdowns) = (0, 0, 0);
    for seed in 0..n {
        let generated = crate::progen::program(seed);
        let name = format!("g{seed}.gala");
        let Ok(game) = galac_compiler::driver::load_interp(&name, generated.source.as_bytes(), &generated.params)
        else {
            continue;
        };
        let opts = BuildOptions { max_nodes: 20_000, ..BuildOptions::default() };
        if game.info().players.len() != 2 || build(&game, &opts).is_err() {
            continue;
        }
        let Ok(course) = public_course(game.ir()) else { continue };
        proved += 1;
        showdowns += usize::from(course.strengths.is_some());
        // The representative walk gives the walk over every deal's answer.
        let representative = from_game(&game).map(|d| d.game).map_err(|e| e.to_string());
        match from_game_by_deal(&game) {
            Ok(by_deal) => {
                walked_with_private += usize::from(!course.private.is_empty());
                assert!(
                    representative.as_ref().is_ok_and(|g| *g == by_deal.game),
                    "seed {seed}: the representative walk gives {}\n{}",
                    representative.err().unwrap_or_else(|| "another public game".into()),
                    generated.source
                );
            }
            Err(e) => {
                let walk = e.to_string();
                assert_eq!(representative.as_ref().err(), Some(&walk), "seed {seed}\n{}", generated.source);
                let walk = e.to_string();
                let steered = [
                    "depend on private information",
                    "goes on differently for different deals",
                    "learns something private",
                ];
                assert!(
                    !steered.iter().any(|s| walk.contains(s)),
                    "seed {seed}: proved ({course:?}), but the walk says {walk}\n{}",
                    generated.source
                );
            }
        }
    }
    crate::announce(&format!(
        "public course: {proved} of {n} programs proved, {walked_with_private} with private values walked, \
         {showdowns} with a showdown"
    ));
    assert!(proved > 0, "no program of {n} was proved");
}

/// Where the interpreter says that no chance node follows a chance node's
/// outcomes (`Game::chance_may_follow`, from its flow: the deals'
/// enumeration then takes each outcome as a deal without advancing it),
/// none does, on every path through the chance nodes above the first
/// decision: Kuhn's and Leduc's first card is followed by the second, whose
/// outcomes and hold'em's deal are followed by a decision, and a deal in a
/// branch is one that may follow.
#[test]
fn no_chance_follows_where_the_interpreter_says_none_may() {
    use galac_runtime::game::{Game, Node};
    use galac_runtime::info::InfoInterner;
    // What each chance node met says, depth first, each checked on its outcomes.
    fn said<G: Game>(game: &G) -> Vec<bool> {
        let mut info = InfoInterner::new();
        let mut stack = Vec::new();
        let mut root = game.root().expect("a root");
        if let Node::Chance { n_outcomes } = game.advance(&mut root, &mut info).expect("advances") {
            stack.push((root, n_outcomes));
        }
        let mut out = Vec::new();
        while let Some((at, n)) = stack.pop() {
            let may = game.chance_may_follow(&at);
            out.push(may);
            for k in (0..n).rev() {
                let mut child = at.clone();
                game.apply(&mut child, k, &mut info).expect("applies");
                if let Node::Chance { n_outcomes } = game.advance(&mut child, &mut info).expect("advances") {
                    assert!(may, "a chance node follows one that said none may");
                    stack.push((child, n_outcomes));
                }
            }
        }
        out
    }
    let load = |file: &str, params: &[&str]| load_interp(file, params).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(said(&load("kuhn.gala", &[])), [true, false, false, false]);
    assert_eq!(said(&load("leduc.gala", &[])), [[true].as_slice(), &[false; 6]].concat());
    assert!(said(&load("liars_dice.gala", &[])).len() > 1);
    let river = crate::games::cut_down("examples/holdem_river.gala");
    assert_eq!(said(&load("holdem_river.gala", river)), [false]);
    let branch = "game branch {
        players a, b;
        flow {
            choose nature x in 0..2;
            if x == 0 {
                choose nature y in 0..2;
            }
            choose a m in 0..2;
            outcome [m, -m];
        }
    }";
    let game =
        galac_compiler::driver::load_interp("branch.gala", branch.as_bytes(), &[]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(said(&game), [true, false]);
}
