//! Record-level checks: the result and termination against the game's end, best-of-three
//! matches.

use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasher, RandomState};
use std::num::NonZeroU32;

use hashbrown::HashTable;

use bao_core::{EndReason, Side};
use bao_notation::meaning::MatchKey;
use bao_notation::{Game, GameResult, Record, Span};

use crate::codes::Code;
use crate::diagnostic::{CheckDiagnostic, Rewrite};
use crate::game_check::GameCheck;
use crate::words::{outcome_words, result_of, Lang};
use bao_i18n::t;

/// `Termination` values that say the game ended by the rules, and how.
fn rule_termination(t: &str) -> Option<Option<EndReason>> {
    Some(match t {
        "normal" | "rules" => None,
        "bao_hamna" => Some(EndReason::BaoHamna),
        "no_legal_move" => Some(EndReason::NoLegalMove),
        "own_front_row_empty" => Some(EndReason::OwnFrontRowEmpty),
        "never_ending" => Some(EndReason::NeverEnding),
        _ => return None,
    })
}

/// `Termination` values that end a game the rules had not ended.
fn outside_termination(t: &str) -> bool {
    matches!(
        t,
        "resignation"
            | "resigned"
            | "time"
            | "time_forfeit"
            | "agreement"
            | "abandoned"
            | "adjudication"
            | "forfeit"
            | "unterminated"
    )
}

fn normalise(t: &str) -> String {
    t.trim().to_ascii_lowercase().replace([' ', '-'], "_")
}

/// Checks the `Result` tag, the movetext result and `Termination` against the end reached
/// (nothing for a game left undecided under a lap budget: its end is not known).
pub(crate) fn check_result(lang: Lang, game: &Game, n: usize, c: &mut GameCheck) {
    if c.undecided.is_some() {
        return;
    }
    let token = game.result.as_ref().map(|r| (r.value, r.span));
    let tag = game
        .tag("Result")
        .and_then(|t| GameResult::from_token(t.value.trim()).map(|r| (r, t.span)));
    if let (Some((a, sa)), Some((b, sb))) = (token, tag) {
        if a != b {
            c.diagnostics.push(
                CheckDiagnostic::new(
                    Code::ResultMismatch,
                    n,
                    t!(
                        lang,
                        "result-tags-disagree",
                        tag = b.to_string(),
                        token = a.to_string()
                    ),
                )
                .primary(sa, t!(lang, "label-movetext-result"))
                .secondary(sb, t!(lang, "label-result-tag"))
                .help(t!(lang, "result-tags-help")),
            );
            return;
        }
    }
    let Some(outcome) = c.final_outcome() else {
        return;
    };
    let recorded = token.or(tag);
    let termination = game
        .tag("Termination")
        .map(|t| (normalise(&t.value), t.span));
    let secondary = |d: CheckDiagnostic| match (token, tag) {
        (Some(_), Some((_, sb))) => d.secondary(sb, t!(lang, "label-result-tag")),
        _ => d,
    };
    match (&outcome, recorded) {
        (Some(o), Some((r, span))) if r != GameResult::Unknown => {
            let expected = result_of(Some(o)).unwrap_or(GameResult::Unknown);
            if r != expected {
                let mut d = secondary(
                    CheckDiagnostic::new(
                        Code::ResultMismatch,
                        n,
                        t!(
                            lang,
                            "result-mismatch",
                            written = r.to_string(),
                            expected = expected.to_string(),
                            outcome = outcome_words(lang, o)
                        ),
                    )
                    .primary(
                        span,
                        t!(
                            lang,
                            "result-mismatch-label",
                            expected = expected.to_string()
                        ),
                    )
                    .help(t!(
                        lang,
                        "result-mismatch-help",
                        outcome = outcome_words(lang, o),
                        expected = expected.to_string()
                    )),
                );
                if expected != GameResult::Unknown {
                    d.rewrite = Some(Rewrite::Result { result: expected });
                }
                c.diagnostics.push(d);
            }
        }
        (None, Some((r, span))) if r != GameResult::Unknown => {
            let explained = termination
                .as_ref()
                .is_some_and(|(t, _)| outside_termination(t));
            if !explained {
                c.diagnostics.push(secondary(
                    CheckDiagnostic::new(
                        Code::GameEndsEarly,
                        n,
                        t!(lang, "ends-early", written = r.to_string()),
                    )
                    .primary(span, t!(lang, "ends-early-label"))
                    .help(t!(lang, "ends-early-help")),
                ));
            }
        }
        _ => {}
    }
    if let Some((t, span)) = termination {
        let problem = match (rule_termination(&t), &outcome) {
            (Some(_), None) => Some(t!(lang, "termination-not-ended")),
            (Some(Some(reason)), Some(o)) if reason != o.reason => Some(t!(
                lang,
                "termination-otherwise",
                outcome = outcome_words(lang, o),
                reason = o.reason.name()
            )),
            (None, Some(o)) if outside_termination(&t) => Some(t!(
                lang,
                "termination-by-rules",
                outcome = outcome_words(lang, o)
            )),
            _ => None,
        };
        if let Some(p) = problem {
            c.diagnostics.push(
                CheckDiagnostic::new(
                    Code::TerminationMismatch,
                    n,
                    t!(
                        lang,
                        "termination-mismatch",
                        termination = t.as_str(),
                        problem = p
                    ),
                )
                .primary(span, t!(lang, "termination-mismatch-label"))
                .help(t!(lang, "termination-mismatch-help")),
            );
        }
    }
}

