//! Writing a generated crate and building it with cargo: the crates a
//! solver links (runtime, solvers, app) are embedded in galac and written
//! once into the cache directory, so a moved or installed galac can still
//! compile games; builds share one target directory there, so those crates
//! and their dependencies compile once.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

mod embedded {
    /// A crate's directory name, standalone Cargo.toml and (path, contents)
    /// of each source file.
    pub struct EmbeddedCrate {
        pub dir: &'static str,
        pub manifest: &'static str,
        pub files: &'static [(&'static str, &'static str)],
    }
    include!(concat!(env!("OUT_DIR"), "/embedded_crates.rs"));
}

#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error("cannot run `cargo` ({0}): compiling a game needs a Rust toolchain; install one from https://rustup.rs")]
    NoToolchain(String),
    #[error("{0}")]
    Io(String),
    #[error("cannot write the solver {0}")]
    Install(String),
    #[error("cargo failed to build the generated crate in `{dir}` ({status}):\n{log}")]
    Cargo { dir: String, status: String, log: String },
    #[error(
        "cargo's local registry lacks crates a solver needs, and fetching them from crates.io failed \
         (cargo said: {missing}); connect to the network once, or build galac's own workspace \
         (`cargo build --release --locked` in its source) so that cargo fetches them\n{log}"
    )]
    MissingCrates { missing: String, log: String },
}

fn io(what: &str, path: &Path, e: std::io::Error) -> BuildError {
    BuildError::Io(format!("cannot {what} `{}`: {e}", path.display()))
}

/// Where galac keeps the runtime source, generated crates and the shared
/// target directory: `$GALAC_CACHE_DIR`, else `$XDG_CACHE_HOME/galac`, else
/// `~/.cache/galac`.
pub fn cache_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("GALAC_CACHE_DIR") {
        return PathBuf::from(d);
    }
    if let Some(d) = std::env::var_os("XDG_CACHE_HOME") {
        return PathBuf::from(d).join("galac");
    }
    if let Some(h) = std::env::var_os("HOME") {
        return PathBuf::from(h).join(".cache").join("galac");
    }
    std::env::temp_dir().join("galac-cache")
}

/// Writes the embedded crates into the cache (once per content) and returns
/// the directory that holds them side by side.
fn ensure_libraries(cache: &Path) -> Result<PathBuf, BuildError> {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for krate in embedded::CRATES {
        for (p, c) in krate.files.iter().chain([("Cargo.toml", krate.manifest)].iter()) {
            for b in krate.dir.bytes().chain(p.bytes()).chain(c.bytes()) {
                h ^= u64::from(b);
                h = h.wrapping_mul(0x0100_0000_01b3);
            }
        }
    }
    let dir = cache.join(format!("libs-{}-{h:016x}", env!("CARGO_PKG_VERSION")));
    if dir.join("app").join("Cargo.toml").exists() {
        repair(&dir)?;
        return Ok(dir);
    }
    let tmp = cache.join(format!(".libs-{}-{}", std::process::id(), h));
    for krate in embedded::CRATES {
        for (rel, contents) in krate.files.iter().chain([("Cargo.toml", krate.manifest)].iter()) {
            let path = tmp.join(krate.dir).join(rel);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).map_err(|e| io("create", parent, e))?;
            }
            std::fs::write(&path, contents).map_err(|e| io("write", &path, e))?;
        }
    }
    // Another galac may have won the race: then use its copy.
    if std::fs::rename(&tmp, &dir).is_err() {
        let _ = std::fs::remove_dir_all(&tmp);
    }
    Ok(dir)
}

/// Puts back every embedded file that differs from galac's copy or is
/// missing (an edited or deleted file in the cache would otherwise change or
/// break every later build unnoticed). Reading them costs a few
/// milliseconds, against seconds of cargo.
fn repair(dir: &Path) -> Result<(), BuildError> {
    for krate in embedded::CRATES {
        for (rel, contents) in krate.files.iter().chain([("Cargo.toml", krate.manifest)].iter()) {
            let path = dir.join(krate.dir).join(rel);
            if std::fs::read(&path).is_ok_and(|on_disk| on_disk == contents.as_bytes()) {
                continue;
            }
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).map_err(|e| io("create", parent, e))?;
            }
            std::fs::write(&path, contents).map_err(|e| io("write", &path, e))?;
        }
    }
    Ok(())
}

