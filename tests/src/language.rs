//! The language where users trip (issue 26): a bare-name `reveal`,
//! constants, loop conditions that see the body's locals, friendlier
//! errors. The invalid programs' messages are UI tests under `ui/`.

use galac_runtime::ids::PlayerId;
use galac_runtime::tree::{build, BuildOptions};

use crate::trees::{counts, load, tree_of};

/// A game dealing a card to `a` and revealing it with `reveal`, written `how`.
fn dealt(how: &str) -> String {
    format!(
        "game g {{ players a, b; flow {{ choose nature c in 0..3; {how} choose a x in bool; \
         outcome [if x then c else 1, 0]; }} }}"
    )
}

#[test]
fn a_bare_name_reveals_its_value() {
    let bare = tree_of(&load(&dealt("reveal a c;"), &[])).stats();
    let fact = tree_of(&load(&dealt("reveal a c(c);"), &[])).stats();
    let nothing = tree_of(&load(&dealt(""), &[])).stats();
    assert_eq!(counts(&bare), counts(&fact));
    // Three cards, three sets for `a`; without the reveal, one.
    assert_eq!(bare.infosets[0], 3);
    assert_eq!(nothing.infosets[0], 1);
}

const CONSTANT: &str = "game k { players a, b; param rows: int = 2; const cells = rows * rows; \
    flow { choose a x in 0..cells; outcome [x, -x]; } }";

#[test]
fn a_constant_follows_the_params_and_cannot_be_set() {
    let actions = |params: &[&str]| tree_of(&load(CONSTANT, params)).stats().nodes - 1;
    assert_eq!(actions(&[]), 4);
    assert_eq!(actions(&["rows=3"]), 9);
    let err = galac_compiler::driver::load_interp("k.gala", CONSTANT.as_bytes(), &["cells=20".to_string()])
        .err()
        .expect("a constant cannot be overridden");
    assert!(err.contains("`cells` is a constant"), "{err}");
    // Nor is it listed among the params.
    let err = galac_compiler::driver::load_interp("k.gala", CONSTANT.as_bytes(), &["nope=1".to_string()])
        .err()
        .expect("no such param");
    assert!(err.contains("its params are: rows") && !err.contains("cells"), "{err}");
}

#[test]
fn until_sees_the_locals_of_the_body() {
    // Count by hand: a repeats `choose a x in 0..3` until x == 2, at most
    // three times. Plays: x0 = 2 (1 leaf); x0 in {0,1}, x1 = 2 (2); two
    // misses then anything (2 * 2 * 3 = 12): 15 leaves, 1 + 3 + 6 + 12 nodes
    // of which 1 + 2 + 4 are decisions.
    let src = "game u { players a, b; flow { let n = 0; repeat { choose a x in 0..3; let hit = x == 2; n += 1; } \
               until hit || n == 3; end; } }";
    let s = tree_of(&load(src, &[])).stats();
    assert_eq!((s.nodes, s.terminals), (1 + 3 + 6 + 12, 15));
}

#[test]
fn a_build_error_names_the_play_that_led_there() {
    let src = "game e { players a, b; flow { choose nature c in 0..3; reveal a c; choose a x in 0..3; \
               let v = [1, 2, 3]; if x == 2 && c == 1 { outcome [v[x + c], 0]; } end; } }";
    let game = load(src, &[]);
    let err = build(&game, &BuildOptions::default()).err().expect("index out of bounds").to_string();
    assert!(err.contains("index 3 is out of bounds"), "{err}");
    assert!(err.contains("in the play: nature: 1, a: 2"), "{err}");
}

#[test]
fn a_simultaneous_move_is_the_hand_written_hidden_sequence() {
    let src = std::fs::read_to_string(crate::repo_root().join("examples/goofspiel.gala")).expect("example");
    let start = src.find("simultaneous {").expect("goofspiel bids simultaneously");
    let end = start + src[start..].find('}').expect("block end") + 1;
    let body = &src[start + "simultaneous {".len()..end - 1];
    let by_hand = format!("{}{}{}", &src[..start], body, &src[end..]);
    let both = |params: &[&str]| {
        let a = galac_runtime::tree::build(&load(&src, params), &BuildOptions { labels: true, ..Default::default() });
        let b =
            galac_runtime::tree::build(&load(&by_hand, params), &BuildOptions { labels: true, ..Default::default() });
        let (a, b) = (a.expect("builds").0, b.expect("builds").0);
        assert_eq!(a.stats(), b.stats());
        let labels = |t: &galac_runtime::tree::Tree| -> Vec<String> {
            t.infosets.keys().map(|i| t.infoset_label(i).to_string()).collect()
        };
        assert_eq!(labels(&a), labels(&b));
        a.stats()
    };
    // OpenSpiel's turn-based goofspiel-4: 1,077 nodes, 81 + 81 sets.
    let s = both(&[]);
    assert_eq!((s.nodes, s.infosets.clone()), (1077, vec![81, 81]));
    both(&["cards=5"]);
}

/// The codes of the warnings `galac check` gives for `src`.
fn warning_codes(src: &str) -> Vec<&'static str> {
    let mut sources = galac_compiler::diagnostic::SourceMap::new();
    let checked = galac_compiler::driver::check_source(&mut sources, "w.gala", src.as_bytes())
        .unwrap_or_else(|d| panic!("{}", galac_compiler::diagnostic::render(&sources, &d, false)));
    checked.warnings.iter().filter_map(|w| w.code).collect()
}

