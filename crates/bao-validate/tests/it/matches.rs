use bao_validate::{check_bytes_report, CheckOptions};

use crate::{check, codes};

/// The three games of a match named `final` at `event` (results unknown).
fn final_of(event: &str) -> String {
    let game = |n: u32, result: &str| {
        format!(
            "[Event \"{event}\"]\n[Site \"Zanzibar\"]\n[South \"Amina\"]\n[North \"Juma\"]\n\
             [Match \"final\"]\n[Game \"{n}\"]\n\n1. A6<* {result}\n\n"
        )
    };
    [game(1, "*"), game(2, "*"), game(3, "*")].concat()
}

/// Two events that each hold a match called `final` are two matches: the file checks clean
/// (keyed by the `Match` value alone, it was six games of one match).
#[test]
fn two_events_with_the_same_match_name_check_clean() {
    let text = format!("{}{}", final_of("Cup"), final_of("League"));
    let checked = check("m.bao", &text);
    assert!(codes(&checked).is_empty(), "{:?}", codes(&checked));
    // The streamed check keys them the same way.
    let streamed = check_bytes_report("m.bao", text.as_bytes(), &CheckOptions::default());
    assert!(streamed.diagnostics.is_empty());
    // One event holding both: six games of one match.
    let one = format!("{}{}", final_of("Cup"), final_of("Cup"));
    let checked = check("m.bao", &one);
    assert_eq!(
        codes(&checked),
        ["bao::record::match_inconsistent"; 3],
        "{:?}",
        codes(&checked)
    );
}

/// A game of the same match name at another `Site` is another match.
#[test]
fn the_site_is_part_of_the_match() {
    let text = final_of("Cup");
    let moved = text.replacen("[Site \"Zanzibar\"]", "[Site \"Dar\"]", 1);
    // Game 1 is alone in its match (numbered 1: fine); the other two start theirs at 2.
    let got = codes(&check("m.bao", &moved));
    assert_eq!(got, ["bao::record::match_inconsistent"; 2], "{got:?}");
}
