//! `galac build FILE -o BINARY` (also `galac FILE -o BINARY`): compile a
//! game into a standalone solver binary.

use std::path::PathBuf;

use crate::cargo;
use crate::game_args::GameArgs;

#[derive(clap::Args, Debug)]
pub struct BuildArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Where to write the solver binary (default: the game's name, in the
    /// current directory, as rustc names its output).
    #[arg(short = 'o', long = "output", value_name = "BINARY")]
    pub output: Option<PathBuf>,
    /// Keep the generated crate in this directory (a readable crate you can
    /// inspect, change or ship).
    #[arg(long, value_name = "DIR")]
    pub emit_crate: Option<PathBuf>,
    /// Say nothing on standard error while building (no cargo progress bar,
    /// no `Compiling`/`Finished` lines); errors are still shown.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Output format of the report of what was built (`json`: one object
    /// on standard output with the binary's path, the game and the seconds).
    #[arg(long, value_enum, default_value_t = galac_app::Format::Text)]
    pub format: galac_app::Format,
}

/// The `schema` key of `build --format json`.
const SCHEMA: &str = "galac.build/1";

/// `galac prepare`: the one flag it has.
#[derive(clap::Args, Debug)]
pub struct PrepareArgs {
    /// Say nothing on standard error while building; errors are still shown.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// The game `prepare` compiles: a small shipped example without warnings
/// (every game's solver links the same crates, built the same way).
const PREPARE_GAME: &str = include_str!("../../examples/kuhn.gala");

/// `galac prepare`: compiles a tiny game and throws the binary away, so
/// that the crates every solver links (runtime, solvers, app and their
/// dependencies: most of a first build's minutes) are in the cache's
/// target directory and the next `galac FILE -o BIN` compiles only its
/// game. The README's set-up runs it.
pub fn prepare(args: &PrepareArgs) -> i32 {
    let dir = cargo::cache_dir().join(format!("prepare-{}", std::process::id()));
    let file = dir.join("kuhn.gala");
    if let Err(e) = std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(&file, PREPARE_GAME)) {
        eprintln!("error: cannot write `{}`: {e}", file.display());
        return 1;
    }
    let build = BuildArgs {
        game: GameArgs::of_file(file),
        output: Some(dir.join("solver")),
        emit_crate: None,
        quiet: args.quiet,
        format: galac_app::Format::Text,
    };
    let target = cargo::cache_dir().join("target");
    let what = format!("the crates every solver links into `{}` (cargo build --release)", target.display());
    let code = build_as(&build, false, Some(&what));
    let _ = std::fs::remove_dir_all(&dir);
    code
}

pub fn run(args: &BuildArgs, color: bool) -> i32 {
    build_as(args, color, None)
}

