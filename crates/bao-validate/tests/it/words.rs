//! The words of engine refusals (`bao_validate::words`): K1's Lamu names in every message
//! under Bao la Kete, on the positions of bao-core's K1 tests (`coverage::k1_*`), which
//! check the reasons themselves; and a never-ending move written without `*`.

use bao_core::{BySide, HouseState, Move, Pit, Position, Row, RuleSet, Setup, Side, Sign};
use bao_validate::words;

use crate::{check, codes};

const KISWAHILI_WORDS: [&str; 4] = ["namua", "nyumba", "takasia", "takasa"];

fn assert_lamu(rule: &str, message: &str) {
    for w in KISWAHILI_WORDS {
        assert!(
            !message.contains(w),
            "{rule} message uses `{w}` in kete: {message}"
        );
    }
}

/// The rule and the message of a refused move, in the position's words.
fn diagnose(pos: &Position, mv: &str) -> (String, String) {
    let e = pos.diagnose(&mv.parse().unwrap());
    (e.rule().to_owned(), words::reason(&e.reason, pos.rules()))
}

#[test]
fn k1_kete_names_in_messages() {
    let kete = Position::start(RuleSet::KETE);
    let kiswahili = Position::start(RuleSet::KISWAHILI);
    // N1: a back pit in nemo.
    let (rule, msg) = diagnose(&kete, "B1<*");
    assert_eq!(rule, "N1");
    assert!(msg.contains("nemo"), "{msg}");
    assert_lamu(&rule, &msg);
    assert!(diagnose(&kiswahili, "B1<*").1.contains("namua"));
    // N3: the functional kuu is not the only occupied front pit.
    let (rule, msg) = diagnose(&kete, "A5<*");
    assert_eq!(rule, "N3");
    assert!(msg.contains("kuu") && msg.contains("takata"), "{msg}");
    assert_lamu(&rule, &msg);
    assert!(diagnose(&kiswahili, "A5<*").1.contains("nyumba"));
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
            let message = words::reason(&e.reason, pos.rules());
            assert_lamu(e.rule(), &message);
            if e.rule() == "K4" {
                k4 += 1;
                assert!(message.contains("hizi zetu"), "{message}");
            }
        }
    }
    assert!(k4 > 0, "no K4 diagnostic in K4-02");
}

/// Kete mtaji, kuu destroyed, no capture: A1 holds 3, B1 2.
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
fn k1_kete_m4_g6_and_g10_messages_say_takata() {
    let pos = kete_mtaji_without_capture();
    let (rule, msg) = diagnose(&pos, "B1<*");
    assert_eq!(rule, "M4");
    assert!(msg.contains("takata"), "{msg}");
    assert_lamu(&rule, &msg);
    // G6: written as a capture, but no capture exists: every move is a takata.
    let (rule, msg) = diagnose(&pos, "A1>");
    assert_eq!(rule, "G6");
    assert!(msg.contains("takata") && msg.contains("A1>*"), "{msg}");
    assert_lamu(&rule, &msg);
    // G10: the lone kichwa sown away from the centre empties the front row.
    let (rule, msg) = diagnose(&pos, "A1<*");
    assert_eq!(rule, "G10");
    assert!(msg.contains("takata"), "{msg}");
    assert_lamu(&rule, &msg);
}

#[test]
fn a_refusal_is_worded_with_its_move_and_rule() {
    let start = Position::start(RuleSet::KISWAHILI);
    let err = start.play(&"a6<*".parse().unwrap()).unwrap_err();
    assert_eq!(
        words::play_error(&err, start.rules()),
        "a6<* is illegal (G1): a6 is not South's pit: a player sows only his own pits"
    );
    let spec = "A6".parse().unwrap();
    let err = start.resolve(&spec).unwrap_err();
    assert_eq!(
        words::resolve_error(&spec, &err, start.rules()),
        "A6 is illegal (G7): ambiguous: A6<*, A6>* are all legal; write the sign"
    );
}

