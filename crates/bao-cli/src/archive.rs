//! The archive commands: `bao filter`, `bao dedupe`, `bao split`, `bao stats` (their inputs,
//! thread pool and output, shared with `bao import abstractplay` and `bao export
//! abstractplay`, are `inputs.rs`, `pool.rs` and `output.rs`).
//!
//! Inputs are files, directories (searched recursively for `*.bao`) or `-` for stdin, read in
//! the order given, game by game (bao-archive, on bao-notation's streaming reader): memory
//! stays bounded whatever their size, and the games are replayed on every thread of the pool
//! (`-j N`; by default rayon's, one per CPU). `filter`, `dedupe` and `split` write each game
//! as written, or canonical with `--canonical` ([`bao_archive::text`], spec/archive.md).

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

use bao_archive::alias::Aliases;
use bao_archive::dedupe::{
    file_stem, match_stem, near_base, near_difference, ply_words, GameKey, KeyBy, NearDifference,
    NearKeys, Tally, Worth,
};
use bao_archive::filter::{
    parse_opening, parse_position, parse_result, parse_rules, CriterionError, Filter, PlyRange,
    TagCriterion,
};
use bao_archive::game::{Problem, Trouble};
use bao_archive::query::{At, Query};
use bao_archive::stats::{GameFacts, ShownGame, Stats};
use bao_archive::text::{Form, GameText};
use bao_archive::{for_each_game, for_each_game_placed, render, Depth};
use bao_export::{replayed_game_json, JsonOptions, SCHEMA_VERSION};
use bao_notation::meaning::MatchKey;
use bao_notation::Place;
use bao_session::durable::Replace;

use crate::context::{Context, Status};
use crate::error::CliError;
use crate::inputs::{collect, open, Source};
use crate::output::{Output, Written};
use crate::pool::in_pool;

/// The form a game is written in: as written, or canonical with `--canonical`.
fn form(canonical: bool) -> Form {
    if canonical {
        Form::Canonical
    } else {
        Form::AsWritten
    }
}

fn invalid(argument: &'static str) -> impl Fn(CriterionError) -> CliError {
    move |e| CliError::Invalid {
        argument,
        message: e.to_string(),
    }
}

/// The games read that cannot be trusted (spec/archive.md, "Board over tags"): each is
/// reported on stderr as it is met (file, line, column, game, code, message), and counted
/// for the summary line.
#[derive(Debug, Default)]
struct Troubles {
    invalid: u64,
    contradicts: u64,
}

impl Troubles {
    /// Reports a game's problem; `what` says what is done with the game (`left out`).
    fn note(&mut self, name: &str, n: usize, p: &Problem, chunk: Place, what: &str) {
        match p.trouble {
            Trouble::Invalid => self.invalid += 1,
            Trouble::Contradicts => self.contradicts += 1,
        }
        let (line, col) = p.line_col(chunk);
        eprintln!(
            "bao: {name}:{line}:{col}: game {n}: {}: {}; {what}",
            p.code, p.message
        );
    }

    fn total(&self) -> u64 {
        self.invalid + self.contradicts
    }

    /// `2 invalid, 1 with tags their board contradicts`.
    fn words(&self) -> String {
        [
            (self.invalid, Trouble::Invalid),
            (self.contradicts, Trouble::Contradicts),
        ]
        .iter()
        .filter(|(k, _)| *k > 0)
        .map(|(k, t)| format!("{k} {}", t.words()))
        .collect::<Vec<_>>()
        .join(", ")
    }
}

/// The output format of `bao filter`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum FilterFormat {
    /// Each game's text as written (canonical with --canonical), a blank line between games.
    Bao,
    /// The JSON of `bao export json` (spec/json.md), one game after another.
    Json,
}

