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
mod clock;
mod config;
mod event;
mod pages;
mod rounds;
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
        let event = event::Event::load(&config.dir).map_err(ServeError::Event)?;
        let listener = std::net::TcpListener::bind(config.listen)
            .map_err(|e| ServeError::Listen(config.listen, e))?;
        listener
            .set_nonblocking(true)
            .map_err(|e| ServeError::Listen(config.listen, e))?;
        let app = Arc::new(app::App::new(config, store, auth, event));
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

    /// The scribe PIN (six digits) when this start made one; `None` when the directory
    /// keeps the PIN of an earlier start (only its hash is kept: the PIN printed then
    /// still holds, and phones stay logged in).
    #[must_use]
    pub fn pin(&self) -> Option<&str> {
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
    /// Each connection is served by hyper's HTTP/1 connection with a header read time-out
    /// ([`Config::header_timeout`]: a client that does not send a whole request head in time
    /// is closed, whether it connected just now or stays idle after an answer); at most
    /// [`Config::max_connections`] are open at once (the next waits in the listen queue).
    ///
    /// # Errors
    /// Serving fails.
    pub async fn serve(
        self,
        stop: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> Result<(), ServeError> {
        let listener = tokio::net::TcpListener::from_std(self.listener).map_err(ServeError::Io)?;
        let header_timeout = self.app.config.header_timeout;
        let cap = self.app.config.max_connections.max(1);
        let router = web::router(self.app);
        let open = Arc::new(tokio::sync::Semaphore::new(cap));
        // Closed when serving stops: each connection then finishes its answer and closes.
        let (closing, closed) = tokio::sync::watch::channel(false);
        let mut stop = std::pin::pin!(stop);
        loop {
            let permit = tokio::select! {
                () = &mut stop => break,
                p = Arc::clone(&open).acquire_owned() => match p {
                    Ok(p) => p,
                    Err(_) => break,
                },
            };
            let (stream, peer) = tokio::select! {
                () = &mut stop => break,
                a = listener.accept() => match a {
                    Ok(a) => a,
                    Err(_) => {
                        // Out of file descriptors, or the client left before it was
                        // accepted: try again a moment later.
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        continue;
                    }
                },
            };
            let _ = stream.set_nodelay(true);
            let router = router.clone();
            let mut closed = closed.clone();
            tokio::spawn(async move {
                let service = hyper::service::service_fn(
                    move |mut request: hyper::Request<hyper::body::Incoming>| {
                        request
                            .extensions_mut()
                            .insert(axum::extract::ConnectInfo(peer));
                        let mut router = router.clone();
                        tower_service::Service::call(
                            &mut router,
                            request.map(axum::body::Body::new),
                        )
                    },
                );
                let mut builder = hyper::server::conn::http1::Builder::new();
                builder
                    .timer(hyper_util::rt::TokioTimer::new())
                    .header_read_timeout(header_timeout);
                let conn = builder.serve_connection(hyper_util::rt::TokioIo::new(stream), service);
                let mut conn = std::pin::pin!(conn);
                tokio::select! {
                    _ = conn.as_mut() => {}
                    _ = closed.changed() => {
                        conn.as_mut().graceful_shutdown();
                        let _ = conn.await;
                    }
                }
                drop(permit);
            });
        }
        let _ = closing.send(true);
        // The answers under way finish; event streams are cut after a moment.
        let _ = tokio::time::timeout(
            Duration::from_secs(2),
            open.acquire_many(u32::try_from(cap).unwrap_or(u32::MAX)),
        )
        .await;
        Ok(())
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
