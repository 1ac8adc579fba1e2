use bao_export::main_line;
use bao_export::{board_svg, game_html, HtmlOptions, Overlay, SvgOptions, Theme};
use bao_validate::{check_bytes, CheckOptions};

const GAME: &str = "[South \"Asha\"]\n[Result \"*\"]\n\n1. A6>* a7>* 2. A7>* a6<* 3. A5>!? \
                    (3. A5> a3< (3... a3> 4. A7<*) 4. A7>*) 3... a3> 4. A7<* $14 {End.} *\n";

/// The attribute `name` of frame `n`.
fn attr(page: &str, n: usize, name: &str) -> String {
    let start = page.find(&format!("id=\"bao-f{n}\"")).expect("the frame");
    let rest = &page[start..];
    let key = format!("{name}=\"");
    let i = rest.find(&key).unwrap() + key.len();
    rest[i..i + rest[i..].find('"').unwrap()].to_owned()
}

/// Frames in record order: 0 start, 1–5 main plies 1–5, 6–7 the variation's 3. A5> a3<,
/// 8–9 the nested 3... a3> 4. A7<*, 10 the variation's 4. A7>*, 11–12 main plies 6–7.
#[test]
fn frames_link_back_forward_and_end_through_variations() {
    let checked = check_bytes("v.bao", GAME.as_bytes(), &CheckOptions::default());
    assert!(checked.report.is_valid(), "{:?}", checked.report);
    let page = game_html(
        &checked.record,
        &checked.replayed,
        0,
        &HtmlOptions::default(),
    )
    .unwrap();
    assert_eq!(page.matches("class=\"bao-frame\"").count(), 13);
    let links: Vec<String> = (0..13)
        .map(|n| {
            format!(
                "{n}: prev {} next {} end {} depth {}",
                attr(&page, n, "data-prev"),
                attr(&page, n, "data-next"),
                attr(&page, n, "data-end"),
                attr(&page, n, "data-depth")
            )
        })
        .collect();
    insta::assert_snapshot!(links.join("\n"));
    // Only the start is shown before the script runs.
    assert_eq!(page.matches("\" hidden>").count(), 12);
    assert!(page.contains("<span class=\"bao-num\">3...</span> <button"));
    assert!(page.contains("<span class=\"bao-nag\"> $14</span>"));
    assert!(page.contains("<p class=\"bao-note\">End.</p>"));
}

/// Each frame is exactly the SVG export's drawing of its position (one drawing code).
#[test]
fn frames_are_the_svg_export() {
    let checked = check_bytes("v.bao", GAME.as_bytes(), &CheckOptions::default());
    let svg = SvgOptions {
        theme: Theme::Dark,
        flip: true,
        ..SvgOptions::default()
    };
    let page = game_html(
        &checked.record,
        &checked.replayed,
        0,
        &HtmlOptions { svg: svg.clone() },
    )
    .unwrap();
    let (start, steps) = main_line(&checked.record, &checked.replayed, 0).unwrap();
    let names = bao_core::BySide::new(Some("Asha".to_owned()), None);
    for (frame, ply) in [(0, 0), (3, 3), (5, 5), (12, 7)] {
        let opts = SvgOptions {
            pretty: false,
            id_prefix: format!("bao-f{frame}-"),
            names: names.clone(),
            ..svg.clone()
        };
        let drawn = match ply {
            0 => board_svg(&start, &opts, None),
            n => {
                let s = &steps[n - 1];
                board_svg(
                    &s.after,
                    &opts,
                    Some(&Overlay::from_trace(&s.before, &s.trace)),
                )
            }
        };
        let body = drawn.split_once("?>").unwrap().1.trim_start();
        assert!(page.contains(body), "frame {frame} is ply {ply}'s SVG");
    }
    // The same input gives the same bytes.
    assert_eq!(
        page,
        game_html(&checked.record, &checked.replayed, 0, &HtmlOptions { svg }).unwrap()
    );
}

#[test]
fn a_game_beyond_the_record_is_an_error() {
    let checked = check_bytes("v.bao", GAME.as_bytes(), &CheckOptions::default());
    assert!(game_html(
        &checked.record,
        &checked.replayed,
        3,
        &HtmlOptions::default()
    )
    .is_err());
}

/// A header comment written over several `;` lines is one paragraph with line breaks; an
/// empty `;` line starts the next one, and a brace comment keeps its own line breaks.
#[test]
fn a_multi_line_header_comment_is_one_paragraph() {
    let text =
        "; Recorded in Zanzibar, 1962,\n;   from the club's sheet.\n;\n; Second <paragraph>.\n\
                {A brace comment\nover two lines\n\nthen a third paragraph [%csl Ra5]}\n\
                [South \"Asha\"]\n\n1. A6>* a7>* *\n";
    let checked = check_bytes("h.bao", text.as_bytes(), &CheckOptions::default());
    assert!(checked.report.is_valid(), "{:?}", checked.report);
    let page = game_html(
        &checked.record,
        &checked.replayed,
        0,
        &HtmlOptions::default(),
    )
    .unwrap();
    let intro: Vec<&str> = page
        .lines()
        .filter(|l| l.starts_with("<p class=\"bao-intro\">"))
        .collect();
    assert_eq!(
        intro,
        [
            "<p class=\"bao-intro\">Recorded in Zanzibar, 1962,<br>from the club&#39;s sheet.</p>",
            "<p class=\"bao-intro\">Second &lt;paragraph&gt;.</p>",
            "<p class=\"bao-intro\">A brace comment<br>over two lines</p>",
            "<p class=\"bao-intro\">then a third paragraph</p>",
        ]
    );
}
