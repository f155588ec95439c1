//! Generates the parser from `src/grammar.lalrpop`, and embeds the runtime's
//! source (with a standalone Cargo.toml) and the workspace's Cargo.lock, so
//! that galac can write a generated game's dependency wherever it runs.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    lalrpop::Configuration::new()
        .set_out_dir(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"))
        .emit_rerun_directives(true)
        .process_file("src/grammar.lalrpop")
        .expect("lalrpop failed to generate the parser");
    embed_runtime();
}

fn embed_runtime() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let root = manifest.parent().expect("the compiler is in the workspace").to_path_buf();
    let runtime = root.join("runtime");
    let mut files: Vec<PathBuf> = Vec::new();
    collect(&runtime.join("src"), &mut files);
    files.sort();
    let mut out = String::from("/// (path in the runtime crate, contents) of every runtime source file.\n");
    out.push_str("pub const RUNTIME_FILES: &[(&str, &str)] = &[\n");
    for f in &files {
        let rel = f.strip_prefix(&runtime).expect("under runtime/").to_string_lossy().replace('\\', "/");
        writeln!(out, "    ({rel:?}, include_str!({:?})),", f.to_string_lossy()).expect("write to string");
        println!("cargo:rerun-if-changed={}", f.display());
    }
    out.push_str("];\n");
    let cargo_toml = standalone_manifest(&root.join("Cargo.toml"), &runtime.join("Cargo.toml"));
    writeln!(out, "/// The runtime's Cargo.toml with the workspace's versions filled in.\npub const RUNTIME_MANIFEST: &str = {cargo_toml:?};").expect("write");
    writeln!(out, "/// The workspace's Cargo.lock: generated crates build with the same versions.\npub const WORKSPACE_LOCK: &str = include_str!({:?});", root.join("Cargo.lock").to_string_lossy()).expect("write");
    println!("cargo:rerun-if-changed={}", runtime.join("Cargo.toml").display());
    println!("cargo:rerun-if-changed={}", root.join("Cargo.toml").display());
    println!("cargo:rerun-if-changed={}", runtime.join("src").display());
    let dest = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("runtime_files.rs");
    std::fs::write(dest, out).expect("write runtime_files.rs");
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read runtime/src").flatten() {
        let p = entry.path();
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// Replaces `x.workspace = true` and `x = { workspace = true, ... }` in the
/// runtime's manifest by the workspace's definitions, and drops `[lints]`.
fn standalone_manifest(workspace: &Path, runtime: &Path) -> String {
    let ws = std::fs::read_to_string(workspace).expect("read workspace Cargo.toml");
    let rt = std::fs::read_to_string(runtime).expect("read runtime Cargo.toml");
    let mut deps: Vec<(String, String)> = Vec::new();
    let mut package: Vec<(String, String)> = Vec::new();
    let mut section = String::new();
    for line in ws.lines() {
        let t = line.trim();
        if t.starts_with('[') {
            section = t.to_string();
            continue;
        }
        if let Some((k, v)) = t.split_once('=') {
            let (k, v) = (k.trim().to_string(), v.trim().to_string());
            match section.as_str() {
                "[workspace.dependencies]" => deps.push((k, v)),
                "[workspace.package]" => package.push((k, v)),
                _ => {}
            }
        }
    }
    let lookup = |list: &[(String, String)], k: &str| list.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
    let mut out = String::new();
    let mut skip = false;
    for line in rt.lines() {
        let t = line.trim();
        if t.starts_with('[') {
            skip = t == "[lints]";
        }
        if skip {
            continue;
        }
        if let Some(k) = t.strip_suffix(".workspace = true") {
            let v = lookup(&package, k).or_else(|| lookup(&deps, k)).expect("inherited key is in the workspace");
            out.push_str(&format!("{k} = {v}\n"));
        } else if let Some((k, rest)) = t.split_once("= { workspace = true") {
            let k = k.trim();
            let base = lookup(&deps, k).expect("inherited dependency is in the workspace");
            // Merge: the workspace's table (or version string) plus the extra keys.
            let extra = rest.trim_start_matches(',').trim().trim_end_matches('}').trim();
            let merged = if let Some(inner) = base.strip_prefix('{').and_then(|b| b.strip_suffix('}')) {
                format!("{{ {}, {extra} }}", inner.trim())
            } else {
                format!("{{ version = {base}, {extra} }}")
            };
            out.push_str(&format!("{k} = {}\n", merged.replace(", }", " }")));
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}
