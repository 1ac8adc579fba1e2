//! `bao record`: sessions driven through a pseudo-terminal (expectrl), their screens
//! rendered by a terminal emulator (vt100) and snapshotted; piped sessions and bad input
//! through `cmd::run`.
//!
//! Every session runs in its own temporary directory with a fixed date, no colour, `TERM`
//! `xterm` and an 80x40 terminal, so that the screens do not vary.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use expectrl::{Session, Signal};

const ROWS: u16 = 40;
const COLS: u16 = 80;

/// The last moves of `fixtures/games/problem_position.bao`: South A5<, then North b4># wins.
const ENDGAME: &str = "0,1,1,0,2,0,0,0/1,0,0,0,1,1,0,2/1,4,5,4,0,5,12,1/3,1,1,9,0,4,5,0 0/0 S XX -";

/// A `bao record` session on a pseudo-terminal, with the screen it draws.
struct Pty {
    session: Session,
    screen: vt100::Parser,
}

impl Pty {
    /// Starts `bao --color never record ARGS` in `dir`.
    fn spawn(dir: &Path, args: &[&str]) -> Self {
        Self::spawn_with(dir, args, "never", true)
    }

    /// Starts `bao --color COLOR record ARGS` in `dir`, with `NO_COLOR` set or not.
    fn spawn_with(dir: &Path, args: &[&str], color: &str, no_color: bool) -> Self {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_bao"));
        cmd.args(["--color", color, "record"])
            .args(args)
            .current_dir(dir)
            .env("TERM", "xterm")
            .env("LANG", "C.UTF-8")
            .env("BAO_LANG", "en")
            .env_remove("COLUMNS")
            .env_remove("LINES");
        if no_color {
            cmd.env("NO_COLOR", "1");
        } else {
            cmd.env_remove("NO_COLOR");
        }
        let mut session = Session::spawn(cmd).expect("bao starts on a pty");
        session
            .get_process_mut()
            .set_window_size(COLS, ROWS)
            .expect("the window size is set");
        session.set_expect_timeout(Some(Duration::from_secs(20)));
        Self {
            session,
            screen: vt100::Parser::new(ROWS, COLS, 0),
        }
    }

    /// Waits for `text` in the output, drawing everything up to it.
    fn expect(&mut self, text: &str) {
        match self.session.expect(text) {
            Ok(found) => self.screen.process(found.as_bytes()),
            Err(e) => panic!("waiting for {text:?}: {e}\nscreen:\n{}", self.screen_text()),
        }
    }

    /// Types `text` and Enter.
    fn line(&mut self, text: &str) {
        self.session
            .send(format!("{text}\r"))
            .expect("the pty takes input");
    }

    /// Types raw bytes (control keys).
    fn keys(&mut self, bytes: &[u8]) {
        self.session.send(bytes).expect("the pty takes input");
    }

    /// Types `text`, Enter, and waits for `next`.
    fn answer(&mut self, text: &str, next: &str) {
        self.line(text);
        self.expect(next);
    }

    /// The visible screen, trailing blanks trimmed.
    fn screen_text(&self) -> String {
        let mut s: String = self
            .screen
            .screen()
            .contents()
            .lines()
            .map(|l| format!("{}\n", l.trim_end()))
            .collect();
        while s.ends_with("\n\n") {
            s.pop();
        }
        s
    }

    /// Types `quit`, and asserts that the session ends with exit code 0.
    fn quit(&mut self) {
        self.line("quit");
        assert_eq!(self.wait_exit(), 0);
    }

    /// Waits for the process to end.
    fn wait_exit(&mut self) -> i32 {
        let _ = self.session.expect(expectrl::Eof).map(|f| {
            self.screen.process(f.as_bytes());
        });
        match self.session.get_process().wait() {
            Ok(expectrl::WaitStatus::Exited(_, code)) => code,
            other => panic!("bao did not exit normally: {other:?}"),
        }
    }
}

/// Runs `bao ARGS` in `dir` with `stdin` piped, rendered as `cmd::run` renders a run.
fn run_in(dir: &Path, args: &[&str], stdin: &str) -> String {
    crate::cmd::render(&crate::cmd::output_in(dir, args, stdin))
}