/// What the best-of-three check needs of one game that has a `Match` tag: a small summary,
/// so that a streamed check keeps these instead of the games.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct MatchEntry {
    /// The game, counted from 1 in file order.
    pub(crate) n: usize,
    /// The match: its `Event`, `Site` and `Match` values.
    pub(crate) key: MatchKey,
    /// The `Game` tag's value, if any.
    pub(crate) number: Option<String>,
    /// The `South` and `North` tags' values (empty when missing).
    pub(crate) pair: [String; 2],
    /// The movetext's result, else the `Result` tag's.
    pub(crate) result: Option<GameResult>,
    /// Where a problem is shown: the `Game` tag, else the `Match` tag.
    pub(crate) span: Span,
}

impl MatchEntry {
    /// The summary of game `n`, or `None` when it has no `Match` tag.
    pub(crate) fn of(game: &Game, n: usize) -> Option<Self> {
        let key = MatchKey::of(game)?;
        let tag = |name: &str| game.tag(name).map(|t| t.value.clone()).unwrap_or_default();
        Some(Self {
            n,
            key,
            number: game.tag("Game").map(|t| t.value.clone()),
            pair: [tag("South"), tag("North")],
            result: game.result.as_ref().map(|r| r.value).or_else(|| {
                game.tag("Result")
                    .and_then(|t| GameResult::from_token(&t.value))
            }),
            span: game
                .tag("Game")
                .or_else(|| game.tag("Match"))
                .map(|t| t.span)
                .unwrap_or_default(),
        })
    }

    /// The summary with its span moved `by` bytes to the right.
    pub(crate) fn shifted(mut self, by: usize) -> Self {
        self.span = self.span.shifted(by);
        self
    }
}

/// Names kept once each, in one text, numbered from 1 in the order they are first seen: a
/// name costs its bytes and a dozen more, where a `String` key costs its own allocation and a
/// map entry.
#[derive(Debug, Default, Clone)]
struct Names {
    /// Every name, one after the other.
    text: String,
    /// Where each name ends in `text` (it begins where the one before it ends).
    ends: Vec<usize>,
    /// The numbers of the names, found by the names' hashes.
    table: HashTable<Number>,
    hasher: RandomState,
}

