//! The engine's working memory as a value the caller holds: the memo of long relay cycles,
//! the thresholds of never-ending detection ([`RelayConfig`]) and the lap budget
//! ([`Engine::within`]), in an [`Engine`].
//!
//! Nothing of it is global or per thread: a caller that plays many moves (a search, a
//! validator replaying a game, a rayon worker) keeps one `Engine` and passes it to the
//! engine's `Engine::*` methods; the plain `Position` methods run on a fresh one per call,
//! which gives the same answers (the memo only saves laps, never changes an answer). Two
//! engines never see each other's memo, so tests and threads behave alike.

use crate::position::Position;
use crate::relay::Memo;
use crate::undecided::Undecided;

/// The thresholds of never-ending detection in a relay's frame. [`Default`] is the release
/// scale; tests that want many short cycles remembered set smaller values explicitly.
///
/// ```
/// use bao_core::{Engine, RelayConfig};
///
/// let small = RelayConfig {
///     dp_bits: 3,
///     memo_min_frame_period: 64,
///     no_point_stretch: 1 << 10,
/// };
/// let engine = Engine::with_config(small);
/// assert_eq!(engine.config(), small);
/// assert_eq!(Engine::new().config(), RelayConfig::default());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RelayConfig {
    /// One frame in `2^dp_bits` (by a hash) is a distinguished point, kept and looked up
    /// in the memo (release: 12, one in 4,096). At most 63.
    pub dp_bits: u32,
    /// Cycles shorter than this many frame laps are decided cold and not remembered
    /// (release: 65,536).
    pub memo_min_frame_period: u64,
    /// How many laps detection runs past its last distinguished frame before it also
    /// watches for cycles without one (Brent's method; release: 2^22).
    pub no_point_stretch: u64,
}

impl RelayConfig {
    /// The release thresholds (the [`Default`]).
    pub const RELEASE: Self = Self {
        dp_bits: 12,
        memo_min_frame_period: 1 << 16,
        no_point_stretch: 1 << 22,
    };

    /// The bound under which a frame's hash marks it distinguished (`2^(64 - dp_bits)`).
    #[inline]
    pub(crate) fn dp_limit(&self) -> u64 {
        1u64 << (64 - self.dp_bits.clamp(1, 63))
    }
}

impl Default for RelayConfig {
    fn default() -> Self {
        Self::RELEASE
    }
}

/// What the engine keeps between moves: the memo of long never-ending relay cycles decided
/// so far (at most about 20 MB) and the thresholds of their detection. Hold one for as long
/// as its memo is worth keeping (a game, a search, a worker thread), or use the plain
/// `Position` methods, which take a fresh one per call.
///
/// ```
/// use bao_core::{Engine, Position, RuleSet};
///
/// let mut engine = Engine::new();
/// let start = Position::start(RuleSet::KISWAHILI);
/// let moves = engine.legal_moves(&start);
/// assert_eq!(moves, start.legal_moves());
/// let (next, _) = engine.play(&start, &moves[0]).unwrap();
/// assert_eq!(engine.legal_moves(&next), next.legal_moves());
/// ```
#[derive(Debug)]
pub struct Engine {
    pub(crate) config: RelayConfig,
    pub(crate) memo: Memo,
    /// Which of never-ending detection's ways to find a cycle are on: the anchor, the
    /// distinguished frames (Brent's method is always on). Both but in the tests that try
    /// each alone.
    pub(crate) detectors: (bool, bool),
    /// Laps a move may run in never-ending detection (`u64::MAX`: no limit).
    allowed: u64,
    /// The most laps run by a move that gave up, since the budget was set.
    gave_up: Option<u64>,
    /// What the end test of the last position an engine call returned learned of that
    /// position's candidates ([`Known`]), beside the position: read by the next
    /// `legal_moves` or legality test of an equal position.
    note: Option<(Position, Known)>,
}

impl Default for Engine {
    fn default() -> Self {
        Self::new()
    }
}

