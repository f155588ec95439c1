//! No module imports another in a circle, in any crate (runtime, solvers,
//! app, compiler, cli): the module graph read from the sources is acyclic.
//!
//! The rule:
//! - A module is a file: `a/b.rs` is `a::b`, `a/mod.rs` is `a`, `lib.rs`
//!   and `main.rs` are the crate root. Inline `mod x { .. }` blocks belong
//!   to their file.
//! - An edge `A -> B` means code in A names an item defined in B: a `use`
//!   (a re-export `pub use` included) or a path in code, starting with
//!   `crate::`, `super::`, `self::`, a child module's name or a name a
//!   `use` bound to a module. The path goes to the deepest module that
//!   exists as a file; its next segment is looked up there: an item defined
//!   in that file makes the edge, a name that file merely imports (`use`,
//!   `pub use`, glob) is followed to where it is defined. A name not found
//!   stays with the file (the conservative choice). A called path
//!   (`a::f(..)`) names a function even where a module `a::f` exists.
//! - Method calls are not paths: a file that adds methods to another's type
//!   (`impl T` elsewhere) depends on `T`'s file through the `impl`'s path,
//!   and a call of those methods from `T`'s file is not seen. Keep such
//!   methods above the type (the type's file not calling them).
//! - Declaring a child (`mod x;`) is not an edge: the parent owns the
//!   child's file, it does not use its items. But a parent that re-exports
//!   or calls a child's items depends on it, so a parent whose children use
//!   items defined in the parent's own file is a cycle: shared types belong
//!   in a leaf module that both use, and `mod.rs` is a facade or a user.
//! - Code under `#[cfg(test)]` is left out: tests sit above the module
//!   they test and may reach it through the public API.
//! - Paths into other crates (`galac_runtime::..`) are not module edges;
//!   the crates' own order is `layers.rs`'s business. The LALRPOP grammar
//!   (`compiler/src/grammar.lalrpop`) is generated into a leaf and not read.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::repo_root;

/// The crates' source roots.
const CRATES: &[&str] = &["runtime/src", "solvers/src", "app/src", "compiler/src", "cli/src", "lsp/src"];

/// A token of Rust source: an identifier, `::`, or one punctuation char.
#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    PathSep,
    Punct(char),
}

/// The tokens of `text` with their line numbers; comments, strings, chars
/// and lifetimes dropped.
fn tokens(text: &str) -> Vec<(Tok, usize)> {
    let c: Vec<char> = text.chars().collect();
    let (mut i, mut line, mut out) = (0, 1, Vec::new());
    let skip_to = |i: &mut usize, line: &mut usize, end: usize| {
        while *i < end.min(c.len()) {
            if c[*i] == '\n' {
                *line += 1;
            }
            *i += 1;
        }
    };
    while i < c.len() {
        let ch = c[i];
        let next = c.get(i + 1).copied().unwrap_or(' ');
        if ch == '/' && next == '/' {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && next == '*' {
            let (mut depth, mut j) = (0, i);
            while j < c.len() {
                if c[j] == '/' && c.get(j + 1) == Some(&'*') {
                    depth += 1;
                    j += 2;
                } else if c[j] == '*' && c.get(j + 1) == Some(&'/') {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            skip_to(&mut i, &mut line, j);
        } else if ch == '"' || (ch == 'r' && (next == '"' || next == '#')) || (ch == 'b' && next == '"') {
            i = string_end(&c, i, &mut line);
        } else if ch == '\'' {
            // A char literal ('a', '\n', '\u{..}') or a lifetime ('a).
            if next == '\\' {
                let mut j = i + 2;
                while j < c.len() && c[j] != '\'' {
                    j += 1;
                }
                i = j + 1;
            } else if c.get(i + 2) == Some(&'\'') {
                i += 3;
            } else {
                i += 1;
                while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                    i += 1;
                }
            }
        } else if ch.is_alphabetic() || ch == '_' {
            let start = i;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            out.push((Tok::Ident(c[start..i].iter().collect()), line));
        } else if ch.is_ascii_digit() {
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_' || c[i] == '.') {
                i += 1;
            }
        } else if ch == ':' && next == ':' {
            out.push((Tok::PathSep, line));
            i += 2;
        } else {
            if ch == '\n' {
                line += 1;
            } else if !ch.is_whitespace() {
                out.push((Tok::Punct(ch), line));
            }
            i += 1;
        }
    }
    out
}

/// The index just past the string literal starting at `i` (plain, byte or
/// raw), counting the lines it spans.
fn string_end(c: &[char], mut i: usize, line: &mut usize) -> usize {
    if c[i] == 'b' {
        i += 1;
    }
    if c[i] == 'r' {
        i += 1;
        let mut hashes = 0;
        while c[i] == '#' {
            hashes += 1;
            i += 1;
        }
        i += 1;
        while i < c.len() {
            if c[i] == '\n' {
                *line += 1;
            }
            if c[i] == '"' && (0..hashes).all(|k| c.get(i + 1 + k) == Some(&'#')) {
                return i + 1 + hashes;
            }
            i += 1;
        }
        return i;
    }
    i += 1;
    while i < c.len() && c[i] != '"' {
        if c[i] == '\n' {
            *line += 1;
        }
        if c[i] == '\\' {
            i += 1;
            if c.get(i) == Some(&'\n') {
                *line += 1;
            }
        }
        i += 1;
    }
    i + 1
}

/// `toks` without the items under `#[cfg(test)]`.
fn without_tests(toks: Vec<(Tok, usize)>) -> Vec<(Tok, usize)> {
    let cfg_test = [
        Tok::Punct('#'),
        Tok::Punct('['),
        Tok::Ident("cfg".into()),
        Tok::Punct('('),
        Tok::Ident("test".into()),
        Tok::Punct(')'),
        Tok::Punct(']'),
    ];
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let here: Vec<&Tok> = toks[i..].iter().take(cfg_test.len()).map(|(t, _)| t).collect();
        if here.len() < cfg_test.len() || here.iter().zip(&cfg_test).any(|(a, b)| *a != b) {
            out.push(toks[i].clone());
            i += 1;
            continue;
        }
        // Skip the item: to a `;` at depth 0, or to the `}` closing its
        // first `{` (a `use` always ends at its `;`).
        i += cfg_test.len();
        let is_use = matches!(&toks.get(i), Some((Tok::Ident(w), _)) if w == "use");
        let mut depth = 0i32;
        while i < toks.len() {
            match &toks[i].0 {
                Tok::Punct('{') => depth += 1,
                Tok::Punct('}') => {
                    depth -= 1;
                    if depth == 0 && !is_use {
                        i += 1;
                        break;
                    }
                }
                Tok::Punct(';') if depth == 0 => {
                    i += 1;
                    break;
                }
                _ => {}
            }
            i += 1;
        }
    }
    out
}