/// The arguments of a new game that asks nothing, with a fixed date.
const YES: [&str; 4] = ["game.bao", "--yes", "--date", "2026.11.29"];

/// `record` and [`YES`], then `more`: the arguments of a piped run.
fn recorded<'a>(more: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["record"];
    args.extend(YES);
    args.extend(more);
    args
}

/// A new game ([`YES`]) on a pseudo-terminal in a temporary directory, at its first
/// prompt: the directory, the record's path and the session.
fn started() -> (tempfile::TempDir, PathBuf, Pty) {
    let (dir, file) = temp();
    let mut t = Pty::spawn(dir.path(), &YES);
    t.expect("1. South> ");
    (dir, file, t)
}

/// Asserts that the record at `file` ends with `tail`.
fn assert_ends(file: &Path, tail: &str) {
    let text = read(file);
    assert!(text.ends_with(tail), "{text}");
}

fn temp() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = dir.path().join("game.bao");
    (dir, file)
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).expect("the record exists")
}

/// `bao check` on a record file: its summary line and exit code.
fn check(path: &Path) -> String {
    let dir = path.parent().expect("a file in a directory");
    let name = path.file_name().expect("a file name").to_string_lossy();
    run_in(dir, &["check", &name], "")
}

#[test]
fn a_full_short_game_with_the_tag_questions() {
    let (dir, file) = temp();
    let mut t = Pty::spawn(dir.path(), &["game.bao", "--date", "2026.11.29"]);
    t.expect("Event [?]: ");
    t.answer("Club night", "Site [?]: ");
    t.answer("Stone Town", "Round [?]: ");
    t.answer("1", "South [?]: ");
    t.answer("Ali", "North [?]: ");
    t.answer("Bakari", "RuleSet [kiswahili]: ");
    t.answer("", "Best-of-three match? (y/n) [n]: ");
    t.answer("n", "1. South> ");
    insta::assert_snapshot!("full_game_start", t.screen_text());
    t.answer("A7>*", "1... North> ");
    t.answer("a6L*", "2. South> ");
    t.answer("A6>", "2... North> ");
    t.answer("a5r", "3. South> ");
    // The game ends by the rules; the session stays for `undo` until it is left.
    t.answer("A2<", "Game over (undo, quit)> ");
    t.quit();
    insta::assert_snapshot!("full_game_end", t.screen_text());
    insta::assert_snapshot!("full_game_file", read(&file));
    insta::assert_snapshot!("full_game_check", check(&file));
}

#[test]
fn an_illegal_move_shows_the_diagnostic_and_the_legal_moves() {
    let (_dir, file, mut t) = started();
    t.answer("A7>*", "1... North> ");
    // No capture exists: a5 (a capture from a5) is refused.
    t.answer("a5", "1... North> ");
    insta::assert_snapshot!("illegal_move", t.screen_text());
    t.answer("xyz", "1... North> ");
    t.answer("A6<* a5>", "1... North> ");
    insta::assert_snapshot!("garbage", t.screen_text());
    t.quit();
    // The refused moves never reached the file.
    assert_ends(&file, "\n\n1. A7>* *\n");
}

#[test]
fn undo_takes_back_a_ply_and_rewrites_the_file() {
    let (_dir, file, mut t) = started();
    t.answer("A7>*", "1... North> ");
    t.answer("a6<*", "2. South> ");
    assert_ends(&file, "1. A7>* a6<* *\n");
    t.answer("undo", "1... North> ");
    insta::assert_snapshot!("undo", t.screen_text());
    assert_ends(&file, "\n\n1. A7>* *\n");
    t.answer("a7<*", "2. South> ");
    t.answer("!?", "2. South> ");
    t.answer("comment a quiet start", "2. South> ");
    t.quit();
    insta::assert_snapshot!("undo_file", read(&file));
}

