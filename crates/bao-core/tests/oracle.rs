//! Differential test against AbstractPlay's Bao engine (`fixtures/oracle/`, described in
//! rules-abstractplay.md §5).
//!
//! Every ply of every transcript is converted to our naming and checked on its own: our legal
//! set must equal AbstractPlay's, and playing its chosen move must give the next ply's
//! position (board, hands, houses, blocked pits, side to move), and after the last move the
//! final position and winner. An `oracle_error` game (a move aborted by AbstractPlay's seed
//! cap) is compared up to and including the legal set of its failing ply, whose move must
//! lose for the mover. Mismatches are collected, summarised and then asserted to be none.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use bao_core::{BySide, HouseState, Move, Pit, Position, Row, RuleSet, Setup, Side};
use serde_json::Value;

const KISWAHILI: &str = "ap_kiswahili_reload_s1001_300.jsonl";
const KUJIFUNZA: &str = "ap_kujifunza_s2001_300.jsonl";

/// AbstractPlay's pit name (file `a`..`h`, rank `1`..`4`) as ours: rank 2 → A_f, rank 1 → B_f,
/// rank 3 → a_(9−f), rank 4 → b_(9−f).
fn ap_pit(name: &str) -> Result<Pit, String> {
    let b = name.as_bytes();
    if b.len() != 2 || !(b'a'..=b'h').contains(&b[0]) || !(b'1'..=b'4').contains(&b[1]) {
        return Err(format!("not an AbstractPlay pit: {name:?}"));
    }
    Ok(ap_index_pit(
        usize::from(b[1] - b'1') * 8 + usize::from(b[0] - b'a'),
    ))
}

/// The pit at transcript board index `(rank−1)·8 + (file−1)`.
fn ap_index_pit(index: usize) -> Pit {
    let (rank, file) = (index / 8 + 1, (index % 8 + 1) as u8);
    let (side, row, number) = match rank {
        1 => (Side::South, Row::Back, file),
        2 => (Side::South, Row::Front, file),
        3 => (Side::North, Row::Front, 9 - file),
        _ => (Side::North, Row::Back, 9 - file),
    };
    Pit::new(side, row, number).expect("1..=8")
}

/// AbstractPlay's move string as ours: the pit is renamed, the sign and suffixes are kept.
fn ap_move(text: &str) -> Result<Move, String> {
    let (pit, rest) = text
        .split_at_checked(2)
        .ok_or_else(|| format!("not an AbstractPlay move: {text:?}"))?;
    format!("{}{rest}", ap_pit(pit)?)
        .parse()
        .map_err(|e| format!("{text:?}: {e}"))
}

/// The fields the transcript and our position share, for comparison.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Facts {
    pits: [[u8; 8]; 4],
    hands: BySide<u8>,
    houses: BySide<HouseState>,
    blocked: BySide<Option<Pit>>,
    to_move: Side,
}

impl Facts {
    fn of(setup: &Setup) -> Facts {
        Facts {
            pits: setup.pits,
            hands: setup.hands,
            houses: setup.houses,
            blocked: setup.blocked,
            to_move: setup.to_move,
        }
    }

    /// The names of the fields that differ.
    fn diff(&self, other: &Facts) -> Vec<&'static str> {
        let mut d = Vec::new();
        if self.pits != other.pits {
            d.push("board");
        }
        if self.hands != other.hands {
            d.push("hands");
        }
        if self.houses != other.houses {
            d.push("houses");
        }
        if self.blocked != other.blocked {
            d.push("blocked");
        }
        if self.to_move != other.to_move {
            d.push("to_move");
        }
        d
    }

    fn compact(&self) -> String {
        let row = |r: &[u8; 8]| r.iter().map(u8::to_string).collect::<Vec<_>>().join(",");
        let pit = |p: Option<Pit>| p.map_or("-".to_owned(), |p| p.to_string());
        format!(
            "{} to move; hands {}/{}; A[{}] B[{}] a[{}] b[{}]; houses {}/{}; blocked {}/{}",
            self.to_move,
            self.hands.south,
            self.hands.north,
            row(&self.pits[0]),
            row(&self.pits[1]),
            row(&self.pits[2]),
            row(&self.pits[3]),
            self.houses.south.name(),
            self.houses.north.name(),
            pit(self.blocked.south),
            pit(self.blocked.north),
        )
    }
}

