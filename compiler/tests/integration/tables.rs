//! The compiler against the files beside it: the language reference lists
//! every builtin of the table, and every example's generated code is the
//! same whether its specialised copy is made up front or on demand.

use galac_compiler::diagnostic::SourceMap;
use galac_compiler::typeck::builtins::Builtin;

fn repo_file(path: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path)
}

#[test]
fn the_language_reference_lists_every_builtin() {
    let doc = std::fs::read_to_string(repo_file("docs/language.md")).expect("docs/language.md");
    let section = doc.split("## Builtin functions").nth(1).and_then(|s| s.split("\n## ").next()).expect("section");
    for b in Builtin::ALL {
        assert!(section.contains(&format!("`{}(", b.name())), "docs/language.md misses `{}`", b.name());
    }
}

/// `Compiled::emit_game` makes the copy for the params' defaults only when
/// the general game cannot hold its arrays as Rust arrays: the code is the
/// one made with the copy given.
#[test]
fn the_copy_for_the_defaults_is_made_only_when_needed_and_changes_nothing() {
    let mut files: Vec<_> =
        std::fs::read_dir(repo_file("examples")).expect("examples").filter_map(|e| Some(e.ok()?.path())).collect();
    files.sort();
    let mut copies = 0;
    for path in files.iter().filter(|p| p.extension().is_some_and(|e| e == "gala")) {
        let name = path.file_name().expect("name").to_string_lossy().into_owned();
        let bytes = std::fs::read(path).expect("example");
        let c =
            galac_compiler::compile(&mut SourceMap::new(), &name, &bytes).unwrap_or_else(|_| panic!("{name} compiles"));
        let copy = c.specialised();
        let eager = galac_compiler::codegen::emit_game(&c.ir, copy.as_ref(), &c.source, &name).expect("code");
        assert!(c.emit_game(&name).expect("code") == eager, "{name}");
        copies += usize::from(eager.contains("pub mod specialised"));
    }
    assert!(copies > 0, "an example has a specialised copy");
}
