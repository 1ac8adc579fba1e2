//! Opening, resuming and leaving: what is on disk when.

use bao_session::{Input, Left, OpenError, Options, Prompt, Question, Reply, Session};

use crate::{checks_clean, defaults, line, move_prompt, read, started, temp, ENDGAME};

#[test]
fn an_unfinished_game_resumes_where_it_stopped() {
    let (_dir, file) = temp();
    let (mut s, _) = started(&file, defaults());
    line(&mut s, "A7>*");
    line(&mut s, "a6<*");
    line(&mut s, "A6>");
    // The session is dropped without leaving (a killed process): the file is complete.
    drop(s);
    let (mut s, replies) = started(&file, Options::default());
    assert!(
        matches!(replies[..], [Reply::Resuming { ply: 3 }, Reply::Board(_)]),
        "{replies:?}"
    );
    assert_eq!(move_prompt(&s), "2... North");
    line(&mut s, "a5>");
    line(&mut s, "A2<#");
    assert!(read(&file).ends_with("1. A7>* a6<* 2. A6> a5> 3. A2<# 1-0\n"));
    assert!(checks_clean(&file));
}

#[test]
fn a_game_the_rules_ended_gets_its_result_on_resuming() {
    let (_dir, file) = temp();
    std::fs::write(
        &file,
        format!("[Position \"{ENDGAME}\"]\n\n1. A5< b4># *\n"),
    )
    .unwrap();
    let (mut s, replies) = started(&file, Options::default());
    assert!(
        matches!(&replies[..], [Reply::GameOver(o), Reply::Saved] if o.result.to_string() == "0-1"),
        "{replies:?}"
    );
    assert!(matches!(s.prompt(), Some(Prompt::Finished { .. })));
    assert!(read(&file).ends_with("\n\n1. A5< b4># 0-1\n"));
    // `undo` takes back the result and the ply that ended the game by the rules.
    assert_replies!(
        s,
        "undo",
        [Reply::ResultTakenBack { .. }, Reply::TookBack(t), Reply::Board(_)]
            if t.to_string() == "b4>#"
    );
    let text = read(&file);
    assert!(
        text.ends_with("\n\n1. A5< *\n") && !text.contains("Termination"),
        "{text}"
    );
    assert_eq!(move_prompt(&s), "1... North");
    assert!(checks_clean(&file));
}

#[test]
fn a_finished_game_is_reopened_and_a_match_goes_on() {
    let (_dir, file) = temp();
    let finished = "[Result \"1-0\"]\n[Termination \"resignation\"]\n\n1. A6>* 1-0\n";
    std::fs::write(&file, finished).unwrap();
    let (mut s, replies) = started(&file, Options::default());
    assert!(
        matches!(
            &replies[..],
            [Reply::Reopened(r), Reply::Board(_)] if r.game == 1 && r.games == 1 && r.plies == 1
        ),
        "{replies:?}"
    );
    assert!(matches!(s.prompt(), Some(Prompt::Finished { .. })));
    // Leaving changes nothing.
    let replies = s.handle(Input::Leave).unwrap();
    assert!(matches!(replies[..], [Reply::Left(Left::Finished { .. })]));
    assert_eq!(read(&file), finished);

    // Of several games, the last is reopened; `undo` takes its result back, and the game
    // goes on.
    let two = format!("[Result \"0-1\"]\n[Termination \"resignation\"]\n\n0-1\n\n{finished}");
    std::fs::write(&file, &two).unwrap();
    let (mut s, replies) = started(&file, Options::default());
    assert!(
        matches!(&replies[..], [Reply::Reopened(r), Reply::Board(_)] if r.game == 2 && r.games == 2),
        "{replies:?}"
    );
    assert_replies!(s, "u", [Reply::ResultTakenBack { .. }, Reply::Board(_)]);
    line(&mut s, "a6<*");
    let text = read(&file);
    assert!(
        text.starts_with("[Result \"0-1\"]\n[Termination \"resignation\"]\n\n0-1\n\n"),
        "{text}"
    );
    assert!(
        text.ends_with("[Result \"*\"]\n\n1. A6>* a6<* *\n"),
        "{text}"
    );
    assert!(checks_clean(&file));

    std::fs::write(
        &file,
        "[South \"Ali\"]\n[North \"Bakari\"]\n[Result \"0-1\"]\n[Termination \"resignation\"]\n\
         [Match \"M\"]\n[Game \"1\"]\n\n0-1\n",
    )
    .unwrap();
    let (mut s, replies) = started(&file, Options::default());
    assert!(matches!(
        replies[..],
        [Reply::MatchScore(_), Reply::NextGame { number: 2 }]
    ));
    assert!(matches!(
        s.prompt(),
        Some(Prompt::Question {
            question: Question::Player { .. },
            ..
        })
    ));
    // `undo` at the next game's question takes back the last game's result.
    let mut s2 = Session::open(&file, Options::default()).unwrap();
    s2.start().unwrap();
    assert_replies!(s2, "undo", [Reply::ResultTakenBack { .. }, Reply::Board(_)]);
    assert!(
        read(&file).ends_with("[Game \"1\"]\n\n*\n"),
        "{}",
        read(&file)
    );
    // Leaving before the next game is written leaves the file alone.
    let replies = s.handle(Input::Leave).unwrap();
    assert!(matches!(replies[..], [Reply::Left(Left::NothingWritten)]));
    assert!(s.prompt().is_none());
    assert!(!read(&file).contains("[Game \"2\"]"));
}

