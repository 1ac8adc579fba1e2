//! Replaying the games of a record: main lines, variations from their branch points, rule
//! sets and start positions from the tags, dialect tokens resolved against the position.

use bao_core::{
    EndReason, IllegalReason, Move, MoveSpec, MoveTrace, Outcome, PlayError, Position,
    ResolveError, RuleSet, Setup, Side, Sign, Stage,
};
use bao_notation::{Directions, Element, Game, GameResult, MoveItem, SignUse, Span, Spanned};

use crate::annotate::{agrees, agrees_written, items_text, ItemList};
use crate::codes::Code;
use crate::diagnostic::CheckDiagnostic;
use crate::plies::{rank_in_line, InLine};
use crate::suggest::{rank, unambiguous, Repair, Suggestion};
use crate::words::{self, primary_label, rule_sentence};
use crate::{CheckOptions, NoSuchPit};

/// A move that replayed, keyed by its token's position in the text (for `annotate`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Played {
    /// The byte offset of the move token.
    pub token_start: usize,
    /// The move.
    pub mv: Move,
    /// The engine's annotation items.
    pub items: ItemList,
    /// The move creates a takasia.
    pub takasia: bool,
    /// The move wins.
    pub wins: bool,
}

/// The result of checking one game.
#[derive(Debug, Default)]
pub(crate) struct GameCheck {
    pub(crate) diagnostics: Vec<CheckDiagnostic>,
    pub(crate) plies: usize,
    pub(crate) played: Vec<Played>,
    /// The outcome at the end of the main line, if it replayed to its end.
    pub(crate) final_outcome: Option<Option<Outcome>>,
}

/// A move played by the fast path whose no-legal-move end test is still to run (on the
/// position after it, which is the line's current position while the test is pending).
#[derive(Debug, Clone, Copy)]
struct Pending {
    /// Its index in `GameCheck::played`.
    played: usize,
    /// Its token.
    span: Span,
    mover: Side,
}

/// A move of the line walked so far, for secondary labels.
#[derive(Debug, Clone, Copy)]
struct Past {
    span: Span,
    mover: Side,
    takasia: Option<bao_core::Pit>,
}

/// The rules a game is played under: the `RuleSet` preset and the `Rules` overrides.
pub(crate) fn game_rules(game: &Game, n: usize) -> Result<RuleSet, Box<CheckDiagnostic>> {
    let mut rules = RuleSet::KISWAHILI;
    // `[RuleSet "preset name=value ..."]`: the preset, then optional overrides (notation §5).
    let mut preset_overrides = Vec::new();
    if let Some(tag) = game.tag("RuleSet") {
        let mut words = tag.value.split_whitespace();
        let preset = words.next().unwrap_or("");
        match RuleSet::preset(preset) {
            Some(r) => rules = r,
            None => {
                return Err(Box::new(
                    CheckDiagnostic::new(
                        Code::UnknownRules,
                        n,
                        format!("unknown rule preset `{preset}`"),
                    )
                    .primary(tag.span, "no preset has this name")
                    .help(format!(
                        "The presets are {}; the game's moves are not checked.",
                        bao_core::PRESET_NAMES.join(", ")
                    )),
                ));
            }
        }
        preset_overrides = words.map(|w| (w.to_owned(), tag.span)).collect();
    }
    apply_overrides(
        &mut rules,
        &preset_overrides,
        n,
        "Overrides are written `name=value` after the preset, as in \
         [RuleSet \"kiswahili mtaji_takasa_house=relay\"]; the game's moves are not checked.",
    )?;
    if let Some(tag) = game.tag("Rules") {
        let parts: Vec<(String, Span)> = tag
            .value
            .split(|c: char| c.is_whitespace() || c == ',' || c == ';')
            .filter(|p| !p.is_empty())
            .map(|p| (p.to_owned(), tag.span))
            .collect();
        apply_overrides(
            &mut rules,
            &parts,
            n,
            "Overrides are written `name=value`, separated by spaces, as in \
             [Rules \"mtaji_takasa_house=relay\"]; the game's moves are not checked.",
        )?;
    }
    Ok(rules)
}

