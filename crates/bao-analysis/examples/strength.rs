//! Strength and speed figures for BENCHMARKS.md ("Analysis"). Run in release:
//!
//! ```text
//! cargo run --release -p bao-analysis --example strength -- random 100 40
//! cargo run --release -p bao-analysis --example strength -- greedy 100 40
//! cargo run --release -p bao-analysis --example strength -- tune 3000 40
//! cargo run --release -p bao-analysis --example strength -- ladder 10 100 20
//! cargo run --release -p bao-analysis --example strength -- depth
//! cargo run --release -p bao-analysis --example strength -- qs 8 20 40
//! cargo run --release -p bao-analysis --example strength -- levels 1,5,10,15 20 20
//! cargo run --release -p bao-analysis --example strength -- search lmr 20000 200 [SEED] [kete]
//! cargo run --release -p bao-analysis --example strength -- nodes 2000 20000 100 [SEED] [kete]
//! ```
//!
//! `random MS N`: the engine at MS ms a move against a uniformly random mover, N games,
//! colours alternated. `greedy MS N`: against a one-ply greedy capturer (the move that
//! leaves it the most seeds, ties at random). `tune NODES N`: the default weights against
//! material-only weights at NODES nodes a move, each opening (two random plies) played
//! with both colours. `ladder A B N [SEED]`: A ms against B ms a move (SEED draws the openings: split a long
//! match over processes with different seeds). `depth`: the depth reached
//! in 1 s from the start and from three middle games, with nodes a second. `qs PLIES MS N`:
//! the engine with a quiescence extension of PLIES plies against the engine without, both
//! at MS ms a move, each opening played with both colours. `levels L1,L2,... TOP N`: each
//! level against level TOP, N games each, all searching at most 8 plies (`bao engine`'s
//! `setoption name Level`: the ladder that shows the levels are ordered). `search FEATURE
//! NODES N [SEED] [RULES]`: the search with FEATURE (`lmr`: late-move reductions, `asp`:
//! aspiration windows, `both`) against the search without, both at NODES nodes a move (a
//! fixed-node match: deterministic, and the same on a loaded machine), each opening played
//! with both colours, under the rules RULES (a preset, default `kiswahili`). `nodes A B N
//! [SEED] [RULES]`: the search at A nodes a move against the search at B, under RULES (a
//! fixed-node ladder: whether more search still wins under other rules, e.g. Bao la Kete).

use std::time::Duration;

use bao_analysis::{Limits, Searcher, Weights};
use bao_core::{Move, Position, RuleSet, Side};

/// A small deterministic generator (no dependency for an example).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        usize::try_from(self.0 >> 33).unwrap_or(0) % n
    }
}

/// What an engine player has spent: the searches, their nodes and time (a ladder under
/// load reports it, so the nodes behind each time limit are known).
#[derive(Default)]
struct Effort {
    moves: u64,
    nodes: u64,
    time: Duration,
}

impl Effort {
    fn describe(&self) -> String {
        let per_move = self.nodes / self.moves.max(1);
        let nps = self.nodes as f64 / self.time.as_secs_f64().max(1e-9);
        format!("{per_move} nodes a move, {:.0}k nodes/s", nps / 1000.0)
    }
}

/// A player: picks a move in a position.
enum Player {
    Engine(Box<Searcher>, Limits, Effort),
    Random,
    Greedy,
    /// A level of `bao engine` (`choose_at_level`), with its depth limit.
    Level(Box<Searcher>, u8, Limits),
}

impl Player {
    fn pick(&mut self, pos: &Position, rng: &mut Rng) -> Move {
        let legal = pos.legal_moves();
        match self {
            Self::Engine(s, limits, effort) => {
                let report = s.search(pos, *limits, |_| {});
                effort.moves += 1;
                effort.nodes += report.nodes;
                effort.time += report.elapsed;
                report.best().unwrap_or(legal[0])
            }
            Self::Random => legal[rng.below(legal.len())],
            Self::Level(s, level, limits) => bao_analysis::choose_at_level(s, pos, *limits, *level)
                .and_then(|r| r.best())
                .unwrap_or(legal[0]),
            Self::Greedy => {
                let me = pos.to_move();
                let owned = |p: &Position| -> u32 {
                    let board: u32 = bao_core::Pit::all()
                        .filter(|q| q.side() == me)
                        .map(|q| u32::from(p.get(q)))
                        .sum();
                    board + u32::from(p.hand(me))
                };
                let best = legal
                    .iter()
                    .map(|m| owned(&pos.play_fast(m)))
                    .max()
                    .unwrap_or(0);
                let top: Vec<Move> = legal
                    .iter()
                    .copied()
                    .filter(|m| owned(&pos.play_fast(m)) == best)
                    .collect();
                top[rng.below(top.len())]
            }
        }
    }
}

/// Plays one game from `start`; the winner (`None`: a draw or 600 plies).
fn game(start: Position, south: &mut Player, north: &mut Player, rng: &mut Rng) -> Option<Side> {
    let mut pos = start;
    for _ in 0..600 {
        if let Some(o) = pos.outcome() {
            return o.winner;
        }
        let mv = match pos.to_move() {
            Side::South => south.pick(&pos, rng),
            Side::North => north.pick(&pos, rng),
        };
        pos = pos.play_fast(&mv);
    }
    None
}

