//! The commands of the move prompt, parsed by clap as a REPL parses its lines (a
//! `multicall` parser: the first word names the command), so that `help` is written from
//! their doc comments.
//!
//! A line is a command when its first word (in any case) is a command's name or alias. The
//! rest of the line is split into at most as many words as the command takes, the last
//! keeping its inner spaces (a comment or a tag value is taken as typed), and every word is
//! an operand (`comment -- x` is the comment `-- x`).

use clap::{CommandFactory, Parser, Subcommand, ValueEnum};

use bao_core::Side;

/// Type a move (canonical `A6<*`, `a5>+`, or K.I.B.A. `A6L*`; a sign or `*` the position
/// forces may be left out; with a sign, a lap that reaches the house stops there unless `+`
/// is written; a glyph may follow: `A6<*!`), a glyph for the last ply (`!` `?` `!!` `??`
/// `!?` `?!`, or `$N` for a numeric NAG), or a command:
#[derive(Debug, Parser)]
#[command(
    multicall = true,
    disable_help_subcommand = true,
    disable_help_flag = true,
    disable_version_flag = true
)]
struct PromptLine {
    #[command(subcommand)]
    command: Command,
}

/// A command of the move prompt.
#[derive(Debug, Clone, PartialEq, Eq, Subcommand)]
#[non_exhaustive]
pub enum Command {
    /// Take back the last ply, or the result once the game is over.
    #[command(alias = "u", disable_help_flag = true)]
    Undo,
    /// Add a comment after the last ply (also `{TEXT}`).
    #[command(alias = "c", disable_help_flag = true)]
    Comment {
        /// The comment.
        #[arg(value_name = "TEXT")]
        text: String,
    },
    /// The side to move (or the side named) resigns (confirmed first).
    #[command(disable_help_flag = true)]
    Resign {
        /// The side that resigns (default: the side to move).
        #[arg(ignore_case = true)]
        side: Option<SideName>,
    },
    /// The side to move (or the side named) loses on time (confirmed first).
    #[command(disable_help_flag = true)]
    Time {
        /// The side that loses (default: the side to move).
        #[arg(ignore_case = true)]
        side: Option<SideName>,
    },
    /// A draw by agreement, where the rules know draws (confirmed first).
    #[command(disable_help_flag = true)]
    Draw,
    /// Set a tag of the game (`tags` lists them).
    #[command(disable_help_flag = true)]
    Tag {
        /// The tag's name.
        #[arg(value_name = "NAME")]
        name: String,
        /// Its value (quotes around it are dropped; nothing: empty).
        #[arg(value_name = "VALUE")]
        value: Option<String>,
    },
    /// List the tags of the game.
    #[command(disable_help_flag = true)]
    Tags {
        /// Ignored.
        #[arg(hide = true)]
        rest: Option<String>,
    },
    /// Show the board again.
    #[command(alias = "b", disable_help_flag = true)]
    Board,
    /// List the legal moves.
    #[command(alias = "l", disable_help_flag = true)]
    Legal,
    /// This list.
    #[command(alias = "h", disable_help_flag = true)]
    Help {
        /// Ignored.
        #[arg(hide = true)]
        rest: Option<String>,
    },
    /// Leave; the file can be resumed.
    #[command(aliases = ["exit", "q"], disable_help_flag = true)]
    Quit {
        /// Ignored.
        #[arg(hide = true)]
        rest: Option<String>,
    },
}

impl Command {
    /// The command's name, as typed at the prompt (`undo`, `resign`, ...).
    #[must_use]
    pub const fn name(&self) -> &'static str {
        match self {
            Self::Undo => "undo",
            Self::Comment { .. } => "comment",
            Self::Resign { .. } => "resign",
            Self::Time { .. } => "time",
            Self::Draw => "draw",
            Self::Tag { .. } => "tag",
            Self::Tags { .. } => "tags",
            Self::Board => "board",
            Self::Legal => "legal",
            Self::Help { .. } => "help",
            Self::Quit { .. } => "quit",
        }
    }
}

/// A side named in a command (`s` and `n` will do).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SideName {
    /// South.
    #[value(alias = "s")]
    South,
    /// North.
    #[value(alias = "n")]
    North,
}

impl From<SideName> for Side {
    fn from(s: SideName) -> Self {
        match s {
            SideName::South => Self::South,
            SideName::North => Self::North,
        }
    }
}

/// What the first word of a line made of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Parsed {
    /// Not a command word: a move, a glyph or a comment.
    NotACommand,
    /// A command.
    Command(Command),
    /// A command word whose operands do not fit it; the name is the command's own (not
    /// an alias).
    Misused(String),
}

