use bao_core::{BySide, Pit, Position, RuleSet, Side};
use bao_export::{board_text, LastMove, Overlay, TextOptions};
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

/// The options marking the ply that led to its position: its start, end and captures.
fn marking(ply: &plies::Ply) -> TextOptions {
    let marks = LastMove::of(&Overlay::from_trace(&ply.before, &ply.trace));
    assert!(
        marks.start.is_some(),
        "ply {} of seed {}",
        ply.number,
        ply.seed
    );
    assert!(
        marks.end.is_some(),
        "ply {} of seed {}",
        ply.number,
        ply.seed
    );
    TextOptions {
        last_move: Some(marks),
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
            last_move: Some(LastMove::start(house)),
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

/// A mtaji capture of several pits: every captured pit marked `x`, the end `$`, each
/// mark explained in the legend.
#[test]
fn last_move_mtaji_captures() {
    let ply = plies::find(RuleSet::KISWAHILI, |p| {
        p.trace.stage == bao_core::Stage::Mtaji && p.trace.captures.len() >= 2
    });
    let opts = marking(&ply);
    let text = board_text(&ply.after, &opts);
    let marks = opts.last_move.as_ref().expect("marks");
    assert!(marks.captured.len() >= 2, "{marks:?}");
    assert_eq!(
        text.matches('x').count(),
        marks.captured.len() + 1,
        "one mark a capture, one in the legend:\n{text}"
    );
    assert!(text.contains("n$ its end"), "{text}");
    assert!(text.contains("nx captured by it"), "{text}");
    assert_snapshot!(text);
}

/// With colour, the start is yellow, the end green and the captures red (bold), count and
/// mark alike, the legend too; stripped of its escape codes, the plain text.
#[test]
fn last_move_in_colour() {
    let ply = plies::find(RuleSet::KISWAHILI, |p| {
        p.trace.stage == bao_core::Stage::Mtaji && p.trace.captures.len() >= 2
    });
    let plain = marking(&ply);
    let coloured = TextOptions {
        colour: true,
        ..plain.clone()
    };
    let text = board_text(&ply.after, &coloured);
    for colour in ["\u{1b}[33m", "\u{1b}[32m", "\u{1b}[31m"] {
        assert!(text.contains(colour), "{colour:?} in {text:?}");
    }
    assert!(!board_text(&ply.after, &plain).contains('\u{1b}'));
    // Stripped of its escape codes, the coloured board is the plain one.
    let strip = regex::Regex::new("\u{1b}\\[[0-9;]*m").expect("a pattern");
    assert_eq!(strip.replace_all(&text, ""), board_text(&ply.after, &plain));
    assert_snapshot!(text);
}

/// A move that never ends has no last seed: its start is marked, not an end.
#[test]
fn a_never_ending_move_marks_no_end() {
    let overlay = Overlay {
        start: Some(Pit::nyumba(Side::South)),
        lap_ends: vec![(1, Pit::nyumba(Side::South))],
        laps_total: 1,
        cycle: Some((1, 4)),
        ..Overlay::empty(Side::South)
    };
    let marks = LastMove::of(&overlay);
    assert_eq!(marks.end, None);
    assert_eq!(marks.start, Some(Pit::nyumba(Side::South)));
    // The last lap kept is the last lap run: that is the end.
    let ended = LastMove::of(&Overlay {
        cycle: None,
        ..overlay.clone()
    });
    assert_eq!(ended.end, Some(Pit::nyumba(Side::South)));
    // A trace cut short: the end is not known.
    let cut = LastMove::of(&Overlay {
        cycle: None,
        laps_total: 9,
        ..overlay
    });
    assert_eq!(cut.end, None);
}
