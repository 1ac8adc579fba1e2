//! The JSON API (spec/serve.md).

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::{ConnectInfo, Path};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use bao_core::{Engine, Side};
use bao_export::{board_svg, record_json_pretty, JsonOptions, Overlay, SvgOptions};
use bao_session::{
    Answers, Command, Input, MatchChoice, PlyAnswer, Refusal, Reply, Session, SideName,
};
use bao_validate::{check_bytes, CheckOptions};
use futures_util::stream::{self, Stream, StreamExt};
use miette::Diagnostic;
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::broadcast;

use crate::app::{blocking, body, ApiError, App, Scribed, Shared};
use crate::auth::{session_cookie, Login};
use crate::clock;
use crate::state::{moves_json, state as game_state};
use crate::store::{valid_id, Fresh, Inner, Slot};

/// The longest move text taken.
const MOVE_LIMIT: usize = 64;
/// The longest comment taken.
const COMMENT_LIMIT: usize = 2_000;
/// The most tags a new game may carry.
const TAG_LIMIT: usize = 32;
/// The longest tag value taken.
const TAG_VALUE_LIMIT: usize = 200;

type ApiResult = Result<Response, ApiError>;

fn reader(app: &Shared, headers: &HeaderMap) -> Result<(), ApiError> {
    if app.auth.may_read(headers) {
        Ok(())
    } else {
        Err(ApiError::unauthorized())
    }
}

/// The game `id`: one served, or one whose file was copied into the directory since the
/// server last looked.
async fn slot(app: &Shared, id: &str) -> Result<Arc<Slot>, ApiError> {
    if let Some(s) = app.store.get(id) {
        return Ok(s);
    }
    if !valid_id(id) {
        return Err(ApiError::no_game());
    }
    let (app, id) = (Arc::clone(app), id.to_owned());
    blocking(move || app.store.find(&id))
        .await?
        .ok_or_else(ApiError::no_game)
}

/// The game locked, read again from its file if another program changed it since (the
/// watchers are told: `reload`). For a change, `writing`: a file that is gone or does not
/// check now takes none (`409`); a read gets the last valid game.
pub(crate) fn fresh<'a>(
    app: &App,
    s: &'a Slot,
    writing: bool,
) -> Result<std::sync::MutexGuard<'a, Inner>, ApiError> {
    let mut inner = s.lock();
    match inner.freshen(s.path(), app.config.lap_budget) {
        Fresh::Same => {}
        Fresh::Reloaded => {
            let change = inner.change(&s.id, "reload");
            app.store.announce(s, change);
        }
        Fresh::Gone => return Err(ApiError::no_game()),
        Fresh::Invalid(why) if writing => {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "serve::file_invalid",
                format!("another program changed the game's file and it is not a valid record now ({why}); nothing was written"),
            ))
        }
        Fresh::Invalid(_) => {}
    }
    Ok(inner)
}

/// `POST /api/login` body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct LoginBody {
    pin: String,
}

/// `POST /api/login`: the PIN gives a cookie session and its CSRF token.
pub(crate) async fn login(
    app: Shared,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    bytes: Bytes,
) -> ApiResult {
    let b: LoginBody = body(&headers, &bytes)?;
    // A granted PIN writes the sessions' file: off the async runtime.
    let app2 = Arc::clone(&app);
    let tried = blocking(move || app2.auth.login(peer.ip(), &b.pin)).await?;
    match tried {
        Ok(Login::Granted { cookie, csrf }) => {
            let mut r = Json(json!({ "csrf": csrf })).into_response();
            if let Ok(v) = HeaderValue::from_str(&session_cookie(&cookie)) {
                r.headers_mut().insert(header::SET_COOKIE, v);
            }
            Ok(r)
        }
        Ok(Login::Denied { wait }) => {
            tokio::time::sleep(wait).await;
            Err(ApiError::unauthorized())
        }
        Ok(Login::TooSoon { retry }) => {
            let mut r = ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "serve::too_many_pins",
                "too many wrong PINs; wait before the next try",
            )
            .into_response();
            let secs = retry.as_secs() + 1;
            r.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(secs));
            Ok(r)
        }
        Err(_) => Err(ApiError::internal()),
    }
}

/// `GET /api/login`: the CSRF token of the request's cookie session (`null`: none).
pub(crate) async fn whoami(app: Shared, headers: HeaderMap) -> ApiResult {
    Ok(Json(json!({ "csrf": app.auth.csrf_of(&headers) })).into_response())
}

