use bao_notation::{parse_bytes, parse_record, write_record, WriteOptions};

use crate::fixtures;

fn fmt(text: &str) -> String {
    write_record(&parse_record(text).record, &WriteOptions::default())
}

#[test]
fn format_fixtures_have_their_canonical_form() {
    insta::glob!("../../../../fixtures", "format/*.bao", |path| {
        let (_, parsed) = parse_bytes(&std::fs::read(path).unwrap());
        assert!(parsed.errors.is_empty(), "{path:?}: {:#?}", parsed.errors);
        let out = write_record(&parsed.record, &WriteOptions::default());
        // The canonical form is a fixed point, and differs from the input.
        assert_eq!(fmt(&out), out);
        assert_ne!(std::fs::read(path).unwrap(), out.as_bytes());
        assert_eq!(parse_record(&out).record, {
            let mut r = parsed.record.clone();
            r.canonicalize();
            r
        });
        for line in out
            .lines()
            .filter(|l| !l.starts_with('[') && !l.contains('{'))
        {
            assert!(line.chars().count() <= 80, "long line {line:?}");
        }
        insta::assert_snapshot!(out);
    });
}

/// `write(parse(s)) == s` for every canonical text in the repository.
#[test]
fn canonical_texts_are_written_back_unchanged() {
    let mut seen = 0;
    for dir in ["games", "format"] {
        let Ok(entries) = std::fs::read_dir(fixtures().join(dir)) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            let text = String::from_utf8(std::fs::read(&path).unwrap()).unwrap_or_default();
            let canonical = if dir == "games" { text } else { fmt(&text) };
            assert_eq!(fmt(&canonical), canonical, "{path:?}");
            seen += 1;
        }
    }
    assert!(seen >= 8);
}

#[test]
fn fmt_is_idempotent_on_every_fixture() {
    insta::glob!("../../../../fixtures", "**/*.bao", |path| {
        let (text, _) = parse_bytes(&std::fs::read(path).unwrap());
        let once = fmt(&text);
        assert_eq!(fmt(&once), once, "{path:?}");
    });
}

#[test]
fn dialects_become_canonical() {
    let out = fmt("[Event \"x\"]\n1.A6L* a5r* 2. 6l a8 3.A3R**# *");
    assert_eq!(out, "[Event \"x\"]\n\n1. A6<* a5>* 2. 6< a8 3. A3>**# *\n");
}

#[test]
fn glyphs_attach_and_other_nags_follow_the_annotation() {
    let out = fmt("1. A6<* $14 ! [xa5:3 A6] $3 *");
    assert_eq!(out, "1. A6<* [xa5:3 A6] $14 $1 $3 *\n");
}
