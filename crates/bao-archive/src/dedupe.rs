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
        // Both digests in one walk over the game: what is hashed is worked out once.
        let mut h = Both(DefaultHasher::new(), DefaultHasher::new());
        1_u8.hash(&mut h.0);
        2_u8.hash(&mut h.1);
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
        Self(h.0.finish(), h.1.finish())
    }
}

/// Two hashers fed the same bytes (the two halves of a [`GameKey`]).
struct Both(DefaultHasher, DefaultHasher);

impl Hasher for Both {
    fn write(&mut self, bytes: &[u8]) {
        self.0.write(bytes);
        self.1.write(bytes);
    }

    fn finish(&self) -> u64 {
        self.0.finish()
    }
}

/// A game's plies as `bao dedupe --near` compares them: each move as it replayed, then, past
/// a move that did not replay, as written.
#[must_use]
pub fn ply_words(g: &ArchiveGame<'_>) -> Vec<String> {
    let mut words: Vec<String> = g.moves().map(|m| m.to_string()).collect();
    let replayed = words.len();
    words.extend(
        g.game
            .main_line()
            .skip(replayed)
            .map(|item| item.token.value.to_string()),
    );
    words
}

/// The digest of what two games must share to be near each other: their rules and start.
#[must_use]
pub fn near_base(g: &ArchiveGame<'_>) -> u64 {
    let mut h = DefaultHasher::new();
    match game_rules_key(g.game) {
        Ok(r) => r.hash(&mut h),
        Err(e) => e.to_string().hash(&mut h),
    }
    match g.replayed.as_ref().and_then(|r| r.opening()) {
        Some(o) => PositionString::from(&o.start).to_string().hash(&mut h),
        None => g.tag("Position").hash(&mut h),
    }
    h.finish()
}

/// The fewest plies two games must share to be reported near each other (below it, short
/// games would all be near).
pub const NEAR_MIN_SHARED: usize = 10;

/// The index keys of a game for `bao dedupe --near N`: two games that differ in at most `N`
/// plies of the same length share a part key (split into `N + 1` parts, one part has no
/// difference), and two that share all but their last `N` plies share a prefix key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NearKeys {
    /// `(kind, length, digest)`: kind 0 for a prefix of that length, 1 + k for part k of a
    /// game of that length.
    pub keys: Vec<(usize, usize, u64)>,
}

impl NearKeys {
    /// The keys of a game's plies (`words`) under `base` ([`near_base`]), for `near` plies.
    #[must_use]
    pub fn of(words: &[String], base: u64, near: usize) -> Self {
        let len = words.len();
        let mut keys = Vec::new();
        if len < NEAR_MIN_SHARED {
            return Self { keys };
        }
        let digest = |from: usize, to: usize, kind: usize| {
            let mut h = DefaultHasher::new();
            (base, kind, len).hash(&mut h);
            words[from..to].hash(&mut h);
            h.finish()
        };
        for k in 0..=near {
            let m = len.saturating_sub(k);
            if m >= NEAR_MIN_SHARED {
                let mut h = DefaultHasher::new();
                (base, 0_usize, m).hash(&mut h);
                words[..m].hash(&mut h);
                keys.push((0, m, h.finish()));
            }
        }
        let parts = near + 1;
        for k in 0..parts {
            let (from, to) = (k * len / parts, (k + 1) * len / parts);
            keys.push((1 + k, len, digest(from, to, 1 + k)));
        }
        Self { keys }
    }
}

/// How two games near each other differ.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NearDifference {
    /// The same length; these plies (from 1) differ: the first game's move, the second's.
    Plies(Vec<(usize, String, String)>),
    /// They share their first `shared` plies; then the first has `first`, the second
    /// `second` (one of them may be empty).
    Tail {
        /// The plies they share.
        shared: usize,
        /// The first game's plies after them.
        first: Vec<String>,
        /// The second game's.
        second: Vec<String>,
    },
}