/// Arguments of `bao filter`.
#[derive(Debug, clap::Args)]
pub(crate) struct FilterArgs {
    /// Record files, directories (searched recursively for *.bao), or `-` for stdin.
    #[arg(value_name = "FILE|DIR|-", default_value = "-")]
    paths: Vec<String>,
    /// A tag test: NAME=VALUE (equal) or NAME~REGEX (the expression matches somewhere in
    /// the value). Repeat for several (all must hold).
    #[arg(long, value_name = "NAME=VALUE|NAME~REGEX")]
    tag: Vec<String>,
    /// A player, South or North (repeat: every one must play).
    #[arg(long, value_name = "NAME")]
    player: Vec<String>,
    /// Player-name aliases: one person a line, spellings separated by `|`, the first the
    /// name (`Ali Juma | A. Juma`); --player and the players' tags compare by it.
    #[arg(long, value_name = "FILE")]
    alias: Option<PathBuf>,
    /// The result: 1-0, 0-1, 1/2-1/2 or * (the Result tag, else the movetext's).
    #[arg(long, value_name = "RESULT")]
    result: Option<String>,
    /// The rules: a preset (kiswahili, kete, kujifunza, abstractplay,
    /// abstractplay-kujifunza), then any name=value overrides, as the `RuleSet` tag writes
    /// them; a game matches however its tags spell the same rules.
    #[arg(long, value_name = "RULES")]
    rules: Option<String>,
    /// The moves written in the main line: MIN..MAX, MIN.., ..MAX or N (inclusive).
    #[arg(long, value_name = "MIN..MAX")]
    plies: Option<String>,
    /// A position string (as the Position tag writes it) that the game ends in.
    #[arg(long, value_name = "POSITION")]
    position: Option<String>,
    /// With --position: the position may be reached at any ply, the start included.
    #[arg(long, requires = "position")]
    position_anywhere: bool,
    /// The main line starts with these moves, e.g. "A6<* a5<" (a sign or * left out
    /// matches either).
    #[arg(long, value_name = "MOVES")]
    opening: Option<String>,
    /// The game has a diagnostic with this code (`bao::illegal::takasia`) or under this
    /// prefix (`bao::illegal`). Repeat for several (all must be there).
    #[arg(long, value_name = "CODE")]
    code: Vec<String>,
    /// A question by position: the game matches when a position of its main line (the
    /// start included) answers it, e.g. 'stage = mtaji and house(south) and A5 >= 6 and
    /// takasia' (spec/archive.md §8). A partial position: 'A5 = 6 and A6 = 2 and a5 = 0'.
    #[arg(long = "where", value_name = "QUERY")]
    where_: Option<String>,
    /// With --where: ask the last position of the main line only.
    #[arg(long, value_enum, default_value_t = AtArg::Any, requires = "where_")]
    at: AtArg,
    /// Only games with an error (as `bao check` finds them).
    #[arg(long, conflicts_with = "valid")]
    invalid: bool,
    /// Only games without errors.
    #[arg(long)]
    valid: bool,
    /// Keep the games that fail the criteria instead.
    #[arg(long)]
    invert: bool,
    /// Print only the number of games kept.
    #[arg(long)]
    count: bool,
    /// The output format.
    #[arg(long, value_enum, default_value_t = FilterFormat::Bao)]
    format: FilterFormat,
    /// Write each game in canonical form (as `bao fmt` does) instead of as written
    /// (`--format bao`; spec/archive.md).
    #[arg(long)]
    canonical: bool,
    /// Write to this file (atomically) instead of stdout.
    #[arg(short, long, value_name = "OUT")]
    output: Option<PathBuf>,
    /// Threads that replay games in parallel (default: one per CPU).
    #[arg(short = 'j', long, value_name = "N")]
    threads: Option<usize>,
}

/// Which positions `--where` asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum AtArg {
    /// Any position of the main line, the start included.
    Any,
    /// The last position of the main line.
    Final,
}

impl From<AtArg> for At {
    fn from(a: AtArg) -> Self {
        match a {
            AtArg::Any => Self::Any,
            AtArg::Final => Self::Final,
        }
    }
}

/// The `--alias` file, read (none: no alias).
fn read_aliases(path: Option<&std::path::Path>) -> Result<Aliases, CliError> {
    let Some(path) = path else {
        return Ok(Aliases::default());
    };
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::io(format!("cannot read {}", path.display()), e))?;
    text.parse()
        .map_err(|e: bao_archive::alias::AliasError| CliError::Invalid {
            argument: "--alias",
            message: format!("{}: {e}", path.display()),
        })
}

/// A `--where` query, read; a query that cannot be read is invalid input, shown with where
/// it is wrong.
fn read_query(text: Option<&str>) -> Result<Option<Query>, CliError> {
    text.map(|t| {
        t.parse::<Query>().map_err(|e| {
            let mut shown = String::new();
            let _ = crate::report::handler_for(false).render_report(&mut shown, &e);
            eprint!("{shown}");
            CliError::Invalid {
                argument: "--where",
                message: format!("the query cannot be read: {} (at byte {})", e.message, e.at),
            }
        })
    })
    .transpose()
}

impl FilterArgs {
    fn filter(&self) -> Result<Filter, CliError> {
        Ok(Filter {
            query: read_query(self.where_.as_deref())?,
            at: self.at.into(),
            aliases: read_aliases(self.alias.as_deref())?,
            tags: self
                .tag
                .iter()
                .map(|t| t.parse::<TagCriterion>())
                .collect::<Result<_, _>>()
                .map_err(invalid("--tag"))?,
            players: self.player.clone(),
            result: self
                .result
                .as_deref()
                .map(parse_result)
                .transpose()
                .map_err(invalid("--result"))?,
            rules: self
                .rules
                .as_deref()
                .map(parse_rules)
                .transpose()
                .map_err(invalid("--rules"))?,
            plies: self
                .plies
                .as_deref()
                .map(str::parse::<PlyRange>)
                .transpose()
                .map_err(invalid("--plies"))?,
            position: self
                .position
                .as_deref()
                .map(parse_position)
                .transpose()
                .map_err(invalid("--position"))?,
            position_anywhere: self.position_anywhere,
            opening: self
                .opening
                .as_deref()
                .map(parse_opening)
                .transpose()
                .map_err(invalid("--opening"))?
                .unwrap_or_default(),
            codes: self.code.clone(),
            invalid: if self.invalid {
                Some(true)
            } else if self.valid {
                Some(false)
            } else {
                None
            },
            invert: self.invert,
        })
    }
}

