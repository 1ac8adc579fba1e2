//! AbstractPlay's game records ("AP Game Record", schema `gamerecord/1-0-0`) in and out.
//!
//! AbstractPlay names a pit by a file `a`..`h` (left to right as South sees the board) and a
//! rank `1`..`4` from South's side: rank 2 is our `A`, rank 1 `B`, rank 3 `a` and rank 4 `b`,
//! North's pits numbered from North's left, so file `f` is `a(9-f)` there. Its signs and its
//! `*`/`+` suffixes mean what ours mean. A move string is translated by renaming its pit
//! ([`ap_to_our_move`]); the result is then read by the record grammar, that is by
//! bao-core's one move reader, and the game is checked by bao-validate as any record is.

use std::fmt;
use std::io::Read;

use bao_core::{Move, Pit, Row, RuleSet, Side};
use bao_notation::date::valid_date;
use bao_notation::meaning::RulesKey;
use bao_notation::{parse_record, write_game, GameResult, Tag, WriteOptions};
use bao_replay::ReplayedGame;
use bao_validate::{check_one_game, CheckOptions};
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

/// The `Site` tag of an imported game, and the site AbstractPlay names in its records.
pub const SITE: &str = "AbstractPlay";

/// The prefix of the `Source` tag of an imported game, before AbstractPlay's game id.
pub const SOURCE_PREFIX: &str = "abstractplay:";

/// The `Termination` of a game whose result AbstractPlay gives although the rules had not
/// ended it (a resignation, a timeout: the record does not say which).
pub const DECIDED_OFF_BOARD: &str = "adjudication";

/// The AbstractPlay pit `name` (`e2`) as ours (`A5`); `None` when it names no pit.
#[must_use]
pub fn ap_pit(name: &str) -> Option<Pit> {
    let &[file, rank] = name.as_bytes() else {
        return None;
    };
    if !(b'a'..=b'h').contains(&file) {
        return None;
    }
    let f = file - b'a' + 1;
    match rank {
        b'1' => Pit::new(Side::South, Row::Back, f),
        b'2' => Pit::new(Side::South, Row::Front, f),
        b'3' => Pit::new(Side::North, Row::Front, 9 - f),
        b'4' => Pit::new(Side::North, Row::Back, 9 - f),
        _ => None,
    }
}

/// Our pit as AbstractPlay names it (`A5` → `e2`, `a5` → `d3`).
#[must_use]
pub fn pit_to_ap(pit: Pit) -> String {
    let n = pit.number();
    let (file, rank) = match (pit.side(), pit.row()) {
        (Side::South, Row::Front) => (n, '2'),
        (Side::South, Row::Back) => (n, '1'),
        (Side::North, Row::Front) => (9 - n, '3'),
        (Side::North, Row::Back) => (9 - n, '4'),
    };
    format!("{}{rank}", char::from(b'a' + file - 1))
}

/// An AbstractPlay move string with its pit renamed to ours (`b3<*` → `a7<*`): the token a
/// record holds. Only the pit is rewritten; what follows it must be signs and suffixes
/// (`<`, `>`, `*`, `+`), which mean the same in both notations.
///
/// # Errors
/// The string does not start with an AbstractPlay pit, or holds other letters after it.
pub fn ap_to_our_move(text: &str) -> Result<String, BadApMove> {
    let bad = || BadApMove(text.to_owned());
    let (pit, rest) = text.split_at_checked(2).ok_or_else(bad)?;
    let pit = ap_pit(pit).ok_or_else(bad)?;
    if rest.is_empty() || !rest.bytes().all(|b| matches!(b, b'<' | b'>' | b'*' | b'+')) {
        return Err(bad());
    }
    Ok(format!("{pit}{rest}"))
}

/// Our move as AbstractPlay writes it (`a7<*` → `b3<*`).
#[must_use]
pub fn move_to_ap(mv: &Move) -> String {
    format!(
        "{}{}{}",
        pit_to_ap(mv.pit),
        mv.sign.as_char(),
        mv.kind.suffix()
    )
}

/// A move string that is no AbstractPlay move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is no AbstractPlay move (a pit a1..h4, then `<` or `>`, `*`, `+`)")]
pub struct BadApMove(pub String);

