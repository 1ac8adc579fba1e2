use std::collections::BTreeSet;

use bao_core::{
    BySide, EndReason, EndlessMove, HouseState, IllegalReason, Move, MoveKind, Pit, Position, Row,
    RuleSet, Setup, Side, Sign, PRESET_NAMES,
};
use serde_json::Value;

const SPEC: &str = include_str!("../../../../spec/rules.md");
const POSITIONS: &str = include_str!("../data/positions.jsonl");

/// Rules shown by a test function rather than (only) by a line of `positions.jsonl`:
/// (rule id, test path inside this binary).
const COVERED_BY_TESTS: &[(&str, &str)] = &[
    (
        "E3",
        "coverage::e3_no_game_ends_in_a_draw_under_the_illegal_policy",
    ),
    (
        "E3",
        "coverage::e3_a_draw_comes_only_from_a_never_ending_move",
    ),
    (
        "E3",
        "never_ending::under_draw_it_is_legal_and_the_game_is_drawn",
    ),
    ("E4", "coverage::e4_no_move_after_the_end_of_the_game"),
    ("K1", "coverage::k1_kete_names_in_messages"),
    ("K1", "coverage::k1_kete_g6_and_g10_messages_say_takata"),
    (
        "G11",
        "never_ending::a3_takasa_is_rejected_by_g11_with_its_cycle",
    ),
    (
        "P1",
        "properties::broken_setups_are_rejected_with_every_reason",
    ),
];

/// The sources of the modules the table may name, to check that each named test exists.
const MODULES: &[(&str, &str)] = &[
    ("coverage", include_str!("coverage.rs")),
    ("never_ending", include_str!("never_ending.rs")),
    ("properties", include_str!("properties.rs")),
    ("perft", include_str!("perft.rs")),
];

/// The rule ids of the `### ID. Title` headings, with their line numbers (from 0).
pub(crate) fn spec_rule_ids() -> Vec<(usize, String)> {
    SPEC.lines()
        .enumerate()
        .filter_map(|(i, line)| {
            let rest = line.strip_prefix("### ")?;
            let (id, _) = rest.split_once(". ")?;
            let mut chars = id.chars();
            let ok = chars.next().is_some_and(|c| c.is_ascii_uppercase())
                && id.len() >= 2
                && chars.all(|c| c.is_ascii_digit());
            ok.then(|| (i, id.to_string()))
        })
        .collect()
}

/// The `rule` fields of the test positions.
fn data_rule_ids() -> BTreeSet<String> {
    POSITIONS
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: Value = serde_json::from_str(l).expect("valid JSON line");
            v["rule"].as_str().expect("a rule field").to_string()
        })
        .collect()
}

#[test]
fn every_rule_heading_is_covered() {
    let ids = spec_rule_ids();
    let names: Vec<&str> = ids.iter().map(|(_, id)| id.as_str()).collect();
    // The families of spec/rules.md, complete.
    let mut want: Vec<String> = vec!["P1".into()];
    for (letter, n) in [
        ('G', 11),
        ('N', 7),
        ('M', 7),
        ('H', 3),
        ('T', 5),
        ('E', 4),
        ('K', 4),
    ] {
        want.extend((1..=n).map(|i| format!("{letter}{i}")));
    }
    assert_eq!(names, want, "the rule headings of spec/rules.md changed");

    let data = data_rule_ids();
    let mut missing = Vec::new();
    for id in &names {
        let by_data = data.contains(*id);
        let by_test = COVERED_BY_TESTS.iter().any(|(r, _)| r == id);
        if !by_data && !by_test {
            missing.push(*id);
        }
    }
    assert!(missing.is_empty(), "rules without a test: {missing:?}");
    for rule in &data {
        assert!(
            names.contains(&rule.as_str()),
            "positions.jsonl names unknown rule {rule}"
        );
    }
}

#[test]
fn the_coverage_table_names_real_tests() {
    let ids: Vec<String> = spec_rule_ids().into_iter().map(|(_, id)| id).collect();
    for (rule, path) in COVERED_BY_TESTS {
        assert!(
            ids.iter().any(|i| i == rule),
            "{rule} is not a rule heading"
        );
        let (module, name) = path.split_once("::").expect("module::test");
        let src = MODULES
            .iter()
            .find(|(m, _)| *m == module)
            .unwrap_or_else(|| panic!("module {module} is not listed in MODULES"))
            .1;
        let pos = src
            .find(&format!("fn {name}("))
            .unwrap_or_else(|| panic!("{path} does not exist"));
        // The attributes and doc comment since the previous item's closing brace.
        let before = &src[..pos];
        let attrs = &before[before.rfind('}').map_or(0, |i| i + 1)..];
        assert!(attrs.contains("#[test]"), "{path} is not a test");
        assert!(!attrs.contains("#[ignore"), "{path} is ignored");
    }
}

