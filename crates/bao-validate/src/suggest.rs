//! Repair suggestions: the legal moves ranked by how plausibly a transcription slip turned
//! them into the token written.

use bao_core::{Engine, Move, MoveSpec, MoveTrace, Pit, Position, Row, Sign, Stage};
use bao_notation::Annotation;

use bao_replay::{annotation_agrees, ItemList};

use crate::words::{Effect, Lang};
use bao_i18n::t;

/// The largest cost a suggestion may have (tenths of a slip).
const MAX_COST: u32 = 40;
/// A suggestion at most this costly can be assumed (`--assume-fixes`) when it is unique.
const ASSUMABLE: u32 = 25;
/// How many plies after the refused one an earlier repair is replayed through.
pub(crate) const EARLIER_LOOKAHEAD: usize = 24;
/// How many written plies after a repair are replayed to judge it.
pub const LOOKAHEAD: usize = 6;

/// What a suggestion changes in the record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Repair {
    /// The written move is replaced by [`Suggestion::mv`].
    Replace,
    /// The written move (ply `ply`) and the move written at ply `with_ply` (the next ply, or
    /// the same player's next move two plies later) traded places: [`Suggestion::mv`] is the
    /// move written at `with_ply`, played here; the written move is played at `with_ply`.
    Swap {
        /// The ply of the written move.
        ply: usize,
        /// The ply of the move it traded places with.
        with_ply: usize,
        /// The written move, as it reads at `with_ply`.
        written: Move,
    },
    /// A ply of the side to move is missing before the written move: [`Suggestion::mv`] is
    /// inserted, then `written` (the written move) is legal for the other player.
    Insert {
        /// The ply of the written move.
        ply: usize,
        /// The written move, as it reads after the inserted one.
        written: Move,
    },
    /// The written move is one ply too many (a ply written twice, or one that was not
    /// played): without it, [`Suggestion::mv`] (the move written after it) is played here.
    Delete {
        /// The ply of the written move, which goes.
        ply: usize,
    },
    /// An earlier ply was mis-written as another legal move, which made the board differ from
    /// the game played and so a later ply illegal: [`Suggestion::mv`] is played at `ply`
    /// instead of `written`, and the plies written after it then replay (the illegal one
    /// among them).
    Earlier {
        /// The ply whose move is replaced (counted from 1).
        ply: usize,
        /// The move written there, which replayed legally.
        written: Move,
    },
}

/// A repair offered in place of the written move: a legal move put in its place, two plies
/// swapped, or a missing ply inserted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suggestion {
    /// The move played at the written move's ply (see [`Repair`]).
    pub mv: Move,
    /// What changes in the record.
    pub repair: Repair,
    /// How unlikely the slip is, in tenths (lower is likelier).
    pub cost: u32,
    /// The slips, as ids of the message catalogue (`slip-direction-flipped`: "direction
    /// flipped"); [`Suggestion::sentence_in`] words them.
    pub slips: Vec<&'static str>,
    /// What the move does (`captures a5`).
    pub effect: Effect,
    /// Whether the move's laps and captures match the annotation written (`None`: no
    /// annotation). For a swap, the annotation of the token moved here; for an insertion,
    /// that of the written move after the inserted one.
    pub annotation_agrees: Option<bool>,
    /// How many of the plies written after the repaired ones then replay legally (at most
    /// [`LOOKAHEAD`]); `None` when the record was not consulted.
    pub continues: Option<usize>,
    /// How many plies written after the repaired ones were tried (at most [`LOOKAHEAD`]:
    /// fewer when the record ends sooner).
    pub tried: usize,
}

impl Suggestion {
    /// `did you mean A4< ? (direction flipped) it captures a5, as the annotation says`.
    #[must_use]
    pub fn sentence(&self) -> String {
        self.sentence_in(Lang::En)
    }

