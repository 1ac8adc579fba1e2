//! A never-ending move's annotation: its laps up to the cycle's start, then `cycle:L+P`
//! (`spec/notation.md` §3), written by `annotate` and checked against the replay.
use bao_validate::annotated_text;
use miette::{GraphicalReportHandler, GraphicalTheme};

use crate::{check, codes, fixtures_dir};

/// Mancala World Problem 3 played under `endless_move=draw`, without annotations.
fn problem_3() -> String {
    std::fs::read_to_string(fixtures_dir().join("diagrams/never_ending_draw.bao")).unwrap()
}

fn never_ending(name: &str) -> String {
    std::fs::read_to_string(fixtures_dir().join("annotation/never_ending").join(name)).unwrap()
}

/// The annotation written after `12. A3<*`.
fn last_annotation(text: &str) -> &str {
    let at = text
        .find("12. A3<* [")
        .expect("the never-ending move, annotated")
        + 9;
    let end = at + text[at..].find(']').unwrap() + 1;
    &text[at..end]
}

#[test]
fn annotate_summarises_the_cycle_and_its_output_checks_clean() {
    let annotated = annotated_text(&check("p3.bao", &problem_3()));
    assert_eq!(last_annotation(&annotated), "[B2:2 cycle:1+228]");
    // Before the cycle item: 546 lap ends on one move.
    assert!(annotated.len() < 1000, "{annotated}");
    let again = check("p3.bao", &annotated);
    assert_eq!(codes(&again), Vec::<&str>::new(), "{annotated}");
    assert_eq!(annotated_text(&again), annotated, "annotate is idempotent");
    // Only the annotations were added: the record's layout (its moves on one line) stays.
    assert_eq!(annotated.lines().count(), problem_3().lines().count());
    // Written canonically, it is the fixture.
    let parsed = bao_notation::parse_record(&annotated);
    assert!(parsed.errors.is_empty());
    let canonical =
        bao_notation::write_record(&parsed.record, &bao_notation::WriteOptions::default());
    assert_eq!(
        canonical.replace("Mancala World Problem 3, a never-ending move drawn", "x"),
        never_ending("annotated.bao").replace(
            "Mancala World Problem 3, a never-ending move drawn, annotated with its cycle",
            "x"
        ),
        "fixtures/annotation/never_ending/annotated.bao is annotate's output"
    );
}

#[test]
fn the_lap_ends_of_every_lap_the_engine_ran_still_check() {
    // What `bao annotate` wrote before the cycle item: 548 lap ends on `12. A3<*`.
    let text = never_ending("every_lap_kept.bao");
    assert!(last_annotation(&text).split(' ').count() > 500);
    assert_eq!(codes(&check("old.bao", &text)), Vec::<&str>::new());
    // One of them changed is caught.
    let changed = text.replacen("[B2:2 B4:6 A7:5", "[B2:2 B4:6 A7:4", 1);
    assert_ne!(changed, text);
    assert_eq!(
        codes(&check("old.bao", &changed)),
        vec!["bao::annotation::lap_mismatch"]
    );
}

fn render(report: &bao_validate::CheckReport) -> String {
    let handler = GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor())
        .with_width(100)
        .with_links(false);
    let mut out = String::new();
    handler.render_report(&mut out, report).unwrap();
    out
}

#[test]
fn a_wrong_cycle_is_a_lap_mismatch() {
    insta::glob!(
        "../../../../fixtures",
        "annotation/never_ending/*.bao",
        |path| {
            let name = path.file_name().unwrap().to_str().unwrap();
            let text = std::fs::read_to_string(path).unwrap();
            let c = check(name, &text);
            if matches!(name, "annotated.bao" | "every_lap_kept.bao") {
                assert_eq!(codes(&c), Vec::<&str>::new(), "{name}");
                return;
            }
            assert_eq!(codes(&c), vec!["bao::annotation::lap_mismatch"], "{name}");
            insta::assert_snapshot!(render(&c.report));
        }
    );
}

#[test]
fn nothing_may_follow_the_cycle_item() {
    let text = never_ending("annotated.bao").replace("cycle:1+228]", "cycle:1+228 A4]");
    assert_eq!(
        codes(&check("after.bao", &text)),
        vec!["bao::syntax::bad_annotation"]
    );
    let twice = never_ending("annotated.bao").replace("cycle:1+228]", "cycle:1+228 cycle:1+228]");
    assert_eq!(
        codes(&check("twice.bao", &twice)),
        vec!["bao::syntax::bad_annotation"]
    );
}
