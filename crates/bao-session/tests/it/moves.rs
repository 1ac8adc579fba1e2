//! Moves: played, refused, completed by a question.

use bao_session::{
    AnswerProblem, Asking, Decision, Input, Left, OptionKind, Prompt, Refusal, Reply,
};

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
    // The report is about the move as typed, numbered as its side's move, not about a
    // line of the file.
    assert_eq!(report.name, "typed");
    assert_eq!(&*report.text, "1... a5");
    assert_eq!(report.stats.errors, 1);
    line(&mut s, "a6<*");
    let replies = line(&mut s, "A1<*");
    let [Reply::Illegal {
        report: Some(report),
        ..
    }, Reply::Legal(_)] = &replies[..]
    else {
        panic!("{replies:?}");
    };
    assert_eq!(&*report.text, "2. A1<*");
    // Glyphs typed with the move change nothing of it.
    let replies = line(&mut s, "A1<* !? $14");
    let [Reply::Illegal {
        report: Some(report),
        ..
    }, Reply::Legal(_)] = &replies[..]
    else {
        panic!("{replies:?}");
    };
    assert_eq!(&*report.text, "2. A1<*");
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
    // Typos get words about what is wrong, the words `bao check` gives them.
    for (typed, words) in [
        ("A9<", "there is no pit A9"),
        ("A44", "there is no pit A44"),
        ("A4 >", "no space inside a move"),
    ] {
        let replies = line(&mut s, typed);
        assert!(
            matches!(&replies[..], [Reply::Refused(Refusal::NotAMove { why, .. })] if why.contains(words)),
            "{typed}: {replies:?}"
        );
    }
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
    assert_replies!(
        s,
        "3",
        [Reply::BadAnswer(AnswerProblem::NoSuchOption { count: 2 })]
    );
    // The key `l` picks the left kichwa.
    assert_replies!(s, "l", [Reply::Played(_), Reply::Board(_)]);
    line(&mut s, "A6<*");
    line(&mut s, "a5>");
    // With its sign, A2< names the stop at the nyumba: no question.
    assert_replies!(s, "A2<", [Reply::Played(_), Reply::Board(_)]);
    assert!(read(&file).ends_with("\n\n1. A7<* a5< 2. A6<* a5> 3. A2< *\n"));
    line(&mut s, "undo");
    // A bare pit leaves stop or safari open (A2 has one direction here).
    let replies = line(&mut s, "A2");
    let [Reply::Choice(choice)] = &replies[..] else {
        panic!("{replies:?}");
    };
    assert_eq!(choice.decision, Decision::Safari);
    // The move itself is an answer (in any case).
    line(&mut s, "a2<+");
    assert!(read(&file).ends_with("\n\n1. A7<* a5< 2. A6<* a5> 3. A2<+ *\n"));
    assert!(checks_clean(&file));
}

#[test]
fn a_question_never_swallows_a_move_or_a_command() {
    let (_dir, file) = temp();
    let (mut s, _) = started(&file, defaults());
    assert_replies!(s, "A6", [Reply::Choice(c)] if c.decision == Decision::Direction);
    // A move that is no option drops the question and is taken as typed.
    assert_replies!(
        s,
        "A7>*",
        [Reply::QuestionDropped { line }, Reply::Played(_), Reply::Board(_)] if line == "A7>*"
    );
    // So is a command (and an illegal move, refused as at the move prompt).
    line(&mut s, "a6");
    assert_replies!(
        s,
        "quit",
        [
            Reply::QuestionDropped { .. },
            Reply::Left(Left::Saved { plies: 1 })
        ]
    );
    assert!(read(&file).ends_with("\n\n1. A7>* *\n"));
    let (mut s, _) = started(&file, defaults());
    line(&mut s, "a6");
    let replies = assert_replies!(
        s,
        "b8<",
        [
            Reply::QuestionDropped { .. },
            Reply::Illegal { .. },
            Reply::Legal(_)
        ]
    );
    assert!(replies.iter().any(Reply::rejects_line));
    assert!(read(&file).ends_with("\n\n1. A7>* *\n"));
}

#[test]
fn a_question_is_cancelled_by_an_empty_line_or_a_cancel() {
    let (_dir, file) = temp();
    let (mut s, _) = started(&file, defaults());
    let before = read(&file);
    for cancel in [Input::Line(""), Input::Cancel] {
        assert_replies!(s, "A6", [Reply::Choice(c)] if c.decision == Decision::Direction);
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
fn a_move_that_ends_the_game_writes_the_result_and_stays_for_undo() {
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
    assert!(matches!(s.prompt(), Some(Prompt::Finished { .. })));
    let text = read(&file);
    assert!(text.ends_with("\n\n1. A5< b4># 0-1\n"), "{text}");
    assert!(text.contains("[Termination \"bao_hamna\"]"), "{text}");
    assert!(checks_clean(&file));
}
