//! The evening's rounds: its players, each round's boards (who plays whom, the game that
//! records it, a result the organiser entered or corrected), the pairings generated on
//! request (round-robin by the circle method, Swiss by score groups), the standings and
//! the crosstable. Kept in the directory as `event.toml` (human-readable, written whole and
//! renamed into place before the answer that acknowledges a change).
//!
//! The rules (spec/serve.md, "Rounds and standings"):
//! - a board is one match: a single game, or a best-of-three whose games all sit in the
//!   board's one file; its outcome is decided by the game points of its finished games
//!   (the file's last game over), or by the result the organiser set for it;
//! - match points: a won match 2, a drawn one 1, a lost one 0, a bye 2;
//! - standings: match points, then Sonneborn-Berger (the match points of each opponent
//!   beaten, half those of each opponent drawn), then the direct encounter (the match
//!   points among the players still tied), then game points, then the name.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde::{Deserialize, Serialize};

/// The file of the evening's rounds in the server's directory.
pub(crate) const FILE: &str = "event.toml";

/// At most this many players, and this many rounds.
pub(crate) const MAX_PLAYERS: usize = 256;
pub(crate) const MAX_ROUNDS: usize = 256;

/// The most steps the Swiss pairing searches before it gives up (time bounded whatever
/// the history).
const SWISS_STEPS: u64 = 200_000;

/// A round's boards as pairs (South, North), and the player with the bye.
pub(crate) type Pairs = (Vec<(String, String)>, Option<String>);

/// The evening: its players and rounds.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Event {
    /// Who plays this evening, in the order entered (a round-robin's order).
    #[serde(default)]
    pub(crate) players: Vec<String>,
    /// The rounds, first to last.
    #[serde(default, rename = "round")]
    pub(crate) rounds: Vec<Round>,
}

/// How a round was paired.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum Pairing {
    /// By the organiser.
    Entered,
    /// The circle method over the players.
    RoundRobin,
    /// By score groups.
    Swiss,
}

/// One round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Round {
    /// Its number, the `Round` tag of its games (1, 2, ...).
    pub(crate) number: u32,
    pub(crate) pairing: Pairing,
    /// The player without an opponent this round, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) bye: Option<String>,
    /// Its boards.
    #[serde(default, rename = "board")]
    pub(crate) boards: Vec<Board>,
}

/// One board of a round: a match.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Board {
    /// Who starts with South (the first game's South).
    pub(crate) south: String,
    pub(crate) north: String,
    /// The game id of the board's file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) game: Option<String>,
    /// A best-of-three match rather than one game.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) best_of_three: bool,
    /// The match's result set by the organiser (`1-0`: South won the match, `0-1`,
    /// `1/2-1/2`), which stands over what the file says: a result corrected after the fact,
    /// or a match played away from the server.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) result: Option<String>,
}

/// A board's match as its games tell it: each player's game points (in halves) and
/// whether the match is over.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Played {
    /// The board's South's game points, in halves.
    pub(crate) south: u32,
    /// The board's North's game points, in halves.
    pub(crate) north: u32,
    /// The match is over (its file's last game finished).
    pub(crate) over: bool,
}

/// The outcome of a board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Outcome {
    /// Game points in halves, South's and North's.
    pub(crate) south: u32,
    pub(crate) north: u32,
    /// Match points, South's and North's (2, 1, 0).
    pub(crate) south_mp: u32,
    pub(crate) north_mp: u32,
    /// Set by the organiser rather than read from the games.
    pub(crate) corrected: bool,
}

/// A result as the organiser writes it: South's and North's points in halves.
pub(crate) fn result_points(result: &str) -> Option<(u32, u32)> {
    match result {
        "1-0" => Some((2, 0)),
        "0-1" => Some((0, 2)),
        "1/2-1/2" => Some((1, 1)),
        _ => None,
    }
}

