//! `write_record_over`: a changed record written over its text keeps what did not change.

use bao_notation::{
    parse_record, write_record_over, Element, GameResult, Record, Spanned, Tag, WriteOptions,
};

use crate::fixtures;

fn record(text: &str) -> Record {
    let parsed = parse_record(text);
    assert!(!parsed.has_errors(), "{text}: {:?}", parsed.errors);
    parsed.record
}

/// The move elements of a line of canonical text (`1. A6< a6>`), to push into a game.
fn moves(text: &str) -> Vec<Spanned<Element>> {
    record(&format!("{text} *")).games[0].value.movetext.clone()
}

fn over(source: &str, r: &Record) -> String {
    write_record_over(source, r, &WriteOptions::default())
}

#[test]
fn an_unchanged_record_keeps_every_byte_of_every_fixture() {
    let mut seen = 0;
    for dir in ["games", "format", "annotation", "archive", "assume_fixes"] {
        let Ok(entries) = std::fs::read_dir(fixtures().join(dir)) else {
            continue;
        };
        for e in entries {
            let path = e.unwrap().path();
            if path.extension().is_none_or(|x| x != "bao") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let parsed = parse_record(&text);
            if parsed.has_errors() {
                continue;
            }
            assert_eq!(over(&text, &parsed.record), text, "{}", path.display());
            seen += 1;
        }
    }
    assert!(seen > 20, "only {seen} fixtures read");
}

#[test]
fn a_ply_added_keeps_the_letters_the_layout_and_the_comments() {
    let source = "[Event \"x\"]\n\n{start} 1. A6L a6R ; a line comment\n2.A4R   *\n";
    let mut r = record(source);
    r.games[0].value.movetext.extend(moves("1. a5<*"));
    assert_eq!(
        over(source, &r),
        "[Event \"x\"]\n\n{start} 1. A6L a6R ; a line comment\n2.A4R a5L*   *\n"
    );
}

#[test]
fn a_ply_after_a_line_comment_starts_a_line() {
    let source = "[Event \"x\"]\n\n1. A6< ; c\n*\n";
    let mut r = record(source);
    r.games[0].value.movetext.extend(moves("1... a5<*"));
    assert_eq!(
        over(source, &r),
        "[Event \"x\"]\n\n1. A6< ; c\n1... a5<*\n*\n"
    );
}

#[test]
fn the_first_ply_goes_before_the_result() {
    let source = "[Event \"x\"]\r\n\r\n*\r\n";
    let mut r = record(source);
    r.games[0].value.movetext.extend(moves("1. A6<"));
    assert_eq!(over(source, &r), "[Event \"x\"]\r\n\r\n1. A6< *\r\n");
}

#[test]
fn plies_taken_back_lose_their_text_and_a_result_its_token() {
    let source = "[Event \"x\"]\n\n1. A6L a6R\n2. A4R 1-0\n";
    let mut r = record(source);
    r.games[0].value.movetext.truncate(2);
    r.games[0].value.result = Some(Spanned::bare(GameResult::Unknown));
    assert_eq!(
        over(source, &r),
        "[Event \"x\"]\n\n1. A6L a6R 1-0\n".replace("1-0", "*")
    );
    r.games[0].value.movetext.clear();
    assert_eq!(over(source, &r), "[Event \"x\"]\n\n*\n");
}

#[test]
fn a_long_line_is_wrapped_where_the_text_ends() {
    let line = "1. A6< a6> ".repeat(7);
    let source = format!("[Event \"x\"]\n\n{line}*\n");
    let mut r = record(&source);
    r.games[0].value.movetext.extend(moves("1. A4< a4>"));
    let text = over(&source, &r);
    assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
    assert!(
        text.starts_with(&format!("[Event \"x\"]\n\n{}", line.trim_end())),
        "{text}"
    );
    // Numbered as the canonical writer numbers them.
    assert!(text.ends_with("8. A4< a4> *\n"), "{text}");
    let tokens = |r: &Record| -> Vec<String> {
        r.games[0]
            .value
            .main_line()
            .map(|m| m.token.value.to_string())
            .collect()
    };
    assert_eq!(tokens(&record(&text)), tokens(&r));
}

