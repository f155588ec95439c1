//! `completions SHELL` and `man`: shell completion scripts (clap_complete)
//! and a man page (clap_mangen) for a command line, written to standard
//! output. galac and every compiled solver describe themselves this way.

/// The shells `completions` writes for.
pub use clap_complete::Shell;

/// Writes the completion script of `command` for `shell` to standard output.
pub fn completions(mut command: clap::Command, shell: Shell) -> i32 {
    let name = command.get_name().to_string();
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut command, name, &mut out);
    crate::emit(&String::from_utf8_lossy(&out));
    0
}

/// Writes the man page of `command` (roff) to standard output.
pub fn man(command: clap::Command) -> i32 {
    let mut out = Vec::new();
    match clap_mangen::Man::new(command).render(&mut out) {
        Ok(()) => {
            crate::emit(&String::from_utf8_lossy(&out));
            0
        }
        Err(e) => {
            eprintln!("error: cannot write the man page: {e}");
            1
        }
    }
}
