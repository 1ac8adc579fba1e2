//! Diagram markup in comments: coloured pits and arrows, written as lichess writes them in
//! PGN comments (`{Look here [%csl Ga5,RA6][%cal GA6a6]}`).
//!
//! The comment stays text (the record keeps it as written, and `bao fmt` writes it back
//! unchanged); [`Markup::read`] reads the commands out of it. A command is `[%csl ...]`
//! (coloured pits) or `[%cal ...]` (coloured arrows) with comma-separated items: a colour
//! letter `G`, `R`, `Y` or `B` (green, red, yellow, blue) and a pit (`Ga5`), or a colour and
//! two pits for an arrow from the first to the second (`GA6a6`). The grammar is
//! `spec/notation.md` §3.1.

use std::fmt;

use bao_core::Pit;

use crate::span::Span;

/// The colour of a mark, written as its capital initial.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MarkColour {
    /// `G`.
    Green,
    /// `R`.
    Red,
    /// `Y`.
    Yellow,
    /// `B`.
    Blue,
}

impl MarkColour {
    /// Every colour, in the order of their letters `G R Y B`.
    pub const ALL: [Self; 4] = [Self::Green, Self::Red, Self::Yellow, Self::Blue];

    /// The colour of a letter (`G`, `R`, `Y`, `B`; capitals only: a small `b` is a row).
    #[must_use]
    pub fn from_letter(c: char) -> Option<Self> {
        match c {
            'G' => Some(Self::Green),
            'R' => Some(Self::Red),
            'Y' => Some(Self::Yellow),
            'B' => Some(Self::Blue),
            _ => None,
        }
    }

    /// The letter of the colour.
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Self::Green => 'G',
            Self::Red => 'R',
            Self::Yellow => 'Y',
            Self::Blue => 'B',
        }
    }

    /// The colour's name in English (`green`), as JSON writes it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Green => "green",
            Self::Red => "red",
            Self::Yellow => "yellow",
            Self::Blue => "blue",
        }
    }

    /// The colour of a name written by [`MarkColour::name`].
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.name() == name)
    }
}

/// A coloured pit (`[%csl Ga5]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PitMark {
    /// Its colour.
    pub colour: MarkColour,
    /// The pit.
    pub pit: Pit,
}

/// A coloured arrow from one pit to another (`[%cal GA6a6]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ArrowMark {
    /// Its colour.
    pub colour: MarkColour,
    /// Where it starts.
    pub from: Pit,
    /// Where it points.
    pub to: Pit,
}

/// The marks of one or more comments: coloured pits and arrows, in the order written.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Markup {
    /// Coloured pits.
    pub pits: Vec<PitMark>,
    /// Arrows.
    pub arrows: Vec<ArrowMark>,
}

/// A markup command that cannot be read; the rest of the comment's markup is still read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MarkupError {
    /// Where, in bytes of the text read (the comment's text).
    pub span: Span,
    /// What is wrong.
    pub message: String,
    /// The label under the span.
    pub label: &'static str,
    /// How to write it.
    pub help: &'static str,
}

impl fmt::Display for MarkupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for MarkupError {}

/// The help of every markup error.
const HELP: &str = "markup is `[%csl Ga5,RA6]` (a colour G, R, Y or B and a pit) or \
                    `[%cal GA6a6]` (a colour and two pits: an arrow); items are separated by \
                    commas";

impl Markup {
    /// Reads every markup command of a comment's text (text without commands gives no
    /// marks and no errors). Spans of errors are byte offsets in `text`.
    ///
    /// ```
    /// use bao_notation::{MarkColour, Markup};
    ///
    /// let (m, errors) = Markup::read("Threat! [%csl Ga5,RA6][%cal GA6a6]");
    /// assert!(errors.is_empty());
    /// assert_eq!(m.pits.len(), 2);
    /// assert_eq!(m.arrows[0].colour, MarkColour::Green);
    /// assert_eq!(m.to_string(), "[%csl Ga5,RA6][%cal GA6a6]");
    ///
    /// let (_, errors) = Markup::read("[%csl Xa5]");
    /// assert_eq!(errors[0].span.range(), 6..9);
    /// ```
    #[must_use]
    pub fn read(text: &str) -> (Self, Vec<MarkupError>) {
        let mut markup = Self::default();
        let mut errors = Vec::new();
        let mut from = 0;
        while let Some(p) = text[from..].find("[%") {
            let start = from + p;
            from = markup.command(text, start, &mut errors);
        }
        (markup, errors)
    }

