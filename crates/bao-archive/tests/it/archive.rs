//! Filters, statistics and duplicate keys against a generated archive, with every answer
//! counted here directly from the parsed and replayed games (not with the code under test).

use std::collections::HashMap;

use bao_archive::dedupe::GameKey;
use bao_archive::filter::{
    parse_opening, parse_position, parse_rules, Filter, PlyRange, TagCriterion,
};
use bao_archive::stats::{GameFacts, Stats, TreeMove};
use bao_archive::{for_each_game, Depth};
use bao_core::{Move, Position, RuleSet, Side};
use bao_notation::meaning::{game_rules, RulesKey};
use bao_notation::{parse_record, Game, GameResult, PositionString};
use bao_replay::{replay_game, ReplayedGame};
use bao_testkit::XorShift64Star;
use bao_validate::{check_full, CheckOptions};

const PLAYERS: [&str; 5] = ["Ali Juma", "Bi Mwanaisha", "Chausiku", "Dalila", "Eshe"];
const EVENTS: [&str; 3] = ["Club night", "League 2026", "Open"];
const PRESETS: [&str; 3] = ["kiswahili", "kujifunza", "abstractplay"];

/// The generated archive: random games of three rule sets, some cut short (a resignation,
/// or no result), some with an illegal move (a pit of the other side), and some repeated
/// with other tags.
fn archive() -> String {
    let mut rng = XorShift64Star::new(2026);
    let mut games: Vec<(String, Vec<String>, String)> = Vec::new();
    let mut out = String::new();
    for i in 0..90 {
        let (preset, moves, result, termination) = if i % 10 == 9 {
            // A game already written, again, with other tags.
            let (p, m, r) = games[rng.below(games.len())].clone();
            (p, m, r, None)
        } else {
            let preset = PRESETS[i % 3];
            let rules = RuleSet::preset(preset).unwrap();
            let cap = 10 + rng.below(90);
            let mut pos = Position::start(rules);
            let mut moves = Vec::new();
            let mut pick = |n: usize| rng.below(n);
            while moves.len() < cap {
                let Some((mv, next)) = pos.random_move(&mut pick) else {
                    break;
                };
                moves.push(mv.to_string());
                pos = next;
            }
            let (result, termination) = match pos.outcome() {
                Some(o) => (
                    match o.winner {
                        Some(Side::South) => "1-0",
                        Some(Side::North) => "0-1",
                        None => "1/2-1/2",
                    },
                    None,
                ),
                None if i % 4 == 0 => ("*", None),
                None => (
                    if rng.below(2) == 0 { "1-0" } else { "0-1" },
                    Some("resignation"),
                ),
            };
            if i % 17 == 5 && moves.len() > 4 {
                // The row letter's case swapped: the other side's pit.
                let m = &mut moves[3];
                let swapped: String = m
                    .chars()
                    .enumerate()
                    .map(|(k, c)| {
                        if k == 0 {
                            if c.is_ascii_uppercase() {
                                c.to_ascii_lowercase()
                            } else {
                                c.to_ascii_uppercase()
                            }
                        } else {
                            c
                        }
                    })
                    .collect();
                *m = swapped;
            }
            games.push((preset.to_owned(), moves.clone(), result.to_owned()));
            (preset.to_owned(), moves, result.to_owned(), termination)
        };
        let south = PLAYERS[rng.below(5)];
        let mut north = PLAYERS[rng.below(5)];
        if north == south {
            north =
                PLAYERS[(rng.below(4) + 1 + PLAYERS.iter().position(|p| *p == south).unwrap()) % 5];
        }
        out.push_str(&format!(
            "[Event \"{}\"]\n[Round \"{}\"]\n[South \"{south}\"]\n[North \"{north}\"]\n[Result \"{result}\"]\n[RuleSet \"{preset}\"]\n",
            EVENTS[i % 3],
            i + 1
        ));
        if let Some(t) = termination {
            out.push_str(&format!("[Termination \"{t}\"]\n"));
        }
        out.push('\n');
        for (k, m) in moves.iter().enumerate() {
            if k % 2 == 0 {
                out.push_str(&format!("{}. ", k / 2 + 1));
            }
            out.push_str(m);
            out.push(' ');
        }
        out.push_str(&result);
        out.push_str("\n\n");
    }
    out
}

