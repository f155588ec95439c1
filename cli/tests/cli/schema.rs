//! Every `--format json` answer of every command starts with its `schema`
//! key, as the README promises: one run of each command (and of `solve`
//! with each solver) checked on the raw text galac writes.

use crate::common::{example, galac, test_game};

/// Whether a JSON answer starts with its `schema` key (an object's first
/// key, as written, not merely present somewhere).
fn starts_with_schema(line: &str) -> bool {
    line.starts_with(r#"{"schema":"galac."#)
}

#[test]
fn every_json_answer_starts_with_its_schema() {
    let kuhn = example("kuhn.gala");
    let nim3 = example("nim3.gala");
    let nim222 = example("nim222.gala");
    let kuhn3 = test_game("kuhn3.gala");
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("schema-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let efg = dir.join("kuhn.efg").display().to_string();
    let profile = dir.join("kuhn.json").display().to_string();
    assert_eq!(galac(&["solve", &kuhn, "--out", &profile], "").0, 0, "a strategy file to read back");
    // (name, arguments before `--format json`, standard input)
    let cases: Vec<(&str, Vec<&str>, &str)> = vec![
        ("check", vec!["check", &kuhn], ""),
        ("tree", vec!["tree", &kuhn], ""),
        ("ir", vec!["ir", &kuhn], ""),
        ("solve", vec!["solve", &kuhn], ""),
        ("solve --solver lp", vec!["solve", &kuhn, "--solver", "lp"], ""),
        ("solve --solver lemke", vec!["solve", &kuhn, "--solver", "lemke"], ""),
        ("solve --solver maxn", vec!["solve", &nim222, "--solver", "maxn"], ""),
        ("solve --solver cfr", vec!["solve", &kuhn, "--solver", "cfr", "--iterations", "20"], ""),
        ("solve --solver cfr+", vec!["solve", &kuhn, "--solver", "cfr+", "--iterations", "20"], ""),
        ("solve --solver dcfr", vec!["solve", &kuhn, "--solver", "dcfr", "--iterations", "20"], ""),
        ("solve --solver lcfr", vec!["solve", &kuhn, "--solver", "lcfr", "--iterations", "20"], ""),
        ("solve --solver pcfr+", vec!["solve", &kuhn, "--solver", "pcfr+", "--iterations", "20"], ""),
        ("solve --solver do", vec!["solve", &kuhn, "--solver", "do"], ""),
        ("solve --solver do --no-tree", vec!["solve", &kuhn, "--solver", "do", "--no-tree"], ""),
        ("solve (three players: cfr+)", vec!["solve", &kuhn3, "--iterations", "20"], ""),
        ("solve --exact", vec!["solve", &kuhn, "--exact"], ""),
        ("solve --strategy", vec!["solve", &kuhn, "--strategy", &profile], ""),
        ("solve --transpositions", vec!["solve", &nim3, "--transpositions"], ""),
        ("solve --depth", vec!["solve", &nim3, "--depth", "2"], ""),
        ("explain", vec!["explain", &kuhn], ""),
        ("explain --strategy", vec!["explain", &kuhn, "--strategy", &profile], ""),
        ("export", vec!["export", &kuhn, "--efg", &efg], ""),
        ("simulate", vec!["simulate", &kuhn, "-n", "100", "--seed", "1"], ""),
        ("play", vec!["play", &kuhn, "--against", "uniform", "--seed", "7", "--games", "2"], "2\n2\n"),
    ];
    let mut missing = Vec::new();
    for (name, args, input) in &cases {
        let args = [&args[..], &["--format", "json"]].concat();
        let (code, out, err) = galac(&args, input);
        assert_eq!(code, 0, "{name}: galac {args:?}: {err}");
        // One answer, or one line per game (`play`), each a JSON object.
        let lines: Vec<&str> = out.lines().collect();
        assert!(!lines.is_empty(), "{name}: no answer");
        for line in &lines {
            let json: serde_json::Value = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("{name}: not one JSON object per line ({e}): {out}"));
            assert!(json.is_object(), "{name}: {line}");
        }
        if !lines.iter().all(|l| starts_with_schema(l)) {
            missing.push(*name);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(missing.is_empty(), "JSON answers without a leading `schema` key: {missing:?}");
}
