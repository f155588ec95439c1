//! Reading input files with a bound: a path like `/dev/zero` (or a huge
//! file) must give an error, not fill the memory before any size check.

use std::io::Read;
use std::path::Path;

use galac_runtime::memory::mib_down;

/// Reads at most `max_bytes` of `path` (`-`: standard input); a longer
/// file is an error that says the limit. Errors name the file and say why
/// in plain words.
pub fn read_bounded(path: &Path, max_bytes: u64) -> Result<Vec<u8>, String> {
    if path == Path::new("-") {
        let mut bytes = Vec::new();
        std::io::stdin()
            .take(max_bytes + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| format!("cannot read standard input: {e}"))?;
        if bytes.len() as u64 > max_bytes {
            return Err(format!("standard input holds more than {} MiB, the most galac reads", mib_down(max_bytes)));
        }
        return Ok(bytes);
    }
    if path.is_dir() {
        return Err(format!("`{}` is a directory, not a file", path.display()));
    }
    let cannot = |e: std::io::Error| {
        let why = match e.kind() {
            std::io::ErrorKind::NotFound => "no such file".to_string(),
            std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
            _ => e.to_string(),
        };
        format!("cannot read `{}`: {why}", path.display())
    };
    let file = std::fs::File::open(path).map_err(cannot)?;
    let mut bytes = Vec::new();
    file.take(max_bytes + 1).read_to_end(&mut bytes).map_err(cannot)?;
    if bytes.len() as u64 > max_bytes {
        return Err(format!("`{}` is larger than {} MiB, the most galac reads", path.display(), mib_down(max_bytes)));
    }
    Ok(bytes)
}

/// The most bytes a param's file may hold (`--param name=@path`).
const PARAM_FILE_BYTES: u64 = 1 << 20;

/// `--param` overrides with each value written `@path` replaced by the
/// text of that file (trimmed), so that a long value, a range exported by
/// another tool, lives in a file: `--param oop_range=@oop.txt`. No value
/// of a param's kinds (int, bool, cards, range) begins with `@`. A file
/// that cannot be read, or is not UTF-8 text, is an error naming it.
pub fn param_files(args: &[String]) -> Result<Vec<String>, String> {
    args.iter()
        .map(|arg| {
            let Some((name, value)) = arg.split_once('=') else { return Ok(arg.clone()) };
            let Some(path) = value.trim().strip_prefix('@') else { return Ok(arg.clone()) };
            let fail = |why: String| format!("param override `{arg}`: {why}");
            let bytes = read_bounded(Path::new(path), PARAM_FILE_BYTES).map_err(fail)?;
            let text = String::from_utf8(bytes).map_err(|_| fail(format!("`{path}` is not UTF-8 text")))?;
            Ok(format!("{name}={}", text.trim()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::param_files;

    /// A value written `@path` is the file's text; others are kept; a
    /// missing file is named.
    #[test]
    fn a_param_written_at_a_path_is_read_from_the_file() {
        let dir = std::env::temp_dir().join(format!("galac-param-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("oop.txt");
        std::fs::write(&file, "QQ-22,\nAKs:0.5\n").unwrap();
        let args = [format!("oop_range=@{}", file.display()), "pot=200".to_string()];
        let got = param_files(&args).unwrap();
        assert_eq!(got, ["oop_range=QQ-22,\nAKs:0.5", "pot=200"]);
        let missing = format!("ip_range=@{}", dir.join("none.txt").display());
        let err = param_files(std::slice::from_ref(&missing)).unwrap_err();
        assert_eq!(
            err,
            format!("param override `{missing}`: cannot read `{}`: no such file", dir.join("none.txt").display())
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
