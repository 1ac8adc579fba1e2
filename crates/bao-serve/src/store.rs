//! The store: one `.bao` file per game in the server's directory, each game a
//! [`Session`]. The files are the database: nothing about a game lives anywhere else.
//!
//! Other programs may write the directory while the server runs (a `.bao` copied in, a
//! game recorded or corrected with `bao record`): the directory is looked at again on every
//! list of the games ([`Store::rescan`]), and a game's file before each request on that game
//! ([`Inner::freshen`]). A file is read again only when its size, modification time or
//! inode changed since the server last read or wrote it, and taken only when it is a valid
//! record: a file caught half-written does not check and is listed with its problem, then
//! read again once it changes. Why a rescan rather than file-system notifications (the
//! `notify` crate): the list is exact at the moment it is asked for whatever the file
//! system (notifications are lost or absent on network and some container file systems),
//! it costs one `stat` a file per list, and it needs no watcher thread; a notification
//! would still need the same size and time check to tell a finished file from one being
//! written.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, RwLock};
use std::time::SystemTime;

use axum::body::Bytes;
use bao_notation::meaning::is_game;
use bao_notation::{Game, Record};
use bao_session::{Answers, Asking, OpenError, Options, Session};
use serde::Serialize;
use tokio::sync::broadcast;

use crate::config::{Config, ServeError};

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
    /// `comment`, `result`, `reload` (another program changed the game's file).
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
    /// The game's file.
    path: PathBuf,
    inner: Mutex<Inner>,
    /// The game's changes as server-sent event frames, each made once for every watcher.
    pub(crate) events: broadcast::Sender<Bytes>,
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
    /// The file as the session last read or wrote it.
    stamp: Option<Stamp>,
    /// When the last ply was recorded, by this server's clock (after a start or a reload:
    /// the file's last write). The running clock starts there.
    pub(crate) clock_since: Option<SystemTime>,
}

/// What tells a file changed: its size, modification time and inode (a rename over it
/// gives a new one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Stamp {
    len: u64,
    modified: Option<SystemTime>,
    inode: u64,
}

/// The stamp of the file at `path`.
fn stamp(path: &Path) -> std::io::Result<Stamp> {
    let m = std::fs::metadata(path)?;
    #[cfg(unix)]
    let inode = std::os::unix::fs::MetadataExt::ino(&m);
    #[cfg(not(unix))]
    let inode = 0;
    Ok(Stamp {
        len: m.len(),
        modified: m.modified().ok(),
        inode,
    })
}

/// What [`Inner::freshen`] found.
#[derive(Debug)]
pub(crate) enum Fresh {
    /// The file is as the session last read or wrote it.
    Same,
    /// Another program changed the file: the session was opened again from it.
    Reloaded,
    /// The file is gone.
    Gone,
    /// The file changed and is not a valid record now (half-written, say): the session
    /// is the last valid one, and takes no change until the file checks again.
    Invalid(String),
}

impl Change {
    /// The change as one server-sent event: `event: KIND`, `data: JSON`, a blank line.
    pub(crate) fn frame(&self) -> Bytes {
        let data = serde_json::to_string(self).unwrap_or_default();
        Bytes::from(format!("event: {}\ndata: {data}\n\n", self.kind))
    }
}