impl Engine {
    /// An engine with the release thresholds and an empty memo.
    #[must_use]
    pub fn new() -> Self {
        Self::with_config(RelayConfig::RELEASE)
    }

    /// An engine with the given thresholds and an empty memo.
    #[must_use]
    pub fn with_config(config: RelayConfig) -> Self {
        Self {
            config,
            memo: Memo::default(),
            detectors: (true, true),
            allowed: u64::MAX,
            gave_up: None,
            note: None,
        }
    }

    /// The thresholds in use.
    #[must_use]
    pub fn config(&self) -> RelayConfig {
        self.config
    }

    /// How many long relay cycles the memo holds.
    #[must_use]
    pub fn relay_cycles_known(&self) -> usize {
        self.memo.cycles_known()
    }

    /// Empties the memo of long relay cycles (its memory is given back). Answers never
    /// depend on it: the next decision of a cycle forgotten is only slower.
    pub fn forget_relay_cycles(&mut self) {
        self.memo.forget();
    }

    /// Runs `f` on this engine with never-ending detection limited to `laps` laps a move
    /// (past the first 64, where detection begins; finding a cycle's first lap may run about
    /// as many again); the previous limit is restored afterwards. `f`'s result when some
    /// move gave up is not exact, so it is dropped: [`Undecided`] instead. Every answer
    /// given is the exact one.
    ///
    /// For a caller that runs several engine calls as one question (a validator replaying a
    /// game, say); `Position::legal_moves_within` and the other `_within` methods are this
    /// around one call on a fresh engine. Calls nest: an inner budget's give-up is the inner
    /// call's answer, not the outer one's. The budget is the engine's, so it reaches every
    /// call made with it, on whatever thread.
    ///
    /// ```
    /// use bao_core::{Engine, Position, RuleSet};
    ///
    /// let start = Position::start(RuleSet::KISWAHILI);
    /// let mut engine = Engine::new();
    /// let n = engine.within(1_000, |e| e.legal_moves(&start).len());
    /// assert_eq!(n, Ok(start.legal_moves().len()));
    /// ```
    ///
    /// # Errors
    /// Some move's decision inside `f` ran out of laps.
    pub fn within<T>(&mut self, laps: u64, f: impl FnOnce(&mut Self) -> T) -> Result<T, Undecided> {
        let before = (
            std::mem::replace(&mut self.allowed, laps),
            self.gave_up.take(),
        );
        let out = f(self);
        let gave_up = std::mem::replace(&mut self.gave_up, before.1);
        self.allowed = before.0;
        match gave_up {
            Some(laps_run) => Err(Undecided { laps_run }),
            None => Ok(out),
        }
    }

    /// The laps a move may run in never-ending detection now (`u64::MAX`: no limit).
    #[must_use]
    pub fn laps_allowed(&self) -> u64 {
        self.allowed
    }

    /// Keeps what the end test of `pos` learned of its candidates, for the next question
    /// about an equal position (the note of any other position is dropped).
    #[inline]
    pub(crate) fn note(&mut self, pos: &Position, known: Known) {
        self.note = Some((*pos, known));
    }

    /// What the end test noted of `pos`, or nothing.
    #[inline]
    pub(crate) fn known_for(&self, pos: &Position) -> Known {
        match &self.note {
            Some((noted, known)) if same_position(noted, pos) => *known,
            _ => Known::NONE,
        }
    }

    /// Whether `mv` is a move of `pos` that the end test noted legal ([`Known::notes_legal`]).
    /// The note's own bits are read first: the position is compared only when they hold
    /// `mv`, so a move the note does not name costs no comparison.
    #[inline]
    pub(crate) fn notes_legal(&self, pos: &Position, mv: &crate::types::Move) -> bool {
        match &self.note {
            // The note is read on the noted copy (equal to `pos` whenever it counts).
            Some((noted, known)) => known.notes_legal(noted, mv) && same_position(noted, pos),
            None => false,
        }
    }

