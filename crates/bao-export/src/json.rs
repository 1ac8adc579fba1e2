//! The JSON model of whole records (`bao export json`), schema version 1.
//!
//! The types here are DTOs, separate from the engine's and the record's types, so that the
//! format is versioned on its own ([`SCHEMA_VERSION`]). Positions reuse bao-core's
//! [`PositionJson`] (design §4). Every collection is a `Vec` in a fixed order: the same record
//! gives the same bytes. The format is documented in `spec/json.md` and described by
//! `spec/game.schema.json`.

use bao_core::json::{OutcomeJson, PositionJson, SideJson, StageJson};
use bao_core::{
    Capture, EndCheck, EndlessMove, Event, FrontRowGuard, HouseLap, Lap, LapEnd, LapSource,
    MoveSpec, MoveTrace, Outcome, RuleSet, Takasia, Variant,
};
use bao_notation::meaning::{is_game, RulesKey};
use bao_notation::{
    Comment, CommentKind, Element, Evaluation, Game, GameResult, MarkColour, Markup, MoveItem,
    MoveToken, Nag, Record, Spanned, Tag,
};
use bao_replay::{Document, Line, Node, ReplayedGame};
use serde::{Deserialize, Serialize};

use crate::document::{markup_after, Exported, ReplayError, MAX_DEPTH};
use crate::ExportError;

/// The version written in every export's `schema` field.
pub const SCHEMA_VERSION: u32 = 1;

/// What [`record_json`] includes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct JsonOptions {
    /// Write the legal moves before every ply (`legal`).
    pub legal: bool,
}

/// A whole record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordJson {
    /// Always [`SCHEMA_VERSION`].
    pub schema: u32,
    /// The games in file order.
    pub games: Vec<GameJson>,
}

/// One game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameJson {
    /// The game's number in the file, from 1 (as in diagnostics).
    pub game: usize,
    /// Comments before the game's tags.
    pub comments: Vec<String>,
    /// The tags in file order.
    pub tags: Vec<TagJson>,
    /// The rule set the game is played under.
    pub rules: RulesJson,
    /// The start position.
    pub start: PositionJson,
    /// The main line.
    pub moves: Vec<PlyJson>,
    /// The outcome at the end of the main line; null while the game goes on.
    pub outcome: Option<OutcomeJson>,
    /// The result token written (`1-0`, `0-1`, `1/2-1/2`, `*`), if any.
    pub result: Option<String>,
}

/// One tag.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TagJson {
    /// Its name.
    pub name: String,
    /// Its value.
    pub value: String,
}

/// A rule set: the preset it equals, if any, and every option.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RulesJson {
    /// The preset name when the options are exactly a preset's, else null.
    pub preset: Option<String>,
    /// The rules' canonical key ([`RulesKey`]: the preset, then the options that differ
    /// from it, `kiswahili endless_move=draw`), one text however a record's tags spell them.
    /// Read as empty from JSON written before it existed (`bao import json` reads the tags).
    #[serde(default)]
    pub key: String,
    /// Every option.
    pub options: RuleOptionsJson,
}

/// Every option of a rule set; the settable ones are spelled as `[Rules "name=value"]`
/// accepts them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[allow(missing_docs)]
pub struct RuleOptionsJson {
    /// `kiswahili`, `kete` or `kujifunza` (not settable).
    pub variant: String,
    /// Built for AbstractPlay compatibility (not settable).
    pub abstractplay: bool,
    /// Front pit 5 is a house with powers (not settable).
    pub houses: bool,
    pub mtaji_takasa_house: String,
    pub dormant_house_placeable: bool,
    pub front_row_guard: String,
    pub house_lost_on_first_mtaji_capture: bool,
    pub capture_threshold: u8,
    pub takasia: String,
    pub capture_priority: bool,
    pub kuu_floor: bool,
    pub first_takata_from_kuu: bool,
    pub houses_fall_at_move_end: bool,
    pub bao_hamna_mid_move: bool,
    pub endless_move: String,
    pub end_check: String,
}