#[test]
fn kichwa_and_safari_questions() {
    let (_dir, file, mut t) = started();
    t.answer("A7<*", "1... North> ");
    // a5 captures A4 from either kichwa.
    t.answer("a5", "Choose 1-2 (empty cancels): ");
    insta::assert_snapshot!("kichwa_question", t.screen_text());
    t.answer("<", "2. South> ");
    t.answer("A6<*", "2... North> ");
    t.answer("a5>", "3. South> ");
    // A bare A2 reaches the functional nyumba: stop or safari (A2< would be the stop).
    t.answer("A2", "Choose 1-2 (empty cancels): ");
    insta::assert_snapshot!("safari_question", t.screen_text());
    t.answer("maybe", "Choose 1-2 (empty cancels): ");
    t.answer("safari", "3... North> ");
    t.quit();
    assert_ends(&file, "\n\n1. A7<* a5< 2. A6<* a5> 3. A2<+ *\n");
}

#[test]
fn a_killed_session_resumes_with_nothing_lost() {
    let (dir, file, mut t) = started();
    t.answer("A7>*", "1... North> ");
    t.answer("a6<*", "2. South> ");
    t.answer("A6>", "2... North> ");
    // Half a ply typed, then the battery dies.
    t.keys(b"a5");
    t.expect("a5");
    t.session
        .get_process_mut()
        .kill(Signal::SIGKILL)
        .expect("the process is killed");
    let _ = t.session.get_process().wait();
    let saved = read(&file);
    assert!(saved.ends_with("\n\n1. A7>* a6<* 2. A6> *\n"), "{saved}");
    insta::assert_snapshot!("killed_check", check(&file));

    let mut t = Pty::spawn(dir.path(), &["game.bao"]);
    t.expect("2... North> ");
    insta::assert_snapshot!("resumed", t.screen_text());
    t.answer("a5>", "3. South> ");
    t.answer("A2<#", "Game over (undo, quit)> ");
    t.keys(b"\x04");
    assert_eq!(t.wait_exit(), 0);
    assert_ends(&file, "1. A7>* a6<* 2. A6> a5> 3. A2<# 1-0\n");
    insta::assert_snapshot!("resumed_check", check(&file));
}

#[test]
fn ctrl_c_cancels_the_line_and_a_second_leaves() {
    let (dir, file, mut t) = started();
    t.answer("A7>*", "1... North> ");
    t.keys(b"a6");
    t.expect("a6");
    t.keys(b"\x03");
    t.expect("1... North> ");
    t.keys(b"\x03");
    assert_eq!(t.wait_exit(), 0);
    insta::assert_snapshot!("ctrl_c", t.screen_text());
    assert_ends(&file, "\n\n1. A7>* *\n");
    // Ctrl-D at an empty prompt leaves too.
    let mut t = Pty::spawn(dir.path(), &["game.bao"]);
    t.expect("1... North> ");
    t.keys(b"\x04");
    assert_eq!(t.wait_exit(), 0);
    insta::assert_snapshot!("ctrl_d", t.screen_text());
}

#[test]
fn a_best_of_three_match() {
    let (dir, file) = temp();
    let mut t = Pty::spawn(
        dir.path(),
        &[
            "game.bao",
            "--date",
            "2026.11.29",
            "--event",
            "Club final",
            "--site",
            "Lamu",
            "--round",
            "1",
            "--south",
            "Ali",
            "--north",
            "Bakari",
            "--rules",
            "kiswahili",
            "--position",
            ENDGAME,
        ],
    );
    t.expect("Best-of-three match? (y/n) [n]: ");
    t.answer("y", "Match name [Club final 2026.11.29]: ");
    t.answer("", "1. South> ");
    // Game 1: North wins by the rules.
    t.answer("A5<", "1... North> ");
    t.answer("b4>", "South in game 2 [Bakari]: ");
    insta::assert_snapshot!("match_game_1", t.screen_text());
    t.answer("", "North in game 2 [Ali]: ");
    t.answer("", "1. South> ");
    // Game 2: South (Bakari) resigns, once confirmed: Ali wins.
    t.answer("resign", "Record it? (y/n) [n]: ");
    t.answer("y", "South in game 3 [Ali]: ");
    t.answer("", "North in game 3 [Bakari]: ");
    t.answer("", "1. South> ");
    // Game 3: North (Bakari) loses on time after South's move.
    t.answer("A5<", "1... North> ");
    t.answer("time", "Record it? (y/n) [n]: ");
    t.answer("y", "Game over (undo, quit)> ");
    t.quit();
    insta::assert_snapshot!("match_over", t.screen_text());
    insta::assert_snapshot!("match_file", read(&file));
    insta::assert_snapshot!("match_check", check(&file));
}

