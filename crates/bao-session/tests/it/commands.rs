//! The prompt commands.

use bao_core::Side;
use bao_session::{
    AnswerProblem, Asking, Command, Ending, Help, Input, MatchChoice, Options, Prompt, Refusal,
    Reply, SideName,
};

use crate::{checks_clean, defaults, line, move_prompt, read, started, temp};

#[test]
fn undo_comment_and_glyphs_change_the_file_at_once() {
    let (_dir, file) = temp();
    let (mut s, _) = started(&file, defaults());
    assert!(matches!(
        line(&mut s, "undo")[..],
        [Reply::Refused(Refusal::NothingToUndo)]
    ));
    assert!(matches!(
        line(&mut s, "!")[..],
        [Reply::Refused(Refusal::GlyphWithoutPly)]
    ));
    line(&mut s, "A7>*");
    line(&mut s, "a6<*");
    assert_replies!(s, "U", [Reply::TookBack(t), Reply::Board(_)] if t.to_string() == "a6<*");
    assert!(read(&file).ends_with("\n\n1. A7>* *\n"));
    assert_eq!(move_prompt(&s), "1... North");
    assert_replies!(
        s,
        "!?",
        [Reply::Marked { token, glyph }] if token.to_string() == "A7>*" && glyph == "!?"
    );
    assert!(matches!(
        line(&mut s, "$300")[..],
        [Reply::Refused(Refusal::NoGlyph { .. })]
    ));
    assert!(matches!(line(&mut s, "$14")[..], [Reply::Marked { .. }]));
    assert!(matches!(
        line(&mut s, "comment {x}")[..],
        [Reply::Refused(Refusal::BraceInComment)]
    ));
    assert!(matches!(
        line(&mut s, "comment")[..],
        [Reply::Refused(Refusal::EmptyComment)]
    ));
    assert!(matches!(
        line(&mut s, "comment a  quiet start")[..],
        [Reply::CommentAdded]
    ));
    assert!(matches!(
        line(&mut s, "{braced}")[..],
        [Reply::CommentAdded]
    ));
    assert!(
        read(&file).ends_with("\n\n1. A7>*!? $14 {a  quiet start} {braced} *\n"),
        "{}",
        read(&file)
    );
    assert!(checks_clean(&file));
}

#[test]
fn glyphs_are_saved_in_order_as_typed() {
    let (_dir, file) = temp();
    let (mut s, _) = started(&file, defaults());
    line(&mut s, "A7>*");
    // Only digits after `$`.
    for bad in ["$+5", "$ 5", "$-1", "$256"] {
        assert!(
            matches!(
                line(&mut s, bad)[..],
                [Reply::Refused(Refusal::NoGlyph { .. })]
            ),
            "{bad}"
        );
    }
    assert!(matches!(line(&mut s, "$14")[..], [Reply::Marked { .. }]));
    assert!(matches!(line(&mut s, "??")[..], [Reply::Marked { .. }]));
    assert!(
        read(&file).ends_with("\n\n1. A7>* $14 ?? *\n"),
        "{}",
        read(&file)
    );
    assert!(checks_clean(&file));
}

#[test]
fn tags_are_set_unless_the_session_keeps_them_or_the_validator_objects() {
    let (_dir, file) = temp();
    let mut options = defaults();
    options.answers.matches = MatchChoice::Named("M".to_owned());
    options.answers.south = Some("Ali".to_owned());
    options.answers.north = Some("Bakari".to_owned());
    let (mut s, _) = started(&file, options);
    assert_replies!(
        s,
        "tag site  Stone  Town",
        [Reply::TagSet { name, value }] if name == "Site" && value == "Stone  Town"
    );
    assert!(read(&file).contains("[Site \"Stone  Town\"]"));
    assert!(matches!(
        &line(&mut s, "tag result 1-0")[..],
        [Reply::Refused(Refusal::OwnTag { name })] if name == "Result"
    ));
    assert!(matches!(
        line(&mut s, "tag 9lives x")[..],
        [Reply::Refused(Refusal::TagSyntax)]
    ));
    assert!(matches!(
        line(&mut s, "tag")[..],
        [Reply::Refused(Refusal::TagSyntax)]
    ));
    let replies = line(&mut s, "tags");
    let [Reply::Tags(tags)] = &replies[..] else {
        panic!("{replies:?}");
    };
    assert!(tags.contains(&("Match".to_owned(), "M".to_owned())));
    // A tag without a value is set empty.
    assert!(
        matches!(&line(&mut s, "tag Annotator")[..], [Reply::TagSet { value, .. }] if value.is_empty())
    );
    assert!(checks_clean(&file));
}

