//! `bao-fuzz-checks`: the properties the fuzz targets of `fuzz/` check, as plain functions.
//!
//! cargo-fuzz needs a nightly toolchain; the functions live here so that the fuzz targets
//! (in `fuzz/`, outside the workspace) and the ordinary test suite share them. The tests of
//! this crate feed every file of `fuzz/corpus/*/` and `fixtures/hostile/` to them, so each
//! crash input kept there is a regression test on stable.
//!
//! Every function panics (with a message saying which property failed) when a property does
//! not hold, and returns normally otherwise; a panic inside the code under test is a failure
//! too. None of them prints.
//!
//! - [`parse_record`]: parsing never panics, every span lies on the text's character
//!   boundaries, writing is idempotent, a record without syntax errors reads back equal
//!   from its canonical text, and (UTF-8 input) the streaming reader gives a visitor the
//!   events the whole text gives.
//! - [`check_record`]: the whole validator (parse, replay, match checks, annotation,
//!   rendering, JSON) never panics, and every diagnostic is located in the text.
//! - [`play_arbitrary`]: moves chosen by index from the legal list keep every engine
//!   invariant (64 seeds, a valid position, a consistent trace).
//! - [`position_string`]: position strings read back equal from their written form.
#![deny(missing_docs)]
#![warn(missing_debug_implementations)]

use std::cell::Cell;
use std::sync::Once;

use bao_core::{
    EndReason, LapSource, Move, MoveTrace, Pit, Position, Row, RuleSet, Setup, PRESET_NAMES,
    TOTAL_SEEDS,
};
use bao_notation::{parse_bytes, parse_record as parse_text, write_record, PositionString};
use bao_notation::{Game, Span, Spanned, WriteOptions};
use bao_replay::{Document, Line, Node};
use bao_validate::{annotated_text, check_bytes, AnyDiagnostic, CheckOptions};

thread_local! {
    static PANICKED: Cell<bool> = const { Cell::new(false) };
}

/// Installs (once) a panic hook that also notes, per thread, that a panic happened: the
/// validator catches engine panics so that one bad game cannot stop a run, and this is how
/// a check still sees them.
fn watch_panics() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            PANICKED.with(|p| p.set(true));
            previous(info);
        }));
    });
}

/// Runs `f` and fails if anything inside it panicked, even when the panic was caught.
fn no_caught_panic<T>(what: &str, f: impl FnOnce() -> T) -> T {
    watch_panics();
    PANICKED.with(|p| p.set(false));
    let out = f();
    assert!(
        !PANICKED.with(Cell::get),
        "{what}: a panic was caught inside"
    );
    out
}

fn assert_located(text: &str, span: Span, what: &dyn std::fmt::Display) {
    assert!(
        span.start <= span.end && span.end <= text.len(),
        "{what}: span {}..{} outside a text of {} bytes",
        span.start,
        span.end,
        text.len()
    );
    assert!(
        text.is_char_boundary(span.start) && text.is_char_boundary(span.end),
        "{what}: span {}..{} is not on character boundaries",
        span.start,
        span.end
    );
}

/// The `parse_record` target: parse, write, parse again.
///
/// # Panics
/// When a property fails (see the crate documentation).
pub fn parse_record(data: &[u8]) {
    let (text, parsed) = parse_bytes(data);
    for e in &parsed.errors {
        assert_located(&text, e.span, &e.code);
    }
    for g in &parsed.record.games {
        assert_located(&text, g.span, &"a game");
    }
    let options = WriteOptions::default();
    let written = write_record(&parsed.record, &options);
    let again = parse_text(&written);
    let rewritten = write_record(&again.record, &options);
    assert_eq!(
        written, rewritten,
        "writing is not idempotent (write(parse(write(parse(s)))) != write(parse(s)))"
    );
    if !parsed.has_errors() {
        assert!(
            !again.has_errors(),
            "the canonical text of a record without errors has errors: {:?}\n{written}",
            again.errors
        );
        // The writer renumbers moves and orders tags; what they say is kept.
        let before: Vec<Vec<String>> = parsed.record.games.iter().map(|g| content(g)).collect();
        let after: Vec<Vec<String>> = again.record.games.iter().map(|g| content(g)).collect();
        assert_eq!(
            before, after,
            "a record without errors says something else in canonical form:\n{written}"
        );
    }
    streams_with_a_small_limit(data);
    streams_like_the_whole_text(data);
}

/// Every event a visitor receives, as text, its spans made absolute (a chunk's spans are
/// relative to the chunk, whose offset the reader announces with [`bao_notation::Visitor::text`]).
#[derive(Default)]
struct EventLog {
    offset: usize,
    events: Vec<String>,
}

