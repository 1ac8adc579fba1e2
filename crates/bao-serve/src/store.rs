//! The store: one `.bao` file per game in the server's directory, each game a
//! [`Session`]. The files are the database: nothing about a game lives anywhere else.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, RwLock};

use bao_notation::meaning::is_game;
use bao_notation::{write_record, Game, Record, WriteOptions};
use bao_session::{Answers, Asking, OpenError, Options, Session};
use serde::Serialize;
use tokio::sync::broadcast;

use crate::{Config, ServeError};

/// A `.bao` file of the directory that is not served.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    /// The file.
    pub path: PathBuf,
    /// Why: it is not a valid record, or cannot be read or written.
    pub why: String,
}

/// What changed in a game, sent to its watchers (and those of the evening).
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Change {
    /// The game.
    pub(crate) id: String,
    /// What happened: `state` (sent first to a new watcher), `new`, `move`, `undo`,
    /// `comment`, `result`.
    pub(crate) kind: &'static str,
    /// Counts every change of the game since the server started.
    pub(crate) version: u64,
    /// The plies of the current game.
    pub(crate) plies: usize,
    /// The result of the current game (`*`: not finished).
    pub(crate) result: String,
    /// Whether the game takes moves.
    pub(crate) live: bool,
}

/// A game: its file and its session.
#[derive(Debug)]
pub(crate) struct Slot {
    pub(crate) id: String,
    inner: Mutex<Inner>,
    pub(crate) events: broadcast::Sender<Change>,
    /// The last change, for a new watcher (read without waiting for the game's lock,
    /// which engine work may hold).
    last: Mutex<Change>,
}

/// What the lock of a game guards.
#[derive(Debug)]
pub(crate) struct Inner {
    pub(crate) session: Session,
    /// Changes since the server started.
    pub(crate) version: u64,
}

impl Slot {
    fn new(id: String, session: Session) -> Self {
        let inner = Inner {
            session,
            version: 0,
        };
        let last = inner.change(&id, "state");
        Self {
            id,
            inner: Mutex::new(inner),
            events: broadcast::channel(64).0,
            last: Mutex::new(last),
        }
    }

    /// How the game stands, as of its last change.
    pub(crate) fn last_change(&self) -> Change {
        let mut c = self
            .last
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone();
        c.kind = "state";
        c
    }

    /// The game, locked. A thread that panicked while holding it left the session as
    /// its last reply did (each change is on disk before the reply), so the lock is
    /// taken over.
    pub(crate) fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl Inner {
    /// The record's current game: its last entry that is a game.
    pub(crate) fn game(&self) -> Option<&Game> {
        current(self.session.record())
    }

    /// The record's text, as it is on disk.
    pub(crate) fn text(&self) -> String {
        write_record(self.session.record(), &WriteOptions::default())
    }

    /// The change just made (or, with `kind` `state`, how the game stands).
    pub(crate) fn change(&self, id: &str, kind: &'static str) -> Change {
        let game = self.game();
        Change {
            id: id.to_owned(),
            kind,
            version: self.version,
            plies: game.map_or(0, |g| g.main_line().count()),
            result: result_of(game),
            live: self.session.game_state().is_some_and(|s| s.open),
        }
    }
}

/// The last game of a record.
fn current(record: &Record) -> Option<&Game> {
    record
        .games
        .iter()
        .rev()
        .map(|g| &g.value)
        .find(|g| is_game(g))
}

/// The result a game's movetext ends with (`*` when none).
pub(crate) fn result_of(game: Option<&Game>) -> String {
    game.and_then(|g| g.result.as_ref())
        .map_or_else(|| "*".to_owned(), |r| r.value.as_str().to_owned())
}

/// Every game of the directory.
#[derive(Debug)]
pub(crate) struct Store {
    dir: PathBuf,
    games: RwLock<BTreeMap<String, Arc<Slot>>>,
    /// Held while a game is created (one new file at a time).
    creating: Mutex<()>,
    /// Every change of every game (the evening's watchers).
    pub(crate) all: broadcast::Sender<Change>,
}

/// Whether `id` is a game id: 1 to 64 ASCII letters, digits, `-` and `_`, not starting with
/// `-`. Nothing else is ever joined to the directory's path.
pub(crate) fn valid_id(id: &str) -> bool {
    (1..=64).contains(&id.len())
        && !id.starts_with('-')
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// How the server's sessions are set up: they never ask (the pages ask), every tag
/// question takes its default or the answer given.
pub(crate) fn options(answers: Answers) -> Options {
    Options {
        asking: Asking::Never,
        take_defaults: true,
        answers,
        today: bao_session::today(),
    }
}

impl Store {
    /// Opens every `*.bao` file of the directory whose name is a game id.
    pub(crate) fn load(config: &Config) -> Result<(Self, Vec<Skipped>), ServeError> {
        let dir = config.dir.clone();
        let entries = std::fs::read_dir(&dir).map_err(|e| ServeError::Dir(dir.clone(), e))?;
        let mut paths: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "bao") && p.is_file())
            .collect();
        paths.sort();
        let mut games = BTreeMap::new();
        let mut skipped = Vec::new();
        for path in paths {
            let id = path
                .file_stem()
                .and_then(|s| s.to_str())
                .filter(|s| valid_id(s))
                .map(str::to_owned);
            let Some(id) = id else {
                skipped.push(Skipped {
                    path,
                    why: "its name is not a game id (letters, digits, - and _)".to_owned(),
                });
                continue;
            };
            match open(&path) {
                Ok(session) => {
                    games.insert(id.clone(), Arc::new(Slot::new(id, session)));
                }
                Err(why) => skipped.push(Skipped { path, why }),
            }
        }
        let store = Self {
            dir,
            games: RwLock::new(games),
            creating: Mutex::new(()),
            all: broadcast::channel(1024).0,
        };
        Ok((store, skipped))
    }

