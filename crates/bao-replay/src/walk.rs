//! Walking the lines of a game: each token played by the fast path when it names exactly
//! one legal move, else resolved to say why not; variations from their branch points;
//! repairs assumed where an [`Observer`] asks for them.

use bao_core::{Engine, Move, MoveTrace, Outcome, Pit, Position, ResolveError, Sign};
use bao_notation::meaning::{game_rules, game_start};
use bao_notation::{Directions, Element, Game, MoveItem, Span, Spanned};

use crate::items::annotation_agrees_move;
use crate::model::{
    Assumption, InLine, LineEnd, Observer, Opening, OpeningProblem, Past, Played, Ply, Problem,
    Repair, ReplayedGame, ReplayedLine, Source, Variation,
};
use crate::read::{play_written, written_spec};

/// Replays a game: its opening from the tags, then the main line and every variation.
/// With an `observer`, each ply is shown to it as it is read. The engine calls are exact and
/// unbounded, on an engine of this replay; [`replay_game_in`] replays on the caller's
/// (under its lap budget, say).
#[must_use]
pub fn replay_game(game: &Game, observer: Option<&mut dyn Observer>) -> ReplayedGame {
    replay_game_with(game, observer, ReplayOptions::default())
}

/// How [`replay_game_with`] replays a game beyond what [`replay_game`] does.
#[derive(Debug, Clone, Copy, Default)]
pub struct ReplayOptions {
    /// An earlier-ply repair assumed: at ply `assumed.ply` of the main line, `assumed.mv` is
    /// played in place of the token written there (a [`Source::Assumed`] ply, shown to the
    /// observer as played; the token written is not played). The line assumes it from there
    /// on, as after a repair an [`Observer`] asks for. It is not assumed when the main line
    /// stops before that ply, ends before it, or when the move is not legal there.
    pub assumed: Option<Assumption>,
    /// A lean replay, for a caller that reads a move's laps only to compare them with the
    /// annotation written with it (a check that words the plies and then drops the replay).
    /// A written move with no annotation is played without recording its laps
    /// ([`Position::play_into_counted`]): the observer sees its trace without its lists of
    /// laps, captures and events (the takasia it set is kept). Once shown, every played
    /// move keeps of its trace the move, mover, stage, placement, lap and seed counts,
    /// never-ending and outcome, but not its lists, whose room serves the next move instead
    /// of being allocated again (so its [`Played::items`] are none). Everything else
    /// (plies, positions, problems, ends) is [`replay_game`]'s.
    pub lean: bool,
}

/// Replays a game as [`replay_game`] does, with `options`.
#[must_use]
pub fn replay_game_with(
    game: &Game,
    observer: Option<&mut dyn Observer>,
    options: ReplayOptions,
) -> ReplayedGame {
    replay_game_in(&mut Engine::new(), game, observer, options)
}

/// Replays a game as [`replay_game_with`] does, making every engine call of the replay with
/// `engine`, which the observer is handed too ([`Observer::ply`]): its memo serves the whole
/// game, and a lap budget set on it (`engine.within(laps, |e| replay_game_in(e, ..))`)
/// bounds every never-ending decision of the replay and of the observer, on whatever thread
/// the replay runs. A move whose decision runs out of the budget is not played (as a move
/// that is not legal); the enclosing `Engine::within` reports it ([`bao_core::Undecided`]).
///
/// ```
/// use bao_core::Engine;
/// use bao_notation::parse_record;
/// use bao_replay::{replay_game, replay_game_in, ReplayOptions};
///
/// let parsed = parse_record("1. A7>* a7<* 2. A5< a6<* *\n");
/// let game = &parsed.record.games[0].value;
/// let mut engine = Engine::new();
/// let bounded = engine.within(100_000, |e| {
///     replay_game_in(e, game, None, ReplayOptions::default())
/// });
/// let plies = bounded.expect("decided within the budget").main.plies;
/// assert_eq!(plies.len(), replay_game(game, None).main.plies.len());
/// assert!(plies.iter().all(|p| p.played().is_some()));
/// ```
#[must_use]
pub fn replay_game_in(
    engine: &mut Engine,
    game: &Game,
    observer: Option<&mut dyn Observer>,
    options: ReplayOptions,
) -> ReplayedGame {
    let opening = game_rules(game)
        .map_err(OpeningProblem::Rules)
        .and_then(|rules| {
            let start =
                game_start(game, rules).map_err(|error| OpeningProblem::Start { rules, error })?;
            Ok(Opening {
                rules,
                start,
                directions: game.directions(),
            })
        });
    let main = match &opening {
        Ok(o) => {
            let mut walker = Walker::new(o.directions, observer, engine);
            walker.assumed = options.assumed;
            walker.lean = options.lean;
            walker.main_line(&game.movetext, o.start)
        }
        Err(_) => ReplayedLine::default(),
    };
    ReplayedGame { opening, main }
}