/// One source file read as a module.
#[derive(Default)]
struct Module {
    /// Where it is, relative to the repository root.
    file: String,
    /// Names of the items defined in it (not imported).
    defines: BTreeSet<String>,
    /// Children declared with `mod x;` or `mod x { .. }`.
    children: BTreeSet<String>,
    /// Names bound by its `use`s, to the absolute paths they stand for.
    binds: BTreeMap<String, Vec<String>>,
    /// Modules glob-imported (`use x::*`).
    globs: Vec<Vec<String>>,
    /// Paths it names (each absolute, from the crate root) with their line,
    /// and whether the path is called (`a::f(..)`: `f` is then a function,
    /// even where a module `a::f` exists).
    refs: Vec<(Vec<String>, usize, bool)>,
}

/// Item keywords whose next identifier is the name of a defined item.
const ITEMS: &[&str] = &["fn", "struct", "enum", "trait", "type", "const", "static", "union", "macro_rules"];

/// Reads one file of the module at `path` (absolute segments).
fn read_module(file: String, path: &[String], text: &str) -> Module {
    let toks = without_tests(tokens(text));
    let mut m = Module { file, ..Module::default() };
    let mut raw_refs: Vec<(Vec<String>, usize, bool)> = Vec::new();
    let (mut depth, mut i) = (0usize, 0usize);
    // Inline modules open at these brace depths (their items count as the
    // file's: the rule's unit is the file).
    let mut inline_at: Vec<usize> = Vec::new();
    let ident = |k: usize| match toks.get(k) {
        Some((Tok::Ident(s), _)) => Some(s.as_str()),
        _ => None,
    };
    while i < toks.len() {
        let item_level = depth == inline_at.len();
        match &toks[i].0 {
            Tok::Punct('{') => depth += 1,
            Tok::Punct('}') => {
                depth = depth.saturating_sub(1);
                if inline_at.last() == Some(&depth) {
                    inline_at.pop();
                }
            }
            Tok::Ident(w) if w == "use" => {
                let end = toks[i..].iter().position(|(t, _)| *t == Tok::Punct(';')).map_or(toks.len(), |p| i + p);
                let mut flat = Vec::new();
                use_tree(&toks[i + 1..end], &[], &mut flat);
                for (segments, alias) in flat {
                    let line = toks[i].1;
                    match alias.as_deref() {
                        Some("*") => m.globs.push(segments.clone()),
                        Some("_") => {}
                        Some(a) => {
                            m.binds.insert(a.to_string(), segments.clone());
                        }
                        None => {
                            if let Some(last) = segments.last() {
                                m.binds.insert(last.clone(), segments.clone());
                            }
                        }
                    }
                    raw_refs.push((segments, line, false));
                }
                i = end;
                continue;
            }
            Tok::Ident(w) if item_level && w == "mod" => {
                if let Some(name) = ident(i + 1) {
                    m.children.insert(name.to_string());
                    if toks.get(i + 2).map(|t| &t.0) == Some(&Tok::Punct('{')) {
                        inline_at.push(depth);
                    }
                }
            }
            Tok::Ident(w) if item_level && ITEMS.contains(&w.as_str()) => {
                let k = if ident(i + 1) == Some("mut") { i + 2 } else { i + 1 };
                let k = if toks.get(k).map(|t| &t.0) == Some(&Tok::Punct('!')) { k + 1 } else { k };
                if let Some(name) = ident(k) {
                    m.defines.insert(name.to_string());
                }
            }
            Tok::Ident(first) if toks.get(i + 1).map(|t| &t.0) == Some(&Tok::PathSep) => {
                let after_sep = i > 0 && toks[i - 1].0 == Tok::PathSep;
                if !after_sep {
                    let mut segs = vec![first.clone()];
                    let mut k = i + 1;
                    while toks.get(k).map(|t| &t.0) == Some(&Tok::PathSep) {
                        match ident(k + 1) {
                            Some(s) => segs.push(s.to_string()),
                            None => break,
                        }
                        k += 2;
                    }
                    let called = toks.get(k).map(|t| &t.0) == Some(&Tok::Punct('('));
                    raw_refs.push((segs, toks[i].1, called));
                    i = k;
                    continue;
                }
            }
            _ => {}
        }
        i += 1;
    }
    // Make the paths absolute, now that every child and binding is known.
    let binds = m.binds.clone();
    for (segs, line, called) in raw_refs {
        if let Some(abs) = absolute(&segs, path, &m.children, &binds) {
            m.refs.push((abs, line, called));
        }
    }
    m.binds = binds
        .into_iter()
        .filter_map(|(k, v)| absolute(&v, path, &m.children, &BTreeMap::new()).map(|a| (k, a)))
        .collect();
    m.globs =
        std::mem::take(&mut m.globs).iter().filter_map(|g| absolute(g, path, &m.children, &BTreeMap::new())).collect();
    m
}

