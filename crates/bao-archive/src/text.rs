//! What `bao filter`, `bao dedupe` and `bao split` write of a game.
//!
//! By default a game is copied as written ([`Form::AsWritten`]): its text from the comments
//! before its first tag to its result token ([`ArchiveGame::source`]), byte for byte (a
//! Latin-1 input's text as the UTF-8 it reads as), then one line end. The line end is the
//! game's own: `\r\n` when the first line of its text ends so, else `\n`. Games written one
//! after another are separated by one blank line (one more line end, the one of the game
//! before it). What the input holds between games beyond that (more blank lines, comments
//! after the last game) is not a game's and is not written; comments after a game's result
//! on its last line are read as the next game's leading comments, and go with it.
//!
//! [`Form::Canonical`] writes the canonical form instead ([`bao_notation::write_game`]), as
//! `bao fmt` writes it.
//!
//! `bao dedupe --merge-tags` gives a kept game the tags of its duplicates that it lacks
//! ([`GameText::merged`]): in a game copied as written, each tag added is a new line after
//! the line of its last tag (before its text when it has none, followed by a blank line),
//! written as the canonical writer writes a tag; nothing else of the game changes.

use bao_notation::write_tag;

use crate::game::ArchiveGame;

/// How a game is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Form {
    /// Its text as written.
    #[default]
    AsWritten,
    /// Its canonical form.
    Canonical,
}

/// A game's text as it is written out, ending with its line end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameText {
    /// The text, ending with [`GameText::line_end`].
    pub text: String,
    /// The game's line end: what ends its text, and the blank line written after it when
    /// another game follows.
    pub line_end: &'static str,
}

impl GameText {
    /// The game's text in `form`.
    #[must_use]
    pub fn of(g: &ArchiveGame<'_>, form: Form) -> Self {
        Self::merged(g, form, &[])
    }

    /// The game's text in `form`, with each tag of `extra` that it lacks (by name) added.
    #[must_use]
    pub fn merged(g: &ArchiveGame<'_>, form: Form, extra: &[(String, String)]) -> Self {
        match form {
            Form::Canonical => {
                let text = if extra.is_empty() {
                    bao_notation::write_game(g.game, &bao_notation::WriteOptions::default())
                } else {
                    let mut game = g.game.clone();
                    crate::dedupe::merge_tags(&mut game, extra);
                    bao_notation::write_game(&game, &bao_notation::WriteOptions::default())
                };
                Self {
                    text,
                    line_end: "\n",
                }
            }
            Form::AsWritten => {
                let line_end = line_end(g.source);
                let added = missing_tags(g, extra, line_end);
                let mut text = String::with_capacity(g.source.len() + added.len() + 4);
                if added.is_empty() {
                    text.push_str(g.source);
                } else {
                    let (at, on_its_line) = tags_end(g);
                    text.push_str(&g.source[..at]);
                    if !on_its_line {
                        text.push_str(line_end);
                    }
                    text.push_str(&added);
                    if g.game.tags.is_empty() {
                        text.push_str(line_end);
                    }
                    text.push_str(&g.source[at..]);
                }
                text.push_str(line_end);
                Self { text, line_end }
            }
        }
    }
}

/// The line end of a text: `\r\n` when its first line ends so, else `\n` (a text of one line
/// included).
#[must_use]
pub fn line_end(text: &str) -> &'static str {
    match text.find('\n') {
        Some(i) if i > 0 && text.as_bytes()[i - 1] == b'\r' => "\r\n",
        _ => "\n",
    }
}

/// The lines of the tags of `extra` that the game lacks (each name once, the first value),
/// each ending with `line_end`.
fn missing_tags(g: &ArchiveGame<'_>, extra: &[(String, String)], line_end: &str) -> String {
    let mut out = String::new();
    let mut added: Vec<&str> = Vec::new();
    for (name, value) in extra {
        if g.game.tag(name).is_some() || added.contains(&name.as_str()) {
            continue;
        }
        added.push(name);
        write_tag(name, value, &mut out);
        out.push_str(line_end);
    }
    out
}

