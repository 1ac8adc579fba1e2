use bao_notation::{
    parse_bytes, parse_record, visit_reader, visit_record, AnnotationItem, Comment, CommentKind,
    Element, Game, GameReader, GameResult, MoveItem, MoveNumber, MoveToken, Nag, Span, Spanned,
    SyntaxError, Tag, Visitor,
};

/// Builds games from the events with nothing but the public API: a second reading of the
/// event contract, independent of the crate's own builder.
#[derive(Default)]
struct Rebuild {
    games: Vec<Spanned<Game>>,
    errors: Vec<SyntaxError>,
    game: Option<Game>,
    /// Open lines: the main line first, then each open variation.
    lines: Vec<Vec<Spanned<Element>>>,
    /// Begun and not ended games and variations, to check that the events nest.
    depth: i64,
    /// (text, offset) given by `text`.
    texts: Vec<(String, u64)>,
    /// The text each game was read from (index into `texts`).
    game_text: Vec<usize>,
}

impl Rebuild {
    fn game(&mut self) -> &mut Game {
        self.game.as_mut().expect("an event outside a game")
    }

    fn line(&mut self) -> &mut Vec<Spanned<Element>> {
        self.lines
            .last_mut()
            .expect("a movetext event outside a game")
    }

    fn last_move(&mut self) -> (&mut MoveItem, &mut Span) {
        match self.line().last_mut() {
            Some(Spanned {
                value: Element::Move(m),
                span,
            }) => (m, span),
            other => panic!("a NAG or an annotation after {other:?}"),
        }
    }
}

impl Visitor for Rebuild {
    fn text(&mut self, text: &str, offset: u64) {
        assert_eq!(self.depth, 0, "a new text inside a game");
        self.texts.push((text.to_owned(), offset));
    }

    fn begin_game(&mut self, _start: usize) {
        assert!(self.game.is_none(), "a game begun inside a game");
        self.game = Some(Game::default());
        self.lines = vec![Vec::new()];
        self.depth += 1;
    }

    fn game_comment(&mut self, kind: CommentKind, text: &str, span: Span) {
        let text = text.to_owned();
        self.game()
            .comments
            .push(Spanned::new(Comment { kind, text }, span));
    }

    fn tag(&mut self, name: Spanned<&str>, value: Spanned<&str>, span: Span) {
        let tag = Tag {
            name: Spanned::new(name.value.to_owned(), name.span),
            value: Spanned::new(value.value.to_owned(), value.span),
        };
        self.game().tags.push(Spanned::new(tag, span));
    }

    fn comment(&mut self, kind: CommentKind, text: &str, span: Span) {
        let text = text.to_owned();
        self.line()
            .push(Spanned::new(Element::Comment(Comment { kind, text }), span));
    }

    fn move_token(&mut self, number: Option<Spanned<MoveNumber>>, token: Spanned<MoveToken>) {
        let start = number.map_or(token.span.start, |n| n.span.start);
        let span = Span::new(start, token.span.end);
        let item = MoveItem {
            number,
            token,
            nags: Vec::new(),
            annotation: None,
        };
        self.line().push(Spanned::new(Element::Move(item), span));
    }

    fn nag(&mut self, nag: Spanned<Nag>) {
        let (m, span) = self.last_move();
        *span = span.join(nag.span);
        m.nags.push(nag);
    }

    fn annotation(
        &mut self,
        items: &[Spanned<AnnotationItem>],
        cycle: Option<Spanned<bao_core::NeverEnding>>,
        span: Span,
    ) {
        let (m, _) = self.last_move();
        assert!(m.annotation.is_none(), "a second annotation for one move");
        let items = items.to_vec();
        m.annotation = Some(Spanned::new(
            bao_notation::Annotation { items, cycle },
            span,
        ));
    }

    fn begin_variation(&mut self, _open: usize) {
        self.lines.push(Vec::new());
        self.depth += 1;
    }

    fn end_variation(&mut self, span: Span) {
        assert!(self.lines.len() > 1, "a variation ended that was not begun");
        let elems = self.lines.pop().unwrap_or_default();
        self.line()
            .push(Spanned::new(Element::Variation(elems), span));
        self.depth -= 1;
    }

    fn end_game(&mut self, span: Span, result: Option<Spanned<GameResult>>) {
        assert_eq!(self.lines.len(), 1, "a game ended with variations open");
        let mut game = self.game.take().expect("a game ended that was not begun");
        game.movetext = self.lines.pop().unwrap_or_default();
        game.result = result;
        self.games.push(Spanned::new(game, span));
        self.game_text.push(self.texts.len().saturating_sub(1));
        self.depth -= 1;
    }

    fn syntax_error(&mut self, error: SyntaxError) {
        self.errors.push(error);
    }
}

