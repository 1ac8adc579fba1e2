//! The `book` theme: snapshots of the diagram fixtures, and the layout rule that no label
//! touches another label or a pit, over every ply of every fixture and 1,000 random
//! positions with markup.

use std::path::{Path, PathBuf};

use bao_core::{Pit, Position, RuleSet};
use bao_export::{board_svg, game_line, player_names, LinePath, Overlay, SvgOptions, Theme};
use bao_notation::{ArrowMark, MarkColour, Markup, PitMark};
use bao_validate::{check_bytes, CheckOptions};
use insta::assert_snapshot;

use crate::plies::Lcg;

/// The board's grid, as `svg.rs` lays it out: a pit every 64 units, radius 28, the frame's
/// corner at (36, 80) with 8 units of padding, 24 units between the two front rows.
const R: i64 = 28;
fn cx(col: i64) -> i64 {
    36 + 8 + 32 + 64 * col
}
fn cy(row: i64) -> i64 {
    80 + 8 + 32 + 64 * row + if row >= 2 { 24 } else { 0 }
}
/// The left edge of the hands' boxes; the row letters end at x 24.
const STORE_X: i64 = 576;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn book() -> SvgOptions {
    SvgOptions {
        theme: Theme::Book,
        ..SvgOptions::default()
    }
}

/// The label boxes of a diagram: (x, y, width, height).
fn labels(svg: &str) -> Vec<(i64, i64, i64, i64)> {
    let re = regex::Regex::new(
        r#"<rect class="bao-label" x="(-?\d+)" y="(-?\d+)" width="(\d+)" height="(\d+)""#,
    )
    .unwrap();
    re.captures_iter(svg)
        .map(|c| {
            (
                c[1].parse().unwrap(),
                c[2].parse().unwrap(),
                c[3].parse().unwrap(),
                c[4].parse().unwrap(),
            )
        })
        .collect()
}

/// No label meets another label, a pit (with the ring drawn round a start or takasia'd pit,
/// 3.5 units beyond it), a square house (24 units either side of its centre), the row
/// letters or the hands.
fn check_layout(svg: &str, houses: bool, context: &str) -> usize {
    let boxes = labels(svg);
    for (i, a) in boxes.iter().enumerate() {
        for b in &boxes[i + 1..] {
            let apart =
                a.0 + a.2 <= b.0 || b.0 + b.2 <= a.0 || a.1 + a.3 <= b.1 || b.1 + b.3 <= a.1;
            assert!(apart, "{context}: labels {a:?} and {b:?} overlap");
        }
        let (x0, y0, x1, y1) = (a.0, a.1, a.0 + a.2, a.1 + a.3);
        assert!(
            x0 >= 26 && x1 <= STORE_X,
            "{context}: label {a:?} leaves its room"
        );
        for row in 0..4 {
            for col in 0..8 {
                let (x, y) = (cx(col), cy(row));
                // Twice the distance from the centre to the box, against twice the reach.
                let dx = (2 * x0 - 2 * x).max(0).max(2 * x - 2 * x1);
                let dy = (2 * y0 - 2 * y).max(0).max(2 * y - 2 * y1);
                assert!(
                    dx * dx + dy * dy > (2 * R + 7) * (2 * R + 7),
                    "{context}: label {a:?} touches the pit at column {col}, row {row}"
                );
            }
        }
        if houses {
            // The nyumba: A5 (column 4, row 2) and a5 (column 3, row 1), South below.
            for (col, row) in [(4, 2), (3, 1)] {
                let (x, y) = (cx(col), cy(row));
                let h = R - 4;
                let apart = x1 <= x - h || x0 >= x + h || y1 <= y - h || y0 >= y + h;
                assert!(apart, "{context}: label {a:?} covers a house's corner");
            }
        }
    }
    boxes.len()
}

/// Every fixture record that replays, with its text.
fn fixture_records() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for dir in ["fixtures/diagrams", "fixtures/games"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "bao"))
            .collect();
        files.sort();
        for f in files {
            let name = format!("{dir}/{}", f.file_name().unwrap().to_string_lossy());
            out.push((name, std::fs::read_to_string(&f).unwrap()));
        }
    }
    out
}

/// The diagram after ply `n` of a game's main line in the book theme, with its markup.
fn diagram(text: &str, game: usize, n: Option<usize>, base: &SvgOptions) -> Option<String> {
    let c = check_bytes("f.bao", text.as_bytes(), &CheckOptions::default());
    let line = game_line(&c.record, &c.replayed, game, &LinePath::default()).ok()?;
    let n = n.unwrap_or(line.steps.len());
    let (pos, step) = line.at(n)?;
    let opts = SvgOptions {
        names: player_names(&c.record.games[game].value),
        markup: line.markup(n)?.clone(),
        ..base.clone()
    };
    let overlay = step.map(|s| Overlay::from_trace(&s.before, &s.trace));
    Some(board_svg(pos, &opts, overlay.as_ref()))
}