/// One ply of a line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlyJson {
    /// The ply number, from 1 at the game's start; a variation continues its branch point's
    /// count.
    pub ply: usize,
    /// The mover.
    pub side: SideJson,
    /// The mover's stage.
    pub stage: StageJson,
    /// The canonical move.
    #[serde(rename = "move")]
    pub mv: String,
    /// The token as the record wrote it.
    pub written: String,
    /// Numeric annotation glyphs (`!` is 1, `?` is 2, ...).
    pub nags: Vec<u8>,
    /// Comments at the start of a line, before its first move (only on a line's first ply;
    /// omitted when empty).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub comments_before: Vec<String>,
    /// Comments after the move, up to the next move.
    pub comments: Vec<String>,
    /// For each of [`PlyJson::comments`], how many of the ply's variations are written
    /// before it (omitted when none is: every comment comes before the variations).
    #[serde(default, skip_serializing_if = "no_variation_before")]
    pub variations_before_comments: Vec<usize>,
    /// The diagram markup of those comments (read from their text, which keeps it; omitted
    /// when there is none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub markup: Option<MarkupJson>,
    /// The engine's evaluation of the position after the move (`[%eval ...]` in those
    /// comments, read from their text, which keeps it; omitted when there is none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eval: Option<EvalJson>,
    /// With `legal`: every legal move in the position before the ply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub legal: Option<Vec<String>>,
    /// What happened inside the move.
    pub trace: TraceJson,
    /// The position after the move.
    pub position: PositionJson,
    /// Alternatives to this ply, each a line from the position before it.
    pub variations: Vec<Vec<Self>>,
}

/// Whether every comment of a ply comes before its variations
/// ([`PlyJson::variations_before_comments`]).
#[allow(clippy::ptr_arg)] // serde's `skip_serializing_if` hands the field itself
fn no_variation_before(places: &Vec<usize>) -> bool {
    places.iter().all(|&k| k == 0)
}

/// The story of one move.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceJson {
    /// In namua: the pit the reserve seed went into.
    pub placement: Option<String>,
    /// The laps in order (at most 4096 are kept; see `laps_total`).
    pub laps: Vec<LapJson>,
    /// How many laps the move had.
    pub laps_total: u64,
    /// Seeds sown in all.
    pub seeds_sown: u64,
    /// The captures in order.
    pub captures: Vec<CaptureJson>,
    /// Decisions and events in order.
    pub events: Vec<EventJson>,
    /// Set when the move never ends (under `endless_move=draw` or `mover_loses`).
    pub never_ending: Option<NeverEndingJson>,
    /// The outcome, when this move ended the game.
    pub outcome: Option<OutcomeJson>,
}

/// One lap.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LapJson {
    /// From 1.
    pub number: u64,
    /// The pit lifted, or the kichwa where captured seeds enter.
    pub start: String,
    /// `lifted`, `taxed` or `captured`.
    pub source: String,
    /// `clockwise` or `anticlockwise`.
    pub direction: String,
    /// Seeds sown.
    pub seeds: u32,
    /// The pit of the last seed.
    pub end: String,
    /// `empty_pit`, `capture`, `relay`, `house_stop`, `safari`, `takasia_stop` or `aborted`.
    pub ended: String,
}

/// One capture.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CaptureJson {
    /// The opponent's pit emptied.
    pub pit: String,
    /// Seeds taken.
    pub seeds: u8,
    /// The kichwa where they enter.
    pub kichwa: String,
    /// Their sowing direction.
    pub direction: String,
    /// The lap whose end made the capture (0: the namua placement).
    pub after_lap: u64,
}

