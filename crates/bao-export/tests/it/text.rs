use bao_core::{BySide, Position, RuleSet};
use bao_export::{board_text, TextOptions};
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
