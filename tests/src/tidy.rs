//! Code-base hygiene: every Rust source file says what it is for.

use crate::repo_root;

#[test]
fn every_rust_file_starts_with_a_module_doc_comment() {
    let mut missing = Vec::new();
    for dir in [
        "runtime/src",
        "solvers/src",
        "app/src",
        "compiler/src",
        "compiler/tests",
        "cli/src",
        "cli/tests",
        "tests/src",
        "tests/benches",
    ] {
        visit(&repo_root().join(dir), &mut missing);
    }
    assert!(missing.is_empty(), "these files lack a leading `//!` comment:\n{}", missing.join("\n"));
}

fn visit(dir: &std::path::Path, missing: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.filter_map(|e| e.ok()) {
        let path = entry.path();
        if path.is_dir() {
            visit(&path, missing);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            if !text.trim_start().starts_with("//!") {
                missing.push(path.display().to_string());
            }
        }
    }
}