fn side_of(v: &Value) -> Result<Side, String> {
    // `winner` is written as [0] or [1]; `to_move` as 0 or 1.
    let n = v
        .as_u64()
        .or_else(|| v.get(0).and_then(Value::as_u64))
        .ok_or_else(|| format!("not a side: {v}"))?;
    Ok(if n == 0 { Side::South } else { Side::North })
}

fn pair<T>(v: &Value, f: impl Fn(&Value) -> Result<T, String>) -> Result<BySide<T>, String> {
    match v.as_array().map(Vec::as_slice) {
        Some([s, n]) => Ok(BySide::new(f(s)?, f(n)?)),
        _ => Err(format!("not a [south, north] pair: {v}")),
    }
}

/// A transcript position (`hand`, `house`, `blocked`, `board`, `to_move`) as a setup.
fn ap_setup(v: &Value, rules: RuleSet, last_move_takasa: bool) -> Result<Setup, String> {
    let board = v["board"]
        .as_array()
        .filter(|b| b.len() == 32)
        .ok_or("board is not 32 counts")?;
    let mut setup = Setup::start(rules);
    for (i, n) in board.iter().enumerate() {
        let n = n.as_u64().and_then(|n| u8::try_from(n).ok());
        setup.set(ap_index_pit(i), n.ok_or("bad count")?);
    }
    setup.to_move = side_of(&v["to_move"])?;
    setup.hands = pair(&v["hand"], |h| {
        h.as_u64()
            .and_then(|n| u8::try_from(n).ok())
            .ok_or_else(|| format!("bad hand {h}"))
    })?;
    let houses = pair(&v["house"], |h| match h.as_str() {
        None => Ok(None),
        Some(name) => ap_pit(name).map(Some),
    })?;
    for side in Side::ALL {
        *setup.houses.get_mut(side) = match *houses.get(side) {
            _ if !rules.houses => HouseState::None,
            None => HouseState::Destroyed,
            Some(pit) if pit != Pit::nyumba(side) => {
                return Err(format!("{side}'s house is {pit}, not the nyumba"))
            }
            Some(pit) if setup.get(pit) >= 6 => HouseState::Functional,
            Some(_) => HouseState::Dormant,
        };
    }
    setup.blocked = pair(&v["blocked"], |b| match b.as_str() {
        None => Ok(None),
        Some(name) => ap_pit(name).map(Some),
    })?;
    setup.last_move_takasa = last_move_takasa;
    Ok(setup)
}

