//! The tag questions of a new record.

use bao_core::Side;
use bao_session::{
    AnswerProblem, Answers, Asking, Input, MatchChoice, Options, Prompt, Question, Reply,
    SessionError,
};

use crate::{defaults, line, move_prompt, read, started, temp, ENDGAME};

/// The open question and its default.
fn question(s: &bao_session::Session) -> (Question, String) {
    match s.prompt() {
        Some(Prompt::Question { question, default }) => (question, default),
        other => panic!("no question open: {other:?}"),
    }
}

#[test]
fn each_question_waits_for_its_answer_and_checks_it() {
    let (_dir, file) = temp();
    let options = Options {
        today: "2026.11.29".to_owned(),
        ..Options::default()
    };
    let (mut s, replies) = started(&file, options);
    assert!(matches!(replies[..], [Reply::NewRecord]));
    // The defaults are those of `bao new`.
    assert_eq!(question(&s), (Question::Event, "?".to_owned()));
    assert!(line(&mut s, "Club night").is_empty());
    assert_eq!(question(&s).0, Question::Site);
    line(&mut s, "");
    assert_eq!(question(&s), (Question::Date, "2026.11.29".to_owned()));
    assert_replies!(s, "29.11.2026", [Reply::BadAnswer(AnswerProblem::Date)]);
    assert_eq!(question(&s).0, Question::Date);
    line(&mut s, "2026.11.??");
    assert_eq!(question(&s), (Question::Round, "?".to_owned()));
    line(&mut s, "1");
    assert_eq!(question(&s), (Question::South, "?".to_owned()));
    line(&mut s, "Ali");
    assert_eq!(question(&s), (Question::North, "?".to_owned()));
    line(&mut s, "Bakari");
    assert_eq!(question(&s), (Question::RuleSet, "kiswahili".to_owned()));
    assert_replies!(
        s,
        "chess",
        [Reply::BadAnswer(AnswerProblem::UnknownRules { given })] if given == "chess"
    );
    line(&mut s, "kujifunza");
    assert_eq!(question(&s), (Question::Match, "n".to_owned()));
    // A cancelled line leaves the question standing.
    assert!(s.handle(Input::Cancel).unwrap().is_empty());
    assert_replies!(s, "perhaps", [Reply::BadAnswer(AnswerProblem::YesOrNo)]);
    line(&mut s, "YES");
    assert_eq!(
        question(&s),
        (Question::MatchName, "Club night 2026.11.??".to_owned())
    );
    // Nothing is written before the last answer.
    assert!(!file.exists());
    assert_replies!(s, "", [Reply::Recording, Reply::Board(ref b)] if b.south == "Ali");
    assert_eq!(move_prompt(&s), "1. South");
    let text = read(&file);
    for tag in [
        "[Event \"Club night\"]",
        "[Site \"?\"]",
        "[Date \"2026.11.??\"]",
        "[Round \"1\"]",
        "[RuleSet \"kujifunza\"]",
        "[Match \"Club night 2026.11.??\"]",
        "[Game \"1\"]",
    ] {
        assert!(text.contains(tag), "{tag} missing:\n{text}");
    }
    assert!(text.ends_with("\n\n*\n"), "{text}");
}

#[test]
fn answers_given_beforehand_are_not_asked() {
    let (_dir, file) = temp();
    let options = Options {
        today: "2026.11.29".to_owned(),
        answers: Answers {
            event: Some("Final".to_owned()),
            site: Some("Lamu".to_owned()),
            round: Some("2".to_owned()),
            south: Some("Ali".to_owned()),
            north: Some("Bakari".to_owned()),
            rules: Some("kiswahili".to_owned()),
            position: Some(ENDGAME.to_owned()),
            matches: MatchChoice::Single,
            ..Answers::default()
        },
        ..Options::default()
    };
    let (mut s, _) = started(&file, options);
    // Only the date is left to ask.
    assert_eq!(question(&s).0, Question::Date);
    assert_replies!(s, "", [Reply::Recording, Reply::Board(_)]);
    let text = read(&file);
    assert!(
        text.contains(&format!("[Position \"{ENDGAME}\"]")),
        "{text}"
    );
    assert!(!text.contains("[Match"), "{text}");
}

#[test]
fn a_session_that_may_not_ask_takes_every_default() {
    let (_dir, file) = temp();
    let options = Options {
        asking: Asking::Never,
        today: "2026.11.29".to_owned(),
        ..Options::default()
    };
    let (s, replies) = started(&file, options);
    assert!(matches!(
        replies[..],
        [Reply::NewRecord, Reply::Recording, Reply::Board(_)]
    ));
    assert_eq!(move_prompt(&s), "1. South");
    let text = read(&file);
    for tag in ["Event", "Site", "Round", "South", "North"] {
        assert!(text.contains(&format!("[{tag} \"?\"]\n")), "{tag}: {text}");
    }
}