#[test]
fn piped_input_records_line_by_line() {
    let (dir, file) = temp();
    let out = run_in(
        dir.path(),
        &recorded(&["--position", ENDGAME]),
        "board\nhelp\nA5<\nb4>\n",
    );
    insta::assert_snapshot!("piped", out);
    assert_ends(&file, "\n\n1. A5< b4># 0-1\n");
}

#[test]
fn a_file_that_is_no_valid_record_is_refused_and_left_alone() {
    let (dir, file) = temp();
    let bad = "[Event \"x\"]\n\n1. A6<* a5<* *\n";
    std::fs::write(&file, bad).unwrap();
    let out = run_in(dir.path(), &["record", "game.bao"], "A7>*\n");
    insta::assert_snapshot!("invalid_file", out);
    assert_eq!(read(&file), bad);
    let garbage = "this is not a record\n";
    std::fs::write(&file, garbage).unwrap();
    let out = run_in(dir.path(), &["record", "game.bao"], "");
    insta::assert_snapshot!("garbage_file", out);
    assert_eq!(read(&file), garbage);
}

#[test]
fn an_unwritable_file_is_refused_before_the_game_starts() {
    let (dir, _) = temp();
    let out = run_in(
        dir.path(),
        &["record", "no-such-dir/game.bao", "--yes"],
        "A7>*\n",
    );
    insta::assert_snapshot!("unwritable", out);
    let out = run_in(dir.path(), &["record", ".", "--yes"], "");
    insta::assert_snapshot!("directory", out);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn a_finished_game_is_reopened_to_correct_its_end() {
    let (dir, file) = temp();
    let fixture =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/games/short_bao_hamna.bao");
    std::fs::copy(fixture, &file).unwrap();
    let before = read(&file);
    // Left as it is, it is not changed.
    let out = run_in(dir.path(), &["record", "game.bao"], "");
    insta::assert_snapshot!("finished", out);
    assert_eq!(read(&file), before);
    // `undo` takes the result back with the ply that ended the game by the rules.
    let out = run_in(dir.path(), &["record", "game.bao"], "undo\nquit\n");
    assert!(out.starts_with("exit: 0\n"), "{out}");
    let after = read(&file);
    assert!(
        after.ends_with(" *\n") && !after.contains("Termination"),
        "{after}"
    );
    assert!(check(&file).contains("0 errors, 0 warnings"));
}

#[test]
fn resign_undone_at_a_terminal() {
    let (_dir, file, mut t) = started();
    t.answer("A7>*", "1... North> ");
    // The question never swallows a move: `a6<*` drops it and is played.
    t.answer("resign", "Record it? (y/n) [n]: ");
    t.answer("a6<*", "2. South> ");
    t.answer("resign", "Record it? (y/n) [n]: ");
    t.answer("y", "Game over (undo, quit)> ");
    assert_ends(&file, "\n\n1. A7>* a6<* 0-1\n");
    t.answer("undo", "2. South> ");
    insta::assert_snapshot!("resign_undone", t.screen_text());
    assert_ends(&file, "\n\n1. A7>* a6<* *\n");
    t.quit();
}

#[test]
fn commands_that_cannot_apply_say_why_and_change_nothing() {
    let (dir, file) = temp();
    let out = run_in(
        dir.path(),
        &recorded(&["--match", "M", "--south", "Ali", "--north", "Bakari"]),
        "undo\n!\ndraw\nresign east\ntag Result 1-0\ntag South Chris\n$300\ncomment {x}\nlegal\n\
         A6\n\n9\n>\nA6>\n",
    );
    insta::assert_snapshot!("refusals", out);
    assert_ends(&file, "[Match \"M\"]\n[Game \"1\"]\n\n1. A6>* *\n");
}

#[test]
fn a_finished_match_game_goes_on_with_the_next_game() {
    let (dir, file) = temp();
    std::fs::write(
        &file,
        "[South \"Ali\"]\n[North \"Bakari\"]\n[Result \"0-1\"]\n[Termination \"resignation\"]\n\
         [Match \"M\"]\n[Game \"1\"]\n\n0-1\n",
    )
    .unwrap();
    let out = run_in(dir.path(), &["record", "game.bao"], "\n\nA6>*\nquit\n");
    insta::assert_snapshot!("next_game", out);
    insta::assert_snapshot!("next_game_file", read(&file));
    insta::assert_snapshot!("next_game_check", check(&file));
}

#[test]
fn comments_around_the_games_are_kept() {
    let (dir, file) = temp();
    std::fs::write(&file, "{club notes}\n").unwrap();
    run_in(dir.path(), &recorded(&[]), "A6>*\nquit\n");
    let text = read(&file);
    assert!(text.starts_with("{club notes}\n[Event"), "{text}");
    assert!(text.ends_with("\n\n1. A6>* *\n"), "{text}");
    std::fs::write(
        &file,
        "[South \"A\"]\n[North \"B\"]\n\n1. A6<* *\n\n{written after the game}\n",
    )
    .unwrap();
    run_in(dir.path(), &["record", "game.bao"], "a5>\nquit\n");
    let text = read(&file);
    assert!(
        text.ends_with("\n\n1. A6<* a5> *\n\n{written after the game}\n"),
        "{text}"
    );
    assert!(check(&file).contains("0 errors, 0 warnings"));
}

/// The main-line moves of a record's text, without numbers, annotations, glyphs or result.
fn moves_of(text: &str) -> Vec<String> {
    let movetext = text.split("\n\n").nth(1).expect("a movetext");
    let mut depth = 0usize;
    let mut out = Vec::new();
    for word in movetext.split_whitespace() {
        if word.starts_with('[') {
            depth += 1;
        }
        let inside = depth > 0;
        if word.ends_with(']') {
            depth = depth.saturating_sub(1);
        }
        let is_number = word.ends_with('.') && word.starts_with(|c: char| c.is_ascii_digit());
        let is_result = ["1-0", "0-1", "1/2-1/2", "*"].contains(&word);
        if !inside && !is_number && !is_result {
            out.push(word.trim_end_matches(['!', '?']).to_owned());
        }
    }
    out
}

#[test]
fn a_piped_game_is_recorded_whole_and_nothing_is_asked() {
    let (dir, file) = temp();
    let fixture =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/games/preset_kiswahili.bao");
    let moves = moves_of(&std::fs::read_to_string(fixture).unwrap());
    assert!(moves.len() > 40, "{moves:?}");
    let stdin = format!("{}\nquit\n", moves.join("\n"));
    let out = crate::cmd::output_in(dir.path(), &recorded(&[]), &stdin);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!stdout.contains("Choose"), "{stdout}");
    assert_eq!(moves_of(&read(&file)), moves);
    assert!(check(&file).contains("0 errors, 0 warnings"));
}

