//! Helpers shared by the command-line tests: the path of a shipped example,
//! a run of the galac binary with text on its standard input, a stand-in
//! for cargo, and the switch of the slow tests.

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

/// Whether the slow tests run: `GALAC_SLOW_TESTS=1`, the switch CI sets
/// (README, "Run the tests"); read as `galac_tests::slow_tests` reads it
/// (that crate is not linked into this binary: it would be one more
/// compile of the test build).
pub fn slow_tests() -> bool {
    std::env::var("GALAC_SLOW_TESTS").is_ok_and(|v| v.trim() == "1")
}

/// Writes a line on standard error past libtest's capture, as
/// `galac_tests::announce` does: what a test skipped without
/// `GALAC_SLOW_TESTS=1`.
pub fn announce(line: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

/// A stand-in for cargo: its registry has every crate (`metadata`
/// succeeds); a build fails like a damaged cache (rustc's E0786) while
/// `$CARGO_TARGET_DIR/damaged` exists, else "builds" the package's binary
/// (with `FAKE_CARGO_SLOW`, taking a second over a step it names) and
/// records the `GALAC_HIGHS_LIB` it was given (`highs-lib` in its target
/// directory). The tests of galac's side of a build (the crate it writes, its cache, its
/// messages) run with it in seconds; the real nested cargo builds are slow
/// tests.
#[cfg(unix)]
const FAKE_CARGO: &str = r#"#!/bin/sh
if [ "$1" = metadata ]; then
    [ -n "$FAKE_CARGO_SLOW" ] && echo '{"resolve":{"nodes":[{},{},{}]}}'
    exit 0
fi
prev=""
for a in "$@"; do
    [ "$prev" = "--manifest-path" ] && manifest=$a
    prev=$a
done
name=$(sed -n 's/^name = "\(.*\)"/\1/p' "$manifest" | head -n 1)
if [ -e "$CARGO_TARGET_DIR/damaged" ] || [ -n "$FAKE_CARGO_ALWAYS_FAILS" ]; then
    echo "error[E0786]: found invalid metadata files for crate \`galac_runtime\`" >&2
    exit 101
fi
if [ -n "$FAKE_CARGO_SLOW" ]; then
    echo "   Compiling galac-solvers v0.1.0" >&2
    sleep 1
fi
mkdir -p "$CARGO_TARGET_DIR/release"
printf '%s' "$GALAC_HIGHS_LIB" > "$CARGO_TARGET_DIR/highs-lib"
printf '#!/bin/sh\necho solver\n' > "$CARGO_TARGET_DIR/release/$name"
chmod +x "$CARGO_TARGET_DIR/release/$name"
"#;

/// Writes [`FAKE_CARGO`] as the executable `dir/fake-cargo` and returns its
/// path (for `CARGO`).
#[cfg(unix)]
pub fn fake_cargo(dir: &std::path::Path) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let cargo = dir.join("fake-cargo");
    std::fs::write(&cargo, FAKE_CARGO).expect("write the fake cargo");
    std::fs::set_permissions(&cargo, std::fs::Permissions::from_mode(0o755)).expect("make it executable");
    cargo
}