/// A name's number in its [`Names`], from 1 (so that an `Option` of one takes no more room).
type Number = NonZeroU32;

impl Names {
    /// The name numbered `n`.
    fn get(&self, n: Number) -> &str {
        name_at(&self.text, &self.ends, n)
    }

    /// The number of `name`, given it if it is new; `None` when every number is taken (more
    /// than four thousand million names).
    fn number(&mut self, name: &str) -> Option<Number> {
        let hash = self.hasher.hash_one(name);
        let Self {
            text,
            ends,
            table,
            hasher,
        } = self;
        if let Some(n) = table.find(hash, |n| name_at(text, ends, *n) == name) {
            return Some(*n);
        }
        let n = u32::try_from(ends.len() + 1).ok().and_then(Number::new)?;
        text.push_str(name);
        ends.push(text.len());
        let (text, ends) = (&*text, &*ends);
        table.insert_unique(hash, n, |m| hasher.hash_one(name_at(text, ends, *m)));
        Some(n)
    }
}

/// The name numbered `n` in a [`Names`]' `text` and `ends`.
fn name_at<'a>(text: &'a str, ends: &[usize], n: Number) -> &'a str {
    let i = n.get() as usize - 1;
    let start = if i == 0 { 0 } else { ends[i - 1] };
    &text[start..ends[i]]
}

/// A player, as the number of their name.
type Player = Number;

/// The state of one match while its games are read in file order: 24 bytes, since a
/// streamed check keeps one per match of the file to its end.
#[derive(Debug, Default, Clone, Copy)]
struct MatchState {
    /// The games of the match read so far.
    seen: u32,
    /// The first game's players, sorted by name.
    players: Option<[Player; 2]>,
    /// The player who won two games first.
    decided: Option<Player>,
    /// Until one is decided, the players who have won one game (a player who wins a second
    /// decides the match, and then the wins no longer matter): the first two here, any more
    /// in [`MatchTracker::more_winners`].
    won_one: [Option<Player>; 2],
}

/// Best-of-three matches, game by game in file order: each game's problems are known once
/// it and the games before it are read.
#[derive(Debug, Default, Clone)]
pub(crate) struct MatchTracker {
    /// The matches' names; a match's state is `states[number - 1]`.
    names: Names,
    states: Vec<MatchState>,
    /// Every player's name once.
    players: Names,
    /// The players beyond two who have won one game of an undecided match (a match whose
    /// players changed from game to game), by the match's number.
    more_winners: HashMap<Number, Vec<Player>>,
    /// The language of the diagnostics.
    pub(crate) lang: Lang,
}

impl MatchTracker {
    /// A tracker whose diagnostics are worded in `lang`.
    pub(crate) fn new(lang: Lang) -> Self {
        Self {
            lang,
            ..Self::default()
        }
    }