/// `GET /api/games`.
pub(crate) async fn list(app: Shared, headers: HeaderMap) -> ApiResult {
    reader(&app, &headers)?;
    let app2 = Arc::clone(&app);
    let games = blocking(move || {
        // The files are the database: what other programs wrote since is taken now.
        let _ = app2.store.rescan();
        let mut games: Vec<(String, Value)> = app2
            .store
            .all_games()
            .iter()
            .map(|s| {
                let inner = s.lock();
                let tags = inner.tags();
                let c = inner.change(&s.id, "state");
                let game = json!({
                    "id": s.id, "tags": tags, "plies": c.plies, "result": c.result,
                    "live": c.live, "version": c.version, "earlier": inner.earlier(),
                    "clock": crate::state::clock_json(&inner),
                });
                (s.id.clone(), game)
            })
            .collect();
        // The game files that do not open, with their problem.
        games.extend(app2.store.problems().into_iter().map(|p| {
            let game = json!({
                "id": p.id, "tags": {}, "plies": 0, "result": "*", "live": false,
                "version": 0, "earlier": [], "problem": p.why,
            });
            (p.id, game)
        }));
        games.sort_by(|a, b| a.0.cmp(&b.0));
        games.into_iter().map(|(_, g)| g).collect::<Vec<Value>>()
    })
    .await?;
    Ok(Json(games).into_response())
}

/// `POST /api/games` body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CreateBody {
    #[serde(default)]
    pub(crate) tags: BTreeMap<String, String>,
    #[serde(default)]
    pub(crate) rules: Option<String>,
    #[serde(default)]
    pub(crate) position: Option<String>,
}

fn unprocessable(code: &str, message: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, code, message)
}

/// The answers of a new game's tags; the tags that are no question are left in `tags`.
fn answers(b: &mut CreateBody, event: Option<&String>) -> Result<Answers, ApiError> {
    if b.tags.len() > TAG_LIMIT {
        return Err(unprocessable(
            "serve::bad_tags",
            format!("at most {TAG_LIMIT} tags"),
        ));
    }
    for (name, value) in &b.tags {
        let name_ok = !name.is_empty()
            && name.len() <= 40
            && name.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_');
        if !name_ok
            || value.chars().count() > TAG_VALUE_LIMIT
            || value.chars().any(char::is_control)
        {
            return Err(unprocessable(
                "serve::bad_tags",
                format!("tag `{name}`: names are letters, digits and _, values one line of at most {TAG_VALUE_LIMIT} characters"),
            ));
        }
    }
    let mut take = |n: &str| b.tags.remove(n).filter(|v| !v.trim().is_empty());
    let date = take("Date");
    if let Some(d) = &date {
        if !bao_session::valid_date(d) {
            return Err(unprocessable(
                "serve::bad_tags",
                "write the Date as YYYY.MM.DD (`??` for an unknown part)",
            ));
        }
    }
    let matches = match take("Match") {
        Some(m) => MatchChoice::Named(m),
        None => MatchChoice::Single,
    };
    Ok(Answers {
        event: take("Event").or_else(|| event.cloned()),
        site: take("Site"),
        date,
        round: take("Round"),
        south: take("South"),
        north: take("North"),
        rules: b
            .rules
            .as_deref()
            .map(str::trim)
            .filter(|r| !r.is_empty())
            .map(preset_lowercase),
        position: b.position.clone().filter(|p| !p.trim().is_empty()),
        matches,
    })
}

/// A rule set as typed (`Kiswahili`): the preset's name is read in any case, the
/// overrides after it as written.
fn preset_lowercase(rules: &str) -> String {
    match rules.split_once(char::is_whitespace) {
        Some((preset, rest)) => format!("{} {}", preset.to_lowercase(), rest.trim()),
        None => rules.to_lowercase(),
    }
}

/// Sets the tags that are no question.
fn set_tags(session: &mut Session, tags: &BTreeMap<String, String>) -> Result<(), ApiError> {
    for (name, value) in tags {
        let replies = session
            .handle(Input::Command(Command::Tag {
                name: name.clone(),
                value: Some(value.clone()),
            }))
            .map_err(|e| unprocessable("serve::cannot_create", e.to_string()))?;
        if !replies.iter().any(|r| matches!(r, Reply::TagSet { .. })) {
            return Err(unprocessable(
                "serve::bad_tags",
                format!("the tag `{name}` cannot be set here"),
            ));
        }
    }
    Ok(())
}

/// Refuses a start position whose legal moves are undecided within the lap budget, before
/// any file is written: such a game would be created only to refuse every move.
fn check_start(answers: &Answers, budget: u64) -> Result<(), ApiError> {
    let Some(position) = &answers.position else {
        return Ok(());
    };
    let mut game = bao_notation::Game::default();
    for (name, value) in [
        ("RuleSet", answers.rules.as_deref().unwrap_or("kiswahili")),
        ("Position", position.as_str()),
    ] {
        game.tags
            .push(bao_notation::Spanned::bare(bao_notation::Tag::new(
                name, value,
            )));
    }
    let start = bao_notation::meaning::game_rules(&game)
        .ok()
        .and_then(|rules| bao_notation::meaning::game_start(&game, rules).ok());
    let Some(start) = start else {
        return Err(unprocessable(
            "serve::cannot_create",
            "the rule set or the position does not read",
        ));
    };
    if start.legal_moves_within(budget).is_err() {
        return Err(unprocessable(
            "bao::budget::undecided",
            "the start position's legal moves are undecided within the lap budget",
        ));
    }
    Ok(())
}

