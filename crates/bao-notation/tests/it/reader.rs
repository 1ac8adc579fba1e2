use bao_notation::{parse_bytes, parse_record, GameReader, SyntaxCode};

const THREE: &str = "[Event \"1\"]\n\n1. A6<* a5>* 1-0\n\n[Event \"2\"]\n\n1. A7>* {open\n\n[Event \"3\"]\n\n1. A6>* (1. A7<* *\n; tail\n";

#[test]
fn streaming_gives_the_games_of_a_whole_parse() {
    let whole = parse_record(THREE);
    let streamed: Vec<_> = GameReader::new(THREE.as_bytes())
        .map(Result::unwrap)
        .collect();
    assert_eq!(streamed.len(), whole.record.games.len());
    assert_eq!(streamed.len(), 4, "three games and the trailing comment");
    for (s, w) in streamed.iter().zip(&whole.record.games) {
        assert_eq!(&s.game, w);
        let at = usize::try_from(s.offset).unwrap();
        assert_eq!(&THREE[at..at + s.text.len()], &*s.text);
    }
    let codes = |it: &mut dyn Iterator<Item = SyntaxCode>| it.collect::<Vec<_>>();
    let a = codes(&mut whole.errors.iter().map(|e| e.code));
    let b = codes(
        &mut streamed
            .iter()
            .flat_map(|g| g.errors.iter().map(|e| e.code)),
    );
    assert_eq!(a, b);
    assert_eq!(
        a,
        [
            SyntaxCode::UnterminatedComment,
            SyntaxCode::UnclosedVariation
        ]
    );
}

#[test]
fn a_broken_game_loses_nothing_after_it() {
    let text = "[Event \"a\"]\n1. A6<* {never closed\n[Event \"b\"]\n1. A7>* 1-0\n";
    let p = parse_record(text);
    assert_eq!(p.record.games.len(), 2);
    assert_eq!(p.record.games[1].value.tag("Event").unwrap().value, "b");
}

#[test]
fn latin1_bom_and_crlf() {
    let (text, p) = parse_bytes(b"\xef\xbb\xbf[Site \"S\xe9\"]\r\n\r\n1. A6<* *\r\n");
    assert!(text.contains("Sé"));
    assert_eq!(p.errors.len(), 1);
    assert_eq!(p.errors[0].code, SyntaxCode::Latin1Input);
    let (_, p) = parse_bytes(b"\xef\xbb\xbf[Site \"S\"]\r\n\r\n1. A6<* *\r\n");
    assert!(p.errors.is_empty());
}

#[test]
fn the_limit_skips_only_the_long_game() {
    let long = format!("[Event \"long\"]\n{{{}}}\n*\n", "x".repeat(5000));
    let text = format!("[Event \"a\"]\n*\n{long}[Event \"c\"]\n*\n");
    let games: Vec<_> = GameReader::with_limit(text.as_bytes(), 1000)
        .map(Result::unwrap)
        .collect();
    assert_eq!(games.len(), 3);
    assert_eq!(games[1].errors[0].code, SyntaxCode::GameTooLong);
    assert_eq!(games[2].game.value.tag("Event").unwrap().value, "c");
}

/// A game too long to read is skipped up to the next game's first line: the comments after
/// its result go with it (spec/notation.md §3), between games and at the end of the text;
/// after a game that is read they belong to the next game.
#[test]
fn comments_after_a_game_too_long_are_skipped_with_it() {
    use bao_notation::{parse_record_with, Limits};
    let limits = Limits {
        max_game_bytes: 1000,
        ..Limits::DEFAULT
    };
    let long = format!(
        "[Event \"long\"]\n{{{}}}\n*\n{{after long}}\n\n",
        "x".repeat(5000)
    );
    let short = "[Event \"a\"]\n*\n{after a}\n\n";
    for text in [
        format!("{short}{long}[Event \"c\"]\n*\n"),
        format!("{short}{long}"),
    ] {
        // The streamed check's reader (bao-validate's `StreamReader`, no limit in its
        // `GameReader`) is compared with this in bao-validate's stream tests.
        let whole = parse_record_with(&text, &limits);
        let comments: Vec<_> = whole
            .record
            .games
            .iter()
            .flat_map(|g| g.value.comments.iter().map(|c| c.value.text.clone()))
            .collect();
        // `{after a}` opens the long game's header and is skipped with it, as is
        // `{after long}`.
        assert!(comments.is_empty(), "{comments:?}");
        assert_eq!(whole.errors[0].code, SyntaxCode::GameTooLong);
    }
    let read = parse_record(&format!("{short}[Event \"c\"]\n*\n"));
    assert_eq!(read.record.games[1].value.comments[0].value.text, "after a");
}