/// Replays the lines of one game.
pub(crate) struct Walker<'o, 'x> {
    directions: Directions,
    observer: Option<&'o mut dyn Observer>,
    /// The engine every call of the replay is made with (and the observer's).
    engine: &'x mut Engine,
    /// A trace the fast path may fill (kept when it fails, so that a refused token costs
    /// no allocation; boxed, so that taking it and putting it back moves a pointer).
    spare: Option<Box<MoveTrace>>,
    /// An earlier-ply repair to play on the main line in place of its token (taken once).
    assumed: Option<Assumption>,
    /// The lists of a played move's trace go back to `spare` once the observer has seen
    /// its ply ([`ReplayOptions::lean`]).
    lean: bool,
    /// The observer is shown every ply played, not only those with a problem
    /// ([`Observer::every_ply`]).
    every_ply: bool,
}

impl std::fmt::Debug for Walker<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Walker")
            .field("directions", &self.directions)
            .finish_non_exhaustive()
    }
}

/// Where a line branches: the ply before its last move, for a variation after it.
#[derive(Debug, Clone, Copy)]
struct Branch {
    /// The plies played before it.
    ply: usize,
    /// How many moves of `past` precede it.
    past: usize,
    /// The index in the line's plies of its (first) ply, whose `before` is the position
    /// before the last move.
    index: usize,
}

/// The state of one line being walked.
struct Line<'e> {
    /// The moves of the line, with their element indices.
    moves: Vec<(usize, &'e MoveItem)>,
    /// The same moves' items (the ones after a ply are shown to the observer as a slice).
    items: Vec<&'e MoveItem>,
    /// How many moves have been read.
    next_move: usize,
    /// The current position; `None` once a refused move stopped the line.
    pos: Option<Position>,
    branch: Option<Branch>,
    /// The outcome reached, with the move that reached it.
    ended: Option<(Outcome, Span)>,
    /// The plies played before the current one (the line's count starts at its branch).
    ply: usize,
    past: Vec<Past>,
    assumes: Option<Assumption>,
    /// An assumed swap: the move index whose token is replaced by the earlier one.
    swapped: Option<(usize, usize, &'e MoveItem)>,
    /// The ply (index in `plies`) played by the fast path whose no-legal-move end test is
    /// still to run, on the line's current position.
    pending: Option<usize>,
    plies: Vec<Ply>,
    main: bool,
}

/// A token read in a position: its move index, element and item.
#[derive(Clone, Copy)]
struct Token<'e> {
    index: usize,
    element: usize,
    item: &'e MoveItem,
}

impl<'o, 'x> Walker<'o, 'x> {
    pub(crate) fn new(
        directions: Directions,
        observer: Option<&'o mut dyn Observer>,
        engine: &'x mut Engine,
    ) -> Self {
        Walker {
            directions,
            every_ply: observer.as_deref().is_none_or(Observer::every_ply),
            observer,
            engine,
            spare: None,
            assumed: None,
            lean: false,
        }
    }

    /// Walks the main line from `start`.
    pub(crate) fn main_line(
        &mut self,
        elems: &[Spanned<Element>],
        start: Position,
    ) -> ReplayedLine {
        self.line(elems, start, 0, true, &[])
    }