/// How `a` and `b` differ when they are near (at most `near` plies differ in place, or all
/// but the last `near` plies of the longer are shared, at least [`NEAR_MIN_SHARED`]
/// shared); `None` when they are the same or not near.
#[must_use]
pub fn near_difference(a: &[String], b: &[String], near: usize) -> Option<NearDifference> {
    if a == b {
        return None;
    }
    let shared = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    if shared >= NEAR_MIN_SHARED && a.len().max(b.len()) - shared <= near {
        return Some(NearDifference::Tail {
            shared,
            first: a[shared..].to_vec(),
            second: b[shared..].to_vec(),
        });
    }
    if a.len() == b.len() && a.len() >= NEAR_MIN_SHARED {
        let diff: Vec<(usize, String, String)> = a
            .iter()
            .zip(b)
            .enumerate()
            .filter(|(_, (x, y))| x != y)
            .map(|(i, (x, y))| (i + 1, x.clone(), y.clone()))
            .collect();
        if diff.len() <= near {
            return Some(NearDifference::Plies(diff));
        }
    }
    None
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
    /// Each value (the first [`Tally::MAX_VALUES`]), with the copies that write it (their
    /// indices, the first [`Tally::MAX_COPIES`]) and how many more write it, in the order met.
    pub values: Vec<(String, Vec<usize>, usize)>,
    /// How many more values the copies give.
    pub more_values: usize,
}

/// One tag's values among the copies of a game.
#[derive(Debug, Clone, Default)]
struct TagValues {
    name: String,
    values: Vec<(String, Vec<usize>, usize)>,
    more_values: usize,
    /// The kept copy has the tag.
    kept: bool,
}

/// The tags of the copies of one game, added copy by copy, in bounded memory: a few values
/// of each tag and a few copies of each value are kept, with counts of the rest (an archive
/// of thousands of copies of one game does not keep their tags).
#[derive(Debug, Clone, Default)]
pub struct Tally {
    tags: Vec<TagValues>,
}

impl Tally {
    /// The values of a tag kept (more are counted).
    pub const MAX_VALUES: usize = 5;
    /// The copies of a value kept (more are counted).
    pub const MAX_COPIES: usize = 5;

    /// Adds copy `copy` (its index among the copies) with its tags; `kept`: it is the copy
    /// kept. A tag written twice in a copy counts once (its first value).
    pub fn add(&mut self, copy: usize, tags: &[(String, String)], kept: bool) {
        for (i, (name, value)) in tags.iter().enumerate() {
            if tags[..i].iter().any(|(n, _)| n == name) {
                continue;
            }
            let at = match self.tags.iter().position(|t| t.name == *name) {
                Some(at) => at,
                None => {
                    self.tags.push(TagValues {
                        name: name.clone(),
                        ..TagValues::default()
                    });
                    self.tags.len() - 1
                }
            };
            let t = &mut self.tags[at];
            t.kept |= kept;
            let found = t
                .values
                .iter()
                .position(|(w, _, _)| w.trim() == value.trim());
            match found {
                Some(v) => {
                    let (_, who, more) = &mut t.values[v];
                    if who.len() < Self::MAX_COPIES {
                        who.push(copy);
                    } else {
                        *more += 1;
                    }
                }
                None if t.values.len() < Self::MAX_VALUES => {
                    t.values.push((value.clone(), vec![copy], 0));
                }
                None => t.more_values += 1,
            }
        }
    }

    /// What the kept copy gains under `--merge-tags` (each tag it lacks on which the copies
    /// agree), and the tags on which they disagree ([`Conflict`]s, never merged).
    #[must_use]
    pub fn plan(&self) -> (Vec<(String, String)>, Vec<Conflict>) {
        let mut add = Vec::new();
        let mut conflicts = Vec::new();
        for t in &self.tags {
            if t.values.len() > 1 || t.more_values > 0 {
                conflicts.push(Conflict {
                    name: t.name.clone(),
                    values: t.values.clone(),
                    more_values: t.more_values,
                });
            } else if let (false, Some((v, _, _))) = (t.kept, t.values.first()) {
                add.push((t.name.clone(), v.clone()));
            }
        }
        (add, conflicts)
    }
}

