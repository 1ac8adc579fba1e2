//! Repairs that look beyond the written move: how far the record replays after a repair,
//! two plies swapped, one ply missing.
//!
//! A transcriber who copies a score sheet line by line can swap two consecutive lines (South's
//! and North's moves of one move number: plies `n` and `n + 1`), or two moves of one player
//! (his moves of two consecutive numbers: plies `n` and `n + 2`), or skip a line (one ply
//! missing). Each such slip shows as an illegal move at ply `n`; the repair is judged, like a
//! replaced move, by how many of the plies written after it then replay.

use bao_core::{Engine, Move, MoveSpec, Position};
use bao_notation::{Directions, MoveItem};

use bao_replay::legal_move_in;

use crate::suggest::{annotation_matches, rank_in, sort, Repair, Suggestion, LOOKAHEAD};
use crate::words::Effect;

/// The cost (tenths of a slip) of each missing ply of the lookahead.
const BREAK_COST: u32 = 5;
/// Two consecutive plies (South's and North's moves of one number) swapped.
const SWAP_NEXT_COST: u32 = 15;
/// Two moves of one player (plies `n` and `n + 2`) swapped.
const SWAP_OWN_COST: u32 = 20;
/// One ply missing.
const INSERT_COST: u32 = 20;
/// One ply too many (a ply written twice): as likely as two consecutive plies swapped.
const DELETE_COST: u32 = 15;
/// An annotation that the repair's move matches.
const ANNOTATION_BONUS: u32 = 10;
/// An annotation that the repair's move contradicts.
const ANNOTATION_PENALTY: u32 = 15;

/// The written move in its line: what is needed to look past it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct InLine<'a> {
    /// The ply of the written move.
    pub(crate) ply: usize,
    /// The written move.
    pub(crate) item: &'a MoveItem,
    /// The moves written after it in its line.
    pub(crate) following: &'a [&'a MoveItem],
    /// The record's sign convention.
    pub(crate) directions: Directions,
}

/// How many of `items` (at most [`LOOKAHEAD`]) replay legally from `pos`.
pub(crate) fn replays(
    cx: &mut Engine,
    mut pos: Position,
    items: &[&MoveItem],
    directions: Directions,
) -> usize {
    let mut n = 0;
    for item in items.iter().take(LOOKAHEAD) {
        let Some(mv) = legal_move_in(cx, &pos, item, directions) else {
            break;
        };
        pos = cx.play_fast(&pos, &mv);
        n += 1;
    }
    n
}

/// How many of `items` a repair is judged by.
pub(crate) fn tried(items: &[&MoveItem]) -> usize {
    items.len().min(LOOKAHEAD)
}

/// The cost of the plies after a repair that do not replay.
pub(crate) fn break_cost(items: &[&MoveItem], replayed: usize) -> u32 {
    let avail = items.len().min(LOOKAHEAD);
    u32::try_from(avail.saturating_sub(replayed)).unwrap_or(u32::MAX / 8) * BREAK_COST
}

fn annotation_cost(cost: u32, agrees: Option<bool>) -> u32 {
    match agrees {
        Some(true) => cost.saturating_sub(ANNOTATION_BONUS),
        Some(false) => cost + ANNOTATION_PENALTY,
        None => cost,
    }
}

/// Whether a token's annotation, if any, agrees with a move played from `pos`.
fn agrees(cx: &mut Engine, pos: &Position, item: &MoveItem, mv: &Move) -> Option<bool> {
    let a = item.annotation.as_ref()?;
    let (next, trace) = cx.play_unchecked(pos, mv);
    Some(annotation_matches(&a.value, &trace, &next))
}

