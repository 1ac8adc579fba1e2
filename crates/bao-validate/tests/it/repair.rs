use std::sync::Arc;

use bao_validate::{check_full, AnyDiagnostic, CheckOptions, Repair};

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
        &CheckOptions {
            assume_fixes: true,
            ..CheckOptions::default()
        },
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
        &CheckOptions {
            assume_fixes: true,
            ..CheckOptions::default()
        },
    );
    let AnyDiagnostic::Check(d) = &fixed.report.diagnostics[1] else {
        panic!("{:?}", fixed.report.diagnostics)
    };
    assert_eq!(d.code.code(), "bao::record::game_continues_after_end");
    assert_eq!(
        d.assumes.map(|a| (a.ply, a.mv.to_string())),
        Some((5, "A2<".to_owned()))
    );
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
    assert_eq!(codes(&c), ["bao::illegal::not_own_pit"]);
    let h = help_of(&c, 0);
    assert!(
        h.contains("Plies 3 and 4 look swapped: A6> here (it captures a3), then a5> after it"),
        "{h}"
    );
    let d = first_check(&c);
    assert_eq!(d.fix, None);
    let r = d.repair.as_ref().expect("a repair");
    assert_eq!(r.mv.to_string(), "A6>");
    assert!(
        matches!(r.repair, Repair::Swap { ply: 3, with_ply: 4, written } if written.to_string() == "a5>"),
        "{r:?}"
    );
    // Assumed, the game goes on to its end: every ply replays and the result agrees.
    let fixed = check_full(
        "s",
        Arc::from(text),
        &CheckOptions {
            assume_fixes: true,
            ..CheckOptions::default()
        },
    );
    assert_eq!(codes(&fixed), ["bao::illegal::not_own_pit"]);
    assert_eq!(fixed.report.stats.plies, 5);
}

fn first_check(c: &bao_validate::Checked) -> &bao_validate::CheckDiagnostic {
    c.report
        .diagnostics
        .iter()
        .find_map(|d| match d {
            AnyDiagnostic::Check(d) => Some(d),
            AnyDiagnostic::Syntax(_) => None,
        })
        .expect("a diagnostic")
}

fn fixture(name: &str) -> String {
    std::fs::read_to_string(crate::fixtures_dir().join("invalid/repair").join(name)).unwrap()
}

/// The plies of the game the repair fixtures were made from (15, all of them legal).
const FIXTURE_PLIES: usize = 15;

#[test]
fn each_ply_repair_fixture_is_repaired_by_its_assumption() {
    for (name, ply, kind) in [
        ("swapped_plies.bao", 9, "swap"),
        ("swapped_moves.bao", 7, "swap"),
        ("missing_ply.bao", 8, "insert"),
    ] {
        let text = fixture(name);
        let c = check(name, &text);
        assert_eq!(codes(&c).len(), 1, "{name}: {:?}", codes(&c));
        let d = first_check(&c);
        assert_eq!(d.ply, Some(ply), "{name}");
        let r = d.repair.as_ref().expect("a repair");
        let got = match r.repair {
            Repair::Swap { .. } => "swap",
            Repair::Insert { .. } => "insert",
            Repair::Replace => "replace",
            Repair::Earlier { .. } => "earlier",
            Repair::Delete { .. } => "delete",
        };
        assert_eq!(got, kind, "{name}");
        // With --assume-fixes the rest of the game replays without another diagnostic,
        // annotations included.
        let fixed = check_full(
            name,
            Arc::from(text.as_str()),
            &CheckOptions {
                assume_fixes: true,
                ..CheckOptions::default()
            },
        );
        assert_eq!(codes(&fixed).len(), 1, "{name}: {:?}", codes(&fixed));
        assert_eq!(fixed.report.stats.plies, FIXTURE_PLIES, "{name}");
    }
}

#[test]
fn a_diagnostic_after_an_assumed_swap_says_so() {
    // The swapped plies of the fixture, then a move of the wrong player.
    let text = fixture("swapped_plies.bao").replace("8. A6< [xa3:1 A1:1] *", "8. a6< *");
    let fixed = check_full(
        "s",
        Arc::from(text.as_str()),
        &CheckOptions {
            assume_fixes: true,
            ..CheckOptions::default()
        },
    );
    let c = codes(&fixed);
    assert_eq!(
        c,
        ["bao::illegal::not_own_pit", "bao::illegal::not_own_pit"]
    );
    let AnyDiagnostic::Check(d) = &fixed.report.diagnostics[1] else {
        panic!()
    };
    assert_eq!(
        d.assumes.map(|a| (a.ply, a.mv.to_string())),
        Some((9, "A5>".to_owned()))
    );
    assert_eq!(d.ply, Some(15));
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

/// A ply's diagnostic carries the typed problem it words beside its words; a game's (here
/// the result) carries none.
#[test]
fn a_diagnostic_carries_its_typed_problem() {
    let refused = check("s", &SHORT.replace("3. A2<", "3. A1<"));
    let AnyDiagnostic::Check(d) = &refused.report.diagnostics[0] else {
        panic!("{:?}", refused.report.diagnostics)
    };
    assert!(
        matches!(
            d.problem.as_deref(),
            Some(bao_replay::Problem::Refused { .. })
        ),
        "{d:?}"
    );
    let claim = check("s", &SHORT.replace("1. A7>*", "1. A7>*#"));
    let problems: Vec<_> = claim
        .report
        .diagnostics
        .iter()
        .filter_map(|d| match d {
            AnyDiagnostic::Check(c) => Some((c.code.code(), c.problem.as_deref().cloned())),
            AnyDiagnostic::Syntax(_) => None,
        })
        .collect();
    assert!(
        problems.contains(&(
            "bao::annotation::false_win_claim",
            Some(bao_replay::Problem::FalseWinClaim)
        )),
        "{problems:?}"
    );
}