/// A decision or event inside a move, tagged by `type`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum EventJson {
    /// Namua: the reserve seed was placed.
    Placed { pit: String },
    /// The player chose this kichwa for the first namua capture from a central pit.
    KichwaChosen { kichwa: String },
    /// Namua tax: two seeds lifted from the functional house, `left` stay.
    HouseTaxed { left: u8 },
    /// The move stopped in the functional house.
    HouseStop,
    /// Safari through the functional house.
    Safari,
    /// A house was destroyed.
    HouseDestroyed { side: SideJson },
    /// A lap stopped in the mover's takasia'd pit.
    TakasiaStop { pit: String },
    /// The move made the opponent's pit takasia'd.
    TakasiaSet { pit: String },
    /// A stored takasia was cleared (AbstractPlay).
    TakasiaCleared { pit: String },
    /// The opponent's front row became empty.
    BaoHamna,
}

/// Diagram markup: coloured pits and arrows (`[%csl Ga5][%cal GA6a6]` in a comment).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MarkupJson {
    /// Coloured pits.
    pub pits: Vec<PitMarkJson>,
    /// Arrows.
    pub arrows: Vec<ArrowMarkJson>,
}

/// A coloured pit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PitMarkJson {
    /// `green`, `red`, `yellow` or `blue`.
    pub colour: String,
    /// The pit.
    pub pit: String,
}

/// An arrow from one pit to another.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArrowMarkJson {
    /// `green`, `red`, `yellow` or `blue`.
    pub colour: String,
    /// Where it starts.
    pub from: String,
    /// Where it points.
    pub to: String,
}

impl MarkupJson {
    /// The JSON of some markup; `None` when it marks nothing.
    #[must_use]
    pub fn from_markup(m: &Markup) -> Option<Self> {
        let name = |c: MarkColour| c.name().to_owned();
        (!m.is_empty()).then(|| Self {
            pits: m
                .pits
                .iter()
                .map(|p| PitMarkJson {
                    colour: name(p.colour),
                    pit: p.pit.to_string(),
                })
                .collect(),
            arrows: m
                .arrows
                .iter()
                .map(|a| ArrowMarkJson {
                    colour: name(a.colour),
                    from: a.from.to_string(),
                    to: a.to.to_string(),
                })
                .collect(),
        })
    }
}

/// An evaluation from South's view (`[%eval 1.25]`, `[%eval #-5]`), tagged by `type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum EvalJson {
    /// A score: `{"type": "seeds", "seeds": 1.25}`, positive when South stands better.
    Seeds {
        /// Seeds, with at most two decimals.
        seeds: Hundredths,
    },
    /// A forced win: `{"type": "forced", "winner": "north", "plies": 5}`.
    Forced {
        /// Who forces it.
        winner: SideJson,
        /// Within how many plies.
        plies: u32,
    },
}

/// A number of seeds with two decimals, written as a JSON number (`1.25`), held exactly as
/// hundredths.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Hundredths(pub i32);

impl Serialize for Hundredths {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(f64::from(self.0) / 100.0)
    }
}

impl<'de> Deserialize<'de> for Hundredths {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let x = f64::deserialize(d)?;
        // Read as the notation reads it, from its text with two decimals.
        match Evaluation::parse(&format!("{x:.2}")) {
            Some(Evaluation::Seeds(c)) if x.is_finite() => Ok(Self(c)),
            _ => Err(serde::de::Error::custom(format_args!(
                "{x} seeds is no evaluation (at most {} either way)",
                bao_notation::MAX_EVAL_SEEDS
            ))),
        }
    }
}

impl EvalJson {
    /// The JSON of an evaluation.
    #[must_use]
    pub fn from_eval(e: Evaluation) -> Self {
        match e {
            Evaluation::Seeds(c) => Self::Seeds {
                seeds: Hundredths(c),
            },
            Evaluation::Forced { winner, plies } => Self::Forced {
                winner: winner.into(),
                plies,
            },
        }
    }

    /// The evaluation it describes.
    #[must_use]
    pub fn to_eval(self) -> Evaluation {
        match self {
            Self::Seeds { seeds } => Evaluation::Seeds(seeds.0),
            Self::Forced { winner, plies } => Evaluation::Forced {
                winner: winner.into(),
                plies,
            },
        }
    }
}

