//! `bao record [FILE]`: record a live game (or a best-of-three match) move by move.
//!
//! A new file starts with questions for the tags (each with its default; flags answer them
//! beforehand, `--yes` takes every default). A file holding an unfinished game (result `*`)
//! resumes it; a file whose match is not decided starts the match's next game. Before every
//! move prompt the board is shown with the side to move, the stage and the hands. Moves are
//! read as `bao check` reads them (canonical or K.I.B.A. dialect, the `Directions` tag
//! honoured); an illegal move is refused with the validator's diagnostic and the legal
//! moves; a move that leaves a decision open (which kichwa, which direction, stop at the
//! house or safari) is completed by a question. Commands are listed by `help` ([`HELP`]).
//!
//! The file is the canonical text of the record at every moment (see `store.rs`): each
//! accepted ply is written before the next prompt and `fsync`'ed, an unfinished game ends
//! with the result `*`, and `bao check` accepts the file whenever it is looked at.
//!
//! On a terminal the line editor is rustyline (history, editing keys; Ctrl-C cancels the
//! line, a second Ctrl-C or Ctrl-D at an empty prompt leaves). Without a terminal the lines
//! come from stdin one by one, each echoed after its prompt; the end of the input leaves as
//! Ctrl-D does.
//!
//! Exit codes: 0 when the session ends (game over, match over, or left to be resumed), 1 when
//! FILE is not a valid record (its diagnostics are shown, the file is left alone), 2 when
//! FILE cannot be written or the arguments are unusable.

mod input;
mod store;

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;

use bao_core::{Move, MoveSpec, Position, RuleSet, Side, Sign, Stage};
use bao_export::{board_text, Overlay, TextOptions};
use bao_notation::{
    parse_record, write_record, Comment, Directions, Element, Game, GameResult, MoveItem,
    MoveToken, Nag, Record, Spanned, Tag, WriteOptions,
};
use bao_validate::{check_bytes, check_text, AnyDiagnostic, CheckOptions, CheckReport};
use miette::{GraphicalReportHandler, GraphicalTheme};

use crate::error::CliError;
use crate::{Color, Context, Status};

use input::{Line, Prompter};
use store::Store;

/// The commands of the move prompt, as `help` prints them.
pub(crate) const HELP: &str = "\
Type a move (canonical `A6<*`, `a5>+`, or K.I.B.A. `A6L*`; a sign or `*` the position forces
may be left out; a glyph may follow: `A6<*!`), or a command:
  undo                  take back the last ply
  comment TEXT          add a comment after the last ply (also `{TEXT}`)
  ! ? !! ?? !? ?!       a glyph for the last ply ($N for a numeric NAG)
  resign [south|north]  the side to move (or the side named) resigns
  time [south|north]    the side to move (or the side named) loses on time
  draw                  a draw by agreement, where the rules know draws
  tag NAME VALUE        set a tag (`tags` lists them)
  board                 show the board again
  legal                 list the legal moves
  help                  this list
  quit                  leave; `bao record FILE` resumes the game
Ctrl-C cancels the line; a second Ctrl-C or Ctrl-D at an empty prompt leaves.";

/// Tags the session keeps for itself: they cannot be set with `tag`.
const OWN_TAGS: [&str; 8] = [
    "Result",
    "Termination",
    "RuleSet",
    "Rules",
    "Position",
    "Directions",
    "Match",
    "Game",
];

/// Arguments of `bao record`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The record file: a new file, or one whose last game is unfinished (resumed), or
    /// whose match goes on. Default: `bao-YYYY-MM-DD.bao` with today's date.
    ///
    /// Without a terminal the moves and answers are read from stdin, one per line.
    #[arg(value_name = "FILE")]
    file: Option<PathBuf>,
    /// Take the default answer of every question not answered by a flag.
    #[arg(short, long)]
    yes: bool,
    /// The Event tag.
    #[arg(long, value_name = "TEXT")]
    event: Option<String>,
    /// The Site tag.
    #[arg(long, value_name = "TEXT")]
    site: Option<String>,
    /// The Date tag, `YYYY.MM.DD` (default: today, UTC).
    #[arg(long, value_name = "DATE")]
    date: Option<String>,
    /// The Round tag.
    #[arg(long, value_name = "TEXT")]
    round: Option<String>,
    /// South's player.
    #[arg(long, value_name = "NAME")]
    south: Option<String>,
    /// North's player.
    #[arg(long, value_name = "NAME")]
    north: Option<String>,
    /// The rule set: a preset and optional `name=value` overrides (the RuleSet tag).
    #[arg(long, value_name = "RULES")]
    rules: Option<String>,
    /// Start from this position string (the Position tag) instead of the start position.
    #[arg(long, value_name = "POSITION")]
    position: Option<String>,
    /// Record a best-of-three match with this name (the Match tag).
    #[arg(long = "match", value_name = "NAME", conflicts_with = "single")]
    match_name: Option<String>,
    /// Record a single game (no match question).
    #[arg(long)]
    single: bool,
}

