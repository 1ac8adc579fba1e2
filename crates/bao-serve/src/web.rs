//! The router, the security headers and the rate limit (the state and the answers' shape
//! every handler shares are in `app`).

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{ConnectInfo, DefaultBodyLimit, Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;

use crate::app::{ApiError, App, Shared, BODY_LIMIT};
use crate::{api, pages};

/// The policy of every page: nothing from elsewhere, no inline script or style.
const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; \
                   connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Security headers on every answer; a page's own policy (the board's SVG) is kept.
async fn headers(request: Request, next: Next) -> Response {
    let is_api = request.uri().path().starts_with("/api/");
    let mut r = next.run(request).await;
    let h = r.headers_mut();
    if !h.contains_key(header::CONTENT_SECURITY_POLICY) {
        h.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CSP),
        );
    }
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    h.insert(
        "cross-origin-opener-policy",
        HeaderValue::from_static("same-origin"),
    );
    if is_api && !h.contains_key(header::CACHE_CONTROL) {
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    r
}

/// Scribe requests (every POST) beyond a client's rate are answered `429`.
async fn rate(
    State(app): Shared,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    request: Request,
    next: Next,
) -> Response {
    if request.method() == Method::POST && !app.auth.take_request(peer.ip()) {
        let mut r = ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "serve::too_many_requests",
            "too many requests; slow down",
        )
        .into_response();
        r.headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
        return r;
    }
    next.run(request).await
}

async fn not_found() -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "serve::not_found", "no such page")
}

/// Every route.
pub(crate) fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(pages::evening))
        .route("/projector", get(pages::projector))
        .route("/games/{id}", get(pages::game))
        .route("/scribe", get(pages::scribe))
        .route("/scribe/{id}", get(pages::scribe_game))
        .route("/static/app.js", get(pages::script))
        .route("/static/style.css", get(pages::style))
        .route("/static/icon.svg", get(pages::icon))
        .route("/favicon.ico", get(pages::icon))
        .route("/api/login", post(api::login).get(api::whoami))
        .route("/api/events", get(api::evening_events))
        .route("/api/games", get(api::list).post(api::create))
        .route("/api/games/{id}", get(api::game_json))
        .route("/api/games/{id}/record", get(api::record))
        .route("/api/games/{id}/state", get(api::state))
        .route("/api/games/{id}/board.svg", get(api::board))
        .route("/api/games/{id}/events", get(api::events))
        .route("/api/games/{id}/moves", post(api::moves))
        .route("/api/games/{id}/undo", post(api::undo))
        .route("/api/games/{id}/result", post(api::result))
        .route("/api/games/{id}/comment", post(api::comment))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(middleware::from_fn_with_state(Arc::clone(&app), rate))
        .layer(middleware::from_fn(headers))
        .with_state(app)
}