/// A move that never ends: the state at the end of lap `cycle_start_lap` recurs every
/// `period` laps.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[allow(missing_docs)]
pub struct NeverEndingJson {
    pub cycle_start_lap: u64,
    pub period: u64,
}

impl RulesJson {
    /// The JSON of a rule set.
    #[must_use]
    pub fn from_rules(r: &RuleSet) -> Self {
        let variant = match r.variant {
            Variant::Kiswahili => "kiswahili",
            Variant::Kete => "kete",
            Variant::Kujifunza => "kujifunza",
        };
        let mtaji_takasa_house = match r.mtaji_takasa_house {
            HouseLap::Stop => "stop",
            HouseLap::Relay => "relay",
        };
        let front_row_guard = match r.front_row_guard {
            FrontRowGuard::Strict => "strict",
            FrontRowGuard::Off => "off",
        };
        let takasia = match r.takasia {
            Takasia::Off => "off",
            Takasia::Standard => "standard",
            Takasia::AbstractPlay => "abstractplay",
        };
        let endless_move = match r.endless_move {
            EndlessMove::Illegal => "illegal".to_owned(),
            EndlessMove::Draw => "draw".to_owned(),
            EndlessMove::MoverLoses => "mover_loses".to_owned(),
            EndlessMove::SeedCap(n) => format!("cap:{n}"),
        };
        let end_check = match r.end_check {
            EndCheck::OpponentFirst => "opponent_first",
            EndCheck::SouthFirst => "south_first",
        };
        Self {
            preset: r.preset_name().map(str::to_owned),
            key: RulesKey(*r).to_string(),
            options: RuleOptionsJson {
                variant: variant.to_owned(),
                abstractplay: r.abstractplay,
                houses: r.houses,
                mtaji_takasa_house: mtaji_takasa_house.to_owned(),
                dormant_house_placeable: r.dormant_house_placeable,
                front_row_guard: front_row_guard.to_owned(),
                house_lost_on_first_mtaji_capture: r.house_lost_on_first_mtaji_capture,
                capture_threshold: r.capture_threshold,
                takasia: takasia.to_owned(),
                capture_priority: r.capture_priority,
                kuu_floor: r.kuu_floor,
                first_takata_from_kuu: r.first_takata_from_kuu,
                houses_fall_at_move_end: r.houses_fall_at_move_end,
                bao_hamna_mid_move: r.bao_hamna_mid_move,
                endless_move,
                end_check: end_check.to_owned(),
            },
        }
    }
}

impl TraceJson {
    /// The JSON of a move's trace.
    #[must_use]
    pub fn from_trace(t: &MoveTrace) -> Self {
        Self {
            placement: t.placement.map(|p| p.to_string()),
            laps: t.laps.iter().map(lap_json).collect(),
            laps_total: t.laps_total,
            seeds_sown: t.seeds_sown,
            captures: t.captures.iter().map(capture_json).collect(),
            events: t.events.iter().map(event_json).collect(),
            never_ending: t.never_ending.map(|n| NeverEndingJson {
                cycle_start_lap: n.cycle_start_lap,
                period: n.period,
            }),
            outcome: t.outcome.as_ref().map(OutcomeJson::from),
        }
    }
}

fn lap_json(l: &Lap) -> LapJson {
    let source = match l.source {
        LapSource::Lifted => "lifted",
        LapSource::Taxed => "taxed",
        LapSource::Captured => "captured",
    };
    let ended = match l.ended {
        LapEnd::EmptyPit => "empty_pit",
        LapEnd::Capture => "capture",
        LapEnd::Relay => "relay",
        LapEnd::HouseStop => "house_stop",
        LapEnd::Safari => "safari",
        LapEnd::TakasiaStop => "takasia_stop",
        LapEnd::Aborted => "aborted",
    };
    LapJson {
        number: l.number,
        start: l.start.to_string(),
        source: source.to_owned(),
        direction: l.direction.name().to_owned(),
        seeds: l.seeds,
        end: l.end.to_string(),
        ended: ended.to_owned(),
    }
}