    /// Reads the command at `start` (at its `[%`); gives where reading goes on.
    fn command(&mut self, text: &str, start: usize, errors: &mut Vec<MarkupError>) -> usize {
        let body_start = start + 2;
        let name_end = text[body_start..]
            .find(|c: char| !c.is_ascii_alphanumeric())
            .map_or(text.len(), |p| body_start + p);
        let name = &text[body_start..name_end];
        // The command ends at the first `]` (items never hold one), or where a new command
        // opens if that comes first.
        let close = text[body_start..].find(']').map(|p| body_start + p);
        let next_open = text[body_start..].find("[%").map(|p| body_start + p);
        let close = match (close, next_open) {
            (Some(c), Some(o)) if o < c => None,
            (c, _) => c,
        };
        let Some(close) = close else {
            let end = next_open.unwrap_or(text.len());
            errors.push(MarkupError {
                span: Span::new(start, name_end.max(start + 2)),
                message: format!("the markup command `[%{name}` is never closed"),
                label: "opened here",
                help: "close it with `]`",
            });
            return end;
        };
        let arrow = match name {
            "csl" => false,
            "cal" => true,
            _ => {
                errors.push(MarkupError {
                    span: Span::new(start, name_end.max(start + 2)),
                    message: if name.is_empty() {
                        "a markup command without a name".to_owned()
                    } else {
                        format!("`{name}` is no markup command (`csl` or `cal`)")
                    },
                    label: "unknown command",
                    help: HELP,
                });
                return close + 1;
            }
        };
        let mut any = false;
        let mut at = name_end;
        for item in text[name_end..close].split(',') {
            let lead = item.len() - item.trim_start().len();
            let word = item.trim();
            let span = Span::new(at + lead, at + lead + word.len());
            at += item.len() + 1;
            if word.is_empty() {
                // `[%csl ]` and `Ga5,,RA6`: an empty item; a trailing comma is allowed.
                if !any && at > close {
                    errors.push(MarkupError {
                        span: Span::new(start, close + 1),
                        message: format!("the markup command `{name}` marks nothing"),
                        label: "empty",
                        help: HELP,
                    });
                }
                continue;
            }
            any = true;
            match item_of(word, arrow) {
                Some((colour, from, None)) => self.pits.push(PitMark { colour, pit: from }),
                Some((colour, from, Some(to))) => self.arrows.push(ArrowMark { colour, from, to }),
                None => errors.push(MarkupError {
                    span,
                    message: if arrow {
                        format!("`{word}` is no arrow: a colour G, R, Y or B and two pits")
                    } else {
                        format!("`{word}` is no coloured pit: a colour G, R, Y or B and a pit")
                    },
                    label: "cannot read this mark",
                    help: HELP,
                }),
            }
        }
        close + 1
    }

    /// The text of a comment without its markup commands (each `[%...]` up to its `]`), with
    /// the spaces they leave trimmed: what a reader is shown.
    ///
    /// ```
    /// use bao_notation::Markup;
    ///
    /// assert_eq!(Markup::strip("Threat! [%csl Ra5] [%cal GA6a6]"), "Threat!");
    /// ```
    #[must_use]
    pub fn strip(text: &str) -> String {
        if !text.contains("[%") {
            return text.to_owned();
        }
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(p) = rest.find("[%") {
            out.push_str(&rest[..p]);
            rest = rest[p..].find(']').map_or("", |q| &rest[p + q + 1..]);
        }
        out.push_str(rest);
        let words: Vec<&str> = out.split(' ').filter(|w| !w.is_empty()).collect();
        words.join(" ").trim().to_owned()
    }

    /// Whether there is nothing to draw.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.pits.is_empty() && self.arrows.is_empty()
    }

    /// Adds the marks of `other` after these.
    pub fn extend(&mut self, other: &Self) {
        self.pits.extend_from_slice(&other.pits);
        self.arrows.extend_from_slice(&other.arrows);
    }

    /// The marks of several comments' texts together (errors left out: the checker reports
    /// them).
    #[must_use]
    pub fn of_comments<'a>(texts: impl IntoIterator<Item = &'a str>) -> Self {
        let mut m = Self::default();
        for t in texts {
            if t.contains("[%") {
                m.extend(&Self::read(t).0);
            }
        }
        m
    }
}

/// One item: a colour and one pit, or with `arrow` a colour and two pits.
fn item_of(word: &str, arrow: bool) -> Option<(MarkColour, Pit, Option<Pit>)> {
    let mut chars = word.chars();
    let colour = MarkColour::from_letter(chars.next()?)?;
    let rest = chars.as_str();
    let pit = |s: &str| -> Option<Pit> { s.parse().ok() };
    if arrow {
        let (a, b) = (rest.get(..2)?, rest.get(2..)?);
        Some((colour, pit(a)?, Some(pit(b)?)))
    } else {
        Some((colour, pit(rest)?, None))
    }
}