/// A crate name from the game's name: lowercase letters, digits and `_`.
///
/// At most the name's first 40 characters are kept, followed by a hash of
/// the whole name: a long name still fits a file name (a 300-character game
/// name used to fail with "File name too long"), and names that differ only
/// in case or past the cut get crates of their own.
pub fn crate_name(game: &str) -> String {
    let cleaned: String =
        game.chars().take(40).map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' }).collect();
    let mut h: u32 = 0x811c_9dc5;
    for b in game.bytes() {
        h ^= u32::from(b);
        h = h.wrapping_mul(0x0100_0193);
    }
    format!("galac_game_{cleaned}_{h:08x}")
}

/// A TOML basic string (escaped).
fn toml_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Writes the crate of a game into `dir`: Cargo.toml, Cargo.lock, src/main.rs
/// and src/game.rs. Returns the crate's package name.
pub fn write_crate(dir: &Path, game_name: &str, source_name: &str, game_rs: &str) -> Result<String, BuildError> {
    let libs = ensure_libraries(&cache_dir())?;
    let name = crate_name(game_name);
    let version = env!("CARGO_PKG_VERSION");
    let manifest = include_str!("../../templates/Cargo.toml.tmpl")
        .replace("{{version}}", version)
        .replace("\"{{crate_name}}\"", &toml_string(&name))
        .replace("\"{{runtime_path}}\"", &toml_string(&libs.join("runtime").to_string_lossy()))
        .replace("\"{{app_path}}\"", &toml_string(&libs.join("app").to_string_lossy()))
        // A galac built with MPI builds solvers that run `--distributed` too.
        .replace("{{app_features}}", if cfg!(feature = "mpi") { ", features = [\"mpi\"]" } else { "" });
    let source = source_name.replace(['\n', '\r'], " ");
    let main_rs =
        include_str!("../../templates/main.rs.tmpl").replace("{{version}}", version).replace("{{source}}", &source);
    let src = dir.join("src");
    std::fs::create_dir_all(&src).map_err(|e| io("create", &src, e))?;
    for (path, contents) in [
        (dir.join("Cargo.toml"), manifest.as_str()),
        (dir.join("Cargo.lock"), embedded::WORKSPACE_LOCK),
        (src.join("main.rs"), main_rs.as_str()),
        (src.join("game.rs"), game_rs),
    ] {
        std::fs::write(&path, contents).map_err(|e| io("write", &path, e))?;
    }
    Ok(name)
}

/// Locks the cache's build directory until the returned file is dropped.
///
/// Games of the same name share a package name, hence the binary's path in
/// the target directory, and cargo judges a path crate fresh by the times
/// of its files: a crate written while another galac built a same-named game
/// looked older than that build's output, and got its binary. Held from
/// writing the crate until the binary is copied out, the lock makes builds
/// of same-named games take turns.
pub fn lock_builds() -> Result<std::fs::File, BuildError> {
    let cache = cache_dir();
    std::fs::create_dir_all(&cache).map_err(|e| io("create", &cache, e))?;
    let path = cache.join("build.lock");
    let lock = std::fs::File::create(&path).map_err(|e| io("create", &path, e))?;
    lock.lock().map_err(|e| io("lock", &path, e))?;
    Ok(lock)
}

