//! One game of an archive as the archive commands see it: read from a stream's chunk,
//! replayed once (by `bao-replay`, or by `bao-validate`'s check when its diagnostics are
//! needed), with the facts the filters and statistics ask about.

use bao_core::{Move, Position};
use bao_notation::meaning::is_game;
use bao_notation::{Game, GameResult, Spanned, SyntaxError};
use bao_replay::{replay_game, ReplayedGame};
use bao_validate::{check_one_game, CheckOptions};

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
    /// Whether it has an error ([`Depth::Check`]).
    pub invalid: Option<bool>,
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
        };
        match depth {
            Depth::Tags => {}
            Depth::Replay => out.replayed = Some(replay_game(out.game, None)),
            Depth::Check => {
                let checked = check_one_game(out.game, n, &CheckOptions::default());
                let mut codes: Vec<&'static str> = syntax.iter().map(|e| e.code.code()).collect();
                codes.extend(checked.diagnostics.iter().map(|d| d.code.code()));
                out.invalid =
                    Some(checked.has_errors() || syntax.iter().any(SyntaxError::is_error));
                out.codes = Some(codes);
                out.replayed = Some(checked.replayed);
            }
        }
        out
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

    /// The result: the `Result` tag, else the movetext's result token.
    #[must_use]
    pub fn result(&self) -> GameResult {
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
