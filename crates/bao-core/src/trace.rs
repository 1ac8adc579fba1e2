//! What happened inside a move: laps, captures, decisions, house and takasia events.

use std::fmt;
use std::ops::Deref;
use std::sync::OnceLock;

use crate::position::{Outcome, Position};
use crate::types::{Direction, Move, Pit, Side, Stage};

/// The full story of one move, as `Position::play` returns it.
///
/// Each lap says where its seeds came from and where the last one fell; each capture names
/// the pit emptied and the kichwa its seeds entered from:
///
/// ```
/// use bao_core::{LapSource, Move, Pit, Position, RuleSet};
///
/// let pit = |s: &str| s.parse::<Pit>().unwrap();
/// let play = |pos: &Position, mv: &str| pos.play(&mv.parse::<Move>().unwrap()).unwrap();
/// let start = Position::start(RuleSet::KISWAHILI);
/// let (pos, _) = play(&start, "A7>*");
/// let (pos, _) = play(&pos, "a6<*");
/// // South's seed goes into A6, which captures North's a3 facing it.
/// let (_after, trace) = play(&pos, "A6>");
/// assert_eq!(trace.placement, Some(pit("A6")));
/// let first = &trace.captures[0];
/// assert_eq!((first.pit, first.seeds), (pit("a3"), 1));
/// assert_eq!(first.after_lap, 0, "the namua placement captures before any lap");
/// // The captured seed is sown from a kichwa, and the laps are counted from 1.
/// assert_eq!(trace.laps[0].source, LapSource::Captured);
/// assert_eq!(trace.laps[0].number, 1);
/// let ends: Vec<String> = trace.laps.iter().map(|lap| lap.end.to_string()).collect();
/// assert_eq!(ends, ["A8", "A6", "A2"]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveTrace {
    /// The move played.
    pub mv: Move,
    /// Who played it.
    pub mover: Side,
    /// The mover's stage.
    pub stage: Stage,
    /// In namua: the pit the reserve seed was placed in.
    pub placement: Option<Pit>,
    /// The laps in order (at most [`MoveTrace::LAP_LIMIT`] are kept; see `laps_total`).
    pub laps: Vec<Lap>,
    /// The captures in order.
    pub captures: Vec<Capture>,
    /// Decisions and events in order.
    pub events: Vec<Event>,
    /// How many laps the move had.
    pub laps_total: u64,
    /// How many seeds were sown in all.
    pub seeds_sown: u64,
    /// Set when the move never ends (played under the `draw` or `mover_loses` policy).
    pub never_ending: Option<NeverEnding>,
    /// The outcome, when this move ended the game.
    pub outcome: Option<Outcome>,
}

impl MoveTrace {
    /// The most laps a trace keeps.
    pub const LAP_LIMIT: usize = 4096;

    /// An empty trace of `mv` (the engine fills it while running the move).
    #[must_use]
    pub fn new(mv: Move, mover: Side, stage: Stage) -> Self {
        Self {
            mv,
            mover,
            stage,
            placement: None,
            // Sized for the usual move at once (one allocation instead of a chain of
            // reallocations as laps are pushed). The captures allocate at the first one: a
            // takasa, most moves of a game, has none. Every namua move has an event (its
            // placement), a mtaji move seldom one.
            laps: Vec::with_capacity(16),
            captures: Vec::new(),
            events: if stage == Stage::Namua {
                Vec::with_capacity(4)
            } else {
                Vec::new()
            },
            laps_total: 0,
            seeds_sown: 0,
            never_ending: None,
            outcome: None,
        }
    }

    /// Empties the trace for another run of `mv`, keeping the room of its lists (so that a
    /// trace reused move after move allocates only while its lists grow).
    pub(crate) fn reset(&mut self, mv: Move, mover: Side, stage: Stage) {
        self.mv = mv;
        self.mover = mover;
        self.stage = stage;
        self.placement = None;
        self.laps.clear();
        self.captures.clear();
        self.events.clear();
        self.laps_total = 0;
        self.seeds_sown = 0;
        self.never_ending = None;
        self.outcome = None;
    }

    /// Whether the move created a takasia (written `**`).
    #[must_use]
    pub fn takasia_set(&self) -> Option<Pit> {
        self.events.iter().find_map(|e| match e {
            Event::TakasiaSet { pit } => Some(*pit),
            _ => None,
        })
    }
}

/// The [`MoveTrace`] of a move [`Position::play`] played, worked out when first read: a
/// caller that only wants the next position (a search, a random game) does not pay for
/// recording laps, captures and events. Reads as a `MoveTrace` (it dereferences to one);
/// [`LazyTrace::into_trace`] (or `MoveTrace::from`) gives the trace itself, to keep.
///
/// The trace read is the one `play` would have recorded while running the move: the move is
/// run again, traced, the first time it is read (a pure function of the position and the
/// move; a move of 64 laps or more is traced while it is played, so a later read never
/// waits on a long move). The outcome is the one `play`'s end test found.
///
/// ```
/// use bao_core::{Move, MoveTrace, Position, RuleSet};
///
/// let start = Position::start(RuleSet::KISWAHILI);
/// let mv: Move = "A6<*".parse().unwrap();
/// let (_, trace) = start.play(&mv).unwrap();
/// assert_eq!(trace.laps.len(), 1); // read as a `MoveTrace`
/// let kept: MoveTrace = trace.into_trace();
/// assert_eq!(kept, start.play_unchecked(&mv).1);
/// ```
#[derive(Clone)]
pub struct LazyTrace {
    /// The position the move was played from.
    before: Position,
    mv: Move,
    /// What `play`'s end test found.
    outcome: Option<Outcome>,
    trace: OnceLock<Box<MoveTrace>>,
}

