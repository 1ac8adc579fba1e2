//! The diagnostics of a checked record, and the report that carries the record text once.

use std::fmt;
use std::sync::Arc;

use bao_notation::SourceText;
use bao_notation::{GameResult, MoveNumber, Span, SyntaxError};
use miette::{LabeledSpan, Severity, SourceCode};

use crate::codes::Code;
use crate::suggest::Suggestion;

/// A label: a span of the record text and what it says there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    /// Where.
    pub span: Span,
    /// The text under the span.
    pub text: String,
    /// The primary label (one per diagnostic).
    pub primary: bool,
}

/// A repair of the record's text that changes no move (a move's repairs are
/// [`Suggestion`]s): `bao check --fix` and the editor's code action apply it to the
/// diagnostic's primary span, which is where it belongs (so it moves with the labels).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Rewrite {
    /// The move number under the primary span is rewritten as `number` (only the number's
    /// own text changes: `3.` becomes `2.`).
    Renumber {
        /// The number the ply it stands before has.
        number: MoveNumber,
    },
    /// The result the board gave: the result under the primary span (the movetext's result
    /// token, or the `Result` tag's value when the movetext has none), and the `Result`
    /// tag's value under a secondary label, are rewritten as `result` (`bao check --fix`
    /// applies the "Write 1-0." that `bao::record::result_mismatch` asks for).
    Result {
        /// The board's result.
        result: GameResult,
    },
}

/// One validator diagnostic. It carries no source text: [`CheckReport`] attaches it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckDiagnostic {
    /// The kind.
    pub code: Code,
    /// The first line of the rendered diagnostic.
    pub message: String,
    /// Labels; the primary one first.
    pub labels: Vec<Label>,
    /// The rule in one sentence, the available moves, a repair suggestion.
    pub help: Option<String>,
    /// The game, counted from 1 in file order.
    pub game: usize,
    /// The ply in its line, counted from 1 from the game's start position (variations
    /// continue the count of their branch point); `None` for game-level diagnostics.
    pub ply: Option<usize>,
    /// The diagnostic follows an earlier repair assumed by `--assume-fixes`: the ply
    /// (counted from 1) and the move assumed there.
    pub assumes: Option<bao_replay::Assumption>,
    /// A repair: the move that the best suggestion puts in place of the written one, when
    /// it is unambiguous.
    pub fix: Option<bao_core::Move>,
    /// The unambiguous best repair of any kind (a move replaced, two plies swapped, one
    /// ply inserted, an earlier ply replaced), when there is one.
    pub repair: Option<Suggestion>,
    /// A repair that changes no move (a move number rewritten), when there is one.
    pub rewrite: Option<Rewrite>,
    /// The anchor of the rule heading the diagnostic links to, when it is not its code's
    /// (an empty pit in namua breaks N1, in mtaji M1).
    pub rule: Option<&'static str>,
    /// The typed problem of the ply the diagnostic words (the replay's: the engine's
    /// refusal, a claim or an annotation the move does not bear out), for a ply's diagnostic;
    /// `None` for a game's (tags, result, match, move numbers).
    pub problem: Option<Box<bao_replay::Problem>>,
    /// The language of its words (its message, labels and help, and the `(assuming ...)`
    /// its `Display` adds).
    pub lang: bao_i18n::Lang,
}

impl CheckDiagnostic {
    pub(crate) fn new(code: Code, game: usize, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            labels: Vec::new(),
            help: None,
            game,
            ply: None,
            assumes: None,
            fix: None,
            repair: None,
            rewrite: None,
            rule: None,
            problem: None,
            lang: bao_i18n::Lang::En,
        }
    }

    /// The diagnostic, its words in `lang`.
    pub(crate) fn in_lang(mut self, lang: bao_i18n::Lang) -> Self {
        self.lang = lang;
        self
    }

    pub(crate) fn primary(mut self, span: Span, text: impl Into<String>) -> Self {
        self.labels.insert(
            0,
            Label {
                span,
                text: text.into(),
                primary: true,
            },
        );
        self
    }

    pub(crate) fn secondary(mut self, span: Span, text: impl Into<String>) -> Self {
        self.labels.push(Label {
            span,
            text: text.into(),
            primary: false,
        });
        self
    }

    pub(crate) fn help(mut self, help: impl Into<String>) -> Self {
        let help = help.into();
        if !help.is_empty() {
            self.help = Some(help);
        }
        self
    }

    pub(crate) fn at_ply(mut self, ply: usize) -> Self {
        self.ply = Some(ply);
        self
    }

    /// Whether it is an error (not a warning).
    #[must_use]
    pub fn is_error(&self) -> bool {
        self.code.severity() == Severity::Error
    }

    /// The primary span, if any.
    #[must_use]
    pub fn span(&self) -> Option<Span> {
        self.labels.iter().find(|l| l.primary).map(|l| l.span)
    }
}

