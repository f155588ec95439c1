//! Generates the parser from `src/grammar.lalrpop`.

fn main() {
    lalrpop::Configuration::new()
        .set_out_dir(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"))
        .emit_rerun_directives(true)
        .process_file("src/grammar.lalrpop")
        .expect("lalrpop failed to generate the parser");
}
