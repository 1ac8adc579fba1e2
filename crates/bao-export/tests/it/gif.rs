//! `frames_gif`: a 60-ply game under 1 MB at the default width, every frame decoded and
//! composed as a viewer shows it, and compared with the diagram rendered directly.

use bao_export::{
    board_png, board_svg, frames_gif, game_line, player_names, result_words, GifOptions, LinePath,
    Overlay, PngOptions, SvgOptions,
};
use bao_validate::{check_bytes, CheckOptions};

/// The diagrams of plies 0..=60 of the Kete fixture, as `bao export gif` draws them.
fn kete_svgs() -> Vec<String> {
    let text = include_str!("../../../../fixtures/games/preset_kete.bao");
    let c = check_bytes("kete.bao", text.as_bytes(), &CheckOptions::default());
    assert!(c.report.is_valid());
    let line = game_line(&c.record, &c.replayed, 0, &LinePath::default()).unwrap();
    assert!(line.steps.len() >= 60);
    let game = &c.record.games[0].value;
    (0..=60)
        .map(|n| {
            let (pos, step) = line.at(n).unwrap();
            let opts = SvgOptions {
                names: player_names(game),
                markup: line.markup(n).unwrap().clone(),
                ending: (n == line.steps.len())
                    .then(|| result_words(game, pos))
                    .flatten(),
                ..SvgOptions::default()
            };
            let overlay = step.map(|s| Overlay::from_trace(&s.before, &s.trace));
            board_svg(pos, &opts, overlay.as_ref())
        })
        .collect()
}

/// Every frame of a GIF as a viewer composes it (each drawn over the one before), RGBA.
fn compose(bytes: &[u8]) -> (u32, u32, Vec<Vec<u8>>) {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut dec = options.read_info(bytes).unwrap();
    let (w, h) = (u32::from(dec.width()), u32::from(dec.height()));
    let mut canvas = vec![0_u8; (w * h * 4) as usize];
    let mut frames = Vec::new();
    while let Some(f) = dec.read_next_frame().unwrap() {
        assert_eq!(f.dispose, gif::DisposalMethod::Keep);
        for y in 0..u32::from(f.height) {
            for x in 0..u32::from(f.width) {
                let s = ((y * u32::from(f.width) + x) * 4) as usize;
                if f.buffer[s + 3] == 0 {
                    continue;
                }
                let d = (((y + u32::from(f.top)) * w + x + u32::from(f.left)) * 4) as usize;
                canvas[d..d + 4].copy_from_slice(&f.buffer[s..s + 4]);
            }
        }
        frames.push(canvas.clone());
    }
    (w, h, frames)
}

/// With `BAO_PNG_DIR` set, frames 0, 1, 30 and 60 are written there as PNG to be looked at.
#[test]
fn a_sixty_ply_game_fits_a_phone_group() {
    let svgs = kete_svgs();
    let bytes = frames_gif(&svgs, &GifOptions::default()).unwrap();
    assert_eq!(&bytes[..6], b"GIF89a");
    assert!(bytes.len() < 1_000_000, "{} bytes", bytes.len());
    let (w, h, frames) = compose(&bytes);
    assert_eq!(frames.len(), 61);
    assert_eq!(w, GifOptions::DEFAULT_WIDTH);
    let dir = std::env::var("BAO_PNG_DIR").ok();
    for n in [0, 1, 30, 60] {
        // The diagram rendered directly, at the same width.
        let png = board_png(
            &svgs[n],
            &PngOptions {
                width: Some(w),
                ..PngOptions::default()
            },
        )
        .unwrap();
        let direct = resvg::tiny_skia::Pixmap::decode_png(&png).unwrap();
        assert!(direct.height() <= h);
        // The same picture within a few levels (one palette for all frames).
        let mut diff: u64 = 0;
        for y in 0..direct.height() {
            for x in 0..w {
                let a = ((y * w + x) * 4) as usize;
                for c in 0..3 {
                    diff += u64::from(frames[n][a + c].abs_diff(direct.data()[a + c]));
                }
            }
        }
        let mean = diff as f64 / f64::from(3 * w * direct.height());
        assert!(mean < 2.0, "frame {n}: mean difference {mean}");
        if let Some(dir) = &dir {
            let mut pixmap = resvg::tiny_skia::Pixmap::new(w, h).unwrap();
            pixmap.data_mut().copy_from_slice(&frames[n]);
            pixmap
                .save_png(format!("{dir}/gif-frame-{n:02}.png"))
                .unwrap();
        }
    }
    // The same diagrams give the same bytes.
    let few = &svgs[28..31];
    assert_eq!(
        frames_gif(few, &GifOptions::default()).unwrap(),
        frames_gif(few, &GifOptions::default()).unwrap()
    );
}

#[test]
fn no_frames_is_an_error() {
    assert!(frames_gif(&[], &GifOptions::default()).is_err());
    let one = board_svg(
        &bao_core::Position::start(bao_core::RuleSet::KETE),
        &SvgOptions::default(),
        None,
    );
    let bytes = frames_gif(&[one], &GifOptions::default()).unwrap();
    assert_eq!(compose(&bytes).2.len(), 1);
}