impl Board {
    /// The board's outcome: the organiser's result, else the games' once the match is
    /// over; `None` while it goes on.
    pub(crate) fn outcome(&self, played: Option<Played>) -> Option<Outcome> {
        let (south, north, corrected) = match self.result.as_deref().and_then(result_points) {
            Some((s, n)) => (s, n, true),
            None => {
                let p = played.filter(|p| p.over)?;
                (p.south, p.north, false)
            }
        };
        let (south_mp, north_mp) = match south.cmp(&north) {
            std::cmp::Ordering::Greater => (2, 0),
            std::cmp::Ordering::Less => (0, 2),
            std::cmp::Ordering::Equal => (1, 1),
        };
        Some(Outcome {
            south,
            north,
            south_mp,
            north_mp,
            corrected,
        })
    }
}

/// A player's line of the standings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct Standing {
    pub(crate) rank: usize,
    pub(crate) name: String,
    /// Match points.
    pub(crate) match_points: u32,
    /// Game points, in halves.
    #[serde(skip)]
    pub(crate) games2: u32,
    /// Sonneborn-Berger, in halves.
    #[serde(skip)]
    pub(crate) sb2: u32,
    /// The matches finished (byes not counted).
    pub(crate) played: u32,
    pub(crate) byes: u32,
    /// Times seated South at the start of a match (colour balance for the pairings).
    #[serde(skip)]
    pub(crate) souths: u32,
    /// The side of the last match (`true`: South).
    #[serde(skip)]
    pub(crate) last_south: Option<bool>,
}

/// Points in halves as a person writes them: `3½`, `½`, `2`.
pub(crate) fn halves(x: u32) -> String {
    match (x / 2, x % 2) {
        (0, 1) => "½".to_owned(),
        (n, 1) => format!("{n}½"),
        (n, _) => n.to_string(),
    }
}