fn capture_json(c: &Capture) -> CaptureJson {
    CaptureJson {
        pit: c.pit.to_string(),
        seeds: c.seeds,
        kichwa: c.kichwa.to_string(),
        direction: c.direction.name().to_owned(),
        after_lap: c.after_lap,
    }
}

fn event_json(e: &Event) -> EventJson {
    match *e {
        Event::Placed { pit } => EventJson::Placed {
            pit: pit.to_string(),
        },
        Event::KichwaChosen { kichwa } => EventJson::KichwaChosen {
            kichwa: kichwa.to_string(),
        },
        Event::HouseTaxed { left } => EventJson::HouseTaxed { left },
        Event::HouseStop => EventJson::HouseStop,
        Event::Safari => EventJson::Safari,
        Event::HouseDestroyed { side } => EventJson::HouseDestroyed { side: side.into() },
        Event::TakasiaStop { pit } => EventJson::TakasiaStop {
            pit: pit.to_string(),
        },
        Event::TakasiaSet { pit } => EventJson::TakasiaSet {
            pit: pit.to_string(),
        },
        Event::TakasiaCleared { pit } => EventJson::TakasiaCleared {
            pit: pit.to_string(),
        },
        Event::BaoHamna => EventJson::BaoHamna,
    }
}

/// The JSON of every game of a replayed record (`replayed` holds the replay of each game of
/// `record`, in file order).
///
/// The record should be valid (checked without errors): a move that did not replay is an
/// error here.
///
/// # Errors
/// [`ExportError::Replay`] when a game's rules, start or a move did not replay.
pub fn record_json(
    record: &Record,
    replayed: &[ReplayedGame],
    opts: &JsonOptions,
) -> Result<RecordJson, ExportError> {
    let mut games = Vec::new();
    for (i, g) in record.games.iter().enumerate() {
        let game = &g.value;
        if !is_game(game) {
            continue;
        }
        games.push(game_json(Exported::of_record(record, replayed, i)?, opts)?);
    }
    Ok(RecordJson {
        schema: SCHEMA_VERSION,
        games,
    })
}

/// The record's JSON, pretty-printed, with a final newline.
///
/// # Errors
/// As [`record_json`].
pub fn record_json_pretty(
    record: &Record,
    replayed: &[ReplayedGame],
    opts: &JsonOptions,
) -> Result<String, ExportError> {
    let mut writer = RecordJsonWriter::new(Vec::new(), *opts);
    for (i, g) in record.games.iter().enumerate() {
        if !is_game(&g.value) {
            continue;
        }
        let game = replayed.get(i).ok_or(ReplayError::NoGame { game: i + 1 })?;
        writer.game(&g.value, i + 1, game)?;
    }
    let bytes = writer.finish()?;
    String::from_utf8(bytes).map_err(|e| ExportError::Json(e.to_string()))
}

/// Writes a record's JSON game by game, the bytes [`record_json_pretty`] gives for the
/// whole record: for a record too large to hold, read, replayed and written one game at a
/// time.
#[derive(Debug)]
pub struct RecordJsonWriter<W> {
    out: W,
    opts: JsonOptions,
    games: usize,
}

impl<W: std::io::Write> RecordJsonWriter<W> {
    /// A writer to `out` (nothing is written before the first game or the end).
    pub fn new(out: W, opts: JsonOptions) -> Self {
        Self {
            out,
            opts,
            games: 0,
        }
    }