#[test]
fn piped_bad_lines_are_refused_one_by_one_and_fail_the_run() {
    let (dir, file) = temp();
    let out = run_in(
        dir.path(),
        &recorded(&[]),
        "xyz\nA9<\nA44\nA4 >\nA6\nA5<*\n$300\nresign east\nA6<* a5>\n!\nA7<*\na5<\nA6<*\na5>\n\
         A2<\n$14\n??\nquit\n",
    );
    insta::assert_snapshot!("piped_bad_lines", out);
    // Nothing was swallowed: every good line is recorded, the stop at the nyumba (A2<) too.
    assert_ends(&file, "\n\n1. A7<* a5< 2. A6<* a5> 3. A2< $14 ?? *\n");
    // The end of the game, then lines after it.
    let (dir, file) = temp();
    let out = run_in(
        dir.path(),
        &recorded(&["--position", ENDGAME]),
        "A5<\nresign\nb4>\nA6<*\nundo\nb4>\n",
    );
    insta::assert_snapshot!("piped_after_the_end", out);
    assert_ends(&file, "\n\n1. A5< b4># 0-1\n");
}

#[test]
fn match_names_the_event_as_bao_new_does() {
    let (dir, file) = temp();
    let out = run_in(
        dir.path(),
        &recorded(&[
            "--match",
            "Club final",
            "--south",
            "Ali",
            "--north",
            "Bakari",
        ]),
        "",
    );
    assert!(out.starts_with("exit: 0\n"), "{out}");
    let text = read(&file);
    assert!(text.contains("[Event \"Club final\"]\n"), "{text}");
    for tag in ["Site", "Round"] {
        assert!(text.contains(&format!("[{tag} \"?\"]\n")), "{text}");
    }
    let (dir, file) = temp();
    run_in(dir.path(), &recorded(&[]), "");
    let template = run_in(dir.path(), &["new", "--date", "2026.11.29"], "");
    for tag in ["Event", "Site", "Round", "South", "North"] {
        let line = format!("[{tag} \"?\"]\n");
        assert!(
            read(&file).contains(&line) && template.contains(&line),
            "{tag}"
        );
    }
}

