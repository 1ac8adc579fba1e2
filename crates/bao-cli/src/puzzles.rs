//! `bao analyse --puzzles FILE...`: the positions of an archive's games where exactly one
//! move wins by force, written as a problem set (spec/engine.md, "Puzzles").
//!
//! Each input is read game by game and each chunk's games are searched on the pool
//! ([`stream_replayed_chunks`], as `bao check` reads a large file), in bounded memory; the
//! problems are written in file order as they come. A position of a game's main line (as
//! bao-replay replayed it) is a puzzle when bao-analysis's exact solver proves that the side
//! to move wins within `2N - 1` plies (N of its own moves, at most `--max-moves`), with N
//! the smallest such, and that exactly one first move does (every other first move proven
//! not to win within those plies).

use std::path::PathBuf;

use bao_analysis::Solver;
use bao_core::{Position, Side};
use bao_notation::{
    Comment, Directions, Element, Game, GameResult, Notation, PositionString, RecordWriter,
    Spanned, Tag, WriteOptions,
};
use bao_replay::{Document, ReplayedGame};
use bao_validate::stream::Chunk;
use rayon::prelude::*;

use crate::context::{Context, Status};
use crate::error::CliError;
use crate::inputs::{collect, open};
use crate::lines::variation_of;
use crate::output::Output;
use crate::report::{handler, HumanOut};
use crate::streaming::stream_replayed_chunks;

/// The tag that states a problem's task (spec/notation.md): `win in N`, N the moves of the
/// side to move.
pub(crate) const PROBLEM_TAG: &str = "Problem";

/// What `--puzzles` is asked: the inputs, the longest win looked for, where to write.
#[derive(Debug)]
pub(crate) struct Request<'a> {
    pub(crate) inputs: &'a [String],
    pub(crate) max_moves: u32,
    pub(crate) output: Option<&'a PathBuf>,
    pub(crate) threads: Option<usize>,
    pub(crate) quiet: bool,
}

/// A puzzle found: where, and the problem's task and solution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Found {
    /// The ply of the source game's main line the position comes before (from 1).
    pub(crate) ply: usize,
    /// The wins's length in the side to move's moves.
    pub(crate) moves: u32,
    /// The position.
    pub(crate) position: Position,
    /// The solution: the winning move, then the longest defence against the quickest win.
    pub(crate) line: Vec<bao_core::Move>,
}

/// The puzzles of one game's main line, in order. A puzzle's forced sequence is not asked
/// again: after a puzzle whose winning move the game played, the positions of the winning
/// line that follow it (up to its end) are skipped.
pub(crate) fn puzzles_of(doc: &Document<'_>, max_moves: u32) -> Vec<Found> {
    let positions: Vec<(Position, bao_core::Move)> = doc
        .main()
        .moves()
        .map_while(|m| m.played().map(|(p, pl)| (p.before, pl.mv)))
        .collect();
    let horizon = max_moves.max(1) * 2 - 1;
    // Exact: a move left undecided for want of laps would prove nothing, and another
    // winning move could hide behind it.
    let mut solver = Solver::new().exact();
    let mut found = Vec::new();
    let mut skip_to = 0;
    for (i, (pos, played)) in positions.iter().enumerate() {
        if i < skip_to || pos.outcome().is_some() || !solver.wins(pos, horizon) {
            continue;
        }
        let sol = solver.solve(pos, horizon, true);
        let Some(shortest) = sol.plies else {
            continue;
        };
        let winning: Vec<_> = sol.moves.iter().filter(|w| w.plies <= shortest).collect();
        let [only] = winning.as_slice() else {
            continue;
        };
        if sol.line.first() != Some(&only.mv) {
            continue;
        }
        found.push(Found {
            ply: i + 1,
            moves: shortest.div_ceil(2),
            position: *pos,
            line: sol.line.clone(),
        });
        if *played == only.mv {
            skip_to = i + usize::try_from(shortest).unwrap_or(usize::MAX);
        }
    }
    found
}

/// A side's name.
const fn side_name(side: Side) -> &'static str {
    match side {
        Side::South => "South",
        Side::North => "North",
    }
}