    /// Writes game number `number` of the record (from 1, counting every game the reader
    /// gives) from its replay; a stretch that is no game (comments alone) writes nothing.
    ///
    /// # Errors
    /// As [`record_json`], and [`ExportError::Json`] when the output cannot be written.
    pub fn game(
        &mut self,
        game: &Game,
        number: usize,
        replayed: &ReplayedGame,
    ) -> Result<(), ExportError> {
        if !is_game(game) {
            return Ok(());
        }
        let json = game_json(
            Exported::new(Document::new(game, replayed), number)?,
            &self.opts,
        )?;
        if self.games == 0 {
            let head = format!("{{\n  \"schema\": {SCHEMA_VERSION},\n  \"games\": [\n");
            self.write(head.as_bytes())?;
        } else {
            self.write(b",\n")?;
        }
        self.games += 1;
        // Written as it is serialised (a game's JSON is about a hundred times its text), two
        // levels deep in the record's object.
        self.write(&INDENT[..2 * GAME_DEPTH])?;
        let mut ser = serde_json::Serializer::with_formatter(&mut self.out, Pretty::at(GAME_DEPTH));
        json.serialize(&mut ser)
            .map_err(|e| ExportError::Json(e.to_string()))
    }

    /// Ends the record (with a final newline) and gives the output back.
    ///
    /// # Errors
    /// [`ExportError::Json`] when the output cannot be written.
    pub fn finish(mut self) -> Result<W, ExportError> {
        if self.games == 0 {
            let text = format!("{{\n  \"schema\": {SCHEMA_VERSION},\n  \"games\": []\n}}\n");
            self.write(text.as_bytes())?;
        } else {
            self.write(b"\n  ]\n}\n")?;
        }
        self.out
            .flush()
            .map_err(|e| ExportError::Json(e.to_string()))?;
        Ok(self.out)
    }

    fn write(&mut self, bytes: &[u8]) -> Result<(), ExportError> {
        self.out
            .write_all(bytes)
            .map_err(|e| ExportError::Json(e.to_string()))
    }
}

/// How deep a game's object lies in the record's: `{ "games": [ {...} ] }`.
const GAME_DEPTH: usize = 2;

/// Spaces for the deepest line written (two a level); deeper lines take several pieces.
const INDENT: &[u8] = b"                                                                ";

/// `serde_json`'s pretty layout (two spaces a level, `": "` between a key and its value, an
/// empty array or object as `[]` or `{}`) starting `depth` levels deep, each line's
/// indentation written in one piece: a game is written straight into the record's output,
/// without a second pass over its bytes to indent them.
#[derive(Debug, Clone, Copy)]
struct Pretty {
    /// The level of the values being written.
    depth: usize,
    /// The array or object being written has a value already.
    has_value: bool,
}

impl Pretty {
    /// A layout whose outermost value begins `depth` levels deep.
    fn at(depth: usize) -> Self {
        Self {
            depth,
            has_value: false,
        }
    }

    /// `brk` (a line break, after a comma or not) and the indentation of `self.depth` levels.
    fn new_line<W: ?Sized + std::io::Write>(&self, out: &mut W, brk: &[u8]) -> std::io::Result<()> {
        out.write_all(brk)?;
        let mut spaces = 2 * self.depth;
        while spaces > 0 {
            let n = spaces.min(INDENT.len());
            out.write_all(&INDENT[..n])?;
            spaces -= n;
        }
        Ok(())
    }

    fn open<W: ?Sized + std::io::Write>(
        &mut self,
        out: &mut W,
        bracket: &[u8],
    ) -> std::io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        out.write_all(bracket)
    }

    fn close<W: ?Sized + std::io::Write>(
        &mut self,
        out: &mut W,
        bracket: &[u8],
    ) -> std::io::Result<()> {
        self.depth = self.depth.saturating_sub(1);
        if self.has_value {
            self.new_line(out, b"\n")?;
        }
        out.write_all(bracket)
    }

    fn item<W: ?Sized + std::io::Write>(&self, out: &mut W, first: bool) -> std::io::Result<()> {
        self.new_line(out, if first { b"\n" } else { b",\n" })
    }
}

impl serde_json::ser::Formatter for Pretty {
    fn begin_array<W: ?Sized + std::io::Write>(&mut self, out: &mut W) -> std::io::Result<()> {
        self.open(out, b"[")
    }

