//! `bao analyse`: a record annotated by the engine. After every ply of the chosen game's
//! main line an evaluation comment (`{[%eval 1.25]}` in seeds from South's view, `#5` /
//! `#-5` for a forced win for South / North within 5 plies), a glyph where the move lost
//! evaluation (`?!`, `?`, `??`; thresholds in spec/engine.md), and the engine's better line
//! as a variation after such a move.
//!
//! The game is walked as bao-replay replayed it (the positions before and after each ply)
//! and written over the record's text (`write_record_over`): what the analysis adds goes
//! between the tokens in the record's notation, the rest keeps its bytes (`bao fmt` gives
//! the canonical form). It is checked once more before it is written. Output to stdout, to `-o OUT`,
//! or with `--write` over the file (atomically). A progress bar on a terminal.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use bao_analysis::{Limits, Report, Score, Searcher};
use bao_core::{Move, Position, Side};
use bao_notation::{
    write_record_over, Comment, Directions, Element, Nag, Notation, Spanned, WriteOptions,
};
use bao_replay::Document;
use bao_validate::{check_bytes, CheckOptions};

use crate::context::{Context, Status};
use crate::error::CliError;
use crate::games::{game_index, load};
use crate::io::{save, Input};

/// Arguments of `bao analyse`.
#[derive(Debug, clap::Args)]
#[command(group = clap::ArgGroup::new("limit").args(["depth", "movetime", "nodes"]))]
pub(crate) struct Args {
    /// The record file (`-` for stdin).
    #[arg(value_name = "FILE", value_parser = Input::parse, required_unless_present = "puzzles")]
    file: Option<Input>,
    /// Instead of annotating a game: find the positions of these records (files, or
    /// directories of `.bao` files) where exactly one move wins by force, and write them as
    /// a problem set.
    #[arg(
        long,
        value_name = "FILE",
        num_args = 1..,
        conflicts_with_all = ["file", "game", "depth", "movetime", "nodes", "write", "multipv"]
    )]
    puzzles: Vec<String>,
    /// With --puzzles: the longest win looked for, in moves of the side to move (1 to 4;
    /// the solver's horizon is twice this less one plies).
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=4), requires = "puzzles")]
    max_moves: u32,
    /// With --puzzles: threads that search games in parallel (default: one per CPU).
    #[arg(short = 'j', long, value_name = "N", requires = "puzzles")]
    threads: Option<usize>,
    /// The game in the file, from 1.
    #[arg(long, value_name = "N", default_value_t = 1)]
    game: usize,
    /// Search every position this many plies deep [default: 8].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: Option<u32>,
    /// Search every position for this many milliseconds.
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    movetime: Option<u64>,
    /// Search every position for this many nodes.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// Replace the file with the annotated record.
    #[arg(long, conflicts_with = "output")]
    write: bool,
    /// Write the annotated record to this file instead of stdout.
    #[arg(short, long, value_name = "OUT")]
    output: Option<PathBuf>,
    /// After a move marked `?!`, `?` or `??`, this many of the engine's best lines as
    /// variations (1 to 8; the first is the better line the glyph compares with).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=8))]
    multipv: u8,
    /// No progress bar.
    #[arg(short, long)]
    quiet: bool,
}

/// The default depth when no limit is given.
const DEFAULT_DEPTH: u32 = 8;
/// The evaluation drop (centi-seeds) from which a move is dubious (`?!`), a mistake (`?`)
/// and a blunder (`??`).
pub(crate) const INACCURACY: i32 = 150;
/// See [`INACCURACY`].
pub(crate) const MISTAKE: i32 = 300;
/// See [`INACCURACY`].
pub(crate) const BLUNDER: i32 = 600;
/// The longest better line written as a variation.
const LINE_PLIES: usize = 8;

/// A score on one scale for comparing moves: evaluations capped at ±20 seeds, wins and
/// losses beyond them (a quicker win higher, a slower loss higher).
fn scale(s: Score) -> i32 {
    match s {
        Score::Eval(cp) => cp.clamp(-2000, 2000),
        Score::Win(n) => 3000 - i32::try_from(n.min(500)).unwrap_or(500),
        Score::Loss(n) => -3000 + i32::try_from(n.min(500)).unwrap_or(500),
    }
}

