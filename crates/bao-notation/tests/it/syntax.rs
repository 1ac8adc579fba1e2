use std::sync::Arc;

use bao_notation::{
    parse_bytes, parse_bytes_with, GameReader, Limits, SourcedError, SyntaxCode, SyntaxError,
    SYNTAX_CODES,
};
use miette::{GraphicalReportHandler, GraphicalTheme};

use crate::fixtures;

/// The largest game the `game_too_long` fixture is read with.
const SMALL_LIMIT: usize = 256;

/// The errors the `too_many_errors` fixture is read with.
const FEW_ERRORS: usize = 3;

/// The small limits the fixtures of the limit codes are read with, so that they stay small.
fn small_limits(slug: &str) -> Option<Limits> {
    let d = Limits::DEFAULT;
    Some(match slug {
        "tag_too_long" => Limits {
            max_tag_bytes: 64,
            ..d
        },
        "comment_too_long" => Limits {
            max_comment_bytes: 64,
            ..d
        },
        "too_many_plies" => Limits { max_plies: 6, ..d },
        "too_many_errors" => Limits {
            max_errors: FEW_ERRORS,
            ..d
        },
        _ => return None,
    })
}

fn diagnostics(path: &std::path::Path) -> (Arc<str>, Vec<SyntaxError>) {
    let bytes = std::fs::read(path).unwrap();
    if path.file_stem().unwrap() == "game_too_long" {
        let mut text = String::new();
        let mut errors = Vec::new();
        for g in GameReader::with_limit(&bytes[..], SMALL_LIMIT) {
            let g = g.unwrap();
            if !g.errors.is_empty() {
                text = g.text.to_string();
                errors.extend(g.errors);
            }
        }
        return (Arc::from(text), errors);
    }
    let slug = path.file_stem().unwrap().to_str().unwrap();
    if let Some(limits) = small_limits(slug) {
        let (text, parsed) = parse_bytes_with(&bytes, &limits);
        let mut errors = parsed.errors;
        if slug == "too_many_errors" {
            // The first errors are reported as usual; the fixture's own one follows them.
            let (own, others): (Vec<_>, Vec<_>) = errors
                .into_iter()
                .partition(|e| e.code == SyntaxCode::TooManyErrors);
            assert_eq!(others.len(), FEW_ERRORS, "{others:#?}");
            errors = own;
        }
        return (Arc::from(text), errors);
    }
    let (text, parsed) = parse_bytes(&bytes);
    (Arc::from(text), parsed.errors)
}

fn render(name: &str, text: &Arc<str>, errors: &[SyntaxError]) -> String {
    let handler =
        GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor()).with_width(80);
    let mut out = String::new();
    for e in errors {
        let d = SourcedError::new(name, Arc::clone(text), e.clone());
        handler.render_report(&mut out, &d).unwrap();
    }
    out
}

#[test]
fn each_fixture_has_exactly_its_diagnostic() {
    insta::glob!("../../../../fixtures", "invalid/syntax/*.bao", |path| {
        let slug = path.file_stem().unwrap().to_str().unwrap();
        let (text, errors) = diagnostics(path);
        let codes: Vec<&str> = errors.iter().map(|e| e.code.code()).collect();
        assert_eq!(
            codes,
            [format!("bao::syntax::{slug}")],
            "{slug}: {errors:#?}"
        );
        for e in &errors {
            assert!(e.span.end <= text.len() && text.is_char_boundary(e.span.start));
        }
        let name = path.file_name().unwrap().to_str().unwrap();
        insta::assert_snapshot!(render(name, &text, &errors));
    });
}

#[test]
fn every_code_has_a_fixture_and_a_snapshot() {
    let dir = fixtures().join("invalid/syntax");
    let snaps = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/snapshots");
    let mut missing = Vec::new();
    for code in SYNTAX_CODES {
        let slug = code.strip_prefix("bao::syntax::").unwrap();
        if !dir.join(format!("{slug}.bao")).is_file() {
            missing.push(format!("fixture {slug}.bao"));
        }
        let snap = snaps.join(format!(
            "it__syntax__each_fixture_has_exactly_its_diagnostic@{slug}.bao.snap"
        ));
        if !snap.is_file() {
            missing.push(format!("snapshot for {slug}"));
        }
    }
    assert!(missing.is_empty(), "missing: {missing:?}");
    // And no fixture without a code.
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        let slug = name.strip_suffix(".bao").unwrap();
        assert!(
            SYNTAX_CODES.contains(&format!("bao::syntax::{slug}").as_str()),
            "{name} names no code"
        );
    }
}

#[test]
fn codes_match_the_enum() {
    let from_enum: Vec<&str> = SyntaxCode::ALL.iter().map(|c| c.code()).collect();
    assert_eq!(from_enum, SYNTAX_CODES);
}

