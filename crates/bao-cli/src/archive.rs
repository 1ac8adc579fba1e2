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

use bao_archive::dedupe::{file_stem, GameKey};
use bao_archive::filter::{
    parse_opening, parse_position, parse_result, parse_rules, CriterionError, Filter, PlyRange,
    TagCriterion,
};
use bao_archive::stats::{GameFacts, Stats};
use bao_archive::text::{Form, GameText};
use bao_archive::{for_each_game, render, Depth};
use bao_export::{replayed_game_json, JsonOptions, SCHEMA_VERSION};
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

impl FilterArgs {
    fn filter(&self) -> Result<Filter, CliError> {
        Ok(Filter {
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
        let mut depth = filter.depth();
        if args.format == FilterFormat::Json && !args.count && depth == Depth::Tags {
            depth = Depth::Replay;
        }
        let mut out = if args.count {
            None
        } else {
            Some(Output::new(args.output.as_deref())?)
        };
        let mut kept = 0_u64;
        let mut games = Written::default();
        let mut unwritable = 0_u64;
        if let (Some(o), FilterFormat::Json) = (&mut out, args.format) {
            o.write(format!("{{\"schema\":{SCHEMA_VERSION},\"games\":[").as_bytes())?;
        }
        for src in &sources {
            let (name, input) = open(src)?;
            let write_text = !args.count;
            for_each_game(
                input,
                depth,
                |n, g| {
                    if !filter.keeps(g) {
                        return Kept::Dropped;
                    }
                    if !write_text {
                        return Kept::Counted;
                    }
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
                },
                |k| {
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
        Ok(Status::valid_if(unwritable == 0))
    })
}

/// Arguments of `bao dedupe`.
#[derive(Debug, clap::Args)]
pub(crate) struct DedupeArgs {
    /// Record files, directories (searched recursively for *.bao), or `-` for stdin.
    #[arg(value_name = "FILE|DIR|-", default_value = "-")]
    paths: Vec<String>,
    /// Give the game kept every tag of its duplicates that it lacks (reads the inputs
    /// twice: files only).
    #[arg(long)]
    merge_tags: bool,
    /// Do not list the duplicates on stderr.
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

/// Runs `bao dedupe`: the first game of each (rules, start, moves) is kept, the others are
/// reported.
pub(crate) fn dedupe(args: &DedupeArgs, _ctx: &Context) -> Result<Status, CliError> {
    let sources = collect(&args.paths)?;
    if args.merge_tags && sources.iter().any(|s| matches!(s, Source::Stdin)) {
        return Err(CliError::Usage(
            "--merge-tags reads its inputs twice: give files, not stdin".to_owned(),
        ));
    }
    in_pool(args.threads, || {
        let mut seen: HashMap<GameKey, (usize, usize)> = HashMap::new();
        let mut names = Vec::new();
        let mut dups: HashSet<(usize, usize)> = HashSet::new();
        let mut merges: HashMap<(usize, usize), Vec<(String, String)>> = HashMap::new();
        let mut out = if args.merge_tags {
            None
        } else {
            Some(Output::new(args.output.as_deref())?)
        };
        let mut written = Written::default();
        let form = form(args.canonical);
        // Pass 1: the keys (and, without --merge-tags, the games kept, written at once).
        for (fi, src) in sources.iter().enumerate() {
            let (name, input) = open(src)?;
            names.push(name.clone());
            let write = !args.merge_tags;
            let merge = args.merge_tags;
            for_each_game(
                input,
                Depth::Replay,
                |n, g| {
                    let tags: Vec<(String, String)> = if merge {
                        g.game.tag_pairs().collect()
                    } else {
                        Vec::new()
                    };
                    let text = write.then(|| GameText::of(g, form));
                    (n, GameKey::of(g), tags, text)
                },
                |(n, key, tags, text)| {
                    match seen.get(&key) {
                        Some(&first) => {
                            dups.insert((fi, n));
                            if !args.quiet {
                                eprintln!(
                                    "bao: game {n} of {name} duplicates game {} of {}",
                                    first.1, names[first.0]
                                );
                            }
                            if !tags.is_empty() {
                                merges.entry(first).or_default().extend(tags);
                            }
                        }
                        None => {
                            seen.insert(key, (fi, n));
                            if let (Some(o), Some(t)) = (&mut out, text) {
                                o.game(&t, &mut written)?;
                            }
                        }
                    }
                    Ok::<_, CliError>(())
                },
            )
            .map_err(named(&name))?;
        }
        // Pass 2 (--merge-tags): the games kept, with their duplicates' tags.
        if args.merge_tags {
            let mut o = Output::new(args.output.as_deref())?;
            for (fi, src) in sources.iter().enumerate() {
                let (name, input) = open(src)?;
                for_each_game(
                    input,
                    Depth::Tags,
                    |n, g| {
                        if dups.contains(&(fi, n)) {
                            return None;
                        }
                        let extra = merges.get(&(fi, n)).map_or(&[][..], Vec::as_slice);
                        Some(GameText::merged(g, form, extra))
                    },
                    |text| {
                        if let Some(t) = text {
                            o.game(&t, &mut written)?;
                        }
                        Ok::<_, CliError>(())
                    },
                )
                .map_err(named(&name))?;
            }
            out = Some(o);
        }
        if let Some(o) = out {
            o.finish()?;
        }
        if !args.quiet {
            eprintln!(
                "bao: {} games kept, {} duplicates left out",
                written.games(),
                dups.len()
            );
        }
        Ok(Status::Success)
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
/// `-2`, `-3` after a name already used in this run).
pub(crate) fn split(args: &SplitArgs, _ctx: &Context) -> Result<Status, CliError> {
    let sources = collect(&args.paths)?;
    std::fs::create_dir_all(&args.output)
        .map_err(|e| CliError::io(format!("cannot make {}", args.output.display()), e))?;
    in_pool(args.threads, || {
        let mut used: HashSet<String> = HashSet::new();
        let mut refused = 0_u64;
        let mut written = 0_u64;
        let form = form(args.canonical);
        let replace = if args.force {
            Replace::Yes
        } else {
            Replace::No
        };
        for src in &sources {
            let (name, input) = open(src)?;
            for_each_game(
                input,
                Depth::Tags,
                |n, g| (file_stem(g.game, n), GameText::of(g, form)),
                |(stem, text)| {
                    let mut file = format!("{stem}.bao");
                    let mut k = 1;
                    while used.contains(&file) {
                        k += 1;
                        file = format!("{stem}-{k}.bao");
                    }
                    used.insert(file.clone());
                    let path = args.output.join(&file);
                    match crate::io::write_file(&path, text.text.as_bytes(), replace) {
                        Ok(()) => written += 1,
                        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                            refused += 1;
                            eprintln!("bao: {} exists; not replaced (use --force)", path.display());
                        }
                        Err(e) => {
                            return Err(CliError::io(format!("cannot write {}", path.display()), e))
                        }
                    }
                    Ok(())
                },
            )
            .map_err(named(&name))?;
        }
        eprintln!("bao: {written} games written to {}", args.output.display());
        Ok(Status::valid_if(refused == 0))
    })
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
    in_pool(args.threads, || {
        let mut stats = Stats::new(args.depth, args.bin);
        let mut names = Vec::new();
        let depth = args.depth;
        for src in &sources {
            let (name, input) = open(src)?;
            for_each_game(
                input,
                Depth::Replay,
                |_, g| GameFacts::of(g, depth),
                |f| {
                    stats.add(&f);
                    Ok::<_, CliError>(())
                },
            )
            .map_err(named(&name))?;
            names.push(name);
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
        Ok(Status::Success)
    })
}