/// The glyph for an evaluation drop.
fn glyph(drop: i32) -> Option<Nag> {
    if drop >= BLUNDER {
        Some(Nag::BLUNDER)
    } else if drop >= MISTAKE {
        Some(Nag::MISTAKE)
    } else if drop >= INACCURACY {
        Some(Nag::DUBIOUS)
    } else {
        None
    }
}

/// The `[%eval ...]` text of a score seen by `side`, written from South's view.
fn eval_text(score: Score, side: Side) -> String {
    let south = if side == Side::South {
        score
    } else {
        score.negate()
    };
    match south {
        Score::Eval(cp) => format!("[%eval {:.2}]", f64::from(cp) / 100.0),
        Score::Win(n) => format!("[%eval #{n}]"),
        Score::Loss(n) => format!("[%eval #-{n}]"),
    }
}

/// The first word of the comment that explains a marked move (what the better move does
/// and what the move played allowed).
const WHY: &str = "Better:";

/// Whether an element is a comment an earlier analysis wrote (an evaluation or a why).
fn is_eval_comment(e: &Element) -> bool {
    matches!(e, Element::Comment(c) if {
        let t = c.text.trim_start();
        t.starts_with("[%eval") || t.starts_with(WHY) || t.starts_with(SUMMARY)
    })
}

/// What a move does, in words: "captures 4 (a3, a4)", "wins the game", "captures
/// nothing".
fn what_it_does(before: &Position, mv: &Move) -> String {
    let Ok((_, trace)) = before.play(mv) else {
        return "is not legal".to_owned();
    };
    let trace = trace.into_trace();
    let seeds: u32 = trace.captures.iter().map(|c| u32::from(c.seeds)).sum();
    let mut words = if seeds == 0 {
        "captures nothing".to_owned()
    } else {
        let mut pits: Vec<String> = trace.captures.iter().map(|c| c.pit.to_string()).collect();
        pits.dedup();
        let more = pits.len().saturating_sub(3);
        pits.truncate(3);
        let list = if more > 0 {
            format!("{} and {more} more", pits.join(", "))
        } else {
            pits.join(", ")
        };
        format!("captures {seeds} ({list})")
    };
    if trace.outcome.is_some_and(|o| o.winner == Some(trace.mover)) {
        words.push_str(" and wins the game");
    }
    words
}

/// Why a marked move was worse, in the record's notation: what the better move does, and
/// what the opponent's best answer to the move played does.
fn why(
    before: &Position,
    played: &Move,
    better: &Move,
    answer: Option<&Move>,
    spell: impl Fn(&Move, &Position) -> String,
) -> String {
    let mut text = format!(
        "{WHY} {} {}.",
        spell(better, before),
        what_it_does(before, better)
    );
    if let (Some(answer), Ok((after, _))) = (answer, before.play(played)) {
        let side = match after.to_move() {
            Side::South => "South",
            Side::North => "North",
        };
        text.push_str(&format!(
            " After {}, {side}'s {} {}.",
            spell(played, before),
            spell(answer, &after),
            what_it_does(&after, answer)
        ));
    }
    text
}

/// The engine's line from `pos` as variation elements (the moves replayed to be sure they
/// are legal; the line stops at the first that is not), each with its `**` and `#` marks.
fn variation(
    pos: &Position,
    line: &[Move],
    directions: Directions,
    notation: Notation,
) -> Vec<Spanned<Element>> {
    crate::lines::variation_of(pos, line, directions, notation, LINE_PLIES)
}

/// What the analysis found, for the summary line.
#[derive(Debug, Default)]
struct Counts {
    dubious: usize,
    mistakes: usize,
    blunders: usize,
    /// The marked moves: (drop, the move as written with its number and glyph).
    marked: Vec<(i32, String)>,
}

/// The first word of the summary comment before the game's first move.
const SUMMARY: &str = "Analysis:";