/// One AP Game Record (the fields `bao` reads and writes; others are ignored on input).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ApRecord {
    /// The header.
    pub header: ApHeader,
    /// Rounds of one entry per player (South first), `null` where a player did not move.
    pub moves: Vec<Vec<Option<ApMove>>>,
}

/// The header of an [`ApRecord`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ApHeader {
    /// The game and its variants.
    pub game: ApGame,
    /// The event, if the game belongs to one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
    /// The round of the event.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "text_or_number"
    )]
    pub round: Option<String>,
    /// The site and the game's id there.
    pub site: ApSite,
    /// When the game started (ISO 8601).
    #[serde(
        rename = "date-start",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub date_start: Option<String>,
    /// When the game ended (ISO 8601).
    #[serde(rename = "date-end", default, skip_serializing_if = "Option::is_none")]
    pub date_end: Option<String>,
    /// When the record was made (ISO 8601).
    #[serde(
        rename = "date-generated",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub date_generated: Option<String>,
    /// The players in seat order: South, then North.
    pub players: Vec<ApPlayer>,
}

/// The game of an [`ApHeader`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApGame {
    /// `Bao`.
    pub name: String,
    /// Variants (`kujifunza`); none for Kiswahili Bao.
    #[serde(default)]
    pub variants: Vec<String>,
}

/// The site of an [`ApHeader`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApSite {
    /// The site's name.
    pub name: String,
    /// The game's id on the site.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gameid: Option<String>,
}

/// A player of an [`ApHeader`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ApPlayer {
    /// The player's name.
    pub name: String,
    /// The player's id on the site.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub userid: Option<String>,
    /// The player's score: 1 a win, 0 a loss, 0.5 a draw.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<f64>,
}

/// One move of a round: a string, or an object with the string in `move`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ApMove {
    /// `"f2<*"`.
    Text(String),
    /// `{"move": "f2<*", ...}` (other fields ignored).
    Detailed {
        /// The move string.
        #[serde(rename = "move")]
        text: String,
    },
}

impl ApMove {
    /// The move string.
    #[must_use]
    pub fn text(&self) -> &str {
        match self {
            Self::Text(t) | Self::Detailed { text: t } => t,
        }
    }
}

fn text_or_number<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Ok(match Option::<Value>::deserialize(d)? {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s),
        Some(other) => Some(other.to_string()),
    })
}

/// What was wrong with one AP record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ApProblemKind {
    /// The JSON is no AP Game Record (the reader's message).
    BadRecord(String),
    /// The record is of another game.
    NotBao(String),
    /// Variants `bao` has no rule set for: every variant the record names (AbstractPlay's
    /// Bao offers `malawi` or `kujifunza`, one at most).
    UnsupportedVariant(Vec<String>),
    /// The record does not have two players.
    Players(usize),
    /// A move string that is no AbstractPlay move.
    BadMove(String),
    /// A player did not move (`null`) although the game goes on after it.
    MissingMove,
    /// The engine panicked while the game was checked (a bug).
    EngineFailure,
    /// The game does not replay: the first error the check found, with its code
    /// (`bao::illegal::*`, `bao::record::*`) and message.
    Replay {
        /// The diagnostic's code.
        code: &'static str,
        /// Its message.
        message: String,
        /// The AP move string of the ply, if the error is at a ply.
        ap_move: Option<String>,
    },
}

/// A record that was not imported: which one, where, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApProblem {
    /// The record's number in the input, from 1.
    pub record: usize,
    /// AbstractPlay's game id, if the record gives it.
    pub gameid: Option<String>,
    /// The ply (from 1) at fault, if the problem is at a ply.
    pub ply: Option<usize>,
    /// What was wrong.
    pub kind: ApProblemKind,
}

