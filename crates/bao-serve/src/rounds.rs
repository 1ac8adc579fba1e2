//! The evening's rounds over HTTP (spec/serve.md, "Rounds and standings"): the players,
//! a new round (pairings entered, round-robin or Swiss), a board's result set or
//! corrected, and the standings and crosstable read from the boards' game files.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::extract::Path;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use bao_notation::meaning::is_game;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::api::{create_game, fresh, CreateBody};
use crate::app::{blocking, ApiError, App, Scribed, Shared};
use crate::event::{
    check_name, halves, result_points, Board, Event, Outcome, Pairing, Played, Round, Standing,
    MAX_PLAYERS,
};
use crate::store::result_of;

type ApiResult = Result<Response, ApiError>;

/// The tie-breaks, in the order they are applied (after match points).
const TIEBREAKS: [&str; 3] = ["Sonneborn-Berger", "direct encounter", "game points"];

/// A board's games as its file holds them: each player's game points and whether the
/// match is over; `None` without a game file.
fn played(app: &App, board: &Board) -> Option<(Played, bool)> {
    let id = board.game.as_ref()?;
    let slot = app.store.get(id).or_else(|| app.store.find(id))?;
    let inner = fresh(app, &slot, false).ok()?;
    let mut p = Played::default();
    let mut last = "*".to_owned();
    for g in inner
        .session
        .record()
        .games
        .iter()
        .map(|g| &g.value)
        .filter(|g| is_game(g))
    {
        last = result_of(Some(g));
        let Some((s, n)) = result_points(&last) else {
            continue;
        };
        let south = g.tag("South").map(|t| t.value.as_str());
        if south == Some(board.south.as_str()) {
            p.south += s;
            p.north += n;
        } else if south == Some(board.north.as_str()) {
            p.south += n;
            p.north += s;
        }
    }
    let live = inner.session.game_state().is_some_and(|s| s.open);
    p.over = !live && last != "*";
    Some((p, live))
}

/// The evening's rounds as the pages read them: players, rounds with each board's
/// outcome, standings, crosstable.
fn event_json(app: &App, event: &Event) -> Value {
    let games: Vec<Vec<Option<(Played, bool)>>> = event
        .rounds
        .iter()
        .map(|r| r.boards.iter().map(|b| played(app, b)).collect())
        .collect();
    let standings = event.standings(&|r, b| games[r][b].map(|(p, _)| p));
    let rank: BTreeMap<&str, usize> = standings
        .iter()
        .map(|s| (s.name.as_str(), s.rank))
        .collect();
    let outcome_text = |o: &Outcome| match o.south_mp {
        2 => "1-0",
        0 => "0-1",
        _ => "1/2-1/2",
    };
    let rounds: Vec<Value> = event
        .rounds
        .iter()
        .enumerate()
        .map(|(ri, r)| {
            let boards: Vec<Value> = r
                .boards
                .iter()
                .enumerate()
                .map(|(bi, b)| {
                    let g = games[ri][bi];
                    let o = b.outcome(g.map(|(p, _)| p));
                    json!({
                        "board": bi + 1, "south": b.south, "north": b.north, "game": b.game,
                        "best_of_three": b.best_of_three, "result": b.result,
                        "score": o.map(|o| format!("{}-{}", halves(o.south), halves(o.north))),
                        "outcome": o.as_ref().map(outcome_text),
                        "corrected": o.is_some_and(|o| o.corrected),
                        "live": g.is_some_and(|(_, live)| live),
                    })
                })
                .collect();
            json!({"number": r.number, "pairing": r.pairing, "bye": r.bye, "boards": boards})
        })
        .collect();
    let cross: Vec<Value> = standings
        .iter()
        .map(|s| {
            let cells: Vec<Value> = event
                .rounds
                .iter()
                .enumerate()
                .map(|(ri, r)| cell(s, r, &games[ri], &rank))
                .collect();
            json!({"rank": s.rank, "name": s.name, "rounds": cells, "match_points": s.match_points})
        })
        .collect();
    let table: Vec<Value> = standings
        .iter()
        .map(|s| {
            json!({
                "rank": s.rank, "name": s.name, "match_points": s.match_points,
                "game_points": halves(s.games2), "sb": halves(s.sb2),
                "played": s.played, "byes": s.byes,
            })
        })
        .collect();
    json!({
        "players": event.players, "rounds": rounds, "standings": table,
        "tiebreaks": TIEBREAKS, "crosstable": cross,
    })
}