#[test]
fn resign_time_and_draw() {
    let (_dir, file) = temp();
    let (mut s, _) = started(&file, defaults());
    assert!(matches!(
        line(&mut s, "draw")[..],
        [Reply::Refused(Refusal::NoDraws)]
    ));
    assert!(matches!(
        line(&mut s, "resign east")[..],
        [Reply::Refused(Refusal::BadSide { command: "resign" })]
    ));
    assert!(matches!(
        line(&mut s, "time south north")[..],
        [Reply::Refused(Refusal::BadSide { command: "time" })]
    ));
    // North (not to move) loses on time, once confirmed.
    let replies = line(&mut s, "TIME n");
    let [Reply::Confirm(c)] = &replies[..] else {
        panic!("{replies:?}");
    };
    assert_eq!(
        (c.ending, c.loser),
        (Ending::TimeForfeit, Some(Side::North))
    );
    assert!(matches!(s.prompt(), Some(Prompt::Confirm(_))));
    assert!(matches!(
        line(&mut s, "maybe")[..],
        [Reply::BadAnswer(AnswerProblem::YesOrNo)]
    ));
    let replies = line(&mut s, "y");
    let [Reply::GameOver(over), Reply::Saved] = &replies[..] else {
        panic!("{replies:?}");
    };
    assert_eq!(over.ending, Ending::TimeForfeit);
    assert_eq!(over.result.to_string(), "1-0");
    assert!(matches!(s.prompt(), Some(Prompt::Finished { .. })));
    let text = read(&file);
    assert!(text.contains("[Termination \"time_forfeit\"]") && text.ends_with("\n\n1-0\n"));
    assert!(checks_clean(&file));
    // After the end a move is refused; `undo` takes the result back.
    assert_replies!(s, "A6>*", [Reply::Refused(Refusal::GameOver { .. })]);
    assert_replies!(s, "undo", [Reply::ResultTakenBack { .. }, Reply::Board(_)]);
    let text = read(&file);
    assert!(
        !text.contains("Termination") && text.ends_with("\n\n*\n"),
        "{text}"
    );
    assert_eq!(move_prompt(&s), "1. South");
    assert!(checks_clean(&file));
}

#[test]
fn an_ending_asked_to_be_confirmed_never_swallows_a_move() {
    let (_dir, file) = temp();
    let (mut s, _) = started(&file, defaults());
    // `n` (or an empty line) says no.
    assert!(matches!(line(&mut s, "resign")[..], [Reply::Confirm(_)]));
    assert!(matches!(line(&mut s, "")[..], [Reply::NotConfirmed]));
    // A move given at the question drops it and is played.
    assert!(matches!(line(&mut s, "resign")[..], [Reply::Confirm(_)]));
    assert_replies!(
        s,
        "A6>*",
        [Reply::QuestionDropped { line }, Reply::Played(_), Reply::Board(_)] if line == "A6>*"
    );
    // So is a command.
    assert!(matches!(line(&mut s, "time")[..], [Reply::Confirm(_)]));
    assert_replies!(
        s,
        "undo",
        [
            Reply::QuestionDropped { .. },
            Reply::TookBack(_),
            Reply::Board(_)
        ]
    );
    assert!(read(&file).ends_with("\n\n*\n"));
}

#[test]
fn a_session_that_may_not_ask_ends_a_game_without_a_question() {
    let (_dir, file) = temp();
    let options = Options {
        asking: Asking::Never,
        ..defaults()
    };
    let (mut s, _) = started(&file, options);
    assert_replies!(
        s,
        "resign",
        [Reply::GameOver(o), Reply::Saved] if o.result.to_string() == "0-1"
    );
    assert!(read(&file).ends_with("\n\n0-1\n"));
}

#[test]
fn a_draw_where_the_rules_know_draws() {
    let (_dir, file) = temp();
    let mut options = defaults();
    options.answers.rules = Some("kiswahili endless_move=draw".to_owned());
    let (mut s, _) = started(&file, options);
    assert_replies!(s, "draw", [Reply::Confirm(c)] if c.loser.is_none());
    assert_replies!(s, "yes", [Reply::GameOver(o), Reply::Saved] if o.ending == Ending::Agreement);
    assert!(read(&file).ends_with("\n\n1/2-1/2\n"));
}

#[test]
fn commands_may_come_parsed_and_help_comes_from_the_commands() {
    let (_dir, file) = temp();
    let (mut s, _) = started(&file, defaults());
    let replies = s
        .handle(Input::Command(Command::Comment {
            text: "from a button".to_owned(),
        }))
        .unwrap();
    assert!(matches!(replies[..], [Reply::CommentAdded]));
    assert_replies!(s, "help me", [Reply::Help(h)] if *h == Help::new());
    assert!(matches!(line(&mut s, "legal")[..], [Reply::Legal(ref m)] if m.len() == 4));
    assert!(matches!(line(&mut s, "b")[..], [Reply::Board(_)]));
    let replies = s
        .handle(Input::Command(Command::Resign {
            side: Some(SideName::South),
        }))
        .unwrap();
    assert!(matches!(&replies[..], [Reply::Confirm(_)]), "{replies:?}");
    assert_replies!(s, "y", [Reply::GameOver(o), Reply::Saved] if o.result.to_string() == "0-1");
    // After the end, the board is still shown; a move is refused.
    assert!(matches!(
        s.handle(Input::Command(Command::Board)).unwrap()[..],
        [Reply::Board(_)]
    ));
    assert!(matches!(
        s.handle(Input::Command(Command::Legal)).unwrap()[..],
        [Reply::Refused(Refusal::GameOver { .. })]
    ));
    assert!(read(&file).ends_with("\n\n{from a button} 0-1\n"));
}

#[test]
fn a_tag_change_the_validator_objects_to_is_refused() {
    let (_dir, file) = temp();
    let text =
        "[South \"Ali\"]\n[North \"Bakari\"]\n[Result \"0-1\"]\n[Termination \"resignation\"]\n\
         [Match \"M\"]\n[Game \"1\"]\n\n0-1\n\n\
         [South \"Bakari\"]\n[North \"Ali\"]\n[Result \"*\"]\n[Match \"M\"]\n[Game \"2\"]\n\n*\n";
    std::fs::write(&file, text).unwrap();
    let (mut s, replies) = started(&file, Options::default());
    assert!(matches!(
        replies[..],
        [Reply::Resuming { ply: 0 }, Reply::Board(_)]
    ));
    // A third player in game 2 of a match between Ali and Bakari.
    let replies = line(&mut s, "tag South Chris");
    let [Reply::TagRefused(report)] = &replies[..] else {
        panic!("{replies:?}");
    };
    assert!(!report.is_valid());
    assert_eq!(read(&file), text);
}