/// The games parsed and replayed directly.
fn games(text: &str) -> Vec<(Game, ReplayedGame)> {
    let parsed = parse_record(text);
    parsed
        .record
        .games
        .into_iter()
        .map(|g| {
            let r = replay_game(&g.value, None);
            (g.value, r)
        })
        .collect()
}

fn tag<'a>(g: &'a Game, name: &str) -> Option<&'a str> {
    g.tag(name).map(|t| t.value.as_str())
}

fn played(r: &ReplayedGame) -> Vec<Move> {
    r.main
        .plies
        .iter()
        .map_while(|p| p.played().map(|pl| pl.mv))
        .collect()
}

fn positions(r: &ReplayedGame) -> Vec<Position> {
    let mut out: Vec<Position> = r.opening().map(|o| o.start).into_iter().collect();
    out.extend(
        r.main
            .plies
            .iter()
            .map_while(|p| p.played().map(|pl| pl.after)),
    );
    out
}

/// How many games `filter` keeps, through the streamed path.
fn kept(text: &str, filter: &Filter) -> usize {
    let mut n = 0;
    for_each_game(
        text.as_bytes(),
        filter.depth(),
        |_, g| filter.keeps(g),
        |k| {
            n += usize::from(k);
            Ok::<_, std::io::Error>(())
        },
    )
    .unwrap();
    n
}

fn count(all: &[(Game, ReplayedGame)], f: impl Fn(&Game, &ReplayedGame) -> bool) -> usize {
    all.iter().filter(|(g, r)| f(g, r)).count()
}

#[test]
fn each_criterion_keeps_the_games_counted_directly() {
    let text = archive();
    let all = games(&text);
    assert_eq!(all.len(), 90);
    let check = |filter: Filter, want: usize, what: &str| {
        assert!(
            want > 0 && want < all.len(),
            "{what}: a test that can fail ({want})"
        );
        assert_eq!(kept(&text, &filter), want, "{what}");
        let inverted = Filter {
            invert: true,
            ..filter
        };
        assert_eq!(kept(&text, &inverted), all.len() - want, "{what}, inverted");
    };

    check(
        Filter {
            tags: vec!["South=Ali Juma".parse::<TagCriterion>().unwrap()],
            ..Filter::default()
        },
        count(&all, |g, _| tag(g, "South") == Some("Ali Juma")),
        "--tag South=",
    );
    check(
        Filter {
            tags: vec!["event~^Le.gue \\d+$".parse::<TagCriterion>().unwrap()],
            ..Filter::default()
        },
        count(&all, |g, _| tag(g, "Event") == Some("League 2026")),
        "--tag Event~",
    );
    check(
        Filter {
            players: vec!["Chausiku".to_owned()],
            ..Filter::default()
        },
        count(&all, |g, _| {
            tag(g, "South") == Some("Chausiku") || tag(g, "North") == Some("Chausiku")
        }),
        "--player",
    );
    check(
        Filter {
            result: Some(GameResult::SouthWins),
            ..Filter::default()
        },
        count(&all, |g, _| tag(g, "Result") == Some("1-0")),
        "--result",
    );
    check(
        Filter {
            rules: Some(RulesKey(RuleSet::KUJIFUNZA)),
            ..Filter::default()
        },
        count(&all, |g, _| game_rules(g).unwrap() == RuleSet::KUJIFUNZA),
        "--rules",
    );
    check(
        Filter {
            plies: Some("30..60".parse::<PlyRange>().unwrap()),
            ..Filter::default()
        },
        count(&all, |g, _| (30..=60).contains(&g.main_line().count())),
        "--plies",
    );
    // The final position of a game that was repeated, so that several games end there.
    let target = all
        .iter()
        .map(|(_, r)| positions(r).last().copied().unwrap())
        .find(|p| {
            all.iter()
                .filter(|(_, r)| positions(r).last() == Some(p))
                .count()
                > 1
        })
        .unwrap();
    let query = PositionString::from(&target).to_string();
    check(
        Filter {
            position: Some(parse_position(&query).unwrap()),
            ..Filter::default()
        },
        count(&all, |_, r| positions(r).last() == Some(&target)),
        "--position",
    );
    // A position after two plies of game 2: reached by the games that open the same way.
    let early = positions(&all[1].1)[2];
    check(
        Filter {
            position: Some(parse_position(&PositionString::from(&early).to_string()).unwrap()),
            position_anywhere: true,
            ..Filter::default()
        },
        count(&all, |_, r| positions(r).contains(&early)),
        "--position-anywhere",
    );
    let first_two = played(&all[0].1)[..2].to_vec();
    let opening = format!("{} {}", first_two[0], first_two[1]);
    check(
        Filter {
            opening: parse_opening(&opening).unwrap(),
            ..Filter::default()
        },
        count(&all, |_, r| played(r).starts_with(&first_two)),
        "--opening",
    );
    // Codes and validity from bao check's own report of the whole file.
    let report = check_full("archive", text.as_str().into(), &CheckOptions::default()).report;
    let mut codes: HashMap<usize, Vec<String>> = HashMap::new();
    let mut invalid = vec![false; all.len()];
    for d in &report.diagnostics {
        if let bao_validate::AnyDiagnostic::Check(c) = d {
            codes
                .entry(c.game)
                .or_default()
                .push(c.code.code().to_owned());
            // A game with an error, or whose board contradicts its tags (a result claimed
            // while the game goes on is a warning in `bao check`, and untrustworthy here).
            if c.is_error() || c.code == bao_validate::Code::GameEndsEarly {
                invalid[c.game - 1] = true;
            }
        }
    }
    let with = |code: &str| {
        (1..=all.len())
            .filter(|n| codes.get(n).is_some_and(|c| c.iter().any(|x| x == code)))
            .count()
    };
    check(
        Filter {
            codes: vec!["bao::illegal::not_own_pit".to_owned()],
            ..Filter::default()
        },
        with("bao::illegal::not_own_pit"),
        "--code",
    );
    let bad = invalid.iter().filter(|b| **b).count();
    check(
        Filter {
            invalid: Some(true),
            ..Filter::default()
        },
        bad,
        "--invalid",
    );
    check(
        Filter {
            invalid: Some(false),
            ..Filter::default()
        },
        all.len() - bad,
        "--valid",
    );
    // Criteria together: all must hold.
    check(
        Filter {
            players: vec!["Eshe".to_owned()],
            rules: Some(RulesKey(RuleSet::ABSTRACTPLAY)),
            ..Filter::default()
        },
        count(&all, |g, _| {
            (tag(g, "South") == Some("Eshe") || tag(g, "North") == Some("Eshe"))
                && game_rules(g).unwrap() == RuleSet::ABSTRACTPLAY
        }),
        "--player and --rules",
    );
}

