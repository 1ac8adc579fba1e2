//! `bao-serve`: the club server behind `bao serve`.
//!
//! Scribes record every board of an evening from their phones, spectators and a projector
//! follow the boards live, and the records are ordinary `.bao` files: **one file per game in
//! the server's directory; the files are the database.** Each game is a
//! [`bao_session::Session`], the same session `bao record` drives: a ply is on disk
//! (written and `fsync`'ed) before the answer that acknowledges it, and every other `bao`
//! command can read and check the directory while the server runs.
//!
//! The API and the pages are specified in `spec/serve.md`. In short:
//!
//! - `GET /api/games`, `POST /api/games`, `GET /api/games/{id}` (the game as `bao export
//!   json` gives it), `GET /api/games/{id}/record`, `.../state`, `.../board.svg`;
//! - `POST /api/games/{id}/moves` `{"ply": n, "move": "A6<*"}`: a ply is recorded once, in
//!   order (`409` otherwise), an illegal move is refused with the validator's diagnostic;
//! - `POST .../undo`, `.../result`, `.../comment`; `GET .../events` and `GET /api/events`:
//!   server-sent events, one after every change;
//! - scribe requests carry the API token (`Authorization: Bearer`) or the cookie of the PIN
//!   page with its CSRF token.
//!
//! Engine work runs on blocking threads, never on the async runtime, and a position's legal
//! moves are decided under a lap budget (an engine's, [`bao_core::Engine::within`]) before a
//! move is played, so one hostile position cannot stall the other boards.
//!
//! Why axum on tokio: it is the HTTP stack of the tokio project (hyper underneath), it has
//! body limits, typed extractors and server-sent events built in, and needs no macros or
//! code generation.
#![deny(missing_docs)]
#![warn(missing_debug_implementations)]

mod api;
mod app;
mod auth;
mod config;
mod pages;
mod state;
mod store;
mod web;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

pub use config::{Config, ServeError, DEFAULT_LAP_BUDGET};
pub use store::Skipped;

/// The most threads engine and file work runs on at once.
const MAX_BLOCKING_THREADS: usize = 32;

/// A server bound to its address, with its games loaded; [`Server::run`] serves.
#[derive(Debug)]
pub struct Server {
    listener: std::net::TcpListener,
    app: Arc<app::App>,
    skipped: Vec<Skipped>,
}

impl Server {
    /// Loads the games of `config.dir` and binds `config.listen`.
    ///
    /// # Errors
    /// The directory cannot be read, the address cannot be bound, or no random numbers.
    pub fn bind(config: Config) -> Result<Self, ServeError> {
        let (store, skipped) = store::Store::load(&config)?;
        let auth = auth::Auth::new(&config)?;
        let listener = std::net::TcpListener::bind(config.listen)
            .map_err(|e| ServeError::Listen(config.listen, e))?;
        listener
            .set_nonblocking(true)
            .map_err(|e| ServeError::Listen(config.listen, e))?;
        let app = Arc::new(app::App::new(config, store, auth));
        Ok(Self {
            listener,
            app,
            skipped,
        })
    }

    /// The address the server listens on.
    ///
    /// # Errors
    /// The socket's address cannot be read.
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// The scribe PIN (six digits).
    #[must_use]
    pub fn pin(&self) -> &str {
        self.app.auth.pin()
    }

    /// The API token.
    #[must_use]
    pub fn token(&self) -> &str {
        self.app.auth.token()
    }

    /// The number of games served.
    #[must_use]
    pub fn games(&self) -> usize {
        self.app.store.len()
    }

    /// The `.bao` files of the directory that are not served, and why.
    #[must_use]
    pub fn skipped(&self) -> &[Skipped] {
        &self.skipped
    }

    /// Serves on a runtime of its own until Ctrl-C or SIGTERM.
    ///
    /// # Errors
    /// The runtime cannot start or serving fails.
    pub fn run(self) -> Result<(), ServeError> {
        let rt = tokio::runtime::Builder::new_multi_thread()
            // Engine and file work waits for one of these threads rather than starting
            // hundreds at once (each costs its stack and its allocator heap).
            .max_blocking_threads(MAX_BLOCKING_THREADS)
            .enable_all()
            .build()
            .map_err(ServeError::Io)?;
        rt.block_on(self.serve(stop_signal()))
    }

    /// Serves until `stop` completes; connections still open a moment later (server-sent
    /// events) are closed.
    ///
    /// # Errors
    /// Serving fails.
    pub async fn serve(
        self,
        stop: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> Result<(), ServeError> {
        let listener = tokio::net::TcpListener::from_std(self.listener).map_err(ServeError::Io)?;
        let router = web::router(self.app);
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let served = axum::serve(
            listener,
            router.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .with_graceful_shutdown(async move {
            stop.await;
            let _ = tx.send(());
        });
        tokio::select! {
            r = served => r.map_err(ServeError::Io),
            () = async {
                let _ = rx.await;
                tokio::time::sleep(Duration::from_secs(2)).await;
            } => Ok(()),
        }
    }
}

/// Ctrl-C, or SIGTERM on Unix.
async fn stop_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
}
