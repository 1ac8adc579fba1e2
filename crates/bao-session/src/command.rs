//! The commands of the move prompt, read from a line as a REPL reads its lines: the first
//! word names the command, and `help` is written from the same table ([`COMMANDS`]).
//!
//! A line is a command when its first word (in any case) is a command's name or alias. The
//! rest of the line is split into at most as many words as the command takes, the last
//! keeping its inner spaces (a comment or a tag value is taken as typed), and every word is
//! an operand (`comment -- x` is the comment `-- x`).
//!
//! The parser is a table and a loop rather than clap: the commands take at most two
//! operands and no flags, and the session is a library the club server links too (clap
//! stays in `bao-cli`, the command line).

use bao_core::Side;

/// What a line at the move prompt may be, before the commands in the help.
const INTRO: &str = "Type a move (canonical `A6<*`, `a5>+`, or K.I.B.A. `A6L*`; a sign or `*` \
the position forces may be left out; with a sign, a lap that reaches the house stops there \
unless `+` is written; a glyph may follow: `A6<*!`), a glyph for the last ply (`!` `?` `!!` \
`??` `!?` `?!`, or `$N` for a numeric NAG), or a command:";

/// A command of the move prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Command {
    /// Take back the last ply, or the result once the game is over.
    Undo,
    /// Add a comment after the last ply (also `{TEXT}`).
    Comment {
        /// The comment.
        text: String,
    },
    /// The side to move (or the side named) resigns (confirmed first).
    Resign {
        /// The side that resigns (default: the side to move).
        side: Option<SideName>,
    },
    /// The side to move (or the side named) loses on time (confirmed first).
    Time {
        /// The side that loses (default: the side to move).
        side: Option<SideName>,
    },
    /// A draw by agreement, where the rules know draws (confirmed first).
    Draw,
    /// Set a tag of the game (`tags` lists them).
    Tag {
        /// The tag's name.
        name: String,
        /// Its value (quotes around it are dropped; nothing: empty).
        value: Option<String>,
    },
    /// List the tags of the game.
    Tags {
        /// Ignored.
        rest: Option<String>,
    },
    /// Show the board again.
    Board,
    /// List the legal moves.
    Legal,
    /// This list.
    Help {
        /// Ignored.
        rest: Option<String>,
    },
    /// Leave; the file can be resumed.
    Quit {
        /// Ignored.
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

/// A side named in a command (`s` and `n` will do, in any case).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SideName {
    /// South.
    South,
    /// North.
    North,
}

impl SideName {
    /// The side a word names: `south`, `s`, `north` or `n`, in any case.
    fn from_word(word: &str) -> Option<Self> {
        match word.to_ascii_lowercase().as_str() {
            "south" | "s" => Some(Self::South),
            "north" | "n" => Some(Self::North),
            _ => None,
        }
    }
}

impl From<SideName> for Side {
    fn from(s: SideName) -> Self {
        match s {
            SideName::South => Self::South,
            SideName::North => Self::North,
        }
    }
}

/// One operand of a command, as the help shows it.
#[derive(Debug, Clone, Copy)]
struct Operand {
    /// Its name in the help (`TEXT`, `south|north`).
    name: &'static str,
    /// The command is misused without it.
    required: bool,
    /// Taken (and ignored) but not shown in the help.
    hidden: bool,
}

impl Operand {
    const fn required(name: &'static str) -> Self {
        Self {
            name,
            required: true,
            hidden: false,
        }
    }

    const fn optional(name: &'static str) -> Self {
        Self {
            name,
            required: false,
            hidden: false,
        }
    }

    /// The rest of the line, ignored (`help me` is `help`).
    const IGNORED: Self = Self {
        name: "REST",
        required: false,
        hidden: true,
    };
}

/// One command of the prompt: its name, aliases, operands and help line.
#[derive(Debug, Clone, Copy)]
struct Spec {
    name: &'static str,
    aliases: &'static [&'static str],
    operands: &'static [Operand],
    about: &'static str,
}

