//! Who may record: the API token, the scribe PIN and the cookies it gives, the slowing of
//! wrong PINs and the rate of scribe requests.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use axum::http::{header, HeaderMap};
use cookie::{Cookie, SameSite};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::config::{Config, ServeError};

/// The file of the directory that keeps the PIN (salted and hashed) and the cookie
/// sessions (each cookie hashed, with its CSRF token) across restarts; mode 0600.
pub(crate) const AUTH_FILE: &str = ".bao-serve-auth.json";

/// The cookie the PIN page sets.
pub(crate) const COOKIE: &str = "bao_scribe";
/// The header that carries a cookie session's CSRF token.
pub(crate) const CSRF_HEADER: &str = "x-csrf-token";

/// The most cookie sessions kept (the oldest go first).
const MAX_SESSIONS: usize = 10_000;
/// The most client addresses remembered for wrong PINs and request rates.
const MAX_CLIENTS: usize = 10_000;
/// Wrong PINs allowed in a row from one address; from the last of them on, each further
/// try waits.
const FREE_TRIES: u32 = 3;
/// Wrong PINs heard a minute from all addresses together; beyond them, every PIN try is
/// refused until the oldest is a minute old (so many addresses guess no faster than one).
const WRONG_A_MINUTE: usize = 10;
/// The longest wait after wrong PINs.
const MAX_WAIT: Duration = Duration::from_secs(60);

/// Wrong PINs from one address.
#[derive(Debug, Clone, Copy)]
struct Failures {
    count: u32,
    /// No try is heard before this.
    not_before: Instant,
}

/// A client's budget of scribe requests.
#[derive(Debug, Clone, Copy)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

/// A cookie session.
#[derive(Debug, Clone)]
struct Scribe {
    csrf: String,
    since: Instant,
}

/// What [`AUTH_FILE`] holds.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Kept {
    /// The PIN's salt, hex.
    salt: String,
    /// SHA-256 of the salt and the PIN, hex.
    pin_sha256: String,
    /// The cookie sessions.
    sessions: Vec<KeptSession>,
}

/// A cookie session as kept: the cookie's SHA-256 and its CSRF token (which is worth
/// nothing without the cookie).
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct KeptSession {
    cookie_sha256: String,
    csrf: String,
}