/// `POST /api/games`.
pub(crate) async fn create(app: Shared, Scribed(b): Scribed<CreateBody>) -> ApiResult {
    let app2 = Arc::clone(&app);
    let slot = blocking(move || create_game(&app2, b)).await??;
    Ok((StatusCode::CREATED, Json(json!({ "id": slot.id }))).into_response())
}

/// One game created at a time: a match's name is looked for and taken at once.
static CREATING: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Creates a game as `POST /api/games` asks (blocking work) and tells the watchers: a
/// match's name is unique in the evening (`409` `serve::match_exists` otherwise).
pub(crate) fn create_game(app: &App, mut b: CreateBody) -> Result<Arc<Slot>, ApiError> {
    let answers = answers(&mut b, app.config.event.as_ref())?;
    let tags = b.tags;
    if tags
        .get("TimeControl")
        .is_some_and(|t| clock::parse_control(t).is_none())
    {
        return Err(unprocessable(
            "serve::bad_time_control",
            "a TimeControl is BASE+INCREMENT in seconds, such as 600+5 (a base of 1 s to 24 h, an increment of at most an hour)",
        ));
    }
    let _one = CREATING
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let MatchChoice::Named(name) = &answers.matches {
        let _ = app.store.rescan();
        let taken = app
            .store
            .all_games()
            .iter()
            .any(|s| s.lock().tags().get("Match") == Some(name));
        if taken {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "serve::match_exists",
                format!("the evening has a match named `{name}` already: name this one otherwise"),
            ));
        }
    }
    check_start(&answers, app.config.lap_budget)?;
    let slot = app.store.create(
        answers,
        |s| set_tags(s, &tags),
        |m| unprocessable("serve::cannot_create", m),
    )?;
    let change = slot.lock().change(&slot.id, "new");
    app.store.announce(&slot, change);
    Ok(slot)
}

/// `GET /api/games/{id}`: the game as `bao export json` gives it.
pub(crate) async fn game_json(
    app: Shared,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult {
    reader(&app, &headers)?;
    let s = slot(&app, &id).await?;
    let budget = app.config.lap_budget;
    let app2 = Arc::clone(&app);
    let json = blocking(move || {
        let text = fresh(&app2, &s, false)?.text();
        let options = CheckOptions {
            lap_budget: Some(budget),
            ..CheckOptions::default()
        };
        let checked = check_bytes(&s.id, text.as_bytes(), &options);
        record_json_pretty(&checked.record, &checked.replayed, &JsonOptions::default())
            .map_err(|e| ApiError::failed("serve::export", e.to_string()))
    })
    .await??;
    Ok(([(header::CONTENT_TYPE, "application/json")], json).into_response())
}

/// `GET /api/games/{id}/record`: the `.bao` text.
pub(crate) async fn record(app: Shared, headers: HeaderMap, Path(id): Path<String>) -> ApiResult {
    reader(&app, &headers)?;
    let s = slot(&app, &id).await?;
    let app2 = Arc::clone(&app);
    let text = blocking(move || fresh(&app2, &s, false).map(|i| i.text())).await??;
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}

/// `GET /evening.bao`: every game of the evening as one record, in id order (each file's
/// text as it is on disk, a blank line between), checked before it is sent; live while
/// the games go on.
pub(crate) async fn evening_record(app: Shared, headers: HeaderMap) -> ApiResult {
    reader(&app, &headers)?;
    let budget = app.config.lap_budget;
    let app2 = Arc::clone(&app);
    let text = blocking(move || {
        let _ = app2.store.rescan();
        let texts: Vec<String> = app2
            .store
            .all_games()
            .iter()
            .filter_map(|s| fresh(&app2, s, false).ok().map(|i| i.text()))
            .collect();
        let mut text = texts
            .iter()
            .map(|t| t.trim_end())
            .filter(|t| !t.is_empty())
            .collect::<Vec<_>>()
            .join("\n\n");
        text.push('\n');
        let options = CheckOptions {
            lap_budget: Some(budget),
            ..CheckOptions::default()
        };
        let checked = check_bytes("evening.bao", text.as_bytes(), &options);
        if checked.report.is_valid() {
            Ok(text)
        } else {
            Err(ApiError::failed(
                "serve::evening_invalid",
                "the evening's games do not make one valid record together",
            ))
        }
    })
    .await??;
    Ok((
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
            (header::CACHE_CONTROL, "no-store"),
            (
                header::CONTENT_DISPOSITION,
                "inline; filename=\"evening.bao\"",
            ),
        ],
        text,
    )
        .into_response())
}

/// A game's state as JSON.
async fn state_of(app: &Shared, id: &str) -> Result<Value, ApiError> {
    let s = slot(app, id).await?;
    let budget = app.config.lap_budget;
    let app = Arc::clone(app);
    blocking(move || Ok(json!(game_state(&s.id, &*fresh(&app, &s, false)?, budget)))).await?
}

/// `GET /api/games/{id}/state`.
pub(crate) async fn state(app: Shared, headers: HeaderMap, Path(id): Path<String>) -> ApiResult {
    reader(&app, &headers)?;
    Ok(Json(state_of(&app, &id).await?).into_response())
}

