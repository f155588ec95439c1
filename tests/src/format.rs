//! `galac fmt` never changes what a program means, keeps every comment and
//! is idempotent: checked over every example, every test game (codegen,
//! diagnostics, CLI) and random programs of the differential suite's
//! generator. Meaning is compared twice, independently of the formatter's
//! own token check: the parsed programs are equal but for their spans, and
//! the game trees the interpreter builds have the same digest.

use galac_compiler::format::format;
use galac_compiler::span::FileId;
use galac_runtime::tree::{build, BuildOptions};

use crate::games::{cut_down, digest};
use crate::repo_root;

/// Trees are compared when they have at most this many nodes (the larger
/// examples are compared by their parsed programs alone), with
/// `GALAC_SLOW_TESTS=1`.
const MAX_NODES: u64 = 200_000;

/// The bound by default: building the examples' trees up to [`MAX_NODES`],
/// twice each, made this the longest test of `cargo test --workspace`
/// (BENCHMARKS.md, "Tests"); the parsed programs, the comments and
/// idempotence are compared for every file either way.
const QUICK_MAX_NODES: u64 = 20_000;

fn max_nodes() -> u64 {
    if crate::slow_tests() {
        MAX_NODES
    } else {
        QUICK_MAX_NODES
    }
}

/// Random programs formatted (seeds 0 to this).
const PROGRAMS: u64 = 300;

/// Formats `src` and checks the result; `params` are the overrides its tree
/// is built with. Returns the formatted text, or `None` when the file does
/// not parse (then the formatter must refuse it too).
fn check(name: &str, src: &str, params: &[String]) -> Option<String> {
    let (parsed, errors) = galac_compiler::parser::parse(FileId(0), src);
    let formatted = match format(FileId(0), src) {
        Ok(f) => f,
        Err(d) => {
            assert!(parsed.is_none() || !errors.is_empty(), "{name}: parses but is not formatted: {d:?}");
            return None;
        }
    };
    assert!(parsed.is_some() && errors.is_empty(), "{name}: formatted though it does not parse");
    let again = format(FileId(0), &formatted).unwrap_or_else(|d| panic!("{name}: output does not format: {d:?}"));
    assert_eq!(again, formatted, "{name}: formatting is not idempotent");
    let (reparsed, errors) = galac_compiler::parser::parse(FileId(0), &formatted);
    assert!(errors.is_empty(), "{name}: the output has syntax errors: {errors:?}\n{formatted}");
    assert_eq!(
        without_spans(&format!("{parsed:?}")),
        without_spans(&format!("{reparsed:?}")),
        "{name}: the parsed program changed"
    );
    assert_eq!(comments(src), comments(&formatted), "{name}: comments changed");
    assert_eq!(tree_digest(src, params), tree_digest(&formatted, params), "{name}: the game tree changed");
    Some(formatted)
}