impl Counts {
    /// The summary of the game's critical moments: how many moves of each kind, and the
    /// (at most three) that lost the most.
    fn summary(&self, limits: Limits) -> String {
        let plural =
            |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        let depth = limits
            .depth
            .map(|d| format!("depth {d}"))
            .or_else(|| {
                limits
                    .movetime
                    .map(|t| format!("{} ms a position", t.as_millis()))
            })
            .or_else(|| limits.nodes.map(|n| format!("{n} nodes a position")))
            .unwrap_or_default();
        let mut text = format!(
            "{SUMMARY} {}, {}, {} ({depth}).",
            plural(self.blunders, "blunder", "blunders"),
            plural(self.mistakes, "mistake", "mistakes"),
            plural(self.dubious, "dubious move", "dubious moves"),
        );
        let mut worst = self.marked.clone();
        worst.sort_by_key(|(drop, _)| std::cmp::Reverse(*drop));
        worst.truncate(3);
        if !worst.is_empty() {
            let moves: Vec<String> = worst
                .iter()
                .map(|(drop, m)| format!("{m} ({:.1} seeds)", f64::from(*drop) / 100.0))
                .collect();
            text.push_str(&format!(" The turning points: {}.", moves.join(", ")));
        }
        text
    }
}

/// Searches one position (a finished game is not searched: its outcome is the score).
fn search(searcher: &mut Searcher, pos: &Position, limits: Limits) -> Report {
    searcher.search(pos, limits, |_| {})
}

