//! Repair suggestions: the legal moves ranked by how plausibly a transcription slip turned
//! them into the token written.

use bao_core::{Move, MoveSpec, MoveTrace, Pit, Position, Row, Stage};
use bao_notation::{Annotation, AnnotationItem};

use crate::annotate::{agrees, engine_items};
use crate::words::effect;

/// The largest cost a suggestion may have (tenths of a slip).
const MAX_COST: u32 = 40;
/// A suggestion at most this costly can be assumed (`--assume-fixes`) when it is unique.
const ASSUMABLE: u32 = 25;

/// A legal move offered in place of the written one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suggestion {
    /// The move.
    pub mv: Move,
    /// How unlikely the slip is, in tenths (lower is likelier).
    pub cost: u32,
    /// The slips, e.g. `direction flipped`.
    pub slips: Vec<&'static str>,
    /// What the move does (`captures a5`).
    pub effect: String,
    /// Whether the move's laps and captures match the annotation written (`None`: no
    /// annotation).
    pub annotation_agrees: Option<bool>,
}

impl Suggestion {
    /// `did you mean A4< ? (direction flipped) it captures a5, as the annotation says`.
    #[must_use]
    pub fn sentence(&self) -> String {
        let mut s = format!("did you mean {} ?", self.mv);
        if !self.slips.is_empty() {
            s.push_str(&format!(" ({})", self.slips.join(", ")));
        }
        s.push_str(&format!(" it {}", self.effect));
        if self.annotation_agrees == Some(true) {
            s.push_str(", as the annotation says");
        }
        s
    }
}

fn pit_slip(written: Pit, cand: Pit) -> Option<(u32, Option<&'static str>)> {
    if written == cand {
        return Some((0, None));
    }
    let (w, c) = (written, cand);
    let same_side = w.side() == c.side();
    let mut best: Option<(u32, Option<&'static str>)> = None;
    let mut offer = |cost: u32, why: &'static str| {
        if best.is_none_or(|(b, _)| cost < b) {
            best = Some((cost, Some(why)));
        }
    };
    if same_side && w.row() != c.row() && w.number() == c.number() {
        offer(15, "row A/B swapped");
    }
    if !same_side && w.row() == c.row() && w.number() == c.number() {
        offer(15, "row letter of the other player");
    }
    if !same_side && w.row() == Row::Front && c.row() == Row::Front && w.facing() == Some(c) {
        offer(15, "South/North numbering mirrored");
    }
    if same_side && w.row() == c.row() && w.number() + c.number() == 9 {
        offer(20, "numbered from the other end");
    }
    if same_side && w.row() == c.row() && w.number().abs_diff(c.number()) == 1 {
        offer(20, "a neighbouring pit");
    }
    best
}

/// Ranks the legal moves of `pos` as readings of `written` (best first). `annotation`, when
/// given, separates moves that look alike.
#[must_use]
pub fn rank(
    pos: &Position,
    written: &MoveSpec,
    annotation: Option<&Annotation>,
) -> Vec<Suggestion> {
    let namua_capture = pos.stage() == Stage::Namua;
    let mut out = Vec::new();
    for mv in pos.legal_moves() {
        let Some((mut cost, pit_why)) = pit_slip(written.pit, mv.pit) else {
            continue;
        };
        let mut slips: Vec<&'static str> = pit_why.into_iter().collect();
        if let Some(sign) = written.sign {
            if sign != mv.sign {
                cost += 10;
                slips.push(if namua_capture && !mv.takasa {
                    "kichwa side flipped"
                } else {
                    "direction flipped"
                });
            }
        }
        if written.takasa != mv.takasa {
            if mv.takasa {
                cost += 5;
                slips.push("a missing `*`");
            } else {
                cost += 10;
                slips.push("an extra `*`");
            }
        }
        if written.safari != mv.safari {
            cost += 10;
            slips.push(if mv.safari {
                "a missing `+`"
            } else {
                "an extra `+`"
            });
        }
        let (next, trace) = pos.play_unchecked(&mv);
        let annotation_agrees = annotation.map(|a| annotation_matches(a, &trace, &next));
        match annotation_agrees {
            Some(true) => cost = cost.saturating_sub(25),
            Some(false) => cost += 15,
            None => {}
        }
        if cost > MAX_COST && annotation_agrees != Some(true) {
            continue;
        }
        out.push(Suggestion {
            mv,
            cost,
            slips,
            effect: effect(&mv, &trace),
            annotation_agrees,
        });
    }
    out.sort_by(|a, b| a.cost.cmp(&b.cost).then(a.mv.cmp(&b.mv)));
    out
}

/// Whether a move's trace agrees with an annotation (both channels, where written).
#[must_use]
pub fn annotation_matches(a: &Annotation, trace: &MoveTrace, next: &Position) -> bool {
    let actual = engine_items(trace, next);
    let recorded: Vec<AnnotationItem> = a.items.iter().map(|i| i.value).collect();
    agrees(&recorded, &actual).is_ok()
}

/// The best suggestion if it stands out: cheap enough, and cheaper than the next.
#[must_use]
pub fn unambiguous(list: &[Suggestion]) -> Option<&Suggestion> {
    let best = list.first()?;
    let clear = list.get(1).is_none_or(|s| s.cost > best.cost);
    (clear && (best.cost <= ASSUMABLE || best.annotation_agrees == Some(true))).then_some(best)
}