/// Flattens a `use` tree (the tokens after `use`) into (path, alias)
/// pairs; the alias is `*` for a glob.
fn use_tree(toks: &[(Tok, usize)], prefix: &[String], out: &mut Vec<(Vec<String>, Option<String>)>) {
    let mut path = prefix.to_vec();
    let mut i = 0;
    while i < toks.len() {
        match &toks[i].0 {
            Tok::Ident(s) if s == "as" => {
                if let Some((Tok::Ident(a), _)) = toks.get(i + 1) {
                    out.push((path.clone(), Some(a.clone())));
                }
                return;
            }
            Tok::Ident(s) if s == "self" && !path.is_empty() => {}
            Tok::Ident(s) => path.push(s.clone()),
            Tok::Punct('*') => {
                out.push((path, Some("*".into())));
                return;
            }
            Tok::Punct('{') => {
                // Split the group at its top-level commas.
                let (mut depth, mut start) = (0, i + 1);
                for j in i + 1..toks.len() {
                    match toks[j].0 {
                        Tok::Punct('{') => depth += 1,
                        Tok::Punct('}') if depth > 0 => depth -= 1,
                        Tok::Punct(',') | Tok::Punct('}') if depth == 0 => {
                            if j > start {
                                use_tree(&toks[start..j], &path, out);
                            }
                            start = j + 1;
                        }
                        _ => {}
                    }
                }
                return;
            }
            _ => {}
        }
        i += 1;
    }
    if !path.is_empty() {
        out.push((path, None));
    }
}

/// `segs` as a path from the crate root, seen from module `here`; `None`
/// for a path into another crate, std, or a local type.
fn absolute(
    segs: &[String],
    here: &[String],
    children: &BTreeSet<String>,
    binds: &BTreeMap<String, Vec<String>>,
) -> Option<Vec<String>> {
    let mut base: Vec<String> = here.to_vec();
    let mut rest = segs;
    match segs.first()?.as_str() {
        "crate" => {
            base.clear();
            rest = &segs[1..];
        }
        "self" => rest = &segs[1..],
        "super" => {
            while rest.first().is_some_and(|s| s == "super") {
                base.pop();
                rest = &rest[1..];
            }
        }
        first if children.contains(first) => {}
        first => match binds.get(first) {
            Some(target) if target.first() != segs.first() => {
                let mut target = absolute(target, here, children, &BTreeMap::new())?;
                target.extend(segs[1..].iter().cloned());
                return Some(target);
            }
            _ => return None,
        },
    }
    base.extend(rest.iter().cloned());
    Some(base)
}