/// What `bao filter` keeps of a game.
enum Kept {
    Dropped,
    /// Counted only (`--count`).
    Counted,
    Game(GameText),
    Json(String),
    Unwritable(String),
}

/// Runs `bao filter`.
pub(crate) fn filter(args: &FilterArgs, _ctx: &Context) -> Result<Status, CliError> {
    let filter = args.filter()?;
    let sources = collect(&args.paths)?;
    in_pool(args.threads, || {
        // Every game is checked: a game that cannot be trusted is reported when it is
        // written (or counted), whatever the criteria.
        let depth = Depth::Check;
        let mut out = if args.count {
            None
        } else {
            Some(Output::new(args.output.as_deref())?)
        };
        let mut kept = 0_u64;
        let mut games = Written::default();
        let mut unwritable = 0_u64;
        let mut troubles = Troubles::default();
        let mut read = 0_u64;
        let mut dropped_troubled = 0_u64;
        if let (Some(o), FilterFormat::Json) = (&mut out, args.format) {
            o.write(format!("{{\"schema\":{SCHEMA_VERSION},\"games\":[").as_bytes())?;
        }
        for src in &sources {
            let (name, input) = open(src)?;
            let write_text = !args.count;
            for_each_game_placed(
                input,
                depth,
                |n, g| {
                    if !filter.keeps(g) {
                        return (n, Kept::Dropped, g.problem.clone());
                    }
                    let k = if !write_text {
                        Kept::Counted
                    } else {
                        match args.format {
                            FilterFormat::Bao => Kept::Game(GameText::of(g, form(args.canonical))),
                            FilterFormat::Json => match g
                                .replayed
                                .as_ref()
                                .map(|r| replayed_game_json(g.game, n, r, &JsonOptions::default()))
                            {
                                Some(Ok(j)) => serde_json::to_string(&j)
                                    .map_or_else(|e| Kept::Unwritable(e.to_string()), Kept::Json),
                                Some(Err(e)) => Kept::Unwritable(format!("game {n}: {e}")),
                                None => Kept::Unwritable(format!("game {n} was not replayed")),
                            },
                        }
                    };
                    (n, k, g.problem.clone())
                },
                |(n, k, problem), place| {
                    read += 1;
                    match (&k, &problem) {
                        (Kept::Dropped, Some(_)) => dropped_troubled += 1,
                        (Kept::Dropped | Kept::Unwritable(_), None) => {}
                        (_, Some(p)) => {
                            let what = if args.count { "counted" } else { "written" };
                            troubles.note(&name, n, p, place, what);
                        }
                        (_, None) => {}
                    }
                    match k {
                        Kept::Dropped => {}
                        Kept::Counted => kept += 1,
                        Kept::Game(t) => {
                            if let Some(o) = &mut out {
                                o.game(&t, &mut games)?;
                            }
                            kept += 1;
                        }
                        Kept::Json(t) => {
                            if let Some(o) = &mut out {
                                o.write(if kept > 0 { b",\n" } else { b"\n" })?;
                                o.write(t.as_bytes())?;
                            }
                            kept += 1;
                        }
                        Kept::Unwritable(why) => {
                            unwritable += 1;
                            eprintln!("bao: {name}: {why}; not written");
                        }
                    }
                    Ok::<_, CliError>(())
                },
            )
            .map_err(named(&name))?;
        }
        match out {
            None => println!("{kept}"),
            Some(mut o) => {
                if args.format == FilterFormat::Json {
                    o.write(b"\n]}\n")?;
                }
                o.finish()?;
            }
        }
        if troubles.total() > 0 || dropped_troubled > 0 {
            let mut line = format!("bao filter: {read} games read, {kept} kept");
            if troubles.total() > 0 {
                line.push_str(&format!(
                    "; of those kept, {} (reported above)",
                    troubles.words()
                ));
            }
            if dropped_troubled > 0 {
                line.push_str(&format!(
                    "; {dropped_troubled} invalid or contradicted left out by the criteria"
                ));
            }
            eprintln!("{line}");
        }
        Ok(Status::valid_if(unwritable == 0 && troubles.total() == 0))
    })
}

/// What makes two games one for `bao dedupe --by`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum DedupeBy {
    /// The same rules, start and main-line moves.
    Moves,
    /// The same moves, and the same South, North and Date tags.
    Game,
}

/// Arguments of `bao dedupe`.
#[derive(Debug, clap::Args)]
pub(crate) struct DedupeArgs {
    /// Record files, directories (searched recursively for *.bao), or `-` for stdin.
    #[arg(value_name = "FILE|DIR|-", default_value = "-")]
    paths: Vec<String>,
    /// What makes two games copies of one.
    #[arg(long, value_enum, default_value_t = DedupeBy::Moves)]
    by: DedupeBy,
    /// Report, instead of writing games, the games near each other (source collation): the
    /// same length with at most N plies different, or all but the last N plies of the
    /// longer shared (at least 10 shared), with the plies that differ. Exact copies count
    /// as one game.
    #[arg(long, value_name = "N", num_args = 0..=1, require_equals = true, default_missing_value = "2")]
    near: Option<usize>,
    /// Give the copy kept every tag of the other copies that it lacks and on which no two
    /// copies disagree (the tags they disagree on are reported, never merged).
    #[arg(long)]
    merge_tags: bool,
    /// Do not list the duplicates and the tags their copies disagree on.
    #[arg(short, long)]
    quiet: bool,
    /// Write each game kept in canonical form (as `bao fmt` does) instead of as written
    /// (spec/archive.md).
    #[arg(long)]
    canonical: bool,
    /// Write to this file (atomically) instead of stdout.
    #[arg(short, long, value_name = "OUT")]
    output: Option<PathBuf>,
    /// Threads that replay games in parallel (default: one per CPU).
    #[arg(short = 'j', long, value_name = "N")]
    threads: Option<usize>,
}

