//! Durable file writes: a file is always either its old contents or all of the new ones.

use std::fs::File;
use std::io;
use std::path::Path;

/// Writes `bytes` to `path` so that `path` is always either its old contents or all of the
/// new ones, whatever happens (a crash, SIGKILL, a full disk): the bytes go to a temporary
/// file in the same directory, which is flushed to disk and then renamed over `path`; the
/// rename itself is made durable by syncing the directory.
///
/// The temporary file is named `.<name>.<random>.tmp`: hidden, and not a `*.bao` file, so
/// that `bao check DIR` never reads one. It is removed on every error; only a process killed
/// between its creation and the rename leaves it behind, and the target is then untouched.
/// The new file gets the permissions of the file it replaces, or 0644 for a new one.
///
/// # Errors
/// The temporary file cannot be created, written or synced, or the rename fails.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_file(path, bytes, Replace::Yes)
}

/// Whether [`write_file`] may replace a file that exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Replace {
    /// Replace it (as [`write_atomic`]).
    Yes,
    /// Never: if `path` exists, even one created by another process while the bytes were
    /// being written, fail with [`io::ErrorKind::AlreadyExists`] and leave it alone.
    No,
}

/// [`write_atomic`], with the choice whether an existing file may be replaced.
///
/// # Errors
/// The temporary file cannot be created, written or synced, or the rename fails (with
/// [`Replace::No`], also when `path` exists).
pub fn write_file(path: &Path, bytes: &[u8], replace: Replace) -> io::Result<()> {
    use std::io::Write;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut tmp = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".tmp")
        .tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    let perms = match std::fs::metadata(path) {
        Ok(m) => m.permissions(),
        Err(_) => new_file_permissions(tmp.as_file())?,
    };
    tmp.as_file().set_permissions(perms)?;
    tmp.as_file().sync_all()?;
    match replace {
        Replace::Yes => tmp.persist(path).map_err(|e| e.error)?,
        Replace::No => tmp.persist_noclobber(path).map_err(|e| e.error)?,
    };
    sync_dir(dir)
}

#[cfg(unix)]
fn new_file_permissions(_: &File) -> io::Result<std::fs::Permissions> {
    use std::os::unix::fs::PermissionsExt;
    Ok(std::fs::Permissions::from_mode(0o644))
}

#[cfg(not(unix))]
fn new_file_permissions(file: &File) -> io::Result<std::fs::Permissions> {
    file.metadata().map(|m| m.permissions())
}

/// Makes a rename in `dir` durable (a no-op where directories cannot be opened).
fn sync_dir(dir: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        File::open(dir)?.sync_all()?;
    }
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}