    fn end_array<W: ?Sized + std::io::Write>(&mut self, out: &mut W) -> std::io::Result<()> {
        self.close(out, b"]")
    }

    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        out: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.item(out, first)
    }

    fn end_array_value<W: ?Sized + std::io::Write>(&mut self, _out: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + std::io::Write>(&mut self, out: &mut W) -> std::io::Result<()> {
        self.open(out, b"{")
    }

    fn end_object<W: ?Sized + std::io::Write>(&mut self, out: &mut W) -> std::io::Result<()> {
        self.close(out, b"}")
    }

    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        out: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.item(out, first)
    }

    fn begin_object_value<W: ?Sized + std::io::Write>(
        &mut self,
        out: &mut W,
    ) -> std::io::Result<()> {
        out.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + std::io::Write>(
        &mut self,
        _out: &mut W,
    ) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

fn game_json(game: Exported<'_>, opts: &JsonOptions) -> Result<GameJson, ExportError> {
    let walker = LineWalker { game, opts };
    let (moves, end) = walker.line(game.doc.main())?;
    let g = game.doc.game();
    Ok(GameJson {
        game: game.number,
        comments: g.comments.iter().map(|c| c.value.text.clone()).collect(),
        tags: g
            .tags
            .iter()
            .map(|t| TagJson {
                name: t.value.name.value.clone(),
                value: t.value.value.value.clone(),
            })
            .collect(),
        rules: RulesJson::from_rules(&game.rules),
        start: PositionJson::from_position(&game.start),
        moves,
        outcome: end.as_ref().map(OutcomeJson::from),
        result: g.result.as_ref().map(|r| r.value.as_str().to_owned()),
    })
}

/// One game's JSON (as an element of [`record_json`]'s `games`), from its replay: for work
/// done game by game on a stream (`bao filter --format json`). `number` is the game's
/// number in its file, from 1.
///
/// # Errors
/// [`ExportError::Replay`] when the game's rules, start or a move did not replay.
pub fn replayed_game_json(
    game: &Game,
    number: usize,
    replayed: &ReplayedGame,
    opts: &JsonOptions,
) -> Result<GameJson, ExportError> {
    game_json(Exported::new(Document::new(game, replayed), number)?, opts)
}

struct LineWalker<'a> {
    game: Exported<'a>,
    opts: &'a JsonOptions,
}

impl<'a> LineWalker<'a> {
    /// The plies of a line and the outcome at its end, as the line replayed.
    fn line(&self, line: Line<'a>) -> Result<(Vec<PlyJson>, Option<Outcome>), ExportError> {
        let mut plies: Vec<PlyJson> = Vec::new();
        let mut pending: Vec<String> = Vec::new();
        for node in line.nodes() {
            match node {
                Node::Comment(c, _) => match plies.last_mut() {
                    Some(last) => {
                        last.comments.push(c.text.clone());
                        last.variations_before_comments.push(last.variations.len());
                    }
                    None => pending.push(c.text.clone()),
                },
                Node::Variation(v) => {
                    // A variation before any move has no branch point (the validator skips
                    // it too).
                    if let Some(last) = plies.last_mut() {
                        let v = self.game.variation(v, last.ply)?;
                        let (line, _) = self.line(v)?;
                        last.variations.push(line);
                    }
                }
                Node::Move(m) => {
                    let (ply, played) = self.game.played(&m)?;
                    let item = m.written();
                    let trace = &played.trace;
                    let marks = markup_after(&m);
                    plies.push(PlyJson {
                        ply: ply.number,
                        side: ply.mover().into(),
                        stage: trace.stage.into(),
                        mv: played.mv.to_string(),
                        written: item.token.value.to_string(),
                        nags: item.nags.iter().map(|n| n.value.0).collect(),
                        comments_before: std::mem::take(&mut pending),
                        comments: Vec::new(),
                        variations_before_comments: Vec::new(),
                        markup: MarkupJson::from_markup(&marks),
                        eval: marks.eval.map(EvalJson::from_eval),
                        legal: self.opts.legal.then(|| {
                            ply.before
                                .legal_moves()
                                .iter()
                                .map(ToString::to_string)
                                .collect()
                        }),
                        trace: TraceJson::from_trace(trace),
                        position: PositionJson::from_position(&played.after),
                        variations: Vec::new(),
                    });
                }
            }
        }
        // Said only where a comment follows a variation.
        for p in &mut plies {
            if no_variation_before(&p.variations_before_comments) {
                p.variations_before_comments.clear();
            }
        }
        Ok((plies, self.game.outcome(&line)?))
    }
}