/// What the copy `kept` of a game (an index into `copies`: each copy's tags) gains from the
/// others under `--merge-tags`, and the tags on which the copies disagree ([`Tally`]).
#[must_use]
pub fn merge_plan(
    copies: &[Vec<(String, String)>],
    kept: usize,
) -> (Vec<(String, String)>, Vec<Conflict>) {
    let mut tally = Tally::default();
    for (i, c) in copies.iter().enumerate() {
        tally.add(i, c, i == kept);
    }
    tally.plan()
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
    stem_of(
        game,
        &["Date", "South", "North", "Round"],
        &format!("game-{n}"),
    )
}

/// A safe file name for a match's file (`bao split` writes a match's games together): its
/// `Date` (of the game given: the match's first), `Event` and `Match` tags, reduced as
/// [`file_stem`] reduces them, `match-N` when they give nothing. Without the extension.
#[must_use]
pub fn match_stem(game: &Game, n: usize) -> String {
    stem_of(game, &["Date", "Event", "Match"], &format!("match-{n}"))
}

/// The values of `tags` reduced by [`clean`] and joined by `_` (`fallback` when none
/// gives anything), cut to at most 120 bytes on a character boundary.
fn stem_of(game: &Game, tags: &[&str], fallback: &str) -> String {
    let parts: Vec<String> = tags
        .iter()
        .filter_map(|t| game.tag(t))
        .map(|v| clean(&v.value))
        .filter(|v| !v.is_empty())
        .collect();
    let mut stem = parts.join("_");
    if stem.is_empty() {
        stem = fallback.to_owned();
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
        assert_eq!(conflicts[0].values[1], ("*".to_owned(), vec![1], 0));
        // Many copies: a few kept, the rest counted.
        let many: Vec<Vec<(String, String)>> = (0..20)
            .map(|i| tags(&[("Event", if i % 2 == 0 { "Cup" } else { "Open" })]))
            .chain((0..8).map(|i| vec![("Event".to_owned(), format!("Copy {i}"))]))
            .collect();
        let (_, conflicts) = merge_plan(&many, 0);
        let c = &conflicts[0];
        assert_eq!(c.values.len(), Tally::MAX_VALUES);
        assert_eq!(c.values[0], ("Cup".to_owned(), vec![0, 2, 4, 6, 8], 5));
        assert_eq!(c.more_values, 5);
    }

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn near_games_share_a_key_and_their_difference_is_named() {
        let a = words("A6<* a5< A7> a6> A5> a4< A3> a8< A2< a7> A1> a3< A8<");
        let mut b = a.clone();
        b[4] = "A5<".to_owned();
        b[9] = "a7<".to_owned();
        let base = 7;
        let shares = |x: &[String], y: &[String], n| {
            let (kx, ky) = (NearKeys::of(x, base, n), NearKeys::of(y, base, n));
            kx.keys.iter().any(|k| ky.keys.contains(k))
        };
        assert!(shares(&a, &b, 2));
        assert_eq!(
            near_difference(&a, &b, 2),
            Some(NearDifference::Plies(vec![
                (5, "A5>".to_owned(), "A5<".to_owned()),
                (10, "a7>".to_owned(), "a7<".to_owned())
            ]))
        );
        assert_eq!(near_difference(&a, &b, 1), None);
        // All but the last two plies.
        let c = a[..a.len() - 2].to_vec();
        assert!(shares(&a, &c, 2));
        assert_eq!(
            near_difference(&a, &c, 2),
            Some(NearDifference::Tail {
                shared: 11,
                first: words("a3< A8<"),
                second: vec![],
            })
        );
        assert_eq!(near_difference(&a, &a, 2), None);
        // Another start: no key shared.
        let other = NearKeys::of(&b, 8, 2);
        assert!(!NearKeys::of(&a, base, 2)
            .keys
            .iter()
            .any(|k| other.keys.contains(k)));
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