/// Every repair of an illegal written move, best first: the legal moves that a slip could
/// have turned into the written token (each judged also by how far the record then replays),
/// two plies swapped, one ply missing. Every engine call is made with `cx`.
pub(crate) fn rank_in_line(
    cx: &mut Engine,
    pos: &Position,
    written: &MoveSpec,
    line: &InLine<'_>,
) -> Vec<Suggestion> {
    let annotation = line.item.annotation.as_ref().map(|a| &a.value);
    let mut out = rank_in(cx, pos, written, annotation);
    for s in &mut out {
        let next = cx.play_fast(pos, &s.mv);
        let n = replays(cx, next, line.following, line.directions);
        s.continues = Some(n);
        s.tried = tried(line.following);
        s.cost += break_cost(line.following, n);
    }
    out.extend(swaps(cx, pos, line));
    out.extend(insertions(cx, pos, line));
    out.extend(deletion(cx, pos, line));
    sort(&mut out);
    out
}

/// The written move and the next ply, or the mover's next move, traded places.
fn swaps(cx: &mut Engine, pos: &Position, line: &InLine<'_>) -> Vec<Suggestion> {
    let mut out = Vec::new();
    let d = line.directions;
    // Plies n and n + 1: the later one here, then the written one.
    if let Some(&later) = line.following.first() {
        if let Some(m1) = legal_move_in(cx, pos, later, d) {
            let p1 = cx.play_fast(pos, &m1);
            if let Some(m2) = legal_move_in(cx, &p1, line.item, d) {
                let rest = &line.following[1..];
                let p2 = cx.play_fast(&p1, &m2);
                let replayed = replays(cx, p2, rest, d);
                out.push(swap(
                    cx,
                    pos,
                    line,
                    &Swapped {
                        later,
                        moves: (m1, m2),
                        distance: 1,
                        base: SWAP_NEXT_COST,
                        rest,
                        replayed,
                    },
                ));
            }
        }
    }
    // Plies n and n + 2 (one player's moves of two consecutive numbers).
    if let (Some(&between), Some(&later)) = (line.following.first(), line.following.get(1)) {
        if let Some(m1) = legal_move_in(cx, pos, later, d) {
            let p1 = cx.play_fast(pos, &m1);
            if let Some(mb) = legal_move_in(cx, &p1, between, d) {
                let p2 = cx.play_fast(&p1, &mb);
                if let Some(m2) = legal_move_in(cx, &p2, line.item, d) {
                    let rest = &line.following[2..];
                    let p3 = cx.play_fast(&p2, &m2);
                    let replayed = replays(cx, p3, rest, d);
                    out.push(swap(
                        cx,
                        pos,
                        line,
                        &Swapped {
                            later,
                            moves: (m1, m2),
                            distance: 2,
                            base: SWAP_OWN_COST,
                            rest,
                            replayed,
                        },
                    ));
                }
            }
        }
    }
    out
}

/// Two plies traded places: what a swap repair is judged by.
struct Swapped<'a> {
    /// The later token, read here.
    later: &'a MoveItem,
    /// Its move here, and the written move's after it.
    moves: (Move, Move),
    /// How many plies later the token was written (1 or 2).
    distance: usize,
    /// The cost of the slip.
    base: u32,
    /// The plies written after both.
    rest: &'a [&'a MoveItem],
    /// How many of them then replay.
    replayed: usize,
}

fn swap(cx: &mut Engine, pos: &Position, line: &InLine<'_>, s: &Swapped<'_>) -> Suggestion {
    let Swapped {
        later,
        moves: (mv, written),
        distance,
        base,
        rest,
        replayed,
    } = *s;
    let annotation_agrees = agrees(cx, pos, later, &mv);
    let (_, trace) = cx.play_unchecked(pos, &mv);
    Suggestion {
        mv,
        repair: Repair::Swap {
            ply: line.ply,
            with_ply: line.ply + distance,
            written,
        },
        cost: annotation_cost(base + break_cost(rest, replayed), annotation_agrees),
        slips: vec![if distance == 1 {
            "slip-plies-swapped"
        } else {
            "slip-moves-swapped"
        }],
        effect: Effect::of(&trace),
        annotation_agrees,
        continues: Some(replayed),
        tried: tried(rest),
    }
}