/// Names a read error after its input.
fn named(name: &str) -> impl Fn(CliError) -> CliError + '_ {
    move |e| match e {
        CliError::Io { what, source } if what.is_empty() => {
            CliError::io(format!("cannot read {name}"), source)
        }
        other => other,
    }
}

/// A game of `bao dedupe`'s inputs: its input's index and its number in it.
type GameId = (usize, usize);

/// The copies of one game met so far (pass 1 of `bao dedupe`).
struct Copies {
    /// The copy that tells most so far, its worth, and its problem's report line if it
    /// cannot be trusted.
    best: (GameId, Worth, Option<(Trouble, String)>),
    /// Every copy, in the order read.
    all: Vec<GameId>,
}

/// Runs `bao dedupe`: of the copies of a game (the same key, `--by`), the one that tells
/// most is kept ([`Worth`]; the first of equals), in the place of the first copy read; the
/// others are reported and left out. It reads its inputs three times (stdin is copied to a
/// temporary file first): the keys, then the tags of the copies of games met more than once,
/// then the games written.
/// Reports the copies of each game met more than once (unless `quiet`) and the tags they
/// disagree on, from their `tallies`; counts the games whose copies disagree and the copies
/// left out; gives the tags each kept copy gains with `--merge-tags`.
fn report_copies(
    groups: &[Copies],
    tallies: &mut HashMap<usize, Tally>,
    names: &[String],
    quiet: bool,
    (conflicted, left_out): (&mut u64, &mut u64),
) -> HashMap<GameId, Vec<(String, String)>> {
    let game_name = |id: GameId| format!("game {} of {}", id.1, names[id.0]);
    let mut extra = HashMap::new();
    for (k, c) in groups.iter().enumerate().filter(|(_, c)| c.all.len() > 1) {
        let kept = c.best.0;
        let (add, conflicts) = tallies.remove(&k).unwrap_or_default().plan();
        *left_out += c.all.len() as u64 - 1;
        if !quiet {
            for id in c.all.iter().filter(|id| **id != kept) {
                eprintln!(
                    "bao: {} duplicates {}, which is kept",
                    game_name(*id),
                    game_name(kept)
                );
            }
        }
        if !conflicts.is_empty() {
            *conflicted += 1;
        }
        if !quiet {
            for conflict in &conflicts {
                let mut values: Vec<String> = conflict
                    .values
                    .iter()
                    .map(|(v, who, more)| {
                        let mut who: Vec<String> =
                            who.iter().map(|i| game_name(c.all[*i])).collect();
                        if *more > 0 {
                            who.push(format!("{more} more"));
                        }
                        format!("{v:?} ({})", who.join(", "))
                    })
                    .collect();
                if conflict.more_values > 0 {
                    values.push(format!("{} other values", conflict.more_values));
                }
                eprintln!(
                    "bao: the copies of {} disagree on {}: {}; not merged",
                    game_name(c.all[0]),
                    conflict.name,
                    values.join(", ")
                );
            }
        }
        if !add.is_empty() {
            extra.insert(kept, add);
        }
    }
    extra
}

