//! The router, the security headers, the limits and the answers' shape.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{ConnectInfo, DefaultBodyLimit, FromRequest, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use serde::de::DeserializeOwned;
use serde_json::{json, Value};

use crate::auth::Auth;
use crate::store::Store;
use crate::{api, pages, Config};

/// The largest request body taken.
pub(crate) const BODY_LIMIT: usize = 64 * 1024;

/// The policy of every page: nothing from elsewhere, no inline script or style.
const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; \
                   connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// The server's state.
#[derive(Debug)]
pub(crate) struct App {
    pub(crate) config: Config,
    pub(crate) store: Store,
    pub(crate) auth: Auth,
}

impl App {
    pub(crate) fn new(config: Config, store: Store, auth: Auth) -> Self {
        Self {
            config,
            store,
            auth,
        }
    }
}

pub(crate) type Shared = State<Arc<App>>;

/// An answer other than success: a status and a JSON body `{"code", "message", ...}`.
#[derive(Debug)]
pub(crate) struct ApiError {
    pub(crate) status: StatusCode,
    pub(crate) body: Value,
}

impl ApiError {
    /// `status` with a code and a message.
    pub(crate) fn new(status: StatusCode, code: &str, message: impl Into<String>) -> Self {
        Self {
            status,
            body: json!({ "code": code, "message": message.into() }),
        }
    }

    /// Wrong or missing credentials (which, is not said).
    pub(crate) fn unauthorized() -> Self {
        Self::new(
            StatusCode::UNAUTHORIZED,
            "serve::unauthorized",
            "credentials needed",
        )
    }

    /// No such game.
    pub(crate) fn no_game() -> Self {
        Self::new(StatusCode::NOT_FOUND, "serve::no_such_game", "no such game")
    }

    /// The server could not do what was asked (`500`): the record not written, the game
    /// not exported.
    pub(crate) fn failed(code: &str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, code, message)
    }

    /// A bug: a blocking task failed.
    pub(crate) fn internal() -> Self {
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "serve::internal",
            "the server failed on this request",
        )
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut r = (self.status, axum::Json(self.body)).into_response();
        if self.status == StatusCode::UNAUTHORIZED {
            r.headers_mut()
                .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        }
        r
    }
}

/// Reads a JSON body strictly: `application/json`, valid UTF-8, the fields named and no
/// others.
pub(crate) fn body<T: DeserializeOwned>(headers: &HeaderMap, bytes: &Bytes) -> Result<T, ApiError> {
    let json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.split(';')
                .next()
                .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
        });
    if !json {
        return Err(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "serve::not_json",
            "send the body as application/json",
        ));
    }
    serde_json::from_slice(bytes).map_err(|e| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "serve::bad_json",
            format!("the body does not read: {e}"),
        )
    })
}

/// A scribe's request with a JSON body, the last argument of the handlers that change a
/// game: the body is taken whole as [`Bytes`] takes it (its rejection, within
/// [`BODY_LIMIT`], answered as axum answers it), then the scribe's credentials are checked
/// (`401`), then the body is read strictly ([`body`]).
pub(crate) struct Scribed<T>(pub(crate) T);

impl<T: DeserializeOwned> FromRequest<Arc<App>> for Scribed<T> {
    type Rejection = Response;

    async fn from_request(request: Request, app: &Arc<App>) -> Result<Self, Response> {
        let headers = request.headers().clone();
        let bytes = Bytes::from_request(request, app)
            .await
            .map_err(IntoResponse::into_response)?;
        if !app.auth.may_write(&headers) {
            return Err(ApiError::unauthorized().into_response());
        }
        body(&headers, &bytes)
            .map(Self)
            .map_err(IntoResponse::into_response)
    }
}

/// Runs engine or file work on a blocking thread.
pub(crate) async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|_| ApiError::internal())
}

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