/// Prints a line on stdout; a closed stdout is not worth a panic.
macro_rules! say {
    ($($arg:tt)*) => {{
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, $($arg)*);
        let _ = out.flush();
    }};
}

/// Runs `bao record`.
pub(crate) fn run(args: &Args, ctx: &Context) -> Result<Status, CliError> {
    let path = args
        .file
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("bao-{}.bao", today().replace('.', "-"))));
    let name = path.display().to_string();
    let date = args.date.clone().unwrap_or_else(today);
    if !valid_date(&date) {
        return Err(CliError::Usage(format!(
            "--date {date}: write the date as YYYY.MM.DD (`??` for an unknown part)"
        )));
    }
    // The file as it is: missing, empty, or a record to resume.
    let existing = match std::fs::read(&path) {
        Ok(bytes) => Some(bytes),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(CliError::io(format!("cannot read {name}"), e)),
    };
    let colour = colour(ctx.color);
    let mut record = Record::default();
    let mut text = None;
    if let Some(bytes) = &existing {
        let checked = check_bytes(&name, bytes, &CheckOptions::default());
        let report = &checked.report;
        if !report.is_valid() {
            eprint!("{}", render(report, colour));
            eprintln!("bao record: {name} is not a valid record; it was left as it is");
            return Ok(Status::Invalid);
        }
        record = checked.record;
        text = Some(String::from_utf8_lossy(bytes).into_owned());
    }
    let store =
        Store::open(&path, text).map_err(|e| CliError::io(format!("cannot write {name}"), e))?;
    let input = input::for_stdin().map_err(|e| CliError::io("cannot use the terminal", e))?;
    let mut session = Session {
        name,
        store,
        record,
        input,
        colour,
        yes: args.yes,
        positions: Vec::new(),
        rules: RuleSet::KISWAHILI,
        directions: Directions::Mover,
        cancelled: false,
    };
    session.start(args, &date)
}

/// Whether messages on stdout are coloured.
fn colour(color: Color) -> bool {
    match color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::io::stdout().is_terminal()
        }
    }
}

/// A report rendered as `bao check` renders it.
fn render(report: &CheckReport, colour: bool) -> String {
    let theme = if colour {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let mut out = String::new();
    let _ = GraphicalReportHandler::new_themed(theme)
        .with_links(false)
        .render_report(&mut out, report);
    out
}

/// Today's date (UTC) as the Date tag writes it.
fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_from_days(i64::try_from(secs / 86_400).unwrap_or(0));
    format!("{y:04}.{m:02}.{d:02}")
}

/// The proleptic Gregorian date of a day count from 1970-01-01.
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = u32::try_from(doy - (153 * mp + 2) / 5 + 1).unwrap_or(1);
    let m = u32::try_from(if mp < 10 { mp + 3 } else { mp - 9 }).unwrap_or(1);
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// `YYYY.MM.DD`, any part possibly `?`s.
fn valid_date(s: &str) -> bool {
    let parts: Vec<&str> = s.split('.').collect();
    parts.len() == 3
        && [4, 2, 2].iter().zip(&parts).all(|(n, p)| {
            p.len() == *n && (p.bytes().all(|b| b.is_ascii_digit()) || p.bytes().all(|b| b == b'?'))
        })
}

/// What a game prompt led to.
enum Flow {
    /// Go on with the next prompt.
    Continue,
    /// The game ended (its result is written).
    GameOver,
    /// Leave the session (the file is complete up to the last ply).
    Leave,
}

/// A recording session: the record in memory, its file, the current game's positions.
struct Session {
    name: String,
    store: Store,
    record: Record,
    input: Box<dyn Prompter>,
    colour: bool,
    yes: bool,
    /// The current game's start and the position after each ply of its main line.
    positions: Vec<Position>,
    rules: RuleSet,
    directions: Directions,
    /// The last prompt was cancelled with Ctrl-C.
    cancelled: bool,
}

/// Why the session stopped early.
enum Stop {
    /// The user left (Ctrl-C twice, Ctrl-D, `quit`).
    Left,
    /// An error that ends the command.
    Error(CliError),
}

impl From<CliError> for Stop {
    fn from(e: CliError) -> Self {
        Stop::Error(e)
    }
}

impl Session {
    /// The index of the current game: the last entry that is a game (comments after the
    /// last result form an entry of their own, kept where it is).
    fn current(&self) -> usize {
        let games = &self.record.games;
        games
            .iter()
            .rposition(|g| bao_notation::meaning::is_game(&g.value))
            .unwrap_or(games.len().saturating_sub(1))
    }

    fn game(&self) -> &Game {
        &self.record.games[self.current()].value
    }

    fn game_mut(&mut self) -> &mut Game {
        let i = self.current();
        &mut self.record.games[i].value
    }

    fn pos(&self) -> &Position {
        self.positions.last().expect("a game has a start")
    }

    fn save(&mut self) -> Result<(), CliError> {
        self.store
            .save(&self.record)
            .map(|_| ())
            .map_err(|e| CliError::io(format!("cannot write {}", self.name), e))
    }