#[test]
fn a_match_of_three_games() {
    let (_dir, file) = temp();
    let mut options = defaults();
    options.answers.position = Some(ENDGAME.to_owned());
    options.answers.matches = bao_session::MatchChoice::Named("M".to_owned());
    options.answers.south = Some("Ali".to_owned());
    options.answers.north = Some("Bakari".to_owned());
    let (mut s, _) = started(&file, options);
    line(&mut s, "A5<");
    let replies = line(&mut s, "b4>");
    // Bakari wins game 1; game 2 is set up with the defaults (the session takes them).
    assert!(
        matches!(
            replies[..],
            [
                Reply::Played(_),
                Reply::GameOver(_),
                Reply::MatchScore(_),
                Reply::NextGame { number: 2 },
                Reply::Board(_)
            ]
        ),
        "{replies:?}"
    );
    line(&mut s, "resign");
    line(&mut s, "y");
    assert_replies!(s, "A5<", [Reply::Played(_), Reply::Board(_)]);
    line(&mut s, "time");
    let replies = line(&mut s, "y");
    let [Reply::GameOver(_), Reply::MatchOver(score)] = &replies[..] else {
        panic!("{replies:?}");
    };
    assert_eq!(score.played, 3);
    assert_eq!(score.winner.as_deref(), Some("Ali"));
    assert_eq!(
        score.score,
        [("Ali".to_owned(), 2), ("Bakari".to_owned(), 1)]
    );
    assert!(matches!(s.prompt(), Some(Prompt::Finished { .. })));
    assert!(checks_clean(&file));
}

#[test]
fn leaving_says_what_is_saved() {
    let (_dir, file) = temp();
    let (mut s, _) = started(&file, defaults());
    line(&mut s, "A7>*");
    assert_replies!(s, "quit", [Reply::Left(Left::Saved { plies: 1 })]);
    assert!(s.prompt().is_none());
    // Nothing is taken after leaving.
    assert!(line(&mut s, "a6<*").is_empty());
    assert!(read(&file).ends_with("\n\n1. A7>* *\n"));
}

#[test]
fn an_invalid_file_is_refused_and_left_alone() {
    let (_dir, file) = temp();
    let bad = "[Event \"x\"]\n\n1. A6<* a5<* *\n";
    std::fs::write(&file, bad).unwrap();
    let Err(OpenError::Invalid(report)) = Session::open(&file, Options::default()) else {
        panic!("an invalid record opened");
    };
    assert_eq!(
        report.diagnostics[0].code(),
        "bao::illegal::capture_mandatory"
    );
    assert_eq!(read(&file), bad);
}

#[test]
fn an_unwritable_place_is_refused_before_anything_is_asked() {
    let (dir, _) = temp();
    let file = dir.path().join("no-such-dir/game.bao");
    assert!(matches!(
        Session::open(&file, Options::default()),
        Err(OpenError::Write(_))
    ));
    assert!(matches!(
        Session::open(dir.path(), Options::default()),
        Err(OpenError::Read(_))
    ));
}

#[test]
fn comments_around_the_games_are_kept() {
    let (_dir, file) = temp();
    std::fs::write(&file, "{club notes}\n").unwrap();
    let (mut s, _) = started(&file, defaults());
    line(&mut s, "A6>*");
    let text = read(&file);
    assert!(text.starts_with("{club notes}\n[Event"), "{text}");
    assert!(text.ends_with("\n\n1. A6>* *\n"), "{text}");
}