    /// Walks a line from `start`; `ply0` plies were played before it; `history` holds the
    /// moves before it (for what points back to them).
    fn line(
        &mut self,
        elems: &[Spanned<Element>],
        start: Position,
        ply0: usize,
        main: bool,
        history: &[Past],
    ) -> ReplayedLine {
        let mut moves = Vec::with_capacity(elems.len());
        moves.extend(
            elems
                .iter()
                .enumerate()
                .filter_map(|(i, e)| match &e.value {
                    Element::Move(m) => Some((i, m)),
                    _ => None,
                }),
        );
        let items = moves.iter().map(|m| m.1).collect();
        let mut past = Vec::with_capacity(history.len() + moves.len());
        past.extend_from_slice(history);
        let mut line = Line {
            plies: Vec::with_capacity(moves.len()),
            moves,
            items,
            next_move: 0,
            pos: Some(start),
            branch: None,
            ended: None,
            ply: ply0,
            past,
            assumes: None,
            swapped: None,
            pending: None,
            main,
        };
        for (i, e) in elems.iter().enumerate() {
            match &e.value {
                Element::Comment(_) => {}
                Element::Variation(v) => self.variation(&mut line, i, v),
                Element::Move(_) => self.token(&mut line),
            }
        }
        // A pending test is set only together with `pos` and taken before `pos` changes.
        if let (Some(p), Some(at)) = (line.pending.take(), line.pos) {
            settle(&mut line, p, &at, self.engine);
        }
        let end = match line.pos {
            Some(position) if line.assumes.is_none() => LineEnd::Complete {
                position,
                outcome: self.engine.outcome(&position).or(line.ended.map(|e| e.0)),
            },
            _ => LineEnd::Stopped,
        };
        let order = text_order(&line.plies);
        ReplayedLine {
            plies: line.plies,
            end,
            order,
        }
    }

    /// A variation after the last move: replayed from the position before it.
    fn variation(&mut self, line: &mut Line<'_>, element: usize, v: &[Spanned<Element>]) {
        let Some(b) = line.branch else { return };
        // The position before the last move: that of the ply it was read as (the first,
        // when a repair inserted a ply before it).
        let Some(pos) = line.plies.get(b.index).map(|p| p.before) else {
            return;
        };
        let history = line.past[..b.past].to_vec();
        let replayed = self.line(v, pos, b.ply, false, &history);
        if let Some(ply) = line.plies.get_mut(b.index) {
            ply.variations.push(Variation {
                element,
                line: replayed,
            });
        }
    }