    /// Notes that a move gave up after `laps` laps.
    pub(crate) fn gave_up(&mut self, laps: u64) {
        self.gave_up = Some(self.gave_up.map_or(laps, |l| l.max(laps)));
    }
}

/// `a == b`, written out so that it is inlined where the note is read (the derived
/// `RuleSet` comparison is a call): the cheap, most telling fields first, the rules last, as
/// their bytes (`RuleSet::bytes`) and the one wider field.
#[inline(always)]
fn same_position(a: &Position, b: &Position) -> bool {
    // Destructured in full: a field added to either type must be compared here too.
    let Position {
        board,
        hands,
        houses,
        blocked,
        to_move,
        last_move_takasa,
        ended,
        rules,
    } = a;
    *board == b.board
        && *hands == b.hands
        && *to_move == b.to_move
        && *houses == b.houses
        && *blocked == b.blocked
        && *last_move_takasa == b.last_move_takasa
        && *ended == b.ended
        && rules.bytes() == b.rules.bytes()
        && rules.endless_move == b.rules.endless_move
}

/// What an end test learned of a position's candidates, kept beside the position (in the
/// [`Engine`] that ran the end test) so that its `legal_moves` does not run them again: the
/// candidates whose runs were decided legal, and those decided illegal, as `MoveSet` bits
/// (`[0]`: the captures of the position's stage, `[1]`: the takasas). Only decided runs are
/// noted (not one stopped by a lap budget), and a namua capture that stops in the functional
/// nyumba is not noted legal (the list runs it again for its safari). Also the candidates an
/// end test looked at without running (`Position::seen_to_end`; those seen to end are noted
/// legal), which the list need not look at again.
///
/// A note of one position, and of nothing else: it is read only for a position equal to
/// the one it was taken of.
///
/// When the end test looked at the capture group (`captures_looked`), `looked[0]` is the
/// whole capture candidate set of the position, which the list then takes from the note
/// instead of generating it again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Known {
    pub(crate) legal: [u32; 2],
    pub(crate) illegal: [u32; 2],
    pub(crate) looked: [u32; 2],
    pub(crate) captures_looked: bool,
}

impl Known {
    /// Nothing known.
    pub(crate) const NONE: Self = Self {
        legal: [0; 2],
        illegal: [0; 2],
        looked: [0; 2],
        captures_looked: false,
    };
}

/// A position with what the end test of the move that made it learned of its candidates
/// (`Known`): what [`Engine::play_noted`] leaves and [`Engine::legal_moves_noted`] and
/// the next `play_noted` read. The caller holds the note beside its position, so the engine
/// need not find it again by comparing positions (as [`Engine::legal_moves`] does with the
/// note of the last position it returned); the answers are the same either way, the note
/// only saves running candidates a second time.
///
/// A `Noted` is made only by the engine's calls (or from a bare position, with nothing
/// noted), so its note is always that of its own position.
///
/// ```
/// use bao_core::{Engine, Noted, Position, RuleSet};
///
/// let mut engine = Engine::new();
/// let start = Position::start(RuleSet::KISWAHILI);
/// let mut pos = Noted::from(start);
/// let moves = engine.legal_moves_noted(&pos);
/// assert_eq!(moves, start.legal_moves());
/// engine.play_noted(&mut pos, &moves[0]).unwrap();
/// assert_eq!(*pos.position(), start.play(&moves[0]).unwrap().0);
/// assert_eq!(engine.legal_moves_noted(&pos), pos.position().legal_moves());
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Noted {
    position: Position,
    known: Known,
}

impl Noted {
    /// `position` with nothing noted.
    #[must_use]
    pub fn new(position: Position) -> Self {
        Self {
            position,
            known: Known::NONE,
        }
    }

    /// A position and its note, both made by the engine for it.
    #[inline]
    pub(crate) fn with(position: Position, known: Known) -> Self {
        Self { position, known }
    }

    /// The position.
    #[inline]
    #[must_use]
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The note.
    #[inline]
    pub(crate) fn known(&self) -> &Known {
        &self.known
    }
}

