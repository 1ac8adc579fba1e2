//! What an archive holds: results, endings, lengths, players with a rating, and the opening
//! tree (`bao stats`).
//!
//! Each game is reduced to its [`GameFacts`] (on any thread), and the facts are added to
//! [`Stats`] in file order; nothing of a game is kept but its facts' share of the totals, the
//! pairings of its players and its first moves in the tree.
//!
//! The rating is Bradley-Terry's: each player has a strength `p`, and `p_i / (p_i + p_j)` is
//! the chance that `i` beats `j`; the strengths that make the archive's results most likely
//! are found by Hunter's MM iteration, a draw counting half a win to each side. Every player
//! is also given one virtual draw against a player of average strength, so that a player who
//! never lost (or never won) gets a finite rating. The strengths are shown on the Elo scale
//! (`400·log10 p`), shifted so that the average player is at 1500. Unlike Elo's update, the
//! rating does not depend on the order of the games.

use std::collections::{BTreeMap, HashMap};

use bao_core::{Move, Side};
use bao_notation::meaning::RulesKey;
use bao_notation::GameResult;
use serde::Serialize;

use crate::game::ArchiveGame;

/// How a game's end is named when the rules did not end it and no `Termination` says why.
pub const UNFINISHED: &str = "unfinished";

/// What the statistics need of one game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameFacts {
    /// The `South` tag.
    pub south: Option<String>,
    /// The `North` tag.
    pub north: Option<String>,
    /// The result.
    pub result: GameResult,
    /// How it ended: the rule ending its replay reached (`no_legal_move`), else its
    /// `Termination` tag (lower case, `_` for spaces), else [`UNFINISHED`].
    pub ending: String,
    /// The moves written in its main line.
    pub plies: usize,
    /// Its first moves (at most the tree's depth), as they replayed.
    pub opening: Vec<Move>,
    /// Which opening tree its moves belong to: the rules' canonical key (`kiswahili`,
    /// `kiswahili endless_move=draw`: [`RulesKey`]), with
    /// `from <position string>` for a start of its own; `None` when its rules or start are
    /// not valid.
    pub start: Option<String>,
    /// Who moves first.
    pub first: Side,
    /// The start position (with `start`), from which the opening tree's positions are
    /// played.
    pub start_position: Option<bao_core::Position>,
    /// The game as the HTML page shows it (its name in lists, its record, the position its
    /// main line reached; set by the caller), for the opening tree's nodes to list and link
    /// their games.
    pub shown: Option<Box<ShownGame>>,
}

/// A game as the statistics page shows it: named in the opening tree's lists, and whole in
/// its own section (its record as written and the board where its main line ended).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShownGame {
    /// How the game is named in a list of games: its file and number, players, date and
    /// result (`club.bao, game 3: Ali–Juma, 2024.05.01, 1-0`).
    pub label: String,
    /// Its record as written.
    pub record: String,
    /// The position its main line reached, when its rules and start are valid.
    pub last: Option<bao_core::Position>,
}

impl GameFacts {
    /// The facts of a replayed game, with its first `depth` moves.
    #[must_use]
    pub fn of(g: &ArchiveGame<'_>, depth: usize) -> Self {
        let ending = match g
            .replayed
            .as_ref()
            .and_then(bao_replay::ReplayedGame::final_outcome)
        {
            Some(Some(o)) => o.reason.name().to_owned(),
            _ => g.tag("Termination").map_or_else(
                || UNFINISHED.to_owned(),
                |t| t.trim().to_ascii_lowercase().replace([' ', '-'], "_"),
            ),
        };
        Self {
            south: g.tag("South").map(str::to_owned),
            north: g.tag("North").map(str::to_owned),
            result: g.result(),
            ending,
            plies: g.written_plies(),
            opening: g.moves().take(depth).collect(),
            start: g.replayed.as_ref().and_then(|r| r.opening()).map(|o| {
                // One label for one rule set, however its tags spell it.
                let name = RulesKey(o.rules).to_string();
                if o.start == bao_core::Position::start(o.rules) {
                    name
                } else {
                    format!(
                        "{name} from {}",
                        bao_notation::PositionString::from(&o.start)
                    )
                }
            }),
            first: g
                .replayed
                .as_ref()
                .and_then(|r| r.opening())
                .map_or(Side::South, |o| o.start.to_move()),
            start_position: g
                .replayed
                .as_ref()
                .and_then(|r| r.opening())
                .map(|o| o.start),
            shown: None,
        }
    }
}