impl Event {
    /// Reads `event.toml` of `dir`; an absent file is an evening without rounds.
    ///
    /// # Errors
    /// The file does not read or is no event (why, with TOML's location).
    pub(crate) fn load(dir: &Path) -> Result<Self, String> {
        let path = dir.join(FILE);
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Self::default()),
            Err(e) => return Err(format!("{}: {e}", path.display())),
        };
        let event: Self = toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        event
            .check()
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(event)
    }

    /// Writes `event.toml` of `dir` whole, renamed into place, synced.
    ///
    /// # Errors
    /// It cannot be written.
    pub(crate) fn save(&self, dir: &Path) -> std::io::Result<()> {
        let text = toml::to_string_pretty(self).map_err(std::io::Error::other)?;
        let text = format!(
            "# The evening's rounds, kept by `bao serve` (spec/serve.md, \"Rounds and standings\").\n\n{text}"
        );
        bao_session::durable::write_atomic(&dir.join(FILE), text.as_bytes())
    }

    /// Whether the event holds together: names one line, players unique, each player at
    /// most once a round, rounds numbered 1, 2, ...
    pub(crate) fn check(&self) -> Result<(), String> {
        if self.players.len() > MAX_PLAYERS || self.rounds.len() > MAX_ROUNDS {
            return Err(format!(
                "at most {MAX_PLAYERS} players and {MAX_ROUNDS} rounds"
            ));
        }
        let mut seen = BTreeSet::new();
        for p in &self.players {
            check_name(p)?;
            if !seen.insert(p.as_str()) {
                return Err(format!("the player `{p}` is listed twice"));
            }
        }
        for (i, r) in self.rounds.iter().enumerate() {
            if usize::try_from(r.number).ok() != Some(i + 1) {
                return Err(format!("round {} is numbered {}", i + 1, r.number));
            }
            let mut here = BTreeSet::new();
            let names = r
                .boards
                .iter()
                .flat_map(|b| [&b.south, &b.north])
                .chain(r.bye.as_ref());
            for n in names {
                check_name(n)?;
                if !here.insert(n.as_str()) {
                    return Err(format!("`{n}` plays twice in round {}", r.number));
                }
            }
            for b in &r.boards {
                if let Some(res) = &b.result {
                    if result_points(res).is_none() {
                        return Err(format!(
                            "round {}: the result `{res}` is none of 1-0, 0-1, 1/2-1/2",
                            r.number
                        ));
                    }
                }
                if let Some(g) = &b.game {
                    if !crate::store::valid_id(g) {
                        return Err(format!("round {}: `{g}` is no game id", r.number));
                    }
                }
            }
        }
        Ok(())
    }

    /// The standings after every finished board (`played` gives each board's games:
    /// round index, board index), best first.
    pub(crate) fn standings(
        &self,
        played: &dyn Fn(usize, usize) -> Option<Played>,
    ) -> Vec<Standing> {
        let mut names: Vec<String> = self.players.clone();
        for r in &self.rounds {
            for n in r
                .boards
                .iter()
                .flat_map(|b| [&b.south, &b.north])
                .chain(r.bye.as_ref())
            {
                if !names.contains(n) {
                    names.push(n.clone());
                }
            }
        }
        let mut by: BTreeMap<String, Standing> = names
            .iter()
            .map(|n| {
                let s = Standing {
                    rank: 0,
                    name: n.clone(),
                    match_points: 0,
                    games2: 0,
                    sb2: 0,
                    played: 0,
                    byes: 0,
                    souths: 0,
                    last_south: None,
                };
                (n.clone(), s)
            })
            .collect();
        // Each finished match: (a, b, a's match points, b's).
        let mut results: Vec<(String, String, u32, u32)> = Vec::new();
        for (ri, r) in self.rounds.iter().enumerate() {
            if let Some(bye) = &r.bye {
                if let Some(s) = by.get_mut(bye) {
                    s.match_points += 2;
                    s.byes += 1;
                }
            }
            for (bi, b) in r.boards.iter().enumerate() {
                for (name, south) in [(&b.south, true), (&b.north, false)] {
                    if let Some(s) = by.get_mut(name) {
                        s.souths += u32::from(south);
                        s.last_south = Some(south);
                    }
                }
                let Some(o) = b.outcome(played(ri, bi)) else {
                    continue;
                };
                for (name, mp, g) in [
                    (&b.south, o.south_mp, o.south),
                    (&b.north, o.north_mp, o.north),
                ] {
                    if let Some(s) = by.get_mut(name) {
                        s.match_points += mp;
                        s.games2 += g;
                        s.played += 1;
                    }
                }
                results.push((b.south.clone(), b.north.clone(), o.south_mp, o.north_mp));
            }
        }
        let mp: BTreeMap<String, u32> = by
            .iter()
            .map(|(n, s)| (n.clone(), s.match_points))
            .collect();
        for (a, b, ma, mb) in &results {
            // Beaten: the opponent's match points; drawn: half of them (in halves: 2x, x).
            if let Some(s) = by.get_mut(a) {
                s.sb2 += ma * mp[b];
            }
            if let Some(s) = by.get_mut(b) {
                s.sb2 += mb * mp[a];
            }
        }
        let mut list: Vec<Standing> = names.iter().filter_map(|n| by.remove(n)).collect();
        list.sort_by(|x, y| {
            (y.match_points, y.sb2)
                .cmp(&(x.match_points, x.sb2))
                .then_with(|| x.name.cmp(&y.name))
        });
        // The direct encounter, within each group still tied on match points and SB.
        let mut i = 0;
        while i < list.len() {
            let key = (list[i].match_points, list[i].sb2);
            let j = i + list[i..]
                .iter()
                .take_while(|s| (s.match_points, s.sb2) == key)
                .count();
            if j - i > 1 {
                let group: BTreeSet<&str> = list[i..j].iter().map(|s| s.name.as_str()).collect();
                let mut among: BTreeMap<String, u32> = BTreeMap::new();
                for (a, b, ma, mb) in &results {
                    if group.contains(a.as_str()) && group.contains(b.as_str()) {
                        *among.entry(a.clone()).or_default() += ma;
                        *among.entry(b.clone()).or_default() += mb;
                    }
                }
                let direct = |s: &Standing| among.get(&s.name).copied().unwrap_or(0);
                list[i..j].sort_by(|x, y| {
                    (direct(y), y.games2)
                        .cmp(&(direct(x), x.games2))
                        .then_with(|| x.name.cmp(&y.name))
                });
            }
            i = j;
        }
        for (k, s) in list.iter_mut().enumerate() {
            s.rank = k + 1;
        }
        list
    }

    /// The pairs already met (each way), the byes had.
    fn history(&self) -> (BTreeSet<(String, String)>, BTreeSet<String>) {
        let mut met = BTreeSet::new();
        let mut byes = BTreeSet::new();
        for r in &self.rounds {
            for b in &r.boards {
                met.insert((b.south.clone(), b.north.clone()));
                met.insert((b.north.clone(), b.south.clone()));
            }
            if let Some(b) = &r.bye {
                byes.insert(b.clone());
            }
        }
        (met, byes)
    }

    /// The next round-robin round by the circle method: the players in their order (a
    /// "bye" added when their number is odd), the first fixed, the others turned one
    /// place a round; in round k (from 0) the list `[p0, rest turned k]` pairs its i-th
    /// with its (n-1-i)-th. The fixed player is South in even rounds, North in odd ones;
    /// on the other boards the player from the list's first half is South (each player's
    /// South and North games then differ by at most one).
    /// After n-1 rounds every pair has met once; the next n-1 repeat them with the sides
    /// changed.
    pub(crate) fn round_robin(&self) -> Result<Pairs, String> {
        let mut seats: Vec<Option<&String>> = self.players.iter().map(Some).collect();
        if seats.len() < 2 {
            return Err("a round needs at least two players".to_owned());
        }
        if seats.len() % 2 == 1 {
            seats.push(None);
        }
        let n = seats.len();
        let k = self
            .rounds
            .iter()
            .filter(|r| r.pairing == Pairing::RoundRobin)
            .count();
        let cycle = k / (n - 1);
        let k = k % (n - 1);
        let mut rest: Vec<Option<&String>> = seats[1..].to_vec();
        rest.rotate_right(k);
        let mut order = vec![seats[0]];
        order.extend(rest);
        let mut pairs = Vec::new();
        let mut bye = None;
        for i in 0..n / 2 {
            let (a, b) = (order[i], order[n - 1 - i]);
            match (a, b) {
                (Some(a), Some(b)) => {
                    let a_south = (i > 0 || k.is_multiple_of(2)) == cycle.is_multiple_of(2);
                    if a_south {
                        pairs.push((a.clone(), b.clone()));
                    } else {
                        pairs.push((b.clone(), a.clone()));
                    }
                }
                (Some(p), None) | (None, Some(p)) => bye = Some(p.clone()),
                (None, None) => {}
            }
        }
        Ok((pairs, bye))
    }

    /// The next Swiss round. The players (those of the list) ranked as the standings rank
    /// them; with an odd number, the bye goes to the lowest ranked who has had none (all
    /// have: the lowest). The others are paired score group by score group (a group: the
    /// same match points), highest first: the highest unpaired player meets the player of
    /// his group's lower half in the same place (1 v 1 + n/2, the Dutch way), else the
    /// next of the group, else of the groups below (he floats down); no two players meet
    /// twice. When a choice leaves the rest unpairable, the next is tried (a search,
    /// bounded: `SWISS_STEPS` steps). Sides: the player who was South fewer times is
    /// South; equal, the one who was North last; else the higher ranked.
    pub(crate) fn swiss(&self, standings: &[Standing]) -> Result<Pairs, String> {
        let (met, byes) = self.history();
        let mut ranked: Vec<&Standing> = standings
            .iter()
            .filter(|s| self.players.contains(&s.name))
            .collect();
        if ranked.len() < 2 {
            return Err("a round needs at least two players".to_owned());
        }
        let mut bye = None;
        if ranked.len() % 2 == 1 {
            let at = ranked
                .iter()
                .rposition(|s| !byes.contains(&s.name))
                .unwrap_or(ranked.len() - 1);
            bye = Some(ranked.remove(at).name.clone());
        }
        let mut steps = 0;
        let mut out = Vec::new();
        if !pair_swiss(&ranked, &met, &mut out, &mut steps) {
            return Err(if steps >= SWISS_STEPS {
                "no Swiss pairing was found in time: enter this round's pairings".to_owned()
            } else {
                "every Swiss pairing repeats a match: enter this round's pairings".to_owned()
            });
        }
        let pairs = out
            .into_iter()
            .map(|(a, b): (&Standing, &Standing)| {
                // `a` is the higher ranked.
                let a_south = match a.souths.cmp(&b.souths) {
                    std::cmp::Ordering::Less => true,
                    std::cmp::Ordering::Greater => false,
                    std::cmp::Ordering::Equal => match (a.last_south, b.last_south) {
                        (Some(true), Some(false)) => false,
                        (Some(false), Some(true)) => true,
                        (Some(sa), _) => !sa,
                        _ => true,
                    },
                };
                if a_south {
                    (a.name.clone(), b.name.clone())
                } else {
                    (b.name.clone(), a.name.clone())
                }
            })
            .collect();
        Ok((pairs, bye))
    }
}