    /// Sets up or resumes, then records until the game or match is over or the user leaves.
    fn start(&mut self, args: &Args, date: &str) -> Result<Status, CliError> {
        let resumed = self
            .record
            .games
            .iter()
            .any(|g| bao_notation::meaning::is_game(&g.value));
        let step = if resumed {
            self.resume()
        } else {
            self.new_game(args, date)
        };
        match step {
            Ok(true) => {}
            Ok(false) => return Ok(Status::Success),
            Err(Stop::Left) => {
                say!("Nothing written.");
                return Ok(Status::Success);
            }
            Err(Stop::Error(e)) => return Err(e),
        }
        loop {
            match self.play_game() {
                Ok(true) => {}
                Ok(false) => return Ok(Status::Success),
                Err(Stop::Left) => {
                    self.left();
                    return Ok(Status::Success);
                }
                Err(Stop::Error(e)) => return Err(e),
            }
        }
    }

    fn left(&self) {
        let plies = self.positions.len().saturating_sub(1);
        say!(
            "Saved {} with {plies} pl{} of this game. Resume with: bao record {}",
            self.name,
            if plies == 1 { "y" } else { "ies" },
            shell_word(&self.name)
        );
    }

    /// Reads one line; Ctrl-C cancels it, a second Ctrl-C (or Ctrl-D) at once leaves.
    fn read(&mut self, prompt: &str) -> Result<Option<String>, Stop> {
        match self
            .input
            .read(prompt)
            .map_err(|e| CliError::io("cannot read the terminal", e))?
        {
            Line::Text(t) => {
                self.cancelled = false;
                Ok(Some(t))
            }
            Line::Interrupted if !self.cancelled => {
                self.cancelled = true;
                say!("(cancelled; Ctrl-C again or Ctrl-D leaves)");
                Ok(None)
            }
            Line::Interrupted | Line::Eof => Err(Stop::Left),
        }
    }

    /// Asks a question with a default; `check` turns the answer into the value or says why
    /// not (then the question is asked again).
    fn ask(
        &mut self,
        question: &str,
        preset: Option<&str>,
        default: &str,
        check: &dyn Fn(&str) -> Result<String, String>,
    ) -> Result<String, Stop> {
        if let Some(v) = preset {
            return check(v)
                .map_err(|why| Stop::Error(CliError::Usage(format!("{question}: {why}"))));
        }
        if self.yes {
            return check(default)
                .map_err(|why| Stop::Error(CliError::Usage(format!("{question}: {why}"))));
        }
        loop {
            let Some(answer) = self.read(&format!("{question} [{default}]: "))? else {
                continue;
            };
            let answer = answer.trim();
            let answer = if answer.is_empty() { default } else { answer };
            match check(answer) {
                Ok(v) => return Ok(v),
                Err(why) => say!("{why}"),
            }
        }
    }

    /// Asks the tags of a new file and writes its first game.
    fn new_game(&mut self, args: &Args, date: &str) -> Result<bool, Stop> {
        say!("New record {}.", self.name);
        let any = |s: &str| Ok(s.to_owned());
        let event = self.ask("Event", args.event.as_deref(), "Casual game", &any)?;
        let site = self.ask("Site", args.site.as_deref(), "?", &any)?;
        let date = self.ask("Date", args.date.as_deref(), date, &|s: &str| {
            if valid_date(s) {
                Ok(s.to_owned())
            } else {
                Err("Write the date as YYYY.MM.DD (`??` for an unknown part).".to_owned())
            }
        })?;
        let round = self.ask("Round", args.round.as_deref(), "1", &any)?;
        let south = self.ask("South", args.south.as_deref(), "Player 1", &any)?;
        let north = self.ask("North", args.north.as_deref(), "Player 2", &any)?;
        let rules = self.ask("RuleSet", args.rules.as_deref(), "kiswahili", &|s: &str| {
            let mut g = Game::default();
            g.tags.push(Spanned::bare(Tag::new("RuleSet", s)));
            match bao_notation::meaning::game_rules(&g).ok() {
                Some(_) => Ok(s.trim().to_owned()),
                None => Err(format!(
                    "Unknown rule set `{s}`: the presets are {}, optionally followed by \
                     name=value overrides.",
                    bao_core::PRESET_NAMES.join(", ")
                )),
            }
        })?;
        let match_name = if args.single {
            None
        } else if let Some(m) = &args.match_name {
            Some(m.clone())
        } else {
            let yes = self.ask("Best-of-three match? (y/n)", None, "n", &|s: &str| match s
                .to_ascii_lowercase()
                .as_str()
            {
                "y" | "yes" => Ok("y".to_owned()),
                "n" | "no" => Ok("n".to_owned()),
                _ => Err("Answer y or n.".to_owned()),
            })?;
            if yes == "y" {
                let default = format!("{event} {date}");
                Some(self.ask("Match name", None, &default, &any)?)
            } else {
                None
            }
        };
        if match_name.is_some() && south == north {
            return Err(Stop::Error(CliError::Usage(format!(
                "a match needs two players with different names (both are `{south}`)"
            ))));
        }
        let mut tags = vec![
            ("Event", event),
            ("Site", site),
            ("Date", date),
            ("Round", round),
            ("South", south),
            ("North", north),
            ("Result", "*".to_owned()),
            ("RuleSet", rules),
        ];
        if let Some(p) = &args.position {
            tags.push(("Position", p.clone()));
        }
        if let Some(m) = match_name {
            tags.push(("Match", m));
            tags.push(("Game", "1".to_owned()));
        }
        let mut game = Game::default();
        for (n, v) in tags {
            game.tags.push(Spanned::bare(Tag::new(n, &v)));
        }
        game.result = Some(Spanned::bare(GameResult::Unknown));
        if args.position.is_some() {
            let rules = bao_notation::meaning::game_rules(&game).unwrap_or(RuleSet::KISWAHILI);
            if bao_notation::meaning::game_start(&game, rules).is_err() {
                return Err(Stop::Error(CliError::Invalid {
                    argument: "--position",
                    message: "not a valid start position for this rule set (see `bao check` \
                              on a record with this Position tag for the reasons)"
                        .to_owned(),
                }));
            }
        }
        self.record.games.push(Spanned::bare(game));
        self.save()?;
        self.enter_game()?;
        say!("Recording to {}. Type `help` for the commands.", self.name);
        Ok(true)
    }

