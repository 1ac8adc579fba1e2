//! PNG rendering of an SVG diagram through `resvg`.

use std::sync::Arc;

use resvg::{tiny_skia, usvg};

use crate::ExportError;

/// The fonts every PNG is drawn with: subsets of DejaVu Sans and DejaVu Sans Bold (Latin-1,
/// punctuation, arrows; licence in `fonts/LICENSE`), built into the crate so that the same
/// diagram gives the same pixels on every machine.
pub(crate) static REGULAR: &[u8] = include_bytes!("../fonts/DejaVuSans.ttf");
pub(crate) static BOLD: &[u8] = include_bytes!("../fonts/DejaVuSans-Bold.ttf");

/// Options of [`board_png`].
///
/// Text is drawn with the bundled DejaVu Sans subsets only (never the fonts installed on the
/// machine), so a PNG is identical everywhere. They cover Latin-1 and the symbols the
/// diagrams use; characters outside them (a player name in another script) are left out
/// unless [`PngOptions::fonts`] supplies a font that has them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PngOptions {
    /// The width of the PNG in pixels (the height keeps the SVG's proportions); `None` keeps
    /// the SVG's own `width`.
    pub width: Option<u32>,
    /// More font files (TrueType/OpenType data), used for the characters the bundled fonts
    /// lack.
    pub fonts: Vec<Vec<u8>>,
}

/// Renders an SVG (normally from [`board_svg`](crate::board_svg)) to PNG bytes.
///
/// # Errors
/// [`ExportError::Svg`] when the SVG cannot be read, [`ExportError::Render`] when the size
/// is zero or too large, [`ExportError::Png`] when encoding fails.
///
/// ```
/// use bao_core::{Position, RuleSet};
/// use bao_export::{board_png, board_svg, PngOptions, SvgOptions};
///
/// let svg = board_svg(&Position::start(RuleSet::KISWAHILI), &SvgOptions::default(), None);
/// let opts = PngOptions { width: Some(326), ..PngOptions::default() };
/// let png = board_png(&svg, &opts).unwrap();
/// assert_eq!(&png[1..4], b"PNG");
/// ```
pub fn board_png(svg: &str, opts: &PngOptions) -> Result<Vec<u8>, ExportError> {
    render(svg, opts)?
        .encode_png()
        .map_err(|e| ExportError::Png(e.to_string()))
}

/// Draws an SVG with the bundled fonts at the width of `opts` (the one rendering of
/// [`board_png`] and [`frames_gif`](crate::frames_gif)).
pub(crate) fn render(svg: &str, opts: &PngOptions) -> Result<tiny_skia::Pixmap, ExportError> {
    let options = usvg_options(&opts.fonts);
    let tree = usvg::Tree::from_str(svg, &options).map_err(|e| ExportError::Svg(e.to_string()))?;
    let size = tree.size();
    let (w, h) = match opts.width {
        Some(w) => {
            let scale = w as f32 / size.width();
            (w, (size.height() * scale).round() as u32)
        }
        None => (size.width().round() as u32, size.height().round() as u32),
    };
    if w == 0 || h == 0 || u64::from(w) * u64::from(h) > 64_000_000 {
        return Err(ExportError::Render(format!(
            "cannot draw a {w}x{h} picture"
        )));
    }
    let mut pixmap = tiny_skia::Pixmap::new(w, h)
        .ok_or_else(|| ExportError::Render(format!("cannot allocate a {w}x{h} picture")))?;
    let transform =
        tiny_skia::Transform::from_scale(w as f32 / size.width(), h as f32 / size.height());
    resvg::render(&tree, transform, &mut pixmap.as_mut());
    Ok(pixmap)
}

/// The options every SVG is read with: the bundled fonts (and `extra` ones) as every generic
/// family, never the machine's.
pub(crate) fn usvg_options(extra: &[Vec<u8>]) -> usvg::Options<'static> {
    let mut options = usvg::Options::default();
    {
        let db = options.fontdb_mut();
        for data in [REGULAR, BOLD] {
            db.load_font_source(usvg::fontdb::Source::Binary(Arc::new(data)));
        }
        for data in extra {
            db.load_font_data(data.clone());
        }
        // Every generic family is the bundled font.
        db.set_sans_serif_family("DejaVu Sans");
        db.set_serif_family("DejaVu Sans");
        db.set_monospace_family("DejaVu Sans");
    }
    options
}