/// Runs `bao analyse`.
pub(crate) fn run(args: &Args, ctx: &Context) -> Result<Status, CliError> {
    let Some(file) = &args.file else {
        return crate::puzzles::run(
            &crate::puzzles::Request {
                inputs: &args.puzzles,
                max_moves: args.max_moves,
                output: args.output.as_ref(),
                threads: args.threads,
                quiet: args.quiet,
            },
            ctx,
        );
    };
    if args.write && *file == Input::Stdin {
        return Err(CliError::Usage(
            "--write needs a file, not stdin (use -o OUT)".to_owned(),
        ));
    }
    let name = file.name();
    let mut checked = match load(file, ctx)? {
        Ok(c) => c,
        Err(status) => return Ok(status),
    };
    let gi = game_index(&checked, args.game)?;
    let replayed = &checked.replayed[gi];
    let Some(opening) = replayed.opening() else {
        return Err(CliError::Internal(format!(
            "game {} of {name} has no rules, yet checked clean",
            args.game
        )));
    };
    let directions = opening.directions;
    let notation = Notation::of_record(&checked.record, &checked.report.text);
    let limits = Limits {
        depth: match (args.depth, args.movetime, args.nodes) {
            (None, None, None) => Some(DEFAULT_DEPTH),
            (d, _, _) => d,
        },
        movetime: args.movetime.map(Duration::from_millis),
        nodes: args.nodes,
    };
    // The main line's moves as replayed: (before, move, after).
    let plies: Vec<(Position, Move, Position)> =
        Document::new(&checked.record.games[gi].value, replayed)
            .main()
            .moves()
            .map_while(|m| m.played().map(|(p, pl)| (p.before, pl.mv, pl.after)))
            .collect();
    let positions: Vec<Position> = plies
        .first()
        .map(|p| p.0)
        .into_iter()
        .chain(plies.iter().map(|p| p.2))
        .collect();
    let bar = crate::progress::bar(positions.len(), "analysing", args.quiet);
    let mut searcher = Searcher::default();
    let mut reports = Vec::with_capacity(positions.len());
    for pos in &positions {
        reports.push(search(&mut searcher, pos, limits));
        bar.inc(1);
    }
    bar.finish_and_clear();
    // Inserts after each move, from the last so that earlier indices stay valid.
    let game = &mut checked.record.games[gi].value;
    game.movetext.retain(|e| !is_eval_comment(&e.value));
    let mut counts = Counts::default();
    let mut inserts: Vec<(usize, Vec<Element>)> = Vec::new();
    // Element indices shifted by the removed comments: recount moves instead.
    let move_elements: Vec<usize> = game
        .movetext
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e.value, Element::Move(_)))
        .map(|(i, _)| i)
        .collect();
    for (i, (before, mv, after)) in plies.iter().enumerate() {
        let Some(&element) = move_elements.get(i) else {
            break;
        };
        let best = &reports[i];
        let next = &reports[i + 1];
        let mut add = Vec::new();
        if after.outcome().is_none() {
            add.push(Element::Comment(Comment::brace(&eval_text(
                next.score,
                after.to_move(),
            ))));
        }
        // The played move scored at the same depth as the best one (one search deeper
        // from the next position would differ by the parity of the horizon alone).
        let (drop, answer) = if best.best() == Some(*mv) {
            (0, None)
        } else {
            let played = searcher.search_among(before, limits, Some(&[*mv]), |_| {});
            (
                scale(best.score) - scale(played.score),
                played.pv.get(1).copied(),
            )
        };
        if let Some(nag) = glyph(drop) {
            match nag {
                Nag::BLUNDER => counts.blunders += 1,
                Nag::MISTAKE => counts.mistakes += 1,
                _ => counts.dubious += 1,
            }
            if let Element::Move(item) = &mut game.movetext[element].value {
                if !item.nags.iter().any(|n| (1..=6).contains(&n.value.0)) {
                    item.nags.insert(0, Spanned::bare(nag));
                }
                // Move numbers from 1 at the first ply (North's first move is `1...`).
                let n = (i + usize::from(plies[0].0.to_move() == Side::North)) / 2 + 1;
                let number = match before.to_move() {
                    Side::South => format!("{n}."),
                    Side::North => format!("{n}..."),
                };
                let glyph = nag.glyph().unwrap_or("");
                let token = bao_replay::spell(mv, before, directions, notation);
                counts
                    .marked
                    .push((drop, format!("{number} {token}{glyph}")));
            }
            // The best lines (the first is the one the glyph compares with).
            let lines = if args.multipv > 1 {
                bao_analysis::search_lines(
                    &mut searcher,
                    before,
                    limits,
                    usize::from(args.multipv),
                    |_, _| {},
                )
            } else {
                vec![best.clone()]
            };
            for r in lines.iter().filter(|r| r.best() != Some(*mv)) {
                let line = variation(before, &r.pv, directions, notation);
                if !line.is_empty() {
                    add.push(Element::Variation(line));
                }
            }
            if let Some(better) = best.best() {
                let spell =
                    |m: &Move, at: &Position| bao_replay::spell(m, at, directions, notation);
                add.push(Element::Comment(Comment::brace(&why(
                    before,
                    mv,
                    &better,
                    answer.as_ref(),
                    spell,
                ))));
            }
        }
        inserts.push((element, add));
    }
    for (element, add) in inserts.into_iter().rev() {
        for (k, e) in add.into_iter().enumerate() {
            game.movetext.insert(element + 1 + k, Spanned::bare(e));
        }
    }
    // The critical moments, before the first move.
    let first = game
        .movetext
        .iter()
        .position(|e| matches!(e.value, Element::Move(_)))
        .unwrap_or(0);
    game.movetext.insert(
        first,
        Spanned::bare(Element::Comment(Comment::brace(&counts.summary(limits)))),
    );
    let text = write_record_over(
        &checked.report.text,
        &checked.record,
        &WriteOptions::default(),
    );
    // The annotated record must check clean, as the one read did.
    let again = check_bytes(&name, text.as_bytes(), &CheckOptions::default());
    if !again.report.is_valid() {
        return Err(CliError::Internal(format!(
            "the annotated record of {name} does not check clean"
        )));
    }
    match (&args.output, args.write, file) {
        (Some(out), _, _) => save(out, text.as_bytes())?,
        (None, true, Input::Path(path)) => save(path, text.as_bytes())?,
        _ => std::io::stdout()
            .lock()
            .write_all(text.as_bytes())
            .map_err(|e| CliError::io("cannot write to stdout", e))?,
    }
    eprintln!(
        "bao analyse: {} plies searched; glyphs: {} ?!, {} ?, {} ??",
        plies.len(),
        counts.dubious,
        counts.mistakes,
        counts.blunders
    );
    Ok(Status::Success)
}