impl EventLog {
    fn at(&self, span: Span) -> Span {
        span.shifted(self.offset)
    }
}

impl bao_notation::Visitor for EventLog {
    fn text(&mut self, _text: &str, offset: u64) {
        self.offset = usize::try_from(offset).unwrap_or(usize::MAX);
    }
    fn begin_game(&mut self, start: usize) {
        self.events.push(format!("begin {}", start + self.offset));
    }
    fn game_comment(&mut self, kind: bao_notation::CommentKind, text: &str, span: Span) {
        let at = self.at(span);
        self.events
            .push(format!("game comment {kind:?} {text:?} {at:?}"));
    }
    fn tag(&mut self, name: Spanned<&str>, value: Spanned<&str>, span: Span) {
        let (n, v, at) = (self.at(name.span), self.at(value.span), self.at(span));
        self.events.push(format!(
            "tag {:?} {n:?} {:?} {v:?} {at:?}",
            name.value, value.value
        ));
    }
    fn comment(&mut self, kind: bao_notation::CommentKind, text: &str, span: Span) {
        let at = self.at(span);
        self.events
            .push(format!("comment {kind:?} {text:?} {at:?}"));
    }
    fn move_token(
        &mut self,
        number: Option<Spanned<bao_notation::MoveNumber>>,
        token: Spanned<bao_notation::MoveToken>,
    ) {
        let number = number.map(|n| (n.value, self.at(n.span)));
        let at = self.at(token.span);
        self.events
            .push(format!("move {number:?} {:?} {at:?}", token.value));
    }
    fn nag(&mut self, nag: Spanned<bao_notation::Nag>) {
        let at = self.at(nag.span);
        self.events.push(format!("nag {:?} {at:?}", nag.value));
    }
    fn annotation(
        &mut self,
        items: &[Spanned<bao_notation::AnnotationItem>],
        cycle: Option<Spanned<bao_core::NeverEnding>>,
        span: Span,
    ) {
        let items: Vec<_> = items.iter().map(|i| (i.value, self.at(i.span))).collect();
        let cycle = cycle.map(|c| (c.value, self.at(c.span)));
        let at = self.at(span);
        self.events
            .push(format!("annotation {items:?} {cycle:?} {at:?}"));
    }
    fn begin_variation(&mut self, open: usize) {
        self.events
            .push(format!("variation {}", open + self.offset));
    }
    fn end_variation(&mut self, span: Span) {
        let at = self.at(span);
        self.events.push(format!("end variation {at:?}"));
    }
    fn end_game(&mut self, span: Span, result: Option<Spanned<bao_notation::GameResult>>) {
        let result = result.map(|r| (r.value, self.at(r.span)));
        let at = self.at(span);
        self.events.push(format!("end {at:?} {result:?}"));
    }
    fn syntax_error(&mut self, error: bao_notation::SyntaxError) {
        let at = self.at(error.span);
        self.events
            .push(format!("error {:?} {at:?} {}", error.code, error.message));
    }
}

/// A reader that hands out at most `step` bytes a read, so that lines cross the reader's
/// refills.
struct Trickle<'a> {
    rest: &'a [u8],
    step: usize,
}

impl std::io::Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.step.min(buf.len()).min(self.rest.len());
        buf[..n].copy_from_slice(&self.rest[..n]);
        self.rest = &self.rest[n..];
        Ok(n)
    }
}

/// For UTF-8 input, the streaming reader gives a visitor exactly the events (at the same
/// absolute places) that reading the whole text does, whether the input comes in one piece or
/// a few bytes at a time: the reader's own line splitting agrees with the whole text's.
fn streams_like_the_whole_text(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        // Latin-1 input: decoded chunk by chunk, its offsets are not the decoded text's.
        return;
    };
    let mut whole = EventLog::default();
    bao_notation::visit_record(text, &mut whole);
    let mut streamed = EventLog::default();
    bao_notation::visit_reader(data, &mut streamed).expect("reading from memory");
    assert_eq!(
        whole.events, streamed.events,
        "the streaming reader gives other events than the whole text"
    );
    let step = 1 + data.len() % 13;
    let mut trickled = EventLog::default();
    bao_notation::visit_reader(Trickle { rest: data, step }, &mut trickled)
        .expect("reading from memory");
    assert_eq!(
        whole.events, trickled.events,
        "the streaming reader, fed {step} bytes a read, gives other events than the whole text"
    );
}

