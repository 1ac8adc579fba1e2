//! `bao serve [DIR]`: the club server (crate `bao-serve`): scribes record every board of an
//! evening from their phones, spectators and a projector follow them live, and DIR holds one
//! `.bao` file per game. The API is specified in spec/serve.md.
//!
//! At start it prints the pages' address, the scribe PIN and (when it made one) the API
//! token; `BAO_SERVE_TOKEN` sets the token. Ctrl-C or SIGTERM stops it; every acknowledged
//! ply is on disk already.

use std::net::{IpAddr, SocketAddr, UdpSocket};
use std::path::PathBuf;

use bao_serve::{Config, ServeError, Server, DEFAULT_LAP_BUDGET};

use crate::context::{Context, Status};
use crate::error::CliError;

/// Arguments of `bao serve`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The directory of the records: one `.bao` file per game (made by the server, or put
    /// there, named `ID.bao`).
    #[arg(value_name = "DIR", default_value = ".")]
    dir: PathBuf,
    /// The address to listen on; `0.0.0.0:8080` for the club's network.
    #[arg(long, value_name = "ADDR:PORT", default_value = "127.0.0.1:8080")]
    listen: SocketAddr,
    /// The evening's name: the pages' title and the Event tag of new games.
    #[arg(long, value_name = "NAME")]
    event: Option<String>,
    /// Reads need credentials too (the API token or the PIN's cookie).
    #[arg(long)]
    private: bool,
    /// Laps a move may run in never-ending detection when a position's legal moves are
    /// decided; a position undecided within it takes no moves.
    #[arg(long, value_name = "LAPS", default_value_t = DEFAULT_LAP_BUDGET)]
    lap_budget: u64,
    /// A new scribe PIN, though DIR keeps the one of an earlier start (every phone is
    /// logged out).
    #[arg(long)]
    new_pin: bool,
}

/// Runs `bao serve`.
pub(crate) fn run(args: &Args, _ctx: &Context) -> Result<Status, CliError> {
    let mut config = Config::new(args.dir.clone());
    config.listen = args.listen;
    config.event.clone_from(&args.event);
    config.private = args.private;
    config.lap_budget = args.lap_budget;
    config.new_pin = args.new_pin;
    let from_env = std::env::var("BAO_SERVE_TOKEN")
        .ok()
        .filter(|t| !t.trim().is_empty());
    config.token.clone_from(&from_env);
    crate::pages::small_pages();
    let server = Server::bind(config).map_err(|e| match e {
        ServeError::Dir(dir, source) => CliError::io(
            format!("cannot read the directory {}", dir.display()),
            source,
        ),
        ServeError::Listen(addr, source) => {
            CliError::io(format!("cannot listen on {addr}"), source)
        }
        ServeError::Event(message) => CliError::Invalid {
            argument: "DIR",
            message: format!("the evening's rounds do not read: {message}"),
        },
        other => CliError::Internal(other.to_string()),
    })?;
    let addr = server
        .local_addr()
        .map_err(|e| CliError::io("cannot read the address", e))?;
    for s in server.skipped() {
        eprintln!("bao serve: not serving {}: {}", s.path.display(), s.why);
    }
    let url = format!("http://{}", shown(addr));
    println!(
        "bao serve: {} game(s) in {}",
        server.games(),
        args.dir.display()
    );
    println!("  evening:  {url}/");
    match server.pin() {
        Some(pin) => println!("  scribes:  {url}/scribe   PIN {pin}"),
        None => println!(
            "  scribes:  {url}/scribe   PIN unchanged (the one printed at the first start; --new-pin makes another)"
        ),
    }
    if from_env.is_none() {
        println!("  API token: {}", server.token());
    }
    if args.private {
        println!("  private: reads need the token or the PIN too");
    }
    println!("Ctrl-C stops the server; every acknowledged ply is on disk.");
    server
        .run()
        .map_err(|e| CliError::Internal(e.to_string()))?;
    Ok(Status::Success)
}

/// The address to show: for an unspecified one (`0.0.0.0`), this machine's address on its
/// network (found without sending anything), so that phones can type it.
fn shown(addr: SocketAddr) -> SocketAddr {
    if !addr.ip().is_unspecified() {
        return addr;
    }
    let probe = UdpSocket::bind(("0.0.0.0", 0))
        .and_then(|s| s.connect(("192.0.2.1", 9)).map(|()| s))
        .and_then(|s| s.local_addr());
    match probe {
        Ok(local) if !local.ip().is_unspecified() => SocketAddr::new(local.ip(), addr.port()),
        _ => SocketAddr::new(IpAddr::from([127, 0, 0, 1]), addr.port()),
    }
}