/// Every record under `fixtures/` (the hostile ones included), and a few made here.
fn inputs() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut dirs = vec![crate::fixtures().to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("fixtures") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "bao") {
                let bytes = std::fs::read(&path).expect("read");
                out.push((path.display().to_string(), bytes));
            }
        }
    }
    out.sort();
    for (name, text) in [
        ("comments only", "{a}\n; b\n"),
        (
            "comments after the last game",
            "[Event \"x\"]\n1. A6<* *\n\n{after}\n",
        ),
        ("stray tokens only", "] } \"\n"),
        (
            "open variations",
            "[Event \"x\"]\n1. A6<* (a5> (B2<* {c} $1 1-0\n",
        ),
        (
            "comments between tags",
            "{0}\n[Event \"x\"]\n{1}\n[Site \"y\"]\n{2}\n1. A6<*! [xa5:3 A6] *",
        ),
    ] {
        out.push((name.to_owned(), text.as_bytes().to_vec()));
    }
    out
}

#[test]
fn the_events_rebuild_what_parse_record_builds() {
    let inputs = inputs();
    assert!(inputs.len() > 50, "only {} inputs", inputs.len());
    for (name, bytes) in &inputs {
        let (text, parsed) = parse_bytes(bytes);
        let mut v = Rebuild::default();
        visit_record(&text, &mut v);
        assert_eq!(v.depth, 0, "{name}");
        assert_eq!(v.texts, vec![(text.clone(), 0)], "{name}");
        assert_eq!(v.games, parsed.record.games, "{name}");
        // `parse_bytes` puts a Latin-1 warning first; the text given here is already text.
        let errors: Vec<_> = parsed
            .errors
            .iter()
            .filter(|e| e.code != bao_notation::SyntaxCode::Latin1Input)
            .cloned()
            .collect();
        assert_eq!(v.errors, errors, "{name}");
        assert_eq!(parse_record(&text).record.games, v.games, "{name}");
    }
}

#[test]
fn the_streamed_events_rebuild_what_the_game_reader_gives() {
    for (name, bytes) in inputs() {
        for limit in [usize::MAX, 300] {
            let lim = bao_notation::Limits {
                max_game_bytes: limit,
                ..bao_notation::Limits::DEFAULT
            };
            let streamed: Vec<_> = GameReader::with_limits(&bytes[..], &lim)
                .map(Result::unwrap)
                .collect();
            let mut v = Rebuild::default();
            GameReader::with_limits(&bytes[..], &lim)
                .visit(&mut v)
                .expect("in memory");
            assert_eq!(v.depth, 0, "{name}");
            // The reader gives diagnostics that fall in no game an empty game of their own
            // (a `StreamedGame` carries them); the visitor gets them alone.
            let streamed: Vec<_> = streamed
                .into_iter()
                .filter(|g| {
                    let alone = g.game.value == Game::default()
                        && g.errors
                            .iter()
                            .all(|e| e.code != bao_notation::SyntaxCode::GameTooLong);
                    if alone {
                        v.errors.retain(|e| !g.errors.contains(e));
                    }
                    !alone
                })
                .collect();
            let games: Vec<_> = streamed.iter().map(|g| g.game.clone()).collect();
            assert_eq!(v.games, games, "{name}, limit {limit}");
            for (g, &t) in streamed.iter().zip(&v.game_text) {
                assert_eq!(v.texts[t].1, g.offset, "{name}, limit {limit}");
                assert_eq!(v.texts[t].0, *g.text, "{name}, limit {limit}");
            }
            // The reader gives each game its own diagnostics; the visitor gets them chunk by
            // chunk: the same ones, in the same order.
            let errors: Vec<_> = streamed.into_iter().flat_map(|g| g.errors).collect();
            assert_eq!(v.errors, errors, "{name}, limit {limit}");
        }
    }
}

#[test]
fn visit_reader_counts_like_the_game_reader() {
    #[derive(Default)]
    struct Count(usize, usize);
    impl Visitor for Count {
        fn move_token(&mut self, _: Option<Spanned<MoveNumber>>, _: Spanned<MoveToken>) {
            self.0 += 1;
        }
        fn end_game(&mut self, _: Span, _: Option<Spanned<GameResult>>) {
            self.1 += 1;
        }
    }
    let text =
        std::fs::read(crate::fixtures().join("games/variations_comments.bao")).expect("read");
    let mut c = Count::default();
    visit_reader(&text[..], &mut c).expect("in memory");
    let parsed = parse_record(std::str::from_utf8(&text).expect("utf-8"));
    fn moves(elems: &[Spanned<Element>]) -> usize {
        elems
            .iter()
            .map(|e| match &e.value {
                Element::Move(_) => 1,
                Element::Variation(v) => moves(v),
                Element::Comment(_) => 0,
            })
            .sum()
    }
    let expected: usize = parsed
        .record
        .games
        .iter()
        .map(|g| moves(&g.value.movetext))
        .sum();
    assert!(expected > 10);
    assert_eq!((c.0, c.1), (expected, parsed.record.games.len()));
}