/// A crate's modules by absolute path.
type Crate = BTreeMap<Vec<String>, Module>;

/// Reads every module of the crate whose sources are in `dir`.
fn read_crate(dir: &str) -> Crate {
    let root = repo_root().join(dir);
    let mut files = Vec::new();
    crate::tidy::rust_files(&root, &mut files);
    let mut modules = Crate::new();
    for file in files {
        let rel = file.strip_prefix(&root).expect("under root");
        let mut path: Vec<String> = rel.with_extension("").iter().map(|s| s.to_string_lossy().into_owned()).collect();
        if matches!(path.last().map(String::as_str), Some("mod" | "lib" | "main")) {
            path.pop();
        }
        let text = std::fs::read_to_string(&file).expect("source");
        let name = Path::new(dir).join(rel).display().to_string();
        modules.insert(path.clone(), read_module(name, &path, &text));
    }
    modules
}

/// The module whose file defines the item `path` names: the deepest module
/// that is a file, its next segment followed through `use`s. A `called`
/// path's last segment is a function, never a module.
fn defining<'a>(
    krate: &'a Crate,
    path: &[String],
    called: bool,
    seen: &mut BTreeSet<Vec<String>>,
) -> Option<&'a Module> {
    let most = if called { path.len().saturating_sub(1) } else { path.len() };
    let n = (0..=most).rev().find(|&n| krate.contains_key(&path[..n]))?;
    let module = &krate[&path[..n]];
    let Some(name) = path.get(n) else { return Some(module) };
    if module.defines.contains(name) || !seen.insert(path.to_vec()) {
        return Some(module);
    }
    if let Some(target) = module.binds.get(name) {
        let mut next = target.clone();
        next.extend(path[n + 1..].iter().cloned());
        return defining(krate, &next, called, seen).or(Some(module));
    }
    for glob in &module.globs {
        let mut next = glob.clone();
        next.extend(path[n..].iter().cloned());
        if let Some(found) = defining(krate, &next, called, seen) {
            if found.defines.contains(name) {
                return Some(found);
            }
        }
    }
    Some(module)
}

/// The graph's edges: (from file, to file) with the first line naming it.
fn edges(krate: &Crate) -> BTreeMap<(String, String), String> {
    let mut out = BTreeMap::new();
    for (path, module) in krate {
        for (r, line, called) in &module.refs {
            // A path to a module itself (`use super::child;`) is followed
            // where it is used, through the binding.
            if krate.contains_key(r) && r != path && !called {
                continue;
            }
            if let Some(to) = defining(krate, r, *called, &mut BTreeSet::new()) {
                if to.file != module.file {
                    let why = format!("{}:{line}: {}", module.file, r.join("::"));
                    out.entry((module.file.clone(), to.file.clone())).or_insert(why);
                }
            }
        }
    }
    out
}

/// The strongly connected components with more than one file (Tarjan's
/// algorithm, iterative enough for a few hundred files).
fn cycles(edges: &BTreeMap<(String, String), String>) -> Vec<Vec<String>> {
    let mut next: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (a, b) in edges.keys() {
        next.entry(a).or_default().push(b);
        next.entry(b).or_default();
    }
    struct State<'a> {
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(v: &'a str, next: &BTreeMap<&'a str, Vec<&'a str>>, s: &mut State<'a>) {
        let i = s.index.len();
        s.index.insert(v, i);
        s.low.insert(v, i);
        s.stack.push(v);
        s.on.insert(v);
        for &w in &next[v] {
            if !s.index.contains_key(w) {
                visit(w, next, s);
                s.low.insert(v, s.low[v].min(s.low[w]));
            } else if s.on.contains(w) {
                s.low.insert(v, s.low[v].min(s.index[w]));
            }
        }
        if s.low[v] == s.index[v] {
            let mut scc = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on.remove(w);
                scc.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if scc.len() > 1 {
                scc.sort();
                s.out.push(scc);
            }
        }
    }
    let mut s = State { index: BTreeMap::new(), low: BTreeMap::new(), stack: vec![], on: BTreeSet::new(), out: vec![] };
    for &v in next.keys() {
        if !s.index.contains_key(v) {
            visit(v, &next, &mut s);
        }
    }
    s.out
}

#[test]
fn modules_import_no_cycles() {
    let mut failed = Vec::new();
    for dir in CRATES {
        let krate = read_crate(dir);
        let edges = edges(&krate);
        for scc in cycles(&edges) {
            let mut text = format!("cycle among {}:\n", scc.join(", "));
            for ((a, b), why) in &edges {
                if scc.contains(a) && scc.contains(b) {
                    text += &format!("  {a} -> {b}   ({why})\n");
                }
            }
            failed.push(text);
        }
    }
    assert!(failed.is_empty(), "{} module cycle(s):\n{}", failed.len(), failed.join("\n"));
}
