//! Where each pit goes on the page: shared by the SVG and the text diagram.

use bao_core::{HouseState, Pit, Position, Row, RuleSet, Side, Variant};

/// The side whose rows are drawn at the bottom (the viewer's seat).
pub(crate) fn viewer(flip: bool) -> Side {
    if flip {
        Side::North
    } else {
        Side::South
    }
}

/// The four rows from top to bottom: the far side's back and front rows, then the viewer's
/// front and back rows.
pub(crate) fn rows_top_to_bottom(flip: bool) -> [(Side, Row); 4] {
    let near = viewer(flip);
    let far = near.opponent();
    [
        (far, Row::Back),
        (far, Row::Front),
        (near, Row::Front),
        (near, Row::Back),
    ]
}

/// The pit number shown in screen column `col` (0..8, left to right) for `side`'s rows:
/// the viewer reads his pits 1..8 from his left; the far side's read 8..1.
pub(crate) fn number_at(side: Side, col: u8, flip: bool) -> u8 {
    if side == viewer(flip) {
        col + 1
    } else {
        8 - col
    }
}

/// The screen column (0..8) of a pit.
pub(crate) fn column_of(pit: Pit, flip: bool) -> u8 {
    if pit.side() == viewer(flip) {
        pit.number() - 1
    } else {
        8 - pit.number()
    }
}

/// The screen row (0..4, top to bottom) of a pit.
pub(crate) fn screen_row_of(pit: Pit, flip: bool) -> usize {
    let near = pit.side() == viewer(flip);
    match (near, pit.row()) {
        (false, Row::Back) => 0,
        (false, Row::Front) => 1,
        (true, Row::Front) => 2,
        (true, Row::Back) => 3,
    }
}

/// The pit at a screen row and column.
pub(crate) fn pit_at(screen_row: usize, col: u8, flip: bool) -> Option<Pit> {
    let (side, row) = *rows_top_to_bottom(flip).get(screen_row)?;
    Pit::new(side, row, number_at(side, col, flip))
}

/// "South" / "North".
pub(crate) fn side_title(side: Side) -> &'static str {
    match side {
        Side::South => "South",
        Side::North => "North",
    }
}

/// The game's name, for titles.
pub(crate) fn game_name(rules: &RuleSet) -> &'static str {
    match rules.variant {
        Variant::Kiswahili => "Bao la Kiswahili",
        Variant::Kete => "Bao la Kete",
        Variant::Kujifunza => "Bao la Kujifunza",
    }
}

/// The stage word of `side` in the variant's vocabulary (Kete: nemo).
pub(crate) fn stage_word(pos: &Position, side: Side) -> &'static str {
    let names = pos.rules().names();
    match pos.stage_of(side) {
        bao_core::Stage::Namua => names.namua,
        bao_core::Stage::Mtaji => names.mtaji,
    }
}

/// "South wins (bao hamna: the loser's front row is empty)" when the game is over; `short`
/// leaves out the explanation.
pub(crate) fn outcome_text(pos: &Position, short: bool) -> Option<String> {
    pos.outcome().map(|o| describe_outcome(o, short))
}

/// [`outcome_text`] of an outcome already known.
pub(crate) fn describe_outcome(o: bao_core::Outcome, short: bool) -> String {
    let why = match (o.reason, short) {
        (bao_core::EndReason::BaoHamna, true) => "bao hamna",
        (bao_core::EndReason::BaoHamna, false) => "bao hamna: the loser's front row is empty",
        (bao_core::EndReason::NoLegalMove, _) => "the loser has no legal move",
        (bao_core::EndReason::OwnFrontRowEmpty, true) => "own front row emptied",
        (bao_core::EndReason::OwnFrontRowEmpty, false) => "the loser emptied his own front row",
        (bao_core::EndReason::NeverEnding, _) => "a never-ending move",
    };
    match o.winner {
        Some(w) => format!("{} wins ({why})", side_title(w)),
        None => format!("draw ({why})"),
    }
}

/// `hand 22 · namua · nyumba functional · takasia a3`, with `sep` between the parts; once the
/// game is over, no stage.
///
/// `in_hand`: the side's hand holds seeds of a mtaji move the game's end stopped.
pub(crate) fn status_line(
    pos: &Position,
    side: Side,
    sep: &str,
    over: bool,
    in_hand: bool,
) -> String {
    let names = pos.rules().names();
    let hand = pos.hand(side);
    let mut parts = vec![format!("hand {hand}")];
    // In mtaji a hand is empty between moves: seeds there when the game is over were still
    // being sown when it ended (bao hamna in the middle of a move).
    if over && hand > 0 && in_hand {
        parts[0] = format!("hand {hand} (still in hand: the game ended in the middle of the move)");
    }
    if !over {
        parts.push(stage_word(pos, side).to_owned());
    }
    let house = pos.house_state(side);
    if house != HouseState::None {
        parts.push(format!("{} {}", names.nyumba, house.name()));
    }
    if let Some(t) = pos.blocked_pit(side) {
        parts.push(format!("{} {t}", names.takasia));
    }
    parts.join(sep)
}

#[cfg(test)]
mod tests {
    use super::{column_of, pit_at, screen_row_of};
    use bao_core::Pit;

    #[test]
    fn south_view_faces_a1_to_a8() {
        // From South: row a reads a8..a1 from the left, so A1 sits under a8.
        let a1: Pit = "A1".parse().unwrap();
        let a8: Pit = "a8".parse().unwrap();
        assert_eq!(column_of(a1, false), column_of(a8, false));
        assert_eq!(pit_at(0, 0, false).unwrap().to_string(), "b8");
        assert_eq!(pit_at(3, 7, false).unwrap().to_string(), "B8");
        assert_eq!(pit_at(0, 0, true).unwrap().to_string(), "B8");
        assert_eq!(pit_at(2, 0, true).unwrap().to_string(), "a1");
        for flip in [false, true] {
            for pit in Pit::all() {
                let (r, c) = (screen_row_of(pit, flip), column_of(pit, flip));
                assert_eq!(pit_at(r, c, flip), Some(pit));
            }
        }
    }
}
