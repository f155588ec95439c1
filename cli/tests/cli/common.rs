//! Helpers shared by the command-line tests: the path of a shipped example
//! and a run of the galac binary with text on its standard input.

use std::io::Write;
use std::process::{Command, Stdio};

/// The path of `examples/kuhn.gala`.
pub fn kuhn() -> String {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/kuhn.gala").display().to_string()
}

/// Runs galac with `input` on standard input: (status, stdout, stderr).
pub fn galac(args: &[&str], input: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_galac"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run galac");
    if let Some(mut stdin) = child.stdin.take() {
        // galac may stop reading early (a wrong move): a closed pipe is fine.
        let _ = stdin.write_all(input.as_bytes());
    }
    let out = child.wait_with_output().expect("galac ends");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
}

/// The path of a shipped example, `examples/NAME`.
pub fn example(name: &str) -> String {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples").join(name).display().to_string()
}

/// The path of a game written for these tests, `cli/tests/games/NAME`.
pub fn test_game(name: &str) -> String {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games").join(name).display().to_string()
}
