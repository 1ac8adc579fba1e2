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
fn renders_at_the_requested_width() {
    let svg = board_svg(
        &Position::start(RuleSet::KISWAHILI),
        &SvgOptions::default(),
        None,
    );
    let opts = PngOptions {
        width: Some(800),
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
            plies::with_event(RuleSet::KETE, |e| {
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
        ..PngOptions::default()
    };
    assert!(matches!(
        board_png(&zero, &opts),
        Err(ExportError::Render(_))
    ));
}

/// FNV-1a, 64 bits: a hash that is the same on every machine and Rust version.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The bundled fonts make the pixels the same on every machine: a hash of the decoded
/// pixels of two diagrams full of text (names, caption, badges, bold and regular) is pinned.
/// With `BAO_PNG_DIR` set, the PNGs are written there to be looked at.
#[test]
fn pixels_are_the_same_on_every_machine() {
    let dir = std::env::var("BAO_PNG_DIR").ok();
    let ply = plies::kichwa_chosen();
    let ov = Overlay::from_trace(&ply.before, &ply.trace);
    let named = SvgOptions {
        names: bao_core::BySide::new(Some("Åsa Mwinyi".to_owned()), Some("Zawadi".to_owned())),
        show_changes: true,
        ..SvgOptions::default()
    };
    let cases = [
        (
            "start",
            board_svg(
                &Position::start(RuleSet::KISWAHILI),
                &SvgOptions::default(),
                None,
            ),
        ),
        ("kichwa-named", board_svg(&ply.after, &named, Some(&ov))),
    ];
    let mut lines = Vec::new();
    for (name, svg) in cases {
        let png = board_png(&svg, &PngOptions::default()).unwrap();
        // The same call gives the same bytes.
        assert_eq!(png, board_png(&svg, &PngOptions::default()).unwrap());
        let pixmap = resvg::tiny_skia::Pixmap::decode_png(&png).unwrap();
        lines.push(format!(
            "{name}: {}x{} pixels fnv1a {:016x}",
            pixmap.width(),
            pixmap.height(),
            fnv1a(pixmap.data())
        ));
        if let Some(dir) = &dir {
            std::fs::write(format!("{dir}/stable-{name}.png"), &png).unwrap();
        }
    }
    insta::assert_snapshot!(lines.join("\n"));
}

/// Text is really drawn with the bundled fonts: the same diagram with a blank caption has
/// other pixels, and a caption in glyphs the fonts lack draws like a blank one.
#[test]
fn text_is_drawn_with_the_bundled_fonts() {
    let start = Position::start(RuleSet::KISWAHILI);
    let draw = |caption: Option<&str>| {
        let opts = SvgOptions {
            caption: caption.map(str::to_owned),
            ..SvgOptions::default()
        };
        let png = board_png(&board_svg(&start, &opts, None), &PngOptions::default()).unwrap();
        resvg::tiny_skia::Pixmap::decode_png(&png)
            .unwrap()
            .data()
            .to_vec()
    };
    let blank = draw(Some("\u{a0}"));
    assert_ne!(draw(Some("Caption")), blank);
    // Han characters are not in the Latin subsets: they draw like a blank caption.
    assert_eq!(draw(Some("\u{4e2d}\u{6587}")), blank);
}