/// How `board.svg` is drawn: `flip=1` North's rows at the bottom; `compact=1` without
/// the coordinates and the caption (the projector's boards); `ply=N` the board after the
/// current game's first N plies (ply N marked), not the live one. Other parameters (`v`,
/// the version the page asks for) are passed over.
#[derive(Debug, Deserialize)]
pub(crate) struct BoardQuery {
    #[serde(default)]
    flip: Option<String>,
    #[serde(default)]
    compact: Option<String>,
    #[serde(default)]
    ply: Option<String>,
}

/// A number attribute `name="..."` of the element starting at `from`.
fn number_attr(from: &str, name: &str) -> Option<f64> {
    let tag = &from[..from.find('>')?];
    let at = tag.find(&format!(" {name}=\""))? + name.len() + 3;
    tag[at..].split('"').next()?.parse().ok()
}

/// The box `x y w h` of the element whose `id` attribute is `id` (or, for a group, its
/// first `rect`).
fn rect_of(svg: &str, id: &str) -> Option<[f64; 4]> {
    let at = svg.find(&format!("id=\"{id}\""))?;
    let start = svg[..at].rfind('<')?;
    let mut el = &svg[start..];
    if el.starts_with("<g") {
        el = &el[el.find("<rect")?..];
    }
    Some([
        number_attr(el, "x")?,
        number_attr(el, "y")?,
        number_attr(el, "width")?,
        number_attr(el, "height")?,
    ])
}

/// The picture cut to the board and both hands (the projector's captions name the
/// players): its `viewBox`, `width` and `height` are set to that box, a small margin
/// around; a picture without those parts is left as it is.
fn cropped_to_board(svg: String) -> String {
    let parts = ["bao-board", "bao-hand-north", "bao-hand-south"].map(|id| rect_of(&svg, id));
    let Some([board, north, south]) = parts
        .iter()
        .copied()
        .collect::<Option<Vec<_>>>()
        .and_then(|v| <[[f64; 4]; 3]>::try_from(v).ok())
    else {
        return svg;
    };
    let margin = 6.0;
    let x0 = board[0].min(north[0]).min(south[0]) - margin;
    let y0 = board[1].min(north[1]).min(south[1]) - margin;
    let x1 = (board[0] + board[2])
        .max(north[0] + north[2])
        .max(south[0] + south[2])
        + margin;
    let y1 = (board[1] + board[3])
        .max(north[1] + north[3])
        .max(south[1] + south[3])
        + margin;
    let Some(open_end) = svg
        .find("<svg")
        .and_then(|i| svg[i..].find('>').map(|e| i + e))
    else {
        return svg;
    };
    let open = &svg[..open_end];
    let (Some(vb), Some(w), Some(h)) = (
        open.find(" viewBox=\""),
        open.find(" width=\""),
        open.find(" height=\""),
    ) else {
        return svg;
    };
    let value_end = |at: usize, name: &str| {
        let from = at + name.len() + 3;
        svg[from..].find('"').map(|e| (at, from + e + 1))
    };
    let (Some(vb), Some(w), Some(h)) = (
        value_end(vb, "viewBox"),
        value_end(w, "width"),
        value_end(h, "height"),
    ) else {
        return svg;
    };
    let mut spans = [
        (
            vb,
            format!(" viewBox=\"{x0} {y0} {} {}\"", x1 - x0, y1 - y0),
        ),
        (w, format!(" width=\"{}\"", x1 - x0)),
        (h, format!(" height=\"{}\"", y1 - y0)),
    ];
    spans.sort_by_key(|((at, _), _)| std::cmp::Reverse(*at));
    let mut out = svg;
    for ((at, end), text) in spans {
        out.replace_range(at..end, &text);
    }
    out
}

fn on(v: Option<&String>) -> bool {
    v.is_some_and(|v| v == "1" || v == "true")
}

