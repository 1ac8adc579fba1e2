//! The pages: small HTML shells; `app.js` fills them from the API.

use axum::extract::Path;
use axum::http::header;
use axum::response::{Html, IntoResponse, Response};
use bao_export::escape_html;

use crate::app::{ApiError, Shared};
use crate::store::valid_id;

const SCRIPT: &str = include_str!("../assets/app.js");
const STYLE: &str = include_str!("../assets/style.css");
const ICON: &str = include_str!("../assets/icon.svg");

fn page(app: &Shared, kind: &str, id: &str, title: &str) -> Html<String> {
    let event = app.config.event.as_deref().unwrap_or("Bao evening");
    let title = if title.is_empty() {
        escape_html(event)
    } else {
        format!("{} · {}", escape_html(title), escape_html(event))
    };
    Html(format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{title}</title>\n<link rel=\"stylesheet\" href=\"/static/style.css\">\n\
         <link rel=\"icon\" href=\"/static/icon.svg\" type=\"image/svg+xml\">\n\
         <script src=\"/static/app.js\" defer></script>\n</head>\n\
         <body data-page=\"{kind}\" data-id=\"{id}\" data-event=\"{event}\" data-rules=\"{rules}\">\n\
         <header><a class=\"home\" href=\"/\">{event}</a> \
         <nav><a href=\"/\">Evening</a> <a href=\"/projector\">Projector</a> \
         <a href=\"/scribe\">Scribe</a></nav></header>\n\
         <main id=\"main\"><p class=\"note\">Loading…</p></main>\n\
         <noscript><p>These pages need JavaScript; the records are at /api/games.</p></noscript>\n\
         </body>\n</html>\n",
        event = escape_html(event),
        // The rule presets a new game may take (the Rules field's choices).
        rules = bao_core::PRESET_NAMES.join(" "),
    ))
}

/// Whether `id` is a game: one served, or one whose file was copied in since the last look.
async fn known(app: &Shared, id: &str) -> bool {
    if !valid_id(id) {
        return false;
    }
    if app.store.get(id).is_some() {
        return true;
    }
    let (app, id) = (std::sync::Arc::clone(app), id.to_owned());
    crate::app::blocking(move || app.store.find(&id).is_some())
        .await
        .unwrap_or(false)
}

/// `/`: the evening.
pub(crate) async fn evening(app: Shared) -> Html<String> {
    page(&app, "evening", "", "")
}

/// `/projector`: several boards at once.
pub(crate) async fn projector(app: Shared) -> Html<String> {
    page(&app, "projector", "", "Projector")
}

/// `/games/{id}`: one game, live.
pub(crate) async fn game(app: Shared, Path(id): Path<String>) -> Result<Html<String>, ApiError> {
    if !known(&app, &id).await {
        return Err(ApiError::no_game());
    }
    Ok(page(&app, "game", &id, &id))
}

/// `/sheets`: a score sheet for every game of the evening, one printed page each.
pub(crate) async fn sheets(app: Shared) -> Html<String> {
    page(&app, "sheets", "", "Score sheets")
}

/// `/scribe`: the PIN, the games, a new game.
pub(crate) async fn scribe(app: Shared) -> Html<String> {
    page(&app, "scribe", "", "Scribe")
}

/// `/scribe/{id}`: recording one game.
pub(crate) async fn scribe_game(
    app: Shared,
    Path(id): Path<String>,
) -> Result<Html<String>, ApiError> {
    if !known(&app, &id).await {
        return Err(ApiError::no_game());
    }
    Ok(page(&app, "record", &id, &id))
}

/// The pages' script.
pub(crate) async fn script() -> Response {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        SCRIPT,
    )
        .into_response()
}

/// The pages' style.
pub(crate) async fn style() -> Response {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], STYLE).into_response()
}

/// The pages' icon: a board of four rows.
pub(crate) async fn icon() -> Response {
    ([(header::CONTENT_TYPE, "image/svg+xml")], ICON).into_response()
}