/// The streaming reader under a small game limit ends, and gives no more games than there
/// are bytes and line starts (a line cut at the end of the input once began every chunk
/// after it, forever).
fn streams_with_a_small_limit(data: &[u8]) {
    let limits = bao_notation::Limits {
        max_game_bytes: 64,
        ..bao_notation::Limits::DEFAULT
    };
    let bound = data.len() + 2;
    let mut games = 0usize;
    for g in bao_notation::GameReader::with_limits(data, &limits) {
        let g = g.expect("reading from memory");
        for e in &g.errors {
            assert_located(&g.text, e.span, &e.code);
        }
        games += 1;
        assert!(
            games <= bound,
            "more than {bound} games from {} bytes",
            data.len()
        );
    }
}

/// What a game says, without the spelling the writer normalises: its tags in name order,
/// then every comment, move (token, NAGs, annotation) and variation bracket in order.
fn content(game: &Game) -> Vec<String> {
    let mut tags: Vec<String> = game
        .tags
        .iter()
        .map(|t| format!("[{} {:?}]", t.value.name.value, t.value.value.value))
        .collect();
    tags.sort();
    let mut out = tags;
    out.extend(
        game.comments
            .iter()
            .map(|c| format!("{{{}}}", c.value.text)),
    );
    line_content(Document::unreplayed(game).main(), &mut out);
    out.push(format!("{:?}", game.result.as_ref().map(|r| r.value)));
    out
}

/// Every comment, move (token, NAGs, annotation) and variation bracket of a line, in order
/// (the parser bounds how deep variations nest).
fn line_content(line: Line<'_>, out: &mut Vec<String>) {
    for node in line.nodes() {
        match node {
            Node::Move(m) => {
                let m = m.written();
                let mut s = m.token.value.to_string();
                for n in &m.nags {
                    s.push_str(&format!(" ${}", n.value.0));
                }
                if let Some(a) = &m.annotation {
                    for item in &a.value.items {
                        s.push_str(&format!(" {:?}", item.value));
                    }
                    if let Some(c) = &a.value.cycle {
                        s.push_str(&format!(" {:?}", c.value));
                    }
                }
                out.push(s);
            }
            Node::Comment(c, _) => out.push(format!("{{{}}}", c.text)),
            Node::Variation(v) => {
                out.push("(".to_owned());
                line_content(v, out);
                out.push(")".to_owned());
            }
        }
    }
}

/// The `check_record` target: the whole validator on any bytes.
///
/// # Panics
/// When anything panics inside, or a diagnostic is not located in the text.
pub fn check_record(data: &[u8]) {
    for assume_fixes in [false, true] {
        let opts = CheckOptions {
            assume_fixes,
            ..CheckOptions::default()
        };
        let checked = no_caught_panic("check", || check_bytes("fuzz.bao", data, &opts));
        let report = &checked.report;
        for d in &report.diagnostics {
            match d {
                AnyDiagnostic::Syntax(e) => assert_located(&report.text, e.span, &e.code),
                AnyDiagnostic::Check(c) => {
                    assert!(!c.labels.is_empty(), "{}: no label", c.code);
                    for l in &c.labels {
                        assert_located(&report.text, l.span, &c.code);
                    }
                }
            }
        }
        assert_eq!(
            report.stats.errors + report.stats.warnings,
            report.diagnostics.len(),
            "the counts disagree with the diagnostics"
        );
        let _ = bao_validate::json::report_json(report);
        let mut rendered = String::new();
        miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
            .render_report(&mut rendered, report)
            .expect("rendering into a String cannot fail");
        if !assume_fixes {
            let annotated = no_caught_panic("annotate", || annotated_text(&checked));
            if report.is_valid() {
                let again = check_bytes("annotated.bao", annotated.as_bytes(), &opts);
                assert!(
                    again.report.is_valid(),
                    "the annotated text of a valid record is invalid: {:?}\n{annotated}",
                    again.report.diagnostics
                );
            }
        }
    }
}

/// The most plies [`play_arbitrary`] plays.
pub const MAX_ARBITRARY_PLIES: usize = 400;