#[test]
fn the_manual_page_lists_the_prompt_commands() {
    let out = crate::cmd::output(&["man", "record"], "");
    let roff = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0));
    assert!(roff.contains(".SH \"PROMPT COMMANDS\""), "{roff}");
    // Every command of the prompt's table, with its operands.
    for usage in [
        "undo",
        "comment TEXT",
        "resign [south|north]",
        "time [south|north]",
        "draw",
        "tag NAME [VALUE]",
        "tags",
        "board",
        "legal",
        "help",
        "quit",
    ] {
        assert!(
            roff.contains(&format!("\\fB{usage}\\fR\n")),
            "{usage}: {roff}"
        );
    }
}

/// `bao man record` on a terminal, with `PATH` as given: the screen once it exits.
fn man_on_a_terminal(path: &str) -> String {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_bao"));
    cmd.args(["man", "record"])
        .current_dir(dir.path())
        .env("BAO_LANG", "en")
        .env("PATH", path)
        .env("MANPAGER", "cat")
        .env("PAGER", "cat")
        .env("MANWIDTH", "80")
        .env("TERM", "xterm")
        .env("LANG", "C.UTF-8");
    let mut session = Session::spawn(cmd).expect("bao starts on a pty");
    session
        .get_process_mut()
        .set_window_size(COLS, ROWS)
        .expect("the window size is set");
    session.set_expect_timeout(Some(Duration::from_secs(20)));
    let mut out = Vec::new();
    if let Ok(found) = session.expect(expectrl::Eof) {
        out.extend_from_slice(found.as_bytes());
    }
    // Bold and underline as a pager without a terminal gets them: `X\bX`, `_\bX`.
    let text = String::from_utf8_lossy(&out);
    let mut plain = String::new();
    for c in text.chars() {
        if c == '\u{8}' {
            plain.pop();
        } else {
            plain.push(c);
        }
    }
    plain
}

#[test]
fn man_to_a_terminal_renders_the_page_or_says_how_to_read_it() {
    // No `man` on the PATH: the way to read the page, not roff.
    let empty = tempfile::tempdir().expect("a temporary directory");
    let text = man_on_a_terminal(&empty.path().display().to_string());
    assert!(text.contains("man -l -") && !text.contains(".SH"), "{text}");
    // With `man`, the page rendered: no roff requests, the section heading as text.
    if Path::new("/usr/bin/man").exists() {
        let text = man_on_a_terminal("/usr/bin:/bin");
        assert!(
            text.contains("PROMPT COMMANDS") && !text.contains(".SH"),
            "{text}"
        );
    }
}