/// `GET /api/games/{id}/board.svg`: the board as bao-export draws it.
pub(crate) async fn board(
    app: Shared,
    headers: HeaderMap,
    Path(id): Path<String>,
    axum::extract::Query(query): axum::extract::Query<BoardQuery>,
) -> ApiResult {
    let (flip, compact) = (on(query.flip.as_ref()), on(query.compact.as_ref()));
    reader(&app, &headers)?;
    let no_ply = || {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "serve::no_such_ply",
            "the game has no such ply (`ply` counts the plies played, 0 is the start)",
        )
    };
    let at = match query.ply.as_deref() {
        None => None,
        Some(n) => Some(n.parse::<usize>().map_err(|_| no_ply())?),
    };
    let s = slot(&app, &id).await?;
    let app2 = Arc::clone(&app);
    let svg = blocking(move || {
        let Ok(inner) = fresh(&app2, &s, false) else {
            return Ok(None);
        };
        let game = inner.game();
        let tag = |n: &str| game.and_then(|g| g.tag(n)).map(|t| t.value.clone());
        let Some(live) = inner.session.game_state() else {
            return Ok(None);
        };
        // The live board, or the one after `at` plies (read only: the scribe's look back).
        let (pos, at) = match at {
            None => (live.position, live.plies),
            Some(n) => (inner.session.position_after(n).ok_or_else(no_ply)?, n),
        };
        let mut opts = SvgOptions::default();
        opts.names.south = tag("South");
        opts.names.north = tag("North");
        opts.flip = flip;
        if compact {
            opts.coordinates = false;
            opts.caption = Some(String::new());
            // Read from the back of a room (the projector's pictures).
            opts.large_numbers = true;
        }
        // The last ply marked as `bao show` marks it: its pit, where it ended, captures.
        let overlay = Engine::new()
            .within(app2.config.lap_budget, |e| {
                inner.session.ply(at).map(|(before, mv)| {
                    let (_, trace) = e.play_unchecked(&before, &mv);
                    Overlay::from_trace(&before, &trace)
                })
            })
            .ok()
            .flatten();
        let svg = board_svg(&pos, &opts, overlay.as_ref());
        Ok(Some(if compact { cropped_to_board(svg) } else { svg }))
    })
    .await??
    .ok_or_else(ApiError::no_game)?;
    Ok((
        [
            (header::CONTENT_TYPE, "image/svg+xml"),
            // An image: its own styles, nothing else.
            (
                header::CONTENT_SECURITY_POLICY,
                "default-src 'none'; style-src 'unsafe-inline'",
            ),
        ],
        svg,
    )
        .into_response())
}

/// `POST /api/games/{id}/moves` body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MoveBody {
    ply: u64,
    #[serde(rename = "move")]
    text: String,
    /// When the move was made (the phone's clock tapped), ms since 1970: a game with a
    /// clock takes it when it is near the server's own time.
    #[serde(default)]
    at: Option<u64>,
}

/// A game's clock before ply `ply` is played at `now`: the time control, the mover's side
/// index (0 South), each side's time left, the moment taken for the ply and the time it
/// used; `None` for a game without a clock, or a ply that is not the next.
fn clock_before(
    inner: &Inner,
    ply: u64,
    at: Option<u64>,
    now: std::time::SystemTime,
) -> Option<(
    clock::Control,
    usize,
    [std::time::Duration; 2],
    std::time::SystemTime,
    std::time::Duration,
)> {
    let control = clock::parse_control(inner.tags().get("TimeControl")?)?;
    let g = inner.session.game_state().filter(|g| g.open)?;
    if usize::try_from(ply).ok() != Some(g.plies) {
        return None;
    }
    let south_first = inner
        .session
        .position_after(0)
        .is_some_and(|p| p.to_move() == Side::South);
    let left = clock::left(inner.game()?, control, south_first);
    let mover = usize::from(g.position.to_move() != Side::South);
    // The clocks start with the first ply.
    if g.plies == 0 {
        return Some((control, mover, left, now, std::time::Duration::ZERO));
    }
    let since = inner.clock_since.unwrap_or(now);
    let t = clock::moment(at, now, since);
    Some((
        control,
        mover,
        left,
        t,
        t.duration_since(since).unwrap_or_default(),
    ))
}

/// The side's flag fell: the game ends, the side to move losing on time.
fn flag_fall(app: &App, s: &Slot, inner: &mut Inner, mover: usize) -> Result<Value, ApiError> {
    let side = if mover == 0 {
        SideName::South
    } else {
        SideName::North
    };
    let replies = inner
        .session
        .handle(Input::Command(Command::Time { side: Some(side) }))
        .map_err(|e| ApiError::failed("serve::write", e.to_string()))?;
    if !replies.iter().any(|r| matches!(r, Reply::GameOver(_))) {
        return Err(ApiError::failed(
            "serve::write",
            "the flag fall was not recorded",
        ));
    }
    Ok(changed(app, s, inner, "result"))
}

/// The answer to a changed game: its state, and its watchers told.
fn changed(app: &App, s: &Slot, inner: &mut Inner, kind: &'static str) -> Value {
    inner.wrote(s.path());
    if kind == "undo" {
        // A ply or a result taken back: the clock of the side to move runs from now.
        inner.clock_since = Some(std::time::SystemTime::now());
    }
    inner.version += 1;
    app.store.announce(s, inner.change(&s.id, kind));
    json!(game_state(&s.id, inner, app.config.lap_budget))
}

fn out_of_turn(plies: usize) -> ApiError {
    let mut e = ApiError::new(
        StatusCode::CONFLICT,
        "serve::out_of_turn",
        format!(
            "the game has {plies} plies; the next is ply {} (the ply field counts from 0: {plies})",
            plies + 1
        ),
    );
    e.body["plies"] = json!(plies);
    e
}

fn game_over(plies: usize) -> ApiError {
    let mut e = ApiError::new(
        StatusCode::CONFLICT,
        "serve::game_over",
        "the game is over: it takes no moves",
    );
    e.body["plies"] = json!(plies);
    e
}

