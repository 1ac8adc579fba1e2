//! A game as the scribe's page and the move answers show it: the position, the legal moves
//! (each with what it does), the outcome.

use std::collections::BTreeMap;

use bao_core::json::{OutcomeJson, PositionJson};
use bao_core::{Engine, Move, Position, RuleSet, Sign};
use bao_export::Overlay;
use serde::Serialize;

use crate::store::{result_of, Inner};

/// One legal move and what it does.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct MoveJson {
    /// The move as the notation writes it (`A6<*`).
    #[serde(rename = "move")]
    pub(crate) text: String,
    /// Its pit (`A6`).
    pub(crate) pit: String,
    /// Its sign: `<` or `>`.
    pub(crate) sign: &'static str,
    /// Whether it captures.
    pub(crate) capture: bool,
    /// Whether it sows the house on (safari).
    pub(crate) safari: bool,
    /// What it does, in the words of the rules' variant (laps, captures).
    pub(crate) does: String,
}

/// The state of a game.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct StateJson {
    pub(crate) id: String,
    pub(crate) version: u64,
    /// The tags of the current game.
    pub(crate) tags: BTreeMap<String, String>,
    pub(crate) plies: usize,
    /// The position to move from (`null`: no game entered).
    pub(crate) position: Option<PositionJson>,
    /// The legal moves (empty when the game takes no moves; `null` when they are
    /// undecided within the lap budget).
    pub(crate) legal: Option<Vec<String>>,
    /// The legal moves with what each does (as `legal`).
    pub(crate) moves: Option<Vec<MoveJson>>,
    /// How the rules ended the game, if they did.
    pub(crate) outcome: Option<OutcomeJson>,
    pub(crate) result: String,
    pub(crate) live: bool,
    /// The nyumba's name under the game's rules (`nyumba` or `kuu`).
    pub(crate) house: String,
    /// Whether the game's rules know draws (a draw by agreement may end it).
    pub(crate) draws: bool,
    /// The moves of the current game's main line, as recorded.
    pub(crate) line: Vec<String>,
    /// The game's clock, when it has a `TimeControl`: `{"control", "south_ms", "north_ms",
    /// "running", "since_ms", "now_ms"}` (each side's time left as of the last ply, the side
    /// whose clock runs and since when, the server's time now; ms since 1970).
    pub(crate) clock: Option<serde_json::Value>,
}

/// The clock of the game held by `inner`, if it has one.
pub(crate) fn clock_json(inner: &Inner) -> Option<serde_json::Value> {
    let text = inner.tags().get("TimeControl")?.clone();
    let control = crate::clock::parse_control(&text)?;
    let game = inner.game()?;
    let south_first = inner
        .session
        .position_after(0)
        .is_some_and(|p| p.to_move() == bao_core::Side::South);
    let [south, north] = crate::clock::left(game, control, south_first);
    let g = inner.session.game_state();
    let running = g
        .filter(|g| g.open && g.plies > 0)
        .map(|g| match g.position.to_move() {
            bao_core::Side::South => "south",
            bao_core::Side::North => "north",
        });
    let ms = |d: std::time::Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
    Some(serde_json::json!({
        "control": text, "south_ms": ms(south), "north_ms": ms(north), "running": running,
        "since_ms": inner.clock_since.map(crate::clock::epoch_ms),
        "now_ms": crate::clock::epoch_ms(std::time::SystemTime::now()),
    }))
}

/// What `mv` does from `pos` (bao-export's words: `3 laps; captured a5 (3)`); a capture
/// says first which kichwa the captured seeds are sown from.
fn does(cx: &mut Engine, pos: &Position, mv: &Move, rules: &RuleSet) -> String {
    let (_, trace) = cx.play_unchecked(pos, mv);
    let effect = Overlay::from_trace(pos, &trace).effect(rules);
    match trace.captures.first() {
        Some(c) => format!("sown from the kichwa {}; {effect}", c.kichwa),
        None => effect,
    }
}

/// The JSON of each move in `moves`, played from `pos` under the lap budget (on an engine of
/// this call).
pub(crate) fn moves_json(
    pos: &Position,
    moves: &[Move],
    rules: &RuleSet,
    budget: u64,
) -> Option<Vec<MoveJson>> {
    Engine::new()
        .within(budget, |cx| {
            moves
                .iter()
                .map(|m| MoveJson {
                    text: m.to_string(),
                    pit: m.pit.to_string(),
                    sign: match m.sign {
                        Sign::Left => "<",
                        Sign::Right => ">",
                    },
                    capture: m.is_capture(),
                    safari: m.is_safari(),
                    does: does(cx, pos, m, rules),
                })
                .collect()
        })
        .ok()
}

/// The state of the game held by `inner`.
pub(crate) fn state(id: &str, inner: &Inner, budget: u64) -> StateJson {
    let game = inner.game();
    let mut out = StateJson {
        id: id.to_owned(),
        version: inner.version,
        tags: inner.tags(),
        plies: game.map_or(0, |g| g.main_line().count()),
        position: None,
        legal: Some(Vec::new()),
        moves: Some(Vec::new()),
        outcome: None,
        result: result_of(game),
        live: false,
        house: "nyumba".to_owned(),
        draws: false,
        line: game.map_or_else(Vec::new, |g| {
            g.main_line().map(|m| m.token.value.to_string()).collect()
        }),
        clock: clock_json(inner),
    };
    let Some(s) = inner.session.game_state() else {
        return out;
    };
    out.position = Some(PositionJson::from_position(&s.position));
    // Whether the game is over asks whether the side to move has a legal move: under the
    // budget too (undecided: no outcome, and `legal` null below). One engine answers both.
    let mut engine = Engine::new();
    out.outcome = engine
        .within(budget, |e| e.outcome(&s.position))
        .ok()
        .flatten()
        .as_ref()
        .map(OutcomeJson::from);
    out.live = s.open;
    out.house = s.rules.names().nyumba.to_owned();
    out.draws = s.rules.endless_move == bao_core::EndlessMove::Draw;
    if s.open {
        let legal = engine.within(budget, |e| e.legal_moves(&s.position)).ok();
        out.moves = legal
            .as_deref()
            .and_then(|l| moves_json(&s.position, l, &s.rules, budget));
        out.legal = legal.map(|l| l.iter().map(ToString::to_string).collect());
    }
    out
}