    /// The next token of the line.
    fn token<'e>(&mut self, line: &mut Line<'e>) {
        let tok = next_token(line);
        let Some(here) = line.pos else {
            line.branch = None;
            return;
        };
        line.ply += 1;
        line.branch = Some(Branch {
            ply: line.ply - 1,
            past: line.past.len(),
            index: line.plies.len(),
        });
        if let Some(a) = self
            .assumed
            .filter(|a| line.main && a.ply == line.ply && line.ended.is_none())
        {
            self.assumed = None;
            if let Ok((next, trace)) = self.engine.play(&here, &a.mv) {
                // A legal move here: the last move did not end the game by E2.
                line.pending = None;
                line.assumes.get_or_insert(a);
                let mut trace = trace.into_trace();
                self.play(line, tok, here, (a.mv, next, &mut trace), Source::Assumed);
                return;
            }
        }
        let mut trace = self
            .spare
            .take()
            .unwrap_or_else(|| Box::new(empty_trace(&here)));
        let fast = if line.ended.is_none() {
            written_spec(&here, tok.item, self.directions)
                .ok()
                .and_then(|spec| {
                    // Nothing reads the laps of a lean replay's move written without an
                    // annotation: played uncounted.
                    let counted = self.lean && tok.item.annotation.is_none();
                    play_written(self.engine, &here, &spec, &mut trace, counted)
                })
        } else {
            None
        };
        if fast.is_some() {
            // A legal move here: the last move did not end the game by E2.
            line.pending = None;
        } else if let Some(p) = line.pending.take() {
            settle(line, p, &here, self.engine);
        }
        match (fast, line.ended.filter(|_| line.main)) {
            (_, Some((outcome, end))) => {
                self.spare = Some(trace);
                self.refused(line, tok, here, Problem::AfterEnd { outcome, end });
                line.pos = None;
            }
            (Some((mv, next)), None) => {
                self.fast(line, tok, here, (mv, next, &mut trace));
                // Its lists came back from the ply once it was shown; else they stay there,
                // and the next move gets new ones.
                if !self.lean {
                    *trace = empty_trace(&next);
                }
                self.spare = Some(trace);
            }
            (None, None) => {
                self.spare = Some(trace);
                self.slow(line, tok, here);
            }
        }
    }

    /// A token the fast path played: its no-legal-move end test left pending unless its
    /// `#` claim is to be judged now.
    fn fast<'e>(
        &mut self,
        line: &mut Line<'e>,
        tok: Token<'e>,
        here: Position,
        (mv, next, trace): (Move, Position, &mut MoveTrace),
    ) {
        if trace.outcome.is_none() {
            if tok.item.token.value.claims_win {
                trace.outcome = self.engine.outcome(&next);
            } else {
                line.pending = Some(line.plies.len());
            }
        }
        self.play(line, tok, here, (mv, next, trace), Source::Written);
    }

    /// A token the fast path did not play: resolved, played, or refused with its problem.
    fn slow<'e>(&mut self, line: &mut Line<'e>, tok: Token<'e>, here: Position) {
        let spec = match written_spec(&here, tok.item, self.directions) {
            Ok(s) => s,
            Err(e) => {
                self.refused(line, tok, here, Problem::NoSuchPit(e));
                line.pos = None;
                return;
            }
        };
        let refusal = match self.engine.resolve(&here, &spec) {
            Ok(mv) => match self.engine.play(&here, &mv) {
                Ok((next, trace)) => {
                    let mut trace = trace.into_trace();
                    self.play(line, tok, here, (mv, next, &mut trace), Source::Written);
                    return;
                }
                Err(e) => ResolveError::Illegal(e),
            },
            Err(r) => r,
        };
        let problem = Problem::Refused {
            spec,
            refusal,
            end: line.ended.map(|e| e.1),
        };
        match self.refused(line, tok, here, problem) {
            Some(repair) => self.assume(line, tok, here, repair),
            None => line.pos = None,
        }
    }

    /// Records a refused token (shown to the observer); the repair it asks for.
    fn refused<'e>(
        &mut self,
        line: &mut Line<'e>,
        tok: Token<'e>,
        here: Position,
        problem: Problem,
    ) -> Option<Repair> {
        line.plies.push(Ply {
            number: line.ply,
            element: tok.element,
            span: tok.item.token.span,
            before: here,
            outcome: Err(problem),
            problems: Vec::new(),
            assumes: line.assumes,
            variations: Vec::new(),
        });
        self.observe(line, tok)
    }

    /// Shows the last ply to the observer.
    fn observe<'e>(&mut self, line: &Line<'e>, tok: Token<'e>) -> Option<Repair> {
        let observer = self.observer.as_deref_mut()?;
        let ply = line.plies.last()?;
        // The moves after this one (copied only while a swap is assumed).
        let rest = line.items.get(tok.index + 1..).unwrap_or_default();
        let swapped = line.swapped.and_then(|(k, _, earlier)| {
            let i = k.checked_sub(tok.index + 1).filter(|&i| i < rest.len())?;
            let mut copy = rest.to_vec();
            copy[i] = earlier;
            Some(copy)
        });
        observer.ply(
            &InLine {
                ply,
                item: tok.item,
                past: &line.past,
                following: swapped.as_deref().unwrap_or(rest),
                directions: self.directions,
                swap_pending: line.swapped.is_some(),
                main: line.main,
            },
            self.engine,
        )
    }

    /// Plays a repair in place of a refused token.
    fn assume<'e>(&mut self, line: &mut Line<'e>, tok: Token<'e>, here: Position, repair: Repair) {
        let ply = line.ply;
        let first = |mv| Assumption { ply, mv };
        match repair {
            Repair::Replace(mv) => {
                line.assumes.get_or_insert(first(mv));
                let (next, mut trace) = self.engine.play_unchecked(&here, &mv);
                self.play(line, tok, here, (mv, next, &mut trace), Source::Assumed);
            }
            Repair::Swap { mv, distance } => {
                line.assumes.get_or_insert(first(mv));
                // The later token is played here; the refused one is read in its place.
                let k = tok.index + distance;
                let Some(&(element, later)) = line.moves.get(k) else {
                    line.pos = None;
                    return;
                };
                line.swapped = Some((k, tok.element, tok.item));
                let (next, mut trace) = self.engine.play_unchecked(&here, &mv);
                let at = Token {
                    index: k,
                    element,
                    item: later,
                };
                self.play(line, at, here, (mv, next, &mut trace), Source::Written);
            }
            Repair::Insert { mv, written } => {
                line.assumes.get_or_insert(first(mv));
                let (mid, mut trace) = self.engine.play_unchecked(&here, &mv);
                self.play(line, tok, here, (mv, mid, &mut trace), Source::Assumed);
                let (next, mut trace) = self.engine.play_unchecked(&mid, &written);
                self.play(line, tok, mid, (written, next, &mut trace), Source::Written);
            }
        }
    }

    /// Records a move played: its items, the problems of the claims and annotation written
    /// with it (for a written one), the ply shown to the observer; the line goes on after it.
    fn play<'e>(
        &mut self,
        line: &mut Line<'e>,
        tok: Token<'e>,
        here: Position,
        (mv, next, trace): (Move, Position, &mut MoveTrace),
        source: Source,
    ) {
        let takasia = trace.takasia_set();
        let wins = trace.outcome.is_some_and(|o| o.winner == Some(trace.mover));
        let mut problems = Vec::new();
        if source == Source::Written {
            claim_problems(tok.item, (trace, &next), takasia, wins, &mut problems);
        }
        let outcome = trace.outcome;
        // Shown to the observer?
        let shown = self.observer.is_some() && (self.every_ply || !problems.is_empty());
        // The ply takes the trace's lists (a lean replay's only while it is shown: they come
        // back after); its counts are copied.
        let lists = !self.lean || shown;
        let kept = MoveTrace {
            mv: trace.mv,
            mover: trace.mover,
            stage: trace.stage,
            placement: trace.placement,
            laps: take_if(lists, &mut trace.laps),
            captures: take_if(lists, &mut trace.captures),
            events: take_if(lists, &mut trace.events),
            laps_total: trace.laps_total,
            seeds_sown: trace.seeds_sown,
            never_ending: trace.never_ending,
            outcome,
        };
        line.plies.push(Ply {
            number: line.ply,
            element: tok.element,
            span: tok.item.token.span,
            before: here,
            outcome: Ok(Played {
                mv,
                trace: kept,
                after: next,
                wins,
                source,
            }),
            problems,
            assumes: line.assumes,
            variations: Vec::new(),
        });
        if shown {
            self.observe(line, tok);
            if self.lean {
                give_back(line, trace);
            }
        }
        line.past.push(Past {
            span: tok.item.token.span,
            mover: here.to_move(),
            takasia,
        });
        if let Some(o) = outcome {
            line.ended = Some((o, tok.item.token.span));
        }
        line.pos = Some(next);
    }
}