/// Applies `name=value` overrides in order; the first that fails is the diagnostic.
fn apply_overrides(
    rules: &mut RuleSet,
    parts: &[(String, Span)],
    n: usize,
    help: &str,
) -> Result<(), Box<CheckDiagnostic>> {
    for (part, span) in parts {
        let (name, value) = part.split_once('=').unwrap_or((part, ""));
        if let Err(e) = rules.set_option(name.trim(), value.trim()) {
            return Err(Box::new(
                CheckDiagnostic::new(
                    Code::UnknownRules,
                    n,
                    format!("rule override `{part}` cannot be applied"),
                )
                .primary(*span, e.to_string())
                .help(help.to_owned()),
            ));
        }
    }
    Ok(())
}

/// The start position of a game: the `Position` tag, else the rule set's start.
pub(crate) fn start_position(
    game: &Game,
    rules: RuleSet,
    n: usize,
) -> Result<Option<Position>, Box<CheckDiagnostic>> {
    let Some(tag) = game.tag("Position") else {
        return Ok(Some(Position::start(rules)));
    };
    // A value that is no position string is a syntax error already.
    let Some(ps) = game.position() else {
        return Ok(None);
    };
    let setup: Setup = ps.to_setup(rules);
    Position::from_setup(setup).map(Some).map_err(|e| {
        let names = rules.names();
        let reasons: Vec<String> = e
            .problems
            .iter()
            .map(|p| words::setup_problem(p, &names))
            .collect();
        let mut d = CheckDiagnostic::new(
            Code::InvalidPosition,
            n,
            format!(
                "the Position tag is no valid position ({} problem{})",
                reasons.len(),
                if reasons.len() == 1 { "" } else { "s" }
            ),
        )
        .primary(tag.span, "not a position of this rule set");
        d.help = Some(format!(
            "A position holds 64 seeds, hands of at most 22, houses that match their seeds and a takasia only where it can exist; here: {}. The game's moves are not checked.",
            reasons.join("; ")
        ));
        Box::new(d)
    })
}

/// Checks one game.
pub(crate) fn check_game(game: &Game, n: usize, opts: &CheckOptions) -> GameCheck {
    let mut out = GameCheck::default();
    let rules = match game_rules(game, n) {
        Ok(r) => r,
        Err(d) => {
            out.diagnostics.push(*d);
            return out;
        }
    };
    let start = match start_position(game, rules, n) {
        Ok(Some(p)) => p,
        Ok(None) => return out,
        Err(d) => {
            out.diagnostics.push(*d);
            return out;
        }
    };
    let directions = game.directions();
    let mut walker = Walker {
        n,
        directions,
        opts,
        out: &mut out,
    };
    let end = walker.line(&game.movetext, start, 0, true, &[]);
    if let LineEnd::Complete { pos, ended } = end {
        out.final_outcome = Some(pos.outcome().or(ended));
    }
    // A whole game that replays under another sign convention.
    // Only a game long enough to tell the conventions apart is worth the note.
    const MIN_PLIES_FOR_CONVENTION: usize = 10;
    if game.main_line().count() >= MIN_PLIES_FOR_CONVENTION
        && out.diagnostics.iter().any(|d| d.code.area() == "illegal")
    {
        if let Some(other) = other_convention(game, start, directions) {
            if let Some(d) = out
                .diagnostics
                .iter_mut()
                .find(|d| d.code.area() == "illegal")
            {
                let note = format!(
                    "The whole game replays cleanly when its signs are read with [Directions \"{other}\"]: the record seems to follow that convention."
                );
                d.help = Some(match d.help.take() {
                    Some(h) => format!("{h}\n{note}"),
                    None => note,
                });
            }
        }
    }
    out.played.sort_by_key(|p| p.token_start);
    out
}

/// The other sign convention under which the main line replays without an illegal move.
fn other_convention(game: &Game, start: Position, current: Directions) -> Option<Directions> {
    [Directions::Mover, Directions::South, Directions::Clockwise]
        .into_iter()
        .filter(|d| *d != current)
        .find(|d| {
            let mut pos = start;
            let mut any = false;
            for item in game.main_line() {
                any = true;
                let Ok(spec) = token_spec(&pos, item, *d) else {
                    return false;
                };
                match resolve(&pos, &spec) {
                    Ok(mv) => pos = pos.play_fast(&mv),
                    Err(_) => return false,
                }
            }
            any
        })
}

