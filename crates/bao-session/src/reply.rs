//! What a session answers: replies as data, and the prompt it waits at.
//!
//! Nothing here is worded for a particular screen, except the few words a
//! [`SessionError`](crate::SessionError) needs to be an error ([`Question`] and
//! [`AnswerProblem`] implement `Display`). A terminal prints the replies as lines; a web
//! front end can show a board, a form or a list of buttons from the same data.

use std::fmt;

use bao_core::{Move, MoveTrace, Pit, Position, RuleSet, Side};
use bao_notation::{GameResult, MoveToken};
use bao_validate::CheckReport;

use crate::command::Help;

/// One reply of a session to an input.
///
/// Not `non_exhaustive`: a front end must show every reply, so a new one should not compile
/// until it does.
#[derive(Debug, Clone)]
pub enum Reply {
    /// A new record is being set up (its tag questions follow).
    NewRecord,
    /// The first game of a new record is written; moves may be entered.
    Recording,
    /// An unfinished game was found and goes on at this ply.
    Resuming {
        /// The number of plies already recorded in the game.
        ply: usize,
    },
    /// The position to move from.
    Board(Board),
    /// An answer to a question that does not do; the question stands.
    BadAnswer(AnswerProblem),
    /// A move leaves a decision open: the prompt that follows ([`Prompt::Choice`]) takes
    /// the number of an option, its key, or the move itself.
    Choice(Choice),
    /// A move was played and is on disk.
    Played(Played),
    /// A line that is no move of this position: the validator's report for the record with
    /// the move appended (`None` when it has no diagnostic about the move).
    Illegal {
        /// The move as it was written.
        written: MoveToken,
        /// The diagnostics about the move, as `bao check` would report them.
        report: Option<Box<CheckReport>>,
    },
    /// The legal moves of the position.
    Legal(Vec<Move>),
    /// A line or command that was not carried out, and why.
    Refused(Refusal),
    /// A pending move choice was given up.
    MoveCancelled,
    /// The last ply was taken back (and is off the disk).
    TookBack(MoveToken),
    /// A comment was added after the last ply.
    CommentAdded,
    /// A glyph was attached to a ply.
    Marked {
        /// The ply's move.
        token: MoveToken,
        /// The glyph as it was typed (`!?`, `$14`).
        glyph: String,
    },
    /// A tag of the current game was set.
    TagSet {
        /// The tag's name, spelled as the format knows it.
        name: String,
        /// Its new value.
        value: String,
    },
    /// A tag change the validator objects to; nothing was changed.
    TagRefused(Box<CheckReport>),
    /// The current game's tags, in file order (name, value).
    Tags(Vec<(String, String)>),
    /// The prompt commands (the `help` command).
    Help(Help),
    /// The current game ended and its result is on disk.
    GameOver(GameOver),
    /// The record is saved and the session is over (a single game ended).
    Saved,
    /// The match's score after a game, when the match goes on.
    MatchScore(MatchScore),
    /// The match is decided (or its three games are played): the session is over.
    MatchOver(MatchScore),
    /// The match's next game is being set up (the players' questions follow).
    NextGame {
        /// Its number in the match (2 or 3).
        number: usize,
    },
    /// The user left; the session is over.
    Left(Left),
    /// An ending asks to be confirmed (`resign`, `time`, `draw` where the session may ask):
    /// the prompt that follows ([`Prompt::Confirm`]) takes `y` or `n`.
    Confirm(Confirm),
    /// An ending was not confirmed; the game goes on.
    NotConfirmed,
    /// A line given at a question that is no answer to it but a move or a command: the
    /// question is dropped (its move is not played, its ending not written) and the line is
    /// taken as it would be at the move prompt (the replies that follow).
    QuestionDropped {
        /// The line.
        line: String,
    },
    /// A finished game was opened again (`bao record FILE` on a file whose last game has a
    /// result): `undo` takes the result back; nothing changes otherwise.
    Reopened(Reopened),
    /// The result of the current game was taken back (`undo` after its end); the game goes
    /// on from its last position (a ply that ended the game by the rules is taken back too:
    /// a [`Reply::TookBack`] follows).
    ResultTakenBack {
        /// The result that was written.
        result: GameResult,
    },
}

impl Reply {
    /// Whether the reply rejects the line that was given: the line changed nothing and
    /// was not what the session waited for (a move that is not legal or not one move, a
    /// command that cannot apply, an answer that does not do). A front end reading a
    /// script counts these to fail at the end.
    #[must_use]
    pub const fn rejects_line(&self) -> bool {
        matches!(
            self,
            Self::Illegal { .. } | Self::Refused(_) | Self::BadAnswer(_) | Self::TagRefused(_)
        )
    }
}

/// An ending to confirm.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Confirm {
    /// How the game would end.
    pub ending: Ending,
    /// The result that would be written.
    pub result: GameResult,
    /// The side that would lose (`None`: a draw).
    pub loser: Option<Side>,
}

