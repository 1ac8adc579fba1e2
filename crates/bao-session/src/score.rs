//! The score of a best-of-three match, from the games of the record.

use bao_core::Side;
use bao_notation::meaning::MatchKey;
use bao_notation::Game;

use crate::reply::MatchScore;

/// The score of the match `key` (its `Event`, `Site` and `Match`) over `games`: the wins of
/// each player (listed as they sat in the match's first game), and its winner once a player
/// has two.
pub(crate) fn score<'a>(key: &MatchKey, games: impl Iterator<Item = &'a Game>) -> MatchScore {
    let games: Vec<&Game> = games
        .filter(|g| MatchKey::of(g).as_ref() == Some(key))
        .collect();
    let mut score: Vec<(String, u32)> = Vec::new();
    for side in ["South", "North"] {
        if let Some(t) = games.first().and_then(|g| g.tag(side)) {
            score.push((t.value.clone(), 0));
        }
    }
    for g in &games {
        let winner = g
            .result
            .as_ref()
            .and_then(|r| r.value.winner())
            .and_then(|s| {
                g.tag(match s {
                    Side::South => "South",
                    Side::North => "North",
                })
            })
            .map(|t| t.value.clone());
        if let Some(w) = winner {
            match score.iter_mut().find(|(p, _)| *p == w) {
                Some(e) => e.1 += 1,
                None => score.push((w, 1)),
            }
        }
    }
    let winner = score.iter().find(|(_, n)| *n >= 2).map(|(p, _)| p.clone());
    MatchScore {
        played: games.len(),
        score,
        winner,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_wins_decide_a_match_whatever_the_seats() {
        let record: bao_notation::Record = "[South \"A\"]\n[North \"B\"]\n[Match \"M\"]\n\n1-0\n\n\
             [South \"B\"]\n[North \"A\"]\n[Match \"M\"]\n\n0-1\n\n\
             [South \"C\"]\n[North \"D\"]\n[Match \"other\"]\n\n1-0\n"
            .parse()
            .unwrap();
        let key = MatchKey::of(&record.games[0].value).unwrap();
        let s = score(&key, record.games.iter().map(|g| &g.value));
        assert_eq!(s.played, 2);
        assert_eq!(s.score, [("A".to_owned(), 2), ("B".to_owned(), 0)]);
        assert_eq!(s.winner.as_deref(), Some("A"));
    }

    #[test]
    fn a_match_of_another_event_with_the_same_name_is_another_match() {
        let record: bao_notation::Record =
            "[Event \"Cup\"]\n[South \"A\"]\n[North \"B\"]\n[Match \"M\"]\n\n1-0\n\n\
             [Event \"League\"]\n[South \"A\"]\n[North \"B\"]\n[Match \"M\"]\n\n1-0\n"
                .parse()
                .unwrap();
        let key = MatchKey::of(&record.games[0].value).unwrap();
        let s = score(&key, record.games.iter().map(|g| &g.value));
        assert_eq!(s.played, 1);
        assert_eq!(s.winner, None);
    }
}