/// Reads a line at the move prompt as a command.
pub(crate) fn parse(line: &str) -> Parsed {
    let (word, rest) = match line.split_once(char::is_whitespace) {
        Some((w, r)) => (w, r.trim()),
        None => (line, ""),
    };
    let word = word.to_ascii_lowercase();
    let cli = PromptLine::command();
    let Some(sub) = cli.find_subcommand(&word) else {
        return Parsed::NotACommand;
    };
    let operands = sub.get_positionals().count();
    // Everything after `--` is an operand, even `--help` or `-x`.
    let mut args = vec![word, "--".to_owned()];
    let mut words = 0;
    let mut rest = rest;
    while !rest.is_empty() {
        // The last operand (or one more than the command takes) is the rest as typed.
        if words >= operands.saturating_sub(1) {
            args.push(rest.to_owned());
            break;
        }
        match rest.split_once(char::is_whitespace) {
            Some((w, r)) => {
                args.push(w.to_owned());
                words += 1;
                rest = r.trim_start();
            }
            None => {
                args.push(rest.to_owned());
                break;
            }
        }
    }
    match PromptLine::try_parse_from(args) {
        Ok(p) => Parsed::Command(p.command),
        Err(_) => Parsed::Misused(sub.get_name().to_owned()),
    }
}

/// The prompt's help: what a line may be, and each command with its operands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Help {
    /// What a line at the move prompt may be.
    pub intro: String,
    /// The commands.
    pub commands: Vec<HelpEntry>,
}

/// One command in [`Help`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HelpEntry {
    /// The command and its operands (`resign [south|north]`).
    pub usage: String,
    /// What it does.
    pub about: String,
}

impl Help {
    /// The help, from the commands' doc comments.
    #[must_use]
    pub fn new() -> Self {
        let cli = PromptLine::command();
        let intro = cli.get_about().map(ToString::to_string).unwrap_or_default();
        let commands = cli
            .get_subcommands()
            .map(|sub| {
                let mut usage = sub.get_name().to_owned();
                for arg in sub.get_positionals().filter(|a| !a.is_hide_set()) {
                    let values: Vec<String> = arg
                        .get_possible_values()
                        .iter()
                        .map(|v| v.get_name().to_owned())
                        .collect();
                    let name = if values.is_empty() {
                        arg.get_value_names()
                            .and_then(|n| n.first())
                            .map_or_else(|| arg.get_id().to_string(), ToString::to_string)
                    } else {
                        values.join("|")
                    };
                    usage.push(' ');
                    if arg.is_required_set() {
                        usage.push_str(&name);
                    } else {
                        usage.push_str(&format!("[{name}]"));
                    }
                }
                let about = sub.get_about().map(ToString::to_string).unwrap_or_default();
                HelpEntry { usage, about }
            })
            .collect();
        Self { intro, commands }
    }
}

impl Default for Help {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_parser_is_well_formed() {
        PromptLine::command().debug_assert();
    }

    #[test]
    fn command_words_in_any_case_and_their_aliases() {
        assert_eq!(parse("UNDO"), Parsed::Command(Command::Undo));
        assert_eq!(parse("u"), Parsed::Command(Command::Undo));
        assert_eq!(parse("q"), Parsed::Command(Command::Quit { rest: None }));
        assert_eq!(
            parse("exit now"),
            Parsed::Command(Command::Quit {
                rest: Some("now".to_owned())
            })
        );
        assert_eq!(parse("b"), Parsed::Command(Command::Board));
        assert_eq!(parse("A6<*"), Parsed::NotACommand);
        assert_eq!(parse("b4>"), Parsed::NotACommand);
    }

    #[test]
    fn operands_keep_their_spaces_and_hyphens() {
        assert_eq!(
            parse("comment a  quiet --help start"),
            Parsed::Command(Command::Comment {
                text: "a  quiet --help start".to_owned()
            })
        );
        assert_eq!(
            parse("tag Event  Club  night"),
            Parsed::Command(Command::Tag {
                name: "Event".to_owned(),
                value: Some("Club  night".to_owned())
            })
        );
        assert_eq!(
            parse("resign N"),
            Parsed::Command(Command::Resign {
                side: Some(SideName::North)
            })
        );
    }

    #[test]
    fn misused_commands_are_named() {
        assert_eq!(parse("board x"), Parsed::Misused("board".to_owned()));
        assert_eq!(parse("resign east"), Parsed::Misused("resign".to_owned()));
        assert_eq!(
            parse("resign south north"),
            Parsed::Misused("resign".to_owned())
        );
        assert_eq!(parse("c"), Parsed::Misused("comment".to_owned()));
        assert_eq!(parse("tag"), Parsed::Misused("tag".to_owned()));
    }

    #[test]
    fn help_lists_every_command_with_its_operands() {
        let help = Help::new();
        assert!(help.intro.starts_with("Type a move"));
        let usages: Vec<&str> = help.commands.iter().map(|c| c.usage.as_str()).collect();
        assert_eq!(
            usages,
            [
                "undo",
                "comment TEXT",
                "resign [south|north]",
                "time [south|north]",
                "draw",
                "tag NAME [VALUE]",
                "tags",
                "board",
                "legal",
                "help",
                "quit"
            ]
        );
        assert_eq!(
            help.commands[0].about,
            "Take back the last ply, or the result once the game is over"
        );
    }
}