    /// The problems of the next game of its match.
    pub(crate) fn game(&mut self, entry: &MatchEntry) -> Vec<CheckDiagnostic> {
        let mut out = Vec::new();
        let name = &entry.key.name;
        let pair = &entry.pair;
        let (Some(number), Some(south), Some(north)) = (
            self.names.number(&interned(&entry.key)),
            self.players.number(&pair[0]),
            self.players.number(&pair[1]),
        ) else {
            // Beyond four thousand million names: nothing more is told of matches.
            return out;
        };
        let ids = [south, north];
        let i = number.get() as usize - 1;
        if i == self.states.len() {
            self.states.push(MatchState::default());
        }
        let players = &self.players;
        let Some(state) = self.states.get_mut(i) else {
            return out;
        };
        let n = entry.n;
        let lang = self.lang;
        // `numbering`: the help says how to number the games.
        let mut fail = |why: String, numbering: bool| {
            let help = if numbering {
                t!(lang, "match-help-number")
            } else {
                // The help as it always read, with the space of an empty second sentence.
                format!("{} ", t!(lang, "match-help"))
            };
            out.push(
                CheckDiagnostic::new(
                    Code::MatchInconsistent,
                    n,
                    t!(lang, "match-problem", name = name.as_str(), why = why),
                )
                .in_lang(lang)
                .primary(entry.span, t!(lang, "match-label"))
                .help(help),
            );
        };
        state.seen = state.seen.saturating_add(1);
        let expected = state.seen as usize;
        match entry.number.as_ref().map(|t| t.trim().parse::<usize>()) {
            Some(Ok(g)) if g == expected && g <= 3 => {}
            Some(Ok(g)) if g > 3 || expected > 3 => {
                fail(t!(lang, "match-too-many", game = g), false);
            }
            Some(Ok(g)) => fail(
                t!(lang, "match-wrong-number", expected = expected, game = g),
                true,
            ),
            Some(Err(_)) => fail(t!(lang, "match-number-not-a-number"), false),
            None => fail(t!(lang, "match-no-number", expected = expected), false),
        }
        // The pair sorted by name, as the match's players are compared.
        let mut sorted = ids;
        if players.get(sorted[1]) < players.get(sorted[0]) {
            sorted.swap(0, 1);
        }
        match &state.players {
            None => state.players = Some(sorted),
            Some(p) if *p != sorted => fail(
                t!(
                    lang,
                    "match-other-players",
                    a = pair[0].as_str(),
                    b = pair[1].as_str(),
                    c = players.get(p[0]),
                    d = players.get(p[1])
                ),
                false,
            ),
            Some(_) => {}
        }
        if let Some(w) = state.decided {
            fail(
                t!(lang, "match-already-won", player = players.get(w)),
                false,
            );
        }
        if let (Some(side), None) = (entry.result.and_then(GameResult::winner), state.decided) {
            let who = match side {
                Side::South => south,
                Side::North => north,
            };
            let more = self.more_winners.get(&number);
            let won_before =
                state.won_one.contains(&Some(who)) || more.is_some_and(|m| m.contains(&who));
            if won_before {
                state.decided = Some(who);
                state.won_one = [None; 2];
                self.more_winners.remove(&number);
            } else if let Some(free) = state.won_one.iter_mut().find(|p| p.is_none()) {
                *free = Some(who);
            } else {
                self.more_winners.entry(number).or_default().push(who);
            }
        }
        out
    }
}

/// One text for a match's key, for [`Names`]: its three values, each but the last preceded
/// by its length (so that no two keys give one text).
fn interned(key: &MatchKey) -> String {
    format!(
        "{}:{}{}:{}{}",
        key.event.len(),
        key.event,
        key.site.len(),
        key.site,
        key.name
    )
}

