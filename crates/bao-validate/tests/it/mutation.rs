//! Mutation test: real games (AbstractPlay transcripts, `fixtures/oracle/`) converted to our
//! notation, one ply changed (direction, pit, row); each change must be an error at that ply
//! or a legal move there; how often the top suggestion restores the original is measured.

use bao_core::{Move, Pit, Position, Row, RuleSet, Side};
use bao_validate::{AnyDiagnostic, CheckOptions};
use rand::{Rng, SeedableRng};
use serde_json::Value;

/// AbstractPlay's pit (file a..h, rank 1..4) as ours (as in bao-core's oracle test).
fn ap_pit(name: &str) -> Option<Pit> {
    let b = name.as_bytes();
    if b.len() != 2 || !(b'a'..=b'h').contains(&b[0]) || !(b'1'..=b'4').contains(&b[1]) {
        return None;
    }
    let file = b[0] - b'a' + 1;
    let (side, row, number) = match b[1] {
        b'1' => (Side::South, Row::Back, file),
        b'2' => (Side::South, Row::Front, file),
        b'3' => (Side::North, Row::Front, 9 - file),
        _ => (Side::North, Row::Back, 9 - file),
    };
    Pit::new(side, row, number)
}

fn ap_move(text: &str) -> Option<Move> {
    let (pit, rest) = text.split_at_checked(2)?;
    format!("{}{rest}", ap_pit(pit)?).parse().ok()
}

fn games(limit: usize) -> Vec<Vec<Move>> {
    let path = crate::fixtures_dir().join("oracle/ap_kiswahili_reload_s1001_300.jsonl");
    let text = std::fs::read_to_string(path).unwrap();
    let mut out = Vec::new();
    for line in text.lines().take(limit) {
        let g: Value = serde_json::from_str(line).unwrap();
        let stop = g["oracle_error"]["ply"].as_u64().map(|p| p as usize);
        let moves: Option<Vec<Move>> = g["plies"]
            .as_array()
            .unwrap()
            .iter()
            .take(stop.unwrap_or(usize::MAX))
            .map(|p| ap_move(p["move"].as_str().unwrap_or("")))
            .collect();
        out.push(moves.unwrap());
    }
    out
}

/// Games of the transcript file used (the full run: `BAO_MUTATION_GAMES=300`).
const GAMES: usize = 8;

fn record(moves: &[Move]) -> String {
    let mut s = String::from("[RuleSet \"abstractplay\"]\n\n");
    for (i, m) in moves.iter().enumerate() {
        if i % 2 == 0 {
            s.push_str(&format!("{}. ", i / 2 + 1));
        }
        s.push_str(&format!("{m} "));
    }
    s.push_str("*\n");
    s
}

fn mutate(mv: Move, kind: u32) -> Option<Move> {
    let p = mv.pit;
    Some(match kind {
        0 => Move {
            sign: mv.sign.flipped(),
            ..mv
        },
        1 => Move {
            pit: Pit::new(p.side(), p.row(), p.number().checked_add(1)?)?,
            ..mv
        },
        2 => Move {
            pit: Pit::new(p.side(), p.row(), p.number().checked_sub(1)?)?,
            ..mv
        },
        _ => Move {
            pit: Pit::new(
                p.side(),
                if p.row() == Row::Front {
                    Row::Back
                } else {
                    Row::Front
                },
                p.number(),
            )?,
            ..mv
        },
    })
}

#[test]
fn one_changed_ply_is_caught_there_and_mostly_repaired() {
    let n = std::env::var("BAO_MUTATION_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(GAMES);
    let games = games(n);
    let mut rng = rand::rngs::SmallRng::seed_from_u64(4);
    let (mut tried, mut legal, mut caught, mut restored, mut top_offered) = (0, 0, 0, 0, 0);
    let mut plies_checked = 0usize;
    let started = std::time::Instant::now();
    for moves in &games {
        // The original replays cleanly under the AbstractPlay preset.
        let clean = crate::check("g", &record(moves));
        assert!(clean.report.is_valid(), "{:?}", crate::codes(&clean));
        plies_checked += clean.report.stats.plies;
        for _ in 0..5 {
            let ply = rng.gen_range(0..moves.len());
            let Some(m) = mutate(moves[ply], rng.gen_range(0..4)) else {
                continue;
            };
            if m == moves[ply] {
                continue;
            }
            tried += 1;
            let mut changed = moves.clone();
            changed[ply] = m;
            // Was the changed move legal there?
            let mut pos = Position::start(RuleSet::ABSTRACTPLAY);
            for mv in &moves[..ply] {
                pos = pos.play_fast(mv);
            }
            if pos.legal_moves().contains(&m) {
                legal += 1;
                continue;
            }
            let c =
                bao_validate::check_full("g", record(&changed).into(), &CheckOptions::default());
            let first = c.report.diagnostics.iter().find_map(|d| match d {
                AnyDiagnostic::Check(d) => Some(d),
                AnyDiagnostic::Syntax(_) => None,
            });
            let d = first.expect("an error");
            assert_eq!(d.ply, Some(ply + 1), "{}: {d:?}", record(&changed));
            caught += 1;
            let orig = moves[ply].to_string();
            if d.fix.map(|m| m.to_string()).as_deref() == Some(orig.as_str()) {
                restored += 1;
            }
            if d.help.as_deref().is_some_and(|h| {
                h.contains(&format!("did you mean {orig} ?"))
                    || h.contains(&format!("Did you mean {orig} ?"))
            }) {
                top_offered += 1;
            }
        }
    }
    println!(
        "mutation test: {tried} changed plies over {} games; {legal} still legal; {caught} caught at their ply; \
         top suggestion = original in {top_offered} ({:.0}%), unambiguous fix = original in {restored} ({:.0}%); \
         {plies_checked} clean plies validated in {:?}",
        games.len(),
        100.0 * f64::from(top_offered) / f64::from(caught.max(1)),
        100.0 * f64::from(restored) / f64::from(caught.max(1)),
        started.elapsed()
    );
    assert_eq!(caught + legal, tried);
    assert!(
        top_offered * 2 >= caught,
        "the top suggestion should restore most slips"
    );
}

/// A transcription slip that moves plies: two consecutive plies swapped (South's and North's
/// moves of one number), one player's moves of two consecutive numbers swapped, one ply left
/// out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PlySlip {
    SwapNext,
    SwapOwn,
    Missing,
}