/// Where tag lines are added in the game's source: after the line end that follows its last
/// tag, or at its start when it has no tag; and whether that is the start of a line (when no
/// line end follows the last tag, the lines added start with one).
fn tags_end(g: &ArchiveGame<'_>) -> (usize, bool) {
    let Some(end) = g.game.tags.iter().map(|t| t.span.end).max() else {
        return (0, true);
    };
    let end = end.saturating_sub(g.offset).min(g.source.len());
    match g.source[end..].find('\n') {
        Some(i) => (end + i + 1, true),
        None => (end, false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{for_each_game, Depth};

    /// Every game of `input` in `form`, with the tags of `extra` merged.
    fn texts(input: &str, form: Form, extra: &[(String, String)]) -> Vec<GameText> {
        let mut out = Vec::new();
        for_each_game(
            input.as_bytes(),
            Depth::Tags,
            |_, g| GameText::merged(g, form, extra),
            |t| {
                out.push(t);
                Ok::<_, std::io::Error>(())
            },
        )
        .expect("in memory");
        out
    }

    fn extra(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
            .collect()
    }

    #[test]
    fn line_ends_are_the_first_lines() {
        assert_eq!(line_end("[A \"b\"]\r\n\n*"), "\r\n");
        assert_eq!(line_end("[A \"b\"]\n\r\n*"), "\n");
        assert_eq!(line_end("1. A6L* *"), "\n");
        assert_eq!(line_end("\n*"), "\n");
    }

    #[test]
    fn a_game_is_its_text_from_the_comments_before_it_to_its_result() {
        let first =
            "; found in a notebook\r\n[Event \"x\"]\r\n\r\n1. A6L*   a6R { odd }\r\n  2. A4R *";
        let second = "{ before }\n[Event \"y\"]\n\n1. A6L* 1-0";
        let input = format!("{first}\r\n\r\n\r\n{second}   \n\n; left over at the end\n");
        let got = texts(&input, Form::AsWritten, &[]);
        assert_eq!(
            got,
            vec![
                GameText {
                    text: format!("{first}\r\n"),
                    line_end: "\r\n"
                },
                GameText {
                    text: format!("{second}\n"),
                    line_end: "\n"
                },
            ]
        );
        let canonical = texts(&input, Form::Canonical, &[]);
        assert_eq!(
            canonical[1].text,
            "{ before }\n[Event \"y\"]\n\n1. A6<* 1-0\n"
        );
    }

    #[test]
    fn merged_tags_are_lines_after_the_last_tag() {
        let game = "[Event \"x\"]\r\n[South \"A\"] ; who\r\n\r\n1. A6L* *";
        let got = texts(
            game,
            Form::AsWritten,
            &extra(&[
                ("Event", "z"),
                ("Site", "Pemba \"Chake\""),
                ("Site", "no"),
                ("Round", "2"),
            ]),
        );
        assert_eq!(
            got[0].text,
            "[Event \"x\"]\r\n[South \"A\"] ; who\r\n[Site \"Pemba \\\"Chake\\\"\"]\r\n[Round \"2\"]\r\n\r\n1. A6L* *\r\n"
        );
        // No tags: the lines and a blank line before the game's text.
        let got = texts(
            "{ note }\n1. A6L* *",
            Form::AsWritten,
            &extra(&[("Event", "z")]),
        );
        assert_eq!(got[0].text, "[Event \"z\"]\n\n{ note }\n1. A6L* *\n");
        // No line end after the last tag: the lines begin on a line of their own.
        let got = texts(
            "[Event \"x\"] 1. A6L* *",
            Form::AsWritten,
            &extra(&[("Round", "1")]),
        );
        assert_eq!(got[0].text, "[Event \"x\"]\n[Round \"1\"]\n 1. A6L* *\n");
        let reparsed = bao_notation::parse_record(&got[0].text);
        assert!(reparsed.errors.is_empty(), "{:?}", reparsed.errors);
        assert_eq!(
            reparsed.record.games[0]
                .value
                .tag("Round")
                .map(|v| v.value.as_str()),
            Some("1")
        );
        // Canonical: the tags merged, then written canonically.
        let got = texts(game, Form::Canonical, &extra(&[("Round", "2")]));
        assert_eq!(
            got[0].text,
            "[Event \"x\"]\n[Round \"2\"]\n[South \"A\"]\n\n; who\n1. A6<* *\n"
        );
    }
}