/// How a line ended.
enum LineEnd {
    /// Every move replayed (or was repaired by an assumption).
    Complete {
        pos: Position,
        ended: Option<Outcome>,
    },
    /// An illegal move stopped it.
    Stopped,
}

/// The move spec a token stands for in `pos`, signs converted from the record's convention.
pub(crate) fn token_spec(
    pos: &Position,
    item: &MoveItem,
    directions: Directions,
) -> Result<MoveSpec, NoSuchPit> {
    let token = item.token.value;
    let mover = pos.to_move();
    let Some(pit) = token.pit.resolve(mover) else {
        return Err(NoSuchPit(token.pit));
    };
    let mut spec = token.spec_at(pit);
    if let Some(sign) = spec.sign {
        let usage = if pos.stage() == Stage::Namua
            && !spec.takasa
            && pit.side() == mover
            && pit.facing().is_some_and(|f| pos.get(f) > 0)
            && pos.get(pit) > 0
        {
            SignUse::Kichwa
        } else {
            SignUse::Sowing(pit.row())
        };
        spec.sign = Some(directions.sign(sign, pit.side(), usage));
    }
    Ok(spec)
}

struct Walker<'a> {
    n: usize,
    directions: Directions,
    opts: &'a CheckOptions,
    out: &'a mut GameCheck,
}

