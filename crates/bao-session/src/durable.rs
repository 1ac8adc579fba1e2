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
/// What `path` names is kept: a symbolic link stays a link, and the file it points to is
/// the one replaced; a path that is not a file (`/dev/null`, `/dev/stdout`, a named pipe)
/// is written into directly, as a shell redirection would (nothing there to replace, and
/// renaming over a device would take it away).
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
    file.write_all(bytes)?;
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
    sink: Sink,
    path: std::path::PathBuf,
    replace: Replace,
}

/// Where an [`AtomicFile`]'s bytes go.
#[derive(Debug)]
enum Sink {
    /// A temporary file beside the target, renamed over it at the commit.
    Temp(tempfile::NamedTempFile),
    /// The target itself: a path that is not a regular file (a device, a named pipe).
    Direct(File),
}

impl AtomicFile {
    /// Starts a file for `path`: a temporary file in the same directory, named as
    /// [`write_atomic`] names it (in the directory of the file a symbolic link points to,
    /// for a link); or, for a path that exists and is neither a file nor a directory, that
    /// path itself, opened for writing ([`write_atomic`] says why).
    ///
    /// # Errors
    /// The temporary file cannot be created (or the path opened); with [`Replace::No`],
    /// a path that is not a file exists.
    pub fn create(path: &Path, replace: Replace) -> io::Result<Self> {
        // A link is followed to the file it names (a dangling one is replaced itself).
        let path = match std::fs::symlink_metadata(path) {
            Ok(m) if m.file_type().is_symlink() => {
                std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
            }
            _ => path.to_path_buf(),
        };
        if let Ok(m) = std::fs::metadata(&path) {
            if !m.is_file() && !m.is_dir() {
                if replace == Replace::No {
                    return Err(io::Error::new(
                        io::ErrorKind::AlreadyExists,
                        format!("{} exists", path.display()),
                    ));
                }
                let file = std::fs::OpenOptions::new().write(true).open(&path)?;
                return Ok(Self {
                    sink: Sink::Direct(file),
                    path,
                    replace,
                });
            }
        }
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let tmp = tempfile::Builder::new()
            .prefix(&format!(".{name}."))
            .suffix(".tmp")
            .tempfile_in(dir_of(&path))?;
        Ok(Self {
            sink: Sink::Temp(tmp),
            path,
            replace,
        })
    }

    /// Flushes the file to disk and renames it over its path (durably, as
    /// [`write_atomic`]); a path written directly is only flushed.
    ///
    /// # Errors
    /// The file cannot be synced or renamed (with [`Replace::No`], also when the path
    /// exists).
    pub fn commit(self) -> io::Result<()> {
        let tmp = match self.sink {
            Sink::Direct(mut file) => return io::Write::flush(&mut file),
            Sink::Temp(tmp) => tmp,
        };
        let perms = match std::fs::metadata(&self.path) {
            Ok(m) => m.permissions(),
            Err(_) => new_file_permissions(tmp.as_file())?,
        };
        tmp.as_file().set_permissions(perms)?;
        tmp.as_file().sync_all()?;
        match self.replace {
            Replace::Yes => tmp.persist(&self.path).map_err(|e| e.error)?,
            Replace::No => tmp.persist_noclobber(&self.path).map_err(|e| e.error)?,
        };
        sync_dir(dir_of(&self.path))
    }
}

impl io::Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.sink {
            Sink::Temp(tmp) => tmp.write(buf),
            Sink::Direct(file) => file.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.sink {
            Sink::Temp(tmp) => tmp.flush(),
            Sink::Direct(file) => file.flush(),
        }
    }
}