/// The record an export describes (`bao import json`): games with their comments, tags,
/// moves (canonical, with `**` and `#` where the trace shows a takasia set or a win), NAGs,
/// comments, variations and result. Traces, positions and legal moves are not read: replay
/// the record to get them back.
///
/// A comment is written in braces, or as a line comment when its text holds a `}`.
///
/// # Errors
/// [`ExportError::Import`] for a schema other than 1 or a move that is no move.
pub fn record_from_json(json: &RecordJson) -> Result<Record, ExportError> {
    if json.schema != SCHEMA_VERSION {
        return Err(ExportError::Import(format!(
            "schema {} is not supported (only {SCHEMA_VERSION})",
            json.schema
        )));
    }
    let mut games = Vec::new();
    for g in &json.games {
        let result = match &g.result {
            Some(r) => Some(Spanned::bare(GameResult::from_token(r).ok_or_else(
                || ExportError::Import(format!("game {}: `{r}` is no result", g.game)),
            )?)),
            None => None,
        };
        games.push(Spanned::bare(Game {
            comments: g
                .comments
                .iter()
                .map(|c| Spanned::bare(comment(c)))
                .collect(),
            tags: g
                .tags
                .iter()
                .map(|t| Spanned::bare(Tag::new(&t.name, &t.value)))
                .collect(),
            movetext: line_elements(&g.moves, g.game, 0)?,
            result,
        }));
    }
    Ok(Record { games })
}

fn comment(text: &str) -> Comment {
    if text.contains('}') {
        Comment {
            kind: CommentKind::Line,
            text: text.to_owned(),
        }
    } else {
        Comment::brace(text)
    }
}

fn line_elements(
    plies: &[PlyJson],
    game: usize,
    depth: usize,
) -> Result<Vec<Spanned<Element>>, ExportError> {
    if depth > MAX_DEPTH {
        return Err(ExportError::Import(format!(
            "game {game}: variations nested too deeply"
        )));
    }
    let mut out = Vec::new();
    for p in plies {
        for c in &p.comments_before {
            out.push(Spanned::bare(Element::Comment(comment(c))));
        }
        let spec: MoveSpec = p.mv.parse().map_err(|e| {
            ExportError::Import(format!("game {game}, ply {}: `{}`: {e}", p.ply, p.mv))
        })?;
        // The claims are the record's: written where the trace shows them.
        let mut token = MoveToken::from(spec);
        token.claims_takasia = spec.takasa
            && p.trace
                .events
                .iter()
                .any(|e| matches!(e, EventJson::TakasiaSet { .. }));
        token.claims_win = p
            .trace
            .outcome
            .as_ref()
            .is_some_and(|o| o.winner == Some(p.side));
        let mut item = MoveItem::new(token);
        item.nags = p.nags.iter().map(|n| Spanned::bare(Nag(*n))).collect();
        out.push(Spanned::bare(Element::Move(item)));
        // Each comment after as many variations as were written before it.
        let n = p.variations.len();
        let place = |i: usize| p.variations_before_comments.get(i).map_or(0, |&k| k.min(n));
        for j in 0..=n {
            for (i, c) in p.comments.iter().enumerate() {
                if place(i) == j {
                    out.push(Spanned::bare(Element::Comment(comment(c))));
                }
            }
            if let Some(v) = p.variations.get(j) {
                out.push(Spanned::bare(Element::Variation(line_elements(
                    v,
                    game,
                    depth + 1,
                )?)));
            }
        }
    }
    Ok(out)
}
