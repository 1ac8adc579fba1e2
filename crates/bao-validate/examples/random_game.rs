//! Prints a game played with random legal moves, as a record with full annotations: the
//! raw material of the validator's fixtures (every move comes from the engine).
//!
//! `cargo run -q -p bao-validate --example random_game -- [PRESET] [SEED] [MAX_PLIES]`

use std::sync::Arc;

use bao_core::{Position, RuleSet};
use bao_notation::{Element, Game, GameResult, MoveItem, MoveToken, Record, Spanned, Tag};
use bao_validate::{annotated_text, check_full, CheckOptions};
use rand::{Rng, SeedableRng};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let preset = args.first().map_or("kiswahili", String::as_str);
    let seed: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1);
    let max: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let Some(rules) = RuleSet::preset(preset) else {
        eprintln!("unknown preset {preset}");
        std::process::exit(2);
    };
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
    let mut pos = Position::start(rules);
    let mut game = Game::default();
    game.tags
        .push(Spanned::bare(Tag::new("Event", "Random game")));
    game.tags
        .push(Spanned::bare(Tag::new("Round", &seed.to_string())));
    if preset != "kiswahili" {
        game.tags.push(Spanned::bare(Tag::new("RuleSet", preset)));
    }
    let mut plies = 0;
    while plies < max {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.gen_range(0..moves.len())];
        pos = pos.play_fast(&mv);
        game.movetext
            .push(Spanned::bare(Element::Move(MoveItem::new(
                MoveToken::from(mv),
            ))));
        plies += 1;
    }
    let result = match pos.outcome().and_then(|o| o.winner) {
        Some(bao_core::Side::South) => GameResult::SouthWins,
        Some(bao_core::Side::North) => GameResult::NorthWins,
        None => GameResult::Unknown,
    };
    game.tags
        .push(Spanned::bare(Tag::new("Result", result.as_str())));
    game.result = Some(Spanned::bare(result));
    let record = Record {
        games: vec![Spanned::bare(game)],
    };
    let text: Arc<str> = Arc::from(record.to_string());
    let checked = check_full("random", text, &CheckOptions::default());
    print!("{}", annotated_text(&checked));
}
