use std::sync::Arc;

use bao_validate::{check_full, AnyDiagnostic, CheckOptions};

use crate::{check, codes};

const SHORT: &str = "1. A7>* a6<* 2. A6> a5> 3. A2< 1-0\n";

fn help_of(c: &bao_validate::Checked, i: usize) -> String {
    match &c.report.diagnostics[i] {
        AnyDiagnostic::Check(d) => d.help.clone().unwrap_or_default(),
        AnyDiagnostic::Syntax(e) => e.help.clone().unwrap_or_default(),
    }
}

#[test]
fn the_short_game_is_clean() {
    assert_eq!(codes(&check("s", SHORT)), Vec::<&str>::new());
}

#[test]
fn a_flipped_direction_is_suggested_and_can_be_assumed() {
    let text = SHORT.replace("3. A2<", "3. A1<");
    let c = check("s", &text);
    assert_eq!(codes(&c), ["bao::illegal::empty_pit"]);
    assert!(
        help_of(&c, 0).contains("Did you mean A2< ?"),
        "{}",
        help_of(&c, 0)
    );
    assert_eq!(c.report.stats.plies, 4);
    let fixed = check_full(
        "s",
        Arc::from(text.as_str()),
        &CheckOptions { assume_fixes: true },
    );
    assert_eq!(codes(&fixed), ["bao::illegal::empty_pit"]);
    assert_eq!(fixed.report.stats.plies, 5);
}

#[test]
fn later_diagnostics_say_they_assume_the_fix() {
    let text = SHORT.replace("3. A2< 1-0", "3. A1< a5>* 1-0");
    let fixed = check_full(
        "s",
        Arc::from(text.as_str()),
        &CheckOptions { assume_fixes: true },
    );
    let AnyDiagnostic::Check(d) = &fixed.report.diagnostics[1] else {
        panic!("{:?}", fixed.report.diagnostics)
    };
    assert_eq!(d.code.code(), "bao::record::game_continues_after_end");
    assert_eq!(d.assumes, Some((5, "A2<".to_owned())));
    assert!(d.to_string().contains("assuming A2< at ply 5"));
}

#[test]
fn a_record_in_another_sign_convention_is_recognised() {
    // North's signs as seen from South's seat.
    let games = std::fs::read_to_string(crate::fixtures_dir().join("games/random_kiswahili_3.bao"))
        .unwrap();
    // The same game with North's signs as seen from South's seat.
    let text = to_south_convention(&games);
    let text = text.as_str();
    let c = check("s", text);
    assert!(!c.report.is_valid());
    let all: String = (0..c.report.diagnostics.len())
        .map(|i| help_of(&c, i))
        .collect();
    assert!(all.contains("[Directions \"south\"]"), "{all}");
    let tagged = text.replacen("[Event", "[Directions \"south\"]\n[Event", 1);
    assert_eq!(codes(&check("s", &tagged)), Vec::<&str>::new());
}

#[test]
fn variations_are_checked_from_their_branch_point() {
    let text = "1. A7>* a6<* 2. A6> (2. A6>* ) a5> 3. A2< 1-0\n";
    let c = check("s", text);
    assert_eq!(codes(&c), ["bao::illegal::capture_mandatory"]);
    let AnyDiagnostic::Check(d) = &c.report.diagnostics[0] else {
        panic!()
    };
    assert_eq!(d.ply, Some(3));
    assert_eq!(c.report.stats.plies, 5);
}

#[test]
fn swapped_plies_are_noticed() {
    let text = "1. A7>* a6<* 2. a5> A6> 3. A2< 1-0\n";
    let c = check("s", text);
    assert_eq!(codes(&c)[0], "bao::illegal::not_own_pit");
    assert!(
        help_of(&c, 0).contains("two plies swapped"),
        "{}",
        help_of(&c, 0)
    );
}

#[test]
fn rule_overrides_are_read() {
    let ok = "[Rules \"mtaji_takasa_house=relay capture_threshold=12\"]\n\n1. A6<* *\n";
    assert_eq!(codes(&check("s", ok)), Vec::<&str>::new());
    let bad = "[Rules \"mtaji_takasa_house=sometimes\"]\n\n1. A6<* *\n";
    assert_eq!(codes(&check("s", bad)), ["bao::record::unknown_rules"]);
}

#[test]
fn overrides_after_the_preset_in_the_ruleset_tag_are_read() {
    let plain = "[RuleSet \"kujifunza\"]\n\n1. A2>* *\n";
    assert_eq!(
        codes(&check("s", plain)),
        ["bao::illegal::capture_mandatory"]
    );
    // With a capture threshold of 2 no first lap of two seeds captures: A2>* is legal.
    let changed = "[RuleSet \"kujifunza capture_threshold=2\"]\n\n1. A2>* *\n";
    assert_eq!(codes(&check("s", changed)), Vec::<&str>::new());
    let bad = "[RuleSet \"kujifunza takasia=sometimes\"]\n\n1. A2> *\n";
    assert_eq!(codes(&check("s", bad)), ["bao::record::unknown_rules"]);
}

#[test]
fn an_invalid_kete_position_is_explained_with_kuu() {
    let text = "[RuleSet \"kete\"]\n[Position \"0,0,0,0,5,2,2,1/0,0,0,0,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 22/22 S DF -\"]\n\n*\n";
    let c = check("k", text);
    assert_eq!(codes(&c), ["bao::record::invalid_position"]);
    let h = help_of(&c, 0);
    assert!(h.contains("kuu") && !h.contains("nyumba"), "{h}");
}

#[test]
fn kete_messages_use_lamu_words() {
    let text = std::fs::read_to_string(
        crate::fixtures_dir().join("invalid/illegal/first_takata_from_kuu.bao"),
    )
    .unwrap();
    let c = check("k", &text);
    let h = help_of(&c, 0);
    assert!(h.contains("kuu") && h.contains("takata"), "{h}");
}

fn to_south_convention(text: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    let mut north_token = false;
    let mut prev = ' ';
    for ch in text.chars() {
        match ch {
            '[' if prev == '\n' || out.is_empty() => in_tag = true,
            '\n' => in_tag = false,
            _ => {}
        }
        if !in_tag && (prev == ' ' || prev == '\n') {
            north_token = ch == 'a' || ch == 'b';
        }
        let c = match ch {
            '<' if north_token && !in_tag => '>',
            '>' if north_token && !in_tag => '<',
            c => c,
        };
        if ch == ' ' {
            north_token = false;
        }
        out.push(c);
        prev = ch;
    }
    out
}