    /// The number of games.
    pub(crate) fn len(&self) -> usize {
        self.read().len()
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, BTreeMap<String, Arc<Slot>>> {
        self.games
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The game `id`.
    pub(crate) fn get(&self, id: &str) -> Option<Arc<Slot>> {
        if !valid_id(id) {
            return None;
        }
        self.read().get(id).cloned()
    }

    /// Every game, in id order.
    pub(crate) fn all_games(&self) -> Vec<Arc<Slot>> {
        self.read().values().cloned().collect()
    }

    /// Creates a game with a new id (`YYYY-MM-DD-N`): its file is written before this
    /// returns. `setup` sets the session's further tags; when it fails, the file is
    /// removed again.
    pub(crate) fn create<E>(
        &self,
        answers: Answers,
        setup: impl FnOnce(&mut Session) -> Result<(), E>,
        failed: impl Fn(String) -> E,
    ) -> Result<Arc<Slot>, E> {
        let _one = self
            .creating
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let day = bao_session::today().replace('.', "-");
        let (id, path) = (1..)
            .map(|n| {
                let id = format!("{day}-{n}");
                let path = self.dir.join(format!("{id}.bao"));
                (id, path)
            })
            .find(|(id, path)| !path.exists() && !self.read().contains_key(id))
            .unwrap_or_else(|| unreachable!("an unbounded range"));
        let mut session =
            Session::open(&path, options(answers)).map_err(|e| failed(open_error(&e)))?;
        let started = session
            .start()
            .map_err(|e| failed(e.to_string()))
            .and_then(|_| setup(&mut session));
        if let Err(e) = started {
            let _ = std::fs::remove_file(&path);
            return Err(e);
        }
        let slot = Arc::new(Slot::new(id.clone(), session));
        self.games
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(id, Arc::clone(&slot));
        Ok(slot)
    }

    /// Tells the game's watchers and the evening's.
    pub(crate) fn announce(&self, slot: &Slot, change: Change) {
        *slot
            .last
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = change.clone();
        let _ = slot.events.send(change.clone());
        let _ = self.all.send(change);
    }
}

/// Opens a game file and resumes its game.
fn open(path: &Path) -> Result<Session, String> {
    let mut session =
        Session::open(path, options(Answers::default())).map_err(|e| open_error(&e))?;
    // A record of finished games only takes no moves, but is served all the same.
    match session.start() {
        Ok(_) | Err(bao_session::SessionError::FinishedGamesOnly) => Ok(session),
        Err(e) => Err(e.to_string()),
    }
}

fn open_error(e: &OpenError) -> String {
    match e {
        OpenError::Invalid(report) => format!("not a valid record ({report})"),
        OpenError::Read(io) | OpenError::Write(io) => format!("{e}: {io}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_plain_names() {
        for id in ["2026-12-01-1", "club_night", "A"] {
            assert!(valid_id(id), "{id}");
        }
        for id in [
            "",
            "../x",
            "a/b",
            "a.bao",
            "-x",
            "x\0",
            "é",
            &"x".repeat(65),
        ] {
            assert!(!valid_id(id), "{id:?}");
        }
    }
}
