//! Invalid programs under `tests/ui/{parse,typeck}/`: each must be rejected,
//! its first line `// expect: TEXT` must occur in the diagnostics, and the
//! full diagnostics are snapshotted.

use crate::{check_file, repo_root};

#[test]
fn invalid_programs_are_rejected_with_the_expected_message() {
    let root = repo_root().join("tests");
    let mut failures: Vec<String> = Vec::new();
    let mut count = 0;
    insta::glob!("../ui", "**/*.gala", |path| {
        count += 1;
        let bytes = std::fs::read(path).expect("read test case");
        let rel = path.strip_prefix(&root).unwrap_or(path).display().to_string();
        let text = String::from_utf8_lossy(&bytes);
        let expect = text.lines().next().and_then(|l| l.strip_prefix("// expect:")).map(|s| s.trim().to_string());
        let (summary, diagnostics) = check_file(&rel, &bytes);
        match (&summary, &expect) {
            (Some(_), _) => failures.push(format!("{rel}: accepted, but it is invalid")),
            (None, None) => failures.push(format!("{rel}: first line must be `// expect: <message>`")),
            (None, Some(want)) if !diagnostics.contains(want.as_str()) => {
                failures.push(format!("{rel}: expected `{want}` in:\n{diagnostics}"))
            }
            _ => {}
        }
        insta::assert_snapshot!(format!("----- SOURCE\n{text}\n----- DIAGNOSTICS\n{diagnostics}"));
    });
    assert!(count >= 30, "expected at least 30 invalid programs, found {count}");
    assert!(failures.is_empty(), "{} case(s) failed:\n{}", failures.len(), failures.join("\n"));
}