impl LazyTrace {
    /// A trace of `mv` from `before`, to be worked out when read.
    pub(crate) fn later(before: Position, mv: Move, outcome: Option<Outcome>) -> Self {
        Self {
            before,
            mv,
            outcome,
            trace: OnceLock::new(),
        }
    }

    /// A trace recorded already (`before` and `mv` are those of the trace).
    pub(crate) fn recorded(before: Position, trace: MoveTrace) -> Self {
        Self {
            before,
            mv: trace.mv,
            outcome: trace.outcome,
            trace: OnceLock::from(Box::new(trace)),
        }
    }

    /// The trace, worked out now if it has not been read yet.
    #[must_use]
    pub fn trace(&self) -> &MoveTrace {
        self.trace
            .get_or_init(|| Box::new(self.before.trace_of(&self.mv, self.outcome)))
    }

    /// The trace itself, to keep.
    #[must_use]
    pub fn into_trace(self) -> MoveTrace {
        match self.trace.into_inner() {
            Some(trace) => *trace,
            None => self.before.trace_of(&self.mv, self.outcome),
        }
    }
}

impl Deref for LazyTrace {
    type Target = MoveTrace;
    fn deref(&self) -> &MoveTrace {
        self.trace()
    }
}

impl From<LazyTrace> for MoveTrace {
    fn from(lazy: LazyTrace) -> Self {
        lazy.into_trace()
    }
}

/// Shown as the trace it stands for.
impl fmt::Debug for LazyTrace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.trace().fmt(f)
    }
}

/// Equal when the traces are.
impl PartialEq for LazyTrace {
    fn eq(&self, other: &Self) -> bool {
        self.trace() == other.trace()
    }
}

impl Eq for LazyTrace {}

impl PartialEq<MoveTrace> for LazyTrace {
    fn eq(&self, other: &MoveTrace) -> bool {
        self.trace() == other
    }
}

impl PartialEq<LazyTrace> for MoveTrace {
    fn eq(&self, other: &LazyTrace) -> bool {
        self == other.trace()
    }
}

/// Where the seeds of a lap came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LapSource {
    /// All the seeds of the start pit were lifted (the move's start or a relay).
    Lifted,
    /// The namua tax: two seeds lifted from the functional nyumba.
    Taxed,
    /// Captured seeds, sown from a kichwa.
    Captured,
}

/// Why a lap ended the way it did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LapEnd {
    /// The last seed fell into an empty pit: the move is over.
    EmptyPit,
    /// The last seed made a capture (see `MoveTrace::captures`).
    Capture,
    /// The pit was lifted and sown on (kuendelea).
    Relay,
    /// The move stopped in the functional nyumba.
    HouseStop,
    /// Safari: the functional nyumba was lifted and sown on.
    Safari,
    /// The move stopped in the mover's takasia'd pit.
    TakasiaStop,
    /// AbstractPlay's seed cap aborted the move.
    Aborted,
}

/// One lap: one sowing of a handful.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Lap {
    /// Lap number, from 1.
    pub number: u64,
    /// The pit lifted, or the kichwa where captured seeds enter.
    pub start: Pit,
    /// Where the seeds came from.
    pub source: LapSource,
    /// The sowing direction.
    pub direction: Direction,
    /// Seeds sown.
    pub seeds: u32,
    /// The pit of the last seed.
    pub end: Pit,
    /// What happened there.
    pub ended: LapEnd,
}

/// One capture.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Capture {
    /// The opponent's pit emptied.
    pub pit: Pit,
    /// Seeds taken.
    pub seeds: u8,
    /// The kichwa where they enter.
    pub kichwa: Pit,
    /// Their sowing direction.
    pub direction: Direction,
    /// The lap whose end made the capture (0: the namua placement).
    pub after_lap: u64,
}

/// A decision or event inside a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Event {
    /// Namua: the reserve seed was placed.
    Placed {
        /// Where.
        pit: Pit,
    },
    /// The first namua capture from a central pit: the player chose this kichwa.
    KichwaChosen {
        /// The kichwa.
        kichwa: Pit,
    },
    /// Namua tax: only two seeds were lifted from the functional nyumba.
    HouseTaxed {
        /// Seeds left in the house.
        left: u8,
    },
    /// The move stopped in the functional nyumba.
    HouseStop,
    /// The player went on safari through the functional nyumba.
    Safari,
    /// A house was destroyed.
    HouseDestroyed {
        /// Whose.
        side: Side,
    },
    /// A lap stopped in the mover's takasia'd pit.
    TakasiaStop {
        /// The pit.
        pit: Pit,
    },
    /// This move made the opponent's pit takasia'd.
    TakasiaSet {
        /// The pit.
        pit: Pit,
    },
    /// A stored takasia was cleared (AbstractPlay: its pit lifted or captured).
    TakasiaCleared {
        /// The pit.
        pit: Pit,
    },
    /// The opponent's front row became empty: the move ends and the mover wins.
    BaoHamna,
}

/// A move that never ends: the in-move state at the end of lap `cycle_start_lap` recurs
/// every `period` laps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct NeverEnding {
    /// The first lap whose end state lies on the cycle (laps count from 1).
    pub cycle_start_lap: u64,
    /// The cycle's length in laps.
    pub period: u64,
}
