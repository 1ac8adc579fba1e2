//! A large record of random games written with full annotations, generated from the engine
//! (shared by the benchmark and the `replay_workload` example).

use std::sync::Arc;

use bao_core::{Position, RuleSet, Side};
use bao_notation::{Element, Game, GameResult, MoveItem, MoveToken, Record, Spanned, Tag};
use bao_validate::{annotated_text, check_full, CheckOptions};

/// xorshift64*: the same games every run.
type Rng = bao_testkit::XorShift64Star;

/// One random game under `preset`, as a record game without annotations.
fn random_game(preset: &str, rng: &mut Rng, round: usize) -> Game {
    let rules = RuleSet::preset(preset).expect("a preset");
    let mut pos = Position::start(rules);
    let mut game = Game::default();
    game.tags
        .push(Spanned::bare(Tag::new("Event", "Benchmark")));
    game.tags
        .push(Spanned::bare(Tag::new("Round", &round.to_string())));
    game.tags.push(Spanned::bare(Tag::new("RuleSet", preset)));
    let mut pick = |n: usize| rng.below(n);
    while let Some((mv, next)) = pos.random_move(&mut pick) {
        game.movetext
            .push(Spanned::bare(Element::Move(MoveItem::new(
                MoveToken::from(mv),
            ))));
        pos = next;
    }
    let result = match pos.outcome().map(|o| o.winner) {
        Some(Some(Side::South)) => GameResult::SouthWins,
        Some(Some(Side::North)) => GameResult::NorthWins,
        Some(None) => GameResult::Draw,
        None => GameResult::Unknown,
    };
    game.tags
        .push(Spanned::bare(Tag::new("Result", result.as_str())));
    game.result = Some(Spanned::bare(result));
    game
}

/// `games` random games (alternately of each preset in `presets`), written with the
/// engine's full annotations (every capture and lap end, `**` and `#`); returns the text
/// and the number of plies.
pub(crate) fn annotated_games(games: usize, presets: &[&str], seed: u64) -> (String, usize) {
    let mut rng = Rng::new(seed | 1);
    let record = Record {
        games: (0..games)
            .map(|i| Spanned::bare(random_game(presets[i % presets.len()], &mut rng, i + 1)))
            .collect(),
    };
    let text: Arc<str> = Arc::from(record.to_string());
    let checked = check_full("generated", text, &CheckOptions::default());
    assert!(
        checked.report.diagnostics.is_empty(),
        "the generated games replay cleanly"
    );
    (annotated_text(&checked), checked.report.stats.plies)
}
