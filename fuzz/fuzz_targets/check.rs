//! Fuzz target: the front end (`galac check`) on arbitrary bytes must
//! return a program or located diagnostics, and render them, never panic.
#![no_main]

use galac_compiler::diagnostic::{render, SourceMap};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let mut sources = SourceMap::new();
    match galac_compiler::driver::check_source(&mut sources, "fuzz.gala", data) {
        Ok(checked) => {
            let _ = render(&sources, &checked.warnings, false);
        }
        Err(diagnostics) => {
            let _ = render(&sources, &diagnostics, false);
        }
    }
});