/// Units that, repeated, make inputs a quadratic parser would choke on.
const HOSTILE_UNITS: [&str; 10] = [
    "(",
    ")",
    "[",
    "{",
    "1.",
    "$",
    "\"",
    "A6<* ",
    "[Event \"x\"]\n",
    "(A6<* ",
];

#[test]
fn hostile_inputs_parse_with_every_error_inside_the_text() {
    // Their cost is measured, not asserted here (a timed test fails on a busy machine):
    // the `hostile` benchmark of bao-notation reads them at two sizes.
    for unit in HOSTILE_UNITS {
        let big = unit.repeat(100_000);
        let p = parse_record(&big);
        assert!(p.errors.iter().all(|e| e.span.end <= big.len()), "{unit:?}");
    }
}

#[test]
fn deep_nesting_is_a_diagnostic_not_a_crash() {
    let text = format!(
        "1. A6<* {}{} *",
        "(1. A7>* ".repeat(100_000),
        ")".repeat(100_000)
    );
    let p = parse_record(&text);
    let deep: Vec<_> = p
        .errors
        .iter()
        .filter(|e| e.code == SyntaxCode::VariationTooDeep)
        .collect();
    assert_eq!(deep.len(), 1);
    assert_eq!(p.errors.len(), 1);
    let out = bao_notation::write_record(&p.record, &Default::default());
    assert_eq!(out.matches('(').count(), bao_notation::MAX_VARIATION_DEPTH);
}

/// A reader that hands out at most `step` bytes per read.
struct Trickle<'a> {
    rest: &'a [u8],
    step: usize,
}

impl std::io::Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.step.min(buf.len()).min(self.rest.len());
        buf[..n].copy_from_slice(&self.rest[..n]);
        self.rest = &self.rest[n..];
        Ok(n)
    }
}

/// What a reader gives, in a form to compare.
fn stream(r: impl std::io::Read, limit: usize) -> Vec<(u64, String, usize, Vec<SyntaxCode>)> {
    GameReader::with_limit(r, limit)
        .map(Result::unwrap)
        .map(|g| {
            let codes = g.errors.iter().map(|e| e.code).collect();
            (
                g.offset,
                g.text.to_string(),
                g.game.value.movetext.len(),
                codes,
            )
        })
        .collect()
}

#[test]
fn reads_in_any_pieces_give_the_same_games() {
    let mut text = String::new();
    for g in 0..12 {
        text.push_str(&format!("[Event \"{g}\"]\n  [Site \"a;b{{c\"]\n\n"));
        for m in 1..=6 {
            text.push_str(&format!("{m}. A6<* a5>"));
            match (g + m) % 6 {
                0 => text.push_str(" [xa5:3 A6]"),
                1 => text.push_str(" {a comment\nover two lines}"),
                2 => text.push_str(" ; to the end of the line"),
                3 => text.push_str(" (A7>*)"),
                4 => text.push_str(" $14\r"),
                _ => {}
            }
            text.push('\n');
        }
        text.push_str(if g % 4 == 3 {
            "{never closed\n"
        } else {
            "1-0\n\n"
        });
        if g % 5 == 4 {
            text.push_str("1. A6<* *\n\n");
        }
    }
    let whole = parse_record(&text);
    let all = stream(text.as_bytes(), usize::MAX);
    assert_eq!(all.len(), whole.record.games.len());
    for ((_, _, moves, _), w) in all.iter().zip(&whole.record.games) {
        assert_eq!(*moves, w.value.movetext.len());
    }
    for limit in [usize::MAX, 400, 120, 60] {
        let reference = stream(text.as_bytes(), limit);
        if limit < 200 {
            assert!(reference
                .iter()
                .any(|g| g.3.contains(&SyntaxCode::GameTooLong)));
        }
        for step in [1, 3, 7, 64, 1000] {
            let pieces = stream(
                Trickle {
                    rest: text.as_bytes(),
                    step,
                },
                limit,
            );
            assert_eq!(pieces, reference, "limit {limit}, step {step}");
        }
    }
}