pub(crate) fn dedupe(args: &DedupeArgs, _ctx: &Context) -> Result<Status, CliError> {
    let mut sources = collect(&args.paths)?;
    let shown: Vec<Option<&str>> = sources
        .iter()
        .map(|s| matches!(s, Source::Stdin).then_some("stdin"))
        .collect();
    // Stdin is read three times: from a copy.
    let spool = spool_stdin(&mut sources)?;
    let by = match args.by {
        DedupeBy::Moves => KeyBy::Moves,
        DedupeBy::Game => KeyBy::Game,
    };
    if let Some(near) = args.near {
        return near_games(args, &sources, &shown, near);
    }
    in_pool(args.threads, || {
        let mut names = Vec::new();
        let mut groups: Vec<Copies> = Vec::new();
        let mut index: HashMap<GameKey, usize> = HashMap::new();
        let form = form(args.canonical);
        // Pass 1: the key and worth of every game.
        for (fi, src) in sources.iter().enumerate() {
            let (name, input) = open(src)?;
            let name = shown[fi].map_or(name, str::to_owned);
            for_each_game_placed(
                input,
                Depth::Check,
                |n, g| (n, GameKey::by(g, by), Worth::of(g), g.problem.clone()),
                |(n, key, worth, problem), place| {
                    let report = problem.map(|p| {
                        let (line, col) = p.line_col(place);
                        (
                            p.trouble,
                            format!("{name}:{line}:{col}: game {n}: {}: {}", p.code, p.message),
                        )
                    });
                    let id = (fi, n);
                    match index.get(&key) {
                        Some(&k) => {
                            let c = &mut groups[k];
                            c.all.push(id);
                            if worth > c.best.1 {
                                c.best = (id, worth, report);
                            }
                        }
                        None => {
                            index.insert(key, groups.len());
                            groups.push(Copies {
                                best: (id, worth, report),
                                all: vec![id],
                            });
                        }
                    }
                    Ok::<_, CliError>(())
                },
            )
            .map_err(named(&name))?;
            names.push(name);
        }
        drop(index);
        // The copies of games met more than once: their group, and their index in it.
        let mut copy_of: HashMap<GameId, (usize, usize)> = HashMap::new();
        for (k, c) in groups.iter().enumerate() {
            if c.all.len() > 1 {
                for (i, id) in c.all.iter().enumerate() {
                    copy_of.insert(*id, (k, i));
                }
            }
        }
        // The tags of those copies, tallied per game in bounded memory: with --merge-tags in
        // a pass of their own (pass 2), for the games written to gain them; else while the
        // games are written (pass 2 is pass 3), and the conflicts reported after.
        let mut tallies: HashMap<usize, Tally> = HashMap::new();
        let merging = args.merge_tags;
        let tally = |tallies: &mut HashMap<usize, Tally>, id: GameId, tags: &[(String, String)]| {
            let (k, i) = copy_of[&id];
            let kept = groups[k].best.0 == id;
            tallies.entry(k).or_default().add(i, tags, kept);
        };
        if merging && !copy_of.is_empty() {
            for (fi, src) in sources.iter().enumerate() {
                let (_, input) = open(src)?;
                for_each_game(
                    input,
                    Depth::Tags,
                    |n, g| {
                        copy_of
                            .contains_key(&(fi, n))
                            .then(|| ((fi, n), g.game.tag_pairs().collect::<Vec<_>>()))
                    },
                    |t| {
                        if let Some((id, t)) = t {
                            tally(&mut tallies, id, &t);
                        }
                        Ok::<_, CliError>(())
                    },
                )
                .map_err(named(&names[fi]))?;
            }
        }
        let mut conflicted = 0_u64;
        let mut left_out = 0_u64;
        let extra = if merging {
            report_copies(
                &groups,
                &mut tallies,
                &names,
                args.quiet,
                (&mut conflicted, &mut left_out),
            )
        } else {
            HashMap::new()
        };
        // Pass 3: the games kept, each in its own place: a game met once, and the copy kept
        // of a game met more than once.
        let mut o = Output::new(args.output.as_deref())?;
        let mut written = Written::default();
        let mut troubles = Troubles::default();
        for (fi, src) in sources.iter().enumerate() {
            let (_, input) = open(src)?;
            for_each_game(
                input,
                Depth::Tags,
                |n, g| {
                    let id = (fi, n);
                    let copy = copy_of.get(&id);
                    let kept = copy.is_none_or(|(k, _)| groups[*k].best.0 == id);
                    let text = kept.then(|| {
                        GameText::merged(g, form, extra.get(&id).map_or(&[][..], Vec::as_slice))
                    });
                    let tags = (!merging && copy.is_some())
                        .then(|| g.game.tag_pairs().collect::<Vec<_>>());
                    (id, text, tags)
                },
                |(id, text, tags)| {
                    if let Some(t) = tags {
                        tally(&mut tallies, id, &t);
                    }
                    if let Some(t) = text {
                        o.game(&t, &mut written)?;
                    }
                    Ok::<_, CliError>(())
                },
            )
            .map_err(named(&names[fi]))?;
        }
        o.finish()?;
        if !merging {
            report_copies(
                &groups,
                &mut tallies,
                &names,
                args.quiet,
                (&mut conflicted, &mut left_out),
            );
        }
        // The kept games that cannot be trusted, reported.
        for c in &groups {
            if let Some(r) = &c.best.2 {
                match r.0 {
                    Trouble::Contradicts => troubles.contradicts += 1,
                    Trouble::Invalid => troubles.invalid += 1,
                }
                eprintln!("bao: {}; written", r.1);
            }
        }
        if !args.quiet {
            let mut line = format!(
                "bao dedupe: {} games kept, {left_out} duplicates left out",
                written.games()
            );
            if conflicted > 0 {
                line.push_str(&format!(
                    "; the copies of {conflicted} games disagree on tags (reported above)"
                ));
            }
            if troubles.total() > 0 {
                line.push_str(&format!("; of those kept, {}", troubles.words()));
            }
            eprintln!("{line}");
        }
        drop(spool);
        Ok(Status::valid_if(troubles.total() == 0))
    })
}

/// Arguments of `bao split`.
#[derive(Debug, clap::Args)]
pub(crate) struct SplitArgs {
    /// Record files, directories (searched recursively for *.bao), or `-` for stdin.
    #[arg(value_name = "FILE|DIR|-", default_value = "-")]
    paths: Vec<String>,
    /// The directory to write the games into (made if missing).
    #[arg(short, long, value_name = "DIR", default_value = ".")]
    output: PathBuf,
    /// Replace files that exist.
    #[arg(long)]
    force: bool,
    /// Write each game in canonical form (as `bao fmt` does) instead of as written
    /// (spec/archive.md).
    #[arg(long)]
    canonical: bool,
    /// Threads that read games in parallel (default: one per CPU).
    #[arg(short = 'j', long, value_name = "N")]
    threads: Option<usize>,
}