/// The canonical form: `[%csl Ga5,RA6][%cal GA6a6]`, each command left out when empty.
impl fmt::Display for Markup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.pits.is_empty() {
            f.write_str("[%csl ")?;
            for (i, m) in self.pits.iter().enumerate() {
                let sep = if i == 0 { "" } else { "," };
                write!(f, "{sep}{}{}", m.colour.letter(), m.pit)?;
            }
            f.write_str("]")?;
        }
        if !self.arrows.is_empty() {
            f.write_str("[%cal ")?;
            for (i, m) in self.arrows.iter().enumerate() {
                let sep = if i == 0 { "" } else { "," };
                write!(f, "{sep}{}{}{}", m.colour.letter(), m.from, m.to)?;
            }
            f.write_str("]")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{MarkColour, Markup};

    fn errors(text: &str) -> Vec<(std::ops::Range<usize>, String)> {
        Markup::read(text)
            .1
            .into_iter()
            .map(|e| (e.span.range(), e.message))
            .collect()
    }

    #[test]
    fn reads_pits_and_arrows() {
        let (m, e) = Markup::read("x [%csl Ga5, RA6,BB3,Yb8,] y [%cal GA6a6,RB1b1]");
        assert!(e.is_empty(), "{e:?}");
        let pits: Vec<String> = m
            .pits
            .iter()
            .map(|p| format!("{}{}", p.colour.letter(), p.pit))
            .collect();
        assert_eq!(pits, ["Ga5", "RA6", "BB3", "Yb8"]);
        assert_eq!(m.arrows.len(), 2);
        assert_eq!(m.arrows[1].colour, MarkColour::Red);
        assert_eq!(m.arrows[1].to.to_string(), "b1");
        assert_eq!(m.to_string(), "[%csl Ga5,RA6,BB3,Yb8][%cal GA6a6,RB1b1]");
        // The canonical form reads back the same.
        assert_eq!(Markup::read(&m.to_string()), (m, Vec::new()));
    }

    #[test]
    fn text_without_markup_has_none() {
        assert_eq!(
            Markup::read("A6<* was [best] 100%"),
            (Markup::default(), Vec::new())
        );
    }

    #[test]
    fn bad_items_are_located_and_the_rest_is_kept() {
        let (m, e) = Markup::read("[%csl Ga5,xA6,GA9][%cal GA6]");
        assert_eq!(m.pits.len(), 1);
        let spans: Vec<_> = e.iter().map(|e| e.span.range()).collect();
        assert_eq!(spans, [10..13, 14..17, 24..27]);
        assert_eq!(
            errors("[%csx Ga5]"),
            [(
                0..5,
                "`csx` is no markup command (`csl` or `cal`)".to_owned()
            )]
        );
        assert_eq!(
            errors("[%csl Ga5"),
            [(
                0..5,
                "the markup command `[%csl` is never closed".to_owned()
            )]
        );
        assert_eq!(
            errors("[%csl ]"),
            [(0..7, "the markup command `csl` marks nothing".to_owned())]
        );
        // An unclosed command stops at the next one, which is still read.
        let (m, e) = Markup::read("[%csl Ga5 [%cal GA6a6]");
        assert_eq!((m.pits.len(), m.arrows.len(), e.len()), (0, 1, 1));
    }

    #[test]
    fn the_writer_keeps_markup_and_the_reader_reports_bad_markup_where_it_is() {
        let text = "1. A6<* {Threat [%csl Ra5][%cal GA6a6]} a6<* ; [%csl Gx9]\n*\n";
        let parsed = crate::parse_record(text);
        let bad: Vec<_> = parsed
            .errors
            .iter()
            .map(|e| (e.code, &text[e.span.range()]))
            .collect();
        assert_eq!(bad, [(crate::SyntaxCode::BadMarkup, "Gx9")]);
        assert!(
            !parsed.errors[0].is_error(),
            "a warning: the comment stays text"
        );
        let out = crate::write_record(&parsed.record, &crate::WriteOptions::default());
        assert!(out.contains("{Threat [%csl Ra5][%cal GA6a6]}"), "{out}");
        let again = crate::parse_record(&out).record;
        assert_eq!(
            crate::write_record(&again, &crate::WriteOptions::default()),
            out
        );
    }

    #[test]
    fn never_panics_on_odd_text() {
        for t in [
            "[%",
            "[%]",
            "[%csl",
            "[%cal é,ü]",
            "[%csl G",
            "[%csl Gé]",
            "[%cal GA6é]",
        ] {
            let _ = Markup::read(t);
        }
    }
}