/// A finished game opened again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reopened {
    /// The game's number in the file, counted from 1 (the last game; earlier ones are not
    /// touched).
    pub game: usize,
    /// The number of games in the file.
    pub games: usize,
    /// Its result.
    pub result: GameResult,
    /// Its plies.
    pub plies: usize,
}

/// The board before a move, with the players' names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    /// The position.
    pub position: Position,
    /// The last ply of the game's main line, if there is one: its move number, its side
    /// and its move as written in the record.
    pub last: Option<(usize, Side, MoveToken)>,
    /// That ply played again: the position it was played from and what the move did (its
    /// start, lap ends and captures, for the board to mark); `None` at the start.
    pub last_played: Option<(Position, MoveTrace)>,
    /// South's player (the `South` tag).
    pub south: String,
    /// North's player (the `North` tag).
    pub north: String,
}

/// A ply that was played and written.
#[derive(Debug, Clone)]
pub struct Played {
    /// The position it was played from.
    pub before: Position,
    /// What the move did.
    pub trace: MoveTrace,
    /// The rules of the game (for their words: nyumba or kuu).
    pub rules: RuleSet,
}

/// The decision a written move leaves open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// A capture in namua that may start from either kichwa.
    Kichwa,
    /// A move that may be sown either way.
    Direction,
    /// A move that reaches the functional house: stop there or sow on (safari).
    Safari,
}

/// A question between moves that fit what was written.
#[derive(Debug, Clone)]
pub struct Choice {
    /// What is to be decided.
    pub decision: Decision,
    /// The pit the move starts from.
    pub pit: Pit,
    /// The position the move is played from.
    pub before: Position,
    /// The rules of the game.
    pub rules: RuleSet,
    /// The options, numbered from 1 in this order.
    pub options: Vec<ChoiceOption>,
}

/// One answer to a [`Choice`].
#[derive(Debug, Clone)]
pub struct ChoiceOption {
    /// What the option is.
    pub kind: OptionKind,
    /// The first of the moves it stands for (the one shown).
    pub shown: Move,
    /// What [`ChoiceOption::shown`] does.
    pub trace: MoveTrace,
}

/// The meaning of a [`ChoiceOption`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OptionKind {
    /// Capture from the left kichwa (`<`).
    LeftKichwa,
    /// Capture from the right kichwa (`>`).
    RightKichwa,
    /// Sow to the left (`<`).
    Left,
    /// Sow to the right (`>`).
    Right,
    /// Stop at the house.
    Stop,
    /// Sow the house on (`+`).
    Safari,
}

impl OptionKind {
    /// The word that picks the option besides its number (`<`, `>`, `stop`, `safari`).
    #[must_use]
    pub const fn key(self) -> &'static str {
        match self {
            Self::LeftKichwa | Self::Left => "<",
            Self::RightKichwa | Self::Right => ">",
            Self::Stop => "stop",
            Self::Safari => "safari",
        }
    }

    /// Whether `answer` (lower case) picks the option by a word: its key, `l`/`r` for a
    /// side, `+` for safari.
    pub(crate) fn answers_to(self, answer: &str) -> bool {
        answer == self.key()
            || match self {
                Self::LeftKichwa | Self::Left => answer == "l",
                Self::RightKichwa | Self::Right => answer == "r",
                Self::Stop => false,
                Self::Safari => answer == "+",
            }
    }
}

/// A question the session waits to have answered: the tags of a new record, the players
/// of a match's next game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Question {
    /// The Event tag.
    Event,
    /// The Site tag.
    Site,
    /// The Date tag.
    Date,
    /// The Round tag.
    Round,
    /// South's player.
    South,
    /// North's player.
    North,
    /// The `RuleSet` tag.
    RuleSet,
    /// Whether the record is a best-of-three match (`y`/`n`).
    Match,
    /// The Match tag.
    MatchName,
    /// Who plays `side` in the match's next game.
    Player {
        /// The seat.
        side: Side,
        /// The game's number in the match.
        game: usize,
    },
}

impl fmt::Display for Question {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Event => f.write_str("Event"),
            Self::Site => f.write_str("Site"),
            Self::Date => f.write_str("Date"),
            Self::Round => f.write_str("Round"),
            Self::South => f.write_str("South"),
            Self::North => f.write_str("North"),
            Self::RuleSet => f.write_str("RuleSet"),
            Self::Match => f.write_str("Best-of-three match? (y/n)"),
            Self::MatchName => f.write_str("Match name"),
            Self::Player { side, game } => {
                let seat = match side {
                    Side::South => "South",
                    Side::North => "North",
                };
                write!(f, "{seat} in game {game}")
            }
        }
    }
}

/// Why an answer does not do.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum AnswerProblem {
    /// A date not written `YYYY.MM.DD`.
    Date,
    /// A rule set that does not read.
    UnknownRules {
        /// The answer.
        given: String,
    },
    /// Neither yes nor no.
    YesOrNo,
    /// No option of a [`Choice`] has this number or word.
    NoSuchOption {
        /// The number of options.
        count: usize,
    },
}