    /// Resumes the last game of a valid record, or starts its match's next game.
    fn resume(&mut self) -> Result<bool, Stop> {
        self.enter_game()?;
        let over = self
            .game()
            .result
            .as_ref()
            .is_some_and(|r| r.value != GameResult::Unknown);
        if !over {
            if let Some(outcome) = self.pos().outcome() {
                // The rules ended the game but its result was not written yet.
                self.finish(bao_validate_result(outcome.winner), outcome.reason.name())?;
                return self.after_game();
            }
            say!(
                "Resuming {} at ply {}. Type `help` for the commands.",
                self.name,
                self.positions.len() - 1
            );
            return Ok(true);
        }
        if self.game().tag("Match").is_some() {
            return self.after_game();
        }
        Err(Stop::Error(CliError::Usage(format!(
            "{} holds finished games only; give another file name to record a new game",
            self.name
        ))))
    }

    /// Reads the current (last) game: rules, start, its main line replayed.
    fn enter_game(&mut self) -> Result<(), CliError> {
        let game = self.game();
        let rules = bao_notation::meaning::game_rules(game)
            .ok()
            .ok_or_else(|| CliError::Internal("the game's rules do not read".to_owned()))?;
        let start = bao_notation::meaning::game_start(game, rules)
            .ok()
            .ok_or_else(|| CliError::Internal("the game's start does not read".to_owned()))?;
        let directions = game.directions();
        let mut positions = vec![start];
        for item in game.main_line() {
            let pos = positions.last().copied().unwrap_or(start);
            let mv = bao_replay::written_spec(&pos, item, directions)
                .ok()
                .and_then(|spec| pos.resolve(&spec).ok())
                .ok_or_else(|| {
                    CliError::Internal(format!("{} does not replay", item.token.value))
                })?;
            positions.push(pos.play_fast(&mv));
        }
        self.rules = rules;
        self.directions = directions;
        self.positions = positions;
        Ok(())
    }

    /// The players as the current game's tags name them.
    fn players(&self) -> (String, String) {
        let tag = |n: &str| {
            self.game()
                .tag(n)
                .map(|t| t.value.clone())
                .unwrap_or_else(|| n.to_owned())
        };
        (tag("South"), tag("North"))
    }

    fn show_board(&self) {
        let (south, north) = self.players();
        let mut opts = TextOptions::default();
        opts.names.south = Some(south);
        opts.names.north = Some(north);
        say!("\n{}", board_text(self.pos(), &opts).trim_end());
    }

    /// The move prompt: `12. South> ` or `12... North> `.
    fn prompt(&self) -> String {
        let plies = self.positions.len() - 1;
        let first = self.positions[0].to_move();
        let offset = usize::from(first == Side::North);
        let turn = (plies + offset) / 2 + 1;
        match self.pos().to_move() {
            Side::South => format!("{turn}. South> "),
            Side::North => format!("{turn}... North> "),
        }
    }

    /// Records one game; `Ok(true)` when a match goes on with its next game.
    fn play_game(&mut self) -> Result<bool, Stop> {
        self.show_board();
        loop {
            let prompt = self.prompt();
            let Some(line) = self.read(&prompt)? else {
                continue;
            };
            match self.command(line.trim())? {
                Flow::Continue => {}
                Flow::GameOver => return self.after_game(),
                Flow::Leave => return Err(Stop::Left),
            }
        }
    }