#[test]
fn every_rule_heading_has_its_anchor_right_above() {
    let lines: Vec<&str> = SPEC.lines().collect();
    for (i, id) in spec_rule_ids() {
        let want = format!("<a id=\"{}\"></a>", id.to_ascii_lowercase());
        assert!(
            i > 0 && lines[i - 1] == want,
            "line {}: `### {id}` is not preceded by {want} (found {:?})",
            i + 1,
            lines.get(i.wrapping_sub(1))
        );
    }
}

// ----- E3 -----

/// A small deterministic generator for `random_move`.
fn lcg(seed: u64) -> impl FnMut(usize) -> usize {
    bao_testkit::Lcg::new(seed).picker()
}

/// Plays a random game to its end (at most 1000 plies); returns the final position.
fn play_out(rules: RuleSet, seed: u64) -> Position {
    let mut pick = lcg(seed);
    let mut pos = Position::start(rules);
    for _ in 0..1000 {
        match pos.random_move(&mut pick) {
            Some((_, next)) => pos = next,
            None => return pos,
        }
    }
    panic!(
        "a random game under {:?} did not end in 1000 plies",
        rules.preset_name()
    );
}

#[test]
fn e3_no_game_ends_in_a_draw_under_the_illegal_policy() {
    for name in PRESET_NAMES {
        let rules = RuleSet::preset(name).unwrap();
        for seed in 0..12 {
            let end = play_out(rules, seed);
            let o = end.outcome().expect("the game is over");
            assert!(o.winner.is_some(), "{name} seed {seed}: a draw\n{end}");
            if rules.endless_move == EndlessMove::Illegal {
                assert_ne!(o.reason, EndReason::NeverEnding, "{name} seed {seed}");
            }
        }
    }
}

#[test]
fn e3_a_draw_comes_only_from_a_never_ending_move() {
    let mut rules = RuleSet::KISWAHILI;
    rules.set_option("endless_move", "draw").unwrap();
    for seed in 0..12 {
        let end = play_out(rules, seed);
        let o = end.outcome().expect("the game is over");
        if o.winner.is_none() {
            assert_eq!(o.reason, EndReason::NeverEnding, "seed {seed}");
        }
    }
}

// ----- E4 -----

#[test]
fn e4_no_move_after_the_end_of_the_game() {
    for (k, name) in PRESET_NAMES.iter().enumerate() {
        let end = play_out(RuleSet::preset(name).unwrap(), 100 + k as u64);
        let o = end.outcome().expect("over");
        assert!(end.legal_moves().is_empty());
        let mut pick = lcg(1);
        assert!(end.random_move(&mut pick).is_none());
        assert!(o.winner.is_some(), "no draw here");
        let side = end.to_move();
        for pit in Pit::all().filter(|p| p.side() == side) {
            for sign in [Sign::Left, Sign::Right] {
                for kind in [MoveKind::Capture, MoveKind::Takasa] {
                    let mv = Move::new(pit, sign, kind);
                    let err = end.play(&mv).unwrap_err();
                    assert_eq!(err.rule(), "E4", "{name} {mv}: {err}");
                    // The reason carries the outcome: its winner and how it ended.
                    assert_eq!(err.reason, IllegalReason::GameOver { outcome: o }, "{name}");
                    assert_eq!(end.diagnose(&mv), err);
                }
            }
        }
    }
}

// ----- K1 -----

/// The rule and the reason of a refused move. The engine gives reasons as data: the words
/// of a message (and K1's Lamu names in them) are bao-validate's, tested there
/// (`bao-validate/tests/it/words.rs`, the same positions as here).
fn diagnose(pos: &Position, mv: &str) -> (String, IllegalReason) {
    let e = pos.diagnose(&mv.parse().unwrap());
    (e.rule().to_string(), e.reason)
}

const KISWAHILI_WORDS: [&str; 4] = ["namua", "nyumba", "takasia", "takasa"];

fn assert_lamu(rule: &str, message: &str) {
    for w in KISWAHILI_WORDS {
        assert!(
            !message.contains(w),
            "{rule} message uses `{w}` in kete: {message}"
        );
    }
}