impl ApProblem {
    /// The diagnostic code: `bao::import::<slug>`, or the check's own code for a game that
    /// does not replay.
    #[must_use]
    pub fn code(&self) -> &'static str {
        match &self.kind {
            ApProblemKind::BadRecord(_) => "bao::import::bad_record",
            ApProblemKind::NotBao(_) => "bao::import::not_bao",
            ApProblemKind::UnsupportedVariant(_) => "bao::import::unsupported_variant",
            ApProblemKind::Players(_) => "bao::import::players",
            ApProblemKind::BadMove(_) => "bao::import::bad_move",
            ApProblemKind::MissingMove => "bao::import::missing_move",
            ApProblemKind::EngineFailure => "bao::import::engine_failure",
            ApProblemKind::Replay { code, .. } => code,
        }
    }

    fn what(&self) -> String {
        match &self.gameid {
            Some(id) => format!("AbstractPlay game {id}"),
            None => format!("AbstractPlay record {}", self.record),
        }
    }
}

impl fmt::Display for ApProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.what())?;
        if let Some(p) = self.ply {
            write!(f, ", ply {p}")?;
        }
        f.write_str(": ")?;
        match &self.kind {
            ApProblemKind::BadRecord(m) => write!(f, "not an AP Game Record: {m}"),
            ApProblemKind::NotBao(name) => write!(f, "a game of {name:?}, not Bao"),
            ApProblemKind::UnsupportedVariant(v) => {
                let named: Vec<String> = v.iter().map(|v| format!("{v:?}")).collect();
                write!(
                    f,
                    "variants [{}]: no combination AbstractPlay's Bao offers",
                    named.join(", ")
                )
            }
            ApProblemKind::Players(n) => write!(f, "{n} players; Bao has two"),
            ApProblemKind::BadMove(m) => write!(f, "{}", BadApMove(m.clone())),
            ApProblemKind::MissingMove => f.write_str("no move here, but the game goes on"),
            ApProblemKind::EngineFailure => f.write_str("the engine failed on this game (a bug)"),
            ApProblemKind::Replay {
                message, ap_move, ..
            } => match ap_move {
                Some(m) => write!(f, "`{m}`: {message}"),
                None => f.write_str(message),
            },
        }
    }
}

impl std::error::Error for ApProblem {}

impl miette::Diagnostic for ApProblem {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(Self::code(self)))
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        let help = match &self.kind {
            ApProblemKind::BadRecord(_) => {
                "an AP Game Record has a `header` (game, site, players) and `moves`"
            }
            ApProblemKind::NotBao(_) => "only records of Bao are imported",
            ApProblemKind::UnsupportedVariant(_) => {
                "`bao` imports AbstractPlay's Bao with no variant, `malawi` or `kujifunza` (one at most, as AbstractPlay offers them)"
            }
            ApProblemKind::Players(_) => "the record must name South, then North",
            ApProblemKind::BadMove(_) => {
                "AbstractPlay pits are a file a..h and a rank 1..4 from South's side"
            }
            ApProblemKind::MissingMove => "a player may miss a move only at the end of the game",
            ApProblemKind::EngineFailure => "please report the record; the other games are imported",
            ApProblemKind::Replay { .. } => {
                "the record does not replay under AbstractPlay's rules; the other games are imported"
            }
        };
        Some(Box::new(help))
    }
}

/// The codes of [`ApProblem`]s of their own (a game that does not replay has its check's
/// code instead).
pub const IMPORT_CODES: &[&str] = &[
    "bao::import::bad_record",
    "bao::import::not_bao",
    "bao::import::unsupported_variant",
    "bao::import::players",
    "bao::import::bad_move",
    "bao::import::missing_move",
    "bao::import::engine_failure",
];

/// The start of AbstractPlay's `malawi` variant (AbstractPlay rules otherwise): 8 seeds in
/// each house, 20 in each hand (Kiswahili: 6 and 22).
pub const MALAWI_POSITION: &str =
    "0,0,0,0,8,2,2,0/0,0,0,0,0,0,0,0/0,0,0,0,8,2,2,0/0,0,0,0,0,0,0,0 20/20 S FF -";