/// A byte order mark before the first tag line does not make that line movetext to the
/// reader's game splitter: the first game keeps all its tags, as in a whole-text parse (the
/// reader cut it in two, a first game of one tag with no result, until the mark was skipped).
#[test]
fn a_byte_order_mark_keeps_the_first_game_whole() {
    let text =
        "\u{feff}[Event \"x\"]\r\n[Site \"y\"]\r\n\r\n1. A6<* 1-0\r\n[Event \"z\"]\r\n\r\n*\r\n";
    let whole = parse_record(text);
    assert!(whole.errors.is_empty(), "{:?}", whole.errors);
    assert_eq!(whole.record.games.len(), 2);
    for step in [1, 2, 3, 5, 64, 1000] {
        let streamed: Vec<_> = GameReader::new(Trickle {
            rest: text.as_bytes(),
            step,
        })
        .map(Result::unwrap)
        .collect();
        assert_eq!(streamed.len(), 2, "step {step}");
        assert!(streamed.iter().all(|g| g.errors.is_empty()), "step {step}");
        assert_eq!(streamed[0].game.value.tags.len(), 2, "step {step}");
        assert_eq!(
            streamed[0].game.value.tags,
            whole.record.games[0].value.tags
        );
    }
}

/// The codes of a parse, in order.
fn codes(p: &bao_notation::Parsed) -> Vec<SyntaxCode> {
    p.errors.iter().map(|e| e.code).collect()
}

/// A game after the hostile text, to see that it is still read.
const AFTER: &str = "\n[Event \"after\"]\n\n1. A6<* *\n";

fn last_game_is_after(p: &bao_notation::Parsed) {
    let last = &p.record.games.last().unwrap().value;
    assert_eq!(last.tag("Event").unwrap().value, "after");
    assert_eq!(last.main_line().count(), 1);
}

#[test]
fn a_ten_megabyte_line_is_one_located_diagnostic() {
    let line = "1. A6<* a5>* ".repeat(10 << 20 >> 4);
    assert!(line.len() > 8 << 20);
    let text = format!("[Event \"long\"]\n{line}*\n{AFTER}");
    let p = parse_record(&text);
    assert_eq!(codes(&p), [SyntaxCode::GameTooLong]);
    let e = &p.errors[0];
    assert_eq!(&text[e.span.range()], "[Event \"long\"]");
    last_game_is_after(&p);
    // The streaming reader says the same.
    let streamed: Vec<_> = GameReader::new(text.as_bytes())
        .map(Result::unwrap)
        .collect();
    assert_eq!(streamed[0].errors[0].code, SyntaxCode::GameTooLong);
    assert_eq!(streamed.len(), 2);
}

#[test]
fn a_ten_megabyte_comment_and_a_long_one() {
    let text = format!("{{{}}} *\n{AFTER}", "x".repeat(10 << 20));
    let p = parse_record(&text);
    assert_eq!(codes(&p), [SyntaxCode::GameTooLong]);
    assert_eq!(p.errors[0].span.range(), 0..80);
    last_game_is_after(&p);
    let text = format!(
        "1. A6<* {{{}}} ; {}\n*\n{AFTER}",
        "x".repeat(100_000),
        "y".repeat(70_000)
    );
    let p = parse_record(&text);
    assert_eq!(
        codes(&p),
        [SyntaxCode::CommentTooLong, SyntaxCode::CommentTooLong]
    );
    assert_eq!(&text[p.errors[0].span.range()], "{");
    assert_eq!(&text[p.errors[1].span.range()], ";");
    last_game_is_after(&p);
}

#[test]
fn a_long_tag_value() {
    let text = format!("[Event \"{}\"]\n*\n{AFTER}", "é".repeat(5000));
    let p = parse_record(&text);
    assert_eq!(codes(&p), [SyntaxCode::TagTooLong]);
    assert_eq!(&text[p.errors[0].span.range()], "Event");
    last_game_is_after(&p);
}