/// The written move one ply too many: without it, the move written after it is legal here.
fn deletion(cx: &mut Engine, pos: &Position, line: &InLine<'_>) -> Option<Suggestion> {
    let d = line.directions;
    let (&next, rest) = line.following.split_first()?;
    let mv = legal_move_in(cx, pos, next, d)?;
    let after = cx.play_fast(pos, &mv);
    let n = replays(cx, after, rest, d);
    let annotation_agrees = agrees(cx, pos, next, &mv);
    let (_, trace) = cx.play_unchecked(pos, &mv);
    Some(Suggestion {
        mv,
        repair: Repair::Delete { ply: line.ply },
        cost: annotation_cost(DELETE_COST + break_cost(rest, n), annotation_agrees),
        slips: vec!["slip-ply-too-many"],
        effect: Effect::of(&trace),
        annotation_agrees,
        continues: Some(n),
        tried: tried(rest),
    })
}

/// A ply of the side to move left out: after which of his legal moves the written move is
/// legal for the other player.
fn insertions(cx: &mut Engine, pos: &Position, line: &InLine<'_>) -> Vec<Suggestion> {
    let d = line.directions;
    let mut out = Vec::new();
    for mv in cx.legal_moves(pos) {
        let (mid, trace) = cx.play_unchecked(pos, &mv);
        let Some(written) = legal_move_in(cx, &mid, line.item, d) else {
            continue;
        };
        let annotation_agrees = agrees(cx, &mid, line.item, &written);
        let next = cx.play_fast(&mid, &written);
        let n = replays(cx, next, line.following, d);
        out.push(Suggestion {
            mv,
            repair: Repair::Insert {
                ply: line.ply,
                written,
            },
            cost: annotation_cost(
                INSERT_COST + break_cost(line.following, n),
                annotation_agrees,
            ),
            slips: vec!["slip-ply-missing"],
            effect: Effect::of(&trace),
            annotation_agrees,
            continues: Some(n),
            tried: tried(line.following),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use bao_core::{Position, RuleSet};
    use bao_notation::{parse_record, Directions, MoveItem};
    use bao_replay::written_spec;

    use super::*;
    use crate::suggest::unambiguous;
    use bao_replay::legal_move;

    /// The main line of a one-game record.
    fn items(text: &str) -> Vec<MoveItem> {
        let parsed = parse_record(text);
        assert!(parsed.errors.is_empty(), "{:?}", parsed.errors);
        parsed.record.games[0].value.main_line().cloned().collect()
    }

    /// The position after the first `n` plies, and the ranked repairs of ply `n + 1`.
    fn ranked_at(text: &str, n: usize) -> Vec<Suggestion> {
        let all = items(text);
        let d = Directions::Mover;
        let mut pos = Position::start(RuleSet::KISWAHILI);
        for item in &all[..n] {
            let mv = legal_move(&pos, item, d).expect("the plies before are legal");
            pos = pos.play_fast(&mv);
        }
        let item = &all[n];
        let following: Vec<&MoveItem> = all[n + 1..].iter().collect();
        let spec = written_spec(&pos, item, d).unwrap();
        assert!(pos.resolve(&spec).is_err(), "ply {} is legal", n + 1);
        rank_in_line(
            &mut Engine::new(),
            &pos,
            &spec,
            &InLine {
                ply: n + 1,
                item,
                following: &following,
                directions: d,
            },
        )
    }

    /// A game of Kiswahili Bao, 15 plies, all legal.
    const GAME: &str = "1. A7>* a7<* 2. A5< a6<* 3. A6< a4< 4. A6> a6< 5. A5> a5> 6. A2< a5> 7. A7> a5< 8. A6< *\n";

    #[test]
    fn replays_counts_legal_plies_up_to_the_lookahead() {
        let all = items(GAME);
        let refs: Vec<&MoveItem> = all.iter().collect();
        let start = Position::start(RuleSet::KISWAHILI);
        assert_eq!(
            replays(&mut Engine::new(), start, &refs, Directions::Mover),
            LOOKAHEAD
        );
        assert_eq!(
            replays(&mut Engine::new(), start, &refs[..3], Directions::Mover),
            3
        );
        // From ply 2 on, North's move comes first: South is to move, so nothing replays.
        assert_eq!(
            replays(&mut Engine::new(), start, &refs[1..], Directions::Mover),
            0
        );
    }

    #[test]
    fn two_consecutive_plies_swapped_are_the_best_repair() {
        let text = GAME.replace("5. A5> a5>", "5. a5> A5>");
        let ranked = ranked_at(&text, 8);
        let best = unambiguous(&ranked).expect("an unambiguous repair");
        assert_eq!(best.mv.to_string(), "A5>");
        assert!(matches!(
            best.repair,
            Repair::Swap {
                ply: 9,
                with_ply: 10,
                ..
            }
        ));
        assert_eq!(best.continues, Some(5));
        // A replacement that breaks the next ply ranks below it.
        let replaced = ranked
            .iter()
            .find(|s| s.repair == Repair::Replace)
            .expect("a replacement");
        assert!(replaced.cost > best.cost);
        assert_eq!(replaced.continues, Some(0));
    }

    #[test]
    fn two_moves_of_one_player_swapped_are_found() {
        let text = GAME.replace("4. A6> a6< 5. A5>", "4. A5> a6< 5. A6>");
        let ranked = ranked_at(&text, 6);
        let best = unambiguous(&ranked).expect("an unambiguous repair");
        assert_eq!(best.mv.to_string(), "A6>");
        assert!(matches!(
            best.repair,
            Repair::Swap {
                ply: 7,
                with_ply: 9,
                written,
            } if written.to_string() == "A5>"
        ));
    }

    #[test]
    fn a_missing_ply_is_inserted_and_ranked_by_how_far_the_game_replays() {
        // North's a6< (ply 8) left out.
        let text = GAME.replace("4. A6> a6< 5. A5> a5>", "4. A6> A5> 5. a5>");
        let ranked = ranked_at(&text, 7);
        let best = unambiguous(&ranked).expect("an unambiguous repair");
        assert_eq!(best.mv.to_string(), "a6<");
        assert!(
            matches!(best.repair, Repair::Insert { ply: 8, written } if written.to_string() == "A5>")
        );
        assert_eq!(best.continues, Some(LOOKAHEAD));
        // Every other insertion that makes A5> legal replays less far, so costs more.
        for s in ranked.iter().skip(1) {
            if let Repair::Insert { .. } = s.repair {
                assert!(s.continues < best.continues && s.cost > best.cost, "{s:?}");
            }
        }
    }

    #[test]
    fn with_nothing_after_the_slip_an_insertion_is_not_assumed_over_a_closer_reading() {
        // The record stops at the slip: the insertion cannot show that it fits better than
        // reading the token as North's own pit.
        let text = "1. A7>* a7<* 2. A5< a6<* 3. A6< a4< 4. A6> A5> *\n";
        let ranked = ranked_at(text, 7);
        let insert = ranked
            .iter()
            .find(|s| matches!(s.repair, Repair::Insert { .. }))
            .expect("an insertion");
        let best = &ranked[0];
        assert_eq!(best.repair, Repair::Replace);
        assert_eq!(best.continues, Some(0));
        assert!(best.cost < insert.cost, "{best:?} {insert:?}");
    }

    #[test]
    fn the_ranking_is_deterministic() {
        let text = GAME.replace("5. A5> a5>", "5. a5> A5>");
        assert_eq!(ranked_at(&text, 8), ranked_at(&text, 8));
    }
}
