//! Writing output files so that a reader never sees a partial one: a
//! regular file is replaced atomically (a temporary file in the same
//! directory, then a rename); a device or a pipe is written through, since
//! replacing `/dev/null` with a regular file would break the machine.
//!
//! A symlink is followed: the file it points to is replaced and the link
//! stays a link. A replaced file keeps its permissions. A file the run
//! reads as its game's source ([`protect`]) is never replaced: an output
//! path that names it by mistake (`--out kuhn.gala`) would lose the program.

use std::fs::{self, File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The files no output may replace: (device, inode) on Unix, the
/// canonical path elsewhere.
static PROTECTED: Mutex<Vec<FileKey>> = Mutex::new(Vec::new());

#[cfg(unix)]
type FileKey = (u64, u64);
#[cfg(not(unix))]
type FileKey = PathBuf;

/// Who the file at `path` is, whatever name reaches it (a link, `./x`).
fn file_key(path: &Path) -> Option<FileKey> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
    }
    #[cfg(not(unix))]
    {
        fs::canonicalize(path).ok()
    }
}

/// Marks `path` (a game's source this run reads) as one that
/// [`write_atomically`] and [`check_writable`] refuse to replace.
pub fn protect(path: &Path) {
    if let Some(key) = file_key(path) {
        PROTECTED.lock().unwrap_or_else(|e| e.into_inner()).push(key);
    }
}

/// Refuses `path` if it is a protected file.
fn refuse_protected(path: &Path) -> io::Result<()> {
    let protected = PROTECTED.lock().unwrap_or_else(|e| e.into_inner());
    if !protected.is_empty() && file_key(path).is_some_and(|key| protected.contains(&key)) {
        return Err(io::Error::other("it is the game's source file, which this run reads; choose another path"));
    }
    Ok(())
}

/// What writes a file's contents through its handle.
type Writer<'a> = Box<dyn FnOnce(&File) -> io::Result<()> + 'a>;

/// Writes `path` through `write` (which buffers its output itself); `-` is
/// standard output. On any error a regular file is left as it was and no
/// temporary file remains; a write error on a device (such as ENOSPC on
/// `/dev/full`) is returned.
pub fn write_atomically(path: &Path, write: impl FnOnce(&File) -> io::Result<()>) -> io::Result<()> {
    // Boxed: the work below is compiled once, not for each caller's closure
    // (callers generic over the game are compiled in each game's crate).
    write_boxed(path, Box::new(write))
}

/// [`write_atomically`] for any writer.
fn write_boxed(path: &Path, write: Writer<'_>) -> io::Result<()> {
    if path == Path::new("-") {
        return write_stdout(write);
    }
    let path = follow_symlinks(path)?;
    refuse_protected(&path)?;
    match fs::metadata(&path) {
        Ok(meta) if meta.is_dir() => Err(io::Error::other("it is a directory")),
        Ok(meta) if !meta.is_file() => {
            let file = OpenOptions::new().write(true).open(&path)?;
            write(&file)
        }
        Ok(meta) => replace(&path, Some(meta.permissions()), write),
        Err(e) if e.kind() == io::ErrorKind::NotFound => replace(&path, None, write),
        Err(e) => Err(e),
    }
}

/// Writes standard output through a `File` on its descriptor, after what
/// was printed before.
#[cfg(unix)]
fn write_stdout(write: Writer<'_>) -> io::Result<()> {
    use io::Write;
    use std::os::fd::AsFd;
    io::stdout().flush()?;
    let file = File::from(io::stdout().as_fd().try_clone_to_owned()?);
    write(&file)
}

/// Elsewhere: the console device.
#[cfg(not(unix))]
fn write_stdout(write: Writer<'_>) -> io::Result<()> {
    use io::Write;
    io::stdout().flush()?;
    write(&OpenOptions::new().write(true).open("CONOUT$")?)
}

/// The path a chain of symlinks ends at (which need not exist yet).
/// Checks, before long work starts, that [`write_atomically`] will be
/// able to write `path`: a temporary file can be made beside a regular file
/// (and is removed at once). A device or a pipe is not opened (a pipe's
/// open would wait for its reader). Nothing at `path` changes.
pub fn check_writable(path: &Path) -> io::Result<()> {
    if path == Path::new("-") {
        return Ok(());
    }
    let path = follow_symlinks(path)?;
    refuse_protected(&path)?;
    match fs::metadata(&path) {
        Ok(meta) if meta.is_dir() => return Err(io::Error::other("it is a directory")),
        Ok(meta) if !meta.is_file() => return Ok(()),
        _ => {}
    }
    let name = path.file_name().ok_or_else(|| io::Error::other("not a file name"))?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let (tmp, file) = create_temp(dir, &name.to_string_lossy())?;
    drop(file);
    let removed = fs::remove_file(&tmp);
    crate::signals::untrack_temp(&tmp);
    removed
}

