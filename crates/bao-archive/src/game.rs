//! One game of an archive as the archive commands see it: read from a stream's chunk,
//! replayed once (by `bao-replay`, or by `bao-validate`'s check when its diagnostics are
//! needed), with the facts the filters and statistics ask about.

use bao_core::{Move, Position, Side};
use bao_notation::meaning::is_game;
use bao_notation::{Game, GameResult, Place, Spanned, SyntaxError};
use bao_replay::{replay_game, ReplayedGame};
use bao_validate::{check_one_game, CheckOptions, Code, GameChecked};

/// How much of a game to work out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Depth {
    /// The tags and the written moves only.
    #[default]
    Tags,
    /// The game replayed.
    Replay,
    /// The game checked: replayed, with its diagnostics' codes.
    Check,
}

/// A game read from an archive, with as much worked out as asked.
#[derive(Debug)]
pub struct ArchiveGame<'a> {
    /// The game.
    pub game: &'a Game,
    /// Its text as written: from the comments before its first tag to its result token
    /// (decoded: a Latin-1 input's text as the UTF-8 it reads as; line ends as written).
    pub source: &'a str,
    /// Where [`ArchiveGame::source`] starts in the text the game's spans point into (the
    /// span of a part of the game, less this, is its place in `source`).
    pub offset: usize,
    /// Its syntax diagnostics.
    pub syntax: &'a [SyntaxError],
    /// Its replay ([`Depth::Replay`] and up).
    pub replayed: Option<ReplayedGame>,
    /// The codes of its diagnostics, syntax ones included ([`Depth::Check`]).
    pub codes: Option<Vec<&'static str>>,
    /// Whether it cannot be trusted: an error, or tags its board contradicts
    /// ([`Depth::Check`]; [`ArchiveGame::problem`] says why).
    pub invalid: Option<bool>,
    /// Why it cannot be trusted, when it cannot ([`Depth::Check`]).
    pub problem: Option<Problem>,
}

/// Why a game of an archive cannot be trusted (spec/archive.md, "Board over tags").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Trouble {
    /// It has an error (as `bao check` finds it): a move, a tag or the text.
    Invalid,
    /// Its result or termination contradicts its board (`result_mismatch`,
    /// `termination_mismatch`, or a result claimed while the game goes on:
    /// `game_ends_early`).
    Contradicts,
}

impl Trouble {
    /// How a summary line names it (plural).
    #[must_use]
    pub const fn words(self) -> &'static str {
        match self {
            Self::Invalid => "invalid",
            Self::Contradicts => "with tags their board contradicts",
        }
    }
}

/// The first diagnostic that makes a game untrustworthy, placed in its stream's chunk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Why.
    pub trouble: Trouble,
    /// The diagnostic's code (`bao::record::result_mismatch`).
    pub code: &'static str,
    /// Its message.
    pub message: String,
    /// Line breaks in the chunk's text before it.
    pub breaks: usize,
    /// Its column (0-based, in characters): from the start of its line, or, with no break
    /// before it in the chunk, from the chunk's start.
    pub column: usize,
}

impl Problem {
    /// Its 1-based line and column in the input, given where its chunk starts
    /// ([`crate::for_each_game_placed`]).
    #[must_use]
    pub fn line_col(&self, chunk: Place) -> (usize, usize) {
        if self.breaks == 0 {
            (chunk.line + 1, chunk.column + self.column + 1)
        } else {
            (chunk.line + self.breaks + 1, self.column + 1)
        }
    }
}

/// The codes by which a game's board contradicts its tags.
const CONTRADICTIONS: [Code; 3] = [
    Code::ResultMismatch,
    Code::TerminationMismatch,
    Code::GameEndsEarly,
];

/// Line breaks (`\n`, `\r\n`, a lone `\r`, as `bao check` counts lines) in `text`, and the
/// characters after the last one (or in all of `text` without one).
pub(crate) fn breaks_and_column(text: &str) -> (usize, usize) {
    let b = text.as_bytes();
    if !b.contains(&b'\r') {
        // `\n` alone (the usual case): a count the compiler vectorises, and the last one.
        let n = b.iter().filter(|&&c| c == b'\n').count();
        let last = b.iter().rposition(|&c| c == b'\n').map_or(0, |i| i + 1);
        return (n, text[last..].chars().count());
    }
    let mut n = 0;
    let mut last = 0;
    for (i, &c) in b.iter().enumerate() {
        if c == b'\n' || (c == b'\r' && b.get(i + 1) != Some(&b'\n')) {
            n += 1;
            last = i + 1;
        }
    }
    (n, text[last..].chars().count())
}

impl<'a> ArchiveGame<'a> {
    /// Works out `depth` for `game` (number `n` in its file, for diagnostics), read from
    /// `text` (the text its span and the spans of its parts point into: a stream's chunk; a
    /// span that is no stretch of it gives an empty source).
    #[must_use]
    pub fn new(
        game: &'a Spanned<Game>,
        text: &'a str,
        syntax: &'a [SyntaxError],
        n: usize,
        depth: Depth,
    ) -> Self {
        let mut out = Self {
            game: &game.value,
            source: text.get(game.span.range()).unwrap_or_default(),
            offset: game.span.start,
            syntax,
            replayed: None,
            codes: None,
            invalid: None,
            problem: None,
        };
        match depth {
            Depth::Tags => {}
            Depth::Replay => out.replayed = Some(replay_game(out.game, None)),
            Depth::Check => {
                let checked = check_one_game(out.game, n, &CheckOptions::default());
                let mut codes: Vec<&'static str> = syntax.iter().map(|e| e.code.code()).collect();
                codes.extend(checked.diagnostics.iter().map(|d| d.code.code()));
                out.problem = problem(text, syntax, &checked);
                out.invalid = Some(out.problem.is_some());
                out.codes = Some(codes);
                out.replayed = Some(checked.replayed);
            }
        }
        out
    }

