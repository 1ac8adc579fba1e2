use bao_core::{perft, Move, Position, RuleSet, PRESET_NAMES};

const DATA: &str = include_str!("../data/perft.txt");

/// The deepest line checked: every line in release builds, the cheap ones in debug builds.
const DEBUG_MAX_DEPTH: u32 = 5;

/// The data lines: (preset, depth, leaves).
fn table() -> Vec<(&'static str, u32, u64)> {
    DATA.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(f.len(), 3, "bad perft line `{l}`");
            (
                f[0],
                f[1].parse().expect("depth"),
                f[2].parse().expect("count"),
            )
        })
        .collect()
}

fn moves(pos: &Position) -> Vec<String> {
    let mut v: Vec<String> = pos.legal_moves().iter().map(ToString::to_string).collect();
    v.sort();
    v
}

#[test]
fn perft_matches_the_data_file() {
    let max = if cfg!(debug_assertions) {
        DEBUG_MAX_DEPTH
    } else {
        u32::MAX
    };
    let mut checked = 0;
    let mut failures = Vec::new();
    for (name, depth, want) in table() {
        let rules = RuleSet::preset(name).unwrap_or_else(|| panic!("unknown preset {name}"));
        if depth > max {
            continue;
        }
        let got = perft(&Position::start(rules), depth);
        if got != want {
            failures.push(format!("{name} depth {depth}: engine {got}, data {want}"));
        }
        checked += 1;
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked >= 5 * 4, "only {checked} perft lines checked");
}

#[test]
fn data_file_covers_every_preset_from_depth_1_to_8() {
    let t = table();
    for name in PRESET_NAMES {
        let depths: Vec<u32> = t.iter().filter(|l| l.0 == name).map(|l| l.1).collect();
        assert_eq!(depths, (1..=8).collect::<Vec<_>>(), "{name}");
    }
    assert_eq!(
        t.len(),
        PRESET_NAMES.len() * 8,
        "a line for an unknown preset"
    );
}

#[test]
fn perft_is_the_sum_over_the_first_moves() {
    for name in PRESET_NAMES {
        let start = Position::start(RuleSet::preset(name).unwrap());
        let children: u64 = start
            .legal_moves()
            .iter()
            .map(|mv| perft(&start.play_fast(mv), 2))
            .sum();
        assert_eq!(children, perft(&start, 3), "{name}");
        assert_eq!(perft(&start, 0), 1);
    }
}

/// Hand count, Kiswahili start. Depth 1: the house is functional so the reserve seed goes
/// into A6 or A7, sown either way: A6<* A6>* A7<* A7>* (no pit of A faces a seed).
/// Depth 2, North's replies:
/// - A6<*: A6 3 seeds anticlockwise to A5 (7), A4 (1), A3 (1): a5 faces A4 and a6 faces A3,
///   both central pits with a free choice of kichwa: a5< a5> a6< a6> (4).
/// - A6>*: A7 (3), A8 (1), B8 (1): nothing faces a5..a7; takasa from a6 or a7: 4.
/// - A7<*: A6 (3), A5 (7), A4 (1): only a5 faces a seed: a5< a5> (2).
/// - A7>*: A8 (1), B8 (1), B7 (1): no capture; takasa from a6 or a7: 4.
///
/// Total 14. Kete and AbstractPlay differ from Kiswahili only later, so they agree here.
#[test]
fn start_depth_two_by_hand() {
    let start = Position::start(RuleSet::KISWAHILI);
    assert_eq!(moves(&start), ["A6<*", "A6>*", "A7<*", "A7>*"]);
    let replies = |mv: &str| {
        let mv: Move = mv.parse().unwrap();
        moves(&start.play(&mv).unwrap().0)
    };
    assert_eq!(replies("A6<*"), ["a5<", "a5>", "a6<", "a6>"]);
    assert_eq!(replies("A6>*"), ["a6<*", "a6>*", "a7<*", "a7>*"]);
    assert_eq!(replies("A7<*"), ["a5<", "a5>"]);
    assert_eq!(replies("A7>*"), ["a6<*", "a6>*", "a7<*", "a7>*"]);
    for rules in [RuleSet::KISWAHILI, RuleSet::KETE, RuleSet::ABSTRACTPLAY] {
        assert_eq!(perft(&Position::start(rules), 2), 14);
    }
}

/// Hand count, Kujifunza start (2 seeds everywhere, mtaji at once): a 2-seed first lap ends
/// two pits on; it captures when it ends on the front row (every pit there is a marker).
/// Front pits 1..6 clockwise and 3..8 anticlockwise (12), back pits B1 and B2 sown onto A1,
/// A2 and B8, B7 onto A8, A7 (4): 16 captures, so no takasa.
#[test]
fn kujifunza_depth_one_by_hand() {
    let start = Position::start(RuleSet::KUJIFUNZA);
    let mut want: Vec<String> = Vec::new();
    for n in 1..=6 {
        want.push(format!("A{n}>"));
    }
    for n in 3..=8 {
        want.push(format!("A{n}<"));
    }
    // Back row: `<` is clockwise (towards B1, then A1).
    want.extend(["B1<", "B2<", "B7>", "B8>"].map(String::from));
    want.sort();
    assert_eq!(moves(&start), want);
    assert_eq!(perft(&start, 1), 16);
    assert_eq!(
        perft(&Position::start(RuleSet::ABSTRACTPLAY_KUJIFUNZA), 1),
        16
    );
}

/// Prints the data file's lines from the engine (run in release, see the file's header).
#[test]
#[ignore = "generator for tests/data/perft.txt; run in release with --nocapture"]
fn print_table() {
    for name in PRESET_NAMES {
        let start = Position::start(RuleSet::preset(name).unwrap());
        for depth in 1..=8 {
            println!("{name} {depth} {}", perft(&start, depth));
        }
    }
}