/// A player's cell of the crosstable in round `r`: the opponent's rank, the side, the
/// match's score from the player's side and W/D/L (null while it goes on); a bye; or
/// null (not playing).
fn cell(
    s: &Standing,
    r: &Round,
    games: &[Option<(Played, bool)>],
    rank: &BTreeMap<&str, usize>,
) -> Value {
    if r.bye.as_deref() == Some(s.name.as_str()) {
        return json!({"bye": true});
    }
    let Some((bi, b)) = r
        .boards
        .iter()
        .enumerate()
        .find(|(_, b)| b.south == s.name || b.north == s.name)
    else {
        return Value::Null;
    };
    let south = b.south == s.name;
    let opponent = if south { &b.north } else { &b.south };
    let o = b.outcome(games[bi].map(|(p, _)| p));
    let (score, wdl) = match o {
        Some(o) => {
            let (me, them, mp) = if south {
                (o.south, o.north, o.south_mp)
            } else {
                (o.north, o.south, o.north_mp)
            };
            (
                Some(format!("{}-{}", halves(me), halves(them))),
                Some(["L", "D", "W"][mp as usize]),
            )
        }
        None => (None, None),
    };
    json!({
        "opponent": rank.get(opponent.as_str()), "side": if south { "S" } else { "N" },
        "score": score, "outcome": wdl, "corrected": o.is_some_and(|o| o.corrected),
    })
}

fn lock(app: &App) -> std::sync::MutexGuard<'_, Event> {
    app.event
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn unprocessable(code: &str, message: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, code, message)
}

/// Writes the event (before the answer: acknowledged is on disk) and tells the evening's
/// watchers (a `rounds` event).
fn save(app: &App, event: &Event) -> Result<(), ApiError> {
    event
        .save(&app.config.dir)
        .map_err(|e| ApiError::failed("serve::not_written", format!("event.toml: {e}")))?;
    let rounds = event.rounds.len();
    let _ = app.store.all.send(axum::body::Bytes::from(format!(
        "event: rounds\ndata: {}\n\n",
        json!({"kind": "rounds", "rounds": rounds})
    )));
    Ok(())
}

/// `GET /api/event`.
pub(crate) async fn get_event(app: Shared, headers: HeaderMap) -> ApiResult {
    if !app.auth.may_read(&headers) {
        return Err(ApiError::unauthorized());
    }
    let app2 = Arc::clone(&app);
    let v = blocking(move || {
        let event = lock(&app2).clone();
        event_json(&app2, &event)
    })
    .await?;
    Ok(Json(v).into_response())
}

/// `POST /api/event/players` body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PlayersBody {
    players: Vec<String>,
}

/// `POST /api/event/players`: the evening's players, in order (a round-robin's order).
pub(crate) async fn set_players(app: Shared, Scribed(b): Scribed<PlayersBody>) -> ApiResult {
    let app2 = Arc::clone(&app);
    let v = blocking(move || {
        let players: Vec<String> = b.players.iter().map(|p| p.trim().to_owned()).collect();
        if players.len() > MAX_PLAYERS {
            return Err(unprocessable(
                "serve::bad_players",
                format!("at most {MAX_PLAYERS} players"),
            ));
        }
        let mut event = lock(&app2);
        let mut next = event.clone();
        next.players = players;
        next.check()
            .map_err(|m| unprocessable("serve::bad_players", m))?;
        save(&app2, &next)?;
        *event = next;
        Ok(event_json(&app2, &event))
    })
    .await??;
    Ok(Json(v).into_response())
}

/// A board as the organiser enters it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct BoardBody {
    south: String,
    north: String,
}

/// `POST /api/event/rounds` body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RoundBody {
    pairing: Pairing,
    #[serde(default)]
    boards: Vec<BoardBody>,
    #[serde(default)]
    bye: Option<String>,
    #[serde(default)]
    best_of_three: bool,
    #[serde(default)]
    rules: Option<String>,
    /// The boards' clocks (`TimeControl`, `600+5`), if any.
    #[serde(default)]
    time_control: Option<String>,
}

