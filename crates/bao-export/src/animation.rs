//! An animated GIF of a game: one frame per diagram, rendered by resvg and reduced to one
//! palette of at most 256 colours; each frame after the first holds only the rectangle that
//! changed, so a game stays small enough to send to a phone.

use std::collections::HashMap;

use crate::png::{render, PngOptions};
use crate::ExportError;

/// Options of [`frames_gif`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GifOptions {
    /// The width in pixels (the height follows the tallest frame); `None` keeps the SVG's.
    pub width: Option<u32>,
    /// How long each frame shows, in hundredths of a second.
    pub delay: u16,
    /// How long the last frame shows, in hundredths of a second, before the game starts
    /// again.
    pub last_delay: u16,
}

impl Default for GifOptions {
    fn default() -> Self {
        Self {
            width: Some(Self::DEFAULT_WIDTH),
            delay: 120,
            last_delay: 400,
        }
    }
}

impl GifOptions {
    /// The default width: a phone's screen.
    pub const DEFAULT_WIDTH: u32 = 480;
    /// The most frames (a longer range is an error, not an hour of rendering).
    pub const MAX_FRAMES: usize = 2000;
}

use GifOptions as G;

/// Renders diagrams (normally [`board_svg`](crate::board_svg) of consecutive plies) as one
/// looping animated GIF.
///
/// Frames of different heights (a caption of two lines) are drawn at the top of a canvas as
/// tall as the tallest, the rest filled with the first frame's background. The output is
/// deterministic: the same SVGs give the same bytes.
///
/// # Errors
/// No frames or more than [`GifOptions::MAX_FRAMES`]; a frame that cannot be drawn; an
/// encoding error.
///
/// ```
/// use bao_core::{Position, RuleSet};
/// use bao_export::{board_svg, frames_gif, GifOptions, SvgOptions};
///
/// let start = Position::start(RuleSet::KISWAHILI);
/// let svg = board_svg(&start, &SvgOptions::default(), None);
/// let gif = frames_gif(&[svg.clone(), svg], &GifOptions::default()).unwrap();
/// assert_eq!(&gif[..6], b"GIF89a");
/// ```
pub fn frames_gif(svgs: &[String], opts: &GifOptions) -> Result<Vec<u8>, ExportError> {
    if svgs.is_empty() || svgs.len() > G::MAX_FRAMES {
        return Err(ExportError::Render(format!(
            "an animation has 1 to {} frames, not {}",
            G::MAX_FRAMES,
            svgs.len()
        )));
    }
    let png = PngOptions {
        width: opts.width,
        ..PngOptions::default()
    };
    // Every frame as RGB, at the width asked.
    let mut frames: Vec<(u32, u32, Vec<u8>)> = Vec::with_capacity(svgs.len());
    for svg in svgs {
        let pixmap = render(svg, &png)?;
        // The diagrams are opaque (a background rectangle): premultiplied is plain RGB.
        let rgb: Vec<u8> = pixmap
            .data()
            .chunks_exact(4)
            .flat_map(|p| [p[0], p[1], p[2]])
            .collect();
        frames.push((pixmap.width(), pixmap.height(), rgb));
    }
    let width = frames[0].0;
    let height = frames.iter().map(|f| f.1).max().unwrap_or(1);
    let (w16, h16) = match (u16::try_from(width), u16::try_from(height)) {
        (Ok(w), Ok(h)) => (w, h),
        _ => {
            return Err(ExportError::Render(format!(
                "a GIF is at most 65535 pixels a side, not {width}x{height}"
            )))
        }
    };
    let background = [frames[0].2[0], frames[0].2[1], frames[0].2[2]];
    let mut palette = Palette::of(&frames);
    let mut out = Vec::new();
    {
        let mut enc = gif::Encoder::new(&mut out, w16, h16, &palette.rgb)
            .map_err(|e| ExportError::Render(e.to_string()))?;
        enc.set_repeat(gif::Repeat::Infinite)
            .map_err(|e| ExportError::Render(e.to_string()))?;
        let (w, h) = (width as usize, height as usize);
        let mut previous: Option<Vec<u8>> = None;
        let last = frames.len() - 1;
        for (i, (fw, fh, rgb)) in frames.iter().enumerate() {
            // The frame's indices on the whole canvas.
            let fill = palette.index(background);
            let mut indices = vec![fill; w * h];
            for y in 0..(*fh as usize).min(h) {
                for x in 0..(*fw as usize).min(w) {
                    let o = 3 * (y * *fw as usize + x);
                    indices[y * w + x] = palette.index([rgb[o], rgb[o + 1], rgb[o + 2]]);
                }
            }
            // Only the rectangle that changed since the frame before (one pixel when none).
            let (x0, y0, x1, y1) = match &previous {
                None => (0, 0, w, h),
                Some(p) => changed(p, &indices, w, h).unwrap_or((0, 0, 1, 1)),
            };
            // Inside it, a pixel as it was is transparent: long runs of one index, which
            // LZW packs into little.
            let mut buffer = Vec::with_capacity((x1 - x0) * (y1 - y0));
            for y in y0..y1 {
                let row = &indices[y * w + x0..y * w + x1];
                match &previous {
                    Some(p) => buffer.extend(
                        row.iter()
                            .zip(&p[y * w + x0..y * w + x1])
                            .map(|(&now, &was)| if now == was { KEEP } else { now }),
                    ),
                    None => buffer.extend_from_slice(row),
                }
            }
            let frame = gif::Frame {
                transparent: previous.as_ref().map(|_| KEEP),
                delay: if i == last {
                    opts.last_delay
                } else {
                    opts.delay
                },
                left: x0 as u16,
                top: y0 as u16,
                width: (x1 - x0) as u16,
                height: (y1 - y0) as u16,
                buffer: buffer.into(),
                ..gif::Frame::default()
            };
            enc.write_frame(&frame)
                .map_err(|e| ExportError::Render(e.to_string()))?;
            previous = Some(indices);
        }
    }
    Ok(out)
}

