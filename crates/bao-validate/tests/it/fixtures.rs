use bao_validate::json::report_json;
use bao_validate::words::Lang;
use bao_validate::{check_full, AnyDiagnostic, CheckOptions, ALL_CODES};
use miette::{GraphicalReportHandler, GraphicalTheme};
use std::sync::Arc;

use crate::{check, codes, fixtures_dir};

fn render(report: &bao_validate::CheckReport) -> String {
    let handler = GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor())
        .with_width(80)
        .with_links(false);
    let mut out = String::new();
    handler.render_report(&mut out, report).unwrap();
    out
}

fn slug_code(path: &std::path::Path) -> String {
    let area = path
        .parent()
        .unwrap()
        .file_name()
        .unwrap()
        .to_str()
        .unwrap();
    let slug = path.file_stem().unwrap().to_str().unwrap();
    format!("bao::{area}::{slug}")
}

/// The lap budget the fixtures of `invalid/budget/` are checked under.
const LAP_BUDGET: u64 = 10_000;

#[test]
fn each_fixture_has_exactly_its_code() {
    insta::glob!(
        "../../../../fixtures",
        "invalid/{illegal,annotation,record,budget}/*.bao",
        |path| {
            let text = std::fs::read_to_string(path).unwrap();
            let name = path.file_name().unwrap().to_str().unwrap();
            let checked = if slug_code(path).starts_with("bao::budget::") {
                // The budget's codes need a budget (each engine starts with an empty memo of
                // relay cycles, so no earlier decision in the process makes it suffice).
                let opts = CheckOptions {
                    lap_budget: Some(LAP_BUDGET),
                    ..CheckOptions::default()
                };
                check_full(name, Arc::from(text.as_str()), &opts)
            } else {
                check(name, &text)
            };
            let expected = slug_code(path);
            let got = codes(&checked);
            assert!(
                !got.is_empty() && got.iter().all(|c| *c == expected),
                "{name}: expected only {expected}, got {got:?}"
            );
            insta::assert_snapshot!("rendered", render(&checked.report));
            let json: Vec<String> = report_json(&checked.report)
                .iter()
                .map(|v| serde_json::to_string_pretty(v).unwrap())
                .collect();
            insta::assert_snapshot!("json", json.join("\n"));
        }
    );
}

/// Each fixture's diagnostics in Kiswahili (`--lang sw`): the same codes, spans and JSON
/// keys as in English, the words of the Kiswahili catalogue; a snapshot beside the English
/// one.
#[test]
fn each_fixture_in_kiswahili() {
    insta::glob!(
        "../../../../fixtures",
        "invalid/{illegal,annotation,record,budget}/*.bao",
        |path| {
            let text = std::fs::read_to_string(path).unwrap();
            let name = path.file_name().unwrap().to_str().unwrap();
            let budget = slug_code(path)
                .starts_with("bao::budget::")
                .then_some(LAP_BUDGET);
            let opts = |lang| CheckOptions {
                lap_budget: budget,
                lang,
                ..CheckOptions::default()
            };
            let sw = check_full(name, Arc::from(text.as_str()), &opts(Lang::Sw));
            let en = check_full(name, Arc::from(text.as_str()), &opts(Lang::En));
            // The codes, places and JSON keys do not depend on the language.
            assert_eq!(codes(&sw), codes(&en), "{name}");
            let keys = |c: &bao_validate::Checked| -> Vec<Vec<String>> {
                report_json(&c.report)
                    .iter()
                    .map(|v| v["data"].as_object().unwrap().keys().cloned().collect())
                    .collect()
            };
            assert_eq!(keys(&sw), keys(&en), "{name}");
            for (s, e) in sw.report.diagnostics.iter().zip(&en.report.diagnostics) {
                assert_eq!(s.span(), e.span(), "{name}");
            }
            let rendered = render(&sw.report);
            assert_ne!(rendered, render(&en.report), "{name}: nothing in Kiswahili");
            insta::assert_snapshot!("rendered_sw", rendered);
        }
    );
}