/// The 422 of a refused move: the validator's diagnostic or the refusal, and the legal
/// moves.
fn refused(replies: &[Reply], inner: &Inner, budget: u64) -> ApiError {
    let st = inner.session.game_state();
    let mut legal: Vec<String> = st
        .as_ref()
        .and_then(|s| s.position.legal_moves_within(budget).ok())
        .map(|l| l.iter().map(ToString::to_string).collect())
        .unwrap_or_default();
    let mut options = Value::Null;
    let (code, message, help) = match replies.first() {
        Some(Reply::Illegal { written, report }) => {
            let d = report.as_ref().and_then(|r| {
                r.diagnostics
                    .iter()
                    .find(|d| d.is_error())
                    .or(r.diagnostics.first())
            });
            match d {
                Some(d) => (
                    d.code().to_owned(),
                    d.to_string(),
                    d.help().map(|h| h.to_string()),
                ),
                None => (
                    "serve::illegal_move".to_owned(),
                    format!("{written} is not a legal move here"),
                    None,
                ),
            }
        }
        Some(Reply::Refused(Refusal::Undecided { candidates })) => {
            legal = candidates.iter().map(ToString::to_string).collect();
            if let Some(s) = &st {
                options = json!(moves_json(&s.position, candidates, &s.rules, budget));
            }
            (
                "serve::undecided_move".to_owned(),
                "the move leaves a decision open (kichwa, direction, or stop or safari): send one of the moves in `legal`".to_owned(),
                None,
            )
        }
        Some(Reply::Refused(Refusal::LapBudget { laps_run })) => (
            "bao::budget::undecided".to_owned(),
            format!("whether a move here ends was still undecided after {laps_run} laps (the lap budget): nothing was played"),
            Some("the server decides every move within a lap budget; this position needs more: record it with `bao record`".to_owned()),
        ),
        Some(Reply::Refused(Refusal::NotAMove { line, why })) => (
            "serve::unreadable_move".to_owned(),
            format!("`{line}` does not read as a move: {why}"),
            None,
        ),
        Some(Reply::Refused(Refusal::Annotated)) => (
            "serve::annotated_move".to_owned(),
            "send the move without its lap or capture annotation".to_owned(),
            None,
        ),
        _ => (
            "serve::not_one_move".to_owned(),
            "send exactly one move".to_owned(),
            None,
        ),
    };
    let mut e = unprocessable(&code, message);
    e.body["help"] = json!(help);
    e.body["legal"] = json!(legal);
    e.body["options"] = options;
    e
}

/// `POST /api/games/{id}/moves`.
pub(crate) async fn moves(
    app: Shared,
    Path(id): Path<String>,
    Scribed(b): Scribed<MoveBody>,
) -> ApiResult {
    let s = slot(&app, &id).await?;
    if b.text.len() > MOVE_LIMIT {
        return Err(unprocessable(
            "serve::unreadable_move",
            format!("a move is at most {MOVE_LIMIT} bytes"),
        ));
    }
    let app2 = Arc::clone(&app);
    let value = blocking(move || {
        let mut inner = fresh(&app2, &s, true)?;
        let budget = app2.config.lap_budget;
        let timed = clock_before(&inner, b.ply, b.at, std::time::SystemTime::now());
        if let Some((_, mover, left, _, used)) = timed {
            if used >= left[mover] {
                // Out of time before the move: the game ends on time, the move not played.
                let state = flag_fall(&app2, &s, &mut inner, mover)?;
                let mut e = ApiError::new(
                    StatusCode::CONFLICT,
                    "serve::flag_fell",
                    format!(
                        "{}'s time ran out before this move: the game is lost on time, {}",
                        if mover == 0 { "South" } else { "North" },
                        state["result"].as_str().unwrap_or("")
                    ),
                );
                e.body["state"] = state;
                return Err(e);
            }
        }
        // The session decides the move, its play and the end test of the position after it
        // under the lap budget (`bao::budget::undecided` otherwise, nothing written).
        // The mover's time left after the ply, the increment added, written after it in the
        // same write (the ply is never on disk without its clock).
        let note = timed.map(|(control, mover, left, _, used)| {
            clock::clk(left[mover] - used + control.increment)
        });
        let answer = inner
            .session
            .play_ply_noted(b.ply, &b.text, note)
            .map_err(|e| ApiError::failed("serve::write", e.to_string()))?;
        let plies = inner.session.game_state().map_or(0, |g| g.plies);
        match answer {
            PlyAnswer::Played(replies) => {
                let over = replies.iter().any(|r| matches!(r, Reply::GameOver(_)));
                if let (Some((_, _, _, t, _)), false) = (timed, over) {
                    inner.clock_since = Some(t);
                }
                Ok(changed(
                    &app2,
                    &s,
                    &mut inner,
                    if over { "result" } else { "move" },
                ))
            }
            PlyAnswer::Repeated => Ok(json!(game_state(&s.id, &inner, budget))),
            PlyAnswer::OutOfTurn { plies } => Err(out_of_turn(plies)),
            PlyAnswer::Refused(replies) => Err(refused(&replies, &inner, budget)),
            PlyAnswer::NoGame => Err(game_over(plies)),
        }
    })
    .await??;
    Ok(Json(value).into_response())
}