/// The rule set and the start (a `Position` tag, for a start of the variant's own) of an
/// AbstractPlay game's variants: every combination AbstractPlay's Bao offers (its variants
/// are one group: none, `malawi` or `kujifunza`).
fn rules_of(variants: &[String]) -> Result<(&'static str, Option<&'static str>), ApProblemKind> {
    match variants {
        [] => Ok(("abstractplay", None)),
        [v] if v == "kujifunza" => Ok(("abstractplay-kujifunza", None)),
        [v] if v == "malawi" => Ok(("abstractplay", Some(MALAWI_POSITION))),
        _ => Err(ApProblemKind::UnsupportedVariant(variants.to_vec())),
    }
}

/// Tags that keep what an AP record says and no other tag holds (spec/archive.md §7).
pub mod tags {
    /// `header.date-start`, as written.
    pub const START: &str = "APStart";
    /// `header.date-end`, as written.
    pub const END: &str = "APEnd";
    /// `header.date-generated`, as written.
    pub const GENERATED: &str = "APGenerated";
    /// South's `userid`.
    pub const SOUTH_USER: &str = "APSouthUserId";
    /// North's `userid`.
    pub const NORTH_USER: &str = "APNorthUserId";
    /// The players' `result`s, South's then North's (`-` for one not given), when they are
    /// not a win and a loss (1, 0), a draw (0.5, 0.5) or both missing: `0 0`, an abandoned
    /// game.
    pub const SCORES: &str = "APScores";
}

/// A score as the record writes it (`1`, `0.5`).
fn score_text(s: Option<f64>) -> String {
    s.map_or_else(
        || "-".to_owned(),
        |v| Value::from(v).to_string().trim_end_matches(".0").to_owned(),
    )
}

/// The scores an `APScores` tag gives back.
fn scores_of(text: &str) -> Option<(Option<f64>, Option<f64>)> {
    let mut it = text.split_whitespace().map(|t| {
        if t == "-" {
            Ok(None)
        } else {
            t.parse::<f64>().map(Some)
        }
    });
    let s = it.next()?.ok()?;
    let n = it.next()?.ok()?;
    it.next().is_none().then_some((s, n))
}

/// `2026-10-01T18:00:00.000Z` as a `Date` tag, `2026.10.01`; `None` unless it is a real
/// date, all digits ([`valid_date`]).
fn date_tag(iso: &str) -> Option<String> {
    let d = iso.get(..10)?;
    let b = d.as_bytes();
    let tag = d.replace('-', ".");
    (b[4] == b'-' && b[7] == b'-' && !tag.contains('?') && valid_date(&tag)).then_some(tag)
}

/// The result the players' scores give, exactly: a win and a loss (1, 0), a draw (0.5, 0.5);
/// anything else (none given, 0 and 0 for a game abandoned or unfinished) is no result, `*`.
fn result_of(players: &[ApPlayer]) -> GameResult {
    match (players[0].result, players[1].result) {
        (Some(s), Some(n)) if s == 1.0 && n == 0.0 => GameResult::SouthWins,
        (Some(s), Some(n)) if s == 0.0 && n == 1.0 => GameResult::NorthWins,
        (Some(s), Some(n)) if s == 0.5 && n == 0.5 => GameResult::Draw,
        _ => GameResult::Unknown,
    }
}

/// The scores that give `result` back ([`result_of`]).
fn scores_for(result: GameResult) -> (Option<f64>, Option<f64>) {
    match result {
        GameResult::SouthWins => (Some(1.0), Some(0.0)),
        GameResult::NorthWins => (Some(0.0), Some(1.0)),
        GameResult::Draw => (Some(0.5), Some(0.5)),
        GameResult::Unknown => (None, None),
    }
}

fn quote(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    out.push('"');
    for c in value.chars() {
        if matches!(c, '"' | '\\') {
            out.push('\\');
        }
        // A tag value is one line.
        out.push(if c == '\n' || c == '\r' { ' ' } else { c });
    }
    out.push('"');
    out
}

/// A game imported: its record in canonical form, and what it holds.
#[derive(Debug, Clone)]
pub struct ImportedGame {
    /// The game's record (tags, movetext, result), canonical, ending with a newline.
    pub text: String,
    /// Its plies.
    pub plies: usize,
}