/// SHA-256 of `parts` one after the other, hex.
fn sha256_hex(parts: &[&str]) -> String {
    let mut h = Sha256::new();
    for p in parts {
        h.update(p.as_bytes());
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// Writes `bytes` to `path` as a whole new file readable by its owner only (mode 0600 on
/// Unix): a temporary file beside it, synced, renamed over it.
fn write_private(path: &std::path::Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let tmp = path.with_extension("json.tmp");
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut f = options.open(&tmp)?;
    #[cfg(unix)]
    std::fs::set_permissions(&tmp, std::os::unix::fs::PermissionsExt::from_mode(0o600))?;
    f.write_all(bytes)?;
    f.sync_all()?;
    drop(f);
    std::fs::rename(&tmp, path)
}

/// The credentials of a server.
#[derive(Debug)]
pub(crate) struct Auth {
    token: String,
    /// The PIN when this start made it (`None`: the one kept from an earlier start).
    pin: Option<String>,
    /// The PIN's salt and salted hash.
    salt: String,
    pin_sha256: String,
    /// Where the PIN and the sessions are kept.
    file: std::path::PathBuf,
    private: bool,
    post_rate: f64,
    /// The cookie sessions by the cookie's SHA-256.
    sessions: Mutex<HashMap<String, Scribe>>,
    failures: Mutex<HashMap<IpAddr, Failures>>,
    /// When the wrong PINs of the last minute were heard, oldest first.
    wrong: Mutex<std::collections::VecDeque<Instant>>,
    buckets: Mutex<HashMap<IpAddr, Bucket>>,
}

/// What a PIN try gave.
#[derive(Debug)]
pub(crate) enum Login {
    /// The right PIN: the cookie's value and the CSRF token.
    Granted { cookie: String, csrf: String },
    /// A wrong PIN: answer after this wait.
    Denied { wait: Duration },
    /// Too many wrong PINs: try again after this.
    TooSoon { retry: Duration },
}

/// `n` random bytes from the operating system, as hex.
fn random_hex(n: usize) -> Result<String, ServeError> {
    let mut bytes = vec![0u8; n];
    getrandom::fill(&mut bytes).map_err(|e| ServeError::Random(e.to_string()))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Compares secrets in time independent of where they differ.
fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A cookie of the request, by name (every `Cookie` header read by the cookie crate; a
/// pair it cannot read is passed over).
fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(Cookie::split_parse)
        .filter_map(Result::ok)
        .find(|c| c.name() == name)
        .map(|c| c.value().to_owned())
}

/// The `Set-Cookie` value of a cookie session `id`: for every path, not readable by
/// scripts, sent with requests from the server's own pages only.
pub(crate) fn session_cookie(id: &str) -> String {
    Cookie::build((COOKIE, id))
        .path("/")
        .http_only(true)
        .same_site(SameSite::Strict)
        .build()
        .to_string()
}

impl Auth {
    pub(crate) fn new(config: &Config) -> Result<Self, ServeError> {
        let token = match &config.token {
            Some(t) => t.clone(),
            None => random_hex(24)?,
        };
        let file = config.dir.join(AUTH_FILE);
        // The PIN and sessions of an earlier start, unless a new PIN is asked for (or the
        // file does not read: then a new PIN, and the file is written anew).
        let kept = if config.new_pin {
            None
        } else {
            std::fs::read(&file)
                .ok()
                .and_then(|b| serde_json::from_slice::<Kept>(&b).ok())
        };
        let (pin, salt, pin_sha256, sessions) = match kept {
            Some(k) => {
                let now = Instant::now();
                let sessions = k
                    .sessions
                    .into_iter()
                    .map(|s| {
                        (
                            s.cookie_sha256,
                            Scribe {
                                csrf: s.csrf,
                                since: now,
                            },
                        )
                    })
                    .collect();
                (None, k.salt, k.pin_sha256, sessions)
            }
            None => {
                let mut pin_bytes = [0u8; 4];
                getrandom::fill(&mut pin_bytes).map_err(|e| ServeError::Random(e.to_string()))?;
                let pin = format!("{:06}", u32::from_le_bytes(pin_bytes) % 1_000_000);
                let salt = random_hex(16)?;
                let hash = sha256_hex(&[&salt, &pin]);
                (Some(pin), salt, hash, HashMap::new())
            }
        };
        let auth = Self {
            token,
            pin,
            salt,
            pin_sha256,
            file,
            private: config.private,
            post_rate: f64::from(config.post_rate.max(1)),
            sessions: Mutex::new(sessions),
            failures: Mutex::new(HashMap::new()),
            wrong: Mutex::new(std::collections::VecDeque::new()),
            buckets: Mutex::new(HashMap::new()),
        };
        if auth.pin.is_some() {
            auth.keep(&lock(&auth.sessions))
                .map_err(|e| ServeError::Dir(auth.file.clone(), e))?;
        }
        Ok(auth)
    }

    /// Writes the PIN's hash and the sessions to [`AUTH_FILE`].
    fn keep(&self, sessions: &HashMap<String, Scribe>) -> std::io::Result<()> {
        let kept = Kept {
            salt: self.salt.clone(),
            pin_sha256: self.pin_sha256.clone(),
            sessions: sessions
                .iter()
                .map(|(k, s)| KeptSession {
                    cookie_sha256: k.clone(),
                    csrf: s.csrf.clone(),
                })
                .collect(),
        };
        let json = serde_json::to_vec_pretty(&kept).map_err(std::io::Error::other)?;
        write_private(&self.file, &json)
    }

    /// The PIN, when this start made it (`None`: the PIN of an earlier start is kept).
    pub(crate) fn pin(&self) -> Option<&str> {
        self.pin.as_deref()
    }

    pub(crate) fn token(&self) -> &str {
        &self.token
    }

    /// Whether the request carries the API token.
    fn bearer(&self, headers: &HeaderMap) -> bool {
        headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .is_some_and(|t| same_secret(t.trim(), &self.token))
    }

    /// The cookie session of the request, if it has a live one.
    fn scribe(&self, headers: &HeaderMap) -> Option<Scribe> {
        let id = cookie(headers, COOKIE)?;
        lock(&self.sessions).get(&sha256_hex(&[&id])).cloned()
    }

    /// Whether the request may change a game: the token, or a cookie session with its CSRF
    /// token.
    pub(crate) fn may_write(&self, headers: &HeaderMap) -> bool {
        if self.bearer(headers) {
            return true;
        }
        let csrf = headers.get(CSRF_HEADER).and_then(|v| v.to_str().ok());
        match (self.scribe(headers), csrf) {
            (Some(s), Some(c)) => same_secret(&s.csrf, c),
            _ => false,
        }
    }

    /// Whether the request may read (always, unless the server is private).
    pub(crate) fn may_read(&self, headers: &HeaderMap) -> bool {
        !self.private || self.bearer(headers) || self.scribe(headers).is_some()
    }

    /// The CSRF token of the request's cookie session, if it has one.
    pub(crate) fn csrf_of(&self, headers: &HeaderMap) -> Option<String> {
        self.scribe(headers).map(|s| s.csrf)
    }

    /// A PIN try from `ip`. After [`FREE_TRIES`] wrong PINs in a row from one address, each
    /// further try from it waits 2, 4, 8 ... up to 60 s; and once [`WRONG_A_MINUTE`] wrong
    /// PINs were heard in the last minute from all addresses together, no PIN is checked
    /// until the oldest of them is a minute old. Phones already in (their cookie) never
    /// ask.
    pub(crate) fn login(&self, ip: IpAddr, pin: &str) -> Result<Login, ServeError> {
        let now = Instant::now();
        let minute = Duration::from_secs(60);
        let mut failures = lock(&self.failures);
        if let Some(f) = failures.get(&ip) {
            if now < f.not_before {
                return Ok(Login::TooSoon {
                    retry: f.not_before - now,
                });
            }
        }
        let mut wrong = lock(&self.wrong);
        while wrong
            .front()
            .is_some_and(|t| now.duration_since(*t) >= minute)
        {
            wrong.pop_front();
        }
        if wrong.len() >= WRONG_A_MINUTE {
            let oldest = wrong.front().copied().unwrap_or(now);
            return Ok(Login::TooSoon {
                retry: (oldest + minute).saturating_duration_since(now),
            });
        }
        if !same_secret(&sha256_hex(&[&self.salt, pin.trim()]), &self.pin_sha256) {
            wrong.push_back(now);
            if failures.len() >= MAX_CLIENTS {
                failures.retain(|_, f| f.not_before > now);
            }
            let f = failures.entry(ip).or_insert(Failures {
                count: 0,
                not_before: now,
            });
            f.count = f.count.saturating_add(1);
            let wait = if f.count < FREE_TRIES {
                Duration::ZERO
            } else {
                Duration::from_secs(1u64 << (f.count + 1 - FREE_TRIES).min(6)).min(MAX_WAIT)
            };
            f.not_before = now + wait;
            // Every wrong PIN is answered a little late.
            return Ok(Login::Denied {
                wait: Duration::from_millis(300),
            });
        }
        drop(wrong);
        failures.remove(&ip);
        drop(failures);
        let cookie = random_hex(24)?;
        let csrf = random_hex(24)?;
        let mut sessions = lock(&self.sessions);
        if sessions.len() >= MAX_SESSIONS {
            if let Some(oldest) = sessions
                .iter()
                .min_by_key(|(_, s)| s.since)
                .map(|(k, _)| k.clone())
            {
                sessions.remove(&oldest);
            }
        }
        sessions.insert(
            sha256_hex(&[&cookie]),
            Scribe {
                csrf: csrf.clone(),
                since: now,
            },
        );
        // Kept before the cookie is given: a restart after this answer knows it.
        self.keep(&sessions).map_err(ServeError::Io)?;
        Ok(Login::Granted { cookie, csrf })
    }

    /// Whether `ip` may send one more scribe request now.
    pub(crate) fn take_request(&self, ip: IpAddr) -> bool {
        let now = Instant::now();
        let burst = self.post_rate * 2.0;
        let mut buckets = lock(&self.buckets);
        if buckets.len() >= MAX_CLIENTS && !buckets.contains_key(&ip) {
            buckets.retain(|_, b| now.duration_since(b.at) < Duration::from_secs(10));
        }
        let b = buckets.entry(ip).or_insert(Bucket {
            tokens: burst,
            at: now,
        });
        let refill = now.duration_since(b.at).as_secs_f64() * self.post_rate;
        b.tokens = (b.tokens + refill).min(burst);
        b.at = now;
        if b.tokens >= 1.0 {
            b.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Credentials of a server on a directory of their own (the PIN's file is written
    /// there), kept while the directory is.
    fn auth() -> (Auth, tempfile::TempDir) {
        let dir = tempfile::tempdir().unwrap();
        let mut config = Config::new(dir.path().to_owned());
        config.token = Some("t0k3n".into());
        config.post_rate = 2;
        (Auth::new(&config).unwrap(), dir)
    }

    #[test]
    fn the_pin_is_six_digits_and_wrong_pins_wait_longer() {
        let (a, _dir) = auth();
        assert_eq!(a.pin().unwrap().len(), 6);
        assert!(a.pin().unwrap().bytes().all(|b| b.is_ascii_digit()));
        let ip = IpAddr::from([10, 0, 0, 1]);
        let wrong = if a.pin() == Some("000000") {
            "111111"
        } else {
            "000000"
        };
        for _ in 0..FREE_TRIES {
            assert!(matches!(a.login(ip, wrong).unwrap(), Login::Denied { .. }));
        }
        // Now even the right PIN waits.
        let pin = a.pin().unwrap().to_owned();
        assert!(matches!(a.login(ip, &pin).unwrap(), Login::TooSoon { .. }));
        // Another address is not slowed down.
        assert!(matches!(
            a.login(IpAddr::from([10, 0, 0, 2]), &pin).unwrap(),
            Login::Granted { .. }
        ));
    }

    #[test]
    fn wrong_pins_from_many_addresses_are_capped_together() {
        let (a, _dir) = auth();
        let pin = a.pin().unwrap().to_owned();
        let wrong = if pin == "000000" { "111111" } else { "000000" };
        // Two wrong PINs from each of many addresses: none is slowed on its own, but the
        // eleventh wrong PIN of the minute is not even checked.
        let mut denied = 0;
        for i in 0..20u8 {
            for _ in 0..2 {
                match a.login(IpAddr::from([10, 0, 1, i]), wrong).unwrap() {
                    Login::Denied { .. } => denied += 1,
                    Login::TooSoon { retry } => assert!(retry <= Duration::from_secs(60)),
                    Login::Granted { .. } => panic!("a wrong PIN"),
                }
            }
        }
        assert_eq!(denied, WRONG_A_MINUTE);
        // The right PIN waits too (it is not checked), from a new address as well.
        assert!(matches!(
            a.login(IpAddr::from([10, 0, 2, 1]), &pin).unwrap(),
            Login::TooSoon { .. }
        ));
    }

    #[test]
    fn cookies_are_read_and_written_by_the_cookie_crate() {
        let mut h = HeaderMap::new();
        h.append(header::COOKIE, "a=1; broken; b=\"2\"".parse().unwrap());
        h.append(header::COOKIE, format!("{COOKIE}=abc").parse().unwrap());
        assert_eq!(cookie(&h, "a").as_deref(), Some("1"));
        // RFC 6265: the quotes are part of the value.
        assert_eq!(cookie(&h, "b").as_deref(), Some("\"2\""));
        assert_eq!(cookie(&h, COOKIE).as_deref(), Some("abc"));
        assert_eq!(cookie(&h, "broken"), None);
        assert_eq!(cookie(&HeaderMap::new(), COOKIE), None);
        let set = session_cookie("abc");
        let back = Cookie::parse(set.as_str()).unwrap();
        assert_eq!((back.name(), back.value()), (COOKIE, "abc"));
        assert_eq!(back.path(), Some("/"));
        assert_eq!(back.http_only(), Some(true));
        assert_eq!(back.same_site(), Some(SameSite::Strict));
    }

    #[test]
    fn cookies_need_their_csrf_token() {
        let (a, _dir) = auth();
        let pin = a.pin().unwrap().to_owned();
        let Login::Granted { cookie, csrf } = a.login(IpAddr::from([127, 0, 0, 1]), &pin).unwrap()
        else {
            panic!("the right PIN");
        };
        let mut h = HeaderMap::new();
        h.insert(
            header::COOKIE,
            format!("x=1; {COOKIE}={cookie}").parse().unwrap(),
        );
        assert!(!a.may_write(&h));
        assert!(a.may_read(&h));
        h.insert(CSRF_HEADER, "nope".parse().unwrap());
        assert!(!a.may_write(&h));
        h.insert(CSRF_HEADER, csrf.parse().unwrap());
        assert!(a.may_write(&h));
        let mut b = HeaderMap::new();
        b.insert(header::AUTHORIZATION, "Bearer t0k3n".parse().unwrap());
        assert!(a.may_write(&b));
        b.insert(header::AUTHORIZATION, "Bearer t0k3m".parse().unwrap());
        assert!(!a.may_write(&b));
    }

    #[test]
    fn requests_beyond_the_rate_are_refused() {
        let (a, _dir) = auth();
        let ip = IpAddr::from([127, 0, 0, 1]);
        let granted = (0..10).filter(|_| a.take_request(ip)).count();
        assert_eq!(granted, 4);
    }
}