impl fmt::Display for CheckDiagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        if let Some(a) = &self.assumes {
            f.write_str(" ")?;
            f.write_str(&bao_i18n::t!(
                self.lang,
                "assuming",
                mv = a.mv.to_string(),
                ply = a.ply
            ))?;
        }
        Ok(())
    }
}

impl std::error::Error for CheckDiagnostic {}

impl miette::Diagnostic for CheckDiagnostic {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.code.code()))
    }

    fn severity(&self) -> Option<Severity> {
        Some(self.code.severity())
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn url<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(
            self.rule.map_or_else(|| self.code.url(), Code::rule_url),
        ))
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        if self.labels.is_empty() {
            return None;
        }
        Some(Box::new(self.labels.iter().map(|l| {
            if l.primary {
                LabeledSpan::new_primary_with_span(Some(l.text.clone()), l.span)
            } else {
                LabeledSpan::new_with_span(Some(l.text.clone()), l.span)
            }
        })))
    }
}

/// A syntax or validator diagnostic.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, miette::Diagnostic)]
pub enum AnyDiagnostic {
    /// From the parser (`bao::syntax::*`).
    #[error(transparent)]
    #[diagnostic(transparent)]
    Syntax(SyntaxError),
    /// From the validator.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Check(CheckDiagnostic),
}

impl AnyDiagnostic {
    /// The full code.
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            Self::Syntax(e) => e.code.code(),
            Self::Check(d) => d.code.code(),
        }
    }

    /// Whether it is an error (not a warning).
    #[must_use]
    pub fn is_error(&self) -> bool {
        match self {
            Self::Syntax(e) => e.is_error(),
            Self::Check(d) => d.is_error(),
        }
    }

    /// The primary span.
    #[must_use]
    pub fn span(&self) -> Option<Span> {
        match self {
            Self::Syntax(e) => Some(e.span),
            Self::Check(d) => d.span(),
        }
    }
}

/// Counts of what was checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Stats {
    /// Games read.
    pub games: usize,
    /// Plies replayed (main lines and variations).
    pub plies: usize,
    /// Error diagnostics.
    pub errors: usize,
    /// Warning diagnostics.
    pub warnings: usize,
}

/// Every diagnostic of one record text, with the text attached once (children rely on
/// miette's fallback to the parent's source).
#[derive(Debug, Clone, thiserror::Error)]
#[error("{}", summary_line(.name, .stats, *.lang))]
pub struct CheckReport {
    /// The name shown for the text (a path, or `stdin`).
    pub name: String,
    /// The text.
    pub text: Arc<str>,
    src: SourceText,
    /// The diagnostics in text order.
    pub diagnostics: Vec<AnyDiagnostic>,
    /// What was checked.
    pub stats: Stats,
    /// The language of its summary line.
    pub lang: bao_i18n::Lang,
}

fn summary_line(name: &str, stats: &Stats, lang: bao_i18n::Lang) -> String {
    bao_i18n::t!(
        lang,
        "summary",
        name = name,
        errors = bao_i18n::t!(lang, "summary-errors", count = stats.errors),
        warnings = bao_i18n::t!(lang, "summary-warnings", count = stats.warnings)
    )
}

impl CheckReport {
    pub(crate) fn new(
        name: &str,
        text: Arc<str>,
        diagnostics: Vec<AnyDiagnostic>,
        games: usize,
        plies: usize,
    ) -> Self {
        let errors = diagnostics.iter().filter(|d| d.is_error()).count();
        Self {
            name: name.to_owned(),
            src: SourceText::new(name, Arc::clone(&text)),
            text,
            stats: Stats {
                games,
                plies,
                errors,
                warnings: diagnostics.len() - errors,
            },
            diagnostics,
            lang: bao_i18n::Lang::En,
        }
    }

