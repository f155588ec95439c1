//! Compiles every example (and the codegen test games) with galac's code
//! generator into `OUT_DIR`, so that the tests include the generated games
//! as modules and compare them with the interpreter, without nested cargo.
//! Also generates the random programs of the differential test
//! (`src/differential.rs`): `GALAC_DIFF_PROGRAMS` of them (default
//! [`DEFAULT_PROGRAMS`]) from seed `GALAC_DIFF_SEED` (default 0) on, with
//! the generator's feature switches as `GALAC_DIFF_FEATURES` says (e.g.
//! `-many_players`; all on by default). `GALAC_DIFF_FILES=a.gala:b.gala`
//! (paths relative to the workspace root) runs hand-written programs
//! instead, e.g. the known bugs in `tests/differential_known/`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

#[path = "progen/mod.rs"]
#[allow(dead_code)]
mod progen;

/// Programs of the differential test when `GALAC_DIFF_PROGRAMS` is unset:
/// compiling them takes most of the test's time (about 0.3 s of CPU each,
/// so about a minute on a shared 2-core machine for 150).
const DEFAULT_PROGRAMS: u64 = 150;

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
    ];
    for (name, path) in games {
        println!("cargo:rerun-if-changed={}", path.display());
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let shown = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let interp = galac::driver::load_interp(&shown, &bytes, &[]).unwrap_or_else(|e| panic!("{e}"));
        let code = galac::codegen::emit_game(interp.ir(), interp.locator(), &shown).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(out.join(format!("{name}.rs")), code).expect("write generated game");
    }
    // Deep expressions recurse deeply in the code generator: a big stack,
    // like galac's own compiler thread.
    let big = std::thread::Builder::new().stack_size(256 << 20);
    let worker = big.spawn(move || differential_programs(&manifest, &out)).expect("spawn the generator thread");
    worker.join().expect("generating the differential programs failed");
}

fn env_u64(name: &str, default: u64) -> u64 {
    println!("cargo:rerun-if-env-changed={name}");
    match std::env::var(name) {
        Ok(v) => v.trim().parse().unwrap_or_else(|_| panic!("{name}={v} is not a number")),
        Err(_) => default,
    }
}

/// Writes each random program (`differential/g<seed>.gala`), its compiled
/// Rust (`.rs`), and `differential.rs`, the listing the test includes. A
/// program the checker rejects is listed with its diagnostics, for the test
/// to report (a generator bug).
fn differential_programs(manifest: &Path, out: &Path) {
    println!("cargo:rerun-if-changed={}", manifest.join("progen").display());
    let n = env_u64("GALAC_DIFF_PROGRAMS", DEFAULT_PROGRAMS);
    let first = env_u64("GALAC_DIFF_SEED", 0);
    println!("cargo:rerun-if-env-changed=GALAC_DIFF_FEATURES");
    let spec = std::env::var("GALAC_DIFF_FEATURES").unwrap_or_default();
    let features = progen::Features::parse(&spec).unwrap_or_else(|e| panic!("GALAC_DIFF_FEATURES: {e}"));
    let dir = out.join("differential");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create differential/");
    let (mut mods, mut list) = (String::new(), String::new());
    // Hand-written programs instead (e.g. minimised divergences), when given.
    println!("cargo:rerun-if-env-changed=GALAC_DIFF_FILES");
    let files: Vec<String> = std::env::var("GALAC_DIFF_FILES")
        .map(|v| v.split(':').filter(|s| !s.is_empty()).map(str::to_string).collect())
        .unwrap_or_default();
    let seeds: Vec<u64> =
        if files.is_empty() { (first..first + n).collect() } else { (0..files.len() as u64).collect() };
    for seed in seeds {
        let g = match files.get(seed as usize) {
            Some(f) => {
                // Relative to the workspace root.
                let f = manifest.parent().unwrap_or(manifest).join(f);
                println!("cargo:rerun-if-changed={}", f.display());
                let source = std::fs::read_to_string(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
                progen::Generated { source, params: Vec::new() }
            }
            None => progen::program_with(seed, features),
        };
        let shown = format!("g{seed}.gala");
        std::fs::write(dir.join(&shown), &g.source).expect("write program");
        let source = format!("include_str!(concat!(env!(\"OUT_DIR\"), \"/differential/{shown}\"))");
        let emitted = galac::driver::load_interp(&shown, g.source.as_bytes(), &[])
            .and_then(|i| galac::codegen::emit_game(i.ir(), i.locator(), &shown));
        let (compiled, error) = match emitted {
            Ok(code) => {
                std::fs::write(dir.join(format!("g{seed}.rs")), code).expect("write generated game");
                let _ = writeln!(
                    mods,
                    // Random programs make generated code with any warning
                    // (e.g. `i64::MAX >= x` is a useless comparison).
                    "#[allow(warnings, clippy::all)]\n\
                     mod g{seed} {{ include!(concat!(env!(\"OUT_DIR\"), \"/differential/g{seed}.rs\")); }}"
                );
                (format!("Some(|p| run(&g{seed}::Family, p))"), "None".to_string())
            }
            Err(e) => ("None".to_string(), format!("Some({e:?})")),
        };
        let _ = writeln!(
            list,
            "    Program {{ seed: {seed}, params: &{:?}, source: {source}, compiled: {compiled}, error: {error} }},",
            g.params
        );
    }
    let listing = format!(
        "{mods}\n/// `GALAC_DIFF_FEATURES` of this build.\npub const FEATURES: &str = {spec:?};\n\
         /// Whether the programs come from the generator (not `GALAC_DIFF_FILES`).\n\
         pub const GENERATED: bool = {};\n\
         /// The generated programs.\npub const PROGRAMS: &[Program] = &[\n{list}];\n",
        files.is_empty()
    );
    std::fs::write(out.join("differential.rs"), listing).expect("write differential.rs");
}
