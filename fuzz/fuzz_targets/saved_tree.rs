#![no_main]
//! Fuzz target: bytes read as a saved tree of Kuhn poker
//! (docs/tree-format.md) give an error or a tree that the solvers' walks
//! use without a panic, within the node and memory limits. The input's
//! last four bytes are replaced by the checksum of the rest, so that
//! mutations reach the checks behind the checksum (a wrong checksum alone
//! is refused before them).

use std::sync::OnceLock;

use galac_runtime::game::{Game, GameInfo};
use galac_runtime::memory::MemoryLimit;
use galac_runtime::tree::{load, BuildOptions};
use libfuzzer_sys::fuzz_target;

fn kuhn() -> &'static GameInfo {
    static INFO: OnceLock<GameInfo> = OnceLock::new();
    INFO.get_or_init(|| {
        let source = include_bytes!("../../examples/kuhn.gala");
        galac_compiler::driver::load_interp("kuhn.gala", source, &[]).expect("kuhn checks").info().clone()
    })
}

fuzz_target!(|data: &[u8]| {
    let mut bytes = data.to_vec();
    if let Some(n) = bytes.len().checked_sub(4) {
        let crc = crc32fast::hash(&bytes[..n]);
        bytes[n..].copy_from_slice(&crc.to_le_bytes());
    }
    let opts =
        BuildOptions { max_nodes: 1 << 20, memory: MemoryLimit::from_bytes(256 << 20), labels: true, progress: None, cancel: None };
    if let Ok(tree) = load(bytes.as_slice(), kuhn(), &opts) {
        let _ = (tree.stats(), tree.preorder(), tree.content_digest());
        let _ = galac_solvers::treeplex::Treeplex::new(&tree);
        let profile = galac_solvers::Profile::uniform(&tree);
        let _ = galac_solvers::best_response::evaluate(&tree, &profile);
    }
});
