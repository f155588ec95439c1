//! Compiles every example (and the codegen test games) with galac's code
//! generator into `OUT_DIR`, so that the tests include the generated games
//! as modules and compare them with the interpreter, without nested cargo.

use std::path::PathBuf;

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let root = manifest.parent().expect("tests/ is in the workspace").to_path_buf();
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR"));
    let games = [
        ("kuhn", root.join("examples/kuhn.gala")),
        ("leduc", root.join("examples/leduc.gala")),
        ("poker", root.join("examples/poker.gala")),
        ("inspection", root.join("examples/inspection.gala")),
        ("blind_tictactoe", root.join("examples/blind_tictactoe.gala")),
        ("nim222", root.join("examples/nim222.gala")),
        ("hostile_names", manifest.join("codegen/hostile_names.gala")),
        ("slot_sharing", manifest.join("codegen/slot_sharing.gala")),
        ("endless", manifest.join("codegen/endless.gala")),
        ("endless_calls", manifest.join("codegen/endless_calls.gala")),
        ("chooser_first", manifest.join("codegen/chooser_first.gala")),
        ("domains", manifest.join("codegen/domains.gala")),
        ("filter_steps", manifest.join("codegen/filter_steps.gala")),
        ("enum300", manifest.join("codegen/enum300.gala")),
        ("players40", manifest.join("codegen/players40.gala")),
    ];
    for (name, path) in games {
        println!("cargo:rerun-if-changed={}", path.display());
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let shown = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let interp = galac::driver::load_interp(&shown, &bytes, &[]).unwrap_or_else(|e| panic!("{e}"));
        let code = galac::codegen::emit_game(interp.ir(), interp.locator(), &shown).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(out.join(format!("{name}.rs")), code).expect("write generated game");
    }
}
