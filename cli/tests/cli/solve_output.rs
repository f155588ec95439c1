//! Snapshots of `galac solve`'s whole answer, text and JSON, for each way a
//! solver is chosen or named: what a user reads, pinned before the solvers
//! are rewired. Timings are the only thing redacted (see [`redact_text`]
//! and [`redact_json`]); every other figure is as galac prints it.

use crate::common::{example, galac, test_game};

/// The text answer with its timings replaced by `[redacted]`: the `time:`
/// line after its label.
pub fn redact_text(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        match line.split_once("time: ") {
            Some((head, _)) if head.trim().is_empty() => out.push_str(&format!("{head}time: [redacted]")),
            _ => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

/// The JSON answer, pretty-printed (serde_json keeps the keys in galac's
/// order, and prints each number as galac did: the shortest text that reads
/// back as the same double), with every timing replaced by
/// `"[seconds]"`: the values under a key `seconds` or ending in `_seconds`.
/// Without `--check-every`, CFR checks its exploitability as often as costs
/// a tenth of the run, so which iterations the curve holds depends on the
/// clock: then every point but the last (the final iteration, always there)
/// is replaced by one `"[points placed by the clock]"`.
pub fn redact_json(text: &str, checks_by_clock: bool) -> String {
    fn walk(v: &mut serde_json::Value, timing: bool) {
        match v {
            serde_json::Value::Object(map) => {
                for (k, x) in map.iter_mut() {
                    walk(x, timing || k == "seconds" || k.ends_with("_seconds"));
                }
            }
            serde_json::Value::Array(items) => items.iter_mut().for_each(|x| walk(x, timing)),
            serde_json::Value::Number(_) if timing => *v = serde_json::Value::from("[seconds]"),
            _ => {}
        }
    }
    let mut v: serde_json::Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"));
    walk(&mut v, false);
    if let Some(serde_json::Value::Array(points)) = v.get_mut("curve").filter(|_| checks_by_clock) {
        let last = points.pop();
        *points = std::iter::once("[points placed by the clock]".into()).chain(last).collect();
    }
    serde_json::to_string_pretty(&v).expect("JSON prints") + "\n"
}

/// The command as the snapshot's header shows it: the game by its file name.
fn shown(args: &[&str]) -> String {
    fn file_name(a: &str) -> &str {
        if a.ends_with(".gala") {
            a.rsplit('/').next().unwrap_or(a)
        } else {
            a
        }
    }
    format!("galac {}", args.iter().map(|a| file_name(a)).collect::<Vec<_>>().join(" "))
}

/// Runs `galac solve GAME ARGS` as text and as JSON and snapshots both
/// answers (`NAME` and `NAME.json`).
fn pin(name: &str, game: &str, args: &[&str]) {
    let text = [&["solve", game][..], args].concat();
    let (code, out, err) = galac(&text, "");
    assert_eq!(code, 0, "galac {text:?}: {err}");
    assert!(err.is_empty(), "galac {text:?} wrote to standard error: {err}");
    insta::assert_snapshot!(name, redact_text(&out), &shown(&text));
    let json = [&text[..], &["--format", "json"]].concat();
    let (code, out, err) = galac(&json, "");
    assert_eq!(code, 0, "galac {json:?}: {err}");
    assert!(err.is_empty(), "galac {json:?} wrote to standard error: {err}");
    insta::assert_snapshot!(format!("{name}.json"), redact_json(&out, !args.contains(&"--check-every")), &shown(&json));
}

#[test]
fn kuhn_with_the_default_solver() {
    pin("kuhn_default_lp", &example("kuhn.gala"), &[]);
}

#[test]
fn kuhn_with_cfr_plus_for_100_iterations() {
    pin("kuhn_cfr_plus_100", &example("kuhn.gala"), &["--solver", "cfr+", "--iterations", "100"]);
}

/// The same run with its checks every 25 iterations: the whole curve.
#[test]
fn kuhn_with_cfr_plus_for_100_iterations_checked_every_25() {
    pin(
        "kuhn_cfr_plus_100_every_25",
        &example("kuhn.gala"),
        &["--solver", "cfr+", "--iterations", "100", "--check-every", "25"],
    );
}

/// Three players, imperfect information: CFR+ by default, with its default
/// number of iterations.
#[test]
fn three_player_kuhn_with_the_default_solver() {
    pin("kuhn3_default", &test_game("kuhn3.gala"), &[]);
}

/// Three players, perfect information: max^n by default.
#[test]
fn nim_with_the_default_solver() {
    pin("nim222_default_maxn", &example("nim222.gala"), &[]);
}

/// Two players, general-sum: Lemke by default.
#[test]
fn beer_quiche_with_the_default_solver() {
    pin("beer_quiche_default_lemke", &example("beer_quiche.gala"), &[]);
}

#[test]
fn kuhn_with_the_double_oracle() {
    pin("kuhn_do", &example("kuhn.gala"), &["--solver", "do"]);
}

#[test]
fn kuhn_with_the_double_oracle_without_the_tree() {
    pin("kuhn_do_no_tree", &example("kuhn.gala"), &["--solver", "do", "--no-tree"]);
}