/// Pairs `rest` (ranked) into `out`; `false` when it cannot be done without a repeat (or
/// the steps ran out).
fn pair_swiss<'a>(
    rest: &[&'a Standing],
    met: &BTreeSet<(String, String)>,
    out: &mut Vec<(&'a Standing, &'a Standing)>,
    steps: &mut u64,
) -> bool {
    let Some((first, others)) = rest.split_first() else {
        return true;
    };
    // The candidates in the order tried: the group's lower half from the same place, the
    // rest of the group, then the groups below.
    let group = others
        .iter()
        .take_while(|s| s.match_points == first.match_points)
        .count();
    // The group with `first` has `group + 1` players; its lower half starts at `half`
    // (counted with `first`), that is at `half - 1` among the others.
    let half = group.div_ceil(2);
    let order = (half.saturating_sub(1)..group)
        .chain((0..half.saturating_sub(1)).rev())
        .chain(group..others.len());
    for i in order {
        *steps += 1;
        if *steps >= SWISS_STEPS {
            return false;
        }
        let b = others[i];
        if met.contains(&(first.name.clone(), b.name.clone())) {
            continue;
        }
        let left: Vec<&Standing> = others
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .map(|(_, s)| *s)
            .collect();
        out.push((first, b));
        if pair_swiss(&left, met, out, steps) {
            return true;
        }
        out.pop();
    }
    false
}

