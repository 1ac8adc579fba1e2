//! The replay's fast path defers the no-legal-move end test (E2) of a move to the next ply.
//! Games that end by E2 must still end there: the last move wins (`#` in the annotated
//! record), the result agrees, and a move written after it is reported.

use bao_core::{EndReason, Move, Position, RuleSet, Side};
use bao_notation::{Element, Game, GameResult, MoveItem, MoveToken, Record, Spanned, Tag};
use bao_validate::annotated_text;

use crate::{check, codes};

/// A small deterministic generator.
fn lcg(seed: u64) -> impl FnMut(usize) -> usize {
    bao_testkit::Lcg::new(seed).picker()
}

/// A random game: its moves and final position.
fn random_game(rules: RuleSet, seed: u64) -> (Vec<Move>, Position) {
    let mut pick = lcg(seed);
    let mut pos = Position::start(rules);
    let mut moves = Vec::new();
    while let Some((mv, next)) = pos.random_move(&mut pick) {
        moves.push(mv);
        pos = next;
    }
    (moves, pos)
}

/// The game as a record text, with its result, and optionally one more (written) move.
fn record_text(preset: &str, moves: &[Move], result: GameResult, extra: Option<&str>) -> String {
    let mut game = Game::default();
    game.tags.push(Spanned::bare(Tag::new("RuleSet", preset)));
    game.tags
        .push(Spanned::bare(Tag::new("Result", result.as_str())));
    for mv in moves {
        game.movetext
            .push(Spanned::bare(Element::Move(MoveItem::new(
                MoveToken::from(*mv),
            ))));
    }
    game.result = Some(Spanned::bare(result));
    let mut text = Record {
        games: vec![Spanned::bare(game)],
    }
    .to_string();
    if let Some(extra) = extra {
        let at = text.rfind(result.as_str()).expect("the result token");
        text.insert_str(at, &format!("{extra} "));
    }
    text
}

#[test]
fn games_ending_without_a_legal_move_end_there() {
    let mut total = 0;
    for preset in ["kiswahili", "kujifunza", "abstractplay", "kete"] {
        let rules = RuleSet::preset(preset).expect("preset");
        let mut found = 0;
        for seed in 0..600 {
            let (moves, end) = random_game(rules, seed);
            let Some(outcome) = end.outcome() else {
                continue;
            };
            if outcome.reason != EndReason::NoLegalMove || moves.is_empty() {
                continue;
            }
            found += 1;
            let result = match outcome.winner {
                Some(Side::South) => GameResult::SouthWins,
                Some(Side::North) => GameResult::NorthWins,
                None => GameResult::Draw,
            };
            let text = record_text(preset, &moves, result, None);
            let c = check("e2.bao", &text);
            assert_eq!(
                codes(&c),
                Vec::<&str>::new(),
                "{preset} seed {seed}\n{text}"
            );
            assert_eq!(c.report.stats.plies, moves.len());
            let last = c.replayed[0]
                .main
                .plies
                .last()
                .and_then(|p| p.played())
                .expect("moves");
            assert_eq!(last.mv, *moves.last().expect("moves"));
            assert!(
                last.wins,
                "{preset} seed {seed}: the last move wins\n{text}"
            );
            let annotated = annotated_text(&c);
            assert!(annotated.contains('#'), "{annotated}");
            // A move after the end is reported as such.
            let after = record_text(preset, &moves, result, Some("A1<"));
            let c = check("after.bao", &after);
            assert!(
                codes(&c).contains(&"bao::record::game_continues_after_end"),
                "{preset} seed {seed}: {:?}\n{after}",
                codes(&c)
            );
            if found == 3 {
                break;
            }
        }
        total += found;
    }
    assert!(total >= 4, "only {total} games ended without a legal move");
}
