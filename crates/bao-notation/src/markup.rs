//! Diagram markup in comments: coloured pits and arrows, written as lichess writes them in
//! PGN comments (`{Look here [%csl Ga5,RA6][%cal GA6a6]}`).
//!
//! The comment stays text (the record keeps it as written, and `bao fmt` writes it back
//! unchanged); [`Markup::read`] reads the commands out of it. A command is `[%csl ...]`
//! (coloured pits) or `[%cal ...]` (coloured arrows) with comma-separated items: a colour
//! letter `G`, `R`, `Y` or `B` (green, red, yellow, blue) and a pit (`Ga5`), or a colour and
//! two pits for an arrow from the first to the second (`GA6a6`). The grammar is
//! `spec/notation.md` §3.1.
//!
//! The same reading gives an engine's evaluation of the position, `[%eval 1.25]` (seeds from
//! South's view) or `[%eval #5]` / `[%eval #-5]` (South / North forces a win within 5 plies),
//! as `bao analyse` writes it: [`Evaluation`], `spec/notation.md` §3.2.

use std::fmt;

use bao_core::{Pit, Side};

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

/// An engine's evaluation of a position, always from South's view (`[%eval ...]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Evaluation {
    /// A score in hundredths of a seed, positive when South stands better (`[%eval 1.25]`
    /// is `Seeds(125)`).
    Seeds(i32),
    /// A forced win within this many plies (at least 1) for the side named: `[%eval #5]`
    /// for South, `[%eval #-5]` for North.
    Forced {
        /// Who forces the win.
        winner: Side,
        /// Within how many plies.
        plies: u32,
    },
}

/// The largest evaluation in seeds read (an eval beyond is an error: no board holds so many).
pub const MAX_EVAL_SEEDS: i32 = 100_000;

impl Evaluation {
    /// Reads the argument of an `[%eval ...]` command: `1.25`, `-0.5`, `+3`, `#5`, `#-5`
    /// (a score with at most two decimals, a forced win in at least one ply).
    ///
    /// ```
    /// use bao_core::Side;
    /// use bao_notation::Evaluation;
    ///
    /// assert_eq!(Evaluation::parse("-0.8"), Some(Evaluation::Seeds(-80)));
    /// assert_eq!(
    ///     Evaluation::parse("#-5"),
    ///     Some(Evaluation::Forced { winner: Side::North, plies: 5 })
    /// );
    /// assert_eq!(Evaluation::parse("0.125"), None);
    /// ```
    #[must_use]
    pub fn parse(text: &str) -> Option<Self> {
        if let Some(n) = text.strip_prefix('#') {
            let (winner, digits) = match n.strip_prefix('-') {
                Some(d) => (Side::North, d),
                None => (Side::South, n.strip_prefix('+').unwrap_or(n)),
            };
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            let plies: u32 = digits.parse().ok()?;
            return (plies >= 1).then_some(Self::Forced { winner, plies });
        }
        let (negative, unsigned) = match text.as_bytes().first()? {
            b'-' => (true, &text[1..]),
            b'+' => (false, &text[1..]),
            _ => (false, text),
        };
        let (whole, frac) = match unsigned.split_once('.') {
            Some((w, f)) if !f.is_empty() => (w, f),
            Some(_) => return None,
            None => (unsigned, ""),
        };
        let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        if whole.is_empty() || !digits(whole) || !digits(frac) || frac.len() > 2 {
            return None;
        }
        let whole: i32 = whole.parse().ok().filter(|w| *w <= MAX_EVAL_SEEDS)?;
        let hundredths: i32 = match frac.len() {
            0 => 0,
            1 => frac.parse::<i32>().ok()? * 10,
            _ => frac.parse().ok()?,
        };
        let centi = whole * 100 + hundredths;
        Some(Self::Seeds(if negative { -centi } else { centi }))
    }

    /// The evaluation as South sees it on one scale, in hundredths of a seed, for drawing:
    /// scores as they are, clamped to `±cap`; a forced win at `±cap`.
    #[must_use]
    pub fn south_clamped(self, cap: i32) -> i32 {
        match self {
            Self::Seeds(c) => c.clamp(-cap, cap),
            Self::Forced {
                winner: Side::South,
                ..
            } => cap,
            Self::Forced { .. } => -cap,
        }
    }
}

