#![no_main]
//! Fuzz target: bytes read as a CFR+ checkpoint of Kuhn poker give an
//! error or a state that a run resumes from without a panic.

use std::sync::OnceLock;

use galac_runtime::tree::{build, BuildOptions, Tree};
use galac_solvers::cfr::state::{CfrState, Fingerprint};
use galac_solvers::cfr::{CfrConfig, CfrSolver, Variant};
use galac_solvers::solver::RunToEnd;
use libfuzzer_sys::fuzz_target;

fn kuhn() -> &'static Tree {
    static TREE: OnceLock<Tree> = OnceLock::new();
    TREE.get_or_init(|| {
        let source = include_bytes!("../../examples/kuhn.gala");
        let game = galac_compiler::driver::load_interp("kuhn.gala", source, &[]).expect("kuhn checks");
        build(&game, &BuildOptions::default()).expect("kuhn builds").0
    })
}

fuzz_target!(|data: &[u8]| {
    let tree = kuhn();
    let fingerprint = Fingerprint::of(tree, &Variant::CfrPlus);
    if let Ok(state) = CfrState::from_bytes(data, &fingerprint) {
        let mut config = CfrConfig::new(Variant::CfrPlus, state.iteration.saturating_add(2));
        config.threads = 1;
        let _ = CfrSolver { config, resume: Some(state) }.run(tree, &mut RunToEnd);
    }
});