/// Runs `bao split`: one file per game, named from its tags (`Date_South_North_Round.bao`,
/// `-2`, `-3` after a name already used in this run); the games of a match (the same
/// `Event`, `Site` and `Match` tags) together in one file, named from the match
/// (`Date_Event_Match.bao`), in the order read, so that the file holds the whole match as
/// `bao check` wants it. It reads its inputs twice (stdin once, copied): which games make
/// each match, then the games; a match's games are held until its last one is read.
pub(crate) fn split(args: &SplitArgs, _ctx: &Context) -> Result<Status, CliError> {
    let mut sources = collect(&args.paths)?;
    let shown: Vec<Option<&str>> = sources
        .iter()
        .map(|s| matches!(s, Source::Stdin).then_some("stdin"))
        .collect();
    let spool = spool_stdin(&mut sources)?;
    std::fs::create_dir_all(&args.output)
        .map_err(|e| CliError::io(format!("cannot make {}", args.output.display()), e))?;
    in_pool(args.threads, || {
        let mut used: HashSet<String> = HashSet::new();
        let mut refused = 0_u64;
        let mut written = 0_u64;
        let mut troubles = Troubles::default();
        let form = form(args.canonical);
        let replace = if args.force {
            Replace::Yes
        } else {
            Replace::No
        };
        // Pass 1: the last game of each match; the games that cannot be trusted, reported.
        let mut last_of: HashMap<MatchKey, GameId> = HashMap::new();
        let mut names = Vec::new();
        for (fi, src) in sources.iter().enumerate() {
            let (name, input) = open(src)?;
            let name = shown[fi].map_or(name, str::to_owned);
            for_each_game_placed(
                input,
                Depth::Check,
                |n, g| (n, MatchKey::of(g.game), g.problem.clone()),
                |(n, key, problem), place| {
                    if let Some(p) = &problem {
                        troubles.note(&name, n, p, place, "written");
                    }
                    if let Some(k) = key {
                        last_of.insert(k, (fi, n));
                    }
                    Ok::<_, CliError>(())
                },
            )
            .map_err(named(&name))?;
            names.push(name);
        }
        let mut write = |stem: &str, text: &str| -> Result<(), CliError> {
            let mut file = format!("{stem}.bao");
            let mut k = 1;
            while used.contains(&file) {
                k += 1;
                file = format!("{stem}-{k}.bao");
            }
            used.insert(file.clone());
            let path = args.output.join(&file);
            match crate::io::write_file(&path, text.as_bytes(), replace) {
                Ok(()) => {
                    written += 1;
                    Ok(())
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    refused += 1;
                    eprintln!("bao: {} exists; not replaced (use --force)", path.display());
                    Ok(())
                }
                Err(e) => Err(CliError::io(format!("cannot write {}", path.display()), e)),
            }
        };
        // Pass 2: the files. A match's games wait (with the stem of its first) until its
        // last one is read.
        let mut open_matches: HashMap<MatchKey, (String, String, &'static str)> = HashMap::new();
        let mut matches = 0_u64;
        for (fi, src) in sources.iter().enumerate() {
            let (_, input) = open(src)?;
            for_each_game(
                input,
                Depth::Tags,
                |n, g| {
                    let key = MatchKey::of(g.game);
                    let stem = if key.is_some() {
                        match_stem(g.game, n)
                    } else {
                        file_stem(g.game, n)
                    };
                    (n, key, stem, GameText::of(g, form))
                },
                |(n, key, stem, text)| {
                    let Some(key) = key else {
                        return write(&stem, &text.text);
                    };
                    let last = last_of.get(&key) == Some(&(fi, n));
                    let entry = open_matches
                        .entry(key.clone())
                        .or_insert_with(|| (stem, String::new(), text.line_end));
                    if !entry.1.is_empty() {
                        entry.1.push_str(entry.2);
                    }
                    entry.1.push_str(&text.text);
                    entry.2 = text.line_end;
                    if last {
                        if let Some((stem, all, _)) = open_matches.remove(&key) {
                            matches += 1;
                            write(&stem, &all)?;
                        }
                    }
                    Ok(())
                },
            )
            .map_err(named(&names[fi]))?;
        }
        drop(spool);
        let mut line = format!("bao: {written} files written to {}", args.output.display());
        if matches > 0 {
            line.push_str(&format!(" ({matches} of them a match's games together)"));
        }
        if troubles.total() > 0 {
            line.push_str(&format!(
                "; {} games written {}",
                troubles.total(),
                troubles.words()
            ));
        }
        eprintln!("{line}");
        Ok(Status::valid_if(refused == 0 && troubles.total() == 0))
    })
}

/// `bao dedupe --near N`: pass 1 indexes every distinct game (the first of exact copies) by
/// its [`NearKeys`]; the games that share a key are candidates; pass 2 reads the plies of the
/// candidates only, and each pair that is near is reported on stdout, in the order of their
/// first game.
fn near_games(
    args: &DedupeArgs,
    sources: &[Source],
    shown: &[Option<&str>],
    near: usize,
) -> Result<Status, CliError> {
    in_pool(args.threads, || {
        let mut names = Vec::new();
        let mut seen: HashSet<GameKey> = HashSet::new();
        let mut index: HashMap<(usize, usize, u64), Vec<GameId>> = HashMap::new();
        let mut games = 0_u64;
        for (fi, src) in sources.iter().enumerate() {
            let (name, input) = open(src)?;
            let name = shown[fi].map_or(name, str::to_owned);
            for_each_game(
                input,
                Depth::Replay,
                |n, g| {
                    let words = ply_words(g);
                    (n, GameKey::of(g), NearKeys::of(&words, near_base(g), near))
                },
                |(n, key, keys)| {
                    games += 1;
                    if seen.insert(key) {
                        for k in keys.keys {
                            index.entry(k).or_default().push((fi, n));
                        }
                    }
                    Ok::<_, CliError>(())
                },
            )
            .map_err(named(&name))?;
            names.push(name);
        }
        drop(seen);
        // The candidate pairs: games that share a key (a key shared by very many games is
        // a common line, not a copy: at most this many are paired by it).
        const MAX_BUCKET: usize = 1000;
        let mut pairs: std::collections::BTreeSet<(GameId, GameId)> =
            std::collections::BTreeSet::new();
        for ids in index.values().filter(|v| v.len() > 1) {
            let ids = &ids[..ids.len().min(MAX_BUCKET)];
            for (i, a) in ids.iter().enumerate() {
                for b in &ids[i + 1..] {
                    pairs.insert((*a.min(b), *a.max(b)));
                }
            }
        }
        drop(index);
        let wanted: HashSet<GameId> = pairs.iter().flat_map(|(a, b)| [*a, *b]).collect();
        let mut words: HashMap<GameId, Vec<String>> = HashMap::new();
        if !wanted.is_empty() {
            for (fi, src) in sources.iter().enumerate() {
                let (_, input) = open(src)?;
                for_each_game(
                    input,
                    Depth::Replay,
                    |n, g| wanted.contains(&(fi, n)).then(|| ((fi, n), ply_words(g))),
                    |w| {
                        if let Some((id, w)) = w {
                            words.insert(id, w);
                        }
                        Ok::<_, CliError>(())
                    },
                )
                .map_err(named(&names[fi]))?;
            }
        }
        let game_name = |id: GameId| format!("game {} of {}", id.1, names[id.0]);
        let plies = |w: &[String]| {
            if w.is_empty() {
                "nothing".to_owned()
            } else {
                w.join(" ")
            }
        };
        let mut out = Output::new(args.output.as_deref())?;
        let mut found = 0_u64;
        for (a, b) in &pairs {
            let (Some(wa), Some(wb)) = (words.get(a), words.get(b)) else {
                continue;
            };
            let Some(d) = near_difference(wa, wb, near) else {
                continue;
            };
            found += 1;
            let what = match d {
                NearDifference::Plies(diff) => {
                    let each: Vec<String> = diff
                        .iter()
                        .map(|(ply, x, y)| format!("ply {ply}: {x} / {y}"))
                        .collect();
                    format!("differ at {}", each.join(", "))
                }
                NearDifference::Tail {
                    shared,
                    first,
                    second,
                } => format!(
                    "share their first {shared} plies, then {} / {}",
                    plies(&first),
                    plies(&second)
                ),
            };
            out.write(format!("{} and {}: {what}\n", game_name(*a), game_name(*b)).as_bytes())?;
        }
        out.finish()?;
        if !args.quiet {
            eprintln!(
                "bao dedupe --near {near}: {games} games read, {found} pairs near each other"
            );
        }
        Ok(Status::Success)
    })
}

/// Copies stdin, if it is one of `sources`, to a temporary file that stands for it, for a
/// command that reads its inputs more than once; the file lives as long as the value given.
fn spool_stdin(sources: &mut [Source]) -> Result<Option<tempfile::NamedTempFile>, CliError> {
    let mut spool = None;
    for s in sources {
        if matches!(s, Source::Stdin) {
            if spool.is_some() {
                return Err(CliError::Usage("stdin can be read once only".to_owned()));
            }
            let mut f = tempfile::NamedTempFile::new()
                .map_err(|e| CliError::io("cannot make a temporary file", e))?;
            std::io::copy(&mut std::io::stdin().lock(), &mut f)
                .map_err(|e| CliError::io("cannot read stdin", e))?;
            *s = Source::File(f.path().to_path_buf());
            spool = Some(f);
        }
    }
    Ok(spool)
}

/// The output format of `bao stats`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum StatsFormat {
    /// Text for a terminal.
    Human,
    /// One JSON object (spec/json.md, "Archive statistics").
    Json,
    /// A self-contained HTML page with charts and the opening tree.
    Html,
}