/// `POST /api/games/{id}/flag` body: nothing.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FlagBody {}

/// `POST /api/games/{id}/flag`: the phone's clock of the side to move reached zero. The
/// server looks at its own clock: run out, the game ends on time (`200` state); else
/// `409` `serve::no_flag_fall` with the time left.
pub(crate) async fn flag(
    app: Shared,
    Path(id): Path<String>,
    Scribed(FlagBody {}): Scribed<FlagBody>,
) -> ApiResult {
    let s = slot(&app, &id).await?;
    let app2 = Arc::clone(&app);
    let value = blocking(move || {
        let mut inner = fresh(&app2, &s, true)?;
        let plies = inner.session.game_state().map_or(0, |g| g.plies);
        let timed = clock_before(&inner, plies as u64, None, std::time::SystemTime::now());
        let Some((_, mover, left, _, used)) = timed.filter(|_| plies > 0) else {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "serve::no_flag_fall",
                "no clock runs in this game",
            ));
        };
        if used < left[mover] {
            let mut e = ApiError::new(
                StatusCode::CONFLICT,
                "serve::no_flag_fall",
                format!(
                    "{} has {} left by the server's clock",
                    if mover == 0 { "South" } else { "North" },
                    clock::clk(left[mover] - used)
                ),
            );
            e.body["left_ms"] =
                json!(u64::try_from((left[mover] - used).as_millis()).unwrap_or(u64::MAX));
            return Err(e);
        }
        flag_fall(&app2, &s, &mut inner, mover)
    })
    .await??;
    Ok(Json(value).into_response())
}

/// `POST /api/games/{id}/undo` body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct UndoBody {
    /// The plies the scribe sees (undo only if the game has as many).
    #[serde(default)]
    plies: Option<u64>,
}

/// Runs a prompt command on an open game and answers with its state.
async fn command(
    app: Shared,
    id: String,
    expect: Option<u64>,
    kind: &'static str,
    make: impl FnOnce(Side) -> Result<Command, ApiError> + Send + 'static,
) -> ApiResult {
    let s = slot(&app, &id).await?;
    let app2 = Arc::clone(&app);
    let value = blocking(move || {
        let mut inner = fresh(&app2, &s, true)?;
        let Some(g) = inner.session.game_state() else {
            return Err(game_over(0));
        };
        // A finished game takes one change: `undo` takes its result back (and, when the
        // rules ended it, its last ply).
        if !g.open && kind != "undo" {
            return Err(game_over(g.plies));
        }
        if expect.is_some_and(|n| u64::try_from(g.plies) != Ok(n)) {
            return Err(out_of_turn(g.plies));
        }
        let c = make(g.position.to_move())?;
        let replies = inner
            .session
            .handle(Input::Command(c))
            .map_err(|e| ApiError::failed("serve::write", e.to_string()))?;
        let done = replies.iter().any(|r| {
            matches!(
                r,
                Reply::TookBack(_)
                    | Reply::ResultTakenBack { .. }
                    | Reply::CommentAdded
                    | Reply::GameOver(_)
            )
        });
        if done {
            return Ok(changed(&app2, &s, &mut inner, kind));
        }
        let (code, message) = match replies.first() {
            Some(Reply::Refused(Refusal::NothingToUndo)) => {
                ("serve::nothing_to_undo", "the game has no ply to take back")
            }
            Some(Reply::Refused(Refusal::NoDraws)) => {
                ("serve::no_draws", "these rules know no draws")
            }
            Some(Reply::Refused(Refusal::BraceInComment)) => {
                ("serve::bad_comment", "a comment cannot hold a brace")
            }
            Some(Reply::Refused(Refusal::EmptyComment)) => {
                ("serve::bad_comment", "the comment is empty")
            }
            _ => ("serve::refused", "the game did not take this"),
        };
        Err(unprocessable(code, message))
    })
    .await??;
    Ok(Json(value).into_response())
}

/// `POST /api/games/{id}/undo`.
pub(crate) async fn undo(
    app: Shared,
    Path(id): Path<String>,
    Scribed(b): Scribed<UndoBody>,
) -> ApiResult {
    command(app, id, b.plies, "undo", |_| Ok(Command::Undo)).await
}

/// `POST /api/games/{id}/result` body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ResultBody {
    result: String,
    #[serde(default)]
    termination: Option<String>,
    /// The plies the scribe sees.
    #[serde(default)]
    plies: Option<u64>,
}

