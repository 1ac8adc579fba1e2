//! One move item read from a line of input, as a prompt reads what a player types.
//!
//! [`read_move_line`] reads a line such as `12. A6<* !` with the record grammar (the same
//! tokens, NAGs and diagnostics as a record file) and accepts it only when it holds exactly
//! one move item with no lap/capture annotation.

use std::fmt;

use crate::ast::{Element, MoveItem};
use crate::error::{SyntaxCode, SyntaxError};
use crate::reader::visit_record;
use crate::span::Spanned;
use crate::visit::RecordBuilder;

/// Why a line is not one move item.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum MoveLineError {
    /// The line does not read in the record format: its first syntax error (a warning is
    /// not one), with a span into the line.
    Syntax(SyntaxError),
    /// The line reads, but it is not one move: nothing, several moves, a tag, a variation,
    /// a comment, a result.
    NotOneMove,
    /// The move carries a lap/capture annotation `[...]`.
    Annotated,
}

impl fmt::Display for MoveLineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Syntax(e) => f.write_str(&e.message),
            Self::NotOneMove => f.write_str("the line is not one move"),
            Self::Annotated => f.write_str("the move has a lap/capture annotation"),
        }
    }
}

impl std::error::Error for MoveLineError {}

/// Reads `line` as one move item of the record format: an optional move number, the move
/// token, then glyphs or NAGs (`12. A6<* !`, `a5>`, `3... b2<* $1`).
///
/// The spans of the item (and of a [`MoveLineError::Syntax`] error) are byte offsets into
/// `line`.
///
/// # Errors
/// [`MoveLineError::Syntax`] when the line does not read, [`MoveLineError::NotOneMove`]
/// when it reads as something else than one move item, [`MoveLineError::Annotated`] when the
/// move carries a lap/capture annotation.
///
/// ```
/// use bao_notation::{read_move_line, MoveLineError, Nag};
///
/// let item = read_move_line("12. A6L* !").unwrap();
/// assert_eq!(item.token.value.to_string(), "A6<*");
/// assert_eq!(item.nags[0].value, Nag(1));
/// assert_eq!(read_move_line("A6<* a5>"), Err(MoveLineError::NotOneMove));
/// assert!(matches!(read_move_line("C3<"), Err(MoveLineError::Syntax(_))));
/// ```
pub fn read_move_line(line: &str) -> Result<MoveItem, MoveLineError> {
    // The line is read by the one grammar, as the movetext of a game without a result (so
    // that the result is not missing, and a result written is not one move).
    let mut builder = RecordBuilder::default();
    visit_record(line, &mut builder);
    if let Some(e) = builder
        .errors
        .into_iter()
        .find(|e| e.is_error() && e.code != SyntaxCode::MissingResult)
    {
        return Err(MoveLineError::Syntax(e));
    }
    let mut games = builder.games.into_iter();
    let (Some(game), None) = (games.next(), games.next()) else {
        return Err(MoveLineError::NotOneMove);
    };
    if game.value.result.is_some() {
        return Err(MoveLineError::NotOneMove);
    }
    let game = game.value;
    if !game.tags.is_empty() {
        return Err(MoveLineError::NotOneMove);
    }
    let mut elements = game.movetext.into_iter();
    match (elements.next(), elements.next()) {
        (
            Some(Spanned {
                value: Element::Move(item),
                ..
            }),
            None,
        ) => {
            if item.annotation.is_some() {
                Err(MoveLineError::Annotated)
            } else {
                Ok(item)
            }
        }
        _ => Err(MoveLineError::NotOneMove),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::{MoveNumber, PitRef};

    #[test]
    fn one_move_with_number_and_glyph() {
        let item = read_move_line("3... b2r** ?!").unwrap();
        assert_eq!(
            item.number.map(|n| n.value),
            Some(MoveNumber {
                number: 3,
                ellipsis: true
            })
        );
        let token = item.token.value;
        assert!(token.claims_takasia && token.takasa);
        assert_eq!(item.token.span.range(), 5..10);
        assert_eq!(item.nags.len(), 1);
        let bare = read_move_line("5").unwrap();
        assert_eq!(bare.token.value.pit, PitRef::Number(5));
    }

    #[test]
    fn what_is_not_one_move() {
        for line in [
            "",
            "A6<* a5>",
            "*",
            "1-0",
            "{note}",
            "[Event \"x\"]",
            "(A6<)",
        ] {
            assert!(
                matches!(
                    read_move_line(line),
                    Err(MoveLineError::NotOneMove | MoveLineError::Syntax(_))
                ),
                "{line}"
            );
        }
        assert_eq!(read_move_line("A6<* a5>"), Err(MoveLineError::NotOneMove));
        assert_eq!(read_move_line("A6<* [A1]"), Err(MoveLineError::Annotated));
        match read_move_line("A6<*+") {
            Err(MoveLineError::Syntax(e)) => {
                assert_eq!(e.code, SyntaxCode::BadMove);
                assert_eq!(e.span.range(), 0..5);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn typos_get_words_about_the_typo() {
        let why = |line: &str| match read_move_line(line) {
            Err(MoveLineError::Syntax(e)) => e.message,
            other => panic!("{line}: {other:?}"),
        };
        assert_eq!(why("A9<"), "`A9<`: there is no pit A9");
        assert_eq!(why("A44"), "`A44`: there is no pit A44");
        assert_eq!(why("A0>*"), "`A0>*`: there is no pit A0");
        assert_eq!(why("Ax"), "`Ax`: a row letter needs a pit number after it");
        assert_eq!(why("A4 >"), "unexpected `>`: no space inside a move");
        assert_eq!(why("A6 <*"), "unexpected `<*`: no space inside a move");
        assert_eq!(why("A4 R"), "unexpected `R`: no space inside a move");
        assert_eq!(why("A6 l*"), "unexpected `l*`: no space inside a move");
        assert_eq!(why("C3<"), "`C3<` does not start with a pit");
    }

    /// The line reads as it would as the movetext of a game ended with `*`.
    #[test]
    fn as_the_movetext_of_a_game() {
        for line in [
            "A6<*",
            "12. a5>",
            "3... b2r**?!",
            "A6<* $14",
            "A9",
            "C3<",
            "A6<*+",
            "A6<x",
            "1. 2.",
            "A6<* !!",
            "5",
            "A12",
            "{open",
            "(A6<",
            "A6<) ",
            "$300",
            "A6<* [xa5]",
            "1-0",
            "\"",
            "A6<* ; note",
            "0. A6<",
            "A6<* *",
            "   A6<  ",
        ] {
            let parsed = crate::reader::parse_record(&format!("{line}\n*\n"));
            let first_error = parsed.errors.into_iter().find(SyntaxError::is_error);
            match read_move_line(line) {
                Err(MoveLineError::Syntax(e)) => assert_eq!(Some(e), first_error, "{line}"),
                Ok(item) => {
                    assert_eq!(first_error, None, "{line}");
                    let game = &parsed.record.games[0].value;
                    assert_eq!(game.movetext.len(), 1, "{line}");
                    assert_eq!(game.movetext[0].value, Element::Move(item), "{line}");
                }
                Err(_) => assert_eq!(first_error, None, "{line}"),
            }
        }
    }
}
