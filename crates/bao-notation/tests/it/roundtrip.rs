use bao_core::{Pit, Row, Side, Sign};
use bao_notation::{
    parse_record, Annotation, AnnotationItem, Comment, CommentKind, Element, Game, GameResult,
    ItemKind, MoveItem, MoveToken, Nag, PitRef, Record, Spanned, Tag, WriteOptions, KNOWN_TAGS,
};
use proptest::prelude::*;

fn pit() -> impl Strategy<Value = Pit> {
    (any::<bool>(), any::<bool>(), 1u8..=8).prop_map(|(north, back, n)| {
        let side = if north { Side::North } else { Side::South };
        let row = if back { Row::Back } else { Row::Front };
        Pit::new(side, row, n).unwrap()
    })
}

fn token() -> impl Strategy<Value = MoveToken> {
    (
        prop_oneof![9 => pit().prop_map(PitRef::Pit), 1 => (1u8..=8).prop_map(PitRef::Number)],
        prop_oneof![Just(None), Just(Some(Sign::Left)), Just(Some(Sign::Right))],
        0u8..4,
        any::<bool>(),
    )
        .prop_map(|(pit, sign, kind, claims_win)| MoveToken {
            pit,
            sign,
            takasa: kind == 1 || kind == 2,
            claims_takasia: kind == 2,
            safari: kind == 3,
            claims_win,
        })
}

fn annotation() -> impl Strategy<Value = Annotation> {
    prop::collection::vec(
        (any::<bool>(), pit(), prop::option::of(any::<u8>())).prop_map(|(x, pit, seeds)| {
            Spanned::bare(AnnotationItem {
                kind: if x {
                    ItemKind::Capture
                } else {
                    ItemKind::LapEnd
                },
                pit,
                seeds,
            })
        }),
        0..5,
    )
    .prop_flat_map(|items| {
        // A never-ending move's cycle item, now and then.
        prop::option::weighted(0.2, (1..=u64::MAX, 1..=u64::MAX)).prop_map(move |cycle| {
            Annotation {
                items: items.clone(),
                cycle: cycle.map(|(cycle_start_lap, period)| {
                    Spanned::bare(bao_core::NeverEnding {
                        cycle_start_lap,
                        period,
                    })
                }),
            }
        })
    })
}

fn move_item() -> impl Strategy<Value = MoveItem> {
    (
        token(),
        prop::collection::vec(any::<u8>().prop_map(|n| Spanned::bare(Nag(n))), 0..3),
        prop::option::of(annotation()),
    )
        .prop_map(|(t, nags, annotation)| MoveItem {
            number: None,
            token: Spanned::bare(t),
            nags,
            annotation: annotation.map(Spanned::bare),
        })
}

fn comment() -> impl Strategy<Value = Comment> {
    prop_oneof![
        "[^}\\[\r]{0,30}".prop_map(|text| Comment {
            kind: CommentKind::Brace,
            text
        }),
        "[^\n\r\\[]{0,30}".prop_map(|text| Comment {
            kind: CommentKind::Line,
            text
        }),
    ]
}

/// A line: moves with comments and variations; a variation follows a move.
fn line(depth: u32) -> BoxedStrategy<Vec<Spanned<Element>>> {
    let item = if depth == 0 {
        prop_oneof![
            4 => move_item().prop_map(|m| vec![Element::Move(m)]),
            1 => comment().prop_map(|c| vec![Element::Comment(c)]),
        ]
        .boxed()
    } else {
        prop_oneof![
            4 => move_item().prop_map(|m| vec![Element::Move(m)]),
            1 => comment().prop_map(|c| vec![Element::Comment(c)]),
            1 => (move_item(), line(depth - 1))
                .prop_map(|(m, v)| vec![Element::Move(m), Element::Variation(v)]),
        ]
        .boxed()
    };
    prop::collection::vec(item, 1..8)
        .prop_map(|parts| parts.into_iter().flatten().map(Spanned::bare).collect())
        .boxed()
}