/// The debug print of a parsed program with every `Span { .. }` removed.
fn without_spans(debug: &str) -> String {
    let mut out = String::with_capacity(debug.len());
    let mut rest = debug;
    while let Some(at) = rest.find("Span {") {
        out.push_str(&rest[..at]);
        let end = rest[at..].find('}').map_or(rest.len(), |e| at + e + 1);
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// The comments of a file in order, each without trailing whitespace, found
/// by a scan of its own (not the lexer's): `"` texts hold no comment.
fn comments(src: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < src.len() {
        let rest = &src[i..];
        if let Some(text) = rest.strip_prefix('"') {
            i += text.find('"').map_or(rest.len(), |e| e + 2);
        } else if rest.starts_with("//") {
            let len = rest.find('\n').unwrap_or(rest.len());
            out.push(rest[..len].trim_end());
            i += len;
        } else if let Some(body) = rest.strip_prefix("/*") {
            let len = body.find("*/").map_or(rest.len(), |e| e + 4);
            out.push(&rest[..len]);
            i += len;
        } else {
            i += rest.chars().next().map_or(1, char::len_utf8);
        }
    }
    out
}

/// The digest of the game's tree, or the error that stops it (a game that
/// does not check, a run-time error or a tree past [`max_nodes`]) without
/// its places, which formatting moves.
fn tree_digest(src: &str, params: &[String]) -> Result<u64, String> {
    let interp = galac_compiler::driver::load_interp("g.gala", src.as_bytes(), params).map_err(without_places)?;
    let options = BuildOptions { max_nodes: max_nodes(), ..BuildOptions::default() };
    build(&interp, &options).map(|t| digest(&t.0)).map_err(|e| without_places(e.to_string()))
}

/// The messages of rendered diagnostics or of a run-time error, without
/// their places (`g.gala:LINE:COLUMN: `) and source excerpts.
fn without_places(rendered: String) -> String {
    let messages =
        rendered.lines().filter(|l| l.starts_with("error") || l.starts_with("warning") || l.starts_with("g.gala:"));
    let bare = messages.map(|l| match l.strip_prefix("g.gala:") {
        Some(rest) => rest.splitn(3, ':').nth(2).unwrap_or(rest).to_string(),
        None => l.to_string(),
    });
    bare.collect::<Vec<_>>().join("\n")
}

fn gala_files(dir: &str) -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = std::fs::read_dir(repo_root().join(dir))
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "gala"))
        .map(|p| {
            let name = format!("{dir}/{}", p.file_name().unwrap_or_default().to_string_lossy());
            // Invalid UTF-8 (a diagnostics case) is read lossily: it does not lex.
            (name, String::from_utf8_lossy(&std::fs::read(&p).unwrap_or_default()).into_owned())
        })
        .collect();
    files.sort();
    files
}

#[test]
fn every_example_is_formatted_and_keeps_its_meaning() {
    if !crate::slow_tests() {
        crate::announce(&format!(
            "format::every_example_is_formatted_and_keeps_its_meaning: trees compared up to {QUICK_MAX_NODES} nodes \
             ({MAX_NODES} with GALAC_SLOW_TESTS=1)"
        ));
    }
    for (name, src) in gala_files("examples") {
        let params: Vec<String> = cut_down(&name).iter().map(|s| s.to_string()).collect();
        let formatted = check(&name, &src, &params).unwrap_or_else(|| panic!("{name} does not parse"));
        assert_eq!(formatted, src, "{name} is not formatted: run `galac fmt {name}`");
    }
}

#[test]
fn formatting_the_test_games_keeps_their_meaning() {
    let mut formatted = 0;
    for dir in ["tests/codegen", "tests/ui/typeck", "tests/ui/parse", "cli/tests/games"] {
        for (name, src) in gala_files(dir) {
            formatted += usize::from(check(&name, &src, &[]).is_some());
        }
    }
    // The games that parse: all but the syntax-error cases.
    assert!(formatted > 150, "only {formatted} test games formatted");
}

#[test]
fn formatting_random_programs_keeps_their_meaning() {
    for seed in 0..PROGRAMS {
        let g = crate::progen::program(seed);
        check(&format!("program {seed}"), &g.source, &g.params)
            .unwrap_or_else(|| panic!("program {seed} does not parse"));
    }
}

#[test]
fn messy_layout_and_comments_come_out_canonical() {
    let src =
        "// k\ngame k{players a,b ;var put:[player]int=[1,1];// antes\n\n\n flow{choose nature c in {1: 1/2,2 :1/2};\
               /* deal */ reveal a card(c);if c==1{payoff a+=put[b];payoff b -= put [ b ] ;}else{outcome[-1,1];}}}";
    let formatted = check("messy", src, &[]).expect("parses");
    assert_eq!(
        formatted,
        "// k
game k {
    players a, b;
    var put: [player]int = [1, 1]; // antes

    flow {
        choose nature c in { 1: 1/2, 2: 1/2 }; /* deal */
        reveal a card(c);
        if c == 1 {
            payoff a += put[b];
            payoff b -= put[b];
        } else {
            outcome [-1, 1];
        }
    }
}
"
    );
}
