//! The `galac` binary: all logic lives in the library (`galac::cli`).
fn main() {
    std::process::exit(galac::cli::main());
}
