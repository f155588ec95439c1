//! Every shipped example checks, and says what it is.

use crate::{check_file, repo_root};

/// Every `.gala` file in `examples/` checks without a warning, and its
/// summary names the game as its file does.
#[test]
fn every_example_checks() {
    let dir = repo_root().join("examples");
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(&dir)
        .expect("examples/ exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "gala"))
        .collect();
    files.sort();
    assert!(files.len() >= 6, "examples/ holds {} games", files.len());
    let mut failures = Vec::new();
    for path in files {
        let file = path.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
        let bytes = std::fs::read(&path).expect("readable example");
        let (summary, diagnostics) = check_file(&format!("examples/{file}"), &bytes);
        match summary {
            Some(s) if s.contains(": ok; ") && diagnostics.is_empty() => {}
            Some(s) => failures.push(format!("{file}: {s}; warnings:\n{diagnostics}")),
            None => failures.push(format!("{file}:\n{diagnostics}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
