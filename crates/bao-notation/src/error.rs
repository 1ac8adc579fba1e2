//! Syntax diagnostics: one code per failure class, each with a span into the record text.

use std::fmt;
use std::sync::Arc;

use miette::{Diagnostic, LabeledSpan, Severity};

use crate::source::SourceText;

use crate::span::Span;

macro_rules! syntax_codes {
    ($( $(#[$doc:meta])* $variant:ident = $slug:literal, $sev:ident; )*) => {
        /// The class of a syntax diagnostic; its code is `bao::syntax::<slug>`.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum SyntaxCode {
            $( $(#[$doc])* $variant, )*
        }

        impl SyntaxCode {
            /// Every code.
            pub const ALL: &'static [SyntaxCode] = &[$(SyntaxCode::$variant),*];

            /// The slug: the last part of the code and the fixture file name.
            #[must_use]
            pub const fn slug(self) -> &'static str {
                match self { $(SyntaxCode::$variant => $slug,)* }
            }

            /// The full diagnostic code.
            #[must_use]
            pub const fn code(self) -> &'static str {
                match self { $(SyntaxCode::$variant => concat!("bao::syntax::", $slug),)* }
            }

            /// Error or warning.
            #[must_use]
            pub const fn severity(self) -> Severity {
                match self { $(SyntaxCode::$variant => Severity::$sev,)* }
            }
        }

        /// Every syntax diagnostic code.
        pub const SYNTAX_CODES: &[&str] = &[$(concat!("bao::syntax::", $slug)),*];
    };
}

syntax_codes! {
    /// A word that is no move, move number, NAG or result.
    UnexpectedToken = "unexpected_token", Error;
    /// A pit name with a bad row letter or number (`C3`, `A9`).
    UnknownPit = "unknown_pit", Error;
    /// A pit followed by something that is not a sign and suffixes in order.
    BadMove = "bad_move", Error;
    /// A malformed move number (`1..`, `0.`, too large).
    BadMoveNumber = "bad_move_number", Error;
    /// A move number not followed by a move.
    MoveNumberWithoutMove = "move_number_without_move", Error;
    /// `{` without `}`.
    UnterminatedComment = "unterminated_comment", Error;
    /// A tag value without its closing quote on the same line.
    UnterminatedString = "unterminated_string", Error;
    /// A backslash in a tag value not followed by `"` or `\`.
    BadEscape = "bad_escape", Error;
    /// A malformed tag pair.
    BadTag = "bad_tag", Error;
    /// The same tag twice in one game.
    DuplicateTag = "duplicate_tag", Error;
    /// `$` not followed by a number 0..255.
    BadNag = "bad_nag", Error;
    /// A NAG with no move before it.
    NagWithoutMove = "nag_without_move", Error;
    /// A malformed item in a lap/capture annotation.
    BadAnnotation = "bad_annotation", Error;
    /// `[` of an annotation without its `]`.
    UnclosedAnnotation = "unclosed_annotation", Error;
    /// An annotation with no move right before it, or a second one.
    AnnotationWithoutMove = "annotation_without_move", Error;
    /// `(` without `)`.
    UnclosedVariation = "unclosed_variation", Error;
    /// `)` without `(`.
    UnmatchedParen = "unmatched_paren", Error;
    /// `()`.
    EmptyVariation = "empty_variation", Error;
    /// A variation with no move before it to replace.
    VariationWithoutMove = "variation_without_move", Error;
    /// Variations nested deeper than the limit.
    VariationTooDeep = "variation_too_deep", Error;
    /// A result inside a variation.
    ResultInVariation = "result_in_variation", Error;
    /// A game without its result token.
    MissingResult = "missing_result", Error;
    /// A result followed on its line by more moves (`1. A6L * a6R`): the moves start a game
    /// with no tags.
    MovesAfterResult = "moves_after_result", Error;
    /// A `Position` tag value that is not a position string.
    BadPosition = "bad_position", Error;
    /// A `Directions` tag value that names no known convention.
    UnknownDirections = "unknown_directions", Error;
    /// The input is not UTF-8 and was read as Latin-1.
    Latin1Input = "latin1_input", Warning;
    /// A game longer than the reader's limit.
    GameTooLong = "game_too_long", Error;
    /// A tag value longer than the limit.
    TagTooLong = "tag_too_long", Error;
    /// A comment longer than the limit.
    CommentTooLong = "comment_too_long", Error;
    /// A game with more moves than the limit (main line and variations together).
    TooManyPlies = "too_many_plies", Error;
    /// More syntax errors in one game than the limit; the rest are not reported.
    TooManyErrors = "too_many_errors", Error;
    /// Diagram markup in a comment (`[%csl ...]`, `[%cal ...]`) that cannot be read; the
    /// comment is kept as text.
    BadMarkup = "bad_markup", Warning;
    /// An evaluation command in a comment (`[%eval 1.25]`, `[%eval #5]`) that cannot be
    /// read; the comment is kept as text.
    BadEval = "bad_eval", Warning;
}

impl fmt::Display for SyntaxCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// One syntax diagnostic. It carries no source text: attach it with [`SyntaxReport`] or
/// miette's `with_source_code`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    /// The class.
    pub code: SyntaxCode,
    /// Where, in bytes of the parsed text.
    pub span: Span,
    /// The message (the first line of the rendered diagnostic).
    pub message: String,
    /// The label under the span.
    pub label: String,
    /// How to fix it.
    pub help: Option<String>,
}

