//! The seeded double oracle as `solve` runs it (`galac_app`): on a compiled
//! game with a specialised copy, whose choice types the copy numbers apart
//! from the general game's, the whole run (both trees, the oracle's walks)
//! must use one game, and gives the interpreter's answer.

use std::path::Path;

use clap::Parser;
use galac_runtime::game::Game;

use crate::compiled::choice_arrays;
use crate::games::{instantiate, load_interp};

/// `solve`'s flags, parsed as the command line parses them.
#[derive(Parser)]
struct Solve {
    #[command(flatten)]
    args: galac_app::solve::SolveArgs,
}

/// The profile `solve --solver do --warm-start-cfr 20` writes with `--out`
/// for `game` (with `make`'s copies and two threads: the labels built by
/// a second build while the oracle runs).
fn answer<G: Game>(game: &G, make: &(dyn Fn() -> Option<G> + Sync), out: &Path) -> serde_json::Value {
    let out_arg = out.to_str().expect("a UTF-8 path");
    let argv = ["solve", "--solver", "do", "--warm-start-cfr", "20", "--threads", "2", "-q", "--out", out_arg];
    let args = Solve::parse_from(argv).args;
    assert_eq!(galac_app::solve::run(game, &args, Some(make)), 0, "{argv:?}");
    let text = std::fs::read_to_string(out).expect("the answer");
    let _ = std::fs::remove_file(out);
    serde_json::from_str(&text).expect("JSON")
}

#[test]
fn a_seeded_oracle_on_a_specialised_copy_answers_as_the_interpreter() {
    let file = "tests/codegen/choice_arrays.gala";
    let compiled = instantiate(&choice_arrays::Family, &[]).expect("compiled");
    assert!(compiled.specialised().is_some(), "the default params have a specialised copy");
    let make_compiled = || instantiate(&choice_arrays::Family, &[]).ok();
    let interp = load_interp(file, &[]).expect("interpreted");
    let make_interp = || load_interp(file, &[]).ok();
    let dir = std::env::temp_dir();
    let id = std::process::id();
    let from_compiled = answer(&compiled, &make_compiled, &dir.join(format!("seeded-compiled-{id}.json")));
    let from_interp = answer(&interp, &make_interp, &dir.join(format!("seeded-interp-{id}.json")));
    // The answer and the oracle's run, iteration by iteration (not the
    // times, nor the program's digest, which tells the two apart).
    let run = |json: &serde_json::Value| {
        let iterations = json["double_oracle"]["iterations"].as_array().expect("iterations");
        let sizes: Vec<_> = iterations.iter().map(|it| (it["sequences"].clone(), it["added"].clone())).collect();
        (json["strategy"].clone(), json["value"].clone(), json["exploitability"].clone(), sizes)
    };
    assert_eq!(run(&from_compiled), run(&from_interp));
    assert_eq!(from_compiled["exploitability"].as_f64(), Some(0.0), "{from_compiled}");
}