/// Imports the AP record `value` (number `record` of its input, from 1): its moves are
/// translated, then the game is read as a record and checked; it is imported only if it
/// checks without errors.
///
/// # Errors
/// What is wrong with the record: its shape, its game or variant, a move string, or the
/// first error of its check.
pub fn import_value(value: Value, record: usize) -> Result<ImportedGame, ApProblem> {
    let gameid = value
        .pointer("/header/site/gameid")
        .and_then(Value::as_str)
        .map(str::to_owned);
    let problem = |ply: Option<usize>, kind| ApProblem {
        record,
        gameid: gameid.clone(),
        ply,
        kind,
    };
    let rec: ApRecord = serde_json::from_value(value)
        .map_err(|e| problem(None, ApProblemKind::BadRecord(e.to_string())))?;
    import_record(&rec, record)
}

/// Imports one AP record (see [`import_value`]).
///
/// # Errors
/// As [`import_value`].
pub fn import_record(rec: &ApRecord, record: usize) -> Result<ImportedGame, ApProblem> {
    let h = &rec.header;
    let problem = |ply: Option<usize>, kind| ApProblem {
        record,
        gameid: h.site.gameid.clone(),
        ply,
        kind,
    };
    if !h.game.name.eq_ignore_ascii_case("bao") {
        return Err(problem(None, ApProblemKind::NotBao(h.game.name.clone())));
    }
    let (rules, position) = rules_of(&h.game.variants).map_err(|k| problem(None, k))?;
    if h.players.len() != 2 {
        return Err(problem(None, ApProblemKind::Players(h.players.len())));
    }
    // The moves in order; a `null` only after the last move.
    let mut moves: Vec<(String, &str)> = Vec::new();
    let mut gap: Option<usize> = None;
    for entry in rec.moves.iter().flatten() {
        let ply = moves.len() + 1;
        match entry {
            None => {
                gap.get_or_insert(ply);
            }
            Some(m) => {
                if let Some(g) = gap {
                    return Err(problem(Some(g), ApProblemKind::MissingMove));
                }
                let ours = ap_to_our_move(m.text())
                    .map_err(|e| problem(Some(ply), ApProblemKind::BadMove(e.0)))?;
                moves.push((ours, m.text()));
            }
        }
    }
    let result = result_of(&h.players);
    let mut text = String::new();
    let mut tag = |name: &str, value: &str| {
        text.push_str(&format!("[{name} {}]\n", quote(value)));
    };
    tag("Event", h.event.as_deref().unwrap_or(SITE));
    // The site as the record names it (AbstractPlay writes "Abstract Play").
    tag("Site", &h.site.name);
    if let Some(d) = h
        .date_start
        .as_deref()
        .or(h.date_end.as_deref())
        .and_then(date_tag)
    {
        tag("Date", &d);
    }
    if let Some(r) = &h.round {
        tag("Round", r);
    }
    tag("South", &h.players[0].name);
    tag("North", &h.players[1].name);
    tag("Result", result.as_str());
    tag("RuleSet", rules);
    if let Some(p) = position {
        tag("Position", p);
    }
    if let Some(id) = &h.site.gameid {
        tag("Source", &format!("{SOURCE_PREFIX}{id}"));
    }
    // Provenance: what the record says and no tag above keeps.
    for (name, value) in [
        (tags::START, &h.date_start),
        (tags::END, &h.date_end),
        (tags::GENERATED, &h.date_generated),
        (tags::SOUTH_USER, &h.players[0].userid),
        (tags::NORTH_USER, &h.players[1].userid),
    ] {
        if let Some(v) = value {
            tag(name, v);
        }
    }
    let scores = (h.players[0].result, h.players[1].result);
    if scores != scores_for(result) {
        tag(
            tags::SCORES,
            &format!("{} {}", score_text(scores.0), score_text(scores.1)),
        );
    }
    text.push('\n');
    for (i, (m, _)) in moves.iter().enumerate() {
        if i % 2 == 0 {
            text.push_str(&format!("{}. ", i / 2 + 1));
        }
        text.push_str(m);
        text.push(' ');
    }
    text.push_str(result.as_str());
    text.push('\n');

    let parsed = parse_record(&text);
    let Some(first) = parsed.errors.iter().find(|e| e.is_error()) else {
        let mut game = parsed
            .record
            .games
            .into_iter()
            .next()
            .map(|g| g.value)
            .unwrap_or_default();
        let checked = check_one_game(&game, 1, &CheckOptions::default());
        if let Some(d) = checked.diagnostics.iter().find(|d| d.is_error()) {
            let ap_move = d
                .ply
                .and_then(|p| moves.get(p - 1))
                .map(|(_, ap)| (*ap).to_owned());
            return Err(problem(
                d.ply,
                ApProblemKind::Replay {
                    code: d.code.code(),
                    message: d.message.clone(),
                    ap_move,
                },
            ));
        }
        if checked.has_errors() {
            return Err(problem(None, ApProblemKind::EngineFailure));
        }
        if let Some(t) = termination(&checked.replayed, result) {
            game.tags
                .push(bao_notation::Spanned::bare(Tag::new("Termination", t)));
        }
        return Ok(ImportedGame {
            text: write_game(&game, &WriteOptions::default()),
            plies: moves.len(),
        });
    };
    // A translated token the grammar does not read (cannot happen for a pit and signs, but
    // a record is data: say where).
    Err(problem(
        None,
        ApProblemKind::BadRecord(first.message.clone()),
    ))
}