/// The plies' indices in the text order of their tokens, when it is not the order read.
fn text_order(plies: &[Ply]) -> Option<Box<[u32]>> {
    if plies.is_sorted_by_key(|p| p.element) {
        return None;
    }
    let mut order: Vec<u32> = (0..plies.len())
        .filter_map(|i| u32::try_from(i).ok())
        .collect();
    order.sort_by_key(|&i| plies[i as usize].element);
    Some(order.into_boxed_slice())
}

/// The list, left empty, when `take`; else a new empty one.
fn take_if<T>(take: bool, list: &mut Vec<T>) -> Vec<T> {
    if take {
        std::mem::take(list)
    } else {
        Vec::new()
    }
}

/// Gives the lists of the last ply's trace back to `trace`, whose room serves the next move
/// ([`ReplayOptions::lean`]).
fn give_back(line: &mut Line<'_>, trace: &mut MoveTrace) {
    let Some(Ok(played)) = line.plies.last_mut().map(|p| &mut p.outcome) else {
        return;
    };
    let t = &mut played.trace;
    trace.laps = std::mem::take(&mut t.laps);
    trace.captures = std::mem::take(&mut t.captures);
    trace.events = std::mem::take(&mut t.events);
}

/// The next token of a line: the written one, or the earlier token an assumed swap put in
/// its place.
fn next_token<'e>(line: &mut Line<'e>) -> Token<'e> {
    let index = line.next_move;
    line.next_move += 1;
    let (element, item) = match line.swapped {
        Some((k, element, earlier)) if k == index => {
            line.swapped = None;
            (element, earlier)
        }
        _ => line.moves[index],
    };
    Token {
        index,
        element,
        item,
    }
}

/// The problems of a written move's claims and annotation that the move does not bear out.
fn claim_problems(
    item: &MoveItem,
    (trace, next): (&MoveTrace, &Position),
    takasia: Option<Pit>,
    wins: bool,
    problems: &mut Vec<Problem>,
) {
    let token = item.token.value;
    if token.claims_takasia && takasia.is_none() {
        problems.push(Problem::FalseTakasiaClaim);
    }
    if token.claims_win && !wins {
        problems.push(Problem::FalseWinClaim);
    }
    // Compared in place; no list of the written items is built.
    if let Some(a) = &item.annotation {
        if let Err(d) = annotation_agrees_move(&a.value, trace, next) {
            problems.push(Problem::Annotation(d));
        }
    }
}