#[test]
fn too_many_moves_skip_the_rest_of_the_game() {
    let moves = "A6<* (a5>* a6<*) ".repeat(6000);
    let text = format!("[Event \"many\"]\n\n{moves} (( 1-0\n{AFTER}");
    let p = parse_record(&text);
    assert_eq!(codes(&p), [SyntaxCode::TooManyPlies]);
    let game = &p.record.games[0].value;
    assert_eq!(game.result.as_ref().unwrap().value.to_string(), "1-0");
    let kept: usize = bao_notation::write_record(&p.record, &Default::default())
        .matches("A6<*")
        .count();
    assert!(kept <= 10_000 / 3 + 2, "{kept}");
    last_game_is_after(&p);
}

#[test]
fn half_a_million_errors_are_a_hundred_and_one() {
    let text = format!("[Event \"junk\"]\n\n{} *\n{AFTER}", "junk ".repeat(500_000));
    let p = parse_record(&text);
    assert_eq!(p.errors.len(), 101);
    assert_eq!(p.errors[100].code, SyntaxCode::TooManyErrors);
    assert!(p.errors[..100]
        .iter()
        .all(|e| e.code == SyntaxCode::UnexpectedToken));
    last_game_is_after(&p);
}

#[test]
fn a_hundred_thousand_open_parentheses() {
    let text = format!("1. A6<* {} *\n{AFTER}", "(".repeat(100_000));
    let p = parse_record(&text);
    assert!(codes(&p).contains(&SyntaxCode::VariationTooDeep));
    assert!(p.errors.len() <= 101);
    for e in &p.errors {
        assert!(e.span.end <= text.len());
    }
    last_game_is_after(&p);
}

/// Found by comparing builds on the fuzzing corpus with a small limit: a line longer than the
/// limit at the very end of the input, beginning a game, was taken again at the start of
/// every following chunk, and the reader gave `game_too_long` forever.
#[test]
fn a_long_last_line_is_skipped_once() {
    let mut text = String::from("[Event \"a\"]\n1. A6<* *\n\n[Event \"");
    text.push_str(&"x".repeat(400));
    for end in ["", "\"]\n1. A6<* *", "\"]\n1. A6<* *\n"] {
        let input = format!("{text}{end}");
        let games: Vec<_> = GameReader::with_limit(input.as_bytes(), 300)
            .take(10)
            .map(Result::unwrap)
            .collect();
        assert_eq!(games.len(), 2, "{end:?}");
        assert!(games[0].errors.is_empty());
        let codes: Vec<_> = games[1].errors.iter().map(|e| e.code).collect();
        assert_eq!(codes, [SyntaxCode::GameTooLong], "{end:?}");
    }
}

/// What a game of a streamed or whole read is, to compare them: its tags, its moves, its
/// comments, and the codes of its diagnostics with their places in the input.
type Seen = (Vec<String>, usize, usize, Vec<(SyntaxCode, usize)>);

fn whole_games(text: &str, limits: &bao_notation::Limits) -> Vec<Seen> {
    let p = bao_notation::parse_record_with(text, limits);
    let mut out: Vec<Seen> = p
        .record
        .games
        .iter()
        .map(|g| {
            let tags = g.value.tags.iter().map(|t| t.value.value.value.clone());
            (
                tags.collect(),
                g.value.movetext.len(),
                g.value.comments.len(),
                Vec::new(),
            )
        })
        .collect();
    for e in &p.errors {
        let i = p
            .record
            .games
            .iter()
            .position(|g| g.span.end >= e.span.start)
            .unwrap_or(out.len() - 1);
        out[i].3.push((e.code, e.span.start));
    }
    out
}

fn streamed_games(input: impl std::io::Read, limits: &bao_notation::Limits) -> Vec<Seen> {
    GameReader::with_limits(input, limits)
        .map(Result::unwrap)
        .map(|g| {
            let tags = g
                .game
                .value
                .tags
                .iter()
                .map(|t| t.value.value.value.clone());
            let at = usize::try_from(g.offset).unwrap();
            let errors = g.errors.iter().map(|e| (e.code, at + e.span.start));
            (
                tags.collect(),
                g.game.value.movetext.len(),
                g.game.value.comments.len(),
                errors.collect(),
            )
        })
        .collect()
}

