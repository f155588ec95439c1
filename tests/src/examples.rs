//! Every shipped example checks, and says what it is.

use crate::{check_file, repo_root};

/// (file, players) of every example the project ships.
const EXAMPLES: &[(&str, &[&str])] = &[
    ("kuhn.gala", &[]),
    ("leduc.gala", &[]),
    ("poker.gala", &["dealer", "gambler"]),
    ("inspection.gala", &[]),
    ("blind_tictactoe.gala", &[]),
    ("nim222.gala", &[]),
];

#[test]
fn every_example_checks() {
    let dir = repo_root().join("examples");
    let mut failures = Vec::new();
    for (file, players) in EXAMPLES {
        let path = dir.join(file);
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) => {
                failures.push(format!("{file}: {e}"));
                continue;
            }
        };
        let (summary, diagnostics) = check_file(&format!("examples/{file}"), &bytes);
        match summary {
            Some(s) => {
                for p in *players {
                    if !s.contains(p) {
                        failures.push(format!("{file}: summary `{s}` does not name player {p}"));
                    }
                }
                if !diagnostics.is_empty() {
                    failures.push(format!("{file}: warnings:\n{diagnostics}"));
                }
            }
            None => failures.push(format!("{file}:\n{diagnostics}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_example_file_is_listed() {
    let dir = repo_root().join("examples");
    let mut shipped: Vec<String> = std::fs::read_dir(&dir)
        .expect("examples/ exists")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".gala"))
        .collect();
    shipped.sort();
    let mut listed: Vec<String> = EXAMPLES.iter().map(|(f, _)| f.to_string()).collect();
    listed.sort();
    assert_eq!(shipped, listed, "tests/src/examples.rs must list every example");
}
