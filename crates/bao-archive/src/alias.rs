//! Player-name aliases (`--alias FILE`): one person, several spellings.
//!
//! The file holds one person a line: the spellings separated by `|`, the first the name the
//! statistics show (`Ali Juma | A. Juma | Ali J.`). Spellings are compared trimmed and
//! without regard to case; blank lines and lines starting with `#` are skipped.
//!
//! ```
//! use bao_archive::alias::Aliases;
//!
//! let a: Aliases = "# the club's players\nAli Juma | A. Juma | ali j.\n".parse().unwrap();
//! assert_eq!(a.name("ALI J."), "Ali Juma");
//! assert_eq!(a.name("Bi Mwanaisha"), "Bi Mwanaisha");
//! ```

use std::collections::HashMap;
use std::str::FromStr;

/// The spellings of each person, each mapped to the person's name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Aliases {
    names: HashMap<String, String>,
}

/// A line of an alias file that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct AliasError {
    /// The line, from 1.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl Aliases {
    /// The name of the person spelled `spelling` (trimmed): the first spelling of its line,
    /// or `spelling` itself (trimmed) when no line names it.
    #[must_use]
    pub fn name<'a>(&'a self, spelling: &'a str) -> &'a str {
        let s = spelling.trim();
        self.names.get(&s.to_lowercase()).map_or(s, String::as_str)
    }

    /// Whether no alias is given.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

impl FromStr for Aliases {
    type Err = AliasError;

    fn from_str(text: &str) -> Result<Self, AliasError> {
        let mut names: HashMap<String, String> = HashMap::new();
        for (i, line) in text.lines().enumerate() {
            let line_no = i + 1;
            let t = line.trim().trim_start_matches('\u{feff}');
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            let spellings: Vec<&str> = t.split('|').map(str::trim).collect();
            if spellings.iter().any(|s| s.is_empty()) {
                return Err(AliasError {
                    line: line_no,
                    message: "an empty spelling (write `Name | spelling | spelling`)".to_owned(),
                });
            }
            let name = spellings[0].to_owned();
            for s in spellings {
                let key = s.to_lowercase();
                match names.get(&key) {
                    Some(other) if *other != name => {
                        return Err(AliasError {
                            line: line_no,
                            message: format!("`{s}` is already a spelling of `{other}`"),
                        })
                    }
                    _ => {
                        names.insert(key, name.clone());
                    }
                }
            }
        }
        Ok(Self { names })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_lines_are_named() {
        let e = "Ali | A.\n\nBi | | B\n".parse::<Aliases>().unwrap_err();
        assert_eq!(e.line, 3);
        let e = "Ali | A.\nAmina | a.\n".parse::<Aliases>().unwrap_err();
        assert_eq!((e.line, e.message.contains("`Ali`")), (2, true));
    }
}