/// Plays `n` games of `a` against `b`, colours alternated, each pair from the same opening
/// of `opening_plies` random plies; prints and returns a's score.
fn matchup(label: &str, a: &mut Player, b: &mut Player, n: usize, opening_plies: usize) {
    matchup_seeded(label, a, b, n, opening_plies, 20_261_201);
}

/// [`matchup`] with the openings (and the random movers' choices) drawn from `seed`: runs
/// with different seeds play different games, so a long match can be split over processes.
fn matchup_seeded(
    label: &str,
    a: &mut Player,
    b: &mut Player,
    n: usize,
    opening_plies: usize,
    seed: u64,
) {
    matchup_rules(label, a, b, n, opening_plies, seed, RuleSet::KISWAHILI);
}

/// [`matchup_seeded`] under `rules`.
fn matchup_rules(
    label: &str,
    a: &mut Player,
    b: &mut Player,
    n: usize,
    opening_plies: usize,
    seed: u64,
    rules: RuleSet,
) {
    let mut rng = Rng(seed);
    let (mut won, mut lost, mut other) = (0, 0, 0);
    let mut opening = Position::start(rules);
    for g in 0..n {
        if g % 2 == 0 {
            opening = Position::start(rules);
            for _ in 0..opening_plies {
                let legal = opening.legal_moves();
                if legal.is_empty() {
                    break;
                }
                opening = opening.play_fast(&legal[rng.below(legal.len())]);
            }
        }
        let a_side = if g % 2 == 0 { Side::South } else { Side::North };
        let winner = if a_side == Side::South {
            game(opening, a, b, &mut rng)
        } else {
            game(opening, b, a, &mut rng)
        };
        match winner {
            Some(w) if w == a_side => won += 1,
            Some(_) => lost += 1,
            None => other += 1,
        }
        // Progress on stderr, so a long ladder stopped early still says where it stood.
        let effort = |p: &Player| match p {
            Player::Engine(_, _, e) => e.describe(),
            _ => "no search".to_owned(),
        };
        eprintln!(
            "{label}: after {} games {won} won, {lost} lost, {other} other (a: {}; b: {})",
            g + 1,
            effort(a),
            effort(b)
        );
    }
    let score = (f64::from(won) + 0.5 * f64::from(other)) / n as f64;
    let err = 1.96 * (score * (1.0 - score) / n as f64).sqrt();
    let elo_of = |s: f64| {
        if s > 0.0 && s < 1.0 {
            format!("{:+.0}", -400.0 * (1.0 / s - 1.0).log10())
        } else {
            "n/a".to_owned()
        }
    };
    let elo = format!(
        "{} ({} to {})",
        elo_of(score),
        elo_of(score - err),
        elo_of(score + err)
    );
    println!(
        "{label}: {won} won, {lost} lost, {other} other of {n}: score {:.1}% ± {:.1}% (95%), Elo {elo}",
        score * 100.0,
        err * 100.0
    );
}

fn engine_ms(ms: u64) -> Player {
    Player::Engine(
        Box::new(Searcher::new(20)),
        Limits {
            movetime: Some(Duration::from_millis(ms)),
            ..Limits::default()
        },
        Effort::default(),
    )
}