impl From<Position> for Noted {
    fn from(position: Position) -> Self {
        Self::new(position)
    }
}

impl From<Noted> for Position {
    fn from(noted: Noted) -> Self {
        noted.position
    }
}

/// The thresholds the unit tests use so that random relays exercise the memo: dense
/// distinguished points (one in 8), short cycles kept, a short first stretch for Brent.
#[cfg(test)]
pub(crate) const SMALL: RelayConfig = RelayConfig {
    dp_bits: 3,
    memo_min_frame_period: 64,
    no_point_stretch: 1 << 10,
};

/// An engine at the unit tests' small scale ([`SMALL`]).
#[cfg(test)]
pub(crate) fn small_engine() -> Engine {
    Engine::with_config(SMALL)
}

#[cfg(test)]
mod tests {
    use super::{same_position, Engine, Noted};
    use crate::position::Position;
    use crate::rules::{RuleSet, PRESET_NAMES};

    /// The note's comparison is `==`: along random games of every preset, against the
    /// position before and the same position under every other preset.
    #[test]
    fn the_notes_comparison_is_equality() {
        let mut pick = bao_testkit::Lcg::new(7).picker();
        let mut compared = 0;
        for name in PRESET_NAMES {
            let rules = RuleSet::preset(name).expect("a preset");
            let mut pos = Position::start(rules);
            let mut before = pos;
            while let Some((_, next)) = pos.random_move(&mut pick) {
                for other in PRESET_NAMES {
                    let mut q = pos;
                    q.rules = RuleSet::preset(other).expect("a preset");
                    assert_eq!(same_position(&pos, &q), pos == q);
                }
                assert!(same_position(&pos, &pos));
                assert_eq!(same_position(&pos, &before), pos == before);
                compared += 1;
                (before, pos) = (pos, next);
            }
        }
        assert!(compared > 100);
    }

    /// The note a caller holds ([`Noted`]) gives the same answers as the one the engine
    /// keeps, and is the same note: along random games of every preset, the lists, the next
    /// positions and the outcomes agree, and the engine's `notes_legal` (which reads the
    /// note's bits before comparing positions) agrees with the note read directly.
    #[test]
    fn a_note_held_by_the_caller_is_the_engines_note() {
        let mut pick = bao_testkit::Lcg::new(11).picker();
        let (mut plies, mut noted_legal) = (0, 0);
        for name in PRESET_NAMES {
            let rules = RuleSet::preset(name).expect("a preset");
            for _ in 0..4 {
                let mut kept = Engine::new();
                let mut handed = Engine::new();
                let mut pos = Position::start(rules);
                let mut noted = Noted::from(pos);
                loop {
                    let moves = kept.legal_moves(&pos);
                    assert_eq!(handed.legal_moves_noted(&noted), moves, "{pos}");
                    assert_eq!(moves, pos.legal_moves(), "{pos}");
                    for mv in moves.iter() {
                        let by_note = kept.known_for(&pos).notes_legal(&pos, mv);
                        assert_eq!(kept.notes_legal(&pos, mv), by_note, "{pos} {mv}");
                        noted_legal += usize::from(by_note);
                    }
                    if moves.is_empty() {
                        break;
                    }
                    let mv = moves[pick(moves.len())];
                    let (next, trace) = kept.play(&pos, &mv).expect("a legal move");
                    let mut next_noted = noted;
                    let trace_noted = handed.play_noted(&mut next_noted, &mv).expect("legal");
                    assert_eq!(*next_noted.position(), next, "{pos} {mv}");
                    assert_eq!(*next_noted.known(), kept.known_for(&next), "{pos} {mv}");
                    assert_eq!(trace_noted.trace(), trace.trace(), "{pos} {mv}");
                    (pos, noted) = (next, next_noted);
                    plies += 1;
                }
            }
        }
        assert!(plies > 1_000, "{plies}");
        assert!(noted_legal > 100, "{noted_legal}");
    }
}