/// Every ply of every game of every fixture, as the book draws it (with the change marks,
/// which take slots too): no label meets anything.
#[test]
fn no_label_overlaps_on_any_fixture() {
    let mut labels_seen = 0;
    for (name, text) in fixture_records() {
        let c = check_bytes(&name, text.as_bytes(), &CheckOptions::default());
        for game in 0..c.record.games.len() {
            let Ok(line) = game_line(&c.record, &c.replayed, game, &LinePath::default()) else {
                continue;
            };
            for n in 0..=line.steps.len() {
                let (pos, step) = line.at(n).unwrap();
                for flip in [false, true] {
                    let opts = SvgOptions {
                        markup: line.markup(n).unwrap().clone(),
                        show_changes: true,
                        flip,
                        ..book()
                    };
                    let overlay = step.map(|s| Overlay::from_trace(&s.before, &s.trace));
                    let svg = board_svg(pos, &opts, overlay.as_ref());
                    labels_seen += check_layout(
                        &svg,
                        pos.rules().houses,
                        &format!("{name} game {} ply {n} flip {flip}", game + 1),
                    );
                }
            }
        }
    }
    assert!(labels_seen > 500, "only {labels_seen} labels drawn");
}

/// A random mark colour.
fn colour(rng: &mut Lcg) -> MarkColour {
    [
        MarkColour::Green,
        MarkColour::Red,
        MarkColour::Yellow,
        MarkColour::Blue,
    ][rng.below(4)]
}

/// 1,000 positions of seeded random games under each preset in turn, each with the overlay
/// of the ply that reached it, random markup (coloured pits and arrows) and the change
/// marks: no label meets anything.
#[test]
fn no_label_overlaps_on_random_positions_with_markup() {
    let pits: Vec<Pit> = Pit::all().collect();
    let presets = [RuleSet::KISWAHILI, RuleSet::KETE, RuleSet::KUJIFUNZA];
    let mut drawn = 0;
    let mut labels_seen = 0;
    let mut seed = 0;
    while drawn < 1000 {
        seed += 1;
        let mut rng = Lcg::new(seed);
        let rules = presets[seed as usize % presets.len()];
        let mut pos = Position::start(rules);
        let plies = 1 + rng.below(80);
        let mut last = None;
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            let (after, trace) = pos.play(&mv).unwrap();
            last = Some(Overlay::from_trace(&pos, &trace.into_trace()));
            pos = after;
        }
        let mut markup = Markup::default();
        for _ in 0..rng.below(6) {
            markup.pits.push(PitMark {
                colour: colour(&mut rng),
                pit: pits[rng.below(pits.len())],
            });
        }
        for _ in 0..rng.below(4) {
            markup.arrows.push(ArrowMark {
                colour: colour(&mut rng),
                from: pits[rng.below(pits.len())],
                to: pits[rng.below(pits.len())],
            });
        }
        let opts = SvgOptions {
            markup,
            show_changes: rng.below(2) == 0,
            flip: rng.below(4) == 0,
            ..book()
        };
        let svg = board_svg(&pos, &opts, last.as_ref());
        labels_seen += check_layout(&svg, rules.houses, &format!("seed {seed}"));
        drawn += 1;
    }
    assert!(labels_seen > 2000, "only {labels_seen} labels drawn");
}

/// Snapshots of the book theme: the last position of each diagram fixture's first game,
/// the ply of most laps in it, and a game's plate with a destroyed nyumba.
#[test]
fn book_plates_of_the_diagram_fixtures() {
    for (name, text) in fixture_records() {
        if !name.starts_with("fixtures/diagrams/") {
            continue;
        }
        let stem = Path::new(&name)
            .file_stem()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let c = check_bytes(&name, text.as_bytes(), &CheckOptions::default());
        let line = game_line(&c.record, &c.replayed, 0, &LinePath::default()).unwrap();
        let busiest = (1..=line.steps.len())
            .max_by_key(|&n| {
                let (_, step) = line.at(n).unwrap();
                step.map_or(0, |s| s.trace.laps_total)
            })
            .unwrap_or(0);
        assert_snapshot!(
            format!("book_{stem}_last"),
            diagram(&text, 0, None, &book()).unwrap()
        );
        assert_snapshot!(
            format!("book_{stem}_busiest"),
            diagram(&text, 0, Some(busiest), &book()).unwrap()
        );
    }
    let game =
        std::fs::read_to_string(root().join("fixtures/games/random_kiswahili_3.bao")).unwrap();
    let svg = diagram(&game, 0, Some(24), &book()).unwrap();
    // Both houses destroyed: square, their corners crossed out.
    assert_eq!(svg.matches("class=\"bao-destroyed\"").count(), 2, "{svg}");
    assert_snapshot!("book_destroyed_houses", svg);
}

/// A never-ending move in the book: the board before the move, the laps it runs from there
/// along the ring, the lap its cycle starts from marked `↻`, and the caption's words.
#[test]
fn a_never_ending_move_is_drawn_from_the_board_before() {
    let text =
        std::fs::read_to_string(root().join("fixtures/diagrams/never_ending_draw.bao")).unwrap();
    let c = check_bytes("n.bao", text.as_bytes(), &CheckOptions::default());
    let line = game_line(&c.record, &c.replayed, 0, &LinePath::default()).unwrap();
    let n = line.steps.len();
    let (pos, step) = line.at(n).unwrap();
    let step = step.unwrap();
    assert!(step.trace.never_ending.is_some());
    // The board shown is the position before the move.
    assert_eq!(pos.to_setup().pits, step.before.to_setup().pits);
    let svg = diagram(&text, 0, None, &book()).unwrap();
    assert!(svg.contains("class=\"bao-cycle\""), "{svg}");
    assert_eq!(svg.matches("class=\"bao-lap-path\"").count(), 6);
    assert!(svg.contains("never ends: repeats every 228 laps from lap 1"));
}