fn facts(text: &str, depth: usize) -> Stats {
    let mut stats = Stats::new(depth, 10);
    for_each_game(
        text.as_bytes(),
        Depth::Replay,
        |_, g| GameFacts::of(g, depth),
        |f| {
            stats.add(&f);
            Ok::<_, std::io::Error>(())
        },
    )
    .unwrap();
    stats
}

/// Every node's count, checked against a direct count of the games that begin with its path.
fn check_tree(nodes: &[TreeMove], path: &mut Vec<String>, lines: &[Vec<String>]) -> u64 {
    let mut total = 0;
    for n in nodes {
        path.push(n.mv.clone());
        let direct = lines.iter().filter(|l| l.starts_with(path)).count() as u64;
        assert_eq!(n.games, direct, "{path:?}");
        assert!(n.south_wins + n.north_wins + n.draws <= n.games);
        let below = check_tree(&n.replies, path, lines);
        assert!(below <= n.games);
        path.pop();
        total += n.games;
    }
    total
}

#[test]
fn stats_totals_add_up_and_the_tree_counts_are_direct_counts() {
    let text = archive();
    let all = games(&text);
    let report = facts(&text, 3).report();
    let n = all.len() as u64;
    assert_eq!(report.games, n);
    let r = &report.results;
    assert_eq!(
        r.south_wins,
        count(&all, |g, _| tag(g, "Result") == Some("1-0")) as u64
    );
    assert_eq!(
        r.games - r.decided(),
        count(&all, |g, _| tag(g, "Result") == Some("*")) as u64
    );
    assert_eq!(report.endings.iter().map(|e| e.games).sum::<u64>(), n);
    assert_eq!(report.lengths.iter().map(|b| b.games).sum::<u64>(), n);
    assert_eq!(
        report.plies,
        all.iter()
            .map(|(g, _)| g.main_line().count() as u64)
            .sum::<u64>()
    );
    // Every game has two named players.
    assert_eq!(report.players.iter().map(|p| p.games).sum::<u64>(), 2 * n);
    for p in &report.players {
        assert_eq!(p.wins + p.draws + p.losses, {
            let mine =
                |g: &Game| tag(g, "South") == Some(&p.name) || tag(g, "North") == Some(&p.name);
            count(&all, |g, _| mine(g) && tag(g, "Result") != Some("*")) as u64
        });
        assert!(p.rating.is_some());
    }
    // The ratings order the players as their scores against the same field would; at least
    // the best scorer is not rated last.
    let resigned = count(&all, |g, _| tag(g, "Termination") == Some("resignation")) as u64;
    assert_eq!(
        report
            .endings
            .iter()
            .find(|e| e.reason == "resignation")
            .map_or(0, |e| e.games),
        resigned
    );
    // One tree per rule set (every game here starts from its preset's start).
    assert_eq!(report.trees.len(), 3);
    for tree in &report.trees {
        let rules = RuleSet::preset(&tree.start).unwrap();
        let lines: Vec<Vec<String>> = all
            .iter()
            .filter(|(g, _)| game_rules(g).unwrap() == rules)
            .map(|(_, r)| played(r).iter().take(3).map(ToString::to_string).collect())
            .collect();
        assert_eq!(tree.games, lines.len() as u64);
        let top = check_tree(&tree.moves, &mut Vec::new(), &lines);
        assert_eq!(top, lines.iter().filter(|l| !l.is_empty()).count() as u64);
    }
}

