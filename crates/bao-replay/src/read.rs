//! Reading a written move in a position: the move spec a token stands for (dialect rows and
//! the record's sign convention); the move it resolves to, or the refusal, is bao-core's
//! one decision (`Position::resolve`, whose `ResolveError` the validator words).

use std::fmt;

use bao_core::{Engine, Move, MoveKind, MoveSpec, MoveTrace, Position, Sign, Stage};
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
        // Only the clockwise convention reads a sign by how it is used; the others do not
        // need the position looked at.
        if directions != Directions::Clockwise {
            spec.sign = Some(directions.sign(sign, pit.side(), SignUse::Sowing(pit.row())));
            return Ok(spec);
        }
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

/// The move a token stands for in `pos`, if it is legal there (exact: on an engine of this
/// call; [`legal_move_in`] asks the caller's).
#[must_use]
pub fn legal_move(pos: &Position, item: &MoveItem, directions: Directions) -> Option<Move> {
    legal_move_in(&mut Engine::new(), pos, item, directions)
}

/// [`legal_move`] asked of `engine` (its memo, its lap budget: a move whose decision runs
/// out of the budget is not legal, and the enclosing `Engine::within` says so).
#[must_use]
pub fn legal_move_in(
    engine: &mut Engine,
    pos: &Position,
    item: &MoveItem,
    directions: Directions,
) -> Option<Move> {
    let spec = written_spec(pos, item, directions).ok()?;
    engine.resolve(pos, &spec).ok()
}

/// The fast path of a ply: when `spec` matches exactly one legal move, that move played
/// with its trace, left in `trace` (without the no-legal-move end test, see
/// `Position::play_into`); `None` when it matches none or several (then
/// `Position::resolve` says why).
///
/// The moves a token can stand for are its written pit with the written sign (or either),
/// with `*` as written (or, left out, with or without it). Legality is decided by
/// `Position::play_into` / `is_legal`, without generating every legal move; a capture
/// and a takasa from the same pit and sign are never both legal, so with the sign written
/// the first legal form is the only one.
///
/// With `counted`, the move is played by `Position::play_into_counted`: `trace` gets its
/// counts, not its lists of laps, captures and events.
pub(crate) fn play_written(
    engine: &mut Engine,
    pos: &Position,
    spec: &MoveSpec,
    trace: &mut MoveTrace,
    counted: bool,
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
                let next = if counted {
                    engine.play_into_counted(pos, &mv, trace)
                } else {
                    engine.play_into(pos, &mv, trace)
                };
                if let Some(next) = next {
                    found = Some((mv, next));
                    // The other form with this sign cannot be legal as well.
                    break;
                }
            } else if engine.is_legal(pos, &mv) {
                // Ambiguous: the slow path says why.
                return None;
            }
        }
    }
    found
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
    let mut engine = Engine::new();
    let mut pos = start;
    let mut any = false;
    for item in game.main_line() {
        any = true;
        match legal_move_in(&mut engine, &pos, item, directions) {
            Some(mv) => pos = engine.play_fast(&pos, &mv),
            None => return false,
        }
    }
    any
}

#[cfg(test)]
mod tests {
    use bao_core::{Position, RuleSet, Side, Sign, Stage, PRESET_NAMES};
    use bao_notation::{Directions, MoveItem, MoveToken, PitRef, SignUse, Spanned};

    use super::written_spec;

    /// Every token of every pit and sign, in the positions of random games of every preset,
    /// under every convention: the spec is the one the convention gives for the sign's use
    /// (kichwa or sowing), worked out in full.
    #[test]
    fn a_token_reads_as_its_convention_says_in_every_position() {
        let mut checked = 0;
        for (k, name) in PRESET_NAMES.iter().enumerate() {
            let rules = RuleSet::preset(name).expect("preset");
            let mut pick = bao_testkit::Lcg::new(k as u64).picker();
            let mut pos = Position::start(rules);
            for _ in 0..40 {
                for side in [Side::South, Side::North] {
                    for ring in 0..16 {
                        let pit = bao_core::Pit::from_ring(side, ring);
                        for sign in [Sign::Left, Sign::Right] {
                            for takasa in [false, true] {
                                let token = MoveToken {
                                    pit: PitRef::Pit(pit),
                                    sign: Some(sign),
                                    takasa,
                                    claims_takasia: false,
                                    safari: false,
                                    claims_win: false,
                                };
                                let item = MoveItem {
                                    number: None,
                                    token: Spanned::bare(token),
                                    nags: Vec::new(),
                                    annotation: None,
                                };
                                let usage = if pos.stage() == Stage::Namua
                                    && !takasa
                                    && side == pos.to_move()
                                    && pit.facing().is_some_and(|f| pos.get(f) > 0)
                                    && pos.get(pit) > 0
                                {
                                    SignUse::Kichwa
                                } else {
                                    SignUse::Sowing(pit.row())
                                };
                                for d in
                                    [Directions::Mover, Directions::South, Directions::Clockwise]
                                {
                                    let spec = written_spec(&pos, &item, d).expect("a pit");
                                    assert_eq!(spec.sign, Some(d.sign(sign, side, usage)));
                                    checked += 1;
                                }
                            }
                        }
                    }
                }
                match pos.random_move(&mut pick) {
                    Some((mv, _)) => pos = pos.play_fast(&mv),
                    None => break,
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
    }
}