/// Removes `crates/NAME-PID` directories that a killed galac left in the
/// cache (its process is gone). Call it holding [`lock_builds`].
pub fn remove_orphaned_crates() {
    let Ok(entries) = std::fs::read_dir(cache_dir().join("crates")) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let pid = name.rsplit_once('-').and_then(|(_, pid)| pid.parse::<u32>().ok());
        if pid.is_some_and(|pid| pid != std::process::id() && !galac_app::process_alive(pid)) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// Builds the crate in `dir` (target in the shared cache) and hands the
/// binary's path to `install`. Call it holding [`lock_builds`].
///
/// Generated crates are meant to compile: when cargo fails, the likely
/// cause is the shared target directory, damaged outside galac (a
/// truncated library, a write cut short by a full disk). So on a failure
/// the target directory is emptied, with a note that says so, and the
/// build runs once more; only a second failure is an error.
pub fn build_binary(
    dir: &Path,
    package: &str,
    progress: Show,
    install: impl FnOnce(&Path) -> std::io::Result<()>,
) -> Result<(), BuildError> {
    let target = cache_dir().join("target");
    match compile(dir, &target, progress) {
        Err(BuildError::Cargo { .. }) if target.exists() => {
            eprintln!(
                "note: cargo failed; the build cache `{}` may be damaged: emptying it and building again",
                target.display()
            );
            std::fs::remove_dir_all(&target).map_err(|e| io("empty", &target, e))?;
            compile(dir, &target, progress)?;
        }
        other => other?,
    }
    let exe = target.join("release").join(format!("{package}{}", std::env::consts::EXE_SUFFIX));
    if !exe.exists() {
        return Err(BuildError::Io(format!("cargo succeeded but `{}` is missing", exe.display())));
    }
    install(&exe).map_err(|e| BuildError::Install(e.to_string()))
}

/// One build of the crate in `dir`: cargo runs `--offline` first (the
/// crates are normally in its local registry, fetched when galac itself was
/// built); when the registry lacks some (another `CARGO_HOME`), cargo
/// fetches them from crates.io, and when that fails too the error says what
/// was missing.
fn compile(dir: &Path, target: &Path, progress: Show) -> Result<(), BuildError> {
    let offline = cargo_build(dir, target, progress, true);
    match offline {
        Err(BuildError::Cargo { .. }) => {
            let Err(missing) = registry_has_all(dir) else { return offline };
            if progress != Show::Nothing {
                eprintln!("note: cargo's local registry lacks crates the solver needs; fetching them from crates.io");
            }
            cargo_build(dir, target, progress, false).map_err(|e| match e {
                BuildError::Cargo { log, .. } => BuildError::MissingCrates { missing, log },
                other => other,
            })
        }
        other => other,
    }
}

fn cargo_command() -> Command {
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

/// How a build shows cargo's progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Show {
    /// On a terminal: cargo draws its bar and shows its errors itself.
    Terminal,
    /// Off a terminal (a log, CI): now and then a line with the time so
    /// far and cargo's last step, so a build of minutes is not silent.
    Lines,
    /// `--quiet`: nothing.
    Nothing,
}

/// `cargo build --release [--offline]` of the crate in `dir`.
fn cargo_build(dir: &Path, target: &Path, progress: Show, offline: bool) -> Result<(), BuildError> {
    let mut cmd = cargo_command();
    cmd.args(["build", "--release", "--manifest-path"])
        .arg(dir.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", target)
        .stdout(Stdio::null());
    // The solver loads the HiGHS galac loads (its path is baked in when its
    // crates are built), not only when cargo runs under galac's checkout,
    // whose `.cargo/config.toml` names the set-up's copy: without it the
    // solver's LPs silently went to clarabel.
    if let Some(path) = galac_app::registry::lp::highs_library_path() {
        cmd.env("GALAC_HIGHS_LIB", std::path::absolute(&path).unwrap_or_else(|_| path.into()));
    }
    if offline {
        cmd.arg("--offline");
    }
    match progress {
        Show::Terminal => cmd.stderr(Stdio::inherit()),
        Show::Lines => cmd.stderr(Stdio::piped()),
        Show::Nothing => cmd.arg("--quiet").stderr(Stdio::piped()),
    };
    let mut child = cmd.spawn().map_err(|e| BuildError::NoToolchain(e.to_string()))?;
    let pid = child.id();
    galac_app::signals::track_child(pid);
    // cargo's messages, read as they come (a full pipe would stop cargo).
    let log = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
    let reader = child.stderr.take().map(|stderr| {
        let log = log.clone();
        std::thread::spawn(move || {
            use std::io::BufRead;
            for line in std::io::BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Ok(mut log) = log.lock() {
                    log.push_str(&line);
                    log.push('\n');
                }
            }
        })
    });
    let packages = if progress == Show::Lines { package_count(dir) } else { None };
    let status = wait_showing(&mut child, progress, &log, packages);
    if let Some(reader) = reader {
        let _ = reader.join();
    }
    galac_app::signals::untrack_child(pid);
    let status = status.map_err(|e| BuildError::NoToolchain(e.to_string()))?;
    if status.success() {
        return Ok(());
    }
    let log = match progress {
        Show::Terminal => "(cargo's messages are above)".to_string(),
        _ => log.lock().map(|l| l.clone()).unwrap_or_default(),
    };
    let tail: Vec<&str> = log.lines().rev().take(60).collect::<Vec<_>>().into_iter().rev().collect();
    Err(BuildError::Cargo { dir: dir.display().to_string(), status: status.to_string(), log: tail.join("\n") })
}

/// Waits for cargo; with [`Show::Lines`], writes every
/// [`galac_app::progress::log_every`] how many crates cargo has compiled
/// out of the `packages` the crate needs (an upper bound: crates already
/// in the cache are not compiled again), the time so far and the last
/// line of cargo's `log` ("Compiling galac-solvers ...").
fn wait_showing(
    child: &mut std::process::Child,
    progress: Show,
    log: &std::sync::Mutex<String>,
    packages: Option<usize>,
) -> std::io::Result<std::process::ExitStatus> {
    if progress != Show::Lines {
        return child.wait();
    }
    let every = galac_app::progress::log_every();
    let started = std::time::Instant::now();
    let mut last = started;
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(status);
        }
        std::thread::sleep(std::time::Duration::from_millis(100).min(every).max(std::time::Duration::from_millis(10)));
        if last.elapsed() >= every {
            last = std::time::Instant::now();
            let (compiled, step) = log.lock().map_or((0, None), |l| {
                let compiled = l.lines().filter(|l| l.trim_start().starts_with("Compiling ")).count();
                (compiled, l.lines().last().map(|l| l.trim().to_string()))
            });
            let step = step.map_or(String::new(), |s| format!(": {s}"));
            let of = packages.map_or(String::new(), |n| format!(" of at most {n}"));
            eprintln!(
                "   cargo: crates compiled: {compiled}{of}, {:.0} s so far{step}",
                started.elapsed().as_secs_f64()
            );
        }
    }
}