#[test]
fn ratings_follow_the_results() {
    // A beats B twice, B beats C twice, A and C draw: A above B above C (Bradley-Terry with
    // one virtual draw each), and the average at 1500.
    let game = |s: &str, n: &str, r: &str| {
        format!("[South \"{s}\"]\n[North \"{n}\"]\n[Result \"{r}\"]\n[Termination \"resignation\"]\n\n1. A6<* {r}\n\n")
    };
    let text = [
        game("A", "B", "1-0"),
        game("B", "A", "0-1"),
        game("B", "C", "1-0"),
        game("C", "B", "0-1"),
        game("A", "C", "1/2-1/2"),
    ]
    .concat();
    let report = facts(&text, 1).report();
    let names: Vec<&str> = report.players.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["A", "B", "C"]);
    let ratings: Vec<f64> = report.players.iter().map(|p| p.rating.unwrap()).collect();
    assert!(ratings[0] > ratings[1] && ratings[1] > ratings[2]);
    let mean = ratings.iter().sum::<f64>() / 3.0;
    assert!((mean - 1500.0).abs() < 40.0, "{ratings:?}");
}

#[test]
fn duplicates_are_the_games_with_the_same_rules_and_moves() {
    let text = archive();
    let all = games(&text);
    let mut keys = Vec::new();
    for_each_game(
        text.as_bytes(),
        Depth::Replay,
        |_, g| GameKey::of(g),
        |k| {
            keys.push(k);
            Ok::<_, std::io::Error>(())
        },
    )
    .unwrap();
    assert_eq!(keys.len(), all.len());
    for i in 0..all.len() {
        for j in 0..i {
            let same = game_rules(&all[i].0).unwrap() == game_rules(&all[j].0).unwrap()
                && all[i]
                    .0
                    .main_line()
                    .map(|m| m.token.value.to_string())
                    .eq(all[j].0.main_line().map(|m| m.token.value.to_string()));
            assert_eq!(keys[i] == keys[j], same, "games {} and {}", j + 1, i + 1);
        }
    }
}