#[test]
fn undo_before_the_first_ply_of_a_match_game_goes_back_to_the_game_before() {
    let (_dir, file) = temp();
    let game_1 = "[South \"Ali\"]\n[North \"Bakari\"]\n[Result \"0-1\"]\n\
                  [Termination \"resignation\"]\n[Match \"M\"]\n[Game \"1\"]\n\n1. A6>* 0-1\n";
    let text = format!(
        "{game_1}\n[South \"Bakari\"]\n[North \"Ali\"]\n[Result \"*\"]\n[Match \"M\"]\n\
         [Game \"2\"]\n\n*\n"
    );
    std::fs::write(&file, text).unwrap();
    let options = Options {
        asking: bao_session::Asking::Never,
        ..Options::default()
    };
    let (mut s, _) = started(&file, options);
    assert_replies!(s, "undo", [Reply::ResultTakenBack { .. }, Reply::Board(_)]);
    assert_eq!(move_prompt(&s), "1... North");
    let text = read(&file);
    assert!(!text.contains("[Game \"2\"]"), "{text}");
    assert!(text.ends_with("[Game \"1\"]\n\n1. A6>* *\n"), "{text}");
    assert!(checks_clean(&file));
}

#[test]
fn a_record_keeps_its_notation_layout_and_directions() {
    let (_dir, path) = temp();
    // K.I.B.A. letters, no `*` marks, North's signs as South sees them, a hand-made layout.
    let source = "[Event \"Club\"]\n[Directions \"south\"]\n\n{Opening} 1. A6L\n  a6R *\n";
    std::fs::write(&path, source).unwrap();
    let (mut s, _) = started(&path, defaults());
    assert_replies!(s, "A4R", [Reply::Played(_), Reply::Board(_)]);
    // North's `a6L` as South sees it: North's own right (`a6>` in the mover's signs),
    // written back as typed, not as the mover's sign.
    assert_replies!(s, "a6L", [Reply::Played(_), Reply::Board(_)]);
    let text = read(&path);
    assert_eq!(
        text,
        "[Event \"Club\"]\n[Directions \"south\"]\n\n{Opening} 1. A6L\n  a6R 2. A4R a6L *\n"
    );
    assert!(checks_clean(&path), "{text}");
    // The ply read back is the ply played.
    let checked = bao_validate::check_full("game.bao", text.as_str().into(), &Default::default());
    let doc = checked.document(0).unwrap();
    let last = doc.main().moves().last().unwrap();
    let (_, played) = last.played().unwrap();
    assert_eq!(played.mv.to_string(), "a6>");
    // Taking the plies back removes their text alone.
    assert_replies!(s, "undo", [Reply::TookBack(_), ..]);
    assert_replies!(s, "undo", [Reply::TookBack(_), ..]);
    assert_eq!(read(&path), source);
}

#[test]
fn a_latin_1_record_is_rewritten_whole_in_utf_8() {
    let (_dir, path) = temp();
    // `Mkoan\xe9` in Latin-1: the text read is not the file's bytes, so nothing is written
    // in place at an offset of the decoded text.
    std::fs::write(&path, b"[Event \"Mkoan\xe9\"]\n\n1. A6L *\n").unwrap();
    let (mut s, _) = started(&path, defaults());
    assert_replies!(s, "a6R", [Reply::Played(_), Reply::Board(_)]);
    assert_eq!(read(&path), "[Event \"Mkoané\"]\n\n1. A6L a6R *\n");
    assert_replies!(s, "A4R", [Reply::Played(_), Reply::Board(_)]);
    assert_eq!(read(&path), "[Event \"Mkoané\"]\n\n1. A6L a6R 2. A4R *\n");
    assert!(checks_clean(&path));
}

/// A durable write keeps what its path names: a symbolic link stays a link (the file it
/// points to gets the bytes), and a named pipe (as `/dev/null` or any device) is written
/// into, not replaced by a file (renaming over `/dev/null` as root would take the device
/// away).
#[cfg(unix)]
#[test]
fn durable_writes_keep_links_and_write_into_pipes() {
    use std::io::Read;
    use std::os::unix::fs::FileTypeExt;

    use bao_session::durable::{write_atomic, write_file, Replace};

    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("games.bao");
    std::fs::write(&target, "old").unwrap();
    let link = dir.path().join("link.bao");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    write_atomic(&link, b"new").unwrap();
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");

    let fifo = dir.path().join("pipe");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            let mut got = String::new();
            std::fs::File::open(fifo)
                .unwrap()
                .read_to_string(&mut got)
                .unwrap();
            got
        })
    };
    write_atomic(&fifo, b"through the pipe").unwrap();
    // (Checked before the reader is joined: a pipe replaced by a file would leave it
    // waiting for a writer for ever.)
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    assert_eq!(reader.join().unwrap(), "through the pipe");
    // Never replaced, so never written under `Replace::No`.
    let refused = write_file(&fifo, b"x", Replace::No).unwrap_err();
    assert_eq!(refused.kind(), std::io::ErrorKind::AlreadyExists);
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
}