/// The row `letter` of every board a run printed, in order.
fn rows_of(stdout: &str, letter: char) -> Vec<String> {
    let head = format!(" {letter}  ");
    stdout
        .lines()
        .filter(|l| l.starts_with(&head))
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_board_marks_where_the_last_move_started_and_ended() {
    let (dir, _file) = temp();
    let out = crate::cmd::output_in(dir.path(), &recorded(&[]), "A7>*\na6<*\nundo\nquit\n");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    let south = rows_of(&stdout, 'A');
    let north = rows_of(&stdout, 'a');
    // Boards: the start, after A7>*, after a6<*, after the undo.
    assert_eq!(south.len(), 4, "{stdout}");
    // The start has no last move: nothing marked, no legend entry before the first move.
    assert!(
        !south[0].contains('^') && !north[0].contains('^'),
        "{stdout}"
    );
    // A7 (emptied by its own sowing) is marked; North's rows are not.
    assert_eq!(
        south[1], " A    .    .    .    .  [ 6]   2    .^   1",
        "{stdout}"
    );
    assert!(!north[1].contains('^'), "{stdout}");
    // Its last seed fell in B7 (placed in A7, sown A8, B8, B7).
    assert_eq!(
        rows_of(&stdout, 'B')[1],
        " B    .    .    .    .    .    .    1$   1",
        "{stdout}"
    );
    // After North's a6<* (namua: its seed went into a6) the mark is on a6 alone.
    assert!(!south[2].contains('^'), "{stdout}");
    assert_eq!(north[2].matches('^').count(), 1, "{stdout}");
    assert_eq!(
        north[2], " a    .    2    .^ [ 7]   1    1$   .    .",
        "{stdout}"
    );
    // The undo takes the mark back to A7; the "Last move" line stays beside the board.
    assert_eq!(south[3], south[1], "{stdout}");
    assert_eq!(
        stdout.matches("n^ last move's start").count(),
        3,
        "{stdout}"
    );
    assert!(
        stdout.contains("n^ last move's start   n$ its end\nLast move: 1. A7>* (South)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("n^ last move's start   n$ its end\nLast move: 1... a6<* (North)"),
        "{stdout}"
    );
}

/// On a terminal (`--color auto`) the board colours the last move's pits, count and mark:
/// its start yellow, its end green, bold; with `NO_COLOR` set the marks stay, uncoloured.
#[test]
fn the_board_colours_the_last_move_on_a_terminal() {
    for no_color in [false, true] {
        let (dir, _file) = temp();
        let mut t = Pty::spawn_with(dir.path(), &YES, "auto", no_color);
        t.expect("1. South> ");
        t.answer("A7>*", "1... North> ");
        let screen = t.screen.screen();
        let rows: Vec<String> = screen.rows(0, COLS).collect();
        let row = |letter: &str| {
            let i = rows
                .iter()
                .rposition(|r| r.starts_with(&format!(" {letter}  ")))
                .unwrap_or_else(|| panic!("no row {letter} in {rows:#?}"));
            u16::try_from(i).expect("a screen row")
        };
        // South's pit n (row A or B) has its count in columns 5 + 5(n-1) and 6 + 5(n-1),
        // its first mark in 7 + 5(n-1).
        let cell = |r: u16, c: u16| screen.cell(r, c).expect("a cell on the screen");
        let (a, b) = (row("A"), row("B"));
        let (start, start_count, end) = (cell(a, 37), cell(a, 36), cell(b, 37));
        assert_eq!(
            (start.contents().as_str(), end.contents().as_str()),
            ("^", "$"),
            "{rows:#?}"
        );
        if no_color {
            assert_eq!(start.fgcolor(), vt100::Color::Default);
            assert_eq!(end.fgcolor(), vt100::Color::Default);
            assert!(!start.bold());
        } else {
            assert_eq!(start.fgcolor(), vt100::Color::Idx(3), "yellow start");
            assert_eq!(start_count.fgcolor(), vt100::Color::Idx(3), "yellow count");
            assert_eq!(end.fgcolor(), vt100::Color::Idx(2), "green end");
            assert!(start.bold() && end.bold());
        }
        // An unmarked pit is never coloured.
        assert_eq!(cell(a, 31).fgcolor(), vt100::Color::Default);
        t.quit();
    }
}