/// One rule set spelled three ways (`RuleSet` with an override, `Rules` alone, and with an
/// override that changes nothing), and the preset itself: `bao stats` counts the three under
/// one label, `bao filter --rules` with overrides keeps the three, `bao dedupe` finds them
/// the same game.
#[test]
fn one_rule_set_spelled_three_ways_is_one_rule_set() {
    let game = |tags: &str| format!("{tags}[Event \"x\"]\n\n1. A6<* a6<* *\n\n");
    let text = [
        game("[RuleSet \"kiswahili endless_move=draw\"]\n"),
        game("[Rules \"endless_move=draw\"]\n"),
        game("[RuleSet \"kiswahili takasia=standard\"]\n[Rules \"endless_move=draw\"]\n"),
        game(""),
    ]
    .concat();
    // Stats: one label for the three, another for the preset.
    let mut labels = Vec::new();
    for_each_game(
        text.as_bytes(),
        Depth::Replay,
        |_, g| GameFacts::of(g, 2).start,
        |s| {
            labels.push(s);
            Ok::<_, std::io::Error>(())
        },
    )
    .unwrap();
    let draw = Some("kiswahili endless_move=draw".to_owned());
    assert_eq!(
        labels,
        [
            draw.clone(),
            draw.clone(),
            draw,
            Some("kiswahili".to_owned())
        ]
    );
    let report = facts(&text, 2).report();
    let trees: Vec<(&str, u64)> = report
        .trees
        .iter()
        .map(|t| (t.start.as_str(), t.games))
        .collect();
    assert_eq!(
        trees,
        [("kiswahili endless_move=draw", 3), ("kiswahili", 1)],
        "{trees:?}"
    );
    // Filter: overrides are accepted, in any spelling, and match by key.
    let filter = |rules: &str| Filter {
        rules: Some(parse_rules(rules).unwrap()),
        ..Filter::default()
    };
    assert_eq!(kept(&text, &filter("kiswahili endless_move=draw")), 3);
    assert_eq!(
        kept(
            &text,
            &filter("kiswahili,endless_move=draw takasia=standard")
        ),
        3
    );
    assert_eq!(kept(&text, &filter("kiswahili")), 1);
    assert_eq!(kept(&text, &filter("kiswahili endless_move=illegal")), 1);
    assert!(parse_rules("kiswahili endless_move=sometimes").is_err());
    assert!(parse_rules("chess").is_err());
    // Dedupe: the three are one game, the preset's another.
    let mut keys = Vec::new();
    for_each_game(
        text.as_bytes(),
        Depth::Replay,
        |_, g| GameKey::of(g),
        |k| {
            keys.push(k);
            Ok::<_, std::io::Error>(())
        },
    )
    .unwrap();
    assert_eq!(keys[0], keys[1]);
    assert_eq!(keys[0], keys[2]);
    assert_ne!(keys[0], keys[3]);
}