/// Wins of each side and draws (games without a result are not counted).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    /// Games counted.
    pub games: u64,
    /// South won.
    pub south_wins: u64,
    /// North won.
    pub north_wins: u64,
    /// Drawn.
    pub draws: u64,
}

impl Tally {
    fn add(&mut self, r: GameResult) {
        self.games += 1;
        match r {
            GameResult::SouthWins => self.south_wins += 1,
            GameResult::NorthWins => self.north_wins += 1,
            GameResult::Draw => self.draws += 1,
            GameResult::Unknown => {}
        }
    }

    /// Games with a result.
    #[must_use]
    pub fn decided(&self) -> u64 {
        self.south_wins + self.north_wins + self.draws
    }

    /// The score of `side` (a win 1, a draw ½) over the games with a result; `None` if there
    /// are none.
    #[must_use]
    pub fn score(&self, side: Side) -> Option<f64> {
        let wins = match side {
            Side::South => self.south_wins,
            Side::North => self.north_wins,
        };
        let decided = self.decided();
        (decided > 0).then(|| (wins as f64 + self.draws as f64 / 2.0) / decided as f64)
    }
}

/// A node of the opening tree: the games that began with a sequence of moves.
#[derive(Debug, Clone, Default)]
struct Node {
    tally: Tally,
    children: Vec<(Move, Self)>,
    /// The first [`GAMES_LISTED`] games that reached it, as indices into the games the statistics show
    /// (kept only when the statistics list games: [`Stats::listing_games`]).
    games: Vec<usize>,
}

/// The most games a node of the opening tree lists.
pub const GAMES_LISTED: usize = 5;

/// The most games the statistics keep whole ([`Stats::listing_games`]): a node's games are
/// listed while they last, in the order the games are read.
pub const GAMES_SHOWN: usize = 400;

/// One player's line.
#[derive(Debug, Clone, Default)]
struct PlayerLine {
    games: u64,
    wins: u64,
    draws: u64,
    losses: u64,
}

/// The totals of an archive, added to game by game.
#[derive(Debug, Clone)]
pub struct Stats {
    depth: usize,
    bucket: usize,
    results: Tally,
    plies: u64,
    endings: BTreeMap<String, u64>,
    lengths: BTreeMap<usize, u64>,
    players: BTreeMap<String, PlayerLine>,
    /// Half-points scored by the first of each pair of player indices against the second.
    pairs: HashMap<(usize, usize), (u64, u64)>,
    index: HashMap<String, usize>,
    /// One tree per start (see [`GameFacts::start`]), with its first mover.
    trees: BTreeMap<String, (Side, Option<bao_core::Position>, Node)>,
    /// Whether the tree's nodes keep their first games.
    list_games: bool,
    /// The games the tree's nodes list, in the order read (at most [`GAMES_SHOWN`]).
    shown: Vec<ShownGame>,
}

impl Stats {
    /// Empty totals, with an opening tree of `depth` plies and a length histogram of bins of
    /// `bucket` plies.
    #[must_use]
    pub fn new(depth: usize, bucket: usize) -> Self {
        Self {
            depth,
            bucket: bucket.max(1),
            results: Tally::default(),
            plies: 0,
            endings: BTreeMap::new(),
            lengths: BTreeMap::new(),
            players: BTreeMap::new(),
            pairs: HashMap::new(),
            index: HashMap::new(),
            trees: BTreeMap::new(),
            list_games: false,
            shown: Vec::new(),
        }
    }