impl Walker<'_> {
    fn push(&mut self, mut d: CheckDiagnostic, assumes: &Option<(usize, String)>) {
        d.assumes.clone_from(assumes);
        self.out.diagnostics.push(d);
    }

    /// Walks a line from `start`; `ply0` plies were played before it; `history` holds the
    /// moves before it (for labels).
    fn line(
        &mut self,
        elems: &[Spanned<Element>],
        start: Position,
        ply0: usize,
        main: bool,
        history: &[Past],
    ) -> LineEnd {
        let mut pos = Some(start);
        let mut before_last: Option<(Position, usize, usize)> = None; // position, ply, history len
        let mut ended: Option<(Outcome, Span)> = None;
        let mut ply = ply0;
        let mut past: Vec<Past> = Vec::with_capacity(history.len() + elems.len());
        past.extend_from_slice(history);
        let mut assumes: Option<(usize, String)> = None;
        // An assumed swap: the move index whose token is replaced by an earlier one.
        let mut swapped: Option<(usize, &MoveItem)> = None;
        // Sized at once (most elements are moves) rather than grown move by move.
        let mut moves: Vec<&MoveItem> = Vec::with_capacity(elems.len());
        moves.extend(elems.iter().filter_map(|e| match &e.value {
            Element::Move(m) => Some(m),
            _ => None,
        }));
        let mut move_index = 0usize;
        // The no-legal-move end test (E2) of the last move, when it was played by the fast
        // path: a legal next move settles it for free; anything else runs it.
        let mut pending: Option<Pending> = None;
        // The trace of the ply being replayed, reused from ply to ply (the fast path fills
        // it; the slow path's own trace replaces it).
        let mut trace = MoveTrace::new(
            Move {
                pit: bao_core::Pit::nyumba(start.to_move()),
                sign: Sign::Left,
                takasa: false,
                safari: false,
            },
            start.to_move(),
            start.stage(),
        );
        self.out.played.reserve(moves.len());
        for e in elems {
            match &e.value {
                Element::Comment(_) => {}
                Element::Variation(v) => {
                    if let Some((bp, bply, hlen)) = before_last {
                        let hist = past[..hlen].to_vec();
                        let _ = self.line(v, bp, bply, false, &hist);
                    }
                }
                Element::Move(item) => {
                    let idx = move_index;
                    move_index += 1;
                    let item = match swapped {
                        Some((k, earlier)) if k == idx => {
                            swapped = None;
                            earlier
                        }
                        _ => item,
                    };
                    let Some(here) = pos else {
                        before_last = None;
                        continue;
                    };
                    ply += 1;
                    before_last = Some((here, ply - 1, past.len()));
                    let fast = if ended.is_none() {
                        self.fast_play(&here, item, &mut trace)
                    } else {
                        None
                    };
                    if fast.is_some() {
                        // A legal move here: the last move did not end the game by E2.
                        pending = None;
                    } else if let Some(p) = pending.take() {
                        self.settle(p, &here, &mut ended);
                    }
                    if let (Some((o, end_span)), true) = (ended, main) {
                        let d = CheckDiagnostic::new(
                            Code::GameContinuesAfterEnd,
                            self.n,
                            format!(
                                "the game is over ({}), but the record goes on with {}",
                                outcome_words(&o),
                                item.token.value
                            ),
                        )
                        .primary(item.token.span, "a move after the end of the game")
                        .secondary(end_span, "the game ended with this move")
                        .help(format!(
                            "{} Move the result here, or check the moves before it.",
                            rule_sentence(
                                Code::GameContinuesAfterEnd,
                                here.rules(),
                                here.to_move()
                            )
                        ))
                        .at_ply(ply);
                        self.push(d, &assumes);
                        pos = None;
                        continue;
                    }
                    // The moves after this one (copied only while a swap is assumed).
                    let swapped_following: Vec<&MoveItem>;
                    let following: &[&MoveItem] = match swapped {
                        Some((k, earlier)) => {
                            let mut v = moves[idx + 1..].to_vec();
                            v[k - idx - 1] = earlier;
                            swapped_following = v;
                            &swapped_following
                        }
                        None => &moves[idx + 1..],
                    };
                    let deferred = fast.is_some();
                    let played = match fast {
                        Some(f) => {
                            self.out.plies += 1;
                            Ok(f)
                        }
                        None => self
                            .play(&here, item, ply, &past, ended.map(|e| e.1), following)
                            .map(|(mv, next, t)| {
                                trace = t;
                                (mv, next)
                            }),
                    };
                    match played {
                        Ok((mv, next)) => {
                            if deferred && trace.outcome.is_none() {
                                if item.token.value.claims_win {
                                    // The `#` claim is judged now.
                                    trace.outcome = next.outcome();
                                } else {
                                    pending = Some(Pending {
                                        played: self.out.played.len(),
                                        span: item.token.span,
                                        mover: here.to_move(),
                                    });
                                }
                            }
                            let takasia =
                                self.record(item, ply, &mv, &here, &next, &trace, &assumes);
                            past.push(Past {
                                span: item.token.span,
                                mover: here.to_move(),
                                takasia,
                            });
                            if let Some(o) = trace.outcome {
                                ended = Some((o, item.token.span));
                            }
                            pos = Some(next);
                        }
                        Err(d) => {
                            let fix = d.fix.as_ref().and_then(|f| {
                                here.legal_moves().into_iter().find(|m| m.to_string() == *f)
                            });
                            // One pending swap at a time: a second one is not assumed.
                            let repair = d.repair.clone().filter(|r| {
                                self.opts.assume_fixes
                                    && !(swapped.is_some()
                                        && matches!(r.repair, Repair::Swap { .. }))
                            });
                            self.push(*d, &assumes);
                            match fix.filter(|_| self.opts.assume_fixes) {
                                None if repair.is_some() => {
                                    // Two plies swapped, or one ply inserted: play the
                                    // repair's move here (with its own token for a swap).
                                    let Some(r) = repair else { continue };
                                    let (mut at, trace) = here.play_unchecked(&r.mv);
                                    self.out.plies += 1;
                                    assumes.get_or_insert((ply, r.mv.to_string()));
                                    let token = match r.repair {
                                        Repair::Swap {
                                            ply: p, with_ply, ..
                                        } => {
                                            let k = idx + with_ply - p;
                                            swapped = Some((k, item));
                                            self.record(
                                                moves[k], ply, &r.mv, &here, &at, &trace, &assumes,
                                            );
                                            moves[k]
                                        }
                                        _ => item,
                                    };
                                    past.push(Past {
                                        span: token.token.span,
                                        mover: here.to_move(),
                                        takasia: trace.takasia_set(),
                                    });
                                    if let Some(o) = trace.outcome {
                                        ended = Some((o, token.token.span));
                                    }
                                    if let Repair::Insert { written, .. } = r.repair {
                                        let (next, trace) = at.play_unchecked(&written);
                                        self.out.plies += 1;
                                        self.record(
                                            item, ply, &written, &at, &next, &trace, &assumes,
                                        );
                                        past.push(Past {
                                            span: item.token.span,
                                            mover: at.to_move(),
                                            takasia: trace.takasia_set(),
                                        });
                                        if let Some(o) = trace.outcome {
                                            ended = Some((o, item.token.span));
                                        }
                                        at = next;
                                    }
                                    pos = Some(at);
                                }
                                Some(mv) => {
                                    let (next, trace) = here.play_unchecked(&mv);
                                    self.out.plies += 1;
                                    assumes.get_or_insert((ply, mv.to_string()));
                                    past.push(Past {
                                        span: item.token.span,
                                        mover: here.to_move(),
                                        takasia: trace.takasia_set(),
                                    });
                                    if let Some(o) = trace.outcome {
                                        ended = Some((o, item.token.span));
                                    }
                                    pos = Some(next);
                                }
                                None => pos = None,
                            }
                        }
                    }
                }
            }
        }
        // A pending test is set only together with `pos` and taken before `pos` changes.
        if let (Some(p), Some(at)) = (pending.take(), pos) {
            self.settle(p, &at, &mut ended);
        }
        match pos {
            Some(p) if assumes.is_none() => LineEnd::Complete {
                pos: p,
                ended: ended.map(|e| e.0),
            },
            _ => LineEnd::Stopped,
        }
    }

    /// The fast path of a ply: the move the token names, played with its trace, when it
    /// names exactly one legal move (the end test E2 left to [`Walker::settle`]); `None`
    /// for anything else, which [`Walker::play`] explains.
    /// The trace is left in `trace`.
    fn fast_play(
        &self,
        pos: &Position,
        item: &MoveItem,
        trace: &mut MoveTrace,
    ) -> Option<(Move, Position)> {
        let spec = token_spec(pos, item, self.directions).ok()?;
        play_written(pos, &spec, trace)
    }

    /// Runs a deferred end test: when the side to move after that move has no legal move,
    /// the game ended with it (and the move wins).
    /// `next` is the position after that move.
    fn settle(&mut self, p: Pending, next: &Position, ended: &mut Option<(Outcome, Span)>) {
        if let Some(o) = next.outcome() {
            *ended = Some((o, p.span));
            if o.winner == Some(p.mover) {
                if let Some(played) = self.out.played.get_mut(p.played) {
                    played.wins = true;
                }
            }
        }
    }

    /// Resolves and plays one move. On an illegal move, pushes its diagnostic and returns
    /// the unambiguous repair, if any.
    fn play(
        &mut self,
        pos: &Position,
        item: &MoveItem,
        ply: usize,
        past: &[Past],
        end_span: Option<Span>,
        following: &[&MoveItem],
    ) -> Result<(Move, Position, MoveTrace), Box<CheckDiagnostic>> {
        let spec = match token_spec(pos, item, self.directions) {
            Ok(s) => s,
            Err(why) => {
                return Err(Box::new(
                    CheckDiagnostic::new(Code::NotLegal, self.n, why.to_string())
                        .primary(item.token.span, "no such pit")
                        .at_ply(ply),
                ))
            }
        };
        let resolved = resolve(pos, &spec);
        let err = match resolved {
            Ok(mv) => match pos.play(&mv) {
                Ok((next, trace)) => {
                    self.out.plies += 1;
                    return Ok((mv, next, trace));
                }
                Err(e) => ResolveError::Illegal(e),
            },
            Err(e) => e,
        };
        Err(Box::new(self.illegal(
            pos, item, &spec, &err, ply, past, end_span, following,
        )))
    }

    #[allow(clippy::too_many_arguments)]
    fn illegal(
        &self,
        pos: &Position,
        item: &MoveItem,
        spec: &MoveSpec,
        err: &ResolveError,
        ply: usize,
        past: &[Past],
        end_span: Option<Span>,
        following: &[&MoveItem],
    ) -> CheckDiagnostic {
        let rules = pos.rules();
        let mover = pos.to_move();
        let code = Code::for_resolve_error(err);
        let written = item.token.value.to_string();
        let mut message = format!(
            "{written} is illegal: {}",
            words::resolve_reason(err, rules)
        );
        let never_ending = match err {
            ResolveError::Illegal(e) => e.reason.never_ending(),
            _ => None,
        };
        if let Some(ne) = never_ending {
            message = format!(
                "{written} never ends: its sowing repeats every {} lap{} from the end of lap {}",
                ne.period,
                if ne.period == 1 { "" } else { "s" },
                ne.cycle_start_lap
            );
        }
        let mut d = CheckDiagnostic::new(code, self.n, message)
            .primary(item.token.span, primary_label(code, rules))
            .at_ply(ply);
        let last = past.last().filter(|p| p.mover != mover);
        match code {
            Code::CaptureMandatory => {
                if let Some(p) = last {
                    d = d.secondary(p.span, "after this move a capture is available");
                }
            }
            Code::Takasia => {
                if let Some(p) = last.filter(|p| p.takasia.is_some()) {
                    d = d.secondary(
                        p.span,
                        format!(
                            "this {} made the pit {}",
                            rules.names().takasa,
                            rules.names().takasia
                        ),
                    );
                }
            }
            Code::CapturePriority => {
                if let Some(p) = past
                    .iter()
                    .rev()
                    .find(|p| p.mover == mover && p.takasia.is_some())
                {
                    d = d.secondary(
                        p.span,
                        format!(
                            "this {} made {} {}",
                            rules.names().takasa,
                            p.takasia.map(|t| t.to_string()).unwrap_or_default(),
                            rules.names().takasia
                        ),
                    );
                }
            }
            Code::GameOver => {
                if let Some(s) = end_span {
                    d = d.secondary(s, "the game ended with this move");
                }
            }
            _ => {}
        }
        let mut help = vec![rule_sentence(code, rules, mover)];
        let legal = pos.legal_moves();
        if !legal.is_empty() && code != Code::GameOver {
            let is_capture = !legal[0].takasa;
            help.push(format!(
                "The legal {} here: {}.",
                if is_capture { "captures" } else { "moves" },
                words::move_list(&legal)
            ));
        }
        let line = InLine {
            ply,
            item,
            following,
            directions: self.directions,
        };
        let ranked = rank_in_line(pos, spec, &line);
        let best = unambiguous(&ranked);
        if let Some(s) = ranked.first() {
            let mut line = capitalise(&s.sentence());
            if best.is_none() {
                let others: Vec<String> = ranked
                    .iter()
                    .skip(1)
                    .take(3)
                    .filter(|o| o.cost == s.cost)
                    .map(Suggestion::short)
                    .collect();
                if !others.is_empty() {
                    line.push_str(&format!(" (or {})", others.join(", ")));
                }
            }
            help.push(line);
        }
        d.fix = best
            .filter(|s| s.repair == Repair::Replace)
            .map(|s| s.mv.to_string());
        d.repair = best.cloned();
        d.help(help.join("\n"))
    }

    /// Records a replayed move: its engine items in `played`, and the diagnostics of claims
    /// and an annotation that the move does not bear out. Returns the takasia it creates.
    #[allow(clippy::too_many_arguments)]
    fn record(
        &mut self,
        item: &MoveItem,
        ply: usize,
        mv: &Move,
        pos: &Position,
        next: &Position,
        trace: &MoveTrace,
        assumes: &Option<(usize, String)>,
    ) -> Option<bao_core::Pit> {
        let takasia = trace.takasia_set();
        let wins = trace.outcome.is_some_and(|o| o.winner == Some(trace.mover));
        let mut played = Played {
            token_start: item.token.span.start,
            mv: *mv,
            items: ItemList::new(),
            takasia: takasia.is_some(),
            wins,
        };
        played.items.extend_from_move(trace, next);
        let token = item.token.value;
        // Compared in place; the list of written items is built only for a mismatch.
        let agreed = item
            .annotation
            .as_ref()
            .map_or(Ok(()), |a| agrees_written(&a.value.items, &played.items));
        if (token.claims_takasia && takasia.is_none())
            || (token.claims_win && !wins)
            || agreed.is_err()
        {
            self.record_diagnostics(
                item,
                ply,
                mv,
                pos,
                trace,
                assumes,
                &played.items,
                takasia,
                wins,
            );
        }
        self.out.played.push(played);
        takasia
    }

    /// The diagnostics of [`Walker::record`]: false `**` and `#` claims, annotation
    /// mismatches.
    #[cold]
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn record_diagnostics(
        &mut self,
        item: &MoveItem,
        ply: usize,
        mv: &Move,
        pos: &Position,
        trace: &MoveTrace,
        assumes: &Option<(usize, String)>,
        items: &[bao_notation::AnnotationItem],
        takasia: Option<bao_core::Pit>,
        wins: bool,
    ) {
        let rules = pos.rules();
        let token = item.token.value;
        if token.claims_takasia && takasia.is_none() {
            let names = rules.names();
            let d = CheckDiagnostic::new(
                Code::FalseTakasiaClaim,
                self.n,
                format!(
                    "{token} claims a {} (`**`), but it creates none",
                    names.takasia
                ),
            )
            .primary(
                item.token.span,
                format!("no {} after this move", names.takasia),
            )
            .help(format!(
                "{} Write {mv} without the second `*`.",
                rule_sentence(Code::FalseTakasiaClaim, rules, pos.to_move())
            ))
            .at_ply(ply);
            self.push(d, assumes);
        }
        if token.claims_win && !wins {
            let d = CheckDiagnostic::new(
                Code::FalseWinClaim,
                self.n,
                format!("{token} claims to win (`#`), but the game goes on"),
            )
            .primary(item.token.span, "this move does not win")
            .help(format!(
                "{} After {mv} the opponent still has seeds in his front row and a legal move.",
                rule_sentence(Code::FalseWinClaim, rules, pos.to_move())
            ))
            .at_ply(ply);
            self.push(d, assumes);
        }
        if let Some(a) = &item.annotation {
            let written: Vec<_> = a.value.items.iter().map(|i| i.value).collect();
            if let Err(dis) = agrees(&written, items) {
                let ranked = rank(pos, &MoveSpec::from(*mv), Some(&a.value));
                let alt = ranked
                    .iter()
                    .find(|s| s.mv != *mv && s.annotation_agrees == Some(true));
                for (on, code, kind, what) in [
                    (
                        dis.captures,
                        Code::CaptureMismatch,
                        bao_notation::ItemKind::Capture,
                        "captures",
                    ),
                    (
                        dis.laps,
                        Code::LapMismatch,
                        bao_notation::ItemKind::LapEnd,
                        "lap ends",
                    ),
                ] {
                    if !on {
                        continue;
                    }
                    let pick = |list: &[bao_notation::AnnotationItem]| {
                        let v: Vec<_> = list.iter().copied().filter(|i| i.kind == kind).collect();
                        items_text(&v)
                    };
                    let mut help = vec![
                        rule_sentence(code, rules, pos.to_move()),
                        format!("Written {}; {mv} gives {}.", pick(&written), pick(items)),
                    ];
                    if let Some(s) = alt {
                        help.push(capitalise(&s.sentence()));
                    }
                    let mut d = CheckDiagnostic::new(
                        code,
                        self.n,
                        format!(
                            "the {what} written for {token} are not the move's: written {}, actual {}",
                            pick(&written),
                            pick(items)
                        ),
                    )
                    .primary(a.span, format!("{what} do not match"))
                    .secondary(item.token.span, format!("{mv} {}", crate::words::effect(mv, trace)))
                    .help(help.join("\n"))
                    .at_ply(ply);
                    d.fix = alt.map(|s| s.mv.to_string());
                    self.push(d, assumes);
                }
            }
        }
    }
}

