//! Embeds the sources of the crates a generated solver links (runtime,
//! solvers, app), each with a standalone Cargo.toml, and the workspace's
//! Cargo.lock, so that galac can write a generated game's dependencies
//! wherever it runs; and has the linker lay galac's code out as
//! `symbol-order.txt` lists it, where the linker can.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The workspace crates a generated solver depends on, in dependency order.
const EMBEDDED: &[&str] = &["runtime", "solvers", "app"];

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let root = manifest.parent().expect("cli/ is in the workspace").to_path_buf();
    let mut out = String::from("/// Every embedded crate, in dependency order.\n");
    out.push_str("pub const CRATES: &[EmbeddedCrate] = &[\n");
    for dir in EMBEDDED {
        let krate = root.join(dir);
        let mut files: Vec<PathBuf> = Vec::new();
        collect(&krate.join("src"), &mut files);
        // A build script (the runtime's writes the hold'em tables).
        if krate.join("build.rs").is_file() {
            files.push(krate.join("build.rs"));
            println!("cargo:rerun-if-changed={}", krate.join("build.rs").display());
        }
        files.sort();
        let cargo_toml = standalone_manifest(&root.join("Cargo.toml"), &krate.join("Cargo.toml"));
        writeln!(out, "    EmbeddedCrate {{ dir: {dir:?}, manifest: {cargo_toml:?}, files: &[")
            .expect("write to string");
        for f in &files {
            let rel = f.strip_prefix(&krate).expect("under the crate").to_string_lossy().replace('\\', "/");
            writeln!(out, "        ({rel:?}, include_str!({:?})),", f.to_string_lossy()).expect("write to string");
            println!("cargo:rerun-if-changed={}", f.display());
        }
        out.push_str("    ] },\n");
        println!("cargo:rerun-if-changed={}", krate.join("Cargo.toml").display());
        println!("cargo:rerun-if-changed={}", krate.join("src").display());
    }
    out.push_str("];\n");
    writeln!(out, "/// The workspace's Cargo.lock: generated crates build with the same versions.\npub const WORKSPACE_LOCK: &str = include_str!({:?});", root.join("Cargo.lock").to_string_lossy()).expect("write");
    println!("cargo:rerun-if-changed={}", root.join("Cargo.toml").display());
    let dest = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("embedded_crates.rs");
    std::fs::write(dest, out).expect("write embedded_crates.rs");
    order_symbols(&manifest);
    pack_relocations();
}

/// Has the linker pack galac's relative relocations (`-z
/// pack-relative-relocs`, ELF's RELR): the loader reads their table, and
/// so has it in memory, whole at every start, at 24 bytes a pointer in
/// the usual form and about a bit in this one (galac's peak memory counts
/// it: BENCHMARKS.md, "Hold'em"). Only where an empty program linked so
/// also runs: the loader of a C library older than glibc 2.36 refuses the
/// packed form, and galac runs where it was built.
fn pack_relocations() {
    let flags = ["-Wl,-z,pack-relative-relocs".to_string()];
    let same = std::env::var("TARGET").ok() == std::env::var("HOST").ok();
    if same && links_with(&flags) && runs(&probe_path()) {
        for flag in flags {
            println!("cargo:rustc-link-arg-bin=galac={flag}");
        }
    }
}

/// Where [`links_with`] writes its program.
fn probe_path() -> PathBuf {
    PathBuf::from(std::env::var("OUT_DIR").unwrap_or_default()).join("link_probe")
}

/// Whether the program at `path` runs and exits with success.
fn runs(path: &Path) -> bool {
    Command::new(path).stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok_and(|s| s.success())
}

/// Has the linker put the functions `symbol-order.txt` lists first, in its
/// order (bench/symbol_order.sh says why and makes it), where it takes
/// `--symbol-ordering-file`: lld does, the linker of Rust's own x86-64
/// Linux toolchain; GNU ld does not. Which linker links is the toolchain's
/// and the user's choice, so an empty program is linked with the flags
/// first, as galac would be, and only a link that succeeds gets them.
fn order_symbols(manifest: &Path) {
    let order = manifest.join("symbol-order.txt");
    println!("cargo:rerun-if-changed={}", order.display());
    let flags = [format!("-Wl,--symbol-ordering-file={}", order.display()), "-Wl,--no-warn-symbol-ordering".into()];
    if links_with(&flags) {
        for flag in flags {
            println!("cargo:rustc-link-arg-bin=galac={flag}");
        }
    }
}

/// Whether an empty program links for the target with `flags` given to
/// the linker, with the flags and linker cargo gives rustc for galac.
fn links_with(flags: &[String]) -> bool {
    let env = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    let (Some(out), Some(target)) = (env("OUT_DIR"), env("TARGET")) else { return false };
    let out = PathBuf::from(out);
    let source = out.join("link_probe.rs");
    if std::fs::write(&source, "fn main() {}\n").is_err() {
        return false;
    }
    let mut rustc = Command::new(env("RUSTC").unwrap_or_else(|| "rustc".into()));
    rustc.arg(&source).arg("-o").arg(probe_path()).args(["--target", &target]);
    rustc.args(env("CARGO_ENCODED_RUSTFLAGS").iter().flat_map(|f| f.split('\x1f')).filter(|f| !f.is_empty()));
    if let Some(linker) = env("RUSTC_LINKER") {
        rustc.arg(format!("-Clinker={linker}"));
    }
    rustc.args(flags.iter().map(|f| format!("-Clink-arg={f}")));
    rustc.stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok_and(|s| s.success())
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read a crate's src/").flatten() {
        let p = entry.path();
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// Replaces `x.workspace = true` and `x = { workspace = true, ... }` in a
/// crate's manifest by the workspace's definitions (a sibling crate's path
/// becomes `../dir`, beside it in the cache), and drops `[lints]`.
fn standalone_manifest(workspace: &Path, runtime: &Path) -> String {
    let ws = std::fs::read_to_string(workspace).expect("read workspace Cargo.toml");
    let rt = std::fs::read_to_string(runtime).expect("read a crate's Cargo.toml");
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
                "[workspace.dependencies]" => deps.push((k, sibling_path(&v))),
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

/// `{ path = "runtime" }` (relative to the workspace) becomes
/// `{ path = "../runtime" }` (relative to a sibling crate in the cache).
fn sibling_path(v: &str) -> String {
    v.replace("{ path = \"", "{ path = \"../")
}