    /// One line at the move prompt.
    fn command(&mut self, line: &str) -> Result<Flow, Stop> {
        let (word, rest) = match line.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (line, ""),
        };
        let lower = word.to_ascii_lowercase();
        match lower.as_str() {
            "" => Ok(Flow::Continue),
            "help" | "h" => {
                say!("{HELP}");
                Ok(Flow::Continue)
            }
            "quit" | "exit" | "q" => Ok(Flow::Leave),
            "board" | "b" if rest.is_empty() => {
                self.show_board();
                Ok(Flow::Continue)
            }
            "legal" | "l" if rest.is_empty() => {
                say!("Legal moves: {}", move_list(&self.pos().legal_moves()));
                Ok(Flow::Continue)
            }
            "undo" | "u" if rest.is_empty() => self.undo(),
            "comment" | "c" => self.comment(rest),
            "resign" | "time" => self.loss(&lower, rest),
            "draw" if rest.is_empty() => self.draw(),
            "tag" => self.set_tag(rest),
            "tags" => {
                for t in &self.game().tags {
                    say!("[{} \"{}\"]", t.value.name.value, t.value.value.value);
                }
                Ok(Flow::Continue)
            }
            _ if line.starts_with('{') => {
                let inner = line.trim_start_matches('{').trim_end_matches('}');
                self.comment(inner.trim())
            }
            _ if Nag::from_glyph(line).is_some() || line.starts_with('$') => self.glyph(line),
            _ => self.try_move(line),
        }
    }

    /// Takes back the last ply of the current game (and what follows it in the movetext).
    fn undo(&mut self) -> Result<Flow, Stop> {
        let game = self.game_mut();
        let Some(at) = game
            .movetext
            .iter()
            .rposition(|e| matches!(e.value, Element::Move(_)))
        else {
            say!("Nothing to undo: no ply recorded in this game.");
            return Ok(Flow::Continue);
        };
        let removed = game.movetext.drain(at..).next().map(|e| match e.value {
            Element::Move(m) => m.token.value.to_string(),
            _ => String::new(),
        });
        self.save()?;
        self.positions.pop();
        say!("Took back {}.", removed.unwrap_or_default());
        self.show_board();
        Ok(Flow::Continue)
    }

    fn comment(&mut self, text: &str) -> Result<Flow, Stop> {
        if text.is_empty() {
            say!("Write the comment after the word: comment TEXT");
            return Ok(Flow::Continue);
        }
        if text.contains(['{', '}']) {
            say!("A comment cannot hold `{{` or `}}`.");
            return Ok(Flow::Continue);
        }
        self.game_mut()
            .movetext
            .push(Spanned::bare(Element::Comment(Comment::brace(text))));
        self.save()?;
        say!("Comment added.");
        Ok(Flow::Continue)
    }

    fn glyph(&mut self, text: &str) -> Result<Flow, Stop> {
        let nag = Nag::from_glyph(text).or_else(|| {
            text.strip_prefix('$')
                .and_then(|n| n.parse::<u8>().ok())
                .map(Nag)
        });
        let Some(nag) = nag else {
            say!("`{text}` is no glyph: use ! ? !! ?? !? ?! or $0..$255.");
            return Ok(Flow::Continue);
        };
        let last = self
            .game_mut()
            .movetext
            .iter_mut()
            .rev()
            .find_map(|e| match &mut e.value {
                Element::Move(m) => Some(m),
                _ => None,
            });
        let Some(item) = last else {
            say!("A glyph follows a ply: record a move first.");
            return Ok(Flow::Continue);
        };
        item.nags.push(Spanned::bare(nag));
        let token = item.token.value;
        self.save()?;
        say!("{token} marked {text}.");
        Ok(Flow::Continue)
    }

    /// `resign [side]` or `time [side]`: that side loses outside the rules.
    fn loss(&mut self, what: &str, rest: &str) -> Result<Flow, Stop> {
        let side = match rest.to_ascii_lowercase().as_str() {
            "" => self.pos().to_move(),
            "south" | "s" => Side::South,
            "north" | "n" => Side::North,
            _ => {
                say!("`{what}` takes `south`, `north` or nothing (the side to move).");
                return Ok(Flow::Continue);
            }
        };
        let termination = if what == "resign" {
            "resignation"
        } else {
            "time_forfeit"
        };
        self.finish(bao_validate_result(Some(side.opponent())), termination)?;
        Ok(Flow::GameOver)
    }

    fn draw(&mut self) -> Result<Flow, Stop> {
        if self.rules.endless_move != bao_core::EndlessMove::Draw {
            say!(
                "These rules know no draw (E3): a game ends when a player cannot move or his \
                 front row is empty. Record a resignation or a loss on time instead."
            );
            return Ok(Flow::Continue);
        }
        self.finish(GameResult::Draw, "agreement")?;
        Ok(Flow::GameOver)
    }

    fn set_tag(&mut self, rest: &str) -> Result<Flow, Stop> {
        let (name, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        let value = value.trim().trim_matches('"');
        let valid_name = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !valid_name {
            say!("Write: tag NAME VALUE (a name of letters, digits and `_`).");
            return Ok(Flow::Continue);
        }
        let canonical = bao_notation::KNOWN_TAGS
            .iter()
            .find(|k| k.eq_ignore_ascii_case(name))
            .map_or(name, |k| *k)
            .to_owned();
        if OWN_TAGS.contains(&canonical.as_str()) {
            say!("{canonical} is kept by the recorder and cannot be changed during a game.");
            return Ok(Flow::Continue);
        }
        let mut record = self.record.clone();
        if let Some(g) = record.games.get_mut(self.current()) {
            let game = &mut g.value;
            match game
                .tags
                .iter_mut()
                .find(|t| t.value.name.value == canonical)
            {
                Some(t) => t.value.value.value = value.to_owned(),
                None => game.tags.push(Spanned::bare(Tag::new(&canonical, value))),
            }
        }
        // The file stays a valid record: a change the validator objects to (players that
        // differ from the match's earlier games) is refused.
        let text = write_record(&record, &WriteOptions::default());
        let report = check_text(&self.name, Arc::from(text), &CheckOptions::default());
        if !report.is_valid() {
            say!("{}", render(&report, self.colour).trim_end());
            say!("The tag was not changed.");
            return Ok(Flow::Continue);
        }
        self.record = record;
        self.save()?;
        say!("[{canonical} \"{value}\"]");
        Ok(Flow::Continue)
    }

    /// A line that should be a move.
    fn try_move(&mut self, line: &str) -> Result<Flow, Stop> {
        let item = match read_move(line) {
            Ok(item) => item,
            Err(why) => {
                say!("{why}");
                return Ok(Flow::Continue);
            }
        };
        let pos = *self.pos();
        let spec = bao_replay::written_spec(&pos, &item, self.directions).ok();
        let candidates: Vec<Move> = match spec {
            Some(spec) => pos
                .legal_moves()
                .into_iter()
                .filter(|m| fits(&spec, m))
                .collect(),
            None => Vec::new(),
        };
        if candidates.is_empty() {
            self.explain_illegal(&item);
            return Ok(Flow::Continue);
        }
        let Some(mv) = self.decide(&pos, candidates)? else {
            say!("Move cancelled.");
            return Ok(Flow::Continue);
        };
        let (next, trace) = pos
            .play(&mv)
            .map_err(|e| CliError::Internal(format!("a legal move did not play: {e}")))?;
        let mut token = MoveToken::from(mv);
        token.claims_takasia = trace.takasia_set().is_some();
        token.claims_win = trace.outcome.is_some_and(|o| o.winner == Some(trace.mover));
        let mut new = MoveItem::new(token);
        new.nags = item.nags;
        self.game_mut()
            .movetext
            .push(Spanned::bare(Element::Move(new)));
        self.positions.push(next);
        say!("{}", Overlay::from_trace(&pos, &trace).summary(&self.rules));
        if let Some(o) = trace.outcome {
            self.finish(bao_validate_result(o.winner), o.reason.name())?;
            return Ok(Flow::GameOver);
        }
        self.save()?;
        self.show_board();
        Ok(Flow::Continue)
    }

    /// Prints the validator's diagnostic for a move that is not legal here, as `bao check`
    /// would print it for the record with that move appended, and the legal moves.
    fn explain_illegal(&self, item: &MoveItem) {
        let mut record = self.record.clone();
        if let Some(g) = record.games.get_mut(self.current()) {
            g.value
                .movetext
                .push(Spanned::bare(Element::Move(item.clone())));
        }
        let before = write_record(&self.record, &WriteOptions::default());
        let text = write_record(&record, &WriteOptions::default());
        let from = before
            .bytes()
            .zip(text.bytes())
            .take_while(|(a, b)| a == b)
            .count();
        let mut report = check_text(&self.name, Arc::from(text), &CheckOptions::default());
        report
            .diagnostics
            .retain(|d: &AnyDiagnostic| d.span().is_some_and(|s| s.start >= from));
        report.stats.errors = report.diagnostics.iter().filter(|d| d.is_error()).count();
        report.stats.warnings = report.diagnostics.len() - report.stats.errors;
        if report.diagnostics.is_empty() {
            say!("{} is not a legal move here.", item.token.value);
        } else {
            say!("{}", render(&report, self.colour).trim_end());
        }
        say!("Legal moves: {}", move_list(&self.pos().legal_moves()));
    }

    /// Settles the decisions a written move leaves open: the sign (kichwa or direction),
    /// then stop at the house or safari. `None`: cancelled.
    fn decide(&mut self, pos: &Position, mut moves: Vec<Move>) -> Result<Option<Move>, Stop> {
        let names = self.rules.names();
        let mut signs: Vec<Sign> = moves.iter().map(|m| m.sign).collect();
        signs.dedup();
        if signs.len() > 1 {
            let namua_capture = pos.stage() == Stage::Namua && moves[0].is_capture();
            let question = if namua_capture {
                format!("{} captures from either kichwa. Which one?", moves[0].pit)
            } else {
                format!("{} can be sown either way. Which direction?", moves[0].pit)
            };
            let options: Vec<(String, String, Vec<Move>)> = signs
                .iter()
                .map(|&s| {
                    let group: Vec<Move> = moves.iter().copied().filter(|m| m.sign == s).collect();
                    let word = match (namua_capture, s) {
                        (true, Sign::Left) => "the left kichwa",
                        (true, Sign::Right) => "the right kichwa",
                        (false, Sign::Left) => "to the left",
                        (false, Sign::Right) => "to the right",
                    };
                    let key = s.as_char().to_string();
                    let about = format!("{word}: {}", effect(pos, &group[0], &self.rules));
                    (key, about, group)
                })
                .collect();
            match self.choose(&question, options)? {
                Some(g) => moves = g,
                None => return Ok(None),
            }
        }
        if moves.len() > 1 {
            let question = format!(
                "{} reaches the {}. Stop there, or safari?",
                moves[0].pit, names.nyumba
            );
            let options = moves
                .iter()
                .map(|m| {
                    let (key, word) = if m.is_safari() {
                        ("safari", format!("safari: sow the {} on", names.nyumba))
                    } else {
                        ("stop", format!("stop at the {}", names.nyumba))
                    };
                    (
                        key.to_owned(),
                        format!("{word}: {}", effect(pos, m, &self.rules)),
                        vec![*m],
                    )
                })
                .collect();
            match self.choose(&question, options)? {
                Some(g) => moves = g,
                None => return Ok(None),
            }
        }
        Ok(moves.first().copied())
    }

    /// A numbered question; the answer is the number, the key, or the move itself.
    fn choose(
        &mut self,
        question: &str,
        options: Vec<(String, String, Vec<Move>)>,
    ) -> Result<Option<Vec<Move>>, Stop> {
        say!("{question}");
        for (i, (_, about, group)) in options.iter().enumerate() {
            say!("  {}) {:<8} {about}", i + 1, group[0].to_string());
        }
        loop {
            let Some(answer) =
                self.read(&format!("Choose 1-{} (empty cancels): ", options.len()))?
            else {
                return Ok(None);
            };
            let a = answer.trim();
            if a.is_empty() {
                return Ok(None);
            }
            let lower = a.to_ascii_lowercase();
            let hit = options.iter().enumerate().find(|(i, (key, _, group))| {
                lower == (i + 1).to_string()
                    || lower == *key
                    || (key.len() == 1 && lower == sign_word(key))
                    || (key == "safari" && lower == "+")
                    || group.iter().any(|m| m.to_string().eq_ignore_ascii_case(a))
            });
            match hit {
                Some((_, (_, _, group))) => return Ok(Some(group.clone())),
                None => say!("Answer with a number from 1 to {}.", options.len()),
            }
        }
    }

    /// Writes the current game's result and Termination.
    fn finish(&mut self, result: GameResult, termination: &str) -> Result<(), CliError> {
        let game = self.game_mut();
        game.result = Some(Spanned::bare(result));
        for (name, value) in [("Result", result.as_str()), ("Termination", termination)] {
            match game.tags.iter_mut().find(|t| t.value.name.value == name) {
                Some(t) => t.value.value.value = value.to_owned(),
                None => game.tags.push(Spanned::bare(Tag::new(name, value))),
            }
        }
        self.save()?;
        let (south, north) = self.players();
        let words = match result.winner() {
            Some(Side::South) => format!("{south} (South) wins"),
            Some(Side::North) => format!("{north} (North) wins"),
            None => "drawn".to_owned(),
        };
        say!(
            "\nGame over: {result}, {words} ({}).",
            termination.replace('_', " ")
        );
        Ok(())
    }

    /// After a game: the match score, and the next game if the match goes on.
    fn after_game(&mut self) -> Result<bool, Stop> {
        let Some(name) = self.game().tag("Match").map(|t| t.value.clone()) else {
            say!("Saved {}.", self.name);
            return Ok(false);
        };
        let games: Vec<&Game> = self
            .record
            .games
            .iter()
            .map(|g| &g.value)
            .filter(|g| {
                g.tag("Match")
                    .is_some_and(|m| m.value.trim() == name.trim())
            })
            .collect();
        // The score lists the players as they sat in the match's first game.
        let mut score: Vec<(String, u32)> = Vec::new();
        for side in ["South", "North"] {
            if let Some(t) = games.first().and_then(|g| g.tag(side)) {
                score.push((t.value.clone(), 0));
            }
        }
        let (south, north) = self.players();
        for g in &games {
            let winner = g
                .result
                .as_ref()
                .and_then(|r| r.value.winner())
                .and_then(|s| {
                    g.tag(match s {
                        Side::South => "South",
                        Side::North => "North",
                    })
                })
                .map(|t| t.value.clone());
            if let Some(w) = winner {
                match score.iter_mut().find(|(p, _)| *p == w) {
                    Some(e) => e.1 += 1,
                    None => score.push((w, 1)),
                }
            }
        }
        let played = games.len();
        let line = score
            .iter()
            .map(|(p, n)| format!("{p} {n}"))
            .collect::<Vec<_>>()
            .join(", ");
        if let Some((winner, _)) = score.iter().find(|(_, n)| *n >= 2) {
            say!(
                "Match over after {played} games: {winner} wins ({line}). Saved {}.",
                self.name
            );
            return Ok(false);
        }
        if played >= 3 {
            say!(
                "Match over after 3 games, undecided ({line}). Saved {}.",
                self.name
            );
            return Ok(false);
        }
        say!("Match score after game {played}: {line}.");
        // The next game: the players change seats, so the other one moves first.
        let last = self.game().clone();
        let next = played + 1;
        say!("\nGame {next} of the match.");
        let any = |s: &str| Ok(s.to_owned());
        let new_south = self.ask(&format!("South in game {next}"), None, &north, &any)?;
        let other = if new_south == north {
            south.clone()
        } else {
            north.clone()
        };
        let new_north = self.ask(&format!("North in game {next}"), None, &other, &any)?;
        let mut game = Game::default();
        for t in &last.tags {
            let n = t.value.name.value.as_str();
            let value = match n {
                "South" => new_south.clone(),
                "North" => new_north.clone(),
                "Result" => "*".to_owned(),
                "Game" => next.to_string(),
                "Termination" => continue,
                _ => t.value.value.value.clone(),
            };
            game.tags.push(Spanned::bare(Tag::new(n, &value)));
        }
        game.result = Some(Spanned::bare(GameResult::Unknown));
        self.record.games.push(Spanned::bare(game));
        self.save()?;
        self.enter_game()?;
        Ok(true)
    }
}