/// The fast path of a ply: when `spec` matches exactly one legal move, that move played
/// with its trace, left in `trace` (without the no-legal-move end test, see
/// `Position::play_if_legal_deferred`); `None` when it matches none or several (then
/// [`resolve`] says why).
///
/// The moves a token can stand for are its written pit with the written sign (or either),
/// with `*` as written (or, left out, with or without it). Legality is decided by
/// `Position::play_if_legal` / `is_legal`, without generating every legal move; a capture
/// and a takasa from the same pit and sign are never both legal, so with the sign written
/// the first legal form is the only one.
pub(crate) fn play_written(
    pos: &Position,
    spec: &MoveSpec,
    trace: &mut MoveTrace,
) -> Option<(Move, Position)> {
    let signs: &[Sign] = match spec.sign {
        Some(Sign::Left) => &[Sign::Left],
        Some(Sign::Right) => &[Sign::Right],
        None => &[Sign::Left, Sign::Right],
    };
    let forms: &[bool] = if spec.takasa { &[true] } else { &[false, true] };
    let mut found: Option<(Move, Position)> = None;
    for &sign in signs {
        for &takasa in forms {
            let mv = Move {
                pit: spec.pit,
                sign,
                takasa,
                safari: spec.safari,
            };
            if found.is_none() {
                if let Some(next) = pos.play_if_legal_deferred_into(&mv, trace) {
                    found = Some((mv, next));
                    // The other form with this sign cannot be legal as well.
                    break;
                }
            } else if pos.is_legal(&mv) {
                // Ambiguous: the slow path words the error.
                return None;
            }
        }
    }
    found
}