#[test]
fn a_match_named_beforehand_names_the_event() {
    let (_dir, file) = temp();
    let mut options = defaults();
    options.answers.matches = MatchChoice::Named("Club final".to_owned());
    options.answers.south = Some("Ali".to_owned());
    options.answers.north = Some("Bakari".to_owned());
    started(&file, options);
    let text = read(&file);
    assert!(text.contains("[Event \"Club final\"]\n"), "{text}");
    assert!(text.contains("[Match \"Club final\"]\n"), "{text}");
    // An event given is kept.
    let (_dir, file) = temp();
    let mut options = defaults();
    options.answers.matches = MatchChoice::Named("Club final".to_owned());
    options.answers.event = Some("Lamu cup".to_owned());
    options.answers.south = Some("Ali".to_owned());
    options.answers.north = Some("Bakari".to_owned());
    started(&file, options);
    assert!(read(&file).contains("[Event \"Lamu cup\"]\n"));
}

#[test]
fn a_bad_answer_given_beforehand_stops_the_session() {
    let (_dir, file) = temp();
    let mut options = defaults();
    options.answers.rules = Some("chess".to_owned());
    let mut s = bao_session::Session::open(&file, options).unwrap();
    let e = s.start().unwrap_err();
    assert!(matches!(
        e,
        SessionError::Answer {
            question: Question::RuleSet,
            ..
        }
    ));
    assert_eq!(
        e.to_string(),
        format!(
            "RuleSet: Unknown rule set `chess`: the presets are {}, optionally followed by \
             name=value overrides.",
            bao_core::PRESET_NAMES.join(", ")
        )
    );
    assert!(s.prompt().is_none());
    assert!(!file.exists());
}

#[test]
fn a_match_needs_two_players_and_a_position_must_be_valid() {
    let (_dir, file) = temp();
    let mut options = defaults();
    options.answers.matches = MatchChoice::Named("M".to_owned());
    options.answers.south = Some("Ali".to_owned());
    options.answers.north = Some("Ali".to_owned());
    let mut s = bao_session::Session::open(&file, options).unwrap();
    assert!(matches!(
        s.start(),
        Err(SessionError::SamePlayers { ref name }) if name == "Ali"
    ));
    let mut options = defaults();
    options.answers.position = Some(
        "0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0 0/0 S XX -".to_owned(),
    );
    let mut s = bao_session::Session::open(&file, options).unwrap();
    assert!(matches!(s.start(), Err(SessionError::BadPosition)));
    assert!(!file.exists());
}

#[test]
fn the_players_of_a_match_game_change_seats_by_default() {
    let (_dir, file) = temp();
    let mut options = defaults();
    options.take_defaults = false;
    options.answers = Answers {
        event: Some("E".to_owned()),
        site: Some("S".to_owned()),
        date: Some("2026.11.29".to_owned()),
        round: Some("1".to_owned()),
        south: Some("Ali".to_owned()),
        north: Some("Bakari".to_owned()),
        rules: Some("kiswahili".to_owned()),
        position: None,
        matches: MatchChoice::Named("M".to_owned()),
    };
    let (mut s, _) = started(&file, options);
    line(&mut s, "resign");
    assert_replies!(
        s,
        "y",
        [Reply::GameOver(_), Reply::MatchScore(score), Reply::NextGame { number: 2 }]
            if score.score == [("Ali".to_owned(), 0), ("Bakari".to_owned(), 1)]
    );
    let player = |side| Question::Player { side, game: 2 };
    assert_eq!(question(&s), (player(Side::South), "Bakari".to_owned()));
    line(&mut s, "Chris");
    // Chris takes South: North is whoever sat North before, unless Bakari took South.
    assert_eq!(question(&s), (player(Side::North), "Bakari".to_owned()));
    line(&mut s, "");
    assert_eq!(move_prompt(&s), "1. South");
    assert!(read(&file).contains("[South \"Chris\"]\n[North \"Bakari\"]"));
}

#[test]
fn a_move_at_a_tag_question_takes_the_defaults_and_is_played() {
    let (_dir, file) = temp();
    let options = Options {
        today: "2026.11.29".to_owned(),
        ..Options::default()
    };
    let (mut s, _) = started(&file, options.clone());
    line(&mut s, "Club night");
    assert_replies!(
        s,
        "A6>*",
        [
            Reply::Recording,
            Reply::Board(_),
            Reply::QuestionDropped { line },
            Reply::Played(_),
            Reply::Board(_)
        ] if line == "A6>*"
    );
    let text = read(&file);
    assert!(
        text.contains("[Event \"Club night\"]\n[Site \"?\"]"),
        "{text}"
    );
    assert!(text.ends_with("\n\n1. A6>* *\n"), "{text}");
    // `quit` alone at a question leaves with nothing written; any other text is an answer.
    let (_dir, file) = temp();
    let (mut s, _) = started(&file, options);
    line(&mut s, "Quit smoking club");
    assert_eq!(question(&s).0, Question::Site);
    assert_replies!(s, "quit", [Reply::Left(bao_session::Left::NothingWritten)]);
    assert!(s.prompt().is_none());
    assert!(!file.exists());
}
