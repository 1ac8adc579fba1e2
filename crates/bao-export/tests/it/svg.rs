use bao_core::{BySide, Position, RuleSet};
use bao_export::{board_svg, Overlay, SeedStyle, SvgOptions, Theme};
use insta::assert_snapshot;

use crate::plies::{self, Ply};

fn with_overlay(ply: &Ply, opts: &SvgOptions) -> String {
    let ov = Overlay::from_trace(&ply.before, &ply.trace);
    board_svg(&ply.after, opts, Some(&ov))
}

#[test]
fn kiswahili_start() {
    let opts = SvgOptions {
        names: BySide::new(Some("Ali".to_owned()), Some("Bakari".to_owned())),
        ..SvgOptions::default()
    };
    assert_snapshot!(board_svg(&Position::start(RuleSet::KISWAHILI), &opts, None));
}

#[test]
fn namua_capture_with_kichwa_choice() {
    let ply = plies::kichwa_chosen();
    let opts = SvgOptions {
        show_changes: true,
        ..SvgOptions::default()
    };
    assert_snapshot!(with_overlay(&ply, &opts));
}

#[test]
fn safari() {
    assert_snapshot!(with_overlay(&plies::safari(), &SvgOptions::default()));
}

#[test]
fn takasia() {
    assert_snapshot!(with_overlay(&plies::takasia(), &SvgOptions::default()));
}

#[test]
fn bao_hamna() {
    assert_snapshot!(with_overlay(&plies::bao_hamna(), &SvgOptions::default()));
}

#[test]
fn dormant_house_with_seed_dots() {
    let opts = SvgOptions {
        seeds: SeedStyle::Dots { max: 10 },
        show_changes: true,
        ..SvgOptions::default()
    };
    assert_snapshot!(with_overlay(&plies::dormant_house(), &opts));
}

#[test]
fn kete_start_with_kuu() {
    let svg = board_svg(
        &Position::start(RuleSet::KETE),
        &SvgOptions::default(),
        None,
    );
    assert!(svg.contains(">kuu<"));
    assert!(svg.contains("nemo"));
    assert_snapshot!(svg);
}

#[test]
fn flipped() {
    let opts = SvgOptions {
        flip: true,
        ..SvgOptions::default()
    };
    assert_snapshot!(with_overlay(&plies::kichwa_chosen(), &opts));
}

#[test]
fn dark_theme_without_coordinates() {
    let opts = SvgOptions {
        theme: Theme::Dark,
        coordinates: false,
        caption: Some("Dark theme, no coordinates".to_owned()),
        pretty: false,
        id_prefix: "d-".to_owned(),
        width: 400,
        ..SvgOptions::default()
    };
    assert_snapshot!(with_overlay(&plies::takasia(), &opts));
}

#[test]
fn print_theme() {
    let opts = SvgOptions {
        theme: Theme::Print,
        ..SvgOptions::default()
    };
    assert_snapshot!(with_overlay(&plies::safari(), &opts));
}

#[test]
fn kete_kuu_floor() {
    let ply = plies::kuu_floor();
    assert!(
        !ply.trace
            .events
            .iter()
            .any(|e| matches!(e, bao_core::Event::HouseTaxed { .. })),
        "the kuu floor forbids the tax"
    );
    let opts = SvgOptions {
        show_changes: true,
        ..SvgOptions::default()
    };
    let svg = with_overlay(&ply, &opts);
    assert!(svg.contains("kuu"));
    assert!(ply
        .trace
        .events
        .iter()
        .any(|e| matches!(e, bao_core::Event::HouseDestroyed { .. })));
    assert_snapshot!(svg);
}