#[test]
fn every_code_has_a_fixture_a_snapshot_and_a_spec_entry() {
    let snaps = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/snapshots");
    let spec = std::fs::read_to_string(fixtures_dir().join("../spec/diagnostics.md")).unwrap();
    let mut missing = Vec::new();
    for code in ALL_CODES {
        let mut parts = code.split("::").skip(1);
        let (area, slug) = (parts.next().unwrap(), parts.next().unwrap());
        if !spec.contains(&format!("### `{code}`")) {
            missing.push(format!("spec/diagnostics.md heading for {code}"));
        }
        let fixture = fixtures_dir().join(format!("invalid/{area}/{slug}.bao"));
        if !fixture.is_file() {
            missing.push(format!("fixture {}", fixture.display()));
        }
        for kind in ["rendered", "json", "rendered_sw"] {
            let snap = snaps.join(format!("it__fixtures__{kind}@{area}__{slug}.bao.snap"));
            if !snap.is_file() {
                missing.push(format!("snapshot {}", snap.display()));
            }
        }
    }
    assert!(missing.is_empty(), "missing: {missing:#?}");
    // Every code links to a heading of spec/rules.md.
    let rules = std::fs::read_to_string(fixtures_dir().join("../spec/rules.md")).unwrap();
    for code in bao_validate::Code::ALL {
        let anchor = code.anchor();
        assert!(
            rules.contains(&format!("<a id=\"{anchor}\"></a>"))
                || rules.contains(&format!("## {}", capital(anchor))),
            "{code}: no anchor {anchor} in spec/rules.md"
        );
    }
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// Records with plies swapped or missing (`fixtures/invalid/repair/`): the error at the first
/// ply the slip breaks, with the swap or insertion as the best repair.
#[test]
fn ply_repair_fixtures_are_rendered() {
    insta::glob!("../../../../fixtures", "invalid/repair/*.bao", |path| {
        let text = std::fs::read_to_string(path).unwrap();
        let name = path.file_name().unwrap().to_str().unwrap();
        let checked = check(name, &text);
        assert!(!codes(&checked).is_empty(), "{name}: no diagnostic");
        insta::assert_snapshot!("rendered", render(&checked.report));
        let json: Vec<String> = report_json(&checked.report)
            .iter()
            .map(|v| serde_json::to_string_pretty(v).unwrap())
            .collect();
        insta::assert_snapshot!("json", json.join("\n"));
    });
}

/// A lap budget changes nothing where every decision fits in it: the valid games and every
/// invalid fixture give the same report with a generous budget as exactly.
#[test]
fn a_budget_that_suffices_changes_no_report() {
    let opts = CheckOptions {
        lap_budget: Some(1_000_000),
        ..CheckOptions::default()
    };
    for dir in [
        "games",
        "invalid/illegal",
        "invalid/annotation",
        "invalid/record",
        "invalid/repair",
    ] {
        for entry in std::fs::read_dir(fixtures_dir().join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "bao") {
                continue;
            }
            let text: Arc<str> = Arc::from(std::fs::read_to_string(&path).unwrap());
            let name = path.display().to_string();
            let exact = check_full(&name, text.clone(), &CheckOptions::default());
            let budgeted = check_full(&name, text, &opts);
            assert_eq!(render(&budgeted.report), render(&exact.report), "{name}");
            assert_eq!(budgeted.report.stats, exact.report.stats, "{name}");
        }
    }
}

/// Under a budget too small for a long cycle met for the first time, the plies before it are
/// checked as usual and the game stops at it.
#[test]
fn the_undecided_ply_stops_its_game_only() {
    let text = "[Event \"e\"]\n\
        [Position \"3,1,4,1,8,5,0,1/18,0,1,2,1,2,10,0/0,1,0,0,0,0,0,0/1,1,0,1,1,0,1,1 0/0 S XX -\"]\n\n\
        1. A1>* *\n\n\
        [Event \"f\"]\n\n1. A6<* a6<* 2. B1< *\n";
    let opts = CheckOptions {
        lap_budget: Some(LAP_BUDGET),
        ..CheckOptions::default()
    };
    let checked = check_full("t", Arc::from(text), &opts);
    let got: Vec<(&str, usize)> = checked
        .report
        .diagnostics
        .iter()
        .filter_map(|d| match d {
            AnyDiagnostic::Check(c) => Some((d.code(), c.game)),
            AnyDiagnostic::Syntax(_) => None,
        })
        .collect();
    assert_eq!(
        got,
        [
            ("bao::budget::undecided", 1),
            ("bao::illegal::capture_mandatory", 2)
        ]
    );
    // Exactly, the same move is never-ending.
    let exact = check("t", text);
    assert_eq!(
        codes(&exact),
        [
            "bao::illegal::never_ending",
            "bao::illegal::capture_mandatory"
        ]
    );
}

/// An impossible `Position` tag: the help shows the start of the game's own rule set (Kete
/// under `RuleSet "kete"`, Kujifunza's board of twos under its own).
#[test]
fn invalid_position_help_shows_the_games_own_start() {
    use miette::Diagnostic as _;
    let help = |text: &str| -> String {
        let c = check("p.bao", text);
        assert_eq!(codes(&c), ["bao::record::invalid_position"], "{text}");
        let help = c.report.diagnostics[0].help().unwrap().to_string();
        help
    };
    let kete = help(
        "[RuleSet \"kete\"]\n[Position \"0,0,0,0,3,2,2,0/0,0,0,0,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 22/22 S FF -\"]\n\n*\n",
    );
    assert!(
        kete.ends_with(
            "The start position of kete is \
             0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 22/22 S FF -"
        ),
        "{kete}"
    );
    let kujifunza = help(
        "[RuleSet \"kujifunza\"]\n[Position \"2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 1/0 S -- -\"]\n\n*\n",
    );
    assert!(
        kujifunza.ends_with(
            "The start position of kujifunza is \
             2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 0/0 S -- -"
        ),
        "{kujifunza}"
    );
}