#[test]
fn the_limit_codes_are_in_the_spec() {
    let spec = std::fs::read_to_string(fixtures().join("../spec/notation.md")).unwrap();
    let diagnostics = std::fs::read_to_string(fixtures().join("../spec/diagnostics.md")).unwrap();
    for slug in [
        "variation_too_deep",
        "game_too_long",
        "tag_too_long",
        "comment_too_long",
        "too_many_plies",
        "too_many_errors",
    ] {
        assert!(
            spec.contains(&format!("| `{slug}` |")),
            "notation.md: {slug}"
        );
        assert!(
            diagnostics.contains(&format!("`{slug}`")),
            "diagnostics.md: {slug}"
        );
    }
}

/// The codes and helps of the syntax errors of a text.
fn helps(text: &str) -> Vec<(String, String)> {
    bao_notation::parse_record(text)
        .errors
        .iter()
        .map(|e| {
            use miette::Diagnostic;
            (
                e.code().map(|c| c.to_string()).unwrap_or_default(),
                e.help().map(|h| h.to_string()).unwrap_or_default(),
            )
        })
        .collect()
}

#[test]
fn a_result_followed_by_moves_on_its_line_is_reported_with_a_reading() {
    let got = helps("1. A6L * a6R 2. A7R *\n");
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].0, "bao::syntax::moves_after_result");
    assert!(got[0].1.contains("did you mean `A6L*`"), "{got:?}");
    // A move that already has its `*`: no reading offered, the same code.
    let got = helps("1. A6<* * a6<* *\n");
    assert_eq!(got[0].0, "bao::syntax::moves_after_result");
    assert!(!got[0].1.contains("did you mean"), "{got:?}");
    // The count goes on after the result: the game was not over.
    let got = helps("1. A6<* * 1... a6<* *\n");
    assert_eq!(got[0].0, "bao::syntax::moves_after_result");
    // Games without tags that begin as games do are no slip, on one line or on several.
    assert!(helps("1. A6<* *\n1. A7>* *\n").is_empty());
    assert!(helps("1. A6<* * 1. A7>* *\n").is_empty());
}

#[test]
fn two_moves_run_together_get_a_missing_space_hint() {
    let got = helps("1. A6L*a6R 2. A7R *\n");
    assert_eq!(got[0].0, "bao::syntax::bad_move");
    assert!(got[0].1.starts_with("missing space? `A6L* a6R`"), "{got:?}");
    let got = helps("1. A6L*q *\n");
    assert!(!got[0].1.contains("missing space"), "{got:?}");
}

/// A diagnostic on a long line shows that line cut around the span: the caret stays on the
/// terminal's line.
#[test]
fn a_long_line_is_cut_around_the_span() {
    let mut line = "1. A6<* a6<* ".repeat(20);
    line.push_str("A9< *");
    let text: Arc<str> = Arc::from(format!("[Event \"x\"]\n\n{line}\n").as_str());
    let errors = bao_notation::parse_record(&text).errors;
    assert_eq!(errors.len(), 1, "{errors:?}");
    let shown = render("long.bao", &text, &errors);
    assert!(shown.contains("A9<"), "{shown}");
    assert!(
        shown.contains(&format!("long.bao:3:{}", line.len() - 4)),
        "{shown}"
    );
    for l in shown.lines() {
        assert!(
            l.chars().count() <= 100,
            "a line of {} chars: {l}",
            l.chars().count()
        );
    }
}

/// A `Position` tag that is no position string: the help shows the start of the game's own
/// rule set, whether its `RuleSet` tag comes before the `Position` tag or after it.
#[test]
fn bad_position_help_shows_the_games_own_start() {
    let help = |text: &str| -> String {
        let parsed = bao_notation::parse_record(text);
        let e: Vec<&SyntaxError> = parsed
            .errors
            .iter()
            .filter(|e| e.code == SyntaxCode::BadPosition)
            .collect();
        assert_eq!(e.len(), 1, "{text}: {:?}", parsed.errors);
        e[0].help.clone().unwrap()
    };
    let bad = "[Position \"0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 22/22 S FF -\"]";
    let kete = help(&format!("[RuleSet \"kete\"]\n{bad}\n\n*\n"));
    assert!(kete.ends_with(
        "the start position of kete is \
         0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 22/22 S FF -"
    ));
    let after = help(&format!("{bad}\n[RuleSet \"kujifunza\"]\n\n*\n"));
    assert!(
        after.ends_with(
            "the start position of kujifunza is \
             2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 0/0 S -- -"
        ),
        "{after}"
    );
    // No RuleSet tag, or one that names no preset: the default's.
    for text in [
        format!("{bad}\n\n*\n"),
        format!("[RuleSet \"chess\"]\n{bad}\n\n*\n"),
    ] {
        assert!(help(&text).contains("the start position of kiswahili is "));
    }
    // The 32 counts of a printed diagram typed into the tag: the position string they make.
    let grid = help(
        "[RuleSet \"kete\"]\n[Position \"0 0 0 0 0 0 0 0 0 2 2 6 0 0 0 0 0 0 0 0 6 2 2 0 0 0 0 0 0 0 0 0\"]\n\n*\n",
    );
    assert!(
        grid.ends_with(
            "as a position string, with South to move: \
             0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 22/22 S FF -"
        ),
        "{grid}"
    );
}