fn follow_symlinks(path: &Path) -> io::Result<PathBuf> {
    let mut path = path.to_path_buf();
    for _ in 0..40 {
        match fs::symlink_metadata(&path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let target = fs::read_link(&path)?;
                path = match path.parent() {
                    Some(dir) if target.is_relative() => dir.join(target),
                    _ => target,
                };
            }
            _ => return Ok(path),
        }
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

/// Writes a temporary file beside `path`, gives it `permissions`, then
/// renames it over `path`.
fn replace(path: &Path, permissions: Option<fs::Permissions>, write: Writer<'_>) -> io::Result<()> {
    let name = path.file_name().ok_or_else(|| io::Error::other("not a file name"))?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    remove_stale_temps(dir, &name.to_string_lossy());
    let (tmp, file) = create_temp(dir, &name.to_string_lossy())?;
    let result = (|| {
        write(&file)?;
        if let Some(permissions) = permissions {
            file.set_permissions(permissions)?;
        }
        file.sync_all()?;
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    crate::signals::untrack_temp(&tmp);
    result
}

/// A scratch file beside `path` (in its directory, so on its disk), for
/// what is written while `path` is: on Unix its name is removed at once
/// (the open file lives on without it), so nothing is left behind however
/// the process ends; elsewhere it is removed when dropped.
pub fn scratch_beside(path: &Path) -> io::Result<ScratchFile> {
    let name = path.file_name().ok_or_else(|| io::Error::other("not a file name"))?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let (tmp, file) = create_temp(dir, &format!("{}.part", name.to_string_lossy()))?;
    let path = if cfg!(unix) && fs::remove_file(&tmp).is_ok() {
        crate::signals::untrack_temp(&tmp);
        None
    } else {
        Some(tmp)
    };
    Ok(ScratchFile { file, path })
}

/// A file made by [`scratch_beside`].
pub struct ScratchFile {
    file: File,
    /// Its name, if it still has one (removed on drop).
    path: Option<PathBuf>,
}

impl Drop for ScratchFile {
    fn drop(&mut self) {
        if let Some(path) = &self.path {
            let _ = fs::remove_file(path);
            crate::signals::untrack_temp(path);
        }
    }
}

impl io::Read for ScratchFile {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.file.read(buf)
    }
}

impl io::Write for ScratchFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file.write(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

impl io::Seek for ScratchFile {
    fn seek(&mut self, to: io::SeekFrom) -> io::Result<u64> {
        self.file.seek(to)
    }
}

/// Removes `.NAME.PID.N.tmp` files left in `dir` by writers that were
/// killed (their process is gone), so an interrupted run leaves nothing
/// behind for long. Best effort: what cannot be removed stays.
fn remove_stale_temps(dir: &Path, name: &str) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    let prefix = format!(".{name}.");
    for entry in entries.flatten() {
        let file = entry.file_name().to_string_lossy().into_owned();
        let Some(rest) = file.strip_prefix(&prefix).and_then(|r| r.strip_suffix(".tmp")) else { continue };
        let Some((pid, n)) = rest.split_once('.') else { continue };
        if n.parse::<u32>().is_ok() && pid.parse::<u32>().is_ok_and(|pid| !process_alive(pid)) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Whether a process of this id runs (on Linux; elsewhere it is assumed to,
/// so nothing is removed).
pub fn process_alive(pid: u32) -> bool {
    !cfg!(target_os = "linux") || Path::new("/proc").join(pid.to_string()).exists()
}

/// Creates `.NAME.PID.N.tmp` in `dir`, with the first N not already taken.
fn create_temp(dir: &Path, name: &str) -> io::Result<(PathBuf, File)> {
    let pid = std::process::id();
    let mut n = 0u32;
    loop {
        let tmp = dir.join(format!(".{name}.{pid}.{n}.tmp"));
        // Readable too: a tree saved as it is built patches blocks it wrote.
        match OpenOptions::new().read(true).write(true).create_new(true).open(&tmp) {
            Ok(f) => {
                crate::signals::track_temp(&tmp);
                return Ok((tmp, f));
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && n < 100 => n += 1,
            Err(e) => return Err(e),
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::write_atomically;
    use std::fs;
    use std::io::Write;
    use std::os::unix::fs::{FileTypeExt, PermissionsExt};

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("galac-output-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("scratch dir");
        dir
    }

    /// A pipe is written through (first, so that a regression replaces a
    /// pipe of the test's own, not a device); then `/dev/full`'s ENOSPC is
    /// reported and the device stays.
    #[test]
    fn devices_and_pipes_are_written_through_not_replaced() {
        let dir = scratch("fifo");
        let fifo = dir.join("pipe");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs");
        assert!(made.success());
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || fs::read(fifo).expect("read the pipe"))
        };
        write_atomically(&fifo, |mut f| f.write_all(b"through")).expect("writes to the pipe");
        assert_eq!(reader.join().expect("reader"), b"through");
        assert!(fs::symlink_metadata(&fifo).expect("exists").file_type().is_fifo(), "the pipe was replaced");
        let full = write_atomically("/dev/full".as_ref(), |mut f| f.write_all(b"x").and_then(|_| f.flush()));
        assert_eq!(full.map_err(|e| e.raw_os_error()), Err(Some(28)), "ENOSPC from /dev/full");
        assert!(fs::metadata("/dev/full").expect("exists").file_type().is_char_device());
        let _ = fs::remove_dir_all(&dir);
    }

    /// A temporary file of a killed writer (a process id that cannot exist)
    /// is removed by the next write beside it; a live one's is not.
    #[test]
    fn temporaries_of_killed_writers_are_removed() {
        let dir = scratch("stale");
        let stale = dir.join(".out.efg.4194399.0.tmp");
        let live = dir.join(format!(".out.efg.{}.7.tmp", std::process::id()));
        fs::write(&stale, "partial").expect("write");
        fs::write(&live, "in progress").expect("write");
        write_atomically(&dir.join("out.efg"), |mut f| f.write_all(b"done")).expect("writes");
        assert!(!stale.exists() || !cfg!(target_os = "linux"));
        assert!(live.exists());
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_replaced_file_keeps_its_permissions_and_a_symlink_stays() {
        let dir = scratch("perm");
        let file = dir.join("out.json");
        fs::write(&file, "old").expect("write");
        fs::set_permissions(&file, fs::Permissions::from_mode(0o640)).expect("chmod");
        let link = dir.join("link.json");
        std::os::unix::fs::symlink("out.json", &link).expect("symlink");
        write_atomically(&link, |mut f| f.write_all(b"new")).expect("writes");
        assert!(fs::symlink_metadata(&link).expect("link").file_type().is_symlink());
        assert_eq!(fs::read_to_string(&file).expect("read"), "new");
        assert_eq!(fs::metadata(&file).expect("file").permissions().mode() & 0o777, 0o640);
        let _ = fs::remove_dir_all(&dir);
    }

    fn entries(dir: &std::path::Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .expect("readable")
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn outputs_are_checked_without_being_touched() {
        let dir = scratch("check");
        let file = dir.join("out.json");
        assert!(super::check_writable(&file).is_ok());
        assert!(!file.exists(), "the check makes no file");
        assert!(super::check_writable(&dir.join("missing").join("out.json")).is_err());
        assert!(super::check_writable(&dir).is_err(), "a directory");
        assert!(super::check_writable(std::path::Path::new("/dev/null")).is_ok());
        assert!(entries(&dir).is_empty(), "{:?}", entries(&dir));
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary() {
        let dir = scratch("fail");
        let path = dir.join("out.efg");
        fs::write(&path, "old").expect("writable");
        let result = write_atomically(&path, |mut f| {
            f.write_all(b"partial")?;
            Err(std::io::Error::other("boom"))
        });
        assert!(result.is_err());
        assert_eq!(fs::read_to_string(&path).expect("still there"), "old");
        assert_eq!(entries(&dir), ["out.efg"]);
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_successful_write_replaces_the_file() {
        let dir = scratch("ok");
        let path = dir.join("out.dot");
        fs::write(&path, "old").expect("writable");
        write_atomically(&path, |mut f| f.write_all(b"new")).expect("writes");
        assert_eq!(fs::read_to_string(&path).expect("written"), "new");
        assert_eq!(entries(&dir), ["out.dot"]);
        assert!(write_atomically(&dir, |_| Ok(())).is_err(), "a directory is not a file");
        let _ = fs::remove_dir_all(&dir);
    }
}