    /// The opening tree's nodes keep the first [`GAMES_LISTED`] games that reached them
    /// ([`GameFacts::shown`]), while [`GAMES_SHOWN`] games last, so that the HTML page lists
    /// and shows them (off by default, which keeps the statistics' memory independent of
    /// the games' names).
    #[must_use]
    pub fn listing_games(mut self) -> Self {
        self.list_games = true;
        self
    }

    /// The tree's depth.
    #[must_use]
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// Adds a game.
    pub fn add(&mut self, f: &GameFacts) {
        self.results.add(f.result);
        self.plies += f.plies as u64;
        *self.endings.entry(f.ending.clone()).or_default() += 1;
        *self.lengths.entry(f.plies / self.bucket).or_default() += 1;
        let (s_pts, n_pts) = match f.result {
            GameResult::SouthWins => (Some(2), Some(0)),
            GameResult::NorthWins => (Some(0), Some(2)),
            GameResult::Draw => (Some(1), Some(1)),
            GameResult::Unknown => (None, None),
        };
        for (name, pts) in [(&f.south, s_pts), (&f.north, n_pts)] {
            if let Some(name) = name {
                let line = self.players.entry(name.clone()).or_default();
                line.games += 1;
                match pts {
                    Some(2) => line.wins += 1,
                    Some(1) => line.draws += 1,
                    Some(_) => line.losses += 1,
                    None => {}
                }
            }
        }
        if let (Some(s), Some(n), Some(sp), Some(np)) = (&f.south, &f.north, s_pts, n_pts) {
            if s != n {
                let si = self.player_index(s);
                let ni = self.player_index(n);
                let (key, a, b) = if si < ni {
                    ((si, ni), sp, np)
                } else {
                    ((ni, si), np, sp)
                };
                let e = self.pairs.entry(key).or_default();
                e.0 += a;
                e.1 += b;
            }
        }
        let Some(start) = &f.start else {
            return;
        };
        let mut node = &mut self
            .trees
            .entry(start.clone())
            .or_insert_with(|| (f.first, f.start_position, Node::default()))
            .2;
        node.tally.add(f.result);
        let shown = f.shown.as_deref().filter(|_| self.list_games);
        // The game's index among the games shown, once a node lists it.
        let mut index = None;
        for mv in f.opening.iter().take(self.depth) {
            let i = match node.children.iter().position(|(m, _)| m == mv) {
                Some(i) => i,
                None => {
                    node.children.push((*mv, Node::default()));
                    node.children.len() - 1
                }
            };
            node = &mut node.children[i].1;
            node.tally.add(f.result);
            if let Some(g) = shown.filter(|_| node.games.len() < GAMES_LISTED) {
                let i = match index {
                    Some(i) => Some(i),
                    None if self.shown.len() < GAMES_SHOWN => {
                        self.shown.push(g.clone());
                        Some(self.shown.len() - 1)
                    }
                    None => None,
                };
                index = i;
                if let Some(i) = i {
                    node.games.push(i);
                }
            }
        }
    }

    fn player_index(&mut self, name: &str) -> usize {
        let n = self.index.len();
        *self.index.entry(name.to_owned()).or_insert(n)
    }

