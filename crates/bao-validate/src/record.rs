//! Record-level checks: the result and termination against the game's end, best-of-three
//! matches.

use std::collections::{BTreeMap, HashMap};

use bao_core::{EndReason, Side};
use bao_notation::{Game, GameResult, Record, Span};

use crate::codes::Code;
use crate::diagnostic::CheckDiagnostic;
use crate::moves::{outcome_words, result_of, GameCheck};

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
pub(crate) fn check_result(game: &Game, n: usize, c: &mut GameCheck) {
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
                    format!("the Result tag says {b}, the movetext ends with {a}"),
                )
                .primary(sa, "the movetext's result")
                .secondary(sb, "the Result tag")
                .help("The Result tag and the result at the end of the movetext must agree."),
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
        (Some(_), Some((_, sb))) => d.secondary(sb, "the Result tag"),
        _ => d,
    };
    match (&outcome, recorded) {
        (Some(o), Some((r, span))) if r != GameResult::Unknown => {
            let expected = result_of(Some(o)).unwrap_or(GameResult::Unknown);
            if r != expected {
                c.diagnostics.push(secondary(
                    CheckDiagnostic::new(
                        Code::ResultMismatch,
                        n,
                        format!(
                            "the record says {r}, but the game ended {expected} ({})",
                            outcome_words(o)
                        ),
                    )
                    .primary(span, format!("should be {expected}"))
                    .help(format!(
                        "The result must be the game's end: {}. Write {expected}.",
                        outcome_words(o)
                    )),
                ));
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
                        format!("the record ends with {r}, but the game goes on"),
                    )
                    .primary(span, "the game has not ended here")
                    .help(
                        "A game ends only by an empty front row or no legal move (E1, E2). If a player \
                         resigned or lost on time, say so with a Termination tag such as \
                         [Termination \"resignation\"]; otherwise the record is missing moves.",
                    ),
                ));
            }
        }
        _ => {}
    }
    if let Some((t, span)) = termination {
        let problem = match (rule_termination(&t), &outcome) {
            (Some(_), None) => Some("the game has not ended by the rules".to_owned()),
            (Some(Some(reason)), Some(o)) if reason != o.reason => Some(format!(
                "the game ended otherwise ({}; reason {})",
                outcome_words(o),
                o.reason.name()
            )),
            (None, Some(o)) if outside_termination(&t) => Some(format!(
                "the game ended by the rules ({})",
                outcome_words(o)
            )),
            _ => None,
        };
        if let Some(p) = problem {
            c.diagnostics.push(
                CheckDiagnostic::new(
                    Code::TerminationMismatch,
                    n,
                    format!("Termination says `{t}`, but {p}"),
                )
                .primary(span, "does not match the game's end")
                .help(
                    "Termination is `normal`, `bao_hamna`, `no_legal_move`, `own_front_row_empty` or \
                     `never_ending` for a game the rules ended, and `resignation`, `time_forfeit`, \
                     `agreement`, `abandoned` or `adjudication` for one they did not.",
                ),
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
    /// The `Match` tag's value, trimmed.
    pub(crate) name: String,
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
        let m = game.tag("Match")?;
        let tag = |name: &str| game.tag(name).map(|t| t.value.clone()).unwrap_or_default();
        Some(Self {
            n,
            name: m.value.trim().to_owned(),
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

/// A player's name, as a number given by [`MatchTracker::names`].
type Player = u32;

/// The state of one match while its games are read in file order: small, since a streamed
/// check keeps one per match of the file to its end (the players are numbers, their names
/// kept once for every match).
#[derive(Debug, Default, Clone)]
struct MatchState {
    seen: usize,
    /// Games won per player (two entries, or a few when the players change): a list, not a
    /// map.
    wins: Vec<(Player, u32)>,
    players: Option<[Player; 2]>,
    decided: Option<Player>,
}

/// Best-of-three matches, game by game in file order: each game's problems are known once
/// it and the games before it are read.
#[derive(Debug, Default, Clone)]
pub(crate) struct MatchTracker {
    matches: HashMap<Box<str>, MatchState>,
    /// Every player's name once, and its number.
    names: Vec<Box<str>>,
    numbers: HashMap<Box<str>, Player>,
}

impl MatchTracker {
    /// The number of a player's name.
    fn player(&mut self, name: &str) -> Player {
        if let Some(&p) = self.numbers.get(name) {
            return p;
        }
        let p = Player::try_from(self.names.len()).unwrap_or(Player::MAX);
        self.names.push(name.into());
        self.numbers.insert(name.into(), p);
        p
    }

    /// The problems of the next game of its match.
    pub(crate) fn game(&mut self, entry: &MatchEntry) -> Vec<CheckDiagnostic> {
        let mut out = Vec::new();
        let name = &entry.name;
        let pair = &entry.pair;
        let ids = [self.player(&pair[0]), self.player(&pair[1])];
        let names = &self.names;
        let state = match self.matches.get_mut(name.as_str()) {
            Some(s) => s,
            None => self.matches.entry(name.as_str().into()).or_default(),
        };
        let n = entry.n;
        let mut fail = |why: String, help: &str| {
            out.push(
                CheckDiagnostic::new(
                    Code::MatchInconsistent,
                    n,
                    format!("match `{name}`: {why}"),
                )
                .primary(entry.span, "here")
                .help(format!(
                    "A match is best of three (E3): games 1, 2 and 3 in order, between the same two players, ending when one has won two. {help}"
                )),
            );
        };
        state.seen += 1;
        let expected = state.seen;
        match entry.number.as_ref().map(|t| t.trim().parse::<usize>()) {
            Some(Ok(g)) if g == expected && g <= 3 => {}
            Some(Ok(g)) if g > 3 || expected > 3 => fail(
                format!("game {g} is more than a best-of-three match has"),
                "",
            ),
            Some(Ok(g)) => fail(
                format!(
                    "this is game {expected} of the match in the file, but its Game tag says {g}"
                ),
                "Number the games 1, 2, 3 in the order they were played.",
            ),
            Some(Err(_)) => fail("the Game tag is not a number".to_owned(), ""),
            None => fail(format!("game {expected} of the match has no Game tag"), ""),
        }
        let name_of = |p: Player| names.get(p as usize).map_or("", |n| &**n);
        // The pair sorted by name, as the match's players are compared.
        let mut sorted = ids;
        if name_of(sorted[1]) < name_of(sorted[0]) {
            sorted.swap(0, 1);
        }
        match &state.players {
            None => state.players = Some(sorted),
            Some(p) if *p != sorted => fail(
                format!(
                    "the players are {} and {}, not {} and {}",
                    pair[0],
                    pair[1],
                    name_of(p[0]),
                    name_of(p[1])
                ),
                "",
            ),
            Some(_) => {}
        }
        if let Some(w) = state.decided {
            fail(format!("{} had already won two games", name_of(w)), "");
        }
        if let Some(side) = entry.result.and_then(GameResult::winner) {
            let who = match side {
                Side::South => ids[0],
                Side::North => ids[1],
            };
            let i = match state.wins.iter().position(|(p, _)| *p == who) {
                Some(i) => i,
                None => {
                    state.wins.push((who, 0));
                    state.wins.len() - 1
                }
            };
            state.wins[i].1 += 1;
            if state.wins[i].1 == 2 && state.decided.is_none() {
                state.decided = Some(who);
            }
        }
        out
    }
}

/// Best-of-three matches: games sharing a `Match` tag, numbered by `Game` tags 1, 2, 3 in
/// file order, between the same two players, and no game after one player has won two.
/// The problems come match by match (in the order of their names), each in file order.
pub(crate) fn check_matches(record: &Record) -> Vec<CheckDiagnostic> {
    let mut by_name: BTreeMap<String, Vec<MatchEntry>> = BTreeMap::new();
    for (i, g) in record.games.iter().enumerate() {
        if let Some(e) = MatchEntry::of(&g.value, i + 1) {
            by_name.entry(e.name.clone()).or_default().push(e);
        }
    }
    let mut tracker = MatchTracker::default();
    by_name
        .values()
        .flatten()
        .flat_map(|e| tracker.game(e))
        .collect()
}
