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
use futures_util::StreamExt;

use crate::app::{ApiError, App, Shared, BODY_LIMIT};
use crate::{api, pages, rounds};

/// The policy of every page: nothing from elsewhere, no inline script or style.
const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; \
                   connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Security headers on every answer; a page's own policy (the board's SVG) is kept. An
/// answer `4xx` that is not JSON yet (axum's own: a method not allowed, a path that does not
/// read) is made the JSON `{"code", "message"}` of every other refusal.
async fn headers(request: Request, next: Next) -> Response {
    let is_api = request.uri().path().starts_with("/api/");
    let mut r = next.run(request).await;
    let json = r
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if r.status().is_client_error() && !json {
        let status = r.status();
        let code = match status {
            StatusCode::METHOD_NOT_ALLOWED => "serve::method_not_allowed",
            StatusCode::NOT_FOUND => "serve::not_found",
            StatusCode::PAYLOAD_TOO_LARGE => "serve::too_large",
            _ => "serve::bad_request",
        };
        let message = status
            .canonical_reason()
            .unwrap_or("refused")
            .to_lowercase();
        let mut fresh = ApiError::new(status, code, message).into_response();
        for (name, value) in r.headers() {
            if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
                fresh.headers_mut().insert(name, value.clone());
            }
        }
        r = fresh;
    }
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

/// The largest body read (and dropped) to answer `413` to a client still sending it.
const DRAIN_LIMIT: u64 = 1024 * 1024;

/// A request's body, read whole before any handler sees it: within [`BODY_LIMIT`] (a
/// larger `Content-Length`, or more bytes, are `413` at once) and within the body
/// time-out (else `408`); either closes the connection, since the rest of the body is
/// never read.
async fn whole_body(State(app): Shared, request: Request, next: Next) -> Response {
    let close = |e: ApiError| {
        let mut r = e.into_response();
        r.headers_mut()
            .insert(header::CONNECTION, HeaderValue::from_static("close"));
        r
    };
    let too_large = || {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "serve::too_large",
            format!("a request's body is at most {} KiB", BODY_LIMIT / 1024),
        )
    };
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if declared.is_some_and(|n| n > BODY_LIMIT as u64) {
        // A body a little too large is read and dropped (within the time-out), so that the
        // client, still sending it, hears the answer; a huge one is not waited for.
        if declared.is_some_and(|n| n <= DRAIN_LIMIT) {
            let mut data = request.into_body().into_data_stream();
            let drain = async { while let Some(Ok(_)) = data.next().await {} };
            let _ = tokio::time::timeout(app.config.body_timeout, drain).await;
        }
        return close(too_large());
    }
    if request.method() == Method::GET || request.method() == Method::HEAD {
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    let read = axum::body::to_bytes(body, BODY_LIMIT);
    let bytes = match tokio::time::timeout(app.config.body_timeout, read).await {
        Ok(Ok(b)) => b,
        Ok(Err(_)) => return close(too_large()),
        Err(_) => {
            return close(ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                "serve::body_timeout",
                format!(
                    "the request's body did not arrive within {} s",
                    app.config.body_timeout.as_secs()
                ),
            ))
        }
    };
    next.run(Request::from_parts(parts, axum::body::Body::from(bytes)))
        .await
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
        .route("/sheets", get(pages::sheets))
        .route("/scribe", get(pages::scribe))
        .route("/scribe/{id}", get(pages::scribe_game))
        .route("/static/app.js", get(pages::script))
        .route("/static/style.css", get(pages::style))
        .route("/static/icon.svg", get(pages::icon))
        .route("/favicon.ico", get(pages::icon))
        .route("/evening.bao", get(api::evening_record))
        .route("/api/login", post(api::login).get(api::whoami))
        .route("/api/events", get(api::evening_events))
        .route("/api/games", get(api::list).post(api::create))
        .route("/api/event", get(rounds::get_event))
        .route("/api/event/players", post(rounds::set_players))
        .route("/api/event/rounds", post(rounds::new_round))
        .route("/api/event/rounds/{n}/result", post(rounds::set_result))
        .route("/api/games/{id}", get(api::game_json))
        .route("/api/games/{id}/record", get(api::record))
        .route("/api/games/{id}/state", get(api::state))
        .route("/api/games/{id}/board.svg", get(api::board))
        .route("/api/games/{id}/events", get(api::events))
        .route("/api/games/{id}/moves", post(api::moves))
        .route("/api/games/{id}/undo", post(api::undo))
        .route("/api/games/{id}/result", post(api::result))
        .route("/api/games/{id}/comment", post(api::comment))
        .route("/api/games/{id}/flag", post(api::flag))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(middleware::from_fn_with_state(Arc::clone(&app), whole_body))
        .layer(middleware::from_fn_with_state(Arc::clone(&app), rate))
        .layer(middleware::from_fn(headers))
        .with_state(app)
}