/// Arguments of `bao stats`.
#[derive(Debug, clap::Args)]
pub(crate) struct StatsArgs {
    /// Record files, directories (searched recursively for *.bao), or `-` for stdin.
    #[arg(value_name = "FILE|DIR|-", default_value = "-")]
    paths: Vec<String>,
    /// The output format.
    #[arg(long, value_enum, default_value_t = StatsFormat::Human)]
    format: StatsFormat,
    /// The plies of the opening tree.
    #[arg(long, value_name = "N", default_value_t = 4)]
    depth: usize,
    /// The plies in one bin of the length histogram.
    #[arg(long, value_name = "N", default_value_t = 10)]
    bin: usize,
    /// Player-name aliases: one person a line, spellings separated by `|`, the first the
    /// name the statistics show (`Ali Juma | A. Juma`).
    #[arg(long, value_name = "FILE")]
    alias: Option<PathBuf>,
    /// Count only the games a position of which answers this query (as `bao filter
    /// --where`; spec/archive.md §8).
    #[arg(long = "where", value_name = "QUERY")]
    where_: Option<String>,
    /// With --where: ask the last position of the main line only.
    #[arg(long, value_enum, default_value_t = AtArg::Any, requires = "where_")]
    at: AtArg,
    /// Count the games that have an error or whose tags their board contradicts too
    /// (they are left out by default, and reported).
    #[arg(long)]
    include_invalid: bool,
    /// The page's title (--format html; default: the inputs' names).
    #[arg(long, value_name = "TEXT")]
    title: Option<String>,
    /// Write to this file (atomically) instead of stdout.
    #[arg(short, long, value_name = "OUT")]
    output: Option<PathBuf>,
    /// Threads that replay games in parallel (default: one per CPU).
    #[arg(short = 'j', long, value_name = "N")]
    threads: Option<usize>,
}

