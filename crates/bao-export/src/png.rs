//! PNG rendering of an SVG diagram through `resvg`.

use resvg::{tiny_skia, usvg};

use crate::ExportError;

/// Options of [`board_png`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PngOptions {
    /// The width of the PNG in pixels (the height keeps the SVG's proportions); `None` keeps
    /// the SVG's own `width`.
    pub width: Option<u32>,
    /// Load the fonts installed on this machine. Text (numerals, names, captions) is drawn
    /// only with a font that has its glyphs; the diagrams ask for DejaVu Sans first, then
    /// Verdana, Arial or any sans-serif. Without system fonts and without `fonts`, the PNG
    /// shows the board, seeds as dots and every mark, but no text.
    pub system_fonts: bool,
    /// Font files (TrueType/OpenType data) to use besides or instead of the system's: the way
    /// to get the same pixels on every machine.
    pub fonts: Vec<Vec<u8>>,
}

impl Default for PngOptions {
    fn default() -> Self {
        PngOptions {
            width: None,
            system_fonts: true,
            fonts: Vec::new(),
        }
    }
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
/// let opts = PngOptions { width: Some(326), system_fonts: false, ..PngOptions::default() };
/// let png = board_png(&svg, &opts).unwrap();
/// assert_eq!(&png[1..4], b"PNG");
/// ```
pub fn board_png(svg: &str, opts: &PngOptions) -> Result<Vec<u8>, ExportError> {
    let mut options = usvg::Options::default();
    {
        let db = options.fontdb_mut();
        if opts.system_fonts {
            db.load_system_fonts();
        }
        for data in &opts.fonts {
            db.load_font_data(data.clone());
        }
        db.set_sans_serif_family("DejaVu Sans");
    }
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
    pixmap
        .encode_png()
        .map_err(|e| ExportError::Png(e.to_string()))
}
