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

/// What makes two games copies of one (`bao dedupe --by`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum KeyBy {
    /// The rules, the start and the main line's moves ([`GameKey::of`]).
    #[default]
    Moves,
    /// The moves, and the same `South`, `North` and `Date` tags (values trimmed; a tag
    /// missing is not the same as one written): two games that happen to have the same
    /// moves but were played by others, or on another day, are two games.
    Game,
}

impl GameKey {
    /// The key of a replayed game: its moves as they replayed, or, past a move that did not
    /// replay, as written.
    #[must_use]
    pub fn of(g: &ArchiveGame<'_>) -> Self {
        Self::by(g, KeyBy::Moves)
    }

    /// The key of a replayed game by `by`.
    #[must_use]
    pub fn by(g: &ArchiveGame<'_>, by: KeyBy) -> Self {
        let digest = |salt: u8| {
            let mut h = DefaultHasher::new();
            salt.hash(&mut h);
            if by == KeyBy::Game {
                for t in ["South", "North", "Date"] {
                    g.tag(t).map(str::trim).hash(&mut h);
                }
            }
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

/// How much a copy of a game tells (`bao dedupe` keeps the copy that tells most), compared in
/// this order: consistent with its board (no error, no tag its board contradicts), a result
/// written (`1-0`, `0-1`, `1/2-1/2` over `*`), more tags, more annotations (the movetext's
/// comments, NAGs, lap and capture annotations, variations).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Worth {
    /// No error and no contradiction ([`ArchiveGame::problem`]).
    pub consistent: bool,
    /// A result other than `*` is written.
    pub decided: bool,
    /// Its tags.
    pub tags: usize,
    /// Its comments, NAGs, lap and capture annotations and variations.
    pub annotations: usize,
}

impl Worth {
    /// The worth of a checked game ([`crate::Depth::Check`]; below it, a game counts as
    /// consistent).
    #[must_use]
    pub fn of(g: &ArchiveGame<'_>) -> Self {
        // The comments before the tags are not counted: they are often the file's, not the
        // game's (a stray remark after the game before it).
        let mut annotations = 0;
        for node in bao_replay::Document::unreplayed(g.game).walk() {
            match node {
                bao_replay::Node::Comment(..) | bao_replay::Node::Variation(_) => {
                    annotations += 1;
                }
                bao_replay::Node::Move(_) => {}
            }
        }
        g.game.for_each_move_with_ply(|_, item| {
            annotations += item.nags.len() + usize::from(item.annotation.is_some());
        });
        Self {
            consistent: g.problem.is_none(),
            decided: g.written_result() != bao_notation::GameResult::Unknown,
            tags: g.game.tags.len(),
            annotations,
        }
    }
}

/// A tag whose copies of one game give different values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conflict {
    /// The tag's name.
    pub name: String,
    /// Each value, with the copies (their indices in the list given) that write it, in
    /// the order met.
    pub values: Vec<(String, Vec<usize>)>,
}

/// What the copy `kept` of a game (an index into `copies`: each copy's tags) gains from the
/// others under `--merge-tags`, and the tags on which the copies disagree. A tag is added
/// when the kept copy lacks it and every copy that has it gives it one value; a tag whose
/// copies give several values (the kept copy's included) is a [`Conflict`], never merged.
/// A copy's own tag written twice counts once (its first value, as [`Game::tag`] reads).
#[must_use]
pub fn merge_plan(
    copies: &[Vec<(String, String)>],
    kept: usize,
) -> (Vec<(String, String)>, Vec<Conflict>) {
    let mut names: Vec<&str> = Vec::new();
    for c in copies {
        for (n, _) in c {
            if !names.contains(&n.as_str()) {
                names.push(n);
            }
        }
    }
    let mut add = Vec::new();
    let mut conflicts = Vec::new();
    for name in names {
        let mut values: Vec<(String, Vec<usize>)> = Vec::new();
        for (i, c) in copies.iter().enumerate() {
            let Some((_, v)) = c.iter().find(|(n, _)| n == name) else {
                continue;
            };
            match values.iter_mut().find(|(w, _)| w.trim() == v.trim()) {
                Some((_, who)) => who.push(i),
                None => values.push((v.clone(), vec![i])),
            }
        }
        if values.len() > 1 {
            conflicts.push(Conflict {
                name: name.to_owned(),
                values,
            });
        } else if let Some((v, _)) = values.into_iter().next() {
            if !copies[kept].iter().any(|(n, _)| n == name) {
                add.push((name.to_owned(), v));
            }
        }
    }
    (add, conflicts)
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

/// A safe file name for a match's file (`bao split` writes a match's games together): its
/// `Date` (of the game given: the match's first), `Event` and `Match` tags, reduced as
/// [`file_stem`] reduces them, `match-N` when they give nothing. Without the extension.
#[must_use]
pub fn match_stem(game: &Game, n: usize) -> String {
    let parts: Vec<String> = ["Date", "Event", "Match"]
        .iter()
        .filter_map(|t| game.tag(t))
        .map(|v| clean(&v.value))
        .filter(|v| !v.is_empty())
        .collect();
    let mut stem = parts.join("_");
    if stem.is_empty() {
        stem = format!("match-{n}");
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
    fn the_merge_adds_only_what_no_copy_contradicts() {
        let tags = |t: &[(&str, &str)]| -> Vec<(String, String)> {
            t.iter()
                .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
                .collect()
        };
        let copies = [
            tags(&[("Result", "1-0"), ("South", "Ali")]),
            tags(&[
                ("Result", "*"),
                ("Termination", "resignation"),
                ("Site", "Zanzibar"),
            ]),
            tags(&[("Site", "Zanzibar"), ("Round", "2")]),
            tags(&[("Round", "3"), ("South", " Ali ")]),
        ];
        let (add, conflicts) = merge_plan(&copies, 0);
        assert_eq!(
            add,
            tags(&[("Termination", "resignation"), ("Site", "Zanzibar")])
        );
        let names: Vec<&str> = conflicts.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["Result", "Round"]);
        assert_eq!(conflicts[0].values[1], ("*".to_owned(), vec![1]));
    }

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