impl Slot {
    fn new(id: String, path: PathBuf, session: Session, stamp: Option<Stamp>) -> Self {
        let inner = Inner {
            session,
            version: 0,
            stamp,
            clock_since: modified(&path),
        };
        let last = inner.change(&id, "state");
        Self {
            id,
            path,
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

    /// The game's file.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }
}

impl Inner {
    /// Compares the game's file with what the session last read or wrote, and opens the
    /// session again from the file when another program changed it (a `stat`, and a read
    /// only when the stamp changed).
    pub(crate) fn freshen(&mut self, path: &Path, lap_budget: u64) -> Fresh {
        let now = match stamp(path) {
            Ok(s) => s,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Fresh::Gone,
            Err(e) => return Fresh::Invalid(format!("cannot read the file: {e}")),
        };
        if self.stamp == Some(now) {
            return Fresh::Same;
        }
        match std::fs::read(path) {
            // The server's own last write (or a copy of the same text): nothing to read.
            Ok(bytes) if bytes == self.text().as_bytes() => {
                self.stamp = Some(now);
                return Fresh::Same;
            }
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Fresh::Gone,
            Err(e) => return Fresh::Invalid(format!("cannot read the file: {e}")),
        }
        match open(path, lap_budget) {
            Ok(session) => {
                self.session = session;
                // The stamp from before the read: a write that lands during it is seen
                // at the next look.
                self.stamp = Some(now);
                self.version += 1;
                self.clock_since = modified(path);
                Fresh::Reloaded
            }
            Err(why) => Fresh::Invalid(why),
        }
    }

    /// Notes that the session just wrote the file (so the next look reads nothing).
    pub(crate) fn wrote(&mut self, path: &Path) {
        self.stamp = stamp(path).ok();
    }

    /// The record's current game: its last entry that is a game.
    pub(crate) fn game(&self) -> Option<&Game> {
        current(self.session.record())
    }

    /// The tags of the game, by name (none before the game has begun).
    pub(crate) fn tags(&self) -> BTreeMap<String, String> {
        self.game()
            .map(|g| g.tag_pairs().collect())
            .unwrap_or_default()
    }

    /// The games of the file before the current one (a best-of-three match's finished
    /// games), first to last: each one's tags, plies and result.
    pub(crate) fn earlier(&self) -> Vec<serde_json::Value> {
        let games: Vec<&Game> = self
            .session
            .record()
            .games
            .iter()
            .map(|g| &g.value)
            .filter(|g| is_game(g))
            .collect();
        let n = games.len().saturating_sub(1);
        games[..n]
            .iter()
            .map(|g| {
                let tags: BTreeMap<String, String> = g.tag_pairs().collect();
                serde_json::json!({
                    "tags": tags,
                    "plies": g.main_line().count(),
                    "result": result_of(Some(g)),
                })
            })
            .collect()
    }

    /// The record's text, as it is on disk.
    pub(crate) fn text(&self) -> String {
        self.session.text().to_owned()
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

/// When the file was last written.
fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
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
    /// The lap budget of every session's engine questions.
    lap_budget: u64,
    games: RwLock<BTreeMap<String, Arc<Slot>>>,
    /// The files named as games that are not valid records (as of their stamp), and why.
    problems: Mutex<BTreeMap<String, (Option<Stamp>, String)>>,
    /// Held while a game is created or the directory is looked at (one new slot at a
    /// time: a file is never opened twice).
    creating: Mutex<()>,
    /// Every change of every game (the evening's watchers), as event frames.
    pub(crate) all: broadcast::Sender<Bytes>,
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
/// question takes its default or the answer given, every engine question is decided under
/// the lap budget.
pub(crate) fn options(answers: Answers, lap_budget: u64) -> Options {
    Options {
        asking: Asking::Never,
        take_defaults: true,
        answers,
        today: bao_session::today(),
        lap_budget: Some(lap_budget),
    }
}

/// A game file of the directory that is not served (yet), and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Problem {
    /// The game's id (its file's name).
    pub(crate) id: String,
    /// Why it is not served.
    pub(crate) why: String,
}

/// The id of a directory entry that may be a game: a `*.bao` file.
fn game_file(path: &Path) -> Option<Result<String, ()>> {
    if path.extension().is_none_or(|x| x != "bao") || !path.is_file() {
        return None;
    }
    Some(
        path.file_stem()
            .and_then(|s| s.to_str())
            .filter(|s| valid_id(s))
            .map(str::to_owned)
            .ok_or(()),
    )
}

impl Store {
    /// Opens every `*.bao` file of the directory whose name is a game id.
    pub(crate) fn load(config: &Config) -> Result<(Self, Vec<Skipped>), ServeError> {
        let dir = config.dir.clone();
        std::fs::read_dir(&dir).map_err(|e| ServeError::Dir(dir.clone(), e))?;
        let store = Self {
            dir,
            lap_budget: config.lap_budget,
            games: RwLock::new(BTreeMap::new()),
            problems: Mutex::new(BTreeMap::new()),
            creating: Mutex::new(()),
            all: broadcast::channel(1024).0,
        };
        let skipped = store
            .rescan()
            .map_err(|e| ServeError::Dir(store.dir.clone(), e))?;
        Ok((store, skipped))
    }

    /// Looks at the directory again: games whose files appeared are served, games whose
    /// files another program changed are read again, games whose files are gone are
    /// dropped, and a file that does not open is noted with why ([`Store::problems`]).
    /// The watchers hear of each game taken or read again (`new`, `reload`). Returns the
    /// `.bao` files not served, and why.
    pub(crate) fn rescan(&self) -> std::io::Result<Vec<Skipped>> {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(&self.dir)?
            .filter_map(Result::ok)
            .map(|e| e.path())
            .collect();
        paths.sort();
        let _one = self
            .creating
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut skipped = Vec::new();
        let mut present = std::collections::BTreeSet::new();
        for path in paths {
            let id = match game_file(&path) {
                None => continue,
                Some(Err(())) => {
                    skipped.push(Skipped {
                        path,
                        why: "its name is not a game id (letters, digits, - and _)".to_owned(),
                    });
                    continue;
                }
                Some(Ok(id)) => id,
            };
            present.insert(id.clone());
            if let Some(why) = self.look_at(&id, &path) {
                skipped.push(Skipped { path, why });
            }
        }
        // The games whose files are gone.
        let gone: Vec<String> = self
            .read()
            .keys()
            .filter(|id| !present.contains(*id))
            .cloned()
            .collect();
        if !gone.is_empty() {
            let mut games = self.write();
            for id in &gone {
                games.remove(id);
            }
        }
        self.lock_problems().retain(|id, _| present.contains(id));
        Ok(skipped)
    }

    /// Takes in, reads again or notes the game file `path` of the game `id`; `Some(why)`
    /// when it is not served.
    fn look_at(&self, id: &str, path: &Path) -> Option<String> {
        if let Some(slot) = self.get(id) {
            let mut inner = slot.lock();
            return match inner.freshen(path, self.lap_budget) {
                Fresh::Same => None,
                Fresh::Reloaded => {
                    let change = inner.change(id, "reload");
                    drop(inner);
                    self.announce(&slot, change);
                    None
                }
                Fresh::Gone => Some("the file is gone".to_owned()),
                Fresh::Invalid(why) => {
                    // Not served while it does not check (a half-written file, say): it
                    // is read again when it changes.
                    drop(inner);
                    self.write().remove(id);
                    self.lock_problems()
                        .insert(id.to_owned(), (stamp(path).ok(), why.clone()));
                    Some(why)
                }
            };
        }
        let before = stamp(path).ok();
        if let Some((seen, why)) = self.lock_problems().get(id) {
            if seen.is_some() && *seen == before {
                return Some(why.clone());
            }
        }
        let opened = if before.is_some_and(|s| s.len == 0) {
            // Being created by another program, or no record yet: the server writes
            // nothing into a file it did not make.
            Err("the file is empty".to_owned())
        } else {
            open(path, self.lap_budget)
        };
        match opened {
            Ok(session) => {
                let slot = Arc::new(Slot::new(id.to_owned(), path.to_owned(), session, before));
                self.lock_problems().remove(id);
                self.write().insert(id.to_owned(), Arc::clone(&slot));
                let change = slot.lock().change(id, "new");
                self.announce(&slot, change);
                None
            }
            Err(why) => {
                self.lock_problems()
                    .insert(id.to_owned(), (before, why.clone()));
                Some(why)
            }
        }
    }

    /// The game files that are not served, and why (as of the last look).
    pub(crate) fn problems(&self) -> Vec<Problem> {
        self.lock_problems()
            .iter()
            .map(|(id, (_, why))| Problem {
                id: id.clone(),
                why: why.clone(),
            })
            .collect()
    }

    fn lock_problems(&self) -> MutexGuard<'_, BTreeMap<String, (Option<Stamp>, String)>> {
        self.problems
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, BTreeMap<String, Arc<Slot>>> {
        self.games
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The game `id`, looking at the directory for its file when the server does not
    /// serve it yet (a file copied in since the last look). File and engine work: call
    /// off the async runtime.
    pub(crate) fn find(&self, id: &str) -> Option<Arc<Slot>> {
        if !valid_id(id) {
            return None;
        }
        if let Some(slot) = self.get(id) {
            return Some(slot);
        }
        let path = self.dir.join(format!("{id}.bao"));
        if !path.is_file() {
            return None;
        }
        let _one = self
            .creating
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        self.look_at(id, &path);
        self.get(id)
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
        let mut session = Session::open(&path, options(answers, self.lap_budget))
            .map_err(|e| failed(open_error(&e)))?;
        let started = session
            .start()
            .map_err(|e| failed(e.to_string()))
            .and_then(|_| setup(&mut session));
        if let Err(e) = started {
            let _ = std::fs::remove_file(&path);
            return Err(e);
        }
        let stamp = stamp(&path).ok();
        let slot = Arc::new(Slot::new(id.clone(), path, session, stamp));
        self.write().insert(id, Arc::clone(&slot));
        Ok(slot)
    }

    /// Tells the game's watchers and the evening's: the event is written once, and each
    /// watcher's connection sends the same bytes.
    pub(crate) fn announce(&self, slot: &Slot, change: Change) {
        let frame = change.frame();
        *slot
            .last
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = change;
        let _ = slot.events.send(frame.clone());
        let _ = self.all.send(frame);
    }
}

/// Opens a game file and resumes its game.
fn open(path: &Path, lap_budget: u64) -> Result<Session, String> {
    let mut session =
        Session::open(path, options(Answers::default(), lap_budget)).map_err(|e| open_error(&e))?;
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