impl SyntaxError {
    pub(crate) fn new(
        code: SyntaxCode,
        span: Span,
        message: impl Into<String>,
        label: impl Into<String>,
    ) -> Self {
        Self {
            code,
            span,
            message: message.into(),
            label: label.into(),
            help: None,
        }
    }

    pub(crate) fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Whether it is an error (not a warning).
    #[must_use]
    pub fn is_error(&self) -> bool {
        self.code.severity() == Severity::Error
    }

    /// The same diagnostic with its span moved `by` bytes to the right.
    #[must_use]
    pub fn shifted(mut self, by: usize) -> Self {
        self.span = self.span.shifted(by);
        self
    }
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SyntaxError {}

impl Diagnostic for SyntaxError {
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

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        Some(Box::new(std::iter::once(
            LabeledSpan::new_primary_with_span(Some(self.label.clone()), self.span),
        )))
    }
}

/// Syntax diagnostics of one text together with that text, ready to render.
#[derive(Debug, thiserror::Error)]
#[error("{} syntax {} in {}", .diagnostics.len(), if .diagnostics.len() == 1 { "problem" } else { "problems" }, .name)]
pub struct SyntaxReport {
    /// The file name shown.
    pub name: String,
    src: SourceText,
    /// The diagnostics.
    pub diagnostics: Vec<SyntaxError>,
}

impl SyntaxReport {
    /// Gathers diagnostics under their source text.
    #[must_use]
    pub fn new(name: &str, text: Arc<str>, diagnostics: Vec<SyntaxError>) -> Self {
        Self {
            name: name.to_owned(),
            src: SourceText::new(name, text),
            diagnostics,
        }
    }
}

impl Diagnostic for SyntaxReport {
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(&self.src)
    }

    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn Diagnostic> + 'a>> {
        Some(Box::new(
            self.diagnostics.iter().map(|d| d as &dyn Diagnostic),
        ))
    }
}

/// One diagnostic together with its source text, ready to render on its own.
#[derive(Debug, thiserror::Error)]
#[error("{error}")]
pub struct SourcedError {
    src: SourceText,
    /// The diagnostic.
    pub error: SyntaxError,
}

impl SourcedError {
    /// Attaches the text `error` points into.
    #[must_use]
    pub fn new(name: &str, text: Arc<str>, error: SyntaxError) -> Self {
        Self {
            src: SourceText::new(name, text),
            error,
        }
    }
}

impl Diagnostic for SourcedError {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.error.code()
    }
    fn severity(&self) -> Option<Severity> {
        self.error.severity()
    }
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Diagnostic::help(&self.error)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        self.error.labels()
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(&self.src)
    }
}
