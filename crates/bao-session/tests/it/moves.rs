//! Moves: played, refused, completed by a question.

use bao_session::{AnswerProblem, Asking, Decision, Input, OptionKind, Prompt, Refusal, Reply};

use crate::{checks_clean, defaults, line, move_prompt, read, started, temp, ENDGAME};

#[test]
fn a_move_is_on_disk_when_its_reply_comes() {
    let (_dir, file) = temp();
    let (mut s, _) = started(&file, defaults());
    for (mv, tail, next) in [
        ("A7>*", "\n\n1. A7>* *\n", "1... North"),
        // K.I.B.A. dialect, the sign read in the mover's seat.
        ("a6L*", "\n\n1. A7>* a6<* *\n", "2. South"),
        ("2. A6>!", "\n\n1. A7>* a6<* 2. A6>! *\n", "2... North"),
    ] {
        let replies = line(&mut s, mv);
        assert!(
            matches!(replies[..], [Reply::Played(_), Reply::Board(_)]),
            "{mv}: {replies:?}"
        );
        assert!(read(&file).ends_with(tail), "{mv}: {}", read(&file));
        assert_eq!(move_prompt(&s), next);
    }
    assert!(checks_clean(&file));
}

#[test]
fn an_illegal_move_gets_the_validators_diagnostic_and_the_legal_moves() {
    let (_dir, file) = temp();
    let (mut s, _) = started(&file, defaults());
    line(&mut s, "A7>*");
    let before = read(&file);
    let replies = line(&mut s, "a5");
    let [Reply::Illegal { written, report }, Reply::Legal(legal)] = &replies[..] else {
        panic!("{replies:?}");
    };
    assert_eq!(written.to_string(), "a5");
    let report = report.as_ref().expect("a diagnostic");
    assert_eq!(report.diagnostics[0].code(), "bao::illegal::not_a_capture");
    let legal: Vec<String> = legal.iter().map(ToString::to_string).collect();
    assert_eq!(legal, ["a6<*", "a6>*", "a7<*", "a7>*"]);
    assert_eq!(read(&file), before);
    assert_eq!(move_prompt(&s), "1... North");
}

#[test]
fn lines_that_are_no_move_are_refused() {
    let (_dir, file) = temp();
    let (mut s, _) = started(&file, defaults());
    let before = read(&file);
    assert!(matches!(
        line(&mut s, "xyz")[..],
        [Reply::Refused(Refusal::NotAMove { .. })]
    ));
    assert!(matches!(
        line(&mut s, "A6<* a5>")[..],
        [Reply::Refused(Refusal::NotOneMove { .. })]
    ));
    assert!(matches!(
        line(&mut s, "1-0")[..],
        [Reply::Refused(Refusal::NotOneMove { .. })]
    ));
    assert!(matches!(
        line(&mut s, "A6> [xa5]")[..],
        [Reply::Refused(Refusal::Annotated)]
    ));
    // A command word followed by what it does not take is read as a move.
    assert!(matches!(
        line(&mut s, "board now")[..],
        [Reply::Refused(Refusal::NotAMove { .. })]
    ));
    assert!(line(&mut s, "   ").is_empty());
    assert_eq!(read(&file), before);
}

#[test]
fn which_kichwa_then_stop_or_safari() {
    let (_dir, file) = temp();
    let (mut s, _) = started(&file, defaults());
    line(&mut s, "A7<*");
    let replies = line(&mut s, "a5");
    let [Reply::Choice(choice)] = &replies[..] else {
        panic!("{replies:?}");
    };
    assert_eq!(choice.decision, Decision::Kichwa);
    assert_eq!(choice.pit.to_string(), "a5");
    let kinds: Vec<OptionKind> = choice.options.iter().map(|o| o.kind).collect();
    assert_eq!(kinds, [OptionKind::LeftKichwa, OptionKind::RightKichwa]);
    assert_eq!(s.prompt(), Some(Prompt::Choice { count: 2 }));
    let replies = line(&mut s, "3");
    assert!(matches!(
        replies[..],
        [Reply::BadAnswer(AnswerProblem::NoSuchOption { count: 2 })]
    ));
    // The key `l` picks the left kichwa.
    let replies = line(&mut s, "l");
    assert!(matches!(replies[..], [Reply::Played(_), Reply::Board(_)]));
    line(&mut s, "A6<*");
    line(&mut s, "a5>");
    let replies = line(&mut s, "A2<");
    let [Reply::Choice(choice)] = &replies[..] else {
        panic!("{replies:?}");
    };
    assert_eq!(choice.decision, Decision::Safari);
    // Another move is no answer; the move itself is one (in any case).
    line(&mut s, "A3<");
    assert!(matches!(s.prompt(), Some(Prompt::Choice { .. })));
    line(&mut s, "a2<+");
    assert!(read(&file).ends_with("\n\n1. A7<* a5< 2. A6<* a5> 3. A2<+ *\n"));
    assert!(checks_clean(&file));
}

#[test]
fn a_question_is_cancelled_by_an_empty_line_or_a_cancel() {
    let (_dir, file) = temp();
    let (mut s, _) = started(&file, defaults());
    let before = read(&file);
    for cancel in [Input::Line(""), Input::Cancel] {
        let replies = line(&mut s, "A6");
        assert!(matches!(&replies[..], [Reply::Choice(c)] if c.decision == Decision::Direction));
        let replies = s.handle(cancel).unwrap();
        assert!(matches!(replies[..], [Reply::MoveCancelled]));
        assert_eq!(move_prompt(&s), "1. South");
    }
    assert_eq!(read(&file), before);
    line(&mut s, "A6");
    line(&mut s, ">");
    assert!(read(&file).ends_with("\n\n1. A6>* *\n"));
}

#[test]
fn a_session_that_may_not_ask_refuses_a_move_with_a_decision_open() {
    let (_dir, file) = temp();
    let mut options = defaults();
    options.asking = Asking::Never;
    let (mut s, _) = started(&file, options);
    let replies = line(&mut s, "A6");
    let [Reply::Refused(Refusal::Undecided { candidates })] = &replies[..] else {
        panic!("{replies:?}");
    };
    let candidates: Vec<String> = candidates.iter().map(ToString::to_string).collect();
    assert_eq!(candidates, ["A6<*", "A6>*"]);
    assert_eq!(move_prompt(&s), "1. South");
    line(&mut s, "A6<");
    assert!(read(&file).ends_with("\n\n1. A6<* *\n"));
}

#[test]
fn a_move_that_ends_the_game_writes_the_result_and_ends_the_session() {
    let (_dir, file) = temp();
    let mut options = defaults();
    options.answers.position = Some(ENDGAME.to_owned());
    let (mut s, _) = started(&file, options);
    line(&mut s, "A5<");
    let replies = line(&mut s, "b4>");
    let [Reply::Played(played), Reply::GameOver(over), Reply::Saved] = &replies[..] else {
        panic!("{replies:?}");
    };
    assert!(played.trace.outcome.is_some());
    assert_eq!(over.result.to_string(), "0-1");
    assert_eq!(over.ending.tag_value(), "bao_hamna");
    assert!(s.prompt().is_none());
    let text = read(&file);
    assert!(text.ends_with("\n\n1. A5< b4># 0-1\n"), "{text}");
    assert!(text.contains("[Termination \"bao_hamna\"]"), "{text}");
    assert!(checks_clean(&file));
}