/// Every command, in the order of the help.
const COMMANDS: [Spec; 11] = [
    Spec {
        name: "undo",
        aliases: &["u"],
        operands: &[],
        about: "Take back the last ply, or the result once the game is over",
    },
    Spec {
        name: "comment",
        aliases: &["c"],
        operands: &[Operand::required("TEXT")],
        about: "Add a comment after the last ply (also `{TEXT}`)",
    },
    Spec {
        name: "resign",
        aliases: &[],
        operands: &[Operand::optional("south|north")],
        about: "The side to move (or the side named) resigns (confirmed first)",
    },
    Spec {
        name: "time",
        aliases: &[],
        operands: &[Operand::optional("south|north")],
        about: "The side to move (or the side named) loses on time (confirmed first)",
    },
    Spec {
        name: "draw",
        aliases: &[],
        operands: &[],
        about: "A draw by agreement, where the rules know draws (confirmed first)",
    },
    Spec {
        name: "tag",
        aliases: &[],
        operands: &[Operand::required("NAME"), Operand::optional("VALUE")],
        about: "Set a tag of the game (`tags` lists them)",
    },
    Spec {
        name: "tags",
        aliases: &[],
        operands: &[Operand::IGNORED],
        about: "List the tags of the game",
    },
    Spec {
        name: "board",
        aliases: &["b"],
        operands: &[],
        about: "Show the board again",
    },
    Spec {
        name: "legal",
        aliases: &["l"],
        operands: &[],
        about: "List the legal moves",
    },
    Spec {
        name: "help",
        aliases: &["h"],
        operands: &[Operand::IGNORED],
        about: "This list",
    },
    Spec {
        name: "quit",
        aliases: &["exit", "q"],
        operands: &[Operand::IGNORED],
        about: "Leave; the file can be resumed",
    },
];

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
    let Some(spec) = COMMANDS
        .iter()
        .find(|c| c.name == word || c.aliases.contains(&word.as_str()))
    else {
        return Parsed::NotACommand;
    };
    let words = operands(rest, spec.operands.len());
    let fits = words.len() <= spec.operands.len()
        && spec
            .operands
            .iter()
            .enumerate()
            .all(|(i, o)| !o.required || i < words.len());
    let command = if fits { build(spec.name, &words) } else { None };
    command.map_or_else(|| Parsed::Misused(spec.name.to_owned()), Parsed::Command)
}

/// The operands of a command taking `count`: words, the last the rest as typed (one more
/// than the command takes when the line has more).
fn operands(mut rest: &str, count: usize) -> Vec<String> {
    let mut words = Vec::new();
    while !rest.is_empty() {
        if words.len() >= count.saturating_sub(1) {
            words.push(rest.to_owned());
            break;
        }
        match rest.split_once(char::is_whitespace) {
            Some((w, r)) => {
                words.push(w.to_owned());
                rest = r.trim_start();
            }
            None => {
                words.push(rest.to_owned());
                break;
            }
        }
    }
    words
}

/// The command named, from operands that fit its count; `None` if one is not a value it
/// takes (a side that is neither south nor north).
fn build(name: &str, words: &[String]) -> Option<Command> {
    let first = words.first().cloned();
    let side = |w: Option<String>| match w {
        None => Some(None),
        Some(w) => SideName::from_word(&w).map(Some),
    };
    Some(match name {
        "undo" => Command::Undo,
        "comment" => Command::Comment { text: first? },
        "resign" => Command::Resign { side: side(first)? },
        "time" => Command::Time { side: side(first)? },
        "draw" => Command::Draw,
        "tag" => Command::Tag {
            name: first?,
            value: words.get(1).cloned(),
        },
        "tags" => Command::Tags { rest: first },
        "board" => Command::Board,
        "legal" => Command::Legal,
        "help" => Command::Help { rest: first },
        "quit" => Command::Quit { rest: first },
        _ => return None,
    })
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
    /// The help, from the table the parser reads.
    #[must_use]
    pub fn new() -> Self {
        let commands = COMMANDS
            .iter()
            .map(|spec| {
                let mut usage = spec.name.to_owned();
                for o in spec.operands.iter().filter(|o| !o.hidden) {
                    usage.push(' ');
                    if o.required {
                        usage.push_str(o.name);
                    } else {
                        usage.push('[');
                        usage.push_str(o.name);
                        usage.push(']');
                    }
                }
                HelpEntry {
                    usage,
                    about: spec.about.to_owned(),
                }
            })
            .collect();
        Self {
            intro: INTRO.to_owned(),
            commands,
        }
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
    fn names_and_aliases_are_unique_and_lower_case() {
        let mut words: Vec<&str> = COMMANDS
            .iter()
            .flat_map(|c| std::iter::once(c.name).chain(c.aliases.iter().copied()))
            .collect();
        assert!(words.iter().all(|w| *w == w.to_ascii_lowercase()));
        let all = words.len();
        words.sort_unstable();
        words.dedup();
        assert_eq!(words.len(), all);
        // Every name builds its command.
        for c in &COMMANDS {
            let words = vec!["x".to_owned(); c.operands.len()];
            let built = build(c.name, &words).or_else(|| build(c.name, &[]));
            assert_eq!(built.map(|b| b.name()), Some(c.name));
        }
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