/// Questions by position: each query's count, and a partial position's, against the games'
/// positions read here through their position strings (rows A, B, a, b; hands; houses;
/// takasia), not through the query's evaluator.
#[test]
fn where_queries_count_what_the_positions_say() {
    use bao_archive::query::{At, Query};
    use bao_core::HouseState;

    let text = archive();
    let all = games(&text);
    // Every position of each game's main line as a position string, with its stage.
    let strings: Vec<Vec<PositionString>> = all
        .iter()
        .map(|(_, r)| positions(r).iter().map(PositionString::from).collect())
        .collect();
    let front = |p: &PositionString, s: Side| -> u32 {
        p.pits[if s == Side::South { 0 } else { 2 }]
            .iter()
            .map(|&n| u32::from(n))
            .sum()
    };
    let namua = |p: &PositionString, s: Side| *p.hands.get(s) > 0;
    type Test = Box<dyn Fn(&PositionString, usize) -> bool>;
    let cases: Vec<(&str, Test)> = vec![
        ("stage = mtaji", Box::new(move |p, _| !namua(p, p.to_move))),
        ("stage = namua", Box::new(move |p, _| namua(p, p.to_move))),
        (
            "stage(north) = mtaji and to_move = south",
            Box::new(move |p, _| !namua(p, Side::North) && p.to_move == Side::South),
        ),
        (
            "house(south)",
            Box::new(|p, _| p.houses.south == HouseState::Functional),
        ),
        (
            "not house(north) and stage = mtaji",
            Box::new(move |p, _| p.houses.north != HouseState::Functional && !namua(p, p.to_move)),
        ),
        (
            "takasia",
            Box::new(|p, _| p.blocked.south.is_some() || p.blocked.north.is_some()),
        ),
        ("takasia(north)", Box::new(|p, _| p.blocked.north.is_some())),
        ("A5 >= 10", Box::new(|p, _| p.pits[0][4] >= 10)),
        (
            "a1 = 0 and a8 = 0 and b4 > 3",
            Box::new(|p, _| p.pits[2][0] == 0 && p.pits[2][7] == 0 && p.pits[3][3] > 3),
        ),
        (
            "B1 > 2 or b1 > 2",
            Box::new(|p, _| p.pits[1][0] > 2 || p.pits[3][0] > 2),
        ),
        (
            "front(south) <= 4",
            Box::new(move |p, _| front(p, Side::South) <= 4),
        ),
        ("front(north) > front(south) + 0", Box::new(|_, _| false)),
        (
            "hand(south) = 0 and hand(north) > 0",
            Box::new(|p, _| p.hands.south == 0 && p.hands.north > 0),
        ),
        (
            "seeds(north) < 12",
            Box::new(|p, _| {
                p.pits[2]
                    .iter()
                    .chain(&p.pits[3])
                    .map(|&n| u32::from(n))
                    .sum::<u32>()
                    < 12
            }),
        ),
        (
            "back(south) >= 20",
            Box::new(|p, _| p.pits[1].iter().map(|&n| u32::from(n)).sum::<u32>() >= 20),
        ),
        (
            "ply >= 60 and A1 > A8",
            Box::new(|p, ply| ply >= 60 && p.pits[0][0] > p.pits[0][7]),
        ),
        (
            "not (A5 = 0 or a5 = 0)",
            Box::new(|p, _| p.pits[0][4] != 0 && p.pits[2][4] != 0),
        ),
        (
            "stage = mtaji and house(south) and A5 >= 6 and takasia",
            Box::new(move |p, _| {
                !namua(p, p.to_move)
                    && p.houses.south == HouseState::Functional
                    && p.pits[0][4] >= 6
                    && (p.blocked.south.is_some() || p.blocked.north.is_some())
            }),
        ),
        (
            "to_move = north and front(north) >= 30",
            Box::new(move |p, _| p.to_move == Side::North && front(p, Side::North) >= 30),
        ),
        (
            "A2 != 0 and A7 != 0 and a2 != 0 and a7 != 0",
            Box::new(|p, _| {
                p.pits[0][1] != 0 && p.pits[0][6] != 0 && p.pits[2][1] != 0 && p.pits[2][6] != 0
            }),
        ),
    ];
    let mut informative = 0;
    for (q, test) in &cases {
        let query = match q.parse::<Query>() {
            Ok(query) => query,
            // `+ 0`: no arithmetic; that the parser refuses it is part of the test.
            Err(e) => {
                assert!(q.contains('+'), "{q}: {e}");
                continue;
            }
        };
        for at in [At::Any, At::Final] {
            let want = strings
                .iter()
                .filter(|ps| match at {
                    At::Any => ps.iter().enumerate().any(|(ply, p)| test(p, ply)),
                    At::Final => ps.last().is_some_and(|p| test(p, ps.len() - 1)),
                })
                .count();
            let filter = Filter {
                query: Some(query.clone()),
                at,
                ..Filter::default()
            };
            assert_eq!(kept(&text, &filter), want, "{q} ({at:?})");
            if want > 0 && want < all.len() {
                informative += 1;
            }
        }
    }
    assert!(
        informative >= 20,
        "only {informative} counts between none and all"
    );
    // A partial position: five pits of a position reached in game 7, the rest free.
    let target = strings[7][strings[7].len() / 2];
    let pits = [
        (0, 4, "A5"),
        (0, 5, "A6"),
        (1, 2, "B3"),
        (2, 4, "a5"),
        (3, 6, "b7"),
    ];
    let query: Query = pits
        .iter()
        .map(|(r, i, name)| format!("{name} = {}", target.pits[*r][*i]))
        .collect::<Vec<_>>()
        .join(" and ")
        .parse()
        .unwrap();
    let want = strings
        .iter()
        .filter(|ps| {
            ps.iter().any(|p| {
                pits.iter()
                    .all(|(r, i, _)| p.pits[*r][*i] == target.pits[*r][*i])
            })
        })
        .count();
    assert!(want >= 1);
    let filter = Filter {
        query: Some(query),
        ..Filter::default()
    };
    assert_eq!(kept(&text, &filter), want);
}
