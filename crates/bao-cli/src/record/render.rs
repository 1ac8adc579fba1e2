//! How `bao record` shows a session's replies and prompts on a terminal: one line (or
//! block) per reply, on stdout.

use std::io::Write;

use bao_core::Side;
use bao_export::{board_text, LastMove, Overlay, TextOptions};
use bao_session::{
    Choice, Confirm, Decision, Ending, GameOver, Help, Left, MatchScore, OptionKind, Prompt,
    Refusal, Reopened, Reply,
};

use crate::report::{handler_for, render_diagnostics};

/// The width the help's introduction is wrapped to.
const HELP_WIDTH: usize = 92;

/// Where `bao record` writes: the file's name for its messages, and whether to colour.
pub(crate) struct Screen {
    /// The record file as the user named it.
    pub(crate) name: String,
    /// Whether diagnostics and the board's last-move marks are coloured.
    pub(crate) colour: bool,
}

impl Screen {
    /// Prints a line on stdout; a closed stdout is not worth a panic.
    pub(crate) fn say(&self, text: &str) {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{text}");
        let _ = out.flush();
    }

    /// Prints the replies, in order.
    pub(crate) fn show(&self, replies: &[Reply]) {
        for reply in replies {
            self.say(&self.text(reply));
        }
    }

    /// The text of one reply.
    fn text(&self, reply: &Reply) -> String {
        let name = &self.name;
        match reply {
            Reply::NewRecord => format!("New record {name}."),
            Reply::Recording => format!("Recording to {name}. Type `help` for the commands."),
            Reply::Resuming { ply } => {
                format!("Resuming {name} at ply {ply}. Type `help` for the commands.")
            }
            Reply::Board(b) => {
                let mut opts = TextOptions::default();
                opts.names.south = Some(b.south.clone());
                opts.names.north = Some(b.north.clone());
                opts.colour = self.colour;
                // The last move's start, end and captures; the written move names at least
                // the pit it started from (in namua: where its seed went).
                opts.last_move = match &b.last_played {
                    Some((before, trace)) => {
                        Some(LastMove::of(&Overlay::from_trace(before, trace)))
                    }
                    None => b
                        .last
                        .as_ref()
                        .and_then(|(_, side, token)| token.pit.resolve(*side))
                        .map(LastMove::start),
                };
                let board = board_text(&b.position, &opts);
                match &b.last {
                    Some((turn, side, token)) => {
                        let number = match side {
                            Side::South => format!("{turn}."),
                            Side::North => format!("{turn}..."),
                        };
                        format!(
                            "\n{}\nLast move: {number} {token} ({})",
                            board.trim_end(),
                            side_name(*side)
                        )
                    }
                    None => format!("\n{}", board.trim_end()),
                }
            }
            Reply::BadAnswer(problem) => problem.to_string(),
            Reply::Choice(choice) => choice_text(choice),
            Reply::Played(p) => {
                let overlay = Overlay::from_trace(&p.before, &p.trace);
                let mv = overlay.move_text().unwrap_or_default();
                let effect = overlay.effect(&p.rules);
                let side = side_name(p.trace.mover);
                if effect.is_empty() {
                    format!("{side} {mv}")
                } else {
                    format!("{side} {mv}: {effect}")
                }
            }
            Reply::Illegal { written, report } => match report {
                Some(report) => {
                    let text = render_diagnostics(report.as_ref(), &handler_for(self.colour));
                    text.trim_matches('\n').to_owned()
                }
                None => format!("{written} is not a legal move here."),
            },
            Reply::Legal(moves) => format!("Legal moves: {}", move_list(moves)),
            Reply::Refused(refusal) => refusal_text(refusal),
            Reply::MoveCancelled => "Move cancelled.".to_owned(),
            Reply::TookBack(token) => format!("Took back {token}."),
            Reply::CommentAdded => "Comment added.".to_owned(),
            Reply::Marked { token, glyph } => format!("{token} marked {glyph}."),
            Reply::TagSet { name, value } => format!("[{name} \"{value}\"]"),
            Reply::TagRefused(report) => format!(
                "{}\nThe tag was not changed.",
                render_diagnostics(report.as_ref(), &handler_for(self.colour)).trim_matches('\n')
            ),
            Reply::Tags(tags) => tags
                .iter()
                .map(|(n, v)| format!("[{n} \"{v}\"]"))
                .collect::<Vec<_>>()
                .join("\n"),
            Reply::Help(help) => help_text(help),
            Reply::GameOver(over) => game_over_text(over),
            Reply::Saved => {
                format!("Saved {name}. `undo` takes the result back; `quit` or Ctrl-D leaves.")
            }
            Reply::Confirm(c) => confirm_text(c),
            Reply::NotConfirmed => "Not recorded; the game goes on.".to_owned(),
            Reply::QuestionDropped { line } => format!(
                "`{line}` is no answer to the question: the question is dropped and `{line}` \
                 taken as typed at the move prompt."
            ),
            Reply::Reopened(r) => reopened_text(r, name),
            Reply::ResultTakenBack { result } => {
                format!("Took back the result {result}; the game goes on.")
            }
            Reply::MatchScore(s) => {
                format!("Match score after game {}: {}.", s.played, score_line(s))
            }
            Reply::MatchOver(s) => match &s.winner {
                Some(w) => format!(
                    "Match over after {} games: {w} wins ({}). Saved {name}.",
                    s.played,
                    score_line(s)
                ),
                None => format!(
                    "Match over after {} games, undecided ({}). Saved {name}.",
                    s.played,
                    score_line(s)
                ),
            },
            Reply::NextGame { number } => format!("\nGame {number} of the match."),
            Reply::Left(Left::NothingWritten) => "Nothing written.".to_owned(),
            Reply::Left(Left::Finished { result }) => {
                format!("Saved {name} (the game is over: {result}).")
            }
            Reply::Left(Left::Saved { plies }) => format!(
                "Saved {name} with {plies} pl{} of this game. Resume with: bao record {}",
                if *plies == 1 { "y" } else { "ies" },
                shell_word(name)
            ),
        }
    }
}

