#![no_main]
//! Fuzz target: bytes read as a strategy file (`solve --out`) for Kuhn
//! poker give an error or a profile, never a panic.

use std::sync::OnceLock;

use galac_runtime::game::{Game, GameInfo};
use galac_runtime::ids::{IdVec, InfosetId};
use galac_runtime::tree::{build, BuildOptions, Tree};
use libfuzzer_sys::fuzz_target;

fn kuhn() -> &'static (GameInfo, Tree, IdVec<InfosetId, String>) {
    static KUHN: OnceLock<(GameInfo, Tree, IdVec<InfosetId, String>)> = OnceLock::new();
    KUHN.get_or_init(|| {
        let source = include_bytes!("../../examples/kuhn.gala");
        let game = galac_compiler::driver::load_interp("kuhn.gala", source, &[]).expect("kuhn checks");
        let tree = build(&game, &BuildOptions { labels: true, ..BuildOptions::default() }).expect("kuhn builds").0;
        let labels = galac_app::report::unique_labels(&tree);
        (game.info().clone(), tree, labels)
    })
}

fuzz_target!(|data: &[u8]| {
    let (info, tree, labels) = kuhn();
    let _ = galac_app::strategy_file::parse(data, "fuzz.json", info, tree, labels, data.first() == Some(&b' '));
});