/// Whether cargo's local registry holds every crate the crate in `dir`
/// needs on this machine (`cargo metadata --offline` resolves them without
/// the network); if not, cargo's first complaint. Only this platform's
/// crates count: a build never fetches the others (Windows' console
/// crates under clap), and without the filter a build that failed for
/// another reason (an old compiler) was reported as missing them.
fn registry_has_all(dir: &Path) -> Result<(), String> {
    let output =
        metadata_command(dir).stdout(Stdio::null()).stderr(Stdio::piped()).output().map_err(|e| e.to_string())?;
    if output.status.success() {
        return Ok(());
    }
    // A cargo that fails without saying why says nothing about the registry.
    let err = String::from_utf8_lossy(&output.stderr);
    match err.lines().find(|l| l.starts_with("error")) {
        Some(line) => Err(line.trim().to_string()),
        None => Ok(()),
    }
}

/// How many packages the crate in `dir` depends on, itself included, on
/// this platform (`cargo metadata --offline`'s resolve): the most crates a
/// build of it compiles. `None` when cargo cannot say (the registry lacks
/// some: the build then says so itself).
fn package_count(dir: &Path) -> Option<usize> {
    let output = metadata_command(dir).stderr(Stdio::null()).output().ok()?;
    if !output.status.success() {
        return None;
    }
    let metadata: serde_json::Value = serde_json::from_slice(&output.stdout).ok()?;
    metadata.get("resolve")?.get("nodes")?.as_array().map(Vec::len)
}

/// `cargo metadata --offline` of the crate in `dir`, resolved for this
/// platform only (the one the solver is built for).
fn metadata_command(dir: &Path) -> Command {
    let mut cmd = cargo_command();
    cmd.args(["metadata", "--offline", "--format-version", "1"]);
    if let Some(host) = host_triple() {
        cmd.args(["--filter-platform", &host]);
    }
    cmd.arg("--manifest-path").arg(dir.join("Cargo.toml"));
    cmd
}

/// The platform rustc builds for by default (`rustc -vV`'s `host:`), which
/// the solver is built for.
fn host_triple() -> Option<String> {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let output = Command::new(rustc).arg("-vV").output().ok()?;
    let text = String::from_utf8(output.stdout).ok()?;
    text.lines().find_map(|l| l.strip_prefix("host: ")).map(|h| h.trim().to_string())
}

#[cfg(test)]
mod tests {
    /// A crate whose dependencies have crates for other platforms only
    /// (clap's Windows console crates, which building galac never fetched
    /// here) has all it needs in the registry.
    #[test]
    fn the_registry_check_counts_this_platforms_crates() {
        let dir = std::env::temp_dir().join(format!("galac-registry-check-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("src")).expect("test crate");
        let manifest = "[package]\nname = \"registry_check\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
                        [dependencies]\nclap = \"4\"\n\n[workspace]\n";
        std::fs::write(dir.join("Cargo.toml"), manifest).expect("manifest");
        std::fs::write(dir.join("src/main.rs"), "fn main() {}\n").expect("main");
        let checked = super::registry_has_all(&dir);
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(checked, Ok(()));
    }
}