/// `POST /api/games/{id}/result`.
pub(crate) async fn result(
    app: Shared,
    Path(id): Path<String>,
    Scribed(b): Scribed<ResultBody>,
) -> ApiResult {
    let loser = match b.result.trim() {
        "1-0" => Some(SideName::North),
        "0-1" => Some(SideName::South),
        "1/2-1/2" => None,
        other => {
            return Err(unprocessable(
                "serve::bad_result",
                format!("`{other}` is no result: 1-0, 0-1 or 1/2-1/2"),
            ))
        }
    };
    let termination = b.termination.as_deref().map(str::trim);
    let c = match (loser, termination) {
        (Some(side), None | Some("resignation")) => Command::Resign { side: Some(side) },
        (Some(side), Some("time_forfeit")) => Command::Time { side: Some(side) },
        (None, None | Some("agreement")) => Command::Draw,
        (_, Some(t)) => {
            return Err(unprocessable(
                "serve::bad_result",
                format!("`{t}` does not end a game with {}: a win by resignation or time_forfeit, a draw by agreement", b.result.trim()),
            ))
        }
    };
    command(app, id, b.plies, "result", move |_| Ok(c)).await
}

/// `POST /api/games/{id}/comment` body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CommentBody {
    text: String,
}

/// `POST /api/games/{id}/comment`.
pub(crate) async fn comment(
    app: Shared,
    Path(id): Path<String>,
    Scribed(b): Scribed<CommentBody>,
) -> ApiResult {
    if b.text.chars().count() > COMMENT_LIMIT || b.text.chars().any(|c| c.is_control() && c != '\n')
    {
        return Err(unprocessable(
            "serve::bad_comment",
            format!("a comment is text of at most {COMMENT_LIMIT} characters"),
        ));
    }
    let text = b.text.replace('\n', " ");
    command(app, id, None, "comment", move |_| {
        Ok(Command::Comment { text })
    })
    .await
}

/// How often a quiet event stream sends a comment, so that proxies and browsers keep it.
const KEEP_ALIVE: std::time::Duration = std::time::Duration::from_secs(15);

/// The event frames from `rx` after `first`, with a comment line when nothing was sent for
/// [`KEEP_ALIVE`]; a watcher that fell behind skips what it missed. The frames are the
/// ones `Change::frame` made once for all watchers: a watcher's connection only sends
/// them.
fn watch(
    first: Option<Bytes>,
    rx: broadcast::Receiver<Bytes>,
) -> impl Stream<Item = Result<Bytes, Infallible>> {
    let rest = stream::unfold(rx, |mut rx| async move {
        loop {
            tokio::select! {
                r = rx.recv() => match r {
                    Ok(frame) => return Some((Ok(frame), rx)),
                    Err(broadcast::error::RecvError::Lagged(_)) => {}
                    Err(broadcast::error::RecvError::Closed) => return None,
                },
                () = tokio::time::sleep(KEEP_ALIVE) => {
                    return Some((Ok(Bytes::from_static(b":\n\n")), rx));
                }
            }
        }
    });
    stream::iter(first.map(Ok)).chain(rest)
}

/// An event stream's response (`text/event-stream`).
fn event_stream(s: impl Stream<Item = Result<Bytes, Infallible>> + Send + 'static) -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/event-stream"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        Body::from_stream(s),
    )
        .into_response()
}

/// `GET /api/games/{id}/events`: the game's state first, then one event after every
/// change.
pub(crate) async fn events(app: Shared, headers: HeaderMap, Path(id): Path<String>) -> ApiResult {
    reader(&app, &headers)?;
    if !valid_id(&id) {
        return Err(ApiError::no_game());
    }
    let s = slot(&app, &id).await?;
    let rx = s.events.subscribe();
    let first = s.last_change().frame();
    Ok(event_stream(watch(Some(first), rx)))
}

/// `GET /api/events`: every game's changes.
pub(crate) async fn evening_events(app: Shared, headers: HeaderMap) -> ApiResult {
    reader(&app, &headers)?;
    let rx = app.store.all.subscribe();
    Ok(event_stream(watch(None, rx)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_compact_board_is_cut_to_the_board_and_hands() {
        let opts = SvgOptions {
            coordinates: false,
            caption: Some(String::new()),
            ..SvgOptions::default()
        };
        let svg = board_svg(
            &bao_core::Position::start(bao_core::RuleSet::KISWAHILI),
            &opts,
            None,
        );
        let cut = cropped_to_board(svg.clone());
        assert_ne!(cut, svg);
        let vb = |s: &str| -> Vec<f64> {
            let at = s.find("viewBox=\"").unwrap() + 9;
            s[at..at + s[at..].find('"').unwrap()]
                .split(' ')
                .map(|x| x.parse().unwrap())
                .collect()
        };
        let (before, after) = (vb(&svg), vb(&cut));
        // The board and the hands are in; the names above and below are cut off.
        let board = rect_of(&svg, "bao-board").unwrap();
        assert!(after[0] <= board[0] && after[1] <= board[1]);
        assert!(after[0] + after[2] >= board[0] + board[2]);
        assert!(after[1] + after[3] >= board[1] + board[3]);
        assert!(after[3] < before[3] * 0.8, "{before:?} -> {after:?}");
        // Still one picture that reads.
        assert_eq!(cut.matches("<svg").count(), 1);
        assert!(cut.contains(&format!(" width=\"{}\"", after[2])));
        // Something else is left as it is.
        assert_eq!(cropped_to_board("<svg></svg>".to_owned()), "<svg></svg>");
    }
}
