//! Code-base hygiene: every Rust source file says what it is for, and
//! hand-written files and functions stay short enough to read.

use crate::repo_root;

/// Where the hand-written Rust lives.
const SOURCE_DIRS: &[&str] = &[
    "runtime/src",
    "solvers/src",
    "app/src",
    "compiler/src",
    "compiler/tests",
    "lsp/src",
    "cli/src",
    "cli/tests",
    "tests/src",
    "tests/benches",
    "python/src",
];

#[test]
fn every_rust_file_starts_with_a_module_doc_comment() {
    let mut files = Vec::new();
    for dir in SOURCE_DIRS {
        rust_files(&repo_root().join(dir), &mut files);
    }
    let missing: Vec<String> = files
        .iter()
        .filter(|p| !std::fs::read_to_string(p).unwrap_or_default().trim_start().starts_with("//!"))
        .map(|p| p.display().to_string())
        .collect();
    assert!(missing.is_empty(), "these files lack a leading `//!` comment:\n{}", missing.join("\n"));
}

/// Hand-written files stay under about 600 lines, functions under about
/// 100 (a little slack over the round numbers). The tree builder's loop is
/// the exception: one function keeps the builder's state in registers across
/// its loop (split, that state would pass through memory at every node).
const MAX_FILE_LINES: usize = 600;
const MAX_FN_LINES: usize = 125;
const LONG_FNS_ALLOWED: &[&str] = &["runtime/src/tree/build.rs: explore"];

#[test]
fn files_and_functions_stay_short() {
    let mut files = Vec::new();
    for dir in SOURCE_DIRS {
        rust_files(&repo_root().join(dir), &mut files);
    }
    let mut long = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let rel = path.strip_prefix(repo_root()).unwrap_or(&path).display().to_string();
        let lines: Vec<&str> = text.lines().collect();
        if lines.len() > MAX_FILE_LINES {
            long.push(format!("{rel}: {} lines", lines.len()));
        }
        for (name, n) in function_lengths(&lines) {
            let key = format!("{rel}: {name}");
            if n > MAX_FN_LINES && !LONG_FNS_ALLOWED.contains(&key.as_str()) {
                long.push(format!("{key}: {n} lines"));
            }
        }
    }
    assert!(long.is_empty(), "split these:\n{}", long.join("\n"));
}

/// (name, lines from `fn` to its closing brace) of every function whose
/// closing brace sits at the indentation of its `fn` line.
fn function_lengths(lines: &[&str]) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let code = line.trim_start();
        let indent = &line[..line.len() - code.len()];
        let rest = ["pub(crate) fn ", "pub fn ", "fn ", "pub(crate) const fn ", "pub const fn "]
            .iter()
            .find_map(|p| code.strip_prefix(p));
        let Some(rest) = rest else { continue };
        if line.trim_end().ends_with(';') {
            continue;
        }
        let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        let close = format!("{indent}}}");
        if let Some(end) = lines[i + 1..].iter().position(|l| *l == close) {
            out.push((name, end + 2));
        }
    }
    out
}

/// Every `.rs` file under `dir`, recursively.
pub(crate) fn rust_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.filter_map(|e| e.ok()) {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}