/// The `play_arbitrary` target: the first byte picks the rule set, every later byte picks a
/// move by its index in the legal list (modulo its length). At every ply the byte also drives
/// a random move: `random_move` and `play_random_move` must play a legal move, the same one,
/// and none exactly when the legal list is empty.
///
/// # Panics
/// When an engine invariant fails after some move.
pub fn play_arbitrary(data: &[u8]) {
    let Some((&first, picks)) = data.split_first() else {
        return;
    };
    let name = PRESET_NAMES[usize::from(first) % PRESET_NAMES.len()];
    let rules = RuleSet::preset(name).expect("a preset name");
    let mut pos = Position::start(rules);
    check_position(&pos);
    for (ply, &pick) in picks.iter().take(MAX_ARBITRARY_PLIES).enumerate() {
        let moves = pos.legal_moves();
        assert_eq!(
            moves.is_empty(),
            pos.is_over(),
            "ply {ply}: legal moves {} but over {}",
            moves.len(),
            pos.is_over()
        );
        check_random_move(&pos, &moves, pick);
        let Some(mv) = moves.get(usize::from(pick) % moves.len().max(1)) else {
            break;
        };
        let (next, trace) = pos
            .play(mv)
            .unwrap_or_else(|e| panic!("ply {ply}: the legal move {mv} is illegal: {e}"));
        let problems = trace_problems(&pos, mv, &next, &trace);
        assert!(
            problems.is_empty(),
            "ply {ply}, {mv} in {pos}: {problems:?}"
        );
        assert_eq!(
            pos.play_fast(mv),
            next,
            "ply {ply}: play_fast and play disagree on {mv}"
        );
        let written = mv.to_string();
        let spec = written
            .parse::<bao_core::MoveSpec>()
            .unwrap_or_else(|e| panic!("ply {ply}: {written} does not read back: {e}"));
        assert_eq!(
            pos.resolve(&spec).ok().as_ref(),
            Some(mv),
            "ply {ply}: {written} does not resolve to itself"
        );
        check_position(&next);
        pos = next;
    }
}

/// `random_move` with choices drawn from `seed`: a legal move and the position `play_fast`
/// gives, or `None` exactly when there is no legal move; `play_random_move` with the same
/// choices plays the same move in place (and leaves a finished game as it was).
fn check_random_move(pos: &Position, legal: &[Move], seed: u8) {
    let picker = || bao_testkit::Lcg::with_increment(u64::from(seed), 1).picker();
    let chosen = pos.random_move(&mut picker());
    let mut in_place = *pos;
    let played = in_place.play_random_move(&mut picker());
    match chosen {
        Some((mv, next)) => {
            assert!(
                legal.contains(&mv),
                "random_move gave {mv}, not legal in {pos}"
            );
            assert_eq!(
                next,
                pos.play_fast(&mv),
                "random_move's position after {mv}"
            );
            assert_eq!(played, Some(mv), "play_random_move in {pos}");
            assert_eq!(in_place, next, "play_random_move's position after {mv}");
        }
        None => {
            assert!(legal.is_empty(), "random_move found no move in {pos}");
            assert_eq!(played, None, "play_random_move in {pos}");
            assert_eq!(in_place, *pos, "a finished game is left as it was");
        }
    }
}

/// A position's own invariants: 64 seeds, and a setup that checks back into it.
///
/// The end of a game by a never-ending move (G11, under a rule set whose policy ends it) is
/// history, not board: a setup and a position string cannot say it, so such a position
/// reads back as the same board with the game not over (found by fuzzing; regression input
/// `fixtures/hostile/regressions/play_arbitrary/never_ending_outcome_not_in_setup`).
fn check_position(pos: &Position) {
    assert_eq!(pos.total_seeds(), TOTAL_SEEDS, "seeds in {pos}");
    let setup: Setup = pos.to_setup();
    let back = Position::from_setup(setup.clone())
        .unwrap_or_else(|e| panic!("the setup of {pos} is invalid: {e}"));
    // An end the board cannot show: a never-ending move, or no legal move only because of a
    // takasia, which the final position no longer holds.
    let by_history = match pos.outcome().map(|o| o.reason) {
        Some(EndReason::NeverEnding) => true,
        Some(EndReason::NoLegalMove) => back.outcome() != pos.outcome(),
        _ => false,
    };
    if by_history {
        assert_eq!(
            back.to_setup(),
            setup,
            "the setup of {pos} does not read back"
        );
        return;
    }
    assert_eq!(
        &back, pos,
        "the setup of a position does not check back into it"
    );
    let string = PositionString::from(pos);
    let text = string.to_string();
    let read: PositionString = text
        .parse()
        .unwrap_or_else(|e| panic!("the position string {text} does not read back: {e}"));
    assert_eq!(read, string, "position string round trip of {text}");
    let again = Position::from_setup(read.to_setup(*pos.rules()))
        .unwrap_or_else(|e| panic!("the position string {text} is invalid: {e}"));
    assert_eq!(&again, pos, "position string {text} gives another position");
}

