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
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if name.starts_with("dialect_") {
                // Written in a dialect on purpose; only idempotence applies.
                continue;
            }
            let text = String::from_utf8(std::fs::read(&path).unwrap()).unwrap_or_default();
            let canonical = if dir == "games" { text } else { fmt(&text) };
            assert_eq!(fmt(&canonical), canonical, "{path:?}");
            seen += 1;
        }
    }
    assert!(seen >= 15);
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
    assert_eq!(out, "1. A6<* [xa5:3 A6] $14 ! !! *\n");
}

#[test]
fn sample_games_parse_cleanly_and_the_dialect_one_reads_like_the_canonical_one() {
    let dir = fixtures().join("games");
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let p = parse_record(&std::fs::read_to_string(&path).unwrap());
        assert!(p.errors.is_empty(), "{path:?}: {:#?}", p.errors);
    }
    let moves = |name: &str| -> Vec<String> {
        let p = parse_record(&std::fs::read_to_string(dir.join(name)).unwrap());
        p.record.games[0]
            .value
            .main_line()
            // The claims `**` and `#` are facts the annotated sample adds; compare the moves.
            .map(|m| {
                m.token
                    .value
                    .to_string()
                    .replace("**", "*")
                    .replace('#', "")
            })
            .collect()
    };
    let canonical = moves("preset_kiswahili.bao");
    assert!(canonical.len() > 20);
    assert_eq!(moves("dialect_kiba.bao"), canonical);
}

/// The sample games are real: every main-line move is legal on the engine.
#[test]
fn sample_games_replay_on_the_engine() {
    let dir = fixtures().join("games");
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        for g in parse_record(&std::fs::read_to_string(&path).unwrap())
            .record
            .games
        {
            let g = g.value;
            let preset = g.tag("RuleSet").map_or("kiswahili", |v| v.value.as_str());
            let rules = bao_core::RuleSet::preset(preset).unwrap();
            let mut pos = match g.position() {
                Some(p) => bao_core::Position::from_setup(p.to_setup(rules)).unwrap(),
                None => bao_core::Position::start(rules),
            };
            for m in g.main_line() {
                let spec = m.token.value.spec().unwrap();
                let mv = pos
                    .resolve(&spec)
                    .unwrap_or_else(|e| panic!("{path:?}: {e:?}"));
                pos = pos.play(&mv).unwrap().0;
            }
        }
    }
}