/// Builds as `run` does; `what`, when given, is what the progress lines
/// say is compiled (instead of "FILE into BINARY").
fn build_as(args: &BuildArgs, color: bool, what: Option<&str>) -> i32 {
    if !args.game.params.is_empty() {
        let solver = args.output.as_ref().map_or_else(|| "SOLVER".into(), |o| o.display().to_string());
        eprintln!("error: params are set when the solver runs: `{solver} solve --param ...`");
        return 2;
    }
    let loaded = match crate::game_args::check(&args.game, galac_app::building::DEFAULT_MAX_MEMORY_MIB, color) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let ir = &loaded.compiled.ir;
    let output = args.output.clone().unwrap_or_else(|| PathBuf::from(&ir.name));
    // Before minutes of compiling: an output that cannot be written (or is
    // the source itself) loses nothing yet.
    if let Err(e) = galac_app::check_writable(&output) {
        eprintln!("error: cannot write `{}`: {e}", output.display());
        return 1;
    }
    let source = args.game.file().file_name().map_or_else(|| "game.gala".into(), |n| n.to_string_lossy().into_owned());
    let game_rs = match loaded.compiled.emit_game(&source) {
        Ok(s) => s,
        Err(msg) => {
            eprintln!("error: {msg}");
            return 1;
        }
    };
    let dir = match &args.emit_crate {
        Some(d) if std::fs::read_dir(d).is_ok_and(|mut entries| entries.next().is_some()) => {
            eprintln!("error: `{}` exists and is not empty; --emit-crate needs a new or empty directory", d.display());
            return 2;
        }
        Some(d) => d.clone(),
        None => {
            cargo::cache_dir().join("crates").join(format!("{}-{}", cargo::crate_name(&ir.name), std::process::id()))
        }
    };
    let _lock = match cargo::lock_builds() {
        Ok(lock) => lock,
        Err(e) => {
            eprintln!("error: {e}");
            return 1;
        }
    };
    cargo::remove_orphaned_crates();
    let package = match cargo::write_crate(&dir, &ir.name, &source, &game_rs) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return 1;
        }
    };
    let started = std::time::Instant::now();
    if !args.quiet {
        match what {
            Some(what) => eprintln!("   Compiling {what}"),
            None => {
                eprintln!(
                    "   Compiling {} into {} (cargo build --release)",
                    args.game.file().display(),
                    output.display()
                )
            }
        }
    }
    let progress = {
        use std::io::IsTerminal;
        match (args.quiet, std::io::stderr().is_terminal()) {
            (true, _) => cargo::Show::Nothing,
            (false, true) => cargo::Show::Terminal,
            (false, false) => cargo::Show::Lines,
        }
    };
    let output = &output;
    let built = cargo::build_binary(&dir, &package, progress, |exe| {
        install(exe, output).map_err(|e| std::io::Error::new(e.kind(), format!("`{}`: {e}", output.display())))
    });
    if args.emit_crate.is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    }
    match built {
        Ok(()) => {
            let seconds = started.elapsed().as_secs_f64();
            if !args.quiet {
                let done = if what.is_some() { "the crates".to_string() } else { output.display().to_string() };
                eprintln!("    Finished {done} in {seconds:.1} s");
            }
            if args.format == galac_app::Format::Json {
                let json = BuildJson { schema: SCHEMA, game: &ir.name, binary: output.display().to_string(), seconds };
                return galac_app::emit_json(&json);
            }
            0
        }
        // The crate of a failed build is gone unless it was kept: say where
        // it is, or how to keep it, never a directory already deleted.
        Err(cargo::BuildError::Cargo { status, log, .. }) => {
            let keep = match &args.emit_crate {
                Some(d) => format!("the crate is in `{}`", d.display()),
                None => "rerun with --emit-crate DIR to keep the crate".to_string(),
            };
            eprintln!(
                "error: cargo failed to build the generated crate ({status}); this is a galac bug, \
                 please report it ({keep}):\n{log}"
            );
            1
        }
        Err(e) => {
            eprintln!("error: {e}");
            1
        }
    }
}

/// Copies the built `exe` to `output` (atomically), then makes a regular
/// file executable by whoever may read it, whatever mode a file it replaced
/// had. A device or a pipe (`-o /dev/null`) is written through and its mode
/// never touched.
fn install(exe: &std::path::Path, output: &std::path::Path) -> std::io::Result<()> {
    galac_app::write_atomically(output, |mut f| {
        let bytes = std::fs::read(exe)?;
        std::io::Write::write_all(&mut f, &bytes)
    })?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if output != std::path::Path::new("-") {
            let meta = std::fs::metadata(output)?;
            if meta.is_file() {
                let mode = meta.permissions().mode();
                std::fs::set_permissions(output, std::fs::Permissions::from_mode(mode | (mode & 0o444) >> 2))?;
            }
        }
    }
    Ok(())
}

#[cfg(all(test, unix))]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    fn mode(path: &std::path::Path) -> u32 {
        std::fs::metadata(path).unwrap().permissions().mode() & 0o7777
    }

    /// A new output and one replacing a non-executable file both end
    /// executable; a device keeps its mode.
    #[test]
    fn an_installed_solver_is_executable_and_a_device_keeps_its_mode() {
        let dir = std::env::temp_dir().join(format!("galac_install_{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let exe = dir.join("built");
        std::fs::write(&exe, b"#!/bin/sh\n").unwrap();
        let fresh = dir.join("fresh");
        crate::build::install(&exe, &fresh).unwrap();
        assert_eq!(mode(&fresh) & 0o100, 0o100, "{:o}", mode(&fresh));
        let old = dir.join("old");
        std::fs::write(&old, b"data").unwrap();
        std::fs::set_permissions(&old, std::fs::Permissions::from_mode(0o640)).unwrap();
        crate::build::install(&exe, &old).unwrap();
        assert_eq!(mode(&old), 0o750);
        assert_eq!(std::fs::read(&old).unwrap(), b"#!/bin/sh\n");
        let null = std::path::Path::new("/dev/null");
        let before = mode(null);
        if std::fs::OpenOptions::new().write(true).open(null).is_ok() {
            crate::build::install(&exe, null).unwrap();
            assert_eq!(mode(null), before);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// The `build --format json` answer.
#[derive(serde::Serialize)]
struct BuildJson<'a> {
    schema: &'static str,
    game: &'a str,
    /// The solver binary written.
    binary: String,
    seconds: f64,
}
galac_app::json_answers!(BuildJson<'_>);