/// The argument as `[%eval ...]` writes it: `1.25`, `-0.80`, `#5`, `#-5`.
impl fmt::Display for Evaluation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::Seeds(c) => {
                let sign = if c < 0 { "-" } else { "" };
                let a = c.unsigned_abs();
                write!(f, "{sign}{}.{:02}", a / 100, a % 100)
            }
            Self::Forced {
                winner: Side::South,
                plies,
            } => write!(f, "#{plies}"),
            Self::Forced { plies, .. } => write!(f, "#-{plies}"),
        }
    }
}

/// The marks of one or more comments: coloured pits and arrows, in the order written, and
/// the engine's evaluation.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Markup {
    /// Coloured pits.
    pub pits: Vec<PitMark>,
    /// Arrows.
    pub arrows: Vec<ArrowMark>,
    /// The evaluation (`[%eval ...]`) of the position; the last one written when there are
    /// several.
    pub eval: Option<Evaluation>,
    /// A booklet asks for a diagram of the position here (`[%diagram]`, `spec/notation.md`
    /// §3.4): `bao export pdf` draws one.
    pub diagram: bool,
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
    /// The error is in an evaluation (`[%eval ...]`, `bao::syntax::bad_eval`), not in
    /// diagram marks (`bao::syntax::bad_markup`).
    pub eval: bool,
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

/// The help of a `[%diagram]` with an argument.
const DIAGRAM_HELP: &str = "`[%diagram]` asks a booklet (`bao export pdf`) for a diagram of \
                            the position here; it takes no argument";

