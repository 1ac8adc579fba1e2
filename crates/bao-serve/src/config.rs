//! How a server is set up ([`Config`]) and why it cannot start ([`ServeError`]): below
//! every other module, which all read them.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

/// The lap budget of a position's legal moves by default (see [`Config::lap_budget`]).
pub const DEFAULT_LAP_BUDGET: u64 = 100_000;

/// How a server is set up.
#[derive(Debug, Clone)]
pub struct Config {
    /// The directory of the records (one `.bao` file per game).
    pub dir: PathBuf,
    /// Where to listen.
    pub listen: SocketAddr,
    /// The evening's name: the title of the pages and the Event tag of new games.
    pub event: Option<String>,
    /// The API token (`None`: a random one).
    pub token: Option<String>,
    /// Reads need credentials too (the token or the PIN's cookie).
    pub private: bool,
    /// Laps a move may run in never-ending detection when a position's legal moves are
    /// decided; a position undecided within it takes no moves (`bao::budget::undecided`).
    pub lap_budget: u64,
    /// Requests a second each client address may send to the scribe API (POST), in bursts
    /// of twice as many; more are answered `429`.
    pub post_rate: u32,
    /// The longest a client may take to send a request's head (its request line and
    /// headers, from the connection's first byte or the end of its last answer); then the
    /// connection is closed.
    pub header_timeout: Duration,
    /// The longest a client may take to send a request's body once its head is in; then it
    /// is answered `408` and the connection closed.
    pub body_timeout: Duration,
    /// The most connections open at once; more wait to be accepted until one closes.
    pub max_connections: usize,
    /// A new scribe PIN even when the directory keeps one from an earlier start (which
    /// also logs every phone out).
    pub new_pin: bool,
}

impl Config {
    /// A configuration with the defaults: `127.0.0.1:8080`, a random token, public reads.
    #[must_use]
    pub fn new(dir: PathBuf) -> Self {
        Self {
            dir,
            listen: SocketAddr::from(([127, 0, 0, 1], 8080)),
            event: None,
            token: None,
            private: false,
            lap_budget: DEFAULT_LAP_BUDGET,
            post_rate: 200,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            max_connections: 1024,
            new_pin: false,
        }
    }
}

/// Why a server cannot start or stopped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ServeError {
    /// The directory of the records cannot be read.
    #[error("cannot read the directory {}", .0.display())]
    Dir(PathBuf, #[source] std::io::Error),
    /// The address cannot be listened on.
    #[error("cannot listen on {0}")]
    Listen(SocketAddr, #[source] std::io::Error),
    /// The operating system's random numbers are not available (for the PIN and token).
    #[error("no random numbers from the operating system: {0}")]
    Random(String),
    /// The directory's `event.toml` (the evening's rounds) does not read: it is left as
    /// it is, and the server does not start.
    #[error("the evening's rounds do not read: {0}")]
    Event(String),
    /// The async runtime cannot start, or serving failed.
    #[error("the server failed")]
    Io(#[source] std::io::Error),
}
