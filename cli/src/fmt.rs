//! `galac fmt FILE...`: rewrites each file in the canonical layout
//! (`galac_compiler::format`); `-` formats standard input to standard
//! output; `--check` changes nothing and lists the files that would change.

use std::path::PathBuf;

use galac_compiler::diagnostic::{render, SourceMap};

#[derive(clap::Args, Debug)]
pub struct FmtArgs {
    /// The .gala files to format, or `-` for standard input (written to
    /// standard output).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Change no file: list the files that are not formatted and exit 1 if
    /// there are any.
    #[arg(long)]
    pub check: bool,
}

/// Formats every file; returns the exit status: 0 done (or, with
/// `--check`, every file formatted), 1 a file that does not parse or (with
/// `--check`) is not formatted, 2 a file that cannot be read or written.
pub fn run(args: &FmtArgs, color: bool) -> i32 {
    let mut status = 0;
    for path in &args.files {
        status = status.max(one(path, args.check, color));
    }
    status
}

fn one(path: &std::path::Path, check: bool, color: bool) -> i32 {
    let stdin = path == std::path::Path::new("-");
    let bytes = match galac_app::read_bounded(path, galac_compiler::compile::MAX_SOURCE_BYTES as u64) {
        Ok(b) => b,
        Err(msg) => {
            eprintln!("error: {msg}");
            return 2;
        }
    };
    let name = if stdin { "<stdin>".to_string() } else { path.display().to_string() };
    let Ok(text) = String::from_utf8(bytes) else {
        eprintln!("error: `{name}` is not valid UTF-8");
        return 1;
    };
    let mut sources = SourceMap::new();
    let file = sources.add(name.clone(), text.clone());
    let formatted = match galac_compiler::format::format(file, &text) {
        Ok(f) => f,
        Err(diagnostics) => {
            eprint!("{}", render(&sources, &diagnostics, color));
            return 1;
        }
    };
    if check {
        if formatted == text {
            return 0;
        }
        println!("{name} is not formatted");
        return 1;
    }
    if stdin {
        galac_app::emit(&formatted);
        return 0;
    }
    if formatted == text {
        return 0;
    }
    match galac_app::write_atomically(path, |mut f| std::io::Write::write_all(&mut f, formatted.as_bytes())) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: cannot write `{name}`: {e}");
            2
        }
    }
}
