use bao_core::{Position, RuleSet};
use bao_export::{board_svg, Overlay, SeedStyle, SvgOptions, Theme};
use resvg::usvg;

use crate::plies::{self, Lcg};

fn parse(svg: &str) {
    let tree = usvg::Tree::from_str(svg, &usvg::Options::default());
    assert!(tree.is_ok(), "usvg rejects the SVG: {:?}", tree.err());
}

fn all_options() -> Vec<SvgOptions> {
    let mut v = Vec::new();
    for theme in [Theme::Light, Theme::Dark, Theme::Print, Theme::Book] {
        for flip in [false, true] {
            v.push(SvgOptions {
                theme,
                flip,
                coordinates: !flip,
                pretty: flip,
                show_changes: true,
                seeds: if flip {
                    SeedStyle::Dots { max: 10 }
                } else {
                    SeedStyle::Numerals
                },
                ..SvgOptions::default()
            });
        }
    }
    v
}

#[test]
fn every_special_ply_parses_in_every_option() {
    let plies = [
        plies::kichwa_chosen(),
        plies::safari(),
        plies::takasia(),
        plies::bao_hamna(),
        plies::dormant_house(),
    ];
    for opts in all_options() {
        for rules in [RuleSet::KISWAHILI, RuleSet::KETE, RuleSet::KUJIFUNZA] {
            parse(&board_svg(&Position::start(rules), &opts, None));
        }
        for ply in &plies {
            let ov = Overlay::from_trace(&ply.before, &ply.trace);
            parse(&board_svg(&ply.after, &opts, Some(&ov)));
        }
    }
}

#[test]
fn a_whole_random_game_parses_and_is_deterministic() {
    for (seed, rules) in [(7u64, RuleSet::KISWAHILI), (8, RuleSet::KETE)] {
        let mut rng = Lcg::new(seed);
        let mut pos = Position::start(rules);
        let opts = SvgOptions {
            show_changes: true,
            ..SvgOptions::default()
        };
        for _ in 0..120 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            let (next, trace) = pos.play(&mv).unwrap();
            let ov = Overlay::from_trace(&pos, &trace);
            let a = board_svg(&next, &opts, Some(&ov));
            let b = board_svg(&next, &opts, Some(&Overlay::from_trace(&pos, &trace)));
            assert_eq!(a, b);
            parse(&a);
            pos = next;
        }
    }
}

#[test]
fn ids_are_unique_and_prefixed() {
    let ply = plies::kichwa_chosen();
    let ov = Overlay::from_trace(&ply.before, &ply.trace);
    let opts = SvgOptions {
        id_prefix: "p7-".to_owned(),
        show_changes: true,
        ..SvgOptions::default()
    };
    let svg = board_svg(&ply.after, &opts, Some(&ov));
    let ids: Vec<&str> = svg
        .split(" id=\"")
        .skip(1)
        .filter_map(|s| s.split('"').next())
        .collect();
    let mut sorted = ids.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), ids.len(), "duplicate ids in {ids:?}");
    assert!(ids.iter().all(|id| id.starts_with("p7-")));
    assert!(ids.contains(&"p7-A1") && ids.contains(&"p7-b8"));
}

#[test]
fn width_scales_without_moving_the_drawing() {
    let pos = Position::start(RuleSet::KISWAHILI);
    let small = board_svg(
        &pos,
        &SvgOptions {
            width: 326,
            ..SvgOptions::default()
        },
        None,
    );
    assert!(small.contains("width=\"326\""));
    let big = board_svg(&pos, &SvgOptions::default(), None);
    let body = |s: &str| s.split_once("viewBox").map(|(_, b)| b.to_owned());
    assert_eq!(body(&small), body(&big));
}