/// The `Termination` tag of an imported game: the rule ending its replay reached, or
/// [`DECIDED_OFF_BOARD`] for a result the rules had not reached.
fn termination(replayed: &ReplayedGame, result: GameResult) -> Option<&'static str> {
    match replayed.final_outcome() {
        Some(Some(o)) => Some(o.reason.name()),
        Some(None) if result != GameResult::Unknown => Some(DECIDED_OFF_BOARD),
        _ => None,
    }
}

/// An error reading AP records.
#[derive(Debug, thiserror::Error)]
pub enum ApReadError {
    /// The input is not JSON, or neither one record nor an array of them, or it is damaged
    /// (cut short, corrupt) at `offset`: the records before the damage were handed on.
    #[error("not an AP Game Record or an array of them: {error} (at byte {offset})")]
    Json {
        /// The reader's error.
        error: serde_json::Error,
        /// The bytes of the input read before the reader stopped: where the damage is.
        offset: u64,
        /// The records handed on before it.
        records: usize,
    },
    /// The handler of a batch failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// Reads one AP record or a JSON array of them from `input`, handing them to `each` in
/// batches of at most `batch` (each with its number in the input, from 1), as they are read:
/// an array is never held whole.
///
/// # Errors
/// The input is not JSON, or its top level is neither an object nor an array; or the first
/// error `each` returns.
pub fn read_ap_records<R: Read>(
    input: R,
    batch: usize,
    each: impl FnMut(Vec<(usize, Value)>) -> std::io::Result<()>,
) -> Result<(), ApReadError> {
    // serde_json reads its input a byte at a time: the bytes counted between it and the
    // buffer are the bytes it has read.
    let counted = std::cell::Cell::new(0_u64);
    let reader = Counting {
        inner: std::io::BufReader::new(input),
        count: &counted,
    };
    let mut de = serde_json::Deserializer::from_reader(reader);
    let mut sink = Sink {
        batch: batch.max(1),
        each,
        failed: None,
        count: 0,
        handed: 0,
    };
    let read = (&mut sink).deserialize(&mut de).and_then(|()| de.end());
    if let Some(e) = sink.failed.take() {
        return Err(ApReadError::Io(e));
    }
    read.map_err(|error| ApReadError::Json {
        error,
        offset: counted.get(),
        records: sink.handed,
    })
}

/// A reader that counts the bytes read through it.
struct Counting<'a, R> {
    inner: R,
    count: &'a std::cell::Cell<u64>,
}

impl<R: Read> Read for Counting<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.set(self.count.get() + n as u64);
        Ok(n)
    }
}

struct Sink<F> {
    batch: usize,
    each: F,
    failed: Option<std::io::Error>,
    count: usize,
    /// Records handed on.
    handed: usize,
}