/// The result token for a winner (`None`: a draw).
fn bao_validate_result(winner: Option<Side>) -> GameResult {
    match winner {
        Some(Side::South) => GameResult::SouthWins,
        Some(Side::North) => GameResult::NorthWins,
        None => GameResult::Draw,
    }
}

/// Reads a line as one move in the record format (number, token, glyphs), or says why not.
fn read_move(line: &str) -> Result<MoveItem, String> {
    let parsed = parse_record(&format!("{line}\n*\n"));
    if let Some(e) = parsed.errors.iter().find(|e| e.is_error()) {
        return Err(format!(
            "`{line}` is neither a move nor a command: {}. Type `help` for the commands.",
            e.message
        ));
    }
    let mut games = parsed.record.games.into_iter();
    let only = match (games.next(), games.next()) {
        (Some(g), None) => Some(g.value),
        _ => None,
    };
    let item = only.filter(|g| g.tags.is_empty()).and_then(|g| {
        let mut it = g.movetext.into_iter();
        match (it.next(), it.next()) {
            (
                Some(Spanned {
                    value: Element::Move(m),
                    ..
                }),
                None,
            ) => Some(m),
            _ => None,
        }
    });
    match item {
        Some(m) if m.annotation.is_some() => Err(
            "Type the move without a lap/capture annotation: the engine knows what it does."
                .to_owned(),
        ),
        Some(m) => Ok(m),
        None => Err(format!(
            "`{line}` is not one move. Type a move such as A6<* or a5>, or `help`; a result is \
             recorded with `resign`, `time` or `draw`."
        )),
    }
}