/// The help of an evaluation that cannot be read.
const EVAL_HELP: &str = "an evaluation is `[%eval 1.25]` (seeds from South's view, at most \
                         two decimals), `[%eval #5]` (South wins within 5 plies) or \
                         `[%eval #-5]` (North does)";

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
        crate::steps::step(text.len());
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
                eval: name == "eval",
            });
            return end;
        };
        let arrow = match name {
            "csl" => false,
            "cal" => true,
            "eval" => {
                self.eval_command(text, start, name_end, close, errors);
                return close + 1;
            }
            "diagram" => {
                if text[name_end..close].trim().is_empty() {
                    self.diagram = true;
                } else {
                    errors.push(MarkupError {
                        span: Span::new(name_end, close),
                        message: "the command `diagram` takes nothing: write `[%diagram]`"
                            .to_owned(),
                        label: "not read",
                        help: DIAGRAM_HELP,
                        eval: false,
                    });
                }
                return close + 1;
            }
            _ => {
                errors.push(MarkupError {
                    span: Span::new(start, name_end.max(start + 2)),
                    message: if name.is_empty() {
                        "a markup command without a name".to_owned()
                    } else {
                        format!("`{name}` is no markup command (`csl`, `cal`, `eval` or `diagram`)")
                    },
                    label: "unknown command",
                    help: HELP,
                    eval: false,
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
                        eval: false,
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
                    eval: false,
                }),
            }
        }
        close + 1
    }

    /// Reads `[%eval X]`: its name ends at `name_end`, it closes at `close`.
    fn eval_command(
        &mut self,
        text: &str,
        start: usize,
        name_end: usize,
        close: usize,
        errors: &mut Vec<MarkupError>,
    ) {
        let body = &text[name_end..close];
        let lead = body.len() - body.trim_start().len();
        let word = body.trim();
        if word.is_empty() {
            errors.push(MarkupError {
                span: Span::new(start, close + 1),
                message: "the evaluation command `eval` gives no evaluation".to_owned(),
                label: "empty",
                help: EVAL_HELP,
                eval: true,
            });
            return;
        }
        match Evaluation::parse(word) {
            Some(e) => self.eval = Some(e),
            None => errors.push(MarkupError {
                span: Span::new(name_end + lead, name_end + lead + word.len()),
                message: format!("`{word}` is no evaluation"),
                label: "cannot read this evaluation",
                help: EVAL_HELP,
                eval: true,
            }),
        }
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

    /// Adds the marks of `other` after these (its evaluation, if any, replaces this one).
    pub fn extend(&mut self, other: &Self) {
        self.pits.extend_from_slice(&other.pits);
        self.arrows.extend_from_slice(&other.arrows);
        if other.eval.is_some() {
            self.eval = other.eval;
        }
        self.diagram |= other.diagram;
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

/// The canonical form: `[%csl Ga5,RA6][%cal GA6a6][%eval 1.25]`, each command left out when
/// empty.
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
        if let Some(e) = self.eval {
            write!(f, "[%eval {e}]")?;
        }
        if self.diagram {
            f.write_str("[%diagram]")?;
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
    fn a_diagram_command_is_read_and_takes_no_argument() {
        let (m, e) = Markup::read("The turning point [%diagram] [%csl Ra5]");
        assert!(e.is_empty(), "{e:?}");
        assert!(m.diagram);
        assert_eq!(m.to_string(), "[%csl Ra5][%diagram]");
        assert_eq!(Markup::read(&m.to_string()), (m, Vec::new()));
        assert_eq!(
            Markup::strip("The turning point [%diagram]"),
            "The turning point"
        );
        assert_eq!(
            errors("[%diagram here]"),
            [(
                9..14,
                "the command `diagram` takes nothing: write `[%diagram]`".to_owned()
            )]
        );
        assert!(!Markup::read("[%diagram here]").0.diagram);
        assert!(Markup::of_comments(["a", "b [%diagram]"]).diagram);
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
                "`csx` is no markup command (`csl`, `cal`, `eval` or `diagram`)".to_owned()
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
    fn reads_evaluations() {
        use super::Evaluation::{Forced, Seeds};
        use bao_core::Side::{North, South};
        let eval = |t: &str| Markup::read(t).0.eval;
        assert_eq!(eval("good [%eval 0.8]"), Some(Seeds(80)));
        assert_eq!(eval("[%eval -1.25]"), Some(Seeds(-125)));
        assert_eq!(eval("[%eval +3]"), Some(Seeds(300)));
        assert_eq!(eval("[%eval  12.05 ]"), Some(Seeds(1205)));
        assert_eq!(
            eval("[%eval #5]"),
            Some(Forced {
                winner: South,
                plies: 5
            })
        );
        assert_eq!(
            eval("[%csl Ga5][%eval #-12]"),
            Some(Forced {
                winner: North,
                plies: 12
            })
        );
        // The last one counts.
        assert_eq!(eval("[%eval 1][%eval 2]"), Some(Seeds(200)));
        // Written back as read.
        for t in ["0.80", "-1.25", "0.05", "-0.05", "#5", "#-5", "100.00"] {
            let e = super::Evaluation::parse(t).unwrap();
            assert_eq!(e.to_string(), t);
            assert_eq!(
                Markup::read(&format!("[%eval {e}]")).0.to_string(),
                format!("[%eval {t}]")
            );
        }
    }

    #[test]
    fn bad_evaluations_are_located() {
        for (text, span) in [
            ("[%eval x]", 7..8),
            ("[%eval 0.125]", 7..12),
            ("[%eval #0]", 7..9),
            ("[%eval #]", 7..8),
            ("[%eval 1.]", 7..9),
            ("[%eval .5]", 7..9),
            ("[%eval --1]", 7..10),
            ("[%eval 1e3]", 7..10),
            ("[%eval 99999999999]", 7..18),
            ("ok [%eval ]", 3..11),
        ] {
            let (m, e) = Markup::read(text);
            assert_eq!(m.eval, None, "{text}");
            assert_eq!(e.len(), 1, "{text}: {e:?}");
            assert!(e[0].eval, "{text}");
            assert_eq!(e[0].span.range(), span, "{text}");
        }
        let (_, e) = Markup::read("[%eval 1");
        assert!(e[0].eval);
        assert!(!Markup::read("[%csl Gx9]").1[0].eval);
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
            "[%eval é]",
            "[%eval -]",
            "[%eval #-]",
            "[%eval -.]",
        ] {
            let _ = Markup::read(t);
        }
    }
}