/// Resolves a spec against a position, working around a quirk of bao-core's `diagnose`
/// under a seed-cap or draw policy (see [`resolve_capped`]), and answering a namua move from
/// the back row before any sowing.
///
/// A move written without `*` where no capture exists is read as the takasa: when that
/// takasa never ends, the reason is G11 with its cycle, as for the move written with `*`
/// (spec/notation.md, "Leaving out `*`").
pub(crate) fn resolve(pos: &Position, spec: &MoveSpec) -> Result<Move, ResolveError> {
    let spec = *spec;
    // A namua move from the back row must never reach the sowing code: answer N1 here.
    let back_row_namua = pos.stage() == Stage::Namua
        && spec.pit.side() == pos.to_move()
        && spec.pit.row() == bao_core::Row::Back
        && pos.outcome().is_none();
    if back_row_namua {
        Err(ResolveError::Illegal(PlayError {
            mv: guessed_move(&spec),
            reason: IllegalReason::NamuaBackRow { pit: spec.pit },
        }))
    } else if pos.rules().endless_move == bao_core::EndlessMove::Illegal {
        pos.resolve(&spec)
    } else {
        resolve_capped(pos, &spec)
    }
}

/// The move a spec is read as when no legal move matches it (the left sign if none is
/// written), as bao-core's `resolve` reads it.
fn guessed_move(spec: &MoveSpec) -> Move {
    Move {
        pit: spec.pit,
        sign: spec.sign.unwrap_or(Sign::Left),
        takasa: spec.takasa,
        safari: spec.safari,
    }
}

