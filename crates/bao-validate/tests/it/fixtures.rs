use bao_validate::json::report_json;
use bao_validate::ALL_CODES;
use miette::{GraphicalReportHandler, GraphicalTheme};

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

#[test]
fn each_fixture_has_exactly_its_code() {
    insta::glob!(
        "../../../../fixtures",
        "invalid/{illegal,annotation,record}/*.bao",
        |path| {
            let text = std::fs::read_to_string(path).unwrap();
            let name = path.file_name().unwrap().to_str().unwrap();
            let checked = check(name, &text);
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
        for kind in ["rendered", "json"] {
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