    /// Whether it is to be left out of statistics: [`ArchiveGame::problem`] has a problem
    /// (`false` below [`Depth::Check`]).
    #[must_use]
    pub fn trouble(&self) -> Option<Trouble> {
        self.problem.as_ref().map(|p| p.trouble)
    }

    /// Whether the parsed game holds anything (an empty stretch of text is no game).
    #[must_use]
    pub fn is_game(&self) -> bool {
        is_game(self.game)
    }

    /// The value of a tag.
    #[must_use]
    pub fn tag(&self, name: &str) -> Option<&'a str> {
        self.game.tag(name).map(|t| t.value.as_str())
    }

    /// The result: the board's, when the game replayed to an end of the rules (whatever
    /// the tags say: a contradiction is [`Trouble::Contradicts`]); else the `Result` tag,
    /// else the movetext's result token.
    #[must_use]
    pub fn result(&self) -> GameResult {
        if let Some(Some(o)) = self.replayed.as_ref().and_then(ReplayedGame::final_outcome) {
            return match o.winner {
                Some(Side::South) => GameResult::SouthWins,
                Some(Side::North) => GameResult::NorthWins,
                None => GameResult::Draw,
            };
        }
        self.written_result()
    }

    /// The result as written: the `Result` tag, else the movetext's result token.
    #[must_use]
    pub fn written_result(&self) -> GameResult {
        self.tag("Result")
            .and_then(|r| GameResult::from_token(r.trim()))
            .or_else(|| self.game.result.as_ref().map(|r| r.value))
            .unwrap_or(GameResult::Unknown)
    }

    /// The moves written in the main line.
    #[must_use]
    pub fn written_plies(&self) -> usize {
        self.game.main_line().count()
    }

    /// The moves played in the main line, in order, as far as it replayed (empty before a
    /// replay).
    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.replayed
            .iter()
            .flat_map(|r| r.main.plies.iter())
            .map_while(|p| p.played().map(|pl| pl.mv))
    }

    /// Every position of the main line as far as it replayed, from the start: the start,
    /// then the position after each move played.
    pub fn positions(&self) -> impl Iterator<Item = &Position> + '_ {
        let start = self
            .replayed
            .as_ref()
            .and_then(|r| r.opening())
            .map(|o| &o.start);
        let after = self
            .replayed
            .iter()
            .flat_map(|r| r.main.plies.iter())
            .map_while(|p| p.played().map(|pl| &pl.after));
        start.into_iter().chain(after)
    }

    /// The last position the main line reached (`None` before a replay, or when the game's
    /// rules or start are not valid).
    #[must_use]
    pub fn final_position(&self) -> Option<&Position> {
        self.positions().last()
    }
}

/// The first problem of a checked game: its first syntax error, else its first error of a
/// move or tag, else the first contradiction between its board and its tags (the warning
/// `game_ends_early` included: a result claimed while the board goes on).
fn problem(text: &str, syntax: &[SyntaxError], checked: &GameChecked) -> Option<Problem> {
    let place = |at: usize| breaks_and_column(text.get(..at).unwrap_or(text));
    if let Some(e) = syntax.iter().find(|e| e.is_error()) {
        let (breaks, column) = place(e.span.start);
        return Some(Problem {
            trouble: Trouble::Invalid,
            code: e.code.code(),
            message: e.message.clone(),
            breaks,
            column,
        });
    }
    let contradicts = |d: &&bao_validate::CheckDiagnostic| CONTRADICTIONS.contains(&d.code);
    let first = checked
        .diagnostics
        .iter()
        .find(|d| d.is_error() && !contradicts(d))
        .map(|d| (d, Trouble::Invalid))
        .or_else(|| {
            checked
                .diagnostics
                .iter()
                .find(contradicts)
                .map(|d| (d, Trouble::Contradicts))
        });
    let Some((d, trouble)) = first else {
        return checked.replayed.is_panicked().then(|| Problem {
            trouble: Trouble::Invalid,
            code: "bao::internal::panic",
            message: "the engine failed on this game".to_owned(),
            breaks: 0,
            column: 0,
        });
    };
    let at = d
        .labels
        .iter()
        .find(|l| l.primary)
        .or(d.labels.first())
        .map_or(0, |l| l.span.start);
    let (breaks, column) = place(at);
    Some(Problem {
        trouble,
        code: d.code.code(),
        message: d.message.clone(),
        breaks,
        column,
    })
}

#[cfg(test)]
mod tests {
    use super::breaks_and_column;

    /// Line breaks counted as `bao check` counts them (`\n`, `\r\n`, a lone `\r`), on the fast
    /// path (no `\r`) and the other, and the characters after the last break.
    #[test]
    fn breaks_and_column_counts_every_line_end() {
        assert_eq!(breaks_and_column(""), (0, 0));
        assert_eq!(breaks_and_column("abc"), (0, 3));
        assert_eq!(breaks_and_column("a\nbé"), (1, 2));
        assert_eq!(breaks_and_column("a\n\nb\n"), (3, 0));
        assert_eq!(breaks_and_column("a\r\nb\r\ncd"), (2, 2));
        assert_eq!(breaks_and_column("a\rb\nc"), (2, 1));
        assert_eq!(breaks_and_column("a\r"), (1, 0));
    }
}