impl fmt::Display for AnswerProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Date => f.write_str("Write the date as YYYY.MM.DD (`??` for an unknown part)."),
            Self::UnknownRules { given } => write!(
                f,
                "Unknown rule set `{given}`: the presets are {}, optionally followed by \
                 name=value overrides.",
                bao_core::PRESET_NAMES.join(", ")
            ),
            Self::YesOrNo => f.write_str("Answer y or n."),
            Self::NoSuchOption { count } => write!(f, "Answer with a number from 1 to {count}."),
        }
    }
}

/// Why a line at the move prompt was not carried out (nothing changed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// A line that does not read as a move.
    NotAMove {
        /// The line.
        line: String,
        /// What the record reader found wrong.
        why: String,
    },
    /// A line that reads as more (or less) than one move.
    NotOneMove {
        /// The line.
        line: String,
    },
    /// A move written with its lap/capture annotation.
    Annotated,
    /// A move that leaves a decision open, when the session may not ask (see
    /// [`Asking`](crate::Asking)): it must be written in full.
    Undecided {
        /// The legal moves that fit what was written.
        candidates: Vec<Move>,
    },
    /// `undo` before the game's first ply.
    NothingToUndo,
    /// `comment` without text.
    EmptyComment,
    /// A comment holding a brace.
    BraceInComment,
    /// Something like a glyph that is none (`$300`).
    NoGlyph {
        /// The text.
        text: String,
    },
    /// A glyph before the game's first ply.
    GlyphWithoutPly,
    /// `resign` or `time` with something other than a side.
    BadSide {
        /// The command (`resign` or `time`).
        command: &'static str,
    },
    /// `draw` under rules that know no draws (E3).
    NoDraws,
    /// `tag` without a usable name.
    TagSyntax,
    /// `tag` on a tag the session keeps itself.
    OwnTag {
        /// The tag.
        name: String,
    },
    /// A move or an ending after the game's end: `undo` takes the result back first.
    GameOver {
        /// The result written.
        result: GameResult,
    },
    /// The engine did not decide within the session's lap budget
    /// ([`Options::lap_budget`](crate::Options::lap_budget)) whether some move here ends (a
    /// never-ending relay on a long cycle, met for the first time): nothing was played.
    LapBudget {
        /// The laps the undecided move had run when it gave up.
        laps_run: u64,
    },
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Ending {
    /// By the rules.
    Rules(bao_core::EndReason),
    /// A player resigned.
    Resignation,
    /// A player lost on time.
    TimeForfeit,
    /// A draw by agreement.
    Agreement,
}

impl Ending {
    /// The Termination tag's value (`bao_hamna`, `resignation`, ...).
    #[must_use]
    pub const fn tag_value(self) -> &'static str {
        match self {
            Self::Rules(reason) => reason.name(),
            Self::Resignation => "resignation",
            Self::TimeForfeit => "time_forfeit",
            Self::Agreement => "agreement",
        }
    }
}

/// The end of a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameOver {
    /// The result written.
    pub result: GameResult,
    /// How the game ended.
    pub ending: Ending,
    /// South's player.
    pub south: String,
    /// North's player.
    pub north: String,
}

/// A match's score.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchScore {
    /// The games played so far.
    pub played: usize,
    /// Each player's wins, the players as they sat in the first game.
    pub score: Vec<(String, u32)>,
    /// The player who won the match, if one did.
    pub winner: Option<String>,
}

/// What leaving left behind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Left {
    /// The user left before a game was written.
    NothingWritten,
    /// The record is saved with this many plies of its current game.
    Saved {
        /// The plies of the current game.
        plies: usize,
    },
    /// The record is saved; its current game is over with this result.
    Finished {
        /// The result written.
        result: GameResult,
    },
}

/// What the session waits for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Prompt {
    /// A move or a prompt command.
    Move {
        /// The move number.
        turn: usize,
        /// The side to move.
        side: Side,
    },
    /// An answer to a question; an empty answer takes the default.
    Question {
        /// The question.
        question: Question,
        /// The answer an empty line gives.
        default: String,
    },
    /// The number (or key, or move) of an option of the last [`Reply::Choice`]; an empty
    /// line cancels the move, and a line that is a move or a command drops the question
    /// ([`Reply::QuestionDropped`]).
    Choice {
        /// The number of options.
        count: usize,
    },
    /// `y` or `n` to the ending of the last [`Reply::Confirm`]; an empty line is `n`, and a
    /// line that is a move or a command drops the question.
    Confirm(Confirm),
    /// The game is over (its result is on disk): `undo` takes the result back, the other
    /// commands (comments, glyphs, tags) still apply, a move is refused.
    Finished {
        /// The result written.
        result: GameResult,
    },
}
