//! The record file of `bao record`: the record in memory written over the text on disk
//! ([`write_record_over`]: what did not change keeps its bytes, the rest is written in the
//! record's notation), kept valid on disk at every moment.
//!
//! A change that only adds text at the end (a ply, a glyph or a comment replaces the final
//! ` *` with ` A6<* *`; the next game of a match follows the last result) is written in place
//! with one `write` at the offset where the old and the new text part, then `fsync`'ed. Such a write is all or nothing for a killed process
//! when it stays inside one page of the page cache, so it is done in place only then; every
//! other change (undo, tags, a result, a write across a page boundary) goes to a temporary
//! file in the same directory, which is `fsync`'ed and renamed over the record, and the
//! directory is `fsync`'ed after the rename.

use std::fs::OpenOptions;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

use bao_notation::{write_record, write_record_over, Record, WriteOptions};

/// The page size assumed for writes in place (the smallest page of the platforms served).
const PAGE: usize = 4096;

/// The most an append overwrites of the old text: the final ` *` and its line end.
const TAIL: usize = 3;

/// How a change reached the disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Written {
    /// Nothing changed.
    Nothing,
    /// Written in place at the end of the file, then `fsync`'ed.
    Appended,
    /// Rewritten through a temporary file and a rename.
    Rewritten,
}

/// The record file and the text it holds.
#[derive(Debug)]
pub(crate) struct Store {
    path: PathBuf,
    /// What the file holds now (`None`: it does not exist yet).
    text: Option<String>,
    /// Whether `text` is the file's bytes (not a file decoded from Latin-1 or with a BOM,
    /// which the first save rewrites whole).
    exact: bool,
}

impl Store {
    /// A store for `path`, whose current content is `text` (`None` when the file does not
    /// exist). Checks that the file and its directory can be written, so that a session
    /// never starts on a file it could not save.
    /// `exact`: `text` is the file's bytes as they are (not decoded from another encoding).
    pub(crate) fn open(path: &Path, text: Option<String>, exact: bool) -> std::io::Result<Self> {
        if text.is_some() {
            OpenOptions::new().append(true).open(path)?;
        }
        // Undo and tags need a temporary file next to the record. Its random name stays out
        // of the message.
        let dir = dir_of(path);
        std::fs::read_dir(dir)?;
        tempfile::NamedTempFile::new_in(dir).map_err(without_path)?;
        Ok(Self {
            path: path.to_owned(),
            text,
            exact,
        })
    }

    /// The text on disk (empty before the file exists).
    pub(crate) fn text(&self) -> &str {
        self.text.as_deref().unwrap_or("")
    }

    /// Writes `record` over the text on disk, appending in place when possible.
    pub(crate) fn save(&mut self, record: &Record) -> std::io::Result<Written> {
        let Some(old) = self.text.as_deref() else {
            let new = write_record(record, &WriteOptions::default());
            self.rewrite(&new)?;
            return Ok(Written::Rewritten);
        };
        let new = write_record_over(old, record, &WriteOptions::default());
        if !self.exact {
            self.rewrite(&new)?;
            self.exact = true;
            return Ok(Written::Rewritten);
        }
        if new == old {
            return Ok(Written::Nothing);
        }
        let at = common_prefix(old.as_bytes(), new.as_bytes());
        // In place only when the old text loses no more than its final ` *` and line end,
        // and the write stays inside one page.
        let in_place =
            new.len() >= old.len() && old.len() - at <= TAIL && at / PAGE == (new.len() - 1) / PAGE;
        let written = if in_place {
            let file = OpenOptions::new().write(true).open(&self.path)?;
            file.write_all_at(&new.as_bytes()[at..], at as u64)?;
            file.sync_data()?;
            Written::Appended
        } else {
            self.rewrite(&new)?;
            Written::Rewritten
        };
        self.text = Some(new);
        Ok(written)
    }

    /// Replaces the file atomically with `text` ([`crate::durable::write_atomic`]: a temporary
    /// file, `fsync`, a rename, then the directory `fsync`'ed).
    fn rewrite(&mut self, text: &str) -> std::io::Result<()> {
        crate::durable::write_atomic(&self.path, text.as_bytes())?;
        self.text = Some(text.to_owned());
        Ok(())
    }
}

/// tempfile's error without the random name of the temporary file.
fn without_path(e: std::io::Error) -> std::io::Error {
    match e.raw_os_error() {
        Some(code) => std::io::Error::from_raw_os_error(code),
        None => std::io::Error::new(
            e.kind(),
            format!("cannot create a file in its directory ({})", e.kind()),
        ),
    }
}

/// The directory holding `path` (`.` for a bare file name).
fn dir_of(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// The length of the common prefix of two byte strings (the offset where they differ).
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(text: &str) -> Record {
        text.parse().unwrap()
    }

    #[test]
    fn a_ply_is_appended_in_place_and_undo_rewrites() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.bao");
        let mut store = Store::open(&path, None, true).unwrap();
        assert_eq!(
            store.save(&record("[Event \"x\"]\n\n*\n")).unwrap(),
            Written::Rewritten
        );
        assert_eq!(
            store.save(&record("[Event \"x\"]\n\n1. A6<* *\n")).unwrap(),
            Written::Appended
        );
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "[Event \"x\"]\n\n1. A6<* *\n"
        );
        assert_eq!(
            store.save(&record("[Event \"x\"]\n\n1. A6<* *\n")).unwrap(),
            Written::Nothing
        );
        assert_eq!(
            store.save(&record("[Event \"x\"]\n\n*\n")).unwrap(),
            Written::Rewritten
        );
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "[Event \"x\"]\n\n*\n"
        );
        // A tag changes text far from the end: a rewrite, though the text grows.
        assert_eq!(
            store.save(&record("[Event \"xy\"]\n\n*\n")).unwrap(),
            Written::Rewritten
        );
    }

    #[test]
    fn a_write_across_a_page_boundary_is_a_rewrite() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.bao");
        let mut store = Store::open(&path, None, true).unwrap();
        let canonical = |r: &Record| write_record(r, &WriteOptions::default());
        // A comment long enough that the final `*` sits just before the page boundary.
        let game = |n: usize, moves: &str| {
            record(&format!(
                "[Event \"x\"]\n\n{{{}}} {moves}*\n",
                "x".repeat(n)
            ))
        };
        let n = (1..PAGE)
            .find(|&n| canonical(&game(n, "")).len() == PAGE + 1)
            .unwrap();
        store.save(&game(n, "")).unwrap();
        let after = game(n, "1. A6<* ");
        assert_eq!(store.save(&after).unwrap(), Written::Rewritten);
        // The ply goes on a line of its own after the long comment (the result keeps its
        // line).
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.ends_with("}\n1. A6<*\n*\n"), "{text}");
        assert_eq!(record(&text), after);
        // Past the boundary, appending in place works again.
        let more = game(n, "1. A6<* a5< ");
        assert_eq!(store.save(&more).unwrap(), Written::Appended);
        assert!(std::fs::read_to_string(&path)
            .unwrap()
            .ends_with("}\n1. A6<* a5<\n*\n"));
    }

    #[test]
    fn an_unwritable_directory_is_refused_before_anything_is_written() {
        let path = Path::new("/nonexistent-dir-for-bao/g.bao");
        assert!(Store::open(path, None, true).is_err());
    }
}