#[test]
fn tags_change_one_by_one() {
    let source = "; before\n[Event \"x\"] [Site \"y\"]\n[Result \"*\"]\n\n1. A6L *\n";
    let mut r = record(source);
    let g = &mut r.games[0].value;
    g.tags.retain(|t| t.value.name.value != "Site");
    g.tags[1].value.value.value = "1-0".into();
    g.tags
        .push(Spanned::bare(Tag::new("Termination", "resignation")));
    g.result = Some(Spanned::bare(GameResult::SouthWins));
    assert_eq!(
        over(source, &r),
        "; before\n[Event \"x\"]\n[Result \"1-0\"]\n[Termination \"resignation\"]\n\n1. A6L 1-0\n"
    );
}

#[test]
fn games_are_added_after_a_blank_line_and_removed_whole() {
    let source = "[Event \"x\"]\n\n1. A6L a6R *\n";
    let mut r = record(source);
    let mut next = record("[Event \"x\"]\n[Game \"2\"]\n\n1. A6< *")
        .games
        .remove(0);
    next.value.movetext.clear();
    r.games.push(next);
    let two = over(source, &r);
    assert_eq!(
        two,
        "[Event \"x\"]\n\n1. A6L a6R *\n\n[Event \"x\"]\n[Game \"2\"]\n\n*\n"
    );
    // The new game's first ply in the record's letters.
    let mut r2 = record(&two);
    r2.games[1].value.movetext.extend(moves("1. A6<"));
    assert_eq!(
        over(&two, &r2),
        "[Event \"x\"]\n\n1. A6L a6R *\n\n[Event \"x\"]\n[Game \"2\"]\n\n1. A6L *\n"
    );
    r2.games.pop();
    assert_eq!(over(&two, &r2), source);
}

#[test]
fn a_source_that_does_not_parse_is_written_canonically() {
    let r = record("[Event \"x\"]\n\n1. A6L *\n");
    assert_eq!(over("[Event \"x\n", &r), "[Event \"x\"]\n\n1. A6< *\n");
}

#[test]
fn a_ply_taken_back_takes_its_annotation_and_glyphs_along() {
    let source = "[Event \"x\"]\n\n1. A7>* [B7:1] a6<* [a3:1] 2. A6> ! $14 [A2:1] 1-0\n";
    let mut r = record(source);
    r.games[0].value.movetext.pop();
    assert_eq!(
        over(source, &r),
        "[Event \"x\"]\n\n1. A7>* [B7:1] a6<* [a3:1] 1-0\n"
    );
    r.games[0].value.movetext.pop();
    r.games[0].value.movetext.extend(moves("1... a5<"));
    assert_eq!(
        over(source, &r),
        "[Event \"x\"]\n\n1. A7>* [B7:1] a5< 1-0\n"
    );
}

#[test]
fn comments_glyphs_and_variations_go_between_the_moves_they_follow() {
    let source = "[Event \"x\"]\n\n1. A6L a6R {old} 2. A4R\na5R *\n";
    let mut r = record(source);
    let g = &mut r.games[0].value;
    let comment = |t: &str| Spanned::bare(Element::Comment(bao_notation::Comment::brace(t)));
    // A comment after the first move, a glyph on the second and a variation after it, the
    // old comment gone, a comment before the first move.
    g.movetext.remove(2);
    if let Element::Move(m) = &mut g.movetext[1].value {
        m.nags.push(Spanned::bare(bao_notation::Nag(2)));
    }
    g.movetext
        .insert(2, Spanned::bare(Element::Variation(moves("1... a5<"))));
    g.movetext.insert(1, comment("e1"));
    g.movetext.insert(0, comment("start"));
    assert_eq!(
        over(source, &r),
        "[Event \"x\"]\n\n{start} 1. A6L {e1} a6R? (1... a5L) 2. A4R\na5R *\n"
    );
}

#[test]
fn an_insertion_that_makes_a_line_too_long_breaks_it() {
    let source = format!(
        "[Event \"x\"]\n\n{} *\n",
        "1. A6< a6> ".repeat(7).trim_end()
    );
    let mut r = record(&source);
    let comment = Spanned::bare(Element::Comment(bao_notation::Comment::brace(
        "[%eval 0.25]",
    )));
    r.games[0].value.movetext.insert(1, comment);
    let text = over(&source, &r);
    assert!(text.contains("1. A6< {[%eval 0.25]}\na6> 1. A6<"), "{text}");
}