impl<'de, F: FnMut(Vec<(usize, Value)>) -> std::io::Result<()>> DeserializeSeed<'de>
    for &mut Sink<F>
{
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de, F: FnMut(Vec<(usize, Value)>) -> std::io::Result<()>> Visitor<'de> for &mut Sink<F> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an AP Game Record or an array of them")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut pending = Vec::with_capacity(self.batch);
        loop {
            let v = match seq.next_element::<Value>() {
                Ok(Some(v)) => v,
                Ok(None) => break,
                Err(e) => {
                    // The input is damaged here: the complete records before it are handed
                    // on, then the damage is reported.
                    if !pending.is_empty() {
                        self.hand(pending)?;
                    }
                    return Err(e);
                }
            };
            self.count += 1;
            pending.push((self.count, v));
            if pending.len() == self.batch {
                let full = std::mem::replace(&mut pending, Vec::with_capacity(self.batch));
                self.hand(full)?;
            }
        }
        if !pending.is_empty() {
            self.hand(pending)?;
        }
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<(), A::Error> {
        let v = Value::deserialize(de::value::MapAccessDeserializer::new(map))?;
        self.count += 1;
        let n = self.count;
        self.hand(vec![(n, v)])
    }
}

impl<F: FnMut(Vec<(usize, Value)>) -> std::io::Result<()>> Sink<F> {
    fn hand<E: de::Error>(&mut self, batch: Vec<(usize, Value)>) -> Result<(), E> {
        self.handed += batch.len();
        (self.each)(batch).map_err(|e| {
            self.failed = Some(e);
            E::custom("stopped")
        })
    }
}

/// Why a game of a record cannot be written as an AP record.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExportProblem {
    /// It is played under rules AbstractPlay does not play.
    #[error("game {game} is played under {rules}; AbstractPlay plays `abstractplay` and `abstractplay-kujifunza`")]
    Rules {
        /// The game's number in its file.
        game: usize,
        /// The rules, as named.
        rules: String,
    },
    /// It does not replay, or starts from a position of its own.
    #[error("game {game} cannot be exported: {why}")]
    NotReplayed {
        /// The game's number in its file.
        game: usize,
        /// Why.
        why: String,
    },
}