#[test]
fn k1_kete_names_in_messages() {
    let n = RuleSet::KETE.names();
    assert_eq!(
        (n.namua, n.mtaji, n.nyumba, n.takasia, n.takasa),
        ("nemo", "mtaji", "kuu", "hizi zetu", "takata")
    );
    let k = RuleSet::KISWAHILI.names();
    assert_eq!(
        (k.namua, k.mtaji, k.nyumba, k.takasia, k.takasa),
        ("namua", "mtaji", "nyumba", "takasia", "takasa")
    );

    let kete = Position::start(RuleSet::KETE);
    let kiswahili = Position::start(RuleSet::KISWAHILI);
    // N1: a back pit in nemo.
    let (rule, why) = diagnose(&kete, "B1<*");
    assert_eq!(rule, "N1");
    assert!(matches!(why, IllegalReason::NamuaBackRow { .. }), "{why:?}");
    assert_eq!(diagnose(&kiswahili, "B1<*").1, why);
    // N3: the functional kuu is not the only occupied front pit.
    let (rule, why) = diagnose(&kete, "A5<*");
    assert_eq!(rule, "N3");
    assert!(
        matches!(why, IllegalReason::NamuaHousePlacement { .. }),
        "{why:?}"
    );
    assert_eq!(diagnose(&kiswahili, "A5<*").1, why);
    // K4: a capture that does not take the reserved pit (positions.jsonl K4-02).
    let mut s = Setup::start(RuleSet::KETE);
    s.hands = BySide::new(0, 0);
    s.pits = [
        [0, 2, 0, 1, 1, 1, 0, 2],
        [2, 2, 0, 0, 0, 0, 3, 0],
        [0, 0, 3, 0, 1, 2, 1, 0],
        [27, 16, 0, 0, 0, 0, 0, 0],
    ];
    s.houses = BySide::new(HouseState::Destroyed, HouseState::Destroyed);
    s.blocked.north = Pit::new(Side::North, Row::Front, 3);
    let pos = Position::from_setup(s).unwrap();
    let legal = pos.legal_moves();
    let mut k4 = 0;
    for pit in Pit::all().filter(|p| p.side() == Side::South) {
        for sign in [Sign::Left, Sign::Right] {
            let mv = Move::capture(pit, sign);
            if legal.contains(&mv) {
                continue;
            }
            let e = pos.diagnose(&mv);
            if e.rule() == "K4" {
                k4 += 1;
                let IllegalReason::CapturePriority { reserved, .. } = e.reason else {
                    panic!("{e:?}");
                };
                assert_eq!(Some(reserved), Pit::new(Side::North, Row::Front, 3));
            }
        }
    }
    assert!(k4 > 0, "no K4 diagnostic in K4-02");
}

/// Rules-reference K1: "every message and label" uses the Lamu words. The M4 message is a
/// fixed string with "takasa" in it.
#[test]

fn k1_kete_m4_message_says_takata() {
    // Kete mtaji, kuu destroyed, no capture: A1 holds 3 (front pit with 2 or more), B1 2.
    let mut s = Setup::start(RuleSet::KETE);
    s.hands = BySide::new(0, 0);
    s.pits = [
        [3, 0, 0, 0, 0, 0, 0, 0],
        [2, 0, 0, 0, 0, 0, 0, 0],
        [10, 0, 0, 0, 0, 0, 0, 0],
        [49, 0, 0, 0, 0, 0, 0, 0],
    ];
    s.houses = BySide::new(HouseState::Destroyed, HouseState::Destroyed);
    let pos = Position::from_setup(s).unwrap();
    assert_eq!(pos.legal_moves(), ["A1>*".parse::<Move>().unwrap()]);
    let (rule, why) = diagnose(&pos, "B1<*");
    assert_eq!(rule, "M4");
    assert!(
        matches!(why, IllegalReason::BackRowTakasa { .. }),
        "{why:?}"
    );
}

/// The Kete mtaji position of `k1_kete_m4_message_says_takata`, without the faulty M4.
fn kete_mtaji_without_capture() -> Position {
    let mut s = Setup::start(RuleSet::KETE);
    s.hands = BySide::new(0, 0);
    s.pits = [
        [3, 0, 0, 0, 0, 0, 0, 0],
        [2, 0, 0, 0, 0, 0, 0, 0],
        [10, 0, 0, 0, 0, 0, 0, 0],
        [49, 0, 0, 0, 0, 0, 0, 0],
    ];
    s.houses = BySide::new(HouseState::Destroyed, HouseState::Destroyed);
    Position::from_setup(s).unwrap()
}

#[test]
fn k1_kete_g6_and_g10_messages_say_takata() {
    let pos = kete_mtaji_without_capture();
    // G6: written as a capture, but no capture exists: every move is a takata.
    let (rule, why) = diagnose(&pos, "A1>");
    assert_eq!(rule, "G6");
    assert_eq!(
        why,
        IllegalReason::NoCaptureExists {
            takasa: Some("A1>*".parse().unwrap())
        }
    );
    // G10: the lone kichwa sown away from the centre empties the front row.
    let (rule, why) = diagnose(&pos, "A1<*");
    assert_eq!(rule, "G10");
    assert_eq!(why, IllegalReason::FrontRowGuard { mover: Side::South });
}

/// The position diagram is a label too: under kete the stage should read `nemo`.
#[test]

fn k1_kete_diagram_says_nemo() {
    let text = Position::start(RuleSet::KETE).to_string();
    assert!(text.contains("nemo"), "{text}");
    assert_lamu("Display", &text);
}
