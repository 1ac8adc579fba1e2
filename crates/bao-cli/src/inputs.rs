//! The inputs of the commands that read many records (`bao check`, the archive commands,
//! `bao export abstractplay`): files, the `*.bao` files under directories, `-` for stdin
//! ([`collect`]); one opened for streaming ([`open`]); and the choice between reading an
//! input whole and streaming it ([`head_or_stream`]). A command's single input file is a
//! [`crate::io::Input`].

use std::io::Read;
use std::path::{Path, PathBuf};

use bao_validate::stream;

use crate::error::CliError;

/// One input to check.
#[derive(Debug, Clone)]
pub(crate) enum Source {
    Stdin,
    File(PathBuf),
}

/// The inputs named: files, the `*.bao` files under directories (sorted), `-` for stdin.
pub(crate) fn collect(paths: &[String]) -> Result<Vec<Source>, CliError> {
    let mut out = Vec::new();
    for p in paths {
        if p == "-" {
            out.push(Source::Stdin);
            continue;
        }
        let path = PathBuf::from(p);
        if path.is_dir() {
            let mut found = Vec::new();
            walk(&path, &mut found)
                .map_err(|e| CliError::io(format!("cannot read directory {p}"), e))?;
            found.sort();
            out.extend(found.into_iter().map(Source::File));
        } else {
            out.push(Source::File(path));
        }
    }
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            walk(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "bao") {
            out.push(path);
        }
    }
    Ok(())
}

/// Reads up to [`stream::STREAM_ABOVE`] bytes of an input: all of a small input
/// (`Ok(bytes)`, read and checked whole), or a large input to stream (`Err(input)`, its
/// first bytes put back in front).
///
/// # Errors
/// A read error of the input.
pub(crate) fn head_or_stream(
    mut input: Box<dyn Read + Send>,
) -> std::io::Result<Result<Vec<u8>, Box<dyn Read + Send>>> {
    let mut head = Vec::new();
    (&mut input)
        .take(stream::STREAM_ABOVE as u64 + 1)
        .read_to_end(&mut head)?;
    if head.len() <= stream::STREAM_ABOVE {
        Ok(Ok(head))
    } else {
        Ok(Err(Box::new(std::io::Cursor::new(head).chain(input))))
    }
}

/// An input opened for streaming, with its name.
pub(crate) fn open(src: &Source) -> Result<(String, Box<dyn Read + Send>), CliError> {
    Ok(match src {
        Source::Stdin => ("stdin".to_owned(), Box::new(std::io::stdin())),
        Source::File(p) => {
            let name = p.display().to_string();
            let f = std::fs::File::open(p)
                .map_err(|e| CliError::io(format!("cannot read {name}"), e))?;
            (name, Box::new(f))
        }
    })
}
