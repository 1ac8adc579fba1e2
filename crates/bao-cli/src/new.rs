//! `bao new`: a record template to fill in.
//!
//! The seven-tag roster (`Event Site Date Round South North Result`), `RuleSet`, the date of
//! today (UTC) unless `--date` is given, no moves and the result `*`; with `--position` a
//! problem (`Position` tag), with `--match` the three games of a best-of-three match. The
//! template is written canonically, so that `bao check` and `bao fmt --check` accept it.
//! Without `FILE` it goes to stdout; a `FILE` is written atomically and an existing one is
//! replaced only with `--force` (exit 2 otherwise).

use std::io::Write;
use std::path::{Path, PathBuf};

use bao_core::RuleSet;
use bao_notation::{Comment, Game, GameResult, PositionString, Record, Spanned, Tag, WriteOptions};

use bao_session::{today, valid_date};

use crate::context::{Context, Status};
use crate::error::CliError;
use crate::io::{write_file, Replace};
use crate::position::parse_position;

/// Arguments of `bao new`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The file to create; stdout if left out.
    #[arg(value_name = "FILE")]
    file: Option<PathBuf>,
    /// Replace FILE if it exists.
    #[arg(long)]
    force: bool,
    /// The rule set: a preset, optionally followed by `name=value` overrides
    /// (`"kiswahili takasia=off"`).
    #[arg(long, value_name = "RULES", default_value = "kiswahili")]
    rules: String,
    /// The `Event` tag.
    #[arg(long, value_name = "NAME", default_value = "?")]
    event: String,
    /// The `Site` tag.
    #[arg(long, value_name = "PLACE", default_value = "?")]
    site: String,
    /// The `Date` tag, `YYYY.MM.DD` (`??` for an unknown part); default: today (UTC).
    #[arg(long, value_name = "DATE")]
    date: Option<String>,
    /// The `Round` tag.
    #[arg(long, value_name = "ROUND", default_value = "?")]
    round: String,
    /// The player of South (who moves first).
    #[arg(long, value_name = "NAME", default_value = "?")]
    south: String,
    /// The player of North.
    #[arg(long, value_name = "NAME", default_value = "?")]
    north: String,
    /// A best-of-three match of this name: three games with `Match` and `Game` tags, the
    /// players changing sides after each game.
    #[arg(long = "match", value_name = "NAME")]
    match_name: Option<String>,
    /// A problem: the start position as a position string (spec/notation.md §7).
    #[arg(long, value_name = "STR")]
    position: Option<String>,
}

/// Checks a `--date` value: `YYYY.MM.DD` where any part may be question marks.
fn check_date(date: &str) -> Result<(), CliError> {
    if valid_date(date) {
        Ok(())
    } else {
        Err(CliError::Invalid {
            argument: "--date",
            message: format!(
                "`{date}` is not YYYY.MM.DD (e.g. 2026.11.29, or 2026.??.?? when unknown)"
            ),
        })
    }
}

/// The tag values must fit in a tag: one line.
fn check_one_line(argument: &'static str, value: &str) -> Result<(), CliError> {
    if value.contains(['\n', '\r']) {
        return Err(CliError::Invalid {
            argument,
            message: "a tag value must be one line".to_owned(),
        });
    }
    Ok(())
}

fn spanned<T>(value: T) -> Spanned<T> {
    Spanned::bare(value)
}

/// The template record of `args`.
fn template(args: &Args, date: &str) -> Result<Record, CliError> {
    for (argument, value) in [
        ("--event", &args.event),
        ("--site", &args.site),
        ("--round", &args.round),
        ("--south", &args.south),
        ("--north", &args.north),
        ("--rules", &args.rules),
    ] {
        check_one_line(argument, value)?;
    }
    if let Some(m) = &args.match_name {
        check_one_line("--match", m)?;
        if m.trim().is_empty() {
            return Err(CliError::Invalid {
                argument: "--match",
                message: "the match needs a name".to_owned(),
            });
        }
    }
    let rules = RuleSet::from_spec(&args.rules).map_err(|e| CliError::Invalid {
        argument: "--rules",
        message: bao_validate::words::rule_spec_error(&e),
    })?;
    let rules_text = args.rules.split_whitespace().collect::<Vec<_>>().join(" ");
    let position = match &args.position {
        Some(p) => Some(PositionString::from(&parse_position(p, rules)?).to_string()),
        None => None,
    };
    let games = match &args.match_name {
        None => 1,
        Some(_) => 3,
    };
    let mut record = Record::default();
    for n in 1..=games {
        // In a match the players change sides after every game.
        let (south, north) = if n % 2 == 1 {
            (&args.south, &args.north)
        } else {
            (&args.north, &args.south)
        };
        let mut tags = vec![
            Tag::new("Event", &args.event),
            Tag::new("Site", &args.site),
            Tag::new("Date", date),
            Tag::new("Round", &args.round),
            Tag::new("South", south),
            Tag::new("North", north),
            Tag::new("Result", "*"),
            Tag::new("RuleSet", &rules_text),
        ];
        if let Some(p) = &position {
            tags.push(Tag::new("Position", p));
        }
        let mut comments = Vec::new();
        if let Some(m) = &args.match_name {
            tags.push(Tag::new("Match", m.trim()));
            tags.push(Tag::new("Game", &n.to_string()));
            if n == 3 {
                comments.push(spanned(Comment::brace(
                    "Game 3 is played only when games 1 and 2 are split; delete it otherwise.",
                )));
            }
        }
        record.games.push(spanned(Game {
            comments,
            tags: tags.into_iter().map(spanned).collect(),
            movetext: Vec::new(),
            result: Some(spanned(GameResult::Unknown)),
        }));
    }
    Ok(record)
}

/// Writes `bytes` to a new file at `path` atomically ([`crate::io::write_file`]); an existing
/// file is replaced only when `force` is set.
fn write_new(path: &Path, bytes: &[u8], force: bool) -> Result<(), CliError> {
    let exists = || {
        CliError::Usage(format!(
            "{} exists; use --force to replace it",
            path.display()
        ))
    };
    if !force && path.exists() {
        return Err(exists());
    }
    let replace = if force { Replace::Yes } else { Replace::No };
    write_file(path, bytes, replace).map_err(|e| {
        if e.kind() == std::io::ErrorKind::AlreadyExists {
            // Another process created the file since the check above: never clobber it.
            exists()
        } else {
            CliError::io(format!("cannot write {}", path.display()), e)
        }
    })
}

/// Runs `bao new`.
pub(crate) fn run(args: &Args, _ctx: &Context) -> Result<Status, CliError> {
    let date = match &args.date {
        Some(d) => {
            check_date(d)?;
            d.clone()
        }
        None => today(),
    };
    let record = template(args, &date)?;
    let text = bao_notation::write_record(&record, &WriteOptions::default());
    match &args.file {
        Some(path) => write_new(path, text.as_bytes(), args.force)?,
        None => std::io::stdout()
            .lock()
            .write_all(text.as_bytes())
            .map_err(|e| CliError::io("cannot write to stdout", e))?,
    }
    Ok(Status::Success)
}
