use bao_core::{Position, RuleSet};
#[cfg(feature = "png")]
use bao_export::{board_png, PngOptions};
use bao_export::{
    board_svg, game_html, game_line, player_names, record_from_json, record_json, result_words,
    HtmlOptions, JsonOptions, LinePath, Overlay, SeedStyle, SvgOptions, Theme,
};
use bao_notation::{write_record, Markup, WriteOptions};
use bao_validate::{check_bytes, CheckOptions, Checked};
use insta::assert_snapshot;

const MARKUP: &str = include_str!("../../../../fixtures/diagrams/markup.bao");
const NEVER_ENDING: &str = include_str!("../../../../fixtures/diagrams/never_ending_draw.bao");
const EVALUATED: &str = include_str!("../../../../fixtures/diagrams/evaluated.bao");
const PROBLEM: &str = include_str!("../../../../fixtures/games/problem_position.bao");

fn checked(name: &str, text: &str) -> Checked {
    let c = check_bytes(name, text.as_bytes(), &CheckOptions::default());
    assert!(c.report.is_valid(), "{name}: {:?}", c.report.diagnostics);
    c
}

/// The diagram after ply `n` of a line, as `bao export svg` draws it: names and the result
/// from the tags, the markup of the ply's comments.
fn diagram(c: &Checked, path: &str, n: usize, base: &SvgOptions) -> String {
    let path: LinePath = if path.is_empty() {
        LinePath::default()
    } else {
        path.parse().unwrap()
    };
    let line = game_line(&c.record, &c.replayed, 0, &path).unwrap();
    let game = &c.record.games[0].value;
    let (pos, step) = line.at(n).unwrap();
    let mut opts = SvgOptions {
        names: player_names(game),
        markup: line.markup(n).unwrap().clone(),
        ..base.clone()
    };
    if line.main && n == line.steps.len() {
        opts.ending = result_words(game, pos);
    }
    let overlay = step.map(|s| Overlay::from_trace(&s.before, &s.trace));
    board_svg(pos, &opts, overlay.as_ref())
}