/// The AP record of a game that replayed (`number`: the game's number in its file).
///
/// # Errors
/// The game is not played under an AbstractPlay preset from its start position, or its main
/// line does not replay to its end.
pub fn export_game(
    game: &bao_notation::Game,
    replayed: &ReplayedGame,
    number: usize,
) -> Result<ApRecord, ExportProblem> {
    let not = |why: &str| ExportProblem::NotReplayed {
        game: number,
        why: why.to_owned(),
    };
    let opening = replayed
        .opening()
        .ok_or_else(|| not("its rules or start are not valid"))?;
    let standard = opening.start == bao_core::Position::start(opening.rules);
    let malawi =
        || bao_notation::PositionString::from(&opening.start).to_string() == MALAWI_POSITION;
    let variants = match opening.rules {
        r if r == RuleSet::ABSTRACTPLAY && standard => Vec::new(),
        r if r == RuleSet::ABSTRACTPLAY && malawi() => vec!["malawi".to_owned()],
        r if r == RuleSet::ABSTRACTPLAY_KUJIFUNZA && standard => vec!["kujifunza".to_owned()],
        r if r == RuleSet::ABSTRACTPLAY || r == RuleSet::ABSTRACTPLAY_KUJIFUNZA => {
            return Err(not(
                "it starts from a position of its own (AbstractPlay starts from its variant's)",
            ))
        }
        r => {
            return Err(ExportProblem::Rules {
                game: number,
                rules: format!("`{}`", RulesKey(r)),
            })
        }
    };
    if replayed.final_outcome().is_none() {
        return Err(not("its moves do not replay"));
    }
    let mut flat: Vec<Option<ApMove>> = replayed
        .main
        .plies
        .iter()
        .filter_map(|p| p.played().map(|pl| Some(ApMove::Text(move_to_ap(&pl.mv)))))
        .collect();
    if flat.len() % 2 == 1 {
        flat.push(None);
    }
    let moves = flat.chunks(2).map(<[_]>::to_vec).collect();
    let tag = |name: &str| game.tag(name).map(|t| t.value.clone());
    // The board's result where the game ended on it (a Result tag it contradicts is not
    // written out), else the record's.
    let board = match replayed.final_outcome() {
        Some(Some(o)) => Some(match o.winner {
            Some(Side::South) => GameResult::SouthWins,
            Some(Side::North) => GameResult::NorthWins,
            None => GameResult::Draw,
        }),
        _ => None,
    };
    let result = board
        .or_else(|| tag("Result").and_then(|r| GameResult::from_token(r.trim())))
        .or(game.result.as_ref().map(|r| r.value))
        .unwrap_or(GameResult::Unknown);
    let scores = tag(tags::SCORES)
        .and_then(|t| scores_of(&t))
        .unwrap_or_else(|| scores_for(result));
    let player = |name: Option<String>, userid: Option<String>, score: Option<f64>| ApPlayer {
        name: name.unwrap_or_else(|| "?".to_owned()),
        userid,
        result: score,
    };
    // The times as AbstractPlay wrote them; a game from elsewhere gets its Date as both.
    let (start, end) = match (tag(tags::START), tag(tags::END)) {
        (None, None) => {
            let date = tag("Date").and_then(|d| {
                let iso = d.replace('.', "-");
                date_tag(&iso).map(|_| format!("{iso}T00:00:00.000Z"))
            });
            (date.clone(), date)
        }
        both => both,
    };
    Ok(ApRecord {
        header: ApHeader {
            game: ApGame {
                name: "Bao".to_owned(),
                variants,
            },
            event: tag("Event").filter(|e| e != SITE && e != "?"),
            round: tag("Round").filter(|r| r != "?" && r != "-"),
            // The game's own site: a game never played on AbstractPlay is not said to be.
            site: ApSite {
                name: tag("Site").unwrap_or_else(|| "?".to_owned()),
                gameid: tag("Source")
                    .and_then(|s| s.strip_prefix(SOURCE_PREFIX).map(str::to_owned)),
            },
            date_start: start,
            date_end: end,
            date_generated: tag(tags::GENERATED),
            players: vec![
                player(tag("South"), tag(tags::SOUTH_USER), scores.0),
                player(tag("North"), tag(tags::NORTH_USER), scores.1),
            ],
        },
        moves,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pits_map_both_ways() {
        assert_eq!(ap_pit("e2").map(|p| p.to_string()).as_deref(), Some("A5"));
        assert_eq!(ap_pit("d3").map(|p| p.to_string()).as_deref(), Some("a5"));
        assert_eq!(ap_pit("b3").map(|p| p.to_string()).as_deref(), Some("a7"));
        assert_eq!(ap_pit("c4").map(|p| p.to_string()).as_deref(), Some("b6"));
        assert_eq!(ap_pit("a1").map(|p| p.to_string()).as_deref(), Some("B1"));
        assert_eq!(ap_pit("z9"), None);
        assert_eq!(ap_pit("a5"), None);
        for pit in Pit::all() {
            assert_eq!(ap_pit(&pit_to_ap(pit)), Some(pit));
        }
    }

    #[test]
    fn moves_keep_signs_and_suffixes() {
        assert_eq!(ap_to_our_move("b3<*").as_deref(), Ok("a7<*"));
        assert_eq!(ap_to_our_move("d3>+").as_deref(), Ok("a5>+"));
        assert!(ap_to_our_move("z9<").is_err());
        assert!(ap_to_our_move("e2").is_err());
        assert!(ap_to_our_move("e2<x").is_err());
        let mv: Move = "a7<*".parse().unwrap();
        assert_eq!(move_to_ap(&mv), "b3<*");
    }

    #[test]
    fn dates() {
        assert_eq!(
            date_tag("2026-10-01T18:00:00.000Z").as_deref(),
            Some("2026.10.01")
        );
        assert_eq!(date_tag("yesterday"), None);
        assert_eq!(date_tag("2026-02-31T18:00:00.000Z"), None);
        assert_eq!(date_tag("2026-1?-01T18:00:00.000Z"), None);
        assert_eq!(date_tag("2024-02-29").as_deref(), Some("2024.02.29"));
    }
}