/// Runs a deferred end test: when the side to move after the pending ply has no legal
/// move, the game ended with it (and the move wins). `next` is the position after it.
fn settle(line: &mut Line<'_>, pending: usize, next: &Position, engine: &mut Engine) {
    let Some(o) = engine.outcome(next) else {
        return;
    };
    let Some(ply) = line.plies.get_mut(pending) else {
        return;
    };
    line.ended = Some((o, ply.span));
    if let Ok(played) = &mut ply.outcome {
        played.trace.outcome = Some(o);
        if o.winner == Some(ply.before.to_move()) {
            played.wins = true;
        }
    }
}

/// A trace for the fast path to fill (it resets it for the move it plays).
fn empty_trace(pos: &Position) -> MoveTrace {
    MoveTrace::new(
        Move::capture(Pit::nyumba(pos.to_move()), Sign::Left),
        pos.to_move(),
        pos.stage(),
    )
}

#[cfg(test)]
mod tests {
    use bao_core::{Engine, Position, RuleSet};
    use bao_notation::parse_record;

    use crate::{replay_game, Document, InLine, LineEnd, Observer, Problem, Repair, Source};

    /// A game of Kiswahili Bao, 15 plies, all legal.
    const GAME: &str = "1. A7>* a7<* 2. A5< a6<* 3. A6< a4< 4. A6> a6< 5. A5> a5> 6. A2< a5> 7. A7> a5< 8. A6< *\n";

    fn game(text: &str) -> bao_notation::Game {
        let parsed = parse_record(text);
        assert!(parsed.errors.is_empty(), "{:?}", parsed.errors);
        parsed.record.games[0].value.clone()
    }

    /// A game whose one move is refused (another capture is mandatory) only once the other
    /// moves of its position are decided, one of which runs on a long relay cycle met for
    /// the first time.
    const LONG_CYCLE: &str = "[Position \"3,1,4,1,8,5,0,1/18,0,1,2,1,2,10,0/0,1,0,0,0,0,0,0/1,1,0,1,1,0,1,1 0/0 S XX -\"]\n\n1. A1>* *\n";

    /// A lap budget is the replay's engine's: it reaches the replay wherever it runs. The
    /// replay on another thread than the one that set the budget (as on a rayon worker),
    /// and two replays on two threads that share nothing, give up as the replay on the
    /// caller's thread does, after as many laps; unbounded, the move is refused.
    #[test]
    fn the_budget_reaches_a_replay_on_another_thread() {
        let g = game(LONG_CYCLE);
        let options = crate::ReplayOptions::default();
        let replay = |e: &mut Engine| crate::replay_game_in(e, &g, None, options).main.plies;
        let here = Engine::new()
            .within(10_000, |e| replay(e))
            .expect_err("undecided within 10,000 laps");
        let there = Engine::new().within(10_000, |e| {
            std::thread::scope(|s| s.spawn(|| replay(e)).join().expect("joined"))
        });
        assert_eq!(there.map(|p| p.len()), Err(here));
        let apart: Vec<_> = std::thread::scope(|s| {
            let threads: Vec<_> = (0..2)
                .map(|_| s.spawn(|| Engine::new().within(10_000, |e| replay(e))))
                .collect();
            threads
                .into_iter()
                .map(|t| t.join().expect("joined"))
                .collect()
        });
        for got in apart {
            assert_eq!(got.map(|p| p.len()), Err(here));
        }
        assert!(here.laps_run >= 10_000, "{here}");
        let exact = replay_game(&g, None);
        assert!(
            matches!(exact.main.plies[0].problems(), [Problem::Refused { .. }]),
            "{:?}",
            exact.main.plies[0]
        );
    }

    #[test]
    fn every_ply_holds_what_a_full_play_gives() {
        let replayed = replay_game(&game(GAME), None);
        let plies = &replayed.main.plies;
        assert_eq!(plies.len(), 15);
        let mut pos = Position::start(RuleSet::KISWAHILI);
        for (k, ply) in plies.iter().enumerate() {
            assert_eq!(ply.number, k + 1);
            assert_eq!(ply.before, pos);
            let played = ply.played().expect("legal");
            let (after, trace) = pos.play(&played.mv).expect("legal");
            assert_eq!(played.after, after);
            assert_eq!(played.trace, trace, "ply {}", k + 1);
            assert_eq!(played.source, Source::Written);
            assert!(ply.problems().is_empty());
            pos = after;
        }
        assert!(matches!(replayed.main.end, LineEnd::Complete { position, .. } if position == pos));
        assert_eq!(replayed.played_count(), 15);
    }