fn tags() -> impl Strategy<Value = Vec<Spanned<Tag>>> {
    let value = "[^\n\r\\p{Cc}]{0,20}";
    (
        prop::sample::subsequence(KNOWN_TAGS.to_vec(), 1..6),
        prop::collection::vec(value, 6),
        prop::option::of("X[a-z0-9_]{1,8}"),
    )
        .prop_map(|(names, values, extra)| {
            let mut out: Vec<Spanned<Tag>> = names
                .into_iter()
                .zip(&values)
                .map(|(n, v)| Spanned::bare(Tag::new(n, v)))
                .collect();
            if let Some(x) = extra {
                out.push(Spanned::bare(Tag::new(&x, &values[5])));
            }
            out
        })
}

fn game() -> impl Strategy<Value = Spanned<Game>> {
    (
        prop::collection::vec(comment().prop_map(Spanned::bare), 0..3),
        tags(),
        prop_oneof![Just(Vec::new()), line(3)],
        prop_oneof![
            Just(GameResult::SouthWins),
            Just(GameResult::NorthWins),
            Just(GameResult::Draw),
            Just(GameResult::Unknown)
        ],
    )
        .prop_map(|(comments, tags, movetext, result)| {
            Spanned::bare(Game {
                comments,
                tags,
                movetext,
                result: Some(Spanned::bare(result)),
            })
        })
}

fn record() -> impl Strategy<Value = Record> {
    prop::collection::vec(game(), 1..4).prop_map(|games| {
        let mut r = Record { games };
        r.canonicalize();
        r
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn parse_of_write_is_identity(r in record()) {
        let text = bao_notation::write_record(&r, &WriteOptions::default());
        let parsed = parse_record(&text);
        // Tag values are random, so Position and Directions may be unreadable; nothing else
        // may be wrong.
        let unexpected: Vec<_> = parsed
            .errors
            .iter()
            .filter(|e| !matches!(e.code.slug(), "bad_position" | "unknown_directions"))
            .collect();
        prop_assert!(unexpected.is_empty(), "{:#?}\n{}", unexpected, text);
        prop_assert_eq!(&parsed.record, &r, "{}", text);
        let again = bao_notation::write_record(&parsed.record, &WriteOptions::default());
        prop_assert_eq!(again, text);
    }

    #[test]
    fn narrow_widths_keep_the_record(r in record(), width in 1usize..40) {
        let text = bao_notation::write_record(&r, &WriteOptions { width, ..WriteOptions::default() });
        prop_assert_eq!(parse_record(&text).record, r);
    }

    #[test]
    fn any_text_parses_without_panic(s in "\\PC{0,200}") {
        let parsed = parse_record(&s);
        for e in &parsed.errors {
            prop_assert!(e.span.end <= s.len());
            prop_assert!(s.is_char_boundary(e.span.start) && s.is_char_boundary(e.span.end));
        }
        let out = bao_notation::write_record(&parsed.record, &WriteOptions::default());
        let twice = bao_notation::write_record(&parse_record(&out).record, &WriteOptions::default());
        prop_assert_eq!(twice, out);
    }

    #[test]
    fn token_soup_parses_without_panic(
        parts in prop::collection::vec(
            prop_oneof![
                Just("A6<*"), Just("1."), Just("2..."), Just("("), Just(")"), Just("{"),
                Just("}"), Just("["), Just("]"), Just("[Event \"x\"]\n"), Just("\""),
                Just("$"), Just("$3"), Just("!?"), Just("*"), Just("1-0"), Just(";c\n"),
                Just("xa5:3"), Just("\n"), Just(" "), Just("a8"), Just("6L"), Just("\\"),
            ],
            0..60,
        )
    ) {
        let s: String = parts.concat();
        let parsed = parse_record(&s);
        let out = bao_notation::write_record(&parsed.record, &WriteOptions::default());
        let twice = bao_notation::write_record(&parse_record(&out).record, &WriteOptions::default());
        prop_assert_eq!(twice, out, "{:?}", s);
    }
}