/// The palette index kept for "as the frame before" (no colour maps to it).
const KEEP: u8 = 255;

/// The bounding box (x0, y0, x1, y1; ends excluded) of the pixels that differ.
fn changed(a: &[u8], b: &[u8], w: usize, h: usize) -> Option<(usize, usize, usize, usize)> {
    let (mut x0, mut y0, mut x1, mut y1) = (w, h, 0, 0);
    for y in 0..h {
        let (ra, rb) = (&a[y * w..(y + 1) * w], &b[y * w..(y + 1) * w]);
        if ra == rb {
            continue;
        }
        let first = ra.iter().zip(rb).position(|(p, q)| p != q).unwrap_or(0);
        let last = ra.iter().zip(rb).rposition(|(p, q)| p != q).unwrap_or(0);
        x0 = x0.min(first);
        x1 = x1.max(last + 1);
        y0 = y0.min(y);
        y1 = y + 1;
    }
    (x1 > x0).then_some((x0, y0, x1, y1))
}

/// One palette for every frame: the colours themselves when there are at most 255 of them,
/// else `NeuQuant`'s 255 learned from all frames; index 255 ([`KEEP`]) is left for the
/// transparent "unchanged" pixel.
struct Palette {
    rgb: Vec<u8>,
    exact: HashMap<[u8; 3], u8>,
    quant: Option<color_quant::NeuQuant>,
}

impl Palette {
    fn of(frames: &[(u32, u32, Vec<u8>)]) -> Self {
        let mut exact: HashMap<[u8; 3], u8> = HashMap::new();
        let mut colours: Vec<[u8; 3]> = Vec::new();
        'frames: for (_, _, rgb) in frames {
            for p in rgb.chunks_exact(3) {
                let c = [p[0], p[1], p[2]];
                if let std::collections::hash_map::Entry::Vacant(e) = exact.entry(c) {
                    if colours.len() == usize::from(KEEP) {
                        colours.clear();
                        break 'frames;
                    }
                    e.insert(colours.len() as u8);
                    colours.push(c);
                }
            }
        }
        if !colours.is_empty() {
            colours.resize(256, [0, 0, 0]);
            return Self {
                rgb: colours.concat(),
                exact,
                quant: None,
            };
        }
        // A sample of every frame's pixels (every 13th), as RGBA for NeuQuant.
        let mut sample: Vec<u8> = Vec::new();
        for (_, _, rgb) in frames {
            for p in rgb.chunks_exact(3).step_by(13) {
                sample.extend_from_slice(&[p[0], p[1], p[2], 255]);
            }
        }
        let quant = color_quant::NeuQuant::new(10, usize::from(KEEP), &sample);
        let mut rgb = quant.color_map_rgb();
        rgb.resize(3 * 256, 0);
        Self {
            rgb,
            exact: HashMap::new(),
            quant: Some(quant),
        }
    }

    /// The palette index of a colour (the nearest colour's, when quantised; remembered).
    fn index(&mut self, c: [u8; 3]) -> u8 {
        if let Some(&i) = self.exact.get(&c) {
            return i;
        }
        let i = match &self.quant {
            Some(q) => q.index_of(&[c[0], c[1], c[2], 255]) as u8,
            None => 0,
        };
        self.exact.insert(c, i);
        i
    }
}
