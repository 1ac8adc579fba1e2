//! The server's state ([`App`]) and what every handler shares: the error answer
//! ([`ApiError`]), the strict JSON body ([`body`], [`Scribed`]) and [`blocking`] work.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{FromRequest, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;
use serde_json::{json, Value};

use crate::auth::Auth;
use crate::config::Config;
use crate::event::Event;
use crate::store::Store;

/// The largest request body taken.
pub(crate) const BODY_LIMIT: usize = 64 * 1024;

/// The server's state.
#[derive(Debug)]
pub(crate) struct App {
    pub(crate) config: Config,
    pub(crate) store: Store,
    pub(crate) auth: Auth,
    /// The evening's rounds, as `event.toml` holds them (changed one request at a time,
    /// the file written before the answer).
    pub(crate) event: std::sync::Mutex<Event>,
}

impl App {
    pub(crate) fn new(config: Config, store: Store, auth: Auth, event: Event) -> Self {
        Self {
            config,
            store,
            auth,
            event: std::sync::Mutex::new(event),
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