fn str_list(v: &Value) -> Vec<&str> {
    v.as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

struct Mismatch {
    game: u64,
    ply: usize,
    category: String,
    detail: String,
}

#[derive(Default)]
struct Report {
    file: &'static str,
    plies: usize,
    legal_sets: usize,
    transitions: usize,
    finals: usize,
    mismatches: Vec<Mismatch>,
}

impl Report {
    fn push(&mut self, game: u64, ply: usize, category: impl Into<String>, detail: String) {
        self.mismatches.push(Mismatch {
            game,
            ply,
            category: category.into(),
            detail,
        });
    }

    fn summary(&self) -> String {
        let mut s = format!(
            "{}: {} plies, {} legal sets, {} moves played, {} final positions compared; {} mismatches\n",
            self.file,
            self.plies,
            self.legal_sets,
            self.transitions,
            self.finals,
            self.mismatches.len()
        );
        let mut by_cat: BTreeMap<&str, usize> = BTreeMap::new();
        for m in &self.mismatches {
            *by_cat.entry(m.category.as_str()).or_default() += 1;
        }
        for (cat, n) in by_cat {
            let _ = writeln!(s, "  {cat}: {n}");
        }
        for m in self.mismatches.iter().take(20) {
            let _ = writeln!(s, "  g{} p{} {}: {}", m.game, m.ply, m.category, m.detail);
        }
        s
    }
}

fn check_game(game: &Value, rules: RuleSet, report: &mut Report) {
    let id = game["game"].as_u64().unwrap_or(u64::MAX);
    let plies = game["plies"].as_array().map_or(&[][..], Vec::as_slice);
    let error_ply = game["oracle_error"]["ply"]
        .as_u64()
        .and_then(|p| usize::try_from(p).ok());
    let mut last_takasa = false;
    let mut previous: Option<Position> = None;
    for (i, ply) in plies.iter().enumerate() {
        report.plies += 1;
        let setup = match ap_setup(ply, rules, last_takasa) {
            Ok(s) => s,
            Err(e) => {
                report.push(id, i, "convert", e);
                continue;
            }
        };
        let theirs_facts = Facts::of(&setup);
        // The position our engine reached from the previous ply must be this one.
        if let Some(ours) = previous.take() {
            let ours_facts = Facts::of(&ours.to_setup());
            let diff = ours_facts.diff(&theirs_facts);
            if !diff.is_empty() {
                report.push(
                    id,
                    i,
                    format!("next position ({})", diff.join(", ")),
                    format!(
                        "after {}: ours {} | theirs {}",
                        plies[i - 1]["move"],
                        ours_facts.compact(),
                        theirs_facts.compact()
                    ),
                );
            }
        }
        let pos = match Position::from_setup(setup) {
            Ok(p) => p,
            Err(e) => {
                report.push(id, i, "convert", e.to_string());
                continue;
            }
        };
        // Legal sets.
        let theirs: Result<BTreeSet<Move>, String> =
            str_list(&ply["legal"]).into_iter().map(ap_move).collect();
        let theirs = match theirs {
            Ok(t) => t,
            Err(e) => {
                report.push(id, i, "convert", e);
                continue;
            }
        };
        let ours: BTreeSet<Move> = pos.legal_moves().into_iter().collect();
        report.legal_sets += 1;
        if ours != theirs {
            let show = |s: BTreeSet<&Move>| {
                s.iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            report.push(
                id,
                i,
                "legal set",
                format!(
                    "{}: ours only [{}], theirs only [{}]",
                    theirs_facts.compact(),
                    show(ours.difference(&theirs).collect()),
                    show(theirs.difference(&ours).collect()),
                ),
            );
        }
        // The chosen move.
        let text = ply["move"].as_str().unwrap_or("");
        // The next ply's "previous move was a takasa" (rules-abstractplay.md §5.1).
        last_takasa = text.ends_with('*');
        let mv = match ap_move(text) {
            Ok(m) => m,
            Err(e) => {
                report.push(id, i, "convert", e);
                continue;
            }
        };
        let played = pos.play(&mv);
        if Some(i) == error_ply {
            // AbstractPlay aborted this move at its seed cap: the mover loses.
            let mover = pos.to_move();
            let loses = match &played {
                Ok((next, _)) => next
                    .outcome()
                    .is_some_and(|o| o.winner == Some(mover.opponent())),
                Err(e) => e.reason.never_ending().is_some(),
            };
            if !loses {
                let what = match &played {
                    Ok((next, _)) => format!("ours ends {:?}", next.outcome()),
                    Err(e) => format!("ours refuses it: {e}"),
                };
                report.push(
                    id,
                    i,
                    "seed cap",
                    format!(
                        "{}: {text} ({mv}) should lose for {mover}; {what}",
                        theirs_facts.compact()
                    ),
                );
            }
            return;
        }
        let next = match played {
            Ok((next, _)) => next,
            Err(e) => {
                report.push(
                    id,
                    i,
                    "play refused",
                    format!("{}: {text} ({mv}): {e}", theirs_facts.compact()),
                );
                continue;
            }
        };
        report.transitions += 1;
        previous = Some(next);
    }
    // The final position and result.
    let Some(ours) = previous else { return };
    let last = plies.len();
    let fin = &game["final"];
    let theirs_facts = match ap_setup(fin, rules, last_takasa) {
        Ok(s) => Facts::of(&s),
        Err(e) => return report.push(id, last, "convert", e),
    };
    report.finals += 1;
    let ours_facts = Facts::of(&ours.to_setup());
    let diff = ours_facts.diff(&theirs_facts);
    if !diff.is_empty() {
        report.push(
            id,
            last,
            format!("final position ({})", diff.join(", ")),
            format!(
                "ours {} | theirs {}",
                ours_facts.compact(),
                theirs_facts.compact()
            ),
        );
    }
    let their_winner = if fin["gameover"].as_bool() == Some(true) {
        side_of(&fin["winner"]).ok()
    } else {
        None
    };
    let our_outcome = ours.outcome();
    if our_outcome.and_then(|o| o.winner) != their_winner
        || our_outcome.is_some() != their_winner.is_some()
    {
        report.push(
            id,
            last,
            "final result",
            format!(
                "ours {our_outcome:?} | theirs winner {their_winner:?}: {}",
                theirs_facts.compact()
            ),
        );
    }
}

fn run(file: &'static str, rules: RuleSet) -> Report {
    let path = format!(
        "{}/../../fixtures/oracle/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut report = Report {
        file,
        ..Report::default()
    };
    for (n, line) in text.lines().enumerate() {
        let game: Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("{file}:{}: {e}", n + 1));
        check_game(&game, rules, &mut report);
    }
    report
}

fn assert_agrees(file: &'static str, rules: RuleSet, min_plies: usize) {
    let report = run(file, rules);
    let summary = report.summary();
    println!("{summary}");
    assert!(report.plies >= min_plies, "too few plies read\n{summary}");
    assert!(report.mismatches.is_empty(), "{summary}");
}

#[test]
fn agrees_with_abstractplay_kiswahili() {
    assert_agrees(KISWAHILI, RuleSet::ABSTRACTPLAY, 16_000);
}

#[test]
fn agrees_with_abstractplay_kujifunza() {
    assert_agrees(KUJIFUNZA, RuleSet::ABSTRACTPLAY_KUJIFUNZA, 7_000);
}

/// The worked examples of rules-abstractplay.md §1.
#[test]
fn converter_follows_the_worked_examples() {
    let pit = |s: &str| s.parse::<Pit>().unwrap();
    let mv = |s: &str| s.parse::<Move>().unwrap();
    // 1. e2 is South's nyumba A5 (index 12), d3 North's a5 (index 19).
    assert_eq!(ap_pit("e2").unwrap(), pit("A5"));
    assert_eq!(ap_index_pit(12), pit("A5"));
    assert_eq!(ap_pit("d3").unwrap(), pit("a5"));
    assert_eq!(ap_index_pit(19), pit("a5"));
    // Facing pits share a file; the ranks in order.
    assert_eq!(ap_pit("a2").unwrap().facing(), Some(ap_pit("a3").unwrap()));
    assert_eq!(ap_pit("a1").unwrap(), pit("B1"));
    assert_eq!(ap_pit("a4").unwrap(), pit("b8"));
    assert_eq!(ap_pit("h3").unwrap(), pit("a1"));
    for i in 0..32 {
        let name = format!("{}{}", char::from(b'a' + (i % 8) as u8), i / 8 + 1);
        assert_eq!(ap_pit(&name).unwrap(), ap_index_pit(i), "{name}");
    }
    assert!(ap_pit("i1").is_err() && ap_pit("a5").is_err() && ap_pit("a").is_err());
    // 3. Signs and suffixes are kept.
    assert_eq!(ap_move("c4<").unwrap(), mv("b6<"));
    assert_eq!(ap_move("e2<").unwrap(), mv("A5<"));
    assert_eq!(ap_move("c2>+").unwrap(), mv("A3>+"));
    assert_eq!(ap_move("b3<*").unwrap(), mv("a7<*"));
    // The transcripts' first position is our start.
    let first: Value = serde_json::from_str(
        r#"{"to_move":0,"hand":[22,22],"house":["e2","d3"],"blocked":[null,null],
            "board":[0,0,0,0,0,0,0,0,0,0,0,0,6,2,2,0,0,2,2,6,0,0,0,0,0,0,0,0,0,0,0,0]}"#,
    )
    .unwrap();
    let setup = ap_setup(&first, RuleSet::ABSTRACTPLAY, false).unwrap();
    assert_eq!(setup, Setup::start(RuleSet::ABSTRACTPLAY));
    // 2. North's b3<* from the start: a7 0, a6 3, a5 7, a4 1.
    let mut north = setup;
    north.to_move = Side::North;
    let pos = Position::from_setup(north).unwrap();
    let (next, _) = pos.play(&ap_move("b3<*").unwrap()).unwrap();
    let counts: Vec<u8> = ["a7", "a6", "a5", "a4"].map(|p| next.get(pit(p))).to_vec();
    assert_eq!(counts, [0, 3, 7, 1]);
}