/// Whether a legal move is one the written spec may stand for, leaving open what was not
/// written (the sign, a forced `*`, and `+` when it was left out).
fn fits(spec: &MoveSpec, m: &Move) -> bool {
    m.pit == spec.pit
        && spec.sign.is_none_or(|s| s == m.sign)
        && (!spec.takasa || m.is_takasa())
        && (!spec.safari || m.is_safari())
}

/// What a move does, in one phrase (`3 laps; captured a4 (1)`).
fn effect(pos: &Position, mv: &Move, rules: &RuleSet) -> String {
    let (_, trace) = pos.play_unchecked(mv);
    let summary = Overlay::from_trace(pos, &trace).summary(rules);
    match summary.split_once(": ") {
        Some((_, what)) => what.to_owned(),
        None => summary,
    }
}

fn move_list(moves: &[Move]) -> String {
    if moves.is_empty() {
        return "none".to_owned();
    }
    moves
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// `<` also answers to `l`/`left`, `>` to `r`/`right`.
fn sign_word(key: &str) -> &'static str {
    match key {
        "<" => "l",
        _ => "r",
    }
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
    fn civil_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_786), (2026, 11, 29));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    }

    #[test]
    fn dates_are_checked() {
        assert!(valid_date("2026.11.29"));
        assert!(valid_date("2026.??.??"));
        assert!(!valid_date("2026-11-29"));
        assert!(!valid_date("26.11.29"));
    }

    #[test]
    fn moves_are_read_in_both_dialects() {
        assert_eq!(read_move("A6L*").unwrap().token.value.to_string(), "A6<*");
        assert_eq!(read_move("1. a5r!").unwrap().nags.len(), 1);
        assert!(read_move("hello").is_err());
        assert!(read_move("A6<* a5>*").is_err());
        assert!(read_move("1-0").is_err());
        assert!(read_move("A4> [xa5]").is_err());
    }

    #[test]
    fn shell_words() {
        assert_eq!(shell_word("games/a.bao"), "games/a.bao");
        assert_eq!(shell_word("my game.bao"), "'my game.bao'");
    }
}