    /// [`Suggestion::sentence`] in `lang`.
    #[must_use]
    pub fn sentence_in(&self, lang: Lang) -> String {
        let effect = self.effect.words(lang);
        let agrees = if self.annotation_agrees == Some(true) {
            t!(lang, "repair-as-annotation")
        } else {
            String::new()
        };
        let mv = self.mv.to_string();
        let mut s = match self.repair {
            Repair::Replace => t!(lang, "repair-replace", mv = mv.as_str()),
            Repair::Swap {
                ply,
                with_ply,
                written,
            } => t!(
                lang,
                if with_ply == ply + 1 {
                    "repair-swap-next"
                } else {
                    "repair-swap-later"
                },
                ply = ply,
                with_ply = with_ply,
                mv = mv.as_str(),
                effect = effect.as_str(),
                agrees = agrees.as_str(),
                written = written.to_string()
            ),
            Repair::Insert { written, .. } => t!(
                lang,
                "repair-insert",
                mv = mv.as_str(),
                effect = effect.as_str(),
                written = written.to_string(),
                agrees = agrees.as_str()
            ),
            Repair::Delete { ply } => t!(
                lang,
                "repair-delete",
                ply = ply,
                mv = mv.as_str(),
                effect = effect.as_str(),
                agrees = agrees.as_str()
            ),
            Repair::Earlier { ply, written } => t!(
                lang,
                "repair-earlier",
                ply = ply,
                mv = mv.as_str(),
                written = written.to_string(),
                slips = if self.slips.is_empty() {
                    String::new()
                } else {
                    format!("{}; ", self.slip_words(lang))
                },
                effect = effect.as_str(),
                agrees = agrees.as_str()
            ),
        };
        if self.repair != Repair::Replace {
            s.push_str(&continuation(lang, self.continues, self.tried));
            return s;
        }
        if !self.slips.is_empty() {
            s.push_str(&format!(" ({})", self.slip_words(lang)));
        }
        s.push(' ');
        s.push_str(&t!(lang, "repair-it", effect = effect.as_str()));
        if self.annotation_agrees == Some(true) {
            s.push_str(&t!(lang, "repair-as-the-annotation"));
        }
        if let Some(n) = self.continues.filter(|n| *n > 0) {
            s.push_str(&continuation(lang, Some(n), self.tried));
        }
        s
    }

    /// The slips in words, separated by commas.
    fn slip_words(&self, lang: Lang) -> String {
        self.slips
            .iter()
            .map(|id| bao_i18n::t!(lang, id))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// A few words naming the repair, for a list of equally likely ones.
    #[must_use]
    pub fn short(&self) -> String {
        self.short_in(Lang::En)
    }

    /// [`Suggestion::short`] in `lang`.
    #[must_use]
    pub fn short_in(&self, lang: Lang) -> String {
        let mv = self.mv.to_string();
        match self.repair {
            Repair::Replace => mv,
            Repair::Swap { ply, with_ply, .. } => {
                t!(lang, "short-swap", ply = ply, with_ply = with_ply)
            }
            Repair::Insert { .. } => t!(lang, "short-insert", mv = mv.as_str()),
            Repair::Earlier { ply, .. } => t!(lang, "short-earlier", mv = mv.as_str(), ply = ply),
            Repair::Delete { ply } => t!(lang, "short-delete", ply = ply),
        }
    }
}

/// How far the record replays after a repair: `; the next 6 written plies then replay too
/// (the check looks no further)`.
fn continuation(lang: Lang, n: Option<usize>, tried: usize) -> String {
    let plies = |n: usize| t!(lang, "written-plies", count = n);
    match n {
        None => String::new(),
        Some(0) if tried > 0 => t!(lang, "continue-next-illegal"),
        Some(_) if tried == 0 => String::new(),
        Some(n) if n >= tried && (tried == LOOKAHEAD || tried == EARLIER_LOOKAHEAD) => {
            t!(lang, "continue-no-further", plies = plies(n))
        }
        Some(n) if n >= tried => t!(lang, "continue-rest", plies = plies(n)),
        Some(1) => t!(lang, "continue-only-next"),
        Some(n) => t!(lang, "continue-only", plies = plies(n)),
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
        offer(15, "slip-row-swapped");
    }
    if !same_side && w.row() == c.row() && w.number() == c.number() {
        offer(15, "slip-other-row-letter");
    }
    if !same_side && w.row() == Row::Front && c.row() == Row::Front && w.facing() == Some(c) {
        offer(15, "slip-mirrored");
    }
    if same_side && w.row() == c.row() && w.number() + c.number() == 9 {
        offer(20, "slip-other-end");
    }
    if same_side && w.row() == c.row() && w.number().abs_diff(c.number()) == 1 {
        offer(20, "slip-neighbour");
    }
    best
}

/// Ranks the legal moves of `pos` as readings of `written` (best first). `annotation`, when
/// given, separates moves that look alike. Exact, on an engine of this call ([`rank_in`]
/// asks the caller's).
#[must_use]
pub fn rank(
    pos: &Position,
    written: &MoveSpec,
    annotation: Option<&Annotation>,
) -> Vec<Suggestion> {
    rank_in(&mut Engine::new(), pos, written, annotation)
}

/// [`rank`] asked of `cx` (its memo, and its lap budget: under `Engine::within`, a move whose
/// decision runs out of it makes the whole answer [`bao_core::Undecided`]).
#[must_use]
pub fn rank_in(
    cx: &mut Engine,
    pos: &Position,
    written: &MoveSpec,
    annotation: Option<&Annotation>,
) -> Vec<Suggestion> {
    let namua_capture = pos.stage() == Stage::Namua;
    let mut out = Vec::new();
    for mv in cx.legal_moves(pos) {
        let Some((mut cost, pit_why)) = pit_slip(written.pit, mv.pit) else {
            continue;
        };
        let mut slips: Vec<&'static str> = pit_why.into_iter().collect();
        // Some books mark a move that plays the house with `>` (`A8>`): read as a sign, it
        // names another move.
        let house_mark = written.sign == Some(Sign::Right) && !written.safari && mv.is_safari();
        if house_mark {
            cost += 5;
            slips.push("slip-house-mark");
        } else if let Some(sign) = written.sign {
            if sign != mv.sign {
                cost += 10;
                slips.push(if namua_capture && mv.is_capture() {
                    "slip-kichwa-flipped"
                } else {
                    "slip-direction-flipped"
                });
            }
        }
        if written.takasa != mv.is_takasa() {
            if mv.is_takasa() {
                cost += 5;
                slips.push("slip-missing-takasa");
            } else {
                cost += 10;
                slips.push("slip-extra-takasa");
            }
        }
        if written.safari != mv.is_safari() && !house_mark {
            cost += 10;
            slips.push(if mv.is_safari() {
                "slip-missing-safari"
            } else {
                "slip-extra-safari"
            });
        }
        let (next, trace) = cx.play_unchecked(pos, &mv);
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
            effect: Effect::of(&trace),
            annotation_agrees,
            repair: Repair::Replace,
            continues: None,
            tried: 0,
        });
    }
    sort(&mut out);
    out
}