/// Mancala World Problem 3 reached by play (`fixtures/invalid/illegal/never_ending.bao`),
/// its never-ending `12. A3<*` written without `*` (`A3L`: K.I.B.A. for `A3<`). No capture
/// exists, so the token is read as the takasa, which never ends: G11 with its cycle, as for
/// the move written with `*`, not "not a capture" (issue 14, item 6).
#[test]
fn a_never_ending_takasa_written_without_star_is_g11() {
    let moves = "1. A6<* a6> 2. A4> a6> 3. A5< a3> 4. A8>+ a8> 5. A4> a4< 6. A8> a7> 7. A1< a4> \
                 8. A6> a4< 9. A2< a4< 10. A4< a4< 11. A7> a4< 12.";
    for (token, shown) in [("A3<*", "A3<*"), ("A3<", "A3<"), ("A3L", "A3<")] {
        let text = format!("[Event \"Problem 3\"]\n\n{moves} {token} *\n");
        let checked = check("p3.bao", &text);
        assert_eq!(codes(&checked), ["bao::illegal::never_ending"], "{token}");
        let d = &checked.report.diagnostics[0];
        assert_eq!(
            d.to_string(),
            format!(
                "{shown} is illegal: the move never ends (its sowing repeats every 228 laps \
                 from the end of lap 1)"
            ),
            "{token}"
        );
    }
}

/// G11 is worded once (`words::reason`): `bao check`'s message and the replay's sentence
/// (`words::resolve_error`, what `bao replay` prints) say the same, with the lap counted
/// right ("1 lap", "228 laps").
#[test]
fn never_ending_is_worded_once() {
    use bao_core::{IllegalReason, NeverEnding};
    let rules = RuleSet::KISWAHILI;
    for (period, laps) in [(1, "1 lap"), (228, "228 laps")] {
        let reason = IllegalReason::NeverEnding(NeverEnding {
            cycle_start_lap: 3,
            period,
        });
        assert_eq!(
            words::reason(&reason, &rules),
            format!("the move never ends (its sowing repeats every {laps} from the end of lap 3)")
        );
    }
    let moves = "1. A6<* a6> 2. A4> a6> 3. A5< a3> 4. A8>+ a8> 5. A4> a4< 6. A8> a7> 7. A1< a4> \
                 8. A6> a4< 9. A2< a4< 10. A4< a4< 11. A7> a4< 12. A3<* *\n";
    let checked = check("p3.bao", &format!("[Event \"Problem 3\"]\n\n{moves}"));
    let replayed = &checked.replayed[0];
    let ply = replayed.main.plies.last().expect("ply 23");
    let Err(bao_replay::Problem::Refused { spec, refusal, .. }) = &ply.outcome else {
        panic!("refused");
    };
    let why = words::resolve_reason(refusal, &rules);
    assert_eq!(
        checked.report.diagnostics[0].to_string(),
        format!("A3<* is illegal: {why}")
    );
    assert_eq!(
        words::resolve_error(spec, refusal, &rules),
        format!("A3<* is illegal (G11): {why}")
    );
}

/// The rules and position-JSON refusals are worded here, not in bao-core's `Display` (the
/// CLI's messages, byte for byte as before).
#[test]
fn rule_and_position_json_refusals_are_worded_here() {
    use bao_core::RuleSpecError;
    let presets = "kiswahili, kete, kujifunza, abstractplay, abstractplay-kujifunza";
    assert_eq!(
        words::unknown_preset("zanzibar"),
        format!("unknown rule preset `zanzibar` (known: {presets})")
    );
    let e = RuleSet::from_spec("zanzibar").unwrap_err();
    assert!(matches!(e, RuleSpecError::UnknownPreset(_)));
    assert_eq!(
        words::rule_spec_error(&e),
        format!("unknown preset `zanzibar`; the presets are {presets}")
    );
    let e = RuleSet::from_spec("kiswahili takasia=sometimes").unwrap_err();
    assert_eq!(
        words::rule_spec_error(&e),
        "rule option `takasia` cannot be `sometimes`: expected off, standard or abstractplay"
    );
    // South to move in mtaji with a hand of 22 (bao-cli's `position_json_error` words a
    // position JSON's stage mismatch with it).
    assert_eq!(
        words::stage_mismatch(
            bao_core::Stage::Mtaji,
            Side::South,
            22,
            &RuleSet::KISWAHILI.names()
        ),
        "stage is mtaji but South, to move, has 22 seeds in hand \
         (namua while the hand is not empty, else mtaji)"
    );
}