/// Best-of-three matches: games sharing a `Match` tag (in one `Event` at one `Site`: their
/// [`MatchKey`]), numbered by `Game` tags 1, 2, 3 in
/// file order, between the same two players, and no game after one player has won two.
/// The problems come match by match (in the order of their keys), each in file order.
pub(crate) fn check_matches(lang: Lang, record: &Record) -> Vec<CheckDiagnostic> {
    let mut by_name: BTreeMap<MatchKey, Vec<MatchEntry>> = BTreeMap::new();
    for (i, g) in record.games.iter().enumerate() {
        if let Some(e) = MatchEntry::of(&g.value, i + 1) {
            by_name.entry(e.key.clone()).or_default().push(e);
        }
    }
    let mut tracker = MatchTracker::new(lang);
    by_name
        .values()
        .flatten()
        .flat_map(|e| tracker.game(e))
        .collect()
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use bao_notation::meaning::MatchKey;
    use bao_notation::{GameResult, Span};
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    use super::{MatchEntry, MatchTracker};

    /// The best-of-three rules stated plainly, with a count of wins per player and names as
    /// strings: what [`MatchTracker`] must say, message for message.
    #[derive(Default)]
    struct Plain {
        seen: HashMap<MatchKey, usize>,
        players: HashMap<MatchKey, [String; 2]>,
        wins: HashMap<(MatchKey, String), u32>,
        decided: HashMap<MatchKey, String>,
    }

    impl Plain {
        fn game(&mut self, e: &MatchEntry) -> Vec<String> {
            let mut out = Vec::new();
            let seen = self.seen.entry(e.key.clone()).or_default();
            *seen += 1;
            let expected = *seen;
            match e.number.as_ref().map(|t| t.trim().parse::<usize>()) {
                Some(Ok(g)) if g == expected && g <= 3 => {}
                Some(Ok(g)) if g > 3 || expected > 3 => {
                    out.push(format!("game {g} is more than a best-of-three match has"));
                }
                Some(Ok(g)) => out.push(format!(
                    "this is game {expected} of the match in the file, but its Game tag says {g}"
                )),
                Some(Err(_)) => out.push("the Game tag is not a number".to_owned()),
                None => out.push(format!("game {expected} of the match has no Game tag")),
            }
            let mut sorted = e.pair.clone();
            sorted.sort();
            match self.players.get(&e.key) {
                None => {
                    self.players.insert(e.key.clone(), sorted);
                }
                Some(p) if *p != sorted => out.push(format!(
                    "the players are {} and {}, not {} and {}",
                    e.pair[0], e.pair[1], p[0], p[1]
                )),
                Some(_) => {}
            }
            if let Some(w) = self.decided.get(&e.key) {
                out.push(format!("{w} had already won two games"));
            }
            if let Some(side) = e.result.and_then(GameResult::winner) {
                let who = e.pair[usize::from(side != bao_core::Side::South)].clone();
                let wins = self.wins.entry((e.key.clone(), who.clone())).or_default();
                *wins += 1;
                if *wins == 2 && !self.decided.contains_key(&e.key) {
                    self.decided.insert(e.key.clone(), who);
                }
            }
            out.into_iter()
                .map(|why| format!("match `{}`: {why}", e.key.name))
                .collect()
        }
    }

    /// Random games of a few matches between a few players, some numbered wrongly, some
    /// after the match was won, some between other players (a third and fourth winner of
    /// one match included): the tracker says what the plain statement says.
    #[test]
    fn the_tracker_says_what_the_plain_rules_say() {
        let mut rng = SmallRng::seed_from_u64(15);
        let results = [
            Some(GameResult::SouthWins),
            Some(GameResult::NorthWins),
            Some(GameResult::Draw),
            Some(GameResult::Unknown),
            None,
        ];
        let mut said = 0;
        for round in 0..200 {
            let mut tracker = MatchTracker::default();
            let mut plain = Plain::default();
            let matches = 1 + round % 6;
            let players = 2 + round % 5;
            for n in 1..=60 {
                // Two events that may share a match name: two matches.
                let key = MatchKey {
                    event: format!("event {}", rng.gen_range(0..2)),
                    site: String::new(),
                    name: format!("match {}", rng.gen_range(0..matches)),
                };
                let south = format!("player {}", rng.gen_range(0..players));
                let north = format!("player {}", rng.gen_range(0..players));
                let number = match rng.gen_range(0..10) {
                    0 => None,
                    1 => Some("x".to_owned()),
                    k => Some(((k - 2) % 5).to_string()),
                };
                let entry = MatchEntry {
                    n,
                    key,
                    number,
                    pair: [south, north],
                    result: results[rng.gen_range(0..results.len())],
                    span: Span::default(),
                };
                let got: Vec<String> = tracker
                    .game(&entry)
                    .into_iter()
                    .map(|d| d.message)
                    .collect();
                let want = plain.game(&entry);
                assert_eq!(got, want, "round {round}, game {n}: {entry:?}");
                said += got.len();
            }
        }
        assert!(said > 1000, "the random games said too little: {said}");
    }
}
