//! Snapshots of the Rust that galac generates for three small examples
//! (`build.rs` writes it with galac's code generator, as `galac build`
//! does): Kuhn poker (chance, hidden cards, `take_turns`), three-player Nim
//! (perfect information, a tuple `choose ... where`, an array the size of a
//! param) and Beer-Quiche (a chance table, general-sum payoffs). Any change of the generated code shows as
//! a diff to review.

#[test]
fn generated_rust_of_kuhn() {
    insta::assert_snapshot!(include_str!(concat!(env!("OUT_DIR"), "/kuhn.rs")));
}

#[test]
fn generated_rust_of_nim222() {
    insta::assert_snapshot!(include_str!(concat!(env!("OUT_DIR"), "/nim222.rs")));
}

#[test]
fn generated_rust_of_beer_quiche() {
    insta::assert_snapshot!(include_str!(concat!(env!("OUT_DIR"), "/beer_quiche.rs")));
}