    /// Bradley-Terry ratings on the Elo scale, by player index (see the module's text).
    fn ratings(&self) -> Vec<f64> {
        let n = self.index.len();
        if n == 0 {
            return Vec::new();
        }
        // Half-points won, and games, per player and per pair.
        let mut won = vec![1.0_f64; n]; // the virtual draw: half a win, in half-points 1
        let mut opponents: Vec<Vec<(usize, f64)>> = vec![Vec::new(); n];
        for (&(i, j), &(a, b)) in &self.pairs {
            won[i] += a as f64;
            won[j] += b as f64;
            let games = (a + b) as f64 / 2.0;
            opponents[i].push((j, games));
            opponents[j].push((i, games));
        }
        let won: Vec<f64> = won.iter().map(|w| w / 2.0).collect();
        let mut p = vec![1.0_f64; n];
        for _ in 0..500 {
            let mut next = vec![0.0; n];
            for i in 0..n {
                // The virtual opponent has strength 1.
                let mut denom = 1.0 / (p[i] + 1.0);
                for &(j, games) in &opponents[i] {
                    denom += games / (p[i] + p[j]);
                }
                next[i] = won[i] / denom;
            }
            // Keep the geometric mean at 1 (the virtual opponent's strength).
            let mean = (next.iter().map(|x| x.ln()).sum::<f64>() / n as f64).exp();
            let mut change: f64 = 0.0;
            for i in 0..n {
                let v = next[i] / mean;
                change = change.max((v.ln() - p[i].ln()).abs());
                p[i] = v;
            }
            if change < 1e-9 {
                break;
            }
        }
        p.iter().map(|x| 1500.0 + 400.0 * x.log10()).collect()
    }

    /// The report of the totals.
    #[must_use]
    pub fn report(&self) -> StatsReport {
        let ratings = self.ratings();
        let mut players: Vec<PlayerReport> = self
            .players
            .iter()
            .map(|(name, l)| {
                let decided = (l.wins + l.draws + l.losses) as f64;
                let points = l.wins as f64 + l.draws as f64 / 2.0;
                PlayerReport {
                    name: name.clone(),
                    games: l.games,
                    wins: l.wins,
                    draws: l.draws,
                    losses: l.losses,
                    points,
                    score: (decided > 0.0).then(|| points / decided),
                    rating: self
                        .index
                        .get(name)
                        .and_then(|&i| ratings.get(i))
                        .map(|r| r.round()),
                }
            })
            .collect();
        players.sort_by(|a, b| {
            b.rating
                .unwrap_or(f64::MIN)
                .total_cmp(&a.rating.unwrap_or(f64::MIN))
                .then(b.games.cmp(&a.games))
                .then(a.name.cmp(&b.name))
        });
        let mut endings: Vec<EndingReport> = self
            .endings
            .iter()
            .map(|(reason, &games)| EndingReport {
                reason: reason.clone(),
                games,
            })
            .collect();
        endings.sort_by(|a, b| b.games.cmp(&a.games).then(a.reason.cmp(&b.reason)));
        StatsReport {
            games: self.results.games,
            plies: self.plies,
            results: self.results,
            south_share: self.results.score(Side::South),
            endings,
            // Every bin from the first to the last, empty ones included (a linear axis).
            lengths: match (self.lengths.keys().next(), self.lengths.keys().next_back()) {
                (Some(&lo), Some(&hi)) => (lo..=hi)
                    .map(|b| LengthBin {
                        from: b * self.bucket,
                        to: b * self.bucket + self.bucket - 1,
                        games: self.lengths.get(&b).copied().unwrap_or(0),
                    })
                    .collect(),
                _ => Vec::new(),
            },
            players,
            rating: "Bradley-Terry (MM iteration, one virtual draw per player against an \
                     average player), on the Elo scale with the average player at 1500"
                .to_owned(),
            tree_depth: self.depth,
            trees: {
                let mut trees: Vec<OpeningTree> = self
                    .trees
                    .iter()
                    .map(|(start, (first, at, node))| OpeningTree {
                        start: start.clone(),
                        games: node.tally.games,
                        moves: tree_report(node, *first, at.as_ref()),
                    })
                    .collect();
                trees.sort_by(|a, b| b.games.cmp(&a.games).then(a.start.cmp(&b.start)));
                trees
            },
            shown: self.shown.clone(),
        }
    }
}