    /// The report, its summary in `lang`.
    pub(crate) fn in_lang(mut self, lang: bao_i18n::Lang) -> Self {
        self.lang = lang;
        self
    }

    /// The report with other counts (for a streamed check, whose diagnostics are reported
    /// piece by piece).
    pub(crate) fn with_stats(mut self, stats: Stats) -> Self {
        self.stats = stats;
        self
    }

    /// Whether the record is valid (warnings allowed).
    #[must_use]
    pub fn is_valid(&self) -> bool {
        self.stats.errors == 0
    }

    /// The 1-based line and column (in characters) of a byte offset.
    #[must_use]
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        self.src.line_col(offset)
    }

    /// Keeps only the diagnostics `keep` accepts; the counts of errors and warnings follow
    /// (the games and plies checked stay).
    ///
    /// ```
    /// use bao_validate::{check_text, CheckOptions};
    ///
    /// let mut report = check_text("bad.bao", "1. A5<* *\n".into(), &CheckOptions::default());
    /// assert_eq!(report.stats.errors, 1);
    /// report.retain(|d| d.code() != "bao::illegal::namua_placement");
    /// assert!(report.is_valid() && report.diagnostics.is_empty());
    /// ```
    pub fn retain(&mut self, keep: impl FnMut(&AnyDiagnostic) -> bool) {
        self.diagnostics.retain(keep);
        self.stats.errors = self.diagnostics.iter().filter(|d| d.is_error()).count();
        self.stats.warnings = self.diagnostics.len() - self.stats.errors;
    }

    /// The diagnostics about `range` of the text, moved into a text of their own: `head`
    /// followed by the text of `range`, shown under `name`. A diagnostic whose primary span
    /// is not inside `range` is left out, and so is a label outside it (one pointing at an
    /// earlier ply); the spans of the others are moved with the text.
    ///
    /// A recorder uses it to show what `bao check` says of a move just typed against the
    /// line typed (`12... a6<`), not against a record line that is in no file.
    ///
    /// ```
    /// use bao_validate::{check_text, CheckOptions};
    ///
    /// let text = "[Event \"x\"]\n\n1. A5<* *\n";
    /// let report = check_text("club.bao", text.into(), &CheckOptions::default());
    /// let start = text.find("A5<*").unwrap();
    /// let typed = report.excerpt("typed", "1. ", start..start + 4);
    /// assert_eq!(&*typed.text, "1. A5<*");
    /// assert_eq!(typed.diagnostics[0].span().map(|s| s.start), Some(3));
    /// ```
    #[must_use]
    pub fn excerpt(&self, name: &str, head: &str, range: std::ops::Range<usize>) -> Self {
        let inside = |s: Span| s.start >= range.start && s.end <= range.end;
        let moved = |s: Span| {
            Span::new(
                s.start - range.start + head.len(),
                s.end - range.start + head.len(),
            )
        };
        let diagnostics: Vec<AnyDiagnostic> = self
            .diagnostics
            .iter()
            .filter(|d| d.span().is_some_and(inside))
            .map(|d| match d {
                AnyDiagnostic::Syntax(e) => {
                    let mut e = e.clone();
                    e.span = moved(e.span);
                    AnyDiagnostic::Syntax(e)
                }
                AnyDiagnostic::Check(c) => {
                    let mut c = c.clone();
                    c.labels.retain(|l| inside(l.span));
                    for l in &mut c.labels {
                        l.span = moved(l.span);
                    }
                    AnyDiagnostic::Check(c)
                }
            })
            .collect();
        let text = format!("{head}{}", self.text.get(range).unwrap_or_default());
        Self::new(
            name,
            Arc::from(text),
            diagnostics,
            self.stats.games,
            self.stats.plies,
        )
        .in_lang(self.lang)
    }
}

/// The 1-based line and column (in characters) of a byte offset of `text`.
#[must_use]
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[start..].chars().count() + 1)
}

impl miette::Diagnostic for CheckReport {
    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.src)
    }

    fn severity(&self) -> Option<Severity> {
        Some(if self.stats.errors > 0 {
            Severity::Error
        } else {
            Severity::Warning
        })
    }

    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn miette::Diagnostic> + 'a>> {
        Some(Box::new(
            self.diagnostics
                .iter()
                .map(|d| d as &dyn miette::Diagnostic),
        ))
    }
}
