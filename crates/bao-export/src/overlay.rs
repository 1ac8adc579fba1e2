//! What a diagram can show on top of a position: the story of one ply.

use bao_core::{Direction, Event, Move, MoveTrace, Pit, Position, RuleSet, Setup, Side, Stage};

/// A capture to mark: the pit emptied and where its seeds went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CaptureMark {
    /// The opponent's pit that was emptied.
    pub pit: Pit,
    /// Seeds taken.
    pub seeds: u8,
    /// The mover's kichwa where they entered.
    pub kichwa: Pit,
}

/// One lap to draw along the ring (the `book` theme).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LapMark {
    /// Lap number, from 1.
    pub number: u64,
    /// The pit lifted, or the kichwa where captured seeds enter.
    pub start: Pit,
    /// The sowing direction.
    pub direction: Direction,
    /// The pit of the last seed.
    pub end: Pit,
}

/// The marks of one ply, drawn over the position reached by it.
///
/// Build it with [`Overlay::from_trace`], or fill the fields by hand (an empty overlay draws
/// nothing). The fields are plain data; the drawing code groups lap ends and captures that
/// fall in the same pit, so any number of laps gives at most one badge per pit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Overlay {
    /// The player who moved.
    pub mover: Side,
    /// The move, for the caption.
    pub mv: Option<Move>,
    /// The mover's stage when he moved.
    pub stage: Option<Stage>,
    /// The pit the move started from (in namua: where the reserve seed was placed).
    pub start: Option<Pit>,
    /// The first lap: the pit its seeds were sown from and the direction.
    pub first_lap: Option<(Pit, Direction)>,
    /// Every lap end: lap number (from 1) and the pit of its last seed.
    pub lap_ends: Vec<(u64, Pit)>,
    /// The first laps (at most [`Overlay::LAPS_KEPT`]), to draw pit by pit.
    pub laps: Vec<LapMark>,
    /// How many laps the move had (more than `lap_ends` holds when the trace was cut short).
    pub laps_total: u64,
    /// A move that never ends: the lap whose end state recurs, and every how many laps
    /// (the lap ends kept are those up to that lap: how the move enters its cycle).
    pub cycle: Option<(u64, u64)>,
    /// The captures in order.
    pub captures: Vec<CaptureMark>,
    /// The pit this move made takasia'd (written `**`).
    pub takasia: Option<Pit>,
    /// The mover went on safari through his house.
    pub safari: bool,
    /// The move ended the game.
    pub won: bool,
    /// The position before the move, for the `+n`/`-n` change marks.
    pub before: Option<Setup>,
}

impl Overlay {
    /// The most laps kept in [`Overlay::laps`].
    pub const LAPS_KEPT: usize = 6;

    /// An overlay that marks nothing, for `mover`.
    #[must_use]
    pub fn empty(mover: Side) -> Self {
        Self {
            mover,
            mv: None,
            stage: None,
            start: None,
            first_lap: None,
            lap_ends: Vec::new(),
            laps: Vec::new(),
            laps_total: 0,
            cycle: None,
            captures: Vec::new(),
            takasia: None,
            safari: false,
            won: false,
            before: None,
        }
    }

    /// The marks of a ply from the position it was played in and its trace; draw them over
    /// the position the ply reached.
    #[must_use]
    pub fn from_trace(before: &Position, trace: &MoveTrace) -> Self {
        Self {
            mover: trace.mover,
            mv: Some(trace.mv),
            stage: Some(trace.stage),
            start: Some(trace.placement.unwrap_or(trace.mv.pit)),
            first_lap: trace.laps.first().map(|l| (l.start, l.direction)),
            lap_ends: trace
                .laps
                .iter()
                .filter(|l| {
                    trace
                        .never_ending
                        .is_none_or(|n| l.number <= n.cycle_start_lap)
                })
                .map(|l| (l.number, l.end))
                .collect(),
            laps: trace
                .laps
                .iter()
                .take(Self::LAPS_KEPT)
                .map(|l| LapMark {
                    number: l.number,
                    start: l.start,
                    direction: l.direction,
                    end: l.end,
                })
                .collect(),
            laps_total: trace.laps_total,
            cycle: trace.never_ending.map(|n| (n.cycle_start_lap, n.period)),
            captures: trace
                .captures
                .iter()
                .map(|c| CaptureMark {
                    pit: c.pit,
                    seeds: c.seeds,
                    kichwa: c.kichwa,
                })
                .collect(),
            takasia: trace.takasia_set(),
            safari: trace.events.iter().any(|e| matches!(e, Event::Safari)),
            won: trace.outcome.is_some_and(|o| o.winner == Some(trace.mover)),
            before: Some(before.to_setup()),
        }
    }

    /// The move as the canonical writer would annotate it: `A4>`, `A3>**`, `B2<#`.
    #[must_use]
    pub fn move_text(&self) -> Option<String> {
        let mv = self.mv?;
        let mut s = mv.to_string();
        if self.takasia.is_some() && mv.is_takasa() {
            s.push('*');
        }
        if self.won {
            s.push('#');
        }
        Some(s)
    }

    /// A one-line summary in the words of `rules`' variant, with every capture:
    /// `South A4>: 3 laps; captured a5 (3), a4 (2)`; a move that never ends says where its
    /// cycle starts instead of counting laps.
    #[must_use]
    pub fn summary(&self, rules: &RuleSet) -> String {
        let mut s = String::from(crate::layout::side_title(self.mover));
        if let Some(mv) = self.move_text() {
            s.push(' ');
            s.push_str(&mv);
        }
        let parts = self.parts(rules);
        if !parts.is_empty() {
            s.push_str(": ");
            s.push_str(&parts.join("; "));
        }
        s
    }

    /// What the move did, in the words of `rules`' variant, every capture listed:
    /// `3 laps; captured a5 (3), a4 (2)` (empty for a move that did nothing to say).
    ///
    /// ```
    /// use bao_core::{Position, RuleSet};
    /// use bao_export::Overlay;
    ///
    /// let start = Position::start(RuleSet::KISWAHILI);
    /// let mv = "A6<*".parse().unwrap();
    /// let (_, trace) = start.play(&mv).unwrap();
    /// assert_eq!(Overlay::from_trace(&start, &trace).effect(&RuleSet::KISWAHILI), "1 lap");
    /// ```
    #[must_use]
    pub fn effect(&self, rules: &RuleSet) -> String {
        self.parts(rules).join("; ")
    }

    /// The parts of [`Overlay::summary`] and [`Overlay::effect`].
    fn parts(&self, rules: &RuleSet) -> Vec<String> {
        let mut parts: Vec<String> = Vec::new();
        if let Some((from, period)) = self.cycle {
            parts.push(format!(
                "never ends: repeats every {period} lap{} from lap {from}",
                if period == 1 { "" } else { "s" }
            ));
        } else if self.laps_total > 0 {
            let n = self.laps_total;
            parts.push(format!("{n} lap{}", if n == 1 { "" } else { "s" }));
        }
        if self.safari {
            parts.push("safari".to_owned());
        }
        if !self.captures.is_empty() {
            let shown: Vec<String> = self
                .captures
                .iter()
                .map(|c| format!("{} ({})", c.pit, c.seeds))
                .collect();
            parts.push(format!("captured {}", shown.join(", ")));
        }
        if let Some(t) = self.takasia {
            parts.push(format!("{} {t}", rules.names().takasia));
        }
        parts
    }
}
