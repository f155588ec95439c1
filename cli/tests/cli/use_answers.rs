//! `explain`, `plot` and `solve --exact` end to end: what a person sees
//! (cards as cards, unreached sets marked, fractions) and SVG files that
//! parse, with the drawn bars, curves and nodes counted against the game;
//! a PNG that decodes.

use std::process::Command;

fn galac(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_galac")).args(args).env("LANG", "C").output().expect("run galac");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn example(name: &str) -> String {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples").join(name).to_string_lossy().into_owned()
}

fn temp(name: &str) -> String {
    std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("{}-{name}", std::process::id()))
        .to_string_lossy()
        .into_owned()
}

/// The SVG text parsed: panics unless it is well-formed XML with an `svg` root.
fn parse(svg: &str) -> roxmltree::Document<'_> {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("not XML: {e}\n{svg}"));
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    doc
}

fn count(doc: &roxmltree::Document, tag: &str) -> usize {
    doc.descendants().filter(|n| n.tag_name().name() == tag).count()
}

#[test]
fn exact_prints_kuhns_value_as_a_fraction() {
    let (code, out, err) = galac(&["solve", &example("kuhn.gala"), "--exact"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("exact value: first -1/18, second 1/18 (certified)"), "{out}");
    let (code, out, err) = galac(&["solve", &example("kuhn.gala"), "--exact", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(json["exact"]["value"]["first"], "-1/18");
    assert_eq!(json["exact"]["certified"], true);
    let (code, _, err) = galac(&["solve", &example("kuhn.gala"), "--exact", "--solver", "do"]);
    assert_eq!(code, 2);
    assert!(err.contains("--exact"), "{err}");
}

#[test]
fn explain_shows_cards_beliefs_and_unreached_sets() {
    let (code, out, err) = galac(&[
        "explain",
        &example("leduc.gala"),
        "--ranks",
        "JQK",
        "--player",
        "second",
        "--filter",
        "Ks*acted(Raise)",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("[private_card(Ks)]") && !out.contains("card(2, 0)"), "{out}");
    assert!(out.contains("== second") && !out.contains("== first"), "{out}");
    assert!(out.lines().filter(|l| l.starts_with("  second: ")).all(|l| l.contains("Ks")), "{out}");
    assert!(out.contains("beliefs: "), "{out}");
    // A profile where `first` always bets: `second` never sees a pass.
    let file = temp("always-bet.json");
    let strategy = r#"{"strategy": {
        "first: my_card(1)": {"Pass": 0, "Bet": 1}, "first: my_card(2)": {"Pass": 0, "Bet": 1},
        "first: my_card(3)": {"Pass": 0, "Bet": 1}}}"#;
    std::fs::write(&file, strategy).expect("write");
    let (code, _, err) = galac(&["explain", &example("kuhn.gala"), "--strategy", &file]);
    assert_eq!(code, 1, "a partial file is refused: {err}");
    // Complete it from a solved profile.
    let (code, _, err) = galac(&["solve", &example("kuhn.gala"), "--out", &file]);
    assert_eq!(code, 0, "{err}");
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).expect("read")).expect("json");
    for card in 1..=3 {
        json["strategy"][format!("first: my_card({card})")] = serde_json::json!({"Pass": 0.0, "Bet": 1.0});
    }
    std::fs::write(&file, json.to_string()).expect("write");
    let (code, out, err) = galac(&["explain", &example("kuhn.gala"), "--strategy", &file, "--filter", "Pass"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("second: my_card(2), moved(Pass) (unreached: no play gets here, no beliefs)"), "{out}");
    assert!(
        out.contains("first: my_card(2), chose Pass, moved(Bet) (unreached: the player's own play avoids it"),
        "{out}"
    );
    let (code, out, err) = galac(&["explain", &example("kuhn.gala"), "--strategy", &file, "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).expect("json");
    let sets = json["sets"].as_array().expect("sets");
    assert_eq!(sets.len(), 12);
    for set in sets {
        let total: f64 =
            set["beliefs"].as_array().expect("beliefs").iter().map(|b| b["probability"].as_f64().unwrap_or(0.0)).sum();
        assert!(set["beliefs"].as_array().is_some_and(|b| b.is_empty()) || (total - 1.0).abs() < 1e-12, "{set}");
    }
    let _ = std::fs::remove_file(&file);
}

/// Without the `png` feature (the default test build) galac refuses a PNG
/// as a compiled solver does: exit 1, why, nothing written.
#[cfg(not(feature = "png"))]
#[test]
fn a_png_plot_is_refused_without_the_png_feature() {
    let file = temp("refused.png");
    let (code, _, err) = galac(&["plot", &example("kuhn.gala"), "strategy", "-o", &file]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("SVG only") && err.contains("--features png"), "{err}");
    assert!(!std::path::Path::new(&file).exists());
}

/// With the `png` feature (`cargo test -p galac --features png`, which CI
/// runs).
#[cfg(feature = "png")]
#[test]
fn a_png_plot_is_the_svg_drawn_at_twice_its_size() {
    let (code, svg, err) = galac(&["plot", &example("kuhn.gala"), "strategy", "-o", "-"]);
    assert_eq!(code, 0, "{err}");
    let doc = parse(&svg);
    let size = |a: &str| doc.root_element().attribute(a).and_then(|v| v.parse::<f64>().ok()).expect("svg size");
    let file = temp("strategy.png");
    let (code, _, err) = galac(&["plot", &example("kuhn.gala"), "strategy", "-o", &file]);
    assert_eq!(code, 0, "{err}");
    let bytes = std::fs::read(&file).expect("written");
    let mut reader = png::Decoder::new(std::io::Cursor::new(&bytes)).read_info().expect("a PNG");
    let mut pixels = vec![0; reader.output_buffer_size().expect("a size")];
    let info = reader.next_frame(&mut pixels).expect("decodes");
    // Twice the SVG's size, its fractions of a pixel rounded up before doubling.
    assert_eq!((info.width as f64, info.height as f64), (2.0 * size("width").ceil(), 2.0 * size("height").ceil()));
    assert_eq!(info.color_type, png::ColorType::Rgba);
    // The bars are drawn in the first series' colour (#0072B2), the text in black.
    let rgba: Vec<&[u8]> = pixels[..info.buffer_size()].chunks(4).collect();
    assert!(rgba.iter().filter(|p| p[..3] == [0x00, 0x72, 0xB2]).count() > 10_000);
    assert!(rgba.iter().filter(|p| p[..3] == [0, 0, 0] && p[3] == 255).count() > 100, "no text drawn");
    let _ = std::fs::remove_file(&file);
}

#[test]
fn every_plot_is_an_svg_of_the_game() {
    // Strategy: one bar segment per action of each of `first`'s three first sets.
    let (code, svg, err) = galac(&["plot", &example("kuhn.gala"), "strategy", "-o", "-"]);
    assert_eq!(code, 0, "{err}");
    let doc = parse(&svg);
    let bars: Vec<f64> = doc
        .descendants()
        .filter(|n| n.tag_name().name() == "rect")
        .filter_map(|n| {
            n.children().find(|c| c.tag_name().name() == "title").and_then(|t| t.text()).map(str::to_string)
        })
        .filter(|t| t.starts_with("first: my_card("))
        .filter_map(|t| t.rsplit(' ').next().and_then(|p| p.parse::<f64>().ok()))
        .collect();
    assert_eq!(bars.len(), 6, "{svg}");
    assert!((bars.iter().sum::<f64>() - 3.0).abs() < 1e-3, "{bars:?}");
    // Curves: one polyline per file.
    let (a, b) = (temp("cfr.csv"), temp("cfrplus.csv"));
    for (solver, file) in [("cfr", &a), ("cfr+", &b)] {
        let (code, _, err) =
            galac(&["solve", &example("kuhn.gala"), "--solver", solver, "--iterations", "100", "--curve", file]);
        assert_eq!(code, 0, "{err}");
    }
    let out = temp("curve.svg");
    let (code, _, err) = galac(&["plot", &example("kuhn.gala"), "curve", "--curve", &a, "--curve", &b, "-o", &out]);
    assert_eq!(code, 0, "{err}");
    let svg = std::fs::read_to_string(&out).expect("written");
    assert_eq!(count(&parse(&svg), "polyline"), 2);
    // The curve chart reads only its files: no .gala file needed; the
    // other charts say they need one.
    let bare = temp("curve_bare.svg");
    let (code, _, err) = galac(&["plot", "curve", "--curve", &a, "--curve", &b, "-o", &bare]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(count(&parse(&std::fs::read_to_string(&bare).expect("written")), "polyline"), 2);
    let (code, _, err) = galac(&["plot", "tree", "-o", &temp("never.svg")]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("needs the game"), "{err}");
    // Tree: a circle per chance and decision node (58 nodes, 30 leaves), a
    // line per edge, and a dashed line joining the two nodes of each of the
    // 12 information sets.
    let (code, svg, err) = galac(&["plot", &example("kuhn.gala"), "tree", "-o", "-"]);
    assert_eq!(code, 0, "{err}");
    let doc = parse(&svg);
    assert_eq!(count(&doc, "circle"), 28);
    assert_eq!(count(&doc, "line"), 57 + 12);
    assert_eq!(svg.matches("stroke-dasharray").count(), 12);
    let (code, _, err) = galac(&["plot", &example("leduc.gala"), "tree", "-o", "-"]);
    assert_eq!(code, 1);
    assert!(err.contains("--max-drawn"), "{err}");
    for f in [a, b, out] {
        let _ = std::fs::remove_file(f);
    }
}

/// The cut-down river spot (a few hands each, so the LP solves it at once)
/// as players read it: `solve` labels its sets with cards (`oop: hand([Ah,
/// As])`) and gives each player's first decision as a grid in text and
/// JSON; `explain` gives the grid of the node `--filter` picks, and the
/// sets of a hand written as players write it (`AsAh`); `plot
/// hands` draws one cell per hand class, each cell's bars summing to its
/// width.
#[test]
fn holdem_answers_read_hand_by_hand_and_as_the_grid() {
    let river = example("holdem_river.gala");
    let spot = ["--param", "oop_range=AA,KQs,76", "--param", "ip_range=JJ,A5s"];
    let with = |args: &[&str]| -> Vec<String> { args.iter().chain(&spot).map(|s| s.to_string()).collect() };
    let run = |args: Vec<String>| galac(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let (code, out, err) = run(with(&["solve", &river]));
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("card("), "{out}");
    assert!(out.contains("  oop: hand([Ah, As]): Check "), "{out}");
    assert!(out.contains("hands of oop at start (21 hands, reach 1.0000"), "{out}");
    assert!(out.contains("hands of ip at Check ("), "{out}");
    let (code, out, err) = run(with(&["solve", &river, "--format", "json"]));
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).expect("json");
    let oop = &json["hands"][0];
    assert_eq!((oop["player"].as_str(), oop["line"].as_str()), (Some("oop"), Some("start")));
    let cells: Vec<(&str, u64)> = oop["cells"]
        .as_array()
        .expect("cells")
        .iter()
        .map(|c| (c["cell"].as_str().unwrap_or(""), c["combos"].as_u64().unwrap_or(0)))
        .collect();
    // The board Td9d6hQc2s leaves AA 6, KQs 3 (not KcQc), 76s 3 and 76o 9 (no 6h).
    assert_eq!(cells, [("AA", 6), ("KQs", 3), ("76s", 3), ("76o", 9)]);
    assert_eq!(oop["hands"].as_array().map(Vec::len), Some(21));
    let value = json["value"]["oop"].as_f64().expect("value");
    assert!((oop["value"].as_f64().expect("grid value") - value).abs() < 1e-6, "{oop}");

    let (code, out, err) = run(with(&["explain", &river, "--player", "ip", "--filter", "moved(Bet(100))"]));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("hands of ip at Bet(100) ("), "{out}");
    assert!(!out.contains("hands of oop") && !out.contains("card("), "{out}");
    // A hand as players write it, in either order, picks the sets of that
    // hand (labels list it in the deal's order, `[Ah, As]`), and no other.
    for hand in ["AsAh", "AhAs", "As Ah"] {
        let (code, out, err) = run(with(&["explain", &river, "--player", "oop", "--filter", hand, "--ascii"]));
        assert_eq!(code, 0, "{err}");
        let sets: Vec<&str> = out.lines().filter(|l| l.starts_with('[')).collect();
        assert!(!sets.is_empty() && sets.iter().all(|l| l.contains("hand([Ah, As])")), "{hand}: {out}");
    }

    let (code, svg, err) = run(with(&["plot", &river, "hands", "-o", "-"]));
    assert_eq!(code, 0, "{err}");
    let doc = parse(&svg);
    let mut widths: std::collections::BTreeMap<String, f64> = Default::default();
    for n in doc.descendants().filter(|n| n.tag_name().name() == "rect") {
        let title = n.children().find(|c| c.tag_name().name() == "title").and_then(|t| t.text()).unwrap_or("");
        let Some((cell, rest)) = title.split_once(": ") else { continue };
        if rest != "no hand" && cell.len() <= 3 {
            *widths.entry(cell.to_string()).or_insert(0.0) +=
                n.attribute("width").and_then(|w| w.parse().ok()).unwrap_or(0.0);
        }
    }
    assert_eq!(widths.keys().collect::<Vec<_>>(), ["76o", "76s", "AA", "KQs"], "{svg}");
    assert!(widths.values().all(|w| (w - 52.0).abs() < 0.1), "{widths:?}");
    let (code, _, err) = galac(&["plot", &example("kuhn.gala"), "hands", "-o", "-"]);
    assert_eq!(code, 1);
    assert!(err.contains("hands of two cards"), "{err}");
}