/// The prompt's text: `12. South> `, `Event [Casual game]: `, `Choose 1-2 (empty cancels): `.
pub(crate) fn prompt_text(prompt: &Prompt) -> String {
    match prompt {
        Prompt::Move {
            turn,
            side: Side::South,
        } => format!("{turn}. South> "),
        Prompt::Move {
            turn,
            side: Side::North,
        } => format!("{turn}... North> "),
        Prompt::Question { question, default } => format!("{question} [{default}]: "),
        Prompt::Choice { count } => format!("Choose 1-{count} (empty cancels): "),
        Prompt::Confirm(_) => "Record it? (y/n) [n]: ".to_owned(),
        Prompt::Finished { .. } => "Game over (undo, quit)> ".to_owned(),
    }
}

/// A side as the board names it.
const fn side_name(side: Side) -> &'static str {
    match side {
        Side::South => "South",
        Side::North => "North",
    }
}

/// The question before an ending is recorded.
fn confirm_text(c: &Confirm) -> String {
    let what = match (c.ending, c.loser) {
        (Ending::Resignation, Some(side)) => format!("{} resigns", side_name(side)),
        (Ending::TimeForfeit, Some(side)) => format!("{} loses on time", side_name(side)),
        _ => "A draw by agreement".to_owned(),
    };
    format!("{what}: the game ends {}.", c.result)
}

/// What reopening a finished game says.
fn reopened_text(r: &Reopened, name: &str) -> String {
    let which = if r.games > 1 {
        format!("the last of its {} games", r.games)
    } else {
        "its game".to_owned()
    };
    format!(
        "{name} is finished: reopened {which} ({} pl{}, result {}). `undo` takes the result \
         back to correct the end; `quit` leaves it as it is.",
        r.plies,
        if r.plies == 1 { "y" } else { "ies" },
        r.result
    )
}

/// A numbered question: the question, then one line per option.
fn choice_text(choice: &Choice) -> String {
    let nyumba = choice.rules.names().nyumba;
    let pit = choice.pit;
    let mut out = match choice.decision {
        Decision::Kichwa => format!("{pit} captures from either kichwa. Which one?"),
        Decision::Direction => format!("{pit} can be sown either way. Which direction?"),
        Decision::Safari => format!("{pit} reaches the {nyumba}. Stop there, or safari?"),
    };
    for (i, option) in choice.options.iter().enumerate() {
        let word = match option.kind {
            OptionKind::LeftKichwa => "the left kichwa".to_owned(),
            OptionKind::RightKichwa => "the right kichwa".to_owned(),
            OptionKind::Left => "to the left".to_owned(),
            OptionKind::Right => "to the right".to_owned(),
            OptionKind::Stop => format!("stop at the {nyumba}"),
            OptionKind::Safari => format!("safari: sow the {nyumba} on"),
        };
        let effect = Overlay::from_trace(&choice.before, &option.trace).effect(&choice.rules);
        out.push_str(&format!(
            "\n  {}) {:<8} {word}: {effect}",
            i + 1,
            option.shown.to_string()
        ));
    }
    out
}

