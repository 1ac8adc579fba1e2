//! Reading a written move in a position: the move spec a token stands for (dialect rows and
//! the record's sign convention), the move it resolves to, or the engine's refusal (carried
//! as the engine's own [`ResolveError`]; wording it is the validator's business).

use std::fmt;

use bao_core::{
    EndlessMove, IllegalReason, Move, MoveKind, MoveSpec, MoveTrace, PlayError, Position,
    ResolveError, Row, Sign, Stage,
};
use bao_notation::{Directions, MoveItem, PitRef, SignUse};

/// A token whose pit is no pit of the side to move (a row letter left out in the wrong
/// stage).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NoSuchPit {
    /// The pit as written.
    pub pit: PitRef,
}

impl fmt::Display for NoSuchPit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` names no pit", self.pit)
    }
}

impl std::error::Error for NoSuchPit {}

/// The move spec a written token stands for in `pos`: a pit written without its row letter
/// taken as the mover's front pit, the sign converted from the record's `Directions`
/// convention.
///
/// # Errors
/// The token names no pit of the side to move.
pub fn written_spec(
    pos: &Position,
    item: &MoveItem,
    directions: Directions,
) -> Result<MoveSpec, NoSuchPit> {
    let token = item.token.value;
    let mover = pos.to_move();
    let Some(pit) = token.pit.resolve(mover) else {
        return Err(NoSuchPit { pit: token.pit });
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

/// The move a token stands for in `pos`, if it is legal there.
#[must_use]
pub fn legal_move(pos: &Position, item: &MoveItem, directions: Directions) -> Option<Move> {
    let spec = written_spec(pos, item, directions).ok()?;
    resolve(pos, &spec).ok()
}

/// The fast path of a ply: when `spec` matches exactly one legal move, that move played
/// with its trace, left in `trace` (without the no-legal-move end test, see
/// `Position::play_into`); `None` when it matches none or several (then
/// [`resolve`] says why).
///
/// The moves a token can stand for are its written pit with the written sign (or either),
/// with `*` as written (or, left out, with or without it). Legality is decided by
/// `Position::play_into` / `is_legal`, without generating every legal move; a capture
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
    // The kinds the spec may be read as: without `*`, a capture or the takasa the position
    // forces; `*` and `+` at once is no move (the slow path says why).
    let kinds: &[MoveKind] = match (spec.takasa, spec.safari) {
        (false, false) => &[MoveKind::Capture, MoveKind::Takasa],
        (false, true) => &[MoveKind::Safari],
        (true, false) => &[MoveKind::Takasa],
        (true, true) => &[],
    };
    let mut found: Option<(Move, Position)> = None;
    for &sign in signs {
        for &kind in kinds {
            let mv = Move::new(spec.pit, sign, kind);
            if found.is_none() {
                if let Some(next) = pos.play_into(&mv, trace) {
                    found = Some((mv, next));
                    // The other form with this sign cannot be legal as well.
                    break;
                }
            } else if pos.is_legal(&mv) {
                // Ambiguous: the slow path says why.
                return None;
            }
        }
    }
    found
}

/// Resolves a spec against a position: the one legal move it names, or the engine's
/// refusal. A namua move from the back row is answered (N1) before any sowing, and under a
/// seed-cap or draw policy the reason is asked where cycles are detected (see
/// `resolve_capped`).
///
/// A move written without `*` where no capture exists is read as the takasa: when that
/// takasa never ends, the reason is G11 with its cycle, as for the move written with `*`
/// (spec/notation.md, "Leaving out `*`").
///
/// # Errors
/// Why the spec names no single legal move.
pub fn resolve(pos: &Position, spec: &MoveSpec) -> Result<Move, ResolveError> {
    // A namua move from the back row must never reach the sowing code: answer N1 here.
    let back_row_namua = pos.stage() == Stage::Namua
        && spec.pit.side() == pos.to_move()
        && spec.pit.row() == Row::Back
        && pos.outcome().is_none();
    if back_row_namua {
        Err(ResolveError::Illegal(PlayError {
            mv: guessed_move(spec),
            reason: IllegalReason::NamuaBackRow { pit: spec.pit },
        }))
    } else if pos.rules().endless_move == EndlessMove::Illegal {
        pos.resolve(spec)
    } else {
        resolve_capped(pos, spec)
    }
}

/// The move a spec is read as when no legal move matches it (the left sign if none is
/// written; `*` and `+` at once as the takasa), as bao-core's `resolve` reads it.
fn guessed_move(spec: &MoveSpec) -> Move {
    let kind = MoveKind::from_suffixes(spec.takasa, spec.safari).unwrap_or(MoveKind::Takasa);
    Move::new(spec.pit, spec.sign.unwrap_or(Sign::Left), kind)
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
    setup.rules.endless_move = EndlessMove::Illegal;
    let no_capture = legal.first().is_some_and(|m| m.is_takasa());
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

/// Whether the main line of a game replays from `start` without a refused move when its
/// signs are read under `directions` (a search for the convention a record follows; the
/// game's replay is [`crate::replay_game`]).
#[must_use]
pub fn main_line_replays(
    game: &bao_notation::Game,
    start: Position,
    directions: Directions,
) -> bool {
    let mut pos = start;
    let mut any = false;
    for item in game.main_line() {
        any = true;
        match legal_move(&pos, item, directions) {
            Some(mv) => pos = pos.play_fast(&mv),
            None => return false,
        }
    }
    any
}