/// Tag-less games on one line, over the size limit together (issue 33's "10 MB of tag-less
/// games on one line"): the streaming reader gives one `game_too_long` for the line, found
/// without building its games (`ChunkParser::holds_game`: they took 200 MB for 12 MB of
/// text), and the game after it, as the whole-text parse does; a line of comments only over
/// the limit (which the next game joins) is read the same by both too.
#[test]
fn tag_less_games_on_one_line_over_the_limit() {
    use bao_notation::Limits;
    let default = Limits::DEFAULT;
    let games = "1. A6<* a5>* 1-0 ".repeat(default.max_game_bytes / 17 + 100);
    let comments = "{c} ".repeat(default.max_game_bytes / 4 + 100);
    for line in [games, comments] {
        let text = format!("{line}\n[Event \"next\"]\n1. A6<* *\n");
        let whole = whole_games(&text, &default);
        assert_eq!(streamed_games(text.as_bytes(), &default), whole);
        // After games, the tag line starts the next game; after comments only it does not
        // (§3: a tag line cuts a game once it has movetext), so that game is skipped too.
        assert_eq!(
            whole.iter().any(|g| g.0 == ["next"]),
            line.starts_with('1'),
            "{whole:?}"
        );
        let too_long: Vec<_> = whole.iter().flat_map(|g| &g.3).collect();
        assert_eq!(too_long.len(), 1, "{too_long:?}");
        assert_eq!(too_long[0].0, SyntaxCode::GameTooLong);
    }
}

/// A game over the size limit whose text is one line longer than the limit (a comment
/// opened and closed on it), then comments and more games: the streaming reader kept only
/// the line's first bytes, so its game splitter saw a brace opened and never closed, took
/// the next game's tag line for part of the skipped game and lost that game (one game
/// fewer than the whole-text parse). Both now read the line whole to cut the text into
/// games: the long game is one `game_too_long` at its first line, and the games after it
/// are read alike (spec/notation.md §9). With the default limit of 4 MiB, on a text made
/// here, and with small limits through every read size.
#[test]
fn a_game_over_the_limit_on_one_long_line_loses_no_game_after_it() {
    use bao_notation::Limits;
    let shapes = |body: &str| {
        let big = format!("[Event \"big\"]\n1. A6<* {{{body}}} a5>\n*\n");
        let after = "{after big}\n; to the end of the line\n\n";
        let next = "[Event \"next\"]\n1. A6<* *\n";
        let small = "[Event \"small\"]\n1. A6<* *\n{after small}\n";
        [
            format!("{big}{after}{next}"),
            format!("{small}{big}{after}{next}{after}"),
            format!("{small}{big}{after}{next}[Event \"last\"]\n1-0\n"),
            // A `"` and a `\` in the long line, and a long tag line.
            format!("{small}[Event \"{body}\\\"\"]\n1. A6<* *\n{after}{next}"),
        ]
    };
    let default = Limits::DEFAULT;
    for text in shapes(&"x".repeat(default.max_game_bytes + 1000)) {
        let whole = whole_games(&text, &default);
        assert_eq!(streamed_games(text.as_bytes(), &default), whole);
        assert!(whole.iter().any(|g| g.0 == ["next"]), "{whole:?}");
        let too_long: Vec<_> = whole.iter().flat_map(|g| &g.3).collect();
        assert_eq!(too_long.len(), 1, "{too_long:?}");
        assert_eq!(too_long[0].0, SyntaxCode::GameTooLong);
        // At the start of the skipped text's first line.
        let at = too_long[0].1;
        assert!(at == 0 || text.as_bytes()[at - 1] == b'\n', "{at}");
    }
    for limit in [64, 90, 300] {
        let limits = Limits {
            max_game_bytes: limit,
            ..Limits::DEFAULT
        };
        for text in shapes(&"y\\".repeat(200)) {
            let whole = whole_games(&text, &limits);
            assert!(whole.iter().any(|g| g.0 == ["next"]), "{limit}: {whole:?}");
            for step in [1, 2, 3, 7, 64, 1 << 16] {
                let pieces = Trickle {
                    rest: text.as_bytes(),
                    step,
                };
                assert_eq!(
                    streamed_games(pieces, &limits),
                    whole,
                    "limit {limit}, step {step}"
                );
            }
        }
    }
}
