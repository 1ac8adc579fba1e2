use bao_validate::annotated_text;

use crate::{check, codes, fixtures_dir};

fn games() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(fixtures_dir().join("games")).unwrap() {
        let path = e.unwrap().path();
        if path.extension().is_some_and(|x| x == "bao") {
            let name = path.file_name().unwrap().to_str().unwrap().to_owned();
            out.push((name, std::fs::read_to_string(&path).unwrap()));
        }
    }
    out.sort();
    out
}

#[test]
fn every_sample_game_checks_clean() {
    let games = games();
    assert!(!games.is_empty());
    for (name, text) in games {
        let c = check(&name, &text);
        assert_eq!(codes(&c), Vec::<&str>::new(), "{name}");
        assert!(c.report.stats.plies > 0, "{name}");
    }
}

#[test]
fn annotate_then_check_is_clean_and_annotate_is_idempotent() {
    // The dialect sample keeps its K.I.B.A. letters and carries no annotation.
    for (name, text) in games()
        .into_iter()
        .filter(|(n, _)| !n.starts_with("dialect_"))
    {
        // Strip every annotation and mark, then let the engine write them back.
        let stripped = strip(&text);
        let once = annotated_text(&check(&name, &stripped));
        let c = check(&name, &once);
        assert_eq!(codes(&c), Vec::<&str>::new(), "{name}:\n{once}");
        assert_eq!(annotated_text(&c), once, "{name}");
        assert_eq!(
            once, text,
            "{name}: the fixture is the engine's own annotation"
        );
    }
}

fn strip(text: &str) -> String {
    let mut out = String::new();
    let mut depth = 0;
    for line in text.lines() {
        if line.starts_with('[') && depth == 0 {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        for ch in line.chars() {
            match ch {
                '[' => {
                    // The space before an annotation goes with it.
                    if depth == 0 && out.ends_with(' ') {
                        out.pop();
                    }
                    depth += 1;
                }
                ']' => depth -= 1,
                '#' if depth == 0 => {}
                _ if depth == 0 => out.push(ch),
                _ => {}
            }
        }
        out.push('\n');
    }
    out.replace("**", "*")
}

#[test]
fn one_altered_annotation_is_caught() {
    for (name, text) in games()
        .into_iter()
        .filter(|(n, _)| !n.starts_with("dialect_"))
    {
        // Change the pit of the first lap end written: `[B7:1]` becomes `[B6:1]`.
        let at = text.find(" [").unwrap() + 2;
        let item = &text[at..];
        let skip = usize::from(item.starts_with('x'));
        let digit = at + skip + 1;
        let old = text.as_bytes()[digit];
        let new = if old == b'1' { '2' } else { '1' };
        let mut altered = text.clone();
        altered.replace_range(digit..=digit, &new.to_string());
        let c = check(&name, &altered);
        let got = codes(&c);
        assert!(
            got.first()
                .is_some_and(|c| c.starts_with("bao::annotation::")),
            "{name}: {got:?}"
        );
    }
}