#[test]
fn swapped_and_missing_plies_are_caught_and_mostly_repaired() {
    let n = std::env::var("BAO_MUTATION_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(GAMES);
    let games = games(n);
    let mut rng = rand::rngs::SmallRng::seed_from_u64(5);
    let kinds = [PlySlip::SwapNext, PlySlip::SwapOwn, PlySlip::Missing];
    // Per kind: tried, caught at the slip's ply, top suggestion right, unambiguous repair right.
    let mut tally = [[0u32; 4]; 3];
    for moves in &games {
        for _ in 0..5 {
            let k = rng.gen_range(0..kinds.len());
            let kind = kinds[k];
            let distance = if kind == PlySlip::SwapOwn { 2 } else { 1 };
            // Something must follow the slip for it to show.
            if moves.len() < distance + 2 {
                continue;
            }
            let ply = rng.gen_range(0..moves.len() - distance - 1);
            let mut changed = moves.clone();
            match kind {
                PlySlip::SwapNext | PlySlip::SwapOwn => changed.swap(ply, ply + distance),
                PlySlip::Missing => {
                    changed.remove(ply);
                }
            }
            if changed[ply] == moves[ply] {
                continue;
            }
            tally[k][0] += 1;
            let c =
                bao_validate::check_full("g", record(&changed).into(), &CheckOptions::default());
            let Some(d) = c.report.diagnostics.iter().find_map(|d| match d {
                AnyDiagnostic::Check(d) if d.code.area() == "illegal" => Some(d),
                _ => None,
            }) else {
                // One player's two moves can be legal in either order.
                assert_eq!(kind, PlySlip::SwapOwn, "{}", record(&changed));
                continue;
            };
            if kind != PlySlip::SwapOwn {
                // The other player's move now comes first: illegal right there.
                assert_eq!(d.ply, Some(ply + 1), "{}: {d:?}", record(&changed));
            }
            if d.ply != Some(ply + 1) {
                continue;
            }
            tally[k][1] += 1;
            let orig = moves[ply];
            let top = match kind {
                PlySlip::Missing => format!("A ply seems missing before it: after {orig} "),
                _ => format!(
                    "Plies {} and {} look swapped: {orig} here",
                    ply + 1,
                    ply + 1 + distance
                ),
            };
            if d.help.as_deref().is_some_and(|h| h.contains(&top)) {
                tally[k][2] += 1;
            }
            let right = d.repair.as_ref().is_some_and(|r| {
                r.mv == orig
                    && match r.repair {
                        bao_validate::Repair::Swap { with_ply, .. } => {
                            kind != PlySlip::Missing && with_ply == ply + 1 + distance
                        }
                        bao_validate::Repair::Insert { .. } => kind == PlySlip::Missing,
                        bao_validate::Repair::Replace
                        | bao_validate::Repair::Earlier { .. }
                        | bao_validate::Repair::Delete { .. } => false,
                    }
            });
            if right {
                tally[k][3] += 1;
            }
        }
    }
    for (k, kind) in kinds.iter().enumerate() {
        let [tried, caught, top, fixed] = tally[k];
        println!(
            "ply slips {kind:?}: {tried} tried over {} games; {caught} caught at their ply; \
             top suggestion right in {top} ({:.0}%), unambiguous repair right in {fixed} ({:.0}%)",
            games.len(),
            100.0 * f64::from(top) / f64::from(caught.max(1)),
            100.0 * f64::from(fixed) / f64::from(caught.max(1)),
        );
        assert!(
            top * 2 >= caught,
            "{kind:?}: the top suggestion should restore most slips"
        );
    }
}