fn refusal_text(refusal: &Refusal) -> String {
    match refusal {
        Refusal::NotAMove { line, why } => {
            // The reader's words may name the line again (`A9<`: there is no pit A9).
            let why = why
                .strip_prefix(&format!("`{line}`: "))
                .unwrap_or(why.as_str());
            format!(
                "`{line}` is neither a move nor a command: {why}. Type `help` for the commands."
            )
        }
        Refusal::NotOneMove { line } => format!(
            "`{line}` is not one move. Type a move such as A6<* or a5>, or `help`; a result is \
             recorded with `resign`, `time` or `draw`."
        ),
        Refusal::Annotated => {
            "Type the move without a lap/capture annotation: the engine knows what it does."
                .to_owned()
        }
        Refusal::Undecided { candidates } => format!(
            "The move leaves a decision open and nothing is asked without a terminal; write \
             one of: {}.",
            move_list(candidates)
        ),
        Refusal::NothingToUndo => "Nothing to undo: no ply recorded in this game.".to_owned(),
        Refusal::EmptyComment => "Write the comment after the word: comment TEXT".to_owned(),
        Refusal::BraceInComment => "A comment cannot hold `{` or `}`.".to_owned(),
        Refusal::NoGlyph { text } => {
            format!("`{text}` is no glyph: use ! ? !! ?? !? ?! or $0..$255.")
        }
        Refusal::GlyphWithoutPly => "A glyph follows a ply: record a move first.".to_owned(),
        Refusal::BadSide { command } => {
            format!("`{command}` takes `south`, `north` or nothing (the side to move).")
        }
        Refusal::NoDraws => "These rules know no draw (E3): a game ends when a player cannot \
                             move or his front row is empty. Record a resignation or a loss on \
                             time instead."
            .to_owned(),
        Refusal::TagSyntax => {
            "Write: tag NAME VALUE (a name of letters, digits and `_`).".to_owned()
        }
        Refusal::OwnTag { name } => {
            format!("{name} is kept by the recorder and cannot be changed during a game.")
        }
        Refusal::GameOver { result } => format!(
            "The game is over ({result}): `undo` takes the result back first; `quit` leaves."
        ),
        Refusal::LapBudget { laps_run } => format!(
            "Whether a move here ever ends was still undecided after {laps_run} laps (the lap \
             budget): nothing was played."
        ),
    }
}

/// The help: the commands' doc comments in two columns, and the terminal's keys.
fn help_text(help: &Help) -> String {
    let mut out = wrap(&help.intro, HELP_WIDTH);
    for c in &help.commands {
        out.push_str(&format!("\n  {:<21} {}", c.usage, c.about));
    }
    out.push_str("\nCtrl-C cancels the line; a second Ctrl-C or Ctrl-D at an empty prompt leaves.");
    out
}

/// `text` wrapped at spaces to lines of at most `width` columns (textwrap's first fit; a
/// longer word gets a line of its own, no word is broken or hyphenated).
fn wrap(text: &str, width: usize) -> String {
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let opts = textwrap::Options::new(width)
        .word_separator(textwrap::WordSeparator::AsciiSpace)
        .word_splitter(textwrap::WordSplitter::NoHyphenation)
        .wrap_algorithm(textwrap::WrapAlgorithm::FirstFit)
        .break_words(false);
    textwrap::fill(&words, opts)
}

fn game_over_text(over: &GameOver) -> String {
    let words = match over.result.winner() {
        Some(Side::South) => format!("{} (South) wins", over.south),
        Some(Side::North) => format!("{} (North) wins", over.north),
        None => "drawn".to_owned(),
    };
    format!(
        "\nGame over: {}, {words} ({}).",
        over.result,
        over.ending.tag_value().replace('_', " ")
    )
}

fn score_line(s: &MatchScore) -> String {
    s.score
        .iter()
        .map(|(p, n)| format!("{p} {n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn move_list(moves: &[bao_core::Move]) -> String {
    if moves.is_empty() {
        return "none".to_owned();
    }
    moves
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// A path as it can be typed in a shell.
fn shell_word(s: &str) -> String {
    if s.chars()
        .all(|c| c.is_ascii_alphanumeric() || "-_./+,:@".contains(c))
    {
        s.to_owned()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_words() {
        assert_eq!(shell_word("games/a.bao"), "games/a.bao");
        assert_eq!(shell_word("my game.bao"), "'my game.bao'");
    }

    #[test]
    fn the_help_lists_the_commands_in_two_columns() {
        let text = help_text(&Help::new());
        assert!(text.starts_with("Type a move"), "{text}");
        assert!(text.contains("\n  resign [south|north]  "), "{text}");
        assert!(
            text.lines().all(|l| l.chars().count() <= HELP_WIDTH),
            "{text}"
        );
    }

    #[test]
    fn wrapping_fills_lines_first_and_keeps_words_whole() {
        assert_eq!(wrap("aa bb  cc\tdd", 5), "aa bb\ncc dd");
        assert_eq!(wrap("a never-ending b", 6), "a\nnever-ending\nb");
        assert_eq!(wrap("", 10), "");
    }
}