/// The tree's moves below `node`, played from `at` (the position before them, when known).
fn tree_report(node: &Node, mover: Side, at: Option<&bao_core::Position>) -> Vec<TreeMove> {
    let mut out: Vec<TreeMove> = node
        .children
        .iter()
        .map(|(mv, child)| {
            // The games replayed these moves: they are legal here.
            let after = at.and_then(|p| p.play(mv).ok()).map(|(next, _)| next);
            TreeMove {
                mv: mv.to_string(),
                mover: mover.name().to_owned(),
                games: child.tally.games,
                south_wins: child.tally.south_wins,
                north_wins: child.tally.north_wins,
                draws: child.tally.draws,
                score: child.tally.score(mover),
                replies: tree_report(child, mover.opponent(), after.as_ref()),
                after,
                listed: child.games.clone(),
            }
        })
        .collect();
    out.sort_by(|a, b| {
        b.games
            .cmp(&a.games)
            .then(b.score.unwrap_or(-1.0).total_cmp(&a.score.unwrap_or(-1.0)))
            .then(a.mv.cmp(&b.mv))
    });
    out
}

/// The statistics of an archive (`bao stats --format json`).
#[derive(Debug, Clone, Serialize)]
pub struct StatsReport {
    /// Games.
    pub games: u64,
    /// Moves written in their main lines.
    pub plies: u64,
    /// Results.
    pub results: Tally,
    /// South's score over the games with a result.
    pub south_share: Option<f64>,
    /// How the games ended, most frequent first.
    pub endings: Vec<EndingReport>,
    /// Game lengths in plies.
    pub lengths: Vec<LengthBin>,
    /// Players, best rated first.
    pub players: Vec<PlayerReport>,
    /// What the rating is.
    pub rating: String,
    /// The opening tree's depth in plies.
    pub tree_depth: usize,
    /// The opening trees, one per rule set and start (games of other starts do not share
    /// moves), most games first.
    pub trees: Vec<OpeningTree>,
    /// The games the opening tree lists ([`TreeMove::listed`] indexes them), in the order
    /// read (the HTML page shows them; not in the JSON).
    #[serde(skip)]
    pub shown: Vec<ShownGame>,
}

/// The opening tree of the games from one start.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OpeningTree {
    /// The rules' canonical key (`kiswahili`, `kiswahili endless_move=draw`), with `from
    /// <position string>` for a start of its own.
    pub start: String,
    /// The games from this start.
    pub games: u64,
    /// The first moves, most played first, each with its replies.
    pub moves: Vec<TreeMove>,
}

/// One way games ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EndingReport {
    /// The ending (a rule ending, a `Termination`, or `unfinished`).
    pub reason: String,
    /// Games.
    pub games: u64,
}

/// One bin of the length histogram.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LengthBin {
    /// The least plies in the bin.
    pub from: usize,
    /// The most plies in the bin.
    pub to: usize,
    /// Games.
    pub games: u64,
}

/// One player's line.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlayerReport {
    /// The name (`South`/`North` tag).
    pub name: String,
    /// Games played.
    pub games: u64,
    /// Won.
    pub wins: u64,
    /// Drawn.
    pub draws: u64,
    /// Lost.
    pub losses: u64,
    /// Points: a win 1, a draw ½.
    pub points: f64,
    /// Points per game with a result.
    pub score: Option<f64>,
    /// The rating (see [`StatsReport::rating`]); `None` without a game against another named
    /// player with a result.
    pub rating: Option<f64>,
}

/// A move of the opening tree.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TreeMove {
    /// The move.
    #[serde(rename = "move")]
    pub mv: String,
    /// Who plays it (`South`, `North`).
    pub mover: String,
    /// Games that reached it.
    pub games: u64,
    /// Of them, South won.
    pub south_wins: u64,
    /// North won.
    pub north_wins: u64,
    /// Drawn.
    pub draws: u64,
    /// The mover's score in those games (with a result).
    pub score: Option<f64>,
    /// The replies, most played first.
    pub replies: Vec<Self>,
    /// The position after the move (the HTML page draws it; not in the JSON, whose
    /// readers replay the moves).
    #[serde(skip)]
    pub after: Option<bao_core::Position>,
    /// The first games that reached it, as indices into [`StatsReport::shown`]
    /// ([`Stats::listing_games`]; not in the JSON).
    #[serde(skip)]
    pub listed: Vec<usize>,
}
