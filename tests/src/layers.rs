//! The architecture's one-way dependencies (ARCHITECTURE.md), read from the
//! crates' manifests and sources: runtime <- solvers <- app <- galac, and
//! runtime <- compiler <- galac. Each rule is a line of the map.

use crate::repo_root;

/// (crate directory, the workspace crates and outside crates it may use).
const LAYERS: &[(&str, &[&str])] = &[
    // crc32fast: the checksum of saved trees (tree/saved.rs);
    // typed-index-collections: vectors indexed by typed ids (ids.rs); wide:
    // `hand_rank`'s two-lane sums of a card's key and bit (ops/holdem.rs).
    // (rs_poker, whose values fill `hand_rank`'s tables, is a build
    // dependency: build.rs.)
    ("runtime", &["crc32fast", "rustc-hash", "thiserror", "typed-index-collections", "wide"]),
    // num-*: exact rationals for `exact.rs`'s certificates; serde: results
    // that serialize themselves (the double oracle's iterations);
    // libloading: HiGHS, the LP engine, loaded at run time (highs.rs);
    // clarabel: good_lp's own, driven directly to stop it (lp.rs);
    // rayon-core: vector CFR's two threads, a pool kept for the run.
    (
        "solvers",
        &[
            "galac-runtime",
            "clarabel",
            "good_lp",
            "libloading",
            "num-bigint",
            "num-rational",
            "num-traits",
            "rayon-core",
            "rustc-hash",
            "serde",
            "thiserror",
        ],
    ),
    (
        "compiler",
        &[
            "galac-runtime",
            "codespan-reporting",
            "lalrpop-util",
            "logos",
            "prettyplease",
            "proc-macro2",
            "quote",
            // FxHashMap: the interpreter's memos of choices and tests.
            "rustc-hash",
            "syn",
        ],
    ),
    // lsp-server, lsp-types: the language server's protocol; serde: its
    // requests' parameters read through lsp-types.
    ("lsp", &["galac-compiler", "lsp-server", "lsp-types", "serde", "serde_json"]),
    // ctrlc: Ctrl-C stops a CFR run cleanly (the answer so far is written);
    // clap_complete, clap_mangen: `completions` and `man`; indicatif:
    // progress bars; libc: glibc's mmap threshold (app::memory); nix: a
    // signal stops the child processes (app::signals); resvg:
    // PNG plots (optional, feature `png`: galac only); mpi: `--distributed`
    // CFR runs (optional, feature `mpi`); rustc-hash: FxHashMap for internal
    // lookups (the report's labels), as below; serde: every JSON answer is
    // a serde struct.
    (
        "app",
        &[
            "galac-runtime",
            "galac-solvers",
            "clap",
            "clap_complete",
            "clap_mangen",
            "ctrlc",
            "indicatif",
            "libc",
            "mpi",
            "nix",
            "resvg",
            "rustc-hash",
            "serde",
            "serde_json",
            "thiserror",
        ],
    ),
    // serde, serde_json: the JSON answers of `check`, `ir` and `build`.
    ("cli", &["galac-runtime", "galac-compiler", "galac-app", "galac-lsp", "clap", "serde", "serde_json", "thiserror"]),
    // The Python module (outside the workspace, python/Cargo.toml): pyo3
    // and numpy its bindings; clap parses `solve`'s flags as galac does.
    (
        "python",
        &["galac-compiler", "galac-runtime", "galac-solvers", "galac-app", "clap", "numpy", "pyo3", "serde_json"],
    ),
];

/// The names in a manifest's `[dependencies]` section.
fn dependencies(dir: &str) -> Vec<String> {
    let text = std::fs::read_to_string(repo_root().join(dir).join("Cargo.toml")).expect("manifest");
    let mut in_deps = false;
    let mut out = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            in_deps = line == "[dependencies]" || (line.starts_with("[target.") && line.ends_with(".dependencies]"));
        } else if in_deps && !line.is_empty() && !line.starts_with('#') {
            let name = line.split(['=', '.']).next().unwrap_or_default().trim();
            out.push(name.to_string());
        }
    }
    out
}

#[test]
fn crates_depend_only_on_the_layers_below() {
    let mut wrong = Vec::new();
    for (dir, allowed) in LAYERS {
        for dep in dependencies(dir) {
            if !allowed.contains(&dep.as_str()) {
                wrong.push(format!("{dir}/ depends on {dep}"));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Every `.rs` file under `dir`, with its text.
fn sources(dir: &str) -> Vec<(String, String)> {
    let mut files = Vec::new();
    crate::tidy::rust_files(&repo_root().join(dir), &mut files);
    files
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).expect("source");
            (path.display().to_string(), text)
        })
        .collect()
}

/// Lines of code (not comments) under `dir` that contain one of `needles`.
fn offending(dir: &str, needles: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for (path, text) in sources(dir) {
        for (i, line) in text.lines().enumerate() {
            let code = line.trim_start();
            if code.starts_with("//") {
                continue;
            }
            if let Some(n) = needles.iter().find(|n| code.contains(*n)) {
                out.push(format!("{path}:{}: `{n}`: {}", i + 1, code));
            }
        }
    }
    out
}

/// The libraries neither print nor touch the process: the runtime (what
/// generated code calls), the solvers and the compiler. Only the app and
/// the galac binary talk to the user, read files and run cargo.
#[test]
fn libraries_do_no_process_io() {
    let mut found = Vec::new();
    for dir in ["runtime/src", "solvers/src"] {
        found.extend(offending(dir, &["println!", "eprintln!", "print!(", "std::process", "std::fs", "clap::"]));
    }
    found.extend(offending("compiler/src", &["println!", "eprintln!", "std::process", "std::fs", "Command::new"]));
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// A compiled solver never tells its user to run galac, and library errors
/// never name command-line flags (the app adds hints about its flags).
#[test]
fn messages_name_no_flags_or_galac_commands() {
    let mut found = offending("runtime/src", &["\"--", " --", "`galac"]);
    found.extend(offending("solvers/src", &["\"--", " --", "`galac"]));
    found.extend(offending("app/src", &["`galac", "galac solve", "galac tree", "galac export"]));
    assert!(found.is_empty(), "{}", found.join("\n"));
}
