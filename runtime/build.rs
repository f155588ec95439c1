//! Writes the hold'em evaluator's tables (`ops::holdem`) as statics, made
//! here from rs_poker's values (`src/ops/holdem_rs.rs`), so that no run of
//! galac or of a solver it compiles makes them or reads rs_poker's own.

use std::fmt::Write as _;

#[path = "src/ops/holdem_keys.rs"]
mod holdem_keys;
#[path = "src/ops/holdem_rs.rs"]
mod holdem_rs;

fn main() {
    for file in ["build.rs", "src/ops/holdem_keys.rs", "src/ops/holdem_rs.rs"] {
        println!("cargo:rerun-if-changed={file}");
    }
    let (rows, lookup, flush) = holdem_rs::tables();
    let mut out = String::from("// Written by the build script (build.rs): the hold'em evaluator's tables.\n");
    let mut table = |name: &str, ty: &str, len: &str, values: &mut dyn Iterator<Item = u32>| {
        write!(out, "static {name}: [{ty}; {len}] = [").expect("write to a string");
        values.for_each(|v| write!(out, "{v},").expect("write to a string"));
        out.push_str("];\n");
    };
    table("ROW_OFFSETS", "u32", "ROWS", &mut rows.into_iter());
    table("LOOKUP", "u16", "LOOKUP_LEN", &mut lookup.into_iter().map(u32::from));
    table("FLUSH", "u16", "1 << 13", &mut flush.into_iter().map(u32::from));
    let dest = std::path::Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("holdem_tables.rs");
    std::fs::write(dest, out).expect("write the hold'em tables");
}