/// `resolve` under a seed-cap or draw policy, where bao-core's `diagnose` may sow an illegal
/// move for ever: the reason is asked of the same position under the `illegal` policy,
/// which detects cycles.
fn resolve_capped(pos: &Position, spec: &MoveSpec) -> Result<Move, ResolveError> {
    let legal = pos.legal_moves();
    if legal.iter().any(|m| spec.matches(m)) || pos.outcome().is_some() {
        return pos.resolve(spec);
    }
    let mut setup = pos.to_setup();
    setup.rules.endless_move = bao_core::EndlessMove::Illegal;
    let no_capture = legal.first().is_some_and(|m| m.takasa);
    let fallback = || {
        ResolveError::Illegal(PlayError {
            mv: guessed_move(spec),
            reason: IllegalReason::NotLegal {
                legal: legal.clone(),
            },
        })
    };
    match Position::from_setup(setup) {
        Ok(p) => match p.resolve(spec) {
            Err(ResolveError::Illegal(e)) if e.reason.never_ending().is_some() && !no_capture => {
                Err(fallback())
            }
            Err(e) => Err(e),
            Ok(_) => Err(fallback()),
        },
        Err(_) => Err(fallback()),
    }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// `South won: bao_hamna`.
pub(crate) fn outcome_words(o: &Outcome) -> String {
    let reason = match o.reason {
        EndReason::BaoHamna => "the loser's front row is empty",
        EndReason::NoLegalMove => "the loser has no legal move",
        EndReason::OwnFrontRowEmpty => "the loser emptied his own front row",
        EndReason::NeverEnding => "a never-ending move",
    };
    match o.winner {
        Some(w) => format!("{w} won: {reason}"),
        None => format!("drawn: {reason}"),
    }
}

/// The result token an outcome calls for.
pub(crate) fn result_of(o: Option<&Outcome>) -> Option<GameResult> {
    let o = o?;
    Some(match o.winner {
        Some(Side::South) => GameResult::SouthWins,
        Some(Side::North) => GameResult::NorthWins,
        None => GameResult::Draw,
    })
}