/// The problem record of a puzzle found in game `number` of `file`: the source game's
/// roster, rules and `Directions` tags, `Position`, `Problem` and `Source`, the solution as
/// the main line (canonical moves, with their `**` and `#` marks) and a comment before it.
pub(crate) fn problem_record(source: &Game, file: &str, number: usize, found: &Found) -> Game {
    let copied = |name: &str| source.tag(name).map(|v| v.value.clone());
    let mut tags = Vec::new();
    for name in ["Event", "Site", "Date", "Round", "South", "North"] {
        tags.push(Tag::new(
            name,
            &copied(name).unwrap_or_else(|| "?".to_owned()),
        ));
    }
    let mover = found.position.to_move();
    let result = match mover {
        Side::South => GameResult::SouthWins,
        Side::North => GameResult::NorthWins,
    };
    tags.push(Tag::new("Result", result.as_str()));
    for name in ["RuleSet", "Rules"] {
        if let Some(v) = copied(name) {
            tags.push(Tag::new(name, &v));
        }
    }
    tags.push(Tag::new(
        "Position",
        &PositionString::from(&found.position).to_string(),
    ));
    tags.push(Tag::new(
        "Source",
        &format!("{file}, game {number}, before ply {}", found.ply),
    ));
    tags.push(Tag::new(PROBLEM_TAG, &format!("win in {}", found.moves)));
    let line = variation_of(
        &found.position,
        &found.line,
        Directions::Mover,
        Notation::CANONICAL,
        usize::MAX,
    );
    let plural = if found.moves == 1 { "move" } else { "moves" };
    let defence = if found.moves > 1 {
        format!(
            "; {}'s longest defence is shown",
            side_name(mover.opponent())
        )
    } else {
        String::new()
    };
    let horizon = found.moves * 2 - 1;
    let plies = if horizon == 1 { "ply" } else { "plies" };
    let mut movetext = vec![Spanned::bare(Element::Comment(Comment::brace(&format!(
        "{} to move wins in {} {plural}: one first move wins, no other does within {horizon} {plies}{defence}.",
        side_name(mover),
        found.moves,
    ))))];
    movetext.extend(line);
    Game {
        comments: Vec::new(),
        tags: tags.into_iter().map(Spanned::bare).collect(),
        movetext,
        result: Some(Spanned::bare(result)),
    }
}

/// The problem records of a chunk's games (searched in parallel).
fn chunk_problems(
    chunk: &Chunk,
    replayed: &[ReplayedGame],
    file: &str,
    max_moves: u32,
) -> Vec<Game> {
    chunk
        .games
        .par_iter()
        .zip(replayed.par_iter())
        .map(|((number, game, _), r)| {
            let doc = Document::new(&game.value, r).with_text(&chunk.text);
            puzzles_of(&doc, max_moves)
                .iter()
                .map(|f| problem_record(&game.value, file, *number, f))
                .collect::<Vec<_>>()
        })
        .flatten()
        .collect()
}

/// Runs `bao analyse --puzzles`.
pub(crate) fn run(req: &Request<'_>, ctx: &Context) -> Result<Status, CliError> {
    crate::pool::in_pool(req.threads, || run_in_pool(req, ctx))
}

fn run_in_pool(req: &Request<'_>, ctx: &Context) -> Result<Status, CliError> {
    let sources = collect(req.inputs)?;
    let mut sink = Output::new(req.output.map(PathBuf::as_path))?;
    let handler = handler(ctx.color);
    let mut writer = RecordWriter::new(WriteOptions::default());
    let (mut games, mut puzzles, mut valid, mut failed) = (0usize, 0usize, true, false);
    for src in &sources {
        let (name, input) = match open(src) {
            Ok(x) => x,
            Err(e) => {
                eprintln!("bao analyse: {e}");
                failed = true;
                continue;
            }
        };
        let mut human = HumanOut::default();
        let report = stream_replayed_chunks(
            &name,
            input,
            |chunk, replayed| {
                (
                    chunk.games.len(),
                    chunk_problems(chunk, &replayed, &name, req.max_moves),
                )
            },
            &mut |piece| human.piece(piece, &handler),
            &mut |(n, found): (usize, Vec<Game>)| {
                games += n;
                let mut text = String::new();
                for g in found {
                    puzzles += 1;
                    writer.game(Spanned::bare(g), &mut text);
                }
                sink.write(text.as_bytes())
            },
        )?;
        human.print_report(&report, &handler)?;
        valid &= report.is_valid();
    }
    let mut text = String::new();
    writer.finish(&mut text);
    sink.write(text.as_bytes())?;
    sink.finish()?;
    if !req.quiet {
        eprintln!(
            "bao analyse: {puzzles} puzzle{} in {games} game{} (wins in at most {} move{})",
            if puzzles == 1 { "" } else { "s" },
            if games == 1 { "" } else { "s" },
            req.max_moves,
            if req.max_moves == 1 { "" } else { "s" },
        );
    }
    Ok(if failed {
        Status::Failed
    } else {
        Status::valid_if(valid)
    })
}