/// Every badge (`<rect ... rx="8">`) lies inside the board's frame (x 36..564).
fn badges_inside_the_frame(svg: &str) {
    let re = regex::Regex::new(r#"<rect x="(-?\d+)" y="-?\d+" width="(\d+)" height="16" rx="8""#)
        .unwrap();
    let mut n = 0;
    for c in re.captures_iter(svg) {
        let (x, w): (i32, i32) = (c[1].parse().unwrap(), c[2].parse().unwrap());
        assert!(
            x >= 36 && x + w <= 564,
            "a badge at x {x} width {w} sticks out"
        );
        n += 1;
    }
    assert!(n > 0, "no badges");
}

#[test]
fn line_paths_read_and_write() {
    let p: LinePath = "5.2.7.1".parse().unwrap();
    assert_eq!(p.0, [(5, 2), (7, 1)]);
    assert_eq!(p.to_string(), "5.2.7.1");
    for bad in ["", "5", "5.", "5.0", "0.1", "a.b", "5.1.7"] {
        assert!(bad.parse::<LinePath>().is_err(), "{bad:?}");
    }
}

#[test]
fn lines_hold_their_markup_and_their_variations() {
    let c = checked("markup.bao", MARKUP);
    let main = game_line(&c.record, &c.replayed, 0, &LinePath::default()).unwrap();
    assert_eq!(main.steps.len(), 4);
    assert_eq!(main.start_markup.to_string(), "[%csl Ga5,GA5]");
    let marks: Vec<String> = (0..=4)
        .map(|n| main.markup(n).unwrap().to_string())
        .collect();
    assert_eq!(
        marks,
        [
            "[%csl Ga5,GA5]",
            "[%csl RA7][%cal GA7B7]",
            "",
            "[%csl Ra3,Ya8,BA2][%cal BA6a3]",
            ""
        ]
    );
    // The variation of ply 2: ply 1 of the main line, then its own a7>*.
    let var = game_line(&c.record, &c.replayed, 0, &"2.1".parse().unwrap()).unwrap();
    assert!(!var.main);
    assert_eq!(var.steps.len(), 2);
    assert_eq!(var.steps[1].trace.mv.to_string(), "a7>*");
    assert_eq!(var.markup(2).unwrap().to_string(), "[%cal Ra7a6]");
    for (bad, says) in [
        ("2.2", "ply 2 has 1 variation, not 2"),
        ("3.1", "ply 3 has 0 variations, not 1"),
        ("9.1", "has no ply 9"),
        ("2.1.1.1", "the line 2.1 has no ply 1"),
    ] {
        let err = game_line(&c.record, &c.replayed, 0, &bad.parse().unwrap()).unwrap_err();
        assert!(err.to_string().contains(says), "{bad}: {err}");
    }
}

#[test]
fn markup_is_drawn_over_the_move() {
    let c = checked("markup.bao", MARKUP);
    let svg = diagram(&c, "", 3, &SvgOptions::default());
    for id in [
        "bao-mark-a3",
        "bao-mark-a8",
        "bao-mark-A2",
        "bao-arrow-A6-a3",
        "bao-mark-blue",
    ] {
        assert!(svg.contains(&format!("id=\"{id}\"")), "{id}");
    }
    assert_snapshot!(svg);
}

#[test]
fn markup_of_a_variation_in_the_print_theme() {
    let c = checked("markup.bao", MARKUP);
    let opts = SvgOptions {
        theme: Theme::Print,
        ..SvgOptions::default()
    };
    assert_snapshot!(diagram(&c, "2.1", 2, &opts));
}

/// A game won by resignation: the last diagram says so, and nobody is to move.
#[test]
fn the_real_result_on_the_final_frame() {
    let c = checked("markup.bao", MARKUP);
    let svg = diagram(&c, "", 4, &SvgOptions::default());
    assert!(svg.contains("South wins (North resigned)"), "{svg}");
    assert!(!svg.contains("(to move)"));
    assert!(svg.contains("South: Amina") && svg.contains("North: Juma"));
    // Before the end, North is to move.
    assert!(diagram(&c, "", 3, &SvgOptions::default()).contains("North: Juma (to move)"));
}

#[test]
fn a_never_ending_move_summarises_its_cycle() {
    let c = checked("never_ending_draw.bao", NEVER_ENDING);
    let svg = diagram(&c, "", 23, &SvgOptions::default());
    assert!(
        svg.contains("never ends: repeats every 228 laps from lap 1"),
        "{svg}"
    );
    assert!(!svg.contains("laps;"));
    assert_eq!(svg.matches("id=\"bao-lap-").count(), 1);
    assert_snapshot!(svg);
}

/// The last move of Problem 1 stops at bao hamna with seeds in hand; every capture is
/// listed and the caption wraps.
#[test]
fn seeds_still_in_hand_and_every_capture() {
    let c = checked("problem_position.bao", PROBLEM);
    let line = game_line(&c.record, &c.replayed, 0, &LinePath::default()).unwrap();
    let svg = diagram(&c, "", line.steps.len(), &SvgOptions::default());
    assert!(svg.contains("hand 2 (still in hand: the game ended in the middle of the move)"));
    for pit in [
        "A5 (2)", "A2 (3)", "A3 (4)", "A4 (1)", "A1 (1)", "A8 (2)", "A7 (2)", "A6 (2)",
    ] {
        assert!(svg.contains(pit), "{pit} is missing");
    }
    assert!(!svg.contains("more"));
    assert_eq!(svg.matches("<tspan").count(), 2, "two caption lines");
    badges_inside_the_frame(&svg);
    assert_snapshot!(svg);
}

#[test]
fn badges_stay_inside_the_frame_on_edge_pits() {
    for (name, text) in [
        ("never_ending_draw.bao", NEVER_ENDING),
        ("problem_position.bao", PROBLEM),
    ] {
        let c = checked(name, text);
        let line = game_line(&c.record, &c.replayed, 0, &LinePath::default()).unwrap();
        for n in 1..=line.steps.len() {
            for flip in [false, true] {
                let opts = SvgOptions {
                    flip,
                    show_changes: true,
                    ..SvgOptions::default()
                };
                let svg = diagram(&c, "", n, &opts);
                if svg.contains("rx=\"8\"") {
                    badges_inside_the_frame(&svg);
                }
            }
        }
    }
}

/// A puzzle: a position with the author's marks and caption, no move, no coordinates.
#[test]
fn a_position_with_markup_and_a_caption() {
    let pos = Position::start(RuleSet::KISWAHILI);
    let opts = SvgOptions {
        coordinates: false,
        caption: Some("South to play: which capture first?".to_owned()),
        markup: Markup::read("[%csl GA6,Ra5][%cal GA6A5,Ya6a7]").0,
        seeds: SeedStyle::Dots { max: 10 },
        ..SvgOptions::default()
    };
    let svg = board_svg(&pos, &opts, None);
    // No room for the row letters and pit numbers.
    assert!(svg.contains("viewBox=\"24 16 628 "), "{}", &svg[..400]);
    assert_snapshot!(svg);
}

/// Without a caption or an outcome no room is kept for them; `last_move: false` draws the
/// position alone.
#[test]
fn room_only_for_what_is_drawn() {
    let c = checked("markup.bao", MARKUP);
    let line = game_line(&c.record, &c.replayed, 0, &LinePath::default()).unwrap();
    let (pos, step) = line.at(1).unwrap();
    let ov = Overlay::from_trace(&step.unwrap().before, &step.unwrap().trace);
    let height = |svg: &str| -> u32 {
        let i = svg.find("height=\"").unwrap() + 8;
        svg[i..i + svg[i..].find('"').unwrap()].parse().unwrap()
    };
    let with = board_svg(pos, &SvgOptions::default(), Some(&ov));
    let bare = SvgOptions {
        last_move: false,
        ..SvgOptions::default()
    };
    let without = board_svg(pos, &bare, Some(&ov));
    assert!(with.contains("id=\"bao-overlay\"") && with.contains("id=\"bao-caption\""));
    assert!(!without.contains("id=\"bao-overlay\"") && !without.contains("id=\"bao-caption\""));
    assert!(height(&without) < height(&with));
    assert_eq!(
        height(&without),
        height(&board_svg(pos, &SvgOptions::default(), None))
    );
    // The title still tells which move led here.
    assert!(without.contains("after South A7&gt;*"));
}

/// The JSON export gives each ply's markup; importing it gets the comments (and so the
/// markup) back, and exporting again gives the same JSON.
#[test]
fn markup_round_trips_through_json_and_fmt() {
    let c = checked("markup.bao", MARKUP);
    let json = record_json(&c.record, &c.replayed, &JsonOptions::default()).unwrap();
    let moves = &json.games[0].moves;
    let m = moves[0].markup.as_ref().unwrap();
    assert_eq!((m.pits.len(), m.arrows.len()), (1, 1));
    assert_eq!(
        (
            m.pits[0].colour.as_str(),
            m.arrows[0].from.as_str(),
            m.arrows[0].to.as_str()
        ),
        ("red", "A7", "B7")
    );
    assert!(moves[1].markup.is_none());
    assert_eq!(
        moves[1].variations[0][0].markup.as_ref().unwrap().arrows[0].colour,
        "red"
    );
    let record = record_from_json(&json).unwrap();
    let text = write_record(&record, &WriteOptions::default());
    assert!(
        text.contains("{A threat [%csl Ra3,Ya8,BA2][%cal\nBA6a3]}"),
        "{text}"
    );
    let again = checked("again.bao", &text);
    let json2 = record_json(&again.record, &again.replayed, &JsonOptions::default()).unwrap();
    assert_eq!(json2.games[0].moves, json.games[0].moves);
}

#[test]
fn the_viewer_draws_markup_and_shows_words() {
    let c = checked("markup.bao", MARKUP);
    let page = game_html(&c.record, &c.replayed, 0, &HtmlOptions::default()).unwrap();
    // The start frame's and ply 3's marks.
    assert!(page.contains("id=\"bao-f0-mark-a5\""));
    // Frames: 0 start, 1-2 plies 1-2, 3 the variation's a7>*, 4-5 plies 3-4.
    assert!(page.contains("id=\"bao-f4-arrow-A6-a3\""));
    // Comments without their commands; a comment of markup only is not shown.
    assert!(page.contains("<span class=\"bao-comment\">A threat</span>"));
    assert!(!page.contains("[%"));
    // Unknown tags hidden, a partial date shortened, the real result on the last frame.
    assert!(!page.contains("<dt>Site</dt>"));
    assert!(page.contains("<dt>Date</dt><dd>2026</dd>"));
    assert!(!page.contains("??"));
    let last = &page[page.find("id=\"bao-f5\"").unwrap()..];
    assert!(last.contains("South wins (North resigned)"));
    assert!(!last[..last.find("</div>").unwrap()].contains("(to move)"));
}

#[test]
fn the_viewer_header_speaks_words() {
    let text = "[Event \"?\"]\n[Date \"????.??.??\"]\n[Termination \"bao_hamna\"]\n\
                [Position \"0,0,0,9,0,0,0,0/1,0,0,0,1,1,0,2/0,1,2,3,1,10,5,0/3,1,1,2,4,2,0,5 5/5 S XX -\"]\n\n*\n";
    let c = check_bytes("h.bao", text.as_bytes(), &CheckOptions::default());
    let page = game_html(&c.record, &c.replayed, 0, &HtmlOptions::default()).unwrap();
    assert!(page.contains("<dt>Termination</dt><dd>bao hamna</dd>"));
    assert!(page.contains("<dt>Position</dt><dd>set up (the board shows it)</dd>"));
    assert!(!page.contains("????") && !page.contains("0,0,0,9"));
}

#[cfg(feature = "png")]
fn pixels(png: &[u8]) -> (u32, u32, Vec<u8>) {
    let p = resvg::tiny_skia::Pixmap::decode_png(png).unwrap();
    (p.width(), p.height(), p.data().to_vec())
}

/// Every diagram option changes the PNG; leaving out the coordinates and the caption changes
/// its size too. With `BAO_PNG_DIR` set, the PNGs are written there to be looked at.
#[cfg(feature = "png")]
#[test]
fn png_options_change_the_picture_and_its_size() {
    let dir = std::env::var("BAO_PNG_DIR").ok();
    let c = checked("markup.bao", MARKUP);
    let base = SvgOptions::default();
    let cases: Vec<(&str, SvgOptions)> = vec![
        (
            "flip",
            SvgOptions {
                flip: true,
                ..base.clone()
            },
        ),
        (
            "dark",
            SvgOptions {
                theme: Theme::Dark,
                ..base.clone()
            },
        ),
        (
            "print",
            SvgOptions {
                theme: Theme::Print,
                ..base.clone()
            },
        ),
        (
            "dots",
            SvgOptions {
                seeds: SeedStyle::Dots { max: 10 },
                ..base.clone()
            },
        ),
        (
            "bare",
            SvgOptions {
                coordinates: false,
                ..base.clone()
            },
        ),
        (
            "no-last-move",
            SvgOptions {
                last_move: false,
                ..base.clone()
            },
        ),
    ];
    let draw = |opts: &SvgOptions| {
        let svg = diagram(&c, "", 3, opts);
        board_png(&svg, &PngOptions::default()).unwrap()
    };
    let (w0, h0, plain) = pixels(&draw(&base));
    assert_eq!((w0, h0), (652, 496));
    for (name, opts) in &cases {
        let png = draw(opts);
        let (w, h, px) = pixels(&png);
        assert_ne!(px, plain, "{name} draws the same picture");
        match *name {
            // The same width, and no margins: the board is drawn larger.
            "bare" => assert_eq!((w, h), (652, 482), "{name}"),
            "no-last-move" => assert_eq!((w, h), (652, 462), "{name}: no caption line"),
            _ => assert_eq!((w, h), (652, 496), "{name}"),
        }
        if let Some(dir) = &dir {
            std::fs::write(format!("{dir}/option-{name}.png"), &png).unwrap();
        }
    }
    // The width scales the picture.
    let svg = diagram(&c, "", 3, &base);
    let wide = board_png(
        &svg,
        &PngOptions {
            width: Some(1304),
            ..PngOptions::default()
        },
    )
    .unwrap();
    assert_eq!(pixels(&wide).0, 1304);
    assert_eq!(pixels(&wide).1, 992);
}

/// The JSON export gives each ply its evaluation (`bao analyse`'s `[%eval ...]`); importing
/// it gets the comments (and so the evaluations) back, and exporting again gives the same.
#[test]
fn evaluations_round_trip_through_json() {
    use bao_export::json::{EvalJson, Hundredths};
    let c = checked("evaluated.bao", EVALUATED);
    let json = record_json(&c.record, &c.replayed, &JsonOptions::default()).unwrap();
    let moves = &json.games[0].moves;
    assert_eq!(
        moves[0].eval,
        Some(EvalJson::Seeds {
            seeds: Hundredths(97)
        })
    );
    assert!(moves
        .iter()
        .all(|m| m.eval.is_some() || m.trace.outcome.is_some()));
    let forced = moves
        .iter()
        .find_map(|m| match m.eval {
            Some(EvalJson::Forced { winner, plies }) => Some((winner, plies)),
            _ => None,
        })
        .unwrap();
    assert_eq!(forced.0, bao_core::json::SideJson::North);
    assert!(forced.1 >= 1);
    // As written in the JSON text.
    let text = serde_json::to_string(&json).unwrap();
    assert!(
        text.contains(r#""eval":{"type":"seeds","seeds":0.97}"#),
        "{}",
        &text[..2000]
    );
    assert!(text.contains(r#""eval":{"type":"forced","winner":"north","plies":"#));
    // Read back from the text, the same.
    let back: bao_export::RecordJson = serde_json::from_str(&text).unwrap();
    assert_eq!(back, json);
    let record = record_from_json(&json).unwrap();
    let written = write_record(&record, &WriteOptions::default());
    let again = checked("again.bao", &written);
    let json2 = record_json(&again.record, &again.replayed, &JsonOptions::default()).unwrap();
    assert_eq!(json2.games[0].moves, json.games[0].moves);
}

#[test]
fn a_json_evaluation_out_of_range_is_refused() {
    for bad in ["1e9", "-200000", "\"x\""] {
        let text = format!(r#"{{"type":"seeds","seeds":{bad}}}"#);
        assert!(
            serde_json::from_str::<bao_export::json::EvalJson>(&text).is_err(),
            "{text}"
        );
    }
    let ok: bao_export::json::EvalJson =
        serde_json::from_str(r#"{"type":"seeds","seeds":-1.5}"#).unwrap();
    assert_eq!(ok.to_eval(), bao_notation::Evaluation::Seeds(-150));
}

/// The viewer draws the main line's evaluations under the board: one point per main-line
/// frame, forced wins as triangles on the edge; a game without evaluations has no graph.
#[test]
fn the_viewer_draws_an_evaluation_graph() {
    let c = checked("evaluated.bao", EVALUATED);
    let page = game_html(&c.record, &c.replayed, 0, &HtmlOptions::default()).unwrap();
    let plies = c.replayed[0].main.plies.len();
    assert_eq!(page.matches("class=\"bao-eval-pt\"").count(), plies + 1);
    assert_eq!(page.matches("<figure class=\"bao-eval\">").count(), 1);
    assert!(page.contains("id=\"bao-eval-cur\""));
    assert!(page.contains("class=\"bao-eval-forced\""));
    assert!(page.contains("North wins within"));
    // The graph comes after the board's frames, before the buttons.
    let (frames, graph, nav) = (
        page.find("class=\"bao-frames\"").unwrap(),
        page.find("id=\"bao-eval\"").unwrap(),
        page.find("class=\"bao-controls\"").unwrap(),
    );
    assert!(frames < graph && graph < nav);
    // The script moves the mark and makes the points clickable.
    assert!(page.contains("document.getElementById(\"bao-eval-cur\")"));
    assert!(page.contains("querySelectorAll(\".bao-mv, .bao-eval-pt\")"));
    // The first ply's point: 0.97 seeds up from the level line (y 85 of 170, ±20 seeds
    // over 71 units).
    let first = &page[page.find("data-n=\"1\" data-x").unwrap()..];
    let cy: f64 = first[first.find("cy=\"").unwrap() + 4..]
        .split('"')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!((cy - (85.0 - 71.0 * 0.97 / 20.0)).abs() < 0.11, "{cy}");
    // Without evaluations, no graph.
    let plain = checked("markup.bao", MARKUP);
    let page = game_html(&plain.record, &plain.replayed, 0, &HtmlOptions::default()).unwrap();
    assert!(
        !page.contains("bao-eval"),
        "nothing of the graph, not even its styles"
    );
}
