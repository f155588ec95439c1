//! Fuzz target: every program that checks is lowered and its tree built
//! through the interpreter under small limits (nodes, memory, steps): the
//! build ends with a tree or an error, never a panic or a hang.
#![no_main]

use galac_runtime::tree::{build, BuildOptions};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(mut game) = galac_compiler::driver::load_interp("fuzz.gala", data, &[]) else { return };
    game.step_limit = 10_000;
    let opts = BuildOptions {
        max_nodes: 20_000,
        memory: galac_runtime::memory::MemoryLimit::from_bytes(64 << 20),
        labels: true,
        progress: None,
        cancel: None,
    };
    if let Ok((tree, _, _)) = build(&game, &opts) {
        let _ = tree.stats();
    }
});
