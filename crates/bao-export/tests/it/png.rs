use bao_core::{Position, RuleSet};
use bao_export::{
    board_png, board_svg, ExportError, Overlay, PngOptions, SeedStyle, SvgOptions, Theme,
};

use crate::plies;

fn dimensions(png: &[u8]) -> (u32, u32) {
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let be = |i: usize| u32::from_be_bytes([png[i], png[i + 1], png[i + 2], png[i + 3]]);
    (be(16), be(20))
}

#[test]
fn renders_at_the_requested_width_without_system_fonts() {
    let svg = board_svg(
        &Position::start(RuleSet::KISWAHILI),
        &SvgOptions::default(),
        None,
    );
    let opts = PngOptions {
        width: Some(800),
        system_fonts: false,
        ..PngOptions::default()
    };
    let png = board_png(&svg, &opts).unwrap();
    let (w, h) = dimensions(&png);
    assert_eq!(w, 800);
    assert!(h > 500 && h < 700, "height {h}");
    assert!(png.len() > 2000);
}

/// With `BAO_PNG_DIR` set, the PNGs are also written there to be looked at.
#[test]
fn renders_overlays_at_their_own_size() {
    let dir = std::env::var("BAO_PNG_DIR").ok();
    let cases = [
        ("kichwa", plies::kichwa_chosen(), SvgOptions::default()),
        (
            "dots",
            plies::dormant_house(),
            SvgOptions {
                seeds: SeedStyle::Dots { max: 10 },
                show_changes: true,
                ..SvgOptions::default()
            },
        ),
        (
            "takasia-dark",
            plies::takasia(),
            SvgOptions {
                theme: Theme::Dark,
                flip: true,
                ..SvgOptions::default()
            },
        ),
        (
            "safari-print",
            plies::safari(),
            SvgOptions {
                theme: Theme::Print,
                ..SvgOptions::default()
            },
        ),
        ("bao-hamna", plies::bao_hamna(), SvgOptions::default()),
        (
            "kete",
            plies::with_event(bao_core::RuleSet::KETE, |e| {
                matches!(e, bao_core::Event::TakasiaSet { .. })
            }),
            SvgOptions {
                show_changes: true,
                ..SvgOptions::default()
            },
        ),
    ];
    for (name, ply, opts) in cases {
        let ov = Overlay::from_trace(&ply.before, &ply.trace);
        let svg = board_svg(&ply.after, &opts, Some(&ov));
        let png = board_png(&svg, &PngOptions::default()).unwrap();
        let (w, _) = dimensions(&png);
        assert_eq!(w, 652);
        if let Some(dir) = &dir {
            std::fs::write(format!("{dir}/{name}.png"), &png).unwrap();
        }
    }
}

#[test]
fn bad_input_is_an_error() {
    let err = board_png("<svg", &PngOptions::default()).unwrap_err();
    assert!(matches!(err, ExportError::Svg(_)));
    let zero = board_svg(
        &Position::start(RuleSet::KISWAHILI),
        &SvgOptions::default(),
        None,
    );
    let opts = PngOptions {
        width: Some(0),
        system_fonts: false,
        ..PngOptions::default()
    };
    assert!(matches!(
        board_png(&zero, &opts),
        Err(ExportError::Render(_))
    ));
}
