//! The game file and its params, shared by the commands that build a game
//! (`tree`, `solve`, `export`, `ir`, ...), and compiling it.

use std::path::PathBuf;

use galac_compiler::diagnostic::{render, Severity, SourceMap};
use galac_compiler::interp::Interp;
use galac_compiler::{compile, Compiled};

#[derive(clap::Args, Debug)]
pub struct GameArgs {
    /// The .gala file.
    #[arg(required = true)]
    file: Option<PathBuf>,
    /// Set a param: `--param cards=13` (repeatable); `--param oop_range=@oop.txt`
    /// reads the value from a file.
    #[arg(long = "param", value_name = "NAME=VALUE")]
    pub params: Vec<String>,
    /// Treat the game's warnings (unused names, unreachable statements,
    /// plays without payoff, useless reveals) as errors.
    #[arg(long)]
    pub deny_warnings: bool,
}

impl GameArgs {
    /// The arguments of the game in `file`.
    pub fn of_file(file: PathBuf) -> GameArgs {
        GameArgs { file: Some(file), params: Vec::new(), deny_warnings: false }
    }

    /// The .gala file: clap requires it of every command but `plot`, whose
    /// `curve` chart needs none (galac's `command()`); empty when absent.
    pub fn file(&self) -> &std::path::Path {
        self.file.as_deref().unwrap_or(std::path::Path::new(""))
    }
}

/// A compiled game with its param values.
pub struct Loaded {
    pub compiled: Compiled,
    pub values: Vec<galac_compiler::driver::ParamValue>,
}

/// Reads and compiles a game within `max_memory` MiB and applies its
/// param overrides; on failure prints why and returns the exit status (1
/// for errors in the game, 2 for a wrong call).
pub fn check(args: &GameArgs, max_memory: u64, color: bool) -> Result<Loaded, i32> {
    let bytes = read_source(args.file(), max_memory).map_err(|msg| {
        eprintln!("error: {msg}");
        2
    })?;
    let mut sources = SourceMap::new();
    let name = args.file().display().to_string();
    let compiled = match compile(&mut sources, &name, &bytes) {
        Ok(c) => c,
        Err(diagnostics) => {
            eprint!("{}", render(&sources, &diagnostics, color));
            let n = diagnostics.iter().filter(|d| d.severity == Severity::Error).count();
            eprintln!("error: `{name}` has {n} error{}", if n == 1 { "" } else { "s" });
            return Err(1);
        }
    };
    eprint!("{}", render(&sources, &compiled.warnings, color));
    if args.deny_warnings && !compiled.warnings.is_empty() {
        let n = compiled.warnings.len();
        eprintln!("error: `{name}` has {n} warning{} and --deny-warnings is set", if n == 1 { "" } else { "s" });
        return Err(1);
    }
    let values = galac_app::param_files(&args.params).and_then(|p| compiled.param_values(&p)).map_err(|msg| {
        eprintln!("error: {msg}");
        2
    })?;
    Ok(Loaded { compiled, values })
}

impl Loaded {
    /// A new interpreter of the game (one per thread that builds).
    pub fn interp(&self) -> Interp {
        self.compiled.interp(&self.values)
    }
}

/// Reads a source file that compiles within `max_memory` MiB (at
/// [`MAX_BYTES_PER_SOURCE_BYTE`] a byte), or explains why it cannot be read.
///
/// [`MAX_BYTES_PER_SOURCE_BYTE`]: galac_compiler::compile::MAX_BYTES_PER_SOURCE_BYTE
pub(crate) fn read_source(path: &std::path::Path, max_memory: u64) -> Result<Vec<u8>, String> {
    use galac_compiler::compile::{MAX_BYTES_PER_SOURCE_BYTE, MAX_SOURCE_BYTES};
    if path.is_dir() {
        return Err(format!("`{}` is a directory, not a .gala file", path.display()));
    }
    let bytes = galac_app::read_bounded(path, MAX_SOURCE_BYTES as u64)?;
    let need = bytes.len() as u64 * MAX_BYTES_PER_SOURCE_BYTE;
    if need > max_memory.saturating_mul(1 << 20) {
        return Err(format!(
            "`{}` is {} bytes: compiling it may need up to {} MiB ({MAX_BYTES_PER_SOURCE_BYTE} bytes a byte of source), \
             more than the memory limit ({max_memory} MiB, --max-memory) allows",
            path.display(),
            bytes.len(),
            need.div_ceil(1 << 20)
        ));
    }
    galac_app::protect(path);
    Ok(bytes)
}