fn middle_games() -> Vec<Position> {
    let mut rng = Rng(7);
    (0..3)
        .map(|_| {
            let mut pos = Position::start(RuleSet::KISWAHILI);
            for _ in 0..30 {
                pos.play_random_move(&mut |n| rng.below(n));
            }
            pos
        })
        .collect()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let num = |i: usize, d: u64| args.get(i).and_then(|s| s.parse().ok()).unwrap_or(d);
    match args.first().map(String::as_str) {
        Some("qs") => {
            let (plies, ms, n) = (num(1, 8) as u32, num(2, 20), num(3, 40) as usize);
            let limits = Limits {
                movetime: Some(Duration::from_millis(ms)),
                ..Limits::default()
            };
            let mut a = Player::Engine(
                Box::new(Searcher::new(20).with_quiescence(plies)),
                limits,
                Effort::default(),
            );
            matchup(
                &format!("quiescence {plies} vs none, {ms} ms a move"),
                &mut a,
                &mut engine_ms(ms),
                n,
                2,
            );
        }
        Some("levels") => {
            let list: Vec<u8> = args
                .get(1)
                .map_or("1,5,10,15", String::as_str)
                .split(',')
                .filter_map(|x| x.parse().ok())
                .collect();
            let (top, n) = (num(2, 20) as u8, num(3, 20) as usize);
            let limits = Limits {
                depth: Some(8),
                ..Limits::default()
            };
            for level in list {
                let mut a = Player::Level(Box::new(Searcher::new(18)), level, limits);
                let mut b = Player::Level(Box::new(Searcher::new(18)), top, limits);
                matchup(
                    &format!("level {level} vs level {top}"),
                    &mut a,
                    &mut b,
                    n,
                    2,
                );
            }
        }
        Some("search") => {
            let feature = args.get(1).map_or("lmr", String::as_str);
            let (nodes, n, seed) = (num(2, 20_000), num(3, 200) as usize, num(4, 20_261_201));
            let rules = args
                .get(5)
                .map_or(Ok(RuleSet::KISWAHILI), |r| RuleSet::from_spec(r))
                .expect("a rule set");
            let (lmr, asp) = match feature {
                "lmr" => (true, false),
                "asp" => (false, true),
                _ => (true, true),
            };
            let limits = Limits {
                nodes: Some(nodes),
                ..Limits::default()
            };
            let mut a = Player::Engine(
                Box::new(Searcher::new(18).with_reductions(lmr).with_aspiration(asp)),
                limits,
                Effort::default(),
            );
            let mut b = Player::Engine(Box::new(Searcher::new(18)), limits, Effort::default());
            matchup_rules(
                &format!("{feature} vs plain at {nodes} nodes"),
                &mut a,
                &mut b,
                n,
                2,
                seed,
                rules,
            );
        }
        Some("nodes") => {
            let (x, y, n, seed) = (
                num(1, 2_000),
                num(2, 20_000),
                num(3, 100) as usize,
                num(4, 20_261_201),
            );
            let rules = args
                .get(5)
                .map_or(Ok(RuleSet::KISWAHILI), |r| RuleSet::from_spec(r))
                .expect("a rule set");
            let at = |nodes: u64| {
                Player::Engine(
                    Box::new(Searcher::new(18)),
                    Limits {
                        nodes: Some(nodes),
                        ..Limits::default()
                    },
                    Effort::default(),
                )
            };
            matchup_rules(
                &format!(
                    "{x} nodes vs {y} nodes ({})",
                    args.get(5).map_or("kiswahili", String::as_str)
                ),
                &mut at(x),
                &mut at(y),
                n,
                2,
                seed,
                rules,
            );
        }
        Some("random") => {
            let (ms, n) = (num(1, 100), num(2, 40) as usize);
            matchup(
                &format!("engine {ms} ms vs random"),
                &mut engine_ms(ms),
                &mut Player::Random,
                n,
                0,
            );
        }
        Some("greedy") => {
            let (ms, n) = (num(1, 100), num(2, 40) as usize);
            matchup(
                &format!("engine {ms} ms vs greedy"),
                &mut engine_ms(ms),
                &mut Player::Greedy,
                n,
                2,
            );
        }
        Some("tune") => {
            let (nodes, n) = (num(1, 3000), num(2, 40) as usize);
            let limits = Limits {
                nodes: Some(nodes),
                ..Limits::default()
            };
            let material = Weights {
                front: 0,
                front_pits: 0,
                threat: 0,
                exposed: 0,
                house: 0,
                mobility: 0,
                hand: 0,
                ..Weights::default()
            };
            // Optional: the weights to try, `front,front_pits,threat,exposed,house,mobility,hand`.
            let tried = args.get(3).map_or_else(Weights::default, |w| {
                let v: Vec<i32> = w.split(',').filter_map(|x| x.parse().ok()).collect();
                let at = |i: usize| v.get(i).copied().unwrap_or(0);
                Weights {
                    front: at(0),
                    front_pits: at(1),
                    threat: at(2),
                    exposed: at(3),
                    house: at(4),
                    mobility: at(5),
                    hand: at(6),
                    ..Weights::default()
                }
            });
            let mut a = Player::Engine(
                Box::new(Searcher::new(18).with_weights(tried)),
                limits,
                Effort::default(),
            );
            let mut b = Player::Engine(
                Box::new(Searcher::new(18).with_weights(material)),
                limits,
                Effort::default(),
            );
            matchup(
                &format!("{tried:?} vs material only at {nodes} nodes"),
                &mut a,
                &mut b,
                n,
                2,
            );
        }
        Some("ladder") => {
            let (x, y, n) = (num(1, 10), num(2, 100), num(3, 20) as usize);
            matchup_seeded(
                &format!("engine {x} ms vs {y} ms"),
                &mut engine_ms(x),
                &mut engine_ms(y),
                n,
                2,
                num(4, 20_261_201),
            );
        }
        Some("depth") => {
            let mut all = vec![("start", Position::start(RuleSet::KISWAHILI))];
            all.extend(middle_games().into_iter().map(|p| ("middle", p)));
            for (name, pos) in all {
                let r = Searcher::new(22).search(
                    &pos,
                    Limits {
                        movetime: Some(Duration::from_secs(1)),
                        ..Limits::default()
                    },
                    |_| {},
                );
                println!(
                    "{name}: depth {} in 1 s, {} nodes, {} nodes/s, score {:?}",
                    r.depth,
                    r.nodes,
                    r.nps(),
                    r.score
                );
            }
        }
        _ => eprintln!(
            "usage: strength random|greedy MS N | tune NODES N | ladder A B N [SEED] | depth"
        ),
    }
}
