//! galac must never panic, whatever the input: random token streams, random
//! bytes, mutated examples, huge and deeply nested files. Each case only
//! asserts that checking returns (errors are fine).

use galac_compiler::diagnostic::{render, SourceMap};
use proptest::prelude::*;

/// Runs the whole front end and renders the result, as `galac check` does.
fn check(bytes: &[u8]) -> bool {
    let mut sources = SourceMap::new();
    match galac_compiler::driver::check_source(&mut sources, "fuzz.gala", bytes) {
        Ok(_) => true,
        Err(d) => {
            let _ = render(&sources, &d, false);
            false
        }
    }
}

/// Every token kind of the language, plus a few names and literals.
const VOCABULARY: &[&str] = &[
    "game",
    "players",
    "param",
    "enum",
    "var",
    "fn",
    "flow",
    "let",
    "if",
    "then",
    "else",
    "while",
    "repeat",
    "until",
    "for",
    "in",
    "take_turns",
    "unless",
    "choose",
    "nature",
    "reveal",
    "all",
    "payoff",
    "outcome",
    "end",
    "return",
    "where",
    "weight",
    "true",
    "false",
    "int",
    "bool",
    "player",
    "opponent",
    "card",
    "list",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    ";",
    ",",
    ":",
    "::",
    ".",
    "..",
    "..=",
    "->",
    "=",
    "+=",
    "-=",
    "*=",
    "+",
    "-",
    "*",
    "/",
    "%",
    "==",
    "!=",
    "<",
    "<=",
    ">",
    ">=",
    "&&",
    "||",
    "!",
    "g",
    "a",
    "b",
    "x",
    "Move",
    "Bet",
    "deck",
    "len",
    "next",
    "0",
    "1",
    "3",
    "99999999999999999999",
    "_",
    "/*",
    "*/",
    "//",
    "@",
];

/// A valid game used as a skeleton for token insertion.
const SKELETON: &str = "game g { players a, b; enum Move { Pass, Bet } var pot: int = 0; flow { ";

proptest! {
    // 3000 cases by default; a longer run: GALAC_FUZZ_CASES=100000 cargo test --release ...
    #![proptest_config(ProptestConfig {
        cases: std::env::var("GALAC_FUZZ_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(3000),
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_token_streams_never_panic(tokens in prop::collection::vec(0..VOCABULARY.len(), 0..60)) {
        let body: Vec<&str> = tokens.iter().map(|i| VOCABULARY[*i]).collect();
        check(body.join(" ").as_bytes());
        // The same tokens inside a valid prefix reach the checker more often.
        check(format!("{SKELETON}{} }} }}", body.join(" ")).as_bytes());
    }

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        check(&bytes);
    }
}

#[test]
fn mutated_examples_never_panic() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let Ok(entries) = std::fs::read_dir(&dir) else { return };
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut rand = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n.max(1) as u64) as usize
    };
    for entry in entries.filter_map(|e| e.ok()) {
        let Ok(src) = std::fs::read(entry.path()) else { continue };
        if src.is_empty() {
            continue;
        }
        for _ in 0..300 {
            let mut m = src.clone();
            // Delete, duplicate or swap a random slice.
            let a = rand(m.len());
            let b = (a + rand(40)).min(m.len());
            match rand(3) {
                0 => {
                    m.drain(a..b);
                }
                1 => {
                    let piece: Vec<u8> = m[a..b].to_vec();
                    let at = rand(m.len());
                    m.splice(at..at, piece);
                }
                _ => {
                    let c = rand(m.len());
                    m.swap(a, c);
                }
            }
            check(&m);
        }
    }
}

#[test]
fn deeply_nested_input_is_an_error_not_a_crash() {
    let n = 100_000;
    // Parentheses alone do not nest the tree: this one is valid.
    let parens = format!("game g {{ players a; flow {{ let x = {}1{}; }} }}", "(".repeat(n), ")".repeat(n));
    assert!(check(parens.as_bytes()));
    let cases = [
        format!("game g {{ players a; flow {{ let x = {}-1{}; }} }}", "(-".repeat(n), ")".repeat(n)),
        format!("game g {{ players a; flow {{ let x = {}1; }} }}", "-".repeat(n)),
        format!("game g {{ players a; flow {{ let x = 1{}; }} }}", " + 1".repeat(n)),
        format!("game g {{ players a; flow {{ let x = {}0{}; }} }}", "[".repeat(n), "]".repeat(n)),
        format!("game g {{ players a; var v: {}int{} = 0; flow {{ }} }}", "list<".repeat(n), ">".repeat(n)),
        format!("game g {{ players a; flow {{ {}{} }} }}", "if true { ".repeat(n), "}".repeat(n)),
    ];
    for src in &cases {
        let mut sources = SourceMap::new();
        let result = galac_compiler::driver::check_source(&mut sources, "deep.gala", src.as_bytes());
        let diags = result.err().unwrap_or_default();
        let text = render(&sources, &diags, false);
        assert!(text.contains("nested too deeply"), "{}", &text[..text.len().min(500)]);
    }
}

/// The audit's slow inputs: unbalanced `if`s took 35 s to check at 96 KB,
/// because each syntax error's recovery copied a parser stack as deep as
/// the file. Blocks past `MAX_NESTING` stop the parse; below it, a broken
/// file's errors stop after `MAX_SYNTAX_ERRORS`.
#[test]
fn broken_deep_files_are_rejected_without_reading_them_all() {
    let unbalanced =
        format!("game g {{ players a, b; flow {{\n{}}} }}", "        if true {{ payoff [0, 0];\n".repeat(4000));
    let mut sources = SourceMap::new();
    let diags =
        galac_compiler::driver::check_source(&mut sources, "u.gala", unbalanced.as_bytes()).err().unwrap_or_default();
    assert_eq!(diags.len(), 1, "{}", render(&sources, &diags, false));
    assert_eq!(diags[0].message, "blocks nested too deeply");

    let depth = galac_compiler::delimiters::MAX_NESTING - 4;
    let garbage = format!(
        "game g {{ players a, b; flow {{\n{}{}payoff [0, 0];\n{} }} }}",
        "if true {\n".repeat(depth),
        "x x x ;\n".repeat(20_000),
        "}\n".repeat(depth)
    );
    let mut sources = SourceMap::new();
    let diags =
        galac_compiler::driver::check_source(&mut sources, "g.gala", garbage.as_bytes()).err().unwrap_or_default();
    assert_eq!(diags.len(), galac_compiler::parser::MAX_SYNTAX_ERRORS);
    assert!(diags.last().is_some_and(|d| d.notes.iter().any(|n| n.contains("stopped after"))));
}

#[test]
fn ten_megabyte_file_is_handled() {
    let mut src = String::from("game big { players a, b; flow {\n");
    while src.len() < 10 << 20 {
        src.push_str("    let x = 1 + 2 * 3;\n");
    }
    src.push_str("    outcome [1, -1];\n} }\n");
    assert!(check(src.as_bytes()), "a 10 MB valid game must check");
}
