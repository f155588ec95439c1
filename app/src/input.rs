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
