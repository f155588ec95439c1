//! Gambit extensive-form files (`.efg`, format "EFG 2 R").
//!
//! The layout, as Gambit documents it: a header
//! `EFG 2 R "title" { "player 1" "player 2" ... }`, a quoted comment, then
//! one line per node in depth-first preorder:
//!
//! - chance: `c "" <infoset> "<name>" { "<outcome>" <prob> ... } 0`
//! - decision: `p "" <player> <infoset> "<name>" { "<action>" ... } 0`
//! - terminal: `t "" <outcome> "" { <payoff>, <payoff>, ... }`
//!
//! Players and their information sets are numbered from 1; every chance node
//! gets its own chance information set (numbered in preorder) and every leaf
//! its own outcome. Chance probabilities are written as exact fractions such
//! as `1/3`.
//!
//! Strings follow what Gambit 16 reads back:
//!
//! - Its lexer knows one escape, `\"` for `"`; a backslash before any other
//!   character is kept together with that character, so `\\` reads as two
//!   backslashes (Gambit's own writer doubles backslashes, and its reader
//!   does not undo it), and a backslash right before a quote or at the end
//!   cannot be written at all. [`quote`] writes such a backslash as `/`.
//! - Since 16.7 a label (of a player, information set, action, node or
//!   outcome) may hold only printable ASCII and single spaces, and may not
//!   start or end with a space; [`label`] turns runs of white space into one
//!   space, trims, and writes other characters as `?`. Non-empty information
//!   set labels must be unique per player (a repeated one gets `_2`, `_3`,
//!   ... appended), and no player may be called `Chance` (renamed `Chance_1`).
//!
//! Gala labels are identifiers, numbers and brackets, so in practice this
//! only matters for file names in the comment.

use std::collections::HashSet;
use std::io::{self, BufWriter, Write};

use super::labels::{action_label, chance_label};
use galac_runtime::tree::{Tree, CHANCE, TERMINAL};

/// Gambit's name of the chance player, which no other player may take.
const CHANCE_PLAYER: &str = "Chance";

/// Writes `tree` as a Gambit .efg file. `title` names the game (the header
/// string) and `comment` is the free-text line below it.
pub fn write_efg<W: Write>(tree: &Tree, title: &str, comment: &str, out: W) -> io::Result<()> {
    let mut w = BufWriter::with_capacity(1 << 16, out);
    write!(w, "EFG 2 R {} {{", label(title))?;
    let mut used: HashSet<String> = HashSet::from([CHANCE_PLAYER.to_string()]);
    for p in &tree.player_names {
        write!(w, " {}", quote(&unique(clean(p), &mut used)))?;
    }
    writeln!(w, " }}")?;
    writeln!(w, "{}", label(comment))?;
    writeln!(w)?;

    // What follows `p ""` at each node of an information set: player,
    // number, label and actions, the same at every node.
    let mut used: Vec<HashSet<String>> = vec![HashSet::new(); tree.n_players as usize];
    let mut infosets = Vec::with_capacity(tree.infosets.len());
    for (set, info) in tree.infosets.iter_enumerated() {
        let mut name = clean(tree.infoset_label(set));
        if let Some(taken) = used.get_mut(info.player.index()) {
            if !name.is_empty() {
                name = unique(name, taken);
            }
        }
        let mut line = format!("{} {} {} {{", info.player.0 + 1, info.index_in_player + 1, quote(&name));
        for a in 0..info.n_actions as usize {
            line.push(' ');
            line.push_str(&label(&action_label(tree, set, a)));
        }
        line.push_str(" } 0");
        infosets.push(line);
    }

    let mut chance_sets = 0u64;
    let mut outcomes = 0u64;
    for node in tree.preorder() {
        match tree.kind(node) {
            TERMINAL => {
                outcomes += 1;
                write!(w, "t \"\" {outcomes} \"\" {{ ")?;
                for (i, v) in tree.payoffs(node).iter().enumerate() {
                    if i > 0 {
                        w.write_all(b", ")?;
                    }
                    write!(w, "{v}")?;
                }
                writeln!(w, " }}")?;
            }
            CHANCE => {
                chance_sets += 1;
                write!(w, "c \"\" {chance_sets} \"\" {{")?;
                for (a, p) in tree.chance_probs(node).iter().enumerate() {
                    write!(w, " {} {p}", label(&chance_label(tree, node, a)))?;
                }
                writeln!(w, " }} 0")?;
            }
            _ => {
                let line = tree.infoset(node).and_then(|set| infosets.get(set.index()));
                let Some(line) = line else {
                    return Err(io::Error::other("a decision node without an information set"));
                };
                writeln!(w, "p \"\" {line}")?;
            }
        }
    }
    w.flush()
}