    #[test]
    fn a_game_that_ends_by_no_legal_move_has_the_outcome_in_its_last_trace() {
        // Random games until one ends with the loser unable to move.
        for seed in 0..400u64 {
            let mut pos = Position::start(RuleSet::KISWAHILI);
            let mut moves = Vec::new();
            let mut pick = bao_testkit::Lcg::new(seed).picker();
            while pos.outcome().is_none() && moves.len() < 300 {
                let legal = pos.legal_moves();
                let mv = legal[pick(legal.len())];
                moves.push(mv);
                pos = pos.play_fast(&mv);
            }
            if pos.outcome().map(|o| o.reason) != Some(bao_core::EndReason::NoLegalMove) {
                continue;
            }
            let text: Vec<String> = moves.iter().map(ToString::to_string).collect();
            let replayed = replay_game(&game(&format!("{} *\n", text.join(" "))), None);
            let last = replayed.main.plies.last().and_then(|p| p.played());
            let last = last.expect("the game replays");
            assert_eq!(last.trace.outcome, pos.outcome());
            assert!(last.wins);
            return;
        }
        panic!("no random game ended without a legal move");
    }

    #[test]
    fn a_variation_hangs_on_the_ply_it_replaces() {
        let replayed = replay_game(&game("1. A7>* (1. A6<*) a7<* *\n"), None);
        let plies = &replayed.main.plies;
        assert_eq!(plies.len(), 2);
        let v = &plies[0].variations;
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].element, 1);
        let g = game("1. A7>* (1. A6<*) a7<* *\n");
        let item = plies[1].item(&g.movetext).expect("a move");
        assert_eq!(item.token.value.to_string(), "a7<*");
        let bao_notation::Element::Variation(elems) = &g.movetext[1].value else {
            panic!("a variation");
        };
        let alt_item = v[0].line.plies[0].item(elems).expect("a move");
        assert_eq!(alt_item.token.span, v[0].line.plies[0].span);
        let alt = &v[0].line.plies[0];
        assert_eq!(alt.number, 1);
        assert_eq!(alt.before, plies[0].before);
        assert_eq!(alt.played().expect("legal").mv.to_string(), "A6<*");
        assert!(plies[1].variations.is_empty());
    }

    #[test]
    fn a_token_after_a_refused_one_is_not_read_and_the_line_stops() {
        let replayed = replay_game(&game("1. A7>* A5<* a7<* *\n"), None);
        let plies = &replayed.main.plies;
        assert_eq!(plies.len(), 2);
        assert!(matches!(plies[1].problems(), [Problem::Refused { .. }]));
        assert!(matches!(replayed.main.end, LineEnd::Stopped));
        assert_eq!(replayed.final_outcome(), None);
    }

    /// A lean replay holds what the full one holds, but the lists of its moves' traces (and
    /// so their items).
    #[test]
    fn a_lean_replay_differs_only_by_the_trace_lists_and_unread_items() {
        let texts = [
            GAME.to_owned(),
            "1. A7>* (1. A6<* (1. A5<*) a7<*) a7<* 2. A5< [A4:2] a6<* *\n".to_owned(),
            "1. A7>* A5<* a7<* *\n".to_owned(),
            GAME.replacen("a6<*", "a6<**", 1),
        ];
        fn flat(line: &crate::ReplayedLine, lean: bool, out: &mut Vec<String>) {
            for p in &line.plies {
                let mut p2 = p.clone();
                p2.variations.clear();
                if let Ok(played) = &mut p2.outcome {
                    played.trace.laps.clear();
                    played.trace.captures.clear();
                    played.trace.events.clear();
                }
                // The items come from the trace's lists, which a lean replay gives back.
                if lean {
                    assert!(p.played().is_none_or(|x| x.items().is_empty()), "{p:?}");
                }
                out.push(format!("{p2:?}"));
                for v in &p.variations {
                    flat(&v.line, lean, out);
                }
            }
            out.push(format!("{:?}", line.end));
        }
        for text in texts {
            let g = game(&text);
            let (full, lean) = (
                replay_game(&g, None),
                crate::replay_game_with(
                    &g,
                    None,
                    crate::ReplayOptions {
                        lean: true,
                        ..crate::ReplayOptions::default()
                    },
                ),
            );
            let (mut a, mut b) = (Vec::new(), Vec::new());
            flat(&full.main, false, &mut a);
            flat(&lean.main, true, &mut b);
            assert_eq!(a, b, "{text}");
            assert!(full
                .main
                .plies
                .iter()
                .any(|p| p.played().is_some_and(|x| !x.trace.laps.is_empty())));
            assert!(full
                .main
                .plies
                .iter()
                .any(|p| p.played().is_some_and(|x| !x.items().is_empty())));
        }
    }

    /// Answers every refused ply with a fixed repair, and counts the plies seen.
    struct Fixed(Option<Repair>, usize);

    impl Observer for Fixed {
        fn ply(&mut self, at: &InLine<'_>, _: &mut Engine) -> Option<Repair> {
            self.1 += 1;
            match at.ply.outcome {
                Err(Problem::Refused { .. }) => self.0.take(),
                _ => None,
            }
        }
    }

    #[test]
    fn an_assumed_swap_plays_the_later_token_then_the_refused_one() {
        // Plies 1 and 2 swapped.
        let text = GAME.replacen("1. A7>* a7<*", "1. a7<* A7>*", 1);
        let g = game(&text);
        let start = Position::start(RuleSet::KISWAHILI);
        let mv = start
            .legal_moves()
            .into_iter()
            .find(|m| m.to_string() == "A7>*");
        let mut obs = Fixed(
            Some(Repair::Swap {
                mv: mv.expect("legal"),
                distance: 1,
            }),
            0,
        );
        let replayed = replay_game(&g, Some(&mut obs));
        let plies = &replayed.main.plies;
        // The refused token, the later one played in its place, the refused one read again.
        assert!(plies[0].played().is_none());
        assert_eq!(plies[1].element, 1);
        assert_eq!(plies[1].played().expect("played").mv.to_string(), "A7>*");
        assert_eq!(plies[2].element, 0);
        assert_eq!(plies[2].played().expect("played").mv.to_string(), "a7<*");
        assert_eq!(replayed.played_count(), 15);
        assert_eq!(obs.1, plies.len());
        // Every ply after the repair says it assumes it; the line is not complete.
        assert!(plies[0].assumes.is_none());
        assert!(plies[1..]
            .iter()
            .all(|p| p.assumes.is_some_and(|a| a.ply == 1)));
        assert!(matches!(replayed.main.end, LineEnd::Stopped));
        // The document walks the tokens in text order, each with the plies read from it.
        let doc = Document::new(&g, &replayed);
        let moves: Vec<_> = doc.main().moves().collect();
        assert_eq!(moves.len(), 15);
        assert_eq!(moves[0].plies().count(), 2);
        assert_eq!(moves[0].played().expect("played").1.mv.to_string(), "a7<*");
        assert_eq!(moves[1].plies().count(), 1);
        assert_eq!(moves[1].played().expect("played").1.mv.to_string(), "A7>*");
        assert!(moves[2..].iter().all(|m| m.plies().count() == 1));
    }

    #[test]
    fn an_assumed_insertion_plays_a_move_the_record_does_not_have() {
        // North's a7<* left out.
        let text = GAME.replacen("1. A7>* a7<* 2. A5<", "1. A7>* 2. A5<", 1);
        let g = game(&text);
        let start = Position::start(RuleSet::KISWAHILI);
        let after = start.play_fast(
            &start
                .legal_moves()
                .into_iter()
                .find(|m| m.to_string() == "A7>*")
                .expect("legal"),
        );
        let missing = after
            .legal_moves()
            .into_iter()
            .find(|m| m.to_string() == "a7<*")
            .expect("legal");
        let mid = after.play_fast(&missing);
        let written = mid
            .legal_moves()
            .into_iter()
            .find(|m| m.to_string() == "A5<")
            .expect("legal");
        let mut obs = Fixed(
            Some(Repair::Insert {
                mv: missing,
                written,
            }),
            0,
        );
        let replayed = replay_game(&g, Some(&mut obs));
        let plies = &replayed.main.plies;
        assert!(plies[1].played().is_none());
        let inserted = plies[2].played().expect("played");
        assert_eq!((inserted.mv, inserted.source), (missing, Source::Assumed));
        let again = plies[3].played().expect("played");
        assert_eq!((again.mv, again.source), (written, Source::Written));
        assert_eq!(plies[3].element, plies[1].element);
        assert_eq!(replayed.played_count(), 15);
        // In the document, the token holds the refusal, the ply assumed and the ply written.
        let doc = Document::new(&g, &replayed);
        let token = doc.main().moves().nth(1).expect("a move");
        assert_eq!(token.plies().count(), 3);
        assert_eq!(token.ply().expect("a ply").number, 2);
        assert_eq!(token.played().expect("played").1.mv, written);
        assert_eq!(doc.move_of_ply(&plies[2]).map(|m| m.index()), Some(1));
    }
}