/// What is wrong with a move's trace, given the positions before and after.
fn trace_problems(pos: &Position, mv: &Move, next: &Position, t: &MoveTrace) -> Vec<String> {
    let mut bad = Vec::new();
    let mut check = |ok: bool, what: String| {
        if !ok {
            bad.push(what);
        }
    };
    let mover = pos.to_move();
    check(t.mv == *mv, format!("trace.mv {}", t.mv));
    check(t.mover == mover, format!("trace.mover {}", t.mover));
    check(t.stage == pos.stage(), format!("trace.stage {}", t.stage));
    check(
        t.outcome == next.outcome(),
        format!("trace.outcome {:?}, next {:?}", t.outcome, next.outcome()),
    );
    check(
        t.never_ending.is_none() || t.outcome.map(|o| o.reason) == Some(EndReason::NeverEnding),
        "a never-ending move without a never-ending outcome".to_owned(),
    );
    if next.outcome().is_none() {
        check(
            next.to_move() == mover.opponent(),
            format!("{} to move after {mover} moved", next.to_move()),
        );
    }
    let kept = t.laps_total.min(MoveTrace::LAP_LIMIT as u64);
    check(
        t.laps.len() as u64 == kept,
        format!("{} laps kept of {}", t.laps.len(), t.laps_total),
    );
    for (i, lap) in t.laps.iter().enumerate() {
        let n = i as u64 + 1;
        check(lap.number == n, format!("lap {n} numbered {}", lap.number));
        check(lap.seeds > 0, format!("lap {n} sows nothing"));
        check(
            lap.start.side() == mover && lap.end.side() == mover,
            format!("lap {n} leaves the mover's ring"),
        );
        if lap.source == LapSource::Taxed {
            check(
                n == 1 && lap.start == Pit::nyumba(mover),
                format!("taxed lap {n} from {}", lap.start),
            );
        }
    }
    if t.laps_total <= MoveTrace::LAP_LIMIT as u64 {
        let sown: u64 = t.laps.iter().map(|l| u64::from(l.seeds)).sum();
        check(
            sown == t.seeds_sown,
            format!("laps sow {sown}, seeds_sown {}", t.seeds_sown),
        );
    }
    for c in &t.captures {
        check(c.seeds > 0, format!("capture from {} took nothing", c.pit));
        check(
            c.pit.side() == mover.opponent() && c.pit.row() == Row::Front,
            format!("captured from {}", c.pit),
        );
        check(
            c.kichwa.side() == mover && c.kichwa.row() == Row::Front,
            format!("capture enters at {}", c.kichwa),
        );
        check(
            c.after_lap <= t.laps_total,
            format!("capture after lap {} of {}", c.after_lap, t.laps_total),
        );
    }
    let captured: u32 = t.captures.iter().map(|c| u32::from(c.seeds)).sum();
    let before: u32 = Pit::all()
        .filter(|p| p.side() == mover.opponent())
        .map(|p| u32::from(pos.get(p)))
        .sum::<u32>()
        + u32::from(pos.hand(mover.opponent()));
    let after: u32 = Pit::all()
        .filter(|p| p.side() == mover.opponent())
        .map(|p| u32::from(next.get(p)))
        .sum::<u32>()
        + u32::from(next.hand(mover.opponent()));
    check(
        before == after + captured,
        format!("the opponent had {before}, has {after}, lost {captured} to captures"),
    );
    bad
}

/// The `position_string` target: any text that reads as a position string writes back to a
/// string that reads equal, and is stable from then on; a valid one gives the same position
/// through a setup under every rule set.
///
/// # Panics
/// When a round trip fails.
pub fn position_string(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(read) = text.parse::<PositionString>() else {
        return;
    };
    let written = read.to_string();
    let again: PositionString = written
        .parse()
        .unwrap_or_else(|e| panic!("{written:?} (from {text:?}) does not read back: {e}"));
    assert_eq!(
        again, read,
        "{text:?} -> {written:?} reads back differently"
    );
    assert_eq!(
        again.to_string(),
        written,
        "writing {written:?} is not stable"
    );
    for name in PRESET_NAMES {
        let rules = RuleSet::preset(name).expect("a preset name");
        if let Ok(pos) = Position::from_setup(read.to_setup(rules)) {
            assert_eq!(
                PositionString::from(&pos),
                read,
                "{text:?} under {name} gives a position that writes another string"
            );
            for mv in pos.legal_moves() {
                let (next, _) = pos
                    .play(&mv)
                    .unwrap_or_else(|e| panic!("{text:?}: the legal move {mv} is illegal: {e}"));
                assert_eq!(
                    next.total_seeds(),
                    TOTAL_SEEDS,
                    "{text:?}: seeds after {mv}"
                );
            }
        }
    }
}
