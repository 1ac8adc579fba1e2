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
    let mut file = AtomicFile::create(path, replace)?;
    file.tmp.write_all(bytes)?;
    file.commit()
}

/// The directory of `path`, where its temporary file goes and whose entry is synced.
fn dir_of(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
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

/// A file written piece by piece that appears at its path only whole, when
/// [`AtomicFile::commit`] is called: [`write_atomic`] for output too large to hold in memory
/// (an archive streamed game by game). Dropped without a commit, it leaves the path
/// untouched and removes its temporary file.
#[derive(Debug)]
pub struct AtomicFile {
    tmp: tempfile::NamedTempFile,
    path: std::path::PathBuf,
    replace: Replace,
}

impl AtomicFile {
    /// Starts a file for `path`: a temporary file in the same directory, named as
    /// [`write_atomic`] names it.
    ///
    /// # Errors
    /// The temporary file cannot be created.
    pub fn create(path: &Path, replace: Replace) -> io::Result<Self> {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let tmp = tempfile::Builder::new()
            .prefix(&format!(".{name}."))
            .suffix(".tmp")
            .tempfile_in(dir_of(path))?;
        Ok(Self {
            tmp,
            path: path.to_path_buf(),
            replace,
        })
    }

    /// Flushes the file to disk and renames it over its path (durably, as
    /// [`write_atomic`]).
    ///
    /// # Errors
    /// The file cannot be synced or renamed (with [`Replace::No`], also when the path
    /// exists).
    pub fn commit(self) -> io::Result<()> {
        let perms = match std::fs::metadata(&self.path) {
            Ok(m) => m.permissions(),
            Err(_) => new_file_permissions(self.tmp.as_file())?,
        };
        self.tmp.as_file().set_permissions(perms)?;
        self.tmp.as_file().sync_all()?;
        match self.replace {
            Replace::Yes => self.tmp.persist(&self.path).map_err(|e| e.error)?,
            Replace::No => self
                .tmp
                .persist_noclobber(&self.path)
                .map_err(|e| e.error)?,
        };
        sync_dir(dir_of(&self.path))
    }
}

impl io::Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.tmp.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.tmp.flush()
    }
}