/// `POST /api/event/rounds`: the next round, paired as asked; a game for each board
/// (tags `Round`, `South`, `North`, and `Match` for a best-of-three).
pub(crate) async fn new_round(app: Shared, Scribed(b): Scribed<RoundBody>) -> ApiResult {
    let app2 = Arc::clone(&app);
    let v = blocking(move || {
        let mut event = lock(&app2);
        let mut next = event.clone();
        let number = u32::try_from(next.rounds.len() + 1).unwrap_or(u32::MAX);
        let no_pairing =
            |m: String| ApiError::new(StatusCode::CONFLICT, "serve::no_pairing", m);
        let (pairs, bye) = match b.pairing {
            Pairing::Entered => {
                let pairs: Vec<(String, String)> = b
                    .boards
                    .iter()
                    .map(|p| (p.south.trim().to_owned(), p.north.trim().to_owned()))
                    .collect();
                if pairs.is_empty() {
                    return Err(unprocessable(
                        "serve::bad_round",
                        "an entered round needs its boards",
                    ));
                }
                // A name not yet among the players joins them.
                for name in pairs
                    .iter()
                    .flat_map(|(s, n)| [s, n])
                    .chain(b.bye.as_ref())
                {
                    check_name(name).map_err(|m| unprocessable("serve::bad_round", m))?;
                    if !next.players.contains(name) {
                        next.players.push(name.clone());
                    }
                }
                (pairs, b.bye.as_ref().map(|s| s.trim().to_owned()))
            }
            generated => {
                if !b.boards.is_empty() || b.bye.is_some() {
                    return Err(unprocessable(
                        "serve::bad_round",
                        "boards and a bye are entered only with the pairing `entered`",
                    ));
                }
                if generated == Pairing::Swiss {
                    let open = event_json(&app2, &next)["rounds"]
                        .as_array()
                        .and_then(|r| r.last().cloned())
                        .is_some_and(|r| {
                            r["boards"]
                                .as_array()
                                .is_some_and(|bs| bs.iter().any(|b| b["outcome"].is_null()))
                        });
                    if open {
                        return Err(ApiError::new(
                            StatusCode::CONFLICT,
                            "serve::round_not_finished",
                            "a Swiss round is paired once every board of the round before has its result",
                        ));
                    }
                    let standings = standings_of(&app2, &next);
                    next.swiss(&standings).map_err(no_pairing)?
                } else {
                    next.round_robin().map_err(no_pairing)?
                }
            }
        };
        next.rounds.push(Round {
            number,
            pairing: b.pairing,
            bye,
            boards: pairs
                .into_iter()
                .map(|(south, north)| Board {
                    south,
                    north,
                    game: None,
                    best_of_three: b.best_of_three,
                    result: None,
                })
                .collect(),
        });
        next.check()
            .map_err(|m| unprocessable("serve::bad_round", m))?;
        // The boards' games first, then the event that names them.
        let round = next.rounds.last_mut().unwrap_or_else(|| unreachable!());
        for board in &mut round.boards {
            let mut tags = BTreeMap::from([
                ("Round".to_owned(), number.to_string()),
                ("South".to_owned(), board.south.clone()),
                ("North".to_owned(), board.north.clone()),
            ]);
            if let Some(tc) = b.time_control.as_ref().filter(|t| !t.trim().is_empty()) {
                tags.insert("TimeControl".to_owned(), tc.trim().to_owned());
            }
            if board.best_of_three {
                tags.insert(
                    "Match".to_owned(),
                    format!("Round {number}: {} v {}", board.south, board.north),
                );
            }
            let slot = create_game(
                &app2,
                CreateBody {
                    tags,
                    rules: b.rules.clone(),
                    position: None,
                },
            )?;
            board.game = Some(slot.id.clone());
        }
        save(&app2, &next)?;
        *event = next;
        Ok(event_json(&app2, &event))
    })
    .await??;
    Ok((StatusCode::CREATED, Json(v)).into_response())
}

fn standings_of(app: &App, event: &Event) -> Vec<Standing> {
    let games: Vec<Vec<Option<Played>>> = event
        .rounds
        .iter()
        .map(|r| {
            r.boards
                .iter()
                .map(|b| played(app, b).map(|(p, _)| p))
                .collect()
        })
        .collect();
    event.standings(&|r, b| games[r][b])
}

/// `POST /api/event/rounds/{n}/result` body: `result` `1-0`, `0-1`, `1/2-1/2` (the
/// match, from the board's South), or `null` to take the organiser's result back.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ResultBody {
    board: usize,
    result: Option<String>,
}

/// `POST /api/event/rounds/{n}/result`: a board's result set or corrected by the
/// organiser (it stands over what the games say), or taken back.
pub(crate) async fn set_result(
    app: Shared,
    Path(n): Path<String>,
    Scribed(b): Scribed<ResultBody>,
) -> ApiResult {
    let app2 = Arc::clone(&app);
    let v = blocking(move || {
        let mut event = lock(&app2);
        let mut next = event.clone();
        let no_board = || {
            ApiError::new(
                StatusCode::NOT_FOUND,
                "serve::no_such_board",
                "no such round or board",
            )
        };
        let round = n
            .parse::<usize>()
            .ok()
            .and_then(|n| n.checked_sub(1))
            .and_then(|i| next.rounds.get_mut(i))
            .ok_or_else(no_board)?;
        let board = b
            .board
            .checked_sub(1)
            .and_then(|i| round.boards.get_mut(i))
            .ok_or_else(no_board)?;
        if let Some(r) = &b.result {
            if result_points(r).is_none() {
                return Err(unprocessable(
                    "serve::bad_result",
                    "a result is 1-0, 0-1 or 1/2-1/2 (the match, from the board's South), or null",
                ));
            }
        }
        board.result = b.result;
        next.check()
            .map_err(|m| unprocessable("serve::bad_result", m))?;
        save(&app2, &next)?;
        *event = next;
        Ok(event_json(&app2, &event))
    })
    .await??;
    Ok(Json(v).into_response())
}
