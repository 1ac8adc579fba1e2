//! Clocks (spec/serve.md, "Clocks"): a game with a `TimeControl "BASE+INCREMENT"` tag
//! (seconds) has one; each ply of its main line is followed by a `[%clk h:mm:ss]` comment,
//! the mover's time left after it (the increment added), so the record itself keeps the
//! clocks and they survive a kill. The clocks start with the first ply (South's first move
//! costs nothing); the side to move's clock runs from the moment the ply before it was
//! recorded (after a restart: the game file's last write).

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use bao_notation::{Element, Game};

/// How far the moment a phone says a move was made may be from the server's own clock
/// and still be taken.
pub(crate) const TOLERANCE: Duration = Duration::from_secs(2);

/// A time control: the base time and the increment a ply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Control {
    pub(crate) base: Duration,
    pub(crate) increment: Duration,
}

/// Reads `BASE+INCREMENT` in seconds (`600+5`): a base of 1 s to 24 h, an increment of at
/// most an hour.
pub(crate) fn parse_control(text: &str) -> Option<Control> {
    let (base, inc) = text.trim().split_once('+')?;
    let digits = |s: &str| !s.is_empty() && s.len() <= 6 && s.bytes().all(|c| c.is_ascii_digit());
    if !digits(base) || !digits(inc) {
        return None;
    }
    let (base, inc): (u64, u64) = (base.parse().ok()?, inc.parse().ok()?);
    ((1..=86_400).contains(&base) && inc <= 3600).then(|| Control {
        base: Duration::from_secs(base),
        increment: Duration::from_secs(inc),
    })
}

/// `[%clk h:mm:ss]` of a time left, with a tenth of a second when it is not whole
/// (`0:04:59.9`, as chess.com writes it; rounded down).
pub(crate) fn clk(left: Duration) -> String {
    let s = left.as_secs();
    let tenth = left.subsec_millis() / 100;
    let frac = if tenth == 0 {
        String::new()
    } else {
        format!(".{tenth}")
    };
    format!("[%clk {}:{:02}:{:02}{frac}]", s / 3600, s / 60 % 60, s % 60)
}

/// The time of the first `[%clk h:mm:ss]` in a comment's text.
pub(crate) fn read_clk(text: &str) -> Option<Duration> {
    let at = text.find("[%clk ")? + 6;
    let rest = &text[at..];
    let value = &rest[..rest.find(']')?];
    let mut parts = value.trim().split(':');
    let (h, m, s) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() {
        return None;
    }
    let (h, m): (u64, u64) = (h.parse().ok()?, m.parse().ok()?);
    // Seconds may carry a fraction (`05.3`), as some programs write them.
    let s: f64 = s.parse().ok()?;
    if m >= 60 || !(0.0..60.0).contains(&s) {
        return None;
    }
    Some(Duration::from_secs(h * 3600 + m * 60) + Duration::from_secs_f64(s))
}

/// Each side's time left in `game` (South's, North's): the last `[%clk]` after a ply of
/// that side, else the base. `south_first`: South made the first ply.
pub(crate) fn left(game: &Game, control: Control, south_first: bool) -> [Duration; 2] {
    let mut out = [control.base; 2];
    let mut plies = 0usize;
    let mut after_ply = false;
    for e in &game.movetext {
        match &e.value {
            Element::Move(_) => {
                plies += 1;
                after_ply = true;
            }
            Element::Comment(c) if after_ply => {
                if let Some(t) = read_clk(&c.text) {
                    // Ply `plies` (1-based) was South's when it is odd and South began.
                    let south = (plies % 2 == 1) == south_first;
                    out[usize::from(!south)] = t;
                    after_ply = false;
                }
            }
            _ => {}
        }
    }
    out
}

/// Milliseconds since 1970 (what the page and the state speak in).
pub(crate) fn epoch_ms(t: SystemTime) -> u64 {
    t.duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// The moment a ply was made: the phone's `at` (ms since 1970) when it is within
/// [`TOLERANCE`] of the server's `now` and not before `since`, else `now`.
pub(crate) fn moment(at: Option<u64>, now: SystemTime, since: SystemTime) -> SystemTime {
    at.map(|ms| UNIX_EPOCH + Duration::from_millis(ms))
        .filter(|t| {
            let off = t.duration_since(now).unwrap_or_else(|e| e.duration());
            off <= TOLERANCE && *t >= since
        })
        .unwrap_or(now)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_and_clock_comments_read_back() {
        assert_eq!(
            parse_control("600+5"),
            Some(Control {
                base: Duration::from_secs(600),
                increment: Duration::from_secs(5)
            })
        );
        for bad in [
            "600",
            "+5",
            "0+5",
            "600+-1",
            "10m+5",
            "600+5+1",
            "99999999+0",
        ] {
            assert_eq!(parse_control(bad), None, "{bad}");
        }
        assert_eq!(clk(Duration::from_millis(3_725_000)), "[%clk 1:02:05]");
        assert_eq!(clk(Duration::from_millis(3_725_990)), "[%clk 1:02:05.9]");
        assert_eq!(
            read_clk(&clk(Duration::from_millis(4_950))),
            Some(Duration::from_millis(4_900))
        );
        assert_eq!(read_clk("[%clk 1:02:05]"), Some(Duration::from_secs(3725)));
        assert_eq!(
            read_clk("well played [%clk 0:00:09.5] !"),
            Some(Duration::from_millis(9500))
        );
        assert_eq!(read_clk("[%clk 0:61:00]"), None);
        assert_eq!(read_clk("no clock"), None);
    }

    #[test]
    fn the_phones_moment_is_taken_only_near_the_servers() {
        let now = UNIX_EPOCH + Duration::from_secs(1_000_000);
        let since = now - Duration::from_secs(30);
        let ms = |t: SystemTime| Some(epoch_ms(t));
        let near = now - Duration::from_millis(1500);
        assert_eq!(moment(ms(near), now, since), near);
        assert_eq!(moment(ms(now - Duration::from_secs(5)), now, since), now);
        assert_eq!(moment(ms(now + Duration::from_secs(3)), now, since), now);
        assert_eq!(moment(None, now, since), now);
        // Never before the ply before it.
        assert_eq!(
            moment(
                ms(since - Duration::from_secs(1)),
                since + Duration::from_secs(1),
                since
            ),
            since + Duration::from_secs(1)
        );
    }
}