#[test]
fn warnings_name_what_is_probably_a_mistake() {
    let clean = "game w { players a, b; flow { choose a x in bool; outcome [if x then 1 else 0, 0]; } }";
    assert_eq!(warning_codes(clean), Vec::<&str>::new());
    // An unread choice, param, fn and flow; `_` names are meant to be unused.
    let unused = "game w { players a, b; param p: int = 1; fn f(x: int) -> int { return x; } flow g() { end; } \
                  flow { choose a x in bool; choose b _y in bool; outcome [1, 0]; } }";
    assert_eq!(warning_codes(unused), vec!["unused"; 4]);
    let unreachable = "game w { players a, b; flow { choose a x in bool; outcome [if x then 1 else 0, 0]; end; } }";
    assert_eq!(warning_codes(unreachable), vec!["unreachable"]);
    let no_payoff = "game w { players a, b; flow { choose a x in bool; if x { payoff a += 1; payoff b -= 1; } end; } }";
    assert_eq!(warning_codes(no_payoff), vec!["no-payoff"]);
    let useless = "game w { players a, b; flow { choose nature c in bool; choose a x in bool; reveal a c(c); \
                   choose b y in bool; outcome [if x == y then 1 else 0, 0]; } }";
    assert_eq!(warning_codes(useless), vec!["useless-reveal"]);
}

#[test]
fn the_examples_have_no_warnings() {
    for entry in std::fs::read_dir(crate::repo_root().join("examples")).expect("examples") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "gala") {
            let src = std::fs::read_to_string(&path).expect("read");
            assert_eq!(warning_codes(&src), Vec::<&str>::new(), "{}", path.display());
        }
    }
}

#[test]
fn the_games_in_the_docs_check_without_warnings() {
    let mut found = 0;
    for doc in ["docs/language.md", "README.md"] {
        let text = std::fs::read_to_string(crate::repo_root().join(doc)).expect("doc");
        let mut rest = text.as_str();
        while let Some(start) = rest.find("```gala\n") {
            let body = &rest[start + "```gala\n".len()..];
            let end = body.find("\n```").expect("closed block");
            assert_eq!(warning_codes(&body[..end]), Vec::<&str>::new(), "a game in {doc}");
            found += 1;
            rest = &body[end..];
        }
    }
    assert!(found >= 3, "found {found} games in the docs");
}

#[test]
fn the_word_operator_hint_reads_past_non_ascii_text() {
    // The hint looks at the word before an unexpected token; `é` is two bytes.
    let mut sources = galac_compiler::diagnostic::SourceMap::new();
    let src = "game g { players a, b; flow { choose a x in bool; if xé x { end; } end; } }";
    let err = galac_compiler::driver::check_source(&mut sources, "g.gala", src.as_bytes()).err().expect("invalid");
    assert!(!err.is_empty());
}

#[test]
fn a_one_move_game_is_shown_as_its_matrix() {
    let pennies = |reveal: &str| {
        format!(
            "game mp {{ players even, odd; flow {{ choose even e in bool; {reveal} choose odd o in bool; \
             if e == o {{ outcome [1, -1]; }} outcome [-1, 1]; }} }}"
        )
    };
    let labelled = BuildOptions { labels: true, ..Default::default() };
    let tree = build(&load(&pennies(""), &[]), &labelled).expect("builds").0;
    let m = galac_app::matrix::of(&tree).expect("a matrix game");
    assert_eq!((m.row_player, m.col_player), (PlayerId(0), PlayerId(1)));
    assert_eq!(
        (m.row_actions.clone(), m.col_actions.clone()),
        (vec!["false".into(), "true".into()], vec!["false".into(), "true".into()])
    );
    assert_eq!(m.payoffs, vec![vec![vec![1, -1], vec![-1, 1]], vec![vec![-1, 1], vec![1, -1]]]);
    // When `odd` sees `even`'s coin, the game is no longer one simultaneous move.
    let seen = build(&load(&pennies("reveal odd e;"), &[]), &labelled).expect("builds").0;
    assert!(galac_app::matrix::of(&seen).is_none());
}

/// `has_line` takes a step per cell it reads (issue 52.11): a loop asking
/// it of a 300 x 300 board stops at the step limit within a dozen rounds,
/// where it used to run for seconds without an error; the same loop on a
/// 3 x 3 board (nine steps a round) finishes.
#[test]
fn has_line_takes_a_step_per_cell() {
    let game = |side: u32, rounds: u32| {
        format!(
            "game h {{ players a; enum Cell {{ Empty, X }} var board: [[Cell; {side}]; {side}] = [[Empty; {side}]; \
             {side}]; flow {{ let n = 0; while n < {rounds} && !has_line(board, 3, X) {{ n += 1; }} outcome [n]; }} }}"
        )
    };
    let err = build(&load(&game(300, 1000), &[]), &BuildOptions::default()).err().expect("the step limit").to_string();
    assert!(err.contains("no event within 1000000 steps"), "{err}");
    let done = tree_of(&load(&game(3, 1000), &[])).stats();
    assert_eq!(done.nodes, 1);
}