/// Runs `bao stats`.
pub(crate) fn stats(args: &StatsArgs, _ctx: &Context) -> Result<Status, CliError> {
    let sources = collect(&args.paths)?;
    let query = read_query(args.where_.as_deref())?;
    let aliases = read_aliases(args.alias.as_deref())?;
    let at: At = args.at.into();
    in_pool(args.threads, || {
        let mut stats = Stats::new(args.depth, args.bin);
        let html = matches!(args.format, StatsFormat::Html);
        if html {
            stats = stats.listing_games();
        }
        let mut names = Vec::new();
        let depth = args.depth;
        let mut troubles = Troubles::default();
        let mut read = 0_u64;
        let what = if args.include_invalid {
            "counted (--include-invalid)"
        } else {
            "left out"
        };
        for src in &sources {
            let (name, input) = open(src)?;
            for_each_game_placed(
                input,
                Depth::Check,
                |n, g| {
                    let wanted = query.as_ref().is_none_or(|q| q.matches(g, at));
                    (
                        n,
                        wanted.then(|| {
                            let mut f = GameFacts::of(g, depth);
                            for name in [&mut f.south, &mut f.north].into_iter().flatten() {
                                if !aliases.is_empty() {
                                    *name = aliases.name(name).to_owned();
                                }
                            }
                            if html {
                                f.shown = Some(Box::new(ShownGame {
                                    label: game_label(&name, n, g, &f),
                                    record: GameText::of(g, Form::AsWritten).text,
                                    last: g.final_position().copied(),
                                }));
                            }
                            f
                        }),
                        g.problem.clone(),
                    )
                },
                |(n, f, problem), place| {
                    // A game the query does not want is not read as far as statistics go.
                    let Some(f) = f else {
                        return Ok(());
                    };
                    read += 1;
                    if let Some(p) = &problem {
                        troubles.note(&name, n, p, place, what);
                    }
                    if problem.is_none() || args.include_invalid {
                        stats.add(&f);
                    }
                    Ok::<_, CliError>(())
                },
            )
            .map_err(named(&name))?;
            names.push(name);
        }
        if troubles.total() > 0 {
            let left = if args.include_invalid {
                "counted all the same (--include-invalid)".to_owned()
            } else {
                format!(
                    "{} left out of the statistics (--include-invalid counts them)",
                    troubles.total()
                )
            };
            eprintln!("bao stats: {read} games read, {}: {left}", troubles.words());
        }
        let report = stats.report();
        let text = match args.format {
            StatsFormat::Human => render::human(&report),
            StatsFormat::Json => {
                let mut s = serde_json::to_string_pretty(&report)
                    .map_err(|e| CliError::Internal(e.to_string()))?;
                s.push('\n');
                s
            }
            StatsFormat::Html => {
                let title = args.title.clone().unwrap_or_else(|| names.join(", "));
                render::html(&report, &title)
            }
        };
        let mut out = Output::new(args.output.as_deref())?;
        out.write(text.as_bytes())?;
        out.finish()?;
        Ok(Status::valid_if(troubles.total() == 0))
    })
}

/// How a game is named in the statistics page's lists: `FILE, game N: South–North, Date,
/// Result`.
fn game_label(file: &str, n: usize, g: &bao_archive::ArchiveGame<'_>, f: &GameFacts) -> String {
    let side = |s: &Option<String>| s.clone().unwrap_or_else(|| "?".to_owned());
    let date = g.tag("Date").unwrap_or("????.??.??");
    format!(
        "{file}, game {n}: {}–{}, {date}, {}",
        side(&f.south),
        side(&f.north),
        f.result.as_str()
    )
}