/// A player's name: 1 to 100 characters, one line, not only spaces.
pub(crate) fn check_name(name: &str) -> Result<(), String> {
    if name.trim().is_empty() || name.chars().count() > 100 || name.chars().any(char::is_control) {
        return Err(format!(
            "`{name}`: a player's name is one line of 1 to 100 characters"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn players(n: usize) -> Vec<String> {
        (1..=n).map(|i| format!("P{i}")).collect()
    }

    fn with_round(
        e: &mut Event,
        pairing: Pairing,
        pairs: Vec<(String, String)>,
        bye: Option<String>,
    ) {
        let number = u32::try_from(e.rounds.len() + 1).unwrap();
        e.rounds.push(Round {
            number,
            pairing,
            bye,
            boards: pairs
                .into_iter()
                .map(|(south, north)| Board {
                    south,
                    north,
                    game: None,
                    best_of_three: false,
                    result: None,
                })
                .collect(),
        });
    }

    /// The circle method: every pair meets exactly once in n-1 rounds (n even) or n rounds
    /// (n odd, each player one bye), nobody twice a round, sides balanced within one.
    #[test]
    fn round_robin_meets_everyone_once() {
        for n in 2..=9 {
            let mut e = Event {
                players: players(n),
                rounds: Vec::new(),
            };
            let rounds = if n % 2 == 0 { n - 1 } else { n };
            let mut met = BTreeMap::new();
            let mut byes = BTreeMap::new();
            let mut souths: BTreeMap<String, i32> = BTreeMap::new();
            for _ in 0..rounds {
                let (pairs, bye) = e.round_robin().unwrap();
                assert_eq!(pairs.len(), n / 2);
                assert_eq!(bye.is_some(), n % 2 == 1);
                if let Some(b) = &bye {
                    *byes.entry(b.clone()).or_insert(0) += 1;
                }
                for (s, no) in &pairs {
                    let key = if s < no {
                        (s.clone(), no.clone())
                    } else {
                        (no.clone(), s.clone())
                    };
                    *met.entry(key).or_insert(0) += 1;
                    *souths.entry(s.clone()).or_default() += 1;
                    *souths.entry(no.clone()).or_default() -= 1;
                }
                with_round(&mut e, Pairing::RoundRobin, pairs, bye);
                e.check().unwrap();
            }
            assert_eq!(met.len(), n * (n - 1) / 2, "n = {n}");
            assert!(met.values().all(|&c| c == 1), "n = {n}: {met:?}");
            if n % 2 == 1 {
                assert_eq!(byes.len(), n);
                assert!(byes.values().all(|&c| c == 1));
            }
            // Sides: South as often as North, give or take one game.
            assert!(souths.values().all(|d| d.abs() <= 1), "n = {n}: {souths:?}");
        }
    }

    fn played(
        e: &Event,
        results: &BTreeMap<(usize, usize), &str>,
    ) -> impl Fn(usize, usize) -> Option<Played> {
        let map: BTreeMap<(usize, usize), Played> = results
            .iter()
            .map(|(&k, r)| {
                let (s, n) = result_points(r).unwrap();
                (
                    k,
                    Played {
                        south: s,
                        north: n,
                        over: true,
                    },
                )
            })
            .collect();
        let _ = e;
        move |r, b| map.get(&(r, b)).copied()
    }

    /// Swiss: score groups, no repeats, one bye each to the lowest without one.
    #[test]
    fn swiss_pairs_score_groups_without_repeats_and_byes_go_down() {
        for n in [4, 5, 7, 8] {
            let mut e = Event {
                players: players(n),
                rounds: Vec::new(),
            };
            let mut results = BTreeMap::new();
            let mut met = BTreeSet::new();
            let mut byes = Vec::new();
            let rounds = if n % 2 == 0 { n - 1 } else { n - 2 };
            for r in 0..rounds.min(4) {
                let f = played(&e, &results);
                let st = e.standings(&f);
                let (pairs, bye) = match e.swiss(&st) {
                    Ok(p) => p,
                    Err(m) => panic!("n = {n}, round {}: {m}", r + 1),
                };
                if let Some(b) = &bye {
                    // The lowest ranked without a bye.
                    let lowest = st.iter().rev().find(|s| !byes.contains(&s.name)).unwrap();
                    assert_eq!(b, &lowest.name);
                    byes.push(b.clone());
                }
                assert_eq!(bye.is_some(), n % 2 == 1);
                for (s, no) in &pairs {
                    assert!(met.insert((s.clone(), no.clone())), "{s} v {no} again");
                    met.insert((no.clone(), s.clone()));
                }
                if r == 0 {
                    // Everyone on 0: top half meets bottom half.
                    let half = n / 2;
                    for (i, (s, no)) in pairs.iter().enumerate() {
                        let mut two = [s.clone(), no.clone()];
                        two.sort_by_key(|p| p[1..].parse::<usize>().unwrap());
                        assert_eq!(two, [format!("P{}", i + 1), format!("P{}", i + 1 + half)]);
                    }
                }
                // South wins every board.
                for b in 0..pairs.len() {
                    results.insert((r, b), "1-0");
                }
                with_round(&mut e, Pairing::Swiss, pairs, bye);
                e.check().unwrap();
            }
            assert_eq!(byes.len(), if n % 2 == 1 { rounds.min(4) } else { 0 });
            let unique: BTreeSet<_> = byes.iter().collect();
            assert_eq!(unique.len(), byes.len(), "one bye each");
        }
        // Two rounds in: the winners meet the winners.
        let mut e = Event {
            players: players(8),
            rounds: Vec::new(),
        };
        let mut results = BTreeMap::new();
        for r in 0..2 {
            let st = e.standings(&played(&e, &results));
            let (pairs, bye) = e.swiss(&st).unwrap();
            if r == 1 {
                let st_mp: BTreeMap<&str, u32> = st
                    .iter()
                    .map(|s| (s.name.as_str(), s.match_points))
                    .collect();
                for (s, n) in &pairs {
                    assert_eq!(
                        st_mp[s.as_str()],
                        st_mp[n.as_str()],
                        "{s} v {n} in one group"
                    );
                }
            }
            for b in 0..pairs.len() {
                results.insert((r, b), "1-0");
            }
            with_round(&mut e, Pairing::Swiss, pairs, bye);
        }
    }

    /// Four players, nobody left to meet: the Swiss says so rather than repeat.
    #[test]
    fn swiss_refuses_to_repeat() {
        let mut e = Event {
            players: players(4),
            rounds: Vec::new(),
        };
        for _ in 0..3 {
            let (p, b) = e.round_robin().unwrap();
            with_round(&mut e, Pairing::RoundRobin, p, b);
        }
        let st = e.standings(&|_, _| None);
        assert!(e.swiss(&st).unwrap_err().contains("repeats"));
    }

    /// Standings: match points (a best-of-three won 2-1 is one match won), a bye, a
    /// corrected result standing over the games, Sonneborn-Berger then the direct
    /// encounter.
    #[test]
    fn standings_with_matches_byes_and_a_corrected_result() {
        let mut e = Event {
            players: vec!["Ali".into(), "Bakari".into(), "Chausiku".into()],
            rounds: Vec::new(),
        };
        let (p, b) = e.round_robin().unwrap();
        with_round(&mut e, Pairing::RoundRobin, p, b);
        let (p, b) = e.round_robin().unwrap();
        with_round(&mut e, Pairing::RoundRobin, p, b);
        let (p, b) = e.round_robin().unwrap();
        with_round(&mut e, Pairing::RoundRobin, p, b);
        // Every board: the board's South wins a best-of-three 2-1 (4 halves to 2).
        let south_wins = |_: usize, _: usize| {
            Some(Played {
                south: 4,
                north: 2,
                over: true,
            })
        };
        let st = e.standings(&south_wins);
        // Three players, each one bye (2) and one match as South (2): all on 4.
        assert!(
            st.iter()
                .all(|s| s.match_points == 4 && s.byes == 1 && s.played == 2),
            "{st:?}"
        );
        // A match still going on counts nothing.
        let going = |_: usize, _: usize| {
            Some(Played {
                south: 2,
                north: 0,
                over: false,
            })
        };
        assert!(e.standings(&going).iter().all(|s| s.match_points == 2));
        // Round 1's board corrected to a win for its North: he gains, South loses.
        let r1 = &e.rounds[0].boards[0];
        let (s1, n1) = (r1.south.clone(), r1.north.clone());
        e.rounds[0].boards[0].result = Some("0-1".into());
        let st = e.standings(&south_wins);
        let of = |n: &str| st.iter().find(|s| s.name == n).unwrap().clone();
        assert_eq!(of(&n1).match_points, 6);
        assert_eq!(of(&s1).match_points, 2);
        assert_eq!(st[0].name, n1);
        assert_eq!(st[2].name, s1);
        let o = e.rounds[0].boards[0].outcome(south_wins(0, 0)).unwrap();
        assert!(o.corrected && o.north_mp == 2);
        // A drawn match: 1 each.
        e.rounds[0].boards[0].result = Some("1/2-1/2".into());
        let st = e.standings(&south_wins);
        let of = |n: &str| st.iter().find(|s| s.name == n).unwrap().clone();
        assert_eq!((of(&n1).match_points, of(&s1).match_points), (5, 3));
    }

    /// Tied on match points and SB: the direct encounter, then game points, then (only
    /// then) the name.
    #[test]
    fn ties_are_broken_by_the_direct_encounter_then_game_points() {
        let mut e = Event {
            players: vec![
                "Zuri".into(),
                "Baraka".into(),
                "Chiku".into(),
                "Dalila".into(),
            ],
            rounds: Vec::new(),
        };
        // Round 1: Baraka beats Zuri 2-1 in games; Chiku beats Dalila. Round 2: Zuri beats
        // Baraka 2-0; Dalila beats Chiku.
        with_round(
            &mut e,
            Pairing::Entered,
            vec![
                ("Baraka".into(), "Zuri".into()),
                ("Chiku".into(), "Dalila".into()),
            ],
            None,
        );
        with_round(
            &mut e,
            Pairing::Entered,
            vec![
                ("Zuri".into(), "Baraka".into()),
                ("Dalila".into(), "Chiku".into()),
            ],
            None,
        );
        let f = |r: usize, b: usize| {
            Some(match (r, b) {
                (0, 0) => Played {
                    south: 4,
                    north: 2,
                    over: true,
                },
                (1, 0) => Played {
                    south: 4,
                    north: 0,
                    over: true,
                },
                _ => Played {
                    south: 2,
                    north: 0,
                    over: true,
                },
            })
        };
        let st = e.standings(&f);
        assert!(
            st.iter().all(|s| s.match_points == 2 && s.sb2 == 4),
            "{st:?}"
        );
        // All four tied on MP and SB; the direct encounter among the four: each 2. Game
        // points: Zuri 6 halves, Baraka 4, Chiku 2, Dalila 2 (then the name).
        let names: Vec<&str> = st.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["Zuri", "Baraka", "Chiku", "Dalila"]);
        // Zuri's win over Baraka corrected to a draw: now Baraka leads on match points.
        e.rounds[1].boards[0].result = Some("1/2-1/2".into());
        let st = e.standings(&f);
        assert_eq!(st[0].name, "Baraka", "{st:?}");
        assert_eq!(st[0].match_points, 3);
    }

    /// event.toml: written and read back the same; a file that does not hold together is
    /// refused with why.
    #[test]
    fn the_event_file_reads_back() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(Event::load(dir.path()).unwrap(), Event::default());
        let mut e = Event {
            players: players(5),
            rounds: Vec::new(),
        };
        let (p, b) = e.round_robin().unwrap();
        with_round(&mut e, Pairing::RoundRobin, p, b);
        e.rounds[0].boards[0].game = Some("2026-12-08-1".into());
        e.rounds[0].boards[1].result = Some("1/2-1/2".into());
        e.rounds[0].boards[1].best_of_three = true;
        e.save(dir.path()).unwrap();
        let text = std::fs::read_to_string(dir.path().join(FILE)).unwrap();
        assert!(
            text.contains("[[round]]") && text.contains("[[round.board]]"),
            "{text}"
        );
        assert_eq!(Event::load(dir.path()).unwrap(), e);
        std::fs::write(
            dir.path().join(FILE),
            text.replace("number = 1", "number = 2"),
        )
        .unwrap();
        assert!(Event::load(dir.path()).unwrap_err().contains("numbered"));
        std::fs::write(dir.path().join(FILE), "players = [").unwrap();
        assert!(Event::load(dir.path()).is_err());
    }
}
