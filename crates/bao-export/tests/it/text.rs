use bao_core::{BySide, Pit, Position, RuleSet, Side};
use bao_export::{board_text, Overlay, TextOptions};
use insta::assert_snapshot;

use crate::plies;

#[test]
fn kiswahili_start() {
    let opts = TextOptions {
        names: BySide::new(Some("Ali".to_owned()), Some("Bakari".to_owned())),
        ..TextOptions::default()
    };
    assert_snapshot!(board_text(&Position::start(RuleSet::KISWAHILI), &opts));
}

#[test]
fn after_namua_capture() {
    let ply = plies::kichwa_chosen();
    assert_snapshot!(board_text(&ply.after, &TextOptions::default()));
}

#[test]
fn after_safari() {
    assert_snapshot!(board_text(&plies::safari().after, &TextOptions::default()));
}

#[test]
fn takasia() {
    assert_snapshot!(board_text(&plies::takasia().after, &TextOptions::default()));
}

#[test]
fn bao_hamna() {
    assert_snapshot!(board_text(
        &plies::bao_hamna().after,
        &TextOptions::default()
    ));
}

#[test]
fn dormant_house() {
    assert_snapshot!(board_text(
        &plies::dormant_house().after,
        &TextOptions::default()
    ));
}

#[test]
fn kete_start() {
    assert_snapshot!(board_text(
        &Position::start(RuleSet::KETE),
        &TextOptions::default()
    ));
}

#[test]
fn flipped_without_coordinates() {
    let opts = TextOptions {
        flip: true,
        coordinates: false,
        ..TextOptions::default()
    };
    assert_snapshot!(board_text(&plies::takasia().after, &opts));
}

/// The options marking the start of the ply that led to its position.
fn marking(ply: &plies::Ply) -> TextOptions {
    let start = Overlay::from_trace(&ply.before, &ply.trace).start;
    assert!(start.is_some(), "ply {} of seed {}", ply.number, ply.seed);
    TextOptions {
        last_move: start,
        ..TextOptions::default()
    }
}

#[test]
fn last_move_namua_capture() {
    let ply = plies::kichwa_chosen();
    assert_snapshot!(board_text(&ply.after, &marking(&ply)));
}

#[test]
fn last_move_after_safari() {
    let ply = plies::safari();
    assert_snapshot!(board_text(&ply.after, &marking(&ply)));
}

#[test]
fn last_move_beside_takasia() {
    let ply = plies::takasia();
    assert_snapshot!(board_text(&ply.after, &marking(&ply)));
}

#[test]
fn last_move_flipped() {
    let ply = plies::takasia();
    let opts = TextOptions {
        flip: true,
        ..marking(&ply)
    };
    assert_snapshot!(board_text(&ply.after, &opts));
}

#[test]
fn last_move_from_the_house_keeps_its_brackets() {
    let pos = Position::start(RuleSet::KISWAHILI);
    let house = Pit::nyumba(Side::South);
    let text = board_text(
        &pos,
        &TextOptions {
            last_move: Some(house),
            ..TextOptions::default()
        },
    );
    let row_a = text.lines().find(|l| l.starts_with(" A")).expect("row A");
    assert!(row_a.contains("[ 6]^"), "{text}");
    assert!(text.contains("n^ last move's start"), "{text}");
    // Off by default: no mark, no legend entry.
    let plain = board_text(&pos, &TextOptions::default());
    assert!(!plain.contains('^'), "{plain}");
}