/// The help line of the best repair, with the equally likely ones when it is not
/// unambiguous.
pub(crate) fn repair_line(
    lang: Lang,
    best: &Suggestion,
    ranked: &[Suggestion],
    ambiguous: bool,
) -> String {
    let mut line = capitalise(&best.sentence_in(lang));
    if ambiguous {
        let others: Vec<String> = ranked
            .iter()
            .skip(1)
            .take(3)
            .filter(|o| o.cost == best.cost)
            .map(|o| o.short_in(lang))
            .collect();
        if !others.is_empty() {
            line.push(' ');
            line.push_str(&t!(lang, "repair-or", others = others.join(", ")));
        }
    }
    line
}

pub(crate) fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// With `--assume-fixes`, what happens at a refused ply whose repairs are `ranked` (best
/// first, earlier plies' included): the line goes on with the unambiguous best, or stops,
/// saying why (no likely reading, the equally likely repairs listed, or the one likeliest
/// not likely enough). Every such line starts with `--assume-fixes ` in every language.
pub(crate) fn assume_line(lang: Lang, ranked: &[Suggestion]) -> String {
    let Some(best) = ranked.first() else {
        return t!(lang, "assume-no-reading");
    };
    if let Some(r) = unambiguous(ranked) {
        return match r.repair {
            Repair::Earlier { ply, .. } => {
                t!(lang, "assume-earlier", mv = r.mv.to_string(), ply = ply)
            }
            _ => t!(lang, "assume-repair", repair = r.short_in(lang)),
        };
    }
    let tied: Vec<&Suggestion> = ranked.iter().filter(|s| s.cost == best.cost).collect();
    let is_earlier = |s: &&Suggestion| matches!(s.repair, Repair::Earlier { .. });
    if tied.iter().any(is_earlier) && !tied.iter().all(is_earlier) {
        // Changing this ply or an earlier one: the record bears out both as well.
        let names: Vec<String> = tied
            .iter()
            .take(6)
            .map(|s| match s.repair {
                Repair::Replace => t!(lang, "short-here", mv = s.mv.to_string()),
                _ => s.short_in(lang),
            })
            .collect();
        return t!(lang, "assume-earlier-tie", repairs = names.join(", "));
    }
    let tied: Vec<String> = tied.iter().take(6).map(|s| s.short_in(lang)).collect();
    if tied.len() > 1 {
        t!(lang, "assume-tie", repairs = tied.join(", "))
    } else {
        t!(lang, "assume-unlikely", repair = best.short_in(lang))
    }
}

/// Best first: cheapest, then replacements before swaps before insertions, then by move.
pub(crate) fn sort(list: &mut [Suggestion]) {
    list.sort_by(|a, b| {
        a.cost
            .cmp(&b.cost)
            .then(a.repair.cmp(&b.repair))
            .then(a.mv.cmp(&b.mv))
    });
}

/// Whether a move's trace agrees with an annotation (both channels, where written).
#[must_use]
pub fn annotation_matches(a: &Annotation, trace: &MoveTrace, next: &Position) -> bool {
    let actual = ItemList::of_move(trace, next);
    annotation_agrees(a, &actual, trace, next).is_ok()
}

/// The best suggestion if it stands out: cheap enough, and cheaper than the next.
#[must_use]
pub fn unambiguous(list: &[Suggestion]) -> Option<&Suggestion> {
    let best = list.first()?;
    let clear = list.get(1).is_none_or(|s| s.cost > best.cost);
    (clear && (best.cost <= ASSUMABLE || best.annotation_agrees == Some(true))).then_some(best)
}