/// `s` as a quoted Gambit label: cleaned (see [`clean`]) and quoted.
pub fn label(s: &str) -> String {
    quote(&clean(s))
}

/// `s` as Gambit 16.7 accepts a label: printable ASCII with single spaces
/// and no space at either end; white space becomes one space, any other
/// character `?`.
pub fn clean(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_whitespace() {
            if !out.is_empty() && !out.ends_with(' ') {
                out.push(' ');
            }
        } else if c.is_ascii_graphic() {
            out.push(c);
        } else {
            out.push('?');
        }
    }
    if out.ends_with(' ') {
        out.pop();
    }
    out
}

/// `name`, or `name_2`, `name_3`, ... (`name_1` if `name` is reserved),
/// whichever is not in `used` yet; records the result in `used`.
fn unique(name: String, used: &mut HashSet<String>) -> String {
    let mut candidate = name.clone();
    let mut n = if name == CHANCE_PLAYER { 1 } else { 2 };
    while used.contains(&candidate) {
        candidate = format!("{name}_{n}");
        n += 1;
    }
    used.insert(candidate.clone());
    candidate
}

/// `s` in double quotes as Gambit's lexer reads it: `"` escaped as `\"`, a
/// backslash kept unless it comes right before a quote, another backslash or
/// the end (which Gambit cannot read back), where it is written as `/`.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' if matches!(chars.peek(), None | Some('"' | '\\')) => out.push('/'),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::test_game::{build_labelled, GuessGame};

    /// The tokens of an .efg file as Gambit 16's lexer reads them: quoted
    /// strings (marked by a leading `"` here) and bare words. A backslash
    /// turns a following `"` into a quote and is otherwise kept, together
    /// with the character after it.
    fn gambit_tokens(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            if c.is_whitespace() {
                continue;
            }
            let mut s = String::from(c);
            if c == '"' {
                let mut last_slash = false;
                for a in chars.by_ref() {
                    if a == '"' && !last_slash {
                        break;
                    }
                    if last_slash && a == '"' {
                        s.push('"');
                    } else if last_slash {
                        s.push('\\');
                        s.push(a);
                    } else if a != '\\' {
                        s.push(a);
                    }
                    last_slash = a == '\\';
                }
            } else {
                while let Some(&c) = chars.peek() {
                    if c.is_whitespace() {
                        break;
                    }
                    s.push(c);
                    chars.next();
                }
            }
            out.push(s);
        }
        out
    }

    fn read_back(label: &str) -> String {
        let toks = gambit_tokens(&quote(label));
        assert_eq!(toks.len(), 1, "{label:?} quoted as {} reads as {toks:?}", quote(label));
        toks[0][1..].to_string()
    }

    #[test]
    fn quotes_as_gambit_reads() {
        assert_eq!(quote("plain"), r#""plain""#);
        assert_eq!(quote(""), r#""""#);
        assert_eq!(quote(r#"say "hi""#), r#""say \"hi\"""#);
        assert_eq!(quote(r"C:\games\kuhn.gala"), r#""C:\games\kuhn.gala""#);
        assert_eq!(quote(r"end\"), r#""end/""#);
        assert_eq!(quote(r#"a\"b"#), r#""a/\"b""#);
        assert_eq!(quote(r"a\\b"), r#""a/\b""#);
        // Exact round trips, and `/` for the backslashes Gambit cannot read.
        for s in ["plain", "", r#"say "hi""#, r"C:\games\kuhn.gala", "[1, 2] (x)", "\"\"", r"\x"] {
            assert_eq!(read_back(s), s);
        }
        assert_eq!(read_back(r"end\"), "end/");
        assert_eq!(read_back(r#"a\"b"#), r#"a/"b"#);
        assert_eq!(read_back(r"a\\b"), r"a/\b");
        assert_eq!(read_back(r"\\\"), "///");
    }

    #[test]
    fn cleans_labels_as_gambit_requires() {
        assert_eq!(clean("Pass"), "Pass");
        assert_eq!(clean("  two\t\nwords  here "), "two words here");
        assert_eq!(clean("A\u{2660} \u{7}"), "A? ?");
        assert_eq!(clean("   "), "");
        assert_eq!(label("a  \"b\" "), r#""a \"b\"""#);
    }

    #[test]
    fn makes_names_unique_and_avoids_chance() {
        let mut used = HashSet::from([CHANCE_PLAYER.to_string()]);
        let names: Vec<String> =
            ["x", "x", "Chance", "x_2", "x"].iter().map(|n| unique(n.to_string(), &mut used)).collect();
        assert_eq!(names, ["x", "x_2", "Chance_1", "x_2_2", "x_3"]);
    }

    #[test]
    fn writes_a_small_tree_that_gambit_reads_back() {
        let tree = build_labelled(&GuessGame);
        let mut buf = Vec::new();
        write_efg(&tree, "guess \"the\" card", "a test", &mut buf).expect("writes to memory");
        let text = String::from_utf8(buf).expect("utf-8");
        let expected = r#"EFG 2 R "guess \"the\" card" { "hider" "seeker" }
"a test"

c "" 1 "" { "\"low\"" 1/3 "high/" 2/3 } 0
p "" 1 1 "holds \"low\"" { "keep" "swap" } 0
p "" 2 1 "sees \ nothing" { "guess low" "guess high" } 0
t "" 1 "" { -1, 1 }
t "" 2 "" { 1, -1 }
p "" 2 1 "sees \ nothing" { "guess low" "guess high" } 0
t "" 3 "" { 1, -1 }
t "" 4 "" { -1, 1 }
p "" 1 2 "holds high/" { "keep" "swap" } 0
p "" 2 1 "sees \ nothing" { "guess low" "guess high" } 0
t "" 5 "" { 1, -1 }
t "" 6 "" { -1, 1 }
p "" 2 1 "sees \ nothing" { "guess low" "guess high" } 0
t "" 7 "" { -1, 1 }
t "" 8 "" { 1, -1 }
"#;
        assert_eq!(text, expected);

        let toks = gambit_tokens(&text);
        assert_eq!(toks[3], "\"guess \"the\" card");
        assert!(toks.contains(&"\"\"low\"".to_string()));
        assert!(toks.contains(&"\"sees \\ nothing".to_string()));
        let node_lines = text.lines().filter(|l| l.starts_with(['c', 'p', 't'])).count();
        assert_eq!(node_lines, tree.n_nodes());
    }

    #[test]
    fn falls_back_to_action_numbers_without_labels() {
        let (tree, _, _) = galac_runtime::tree::build(&GuessGame, &galac_runtime::tree::BuildOptions::default())
            .expect("the test game builds");
        let mut buf = Vec::new();
        write_efg(&tree, "t", "", &mut buf).expect("writes to memory");
        let text = String::from_utf8(buf).expect("utf-8");
        assert!(text.contains("c \"\" 1 \"\" { \"0\" 1/3 \"1\" 2/3 } 0"), "{text}");
        assert!(text.contains("p \"\" 1 1 \"\" { \"0\" \"1\" } 0"), "{text}");
    }
}
