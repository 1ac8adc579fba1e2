//! Duplicate games (`bao dedupe`) and file names for one game each (`bao split`).

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use bao_notation::meaning::game_rules_key;
use bao_notation::{Game, PositionString, Spanned, Tag};

use crate::game::ArchiveGame;

/// What makes two games the same game: the same rules (their canonical key, however the
/// tags spell them), the same start position and the
/// same main-line moves. A 128-bit digest of those, so that an archive's keys fit in memory
/// (two independent 64-bit `SipHash` digests; a chance collision among a million games is
/// about one in 10^26).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameKey(pub u64, pub u64);

impl GameKey {
    /// The key of a replayed game: its moves as they replayed, or, past a move that did not
    /// replay, as written.
    #[must_use]
    pub fn of(g: &ArchiveGame<'_>) -> Self {
        let digest = |salt: u8| {
            let mut h = DefaultHasher::new();
            salt.hash(&mut h);
            match game_rules_key(g.game) {
                Ok(r) => r.hash(&mut h),
                Err(e) => e.to_string().hash(&mut h),
            }
            match g.replayed.as_ref().and_then(|r| r.opening()) {
                Some(o) => PositionString::from(&o.start).to_string().hash(&mut h),
                None => g.tag("Position").hash(&mut h),
            }
            let mut replayed = 0;
            for mv in g.moves() {
                mv.hash(&mut h);
                replayed += 1;
            }
            for item in g.game.main_line().skip(replayed) {
                item.token.value.to_string().hash(&mut h);
            }
            h.finish()
        };
        Self(digest(1), digest(2))
    }
}

/// Adds to `kept` every tag of `other` that it lacks (by name); returns how many.
pub fn merge_tags(kept: &mut Game, other: &[(String, String)]) -> usize {
    let mut added = 0;
    for (name, value) in other {
        if kept.tag(name).is_none() {
            kept.tags.push(Spanned::bare(Tag::new(name, value)));
            added += 1;
        }
    }
    added
}

/// A safe file name for a game, from its tags: `Date`, `South`, `North`, `Round` joined by
/// `_`, each reduced to letters, digits, `.` and `-` (others become `-`), at most 120 bytes;
/// `game-N` (`n` its number) when the tags give nothing. Without the `.bao` extension.
#[must_use]
pub fn file_stem(game: &Game, n: usize) -> String {
    let parts: Vec<String> = ["Date", "South", "North", "Round"]
        .iter()
        .filter_map(|t| game.tag(t))
        .map(|v| clean(&v.value))
        .filter(|v| !v.is_empty())
        .collect();
    let mut stem = parts.join("_");
    if stem.is_empty() {
        stem = format!("game-{n}");
    }
    let mut cut = stem.len().min(120);
    while !stem.is_char_boundary(cut) {
        cut -= 1;
    }
    stem.truncate(cut);
    stem
}

/// One tag value as part of a file name: runs of anything but ASCII letters, digits, `.`
/// and `-` become one `-`; no leading or trailing `-` or `.` (no hidden file, no `..`).
fn clean(v: &str) -> String {
    let mut out = String::new();
    for c in v.chars() {
        if c.is_ascii_alphanumeric() || c == '.' {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    let out = out.trim_matches(['-', '.']).to_owned();
    // `?` tags and the like say nothing.
    if out.chars().all(|c| c == '-' || c == '.') {
        String::new()
    } else {
        out.replace("..", ".")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_are_safe() {
        let text = "[Date \"2026.11.29\"]\n[South \"Ali Juma/../x\"]\n[North \"..\"]\n[Round \"?\"]\n\n*\n";
        let game = bao_notation::parse_record(text)
            .record
            .games
            .remove(0)
            .value;
        assert_eq!(file_stem(&game, 3), "2026.11.29_Ali-Juma-.-x");
        let empty = bao_notation::parse_record("*\n")
            .record
            .games
            .remove(0)
            .value;
        assert_eq!(file_stem(&empty, 7), "game-7");
    }
}
