//! Rule sentences and labels in the variant's own words (K1: Kete says kuu, nemo, hizi zetu,
//! takata).

use bao_core::{Move, MoveTrace, Names, RuleSet, Side};

use crate::codes::Code;

/// The rule behind a code, in one sentence.
pub(crate) fn rule_sentence(code: Code, rules: &RuleSet, mover: Side) -> String {
    let Names {
        namua,
        mtaji,
        nyumba,
        takasia,
        takasa,
    } = rules.names();
    match code {
        Code::CaptureMandatory => {
            format!("Captures are compulsory: a {takasa} is legal only when no capture is.")
        }
        Code::EmptyPit => format!(
            "A move starts from an own pit holding seeds: in {namua} an occupied front pit, in {mtaji} a pit of 2 seeds or more."
        ),
        Code::Singleton => format!(
            "A {mtaji} move starts by lifting a pit of 2 seeds or more; a single seed never starts a move."
        ),
        Code::NotOwnPit => format!(
            "The players alternate and each sows only his own pits; {mover} is to move here."
        ),
        Code::WrongRow => format!(
            "In {namua} the seed from the hand goes into an occupied pit of the mover's front row."
        ),
        Code::NamuaPlacement => format!(
            "In a {namua} {takasa} the seed goes into a front pit of 2 or more while one exists; with a functional {nyumba}, into any occupied front pit except the {nyumba}."
        ),
        Code::NotACapture => format!(
            "A move captures only when its first lap ends in an own occupied front pit facing seeds; any other move is a {takasa}, written with `*`."
        ),
        Code::Takasia => format!(
            "A pit made {takasia} may not start a move on its owner's next turn."
        ),
        Code::SixteenSeeds => format!(
            "A first lap of {} seeds or more never captures; such a pit can only start a {takasa}.",
            rules.capture_threshold
        ),
        Code::FrontRowGuard => format!(
            "A {takasa} may never leave the mover's front row empty, not even for a moment."
        ),
        Code::FirstTakataFromKuu => format!(
            "While the {nyumba} stands, a {mtaji} {takasa} must start from the {nyumba}."
        ),
        Code::CapturePriority => format!(
            "The player who made a pit {takasia} must capture it on his next move when a capture can."
        ),
        Code::KichwaNotChoosable => format!(
            "Seeds captured from a kimbi enter at the kichwa on that side; only the first capture of a {namua} move from a central pit lets the player choose."
        ),
        Code::AmbiguousMove => {
            "The sign may be left out only when a single direction is legal.".to_owned()
        }
        Code::SafariWithoutHouse => format!(
            "`+` (safari) is written only on a {namua} capture whose lap stops in the functional {nyumba} and goes on through it."
        ),
        Code::BackRowTakasa => format!(
            "A {mtaji} {takasa} may start from the back row only when no front pit holds 2 seeds or more."
        ),
        Code::NeverEnding => "A move that never ends may not be played.".to_owned(),
        Code::GameOver | Code::GameContinuesAfterEnd => {
            "Once the game is over, no move may be played.".to_owned()
        }
        Code::NotLegal => "Only the legal moves of the position may be played.".to_owned(),
        Code::LapMismatch => {
            "When an annotation lists lap ends, they must be exactly the move's lap ends.".to_owned()
        }
        Code::CaptureMismatch => {
            "When an annotation lists captures, they must be exactly the move's captures.".to_owned()
        }
        Code::FalseTakasiaClaim => format!(
            "`**` marks a {mtaji} {takasa} after which the opponent has a {takasia} pit."
        ),
        Code::FalseWinClaim => "`#` marks a move that wins the game.".to_owned(),
        _ => String::new(),
    }
}

/// A short label for the primary span.
pub(crate) fn primary_label(code: Code, rules: &RuleSet) -> String {
    let n = rules.names();
    match code {
        Code::CaptureMandatory => format!("a {} while a capture is possible", n.takasa),
        Code::EmptyPit => "this pit is empty".to_owned(),
        Code::Singleton => "this pit holds a single seed".to_owned(),
        Code::NotOwnPit => "not the mover's pit".to_owned(),
        Code::WrongRow => format!("a back-row pit in {}", n.namua),
        Code::NamuaPlacement => format!("the seed may not go here in this {}", n.takasa),
        Code::NotACapture => "this move does not capture".to_owned(),
        Code::Takasia => format!("this pit is {}", n.takasia),
        Code::SixteenSeeds => "too many seeds to capture".to_owned(),
        Code::FrontRowGuard => "this empties the mover's front row".to_owned(),
        Code::FirstTakataFromKuu => format!("not from the {}", n.nyumba),
        Code::CapturePriority => format!("does not capture the {} pit", n.takasia),
        Code::KichwaNotChoosable => "the captured seeds enter at the other kichwa".to_owned(),
        Code::AmbiguousMove => "both directions are legal".to_owned(),
        Code::SafariWithoutHouse => format!("never stops in the functional {}", n.nyumba),
        Code::BackRowTakasa => "a back-row pit while a front pit can move".to_owned(),
        Code::NeverEnding => "this move never ends".to_owned(),
        Code::GameOver => "the game is already over".to_owned(),
        _ => "illegal here".to_owned(),
    }
}

/// What a move does, in a few words: `captures a5 and a4`, `captures nothing`.
pub(crate) fn effect(mv: &Move, trace: &MoveTrace) -> String {
    let _ = mv;
    let mut s = if trace.captures.is_empty() {
        "captures nothing".to_owned()
    } else {
        let pits: Vec<String> = trace.captures.iter().map(|c| c.pit.to_string()).collect();
        format!("captures {}", join_and(&pits))
    };
    if let Some(o) = trace.outcome {
        if o.winner == Some(trace.mover) {
            s.push_str(" and wins");
        }
    }
    s
}

/// `a`, `a and b`, `a, b and c`.
pub(crate) fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// A list of moves separated by spaces.
pub(crate) fn move_list(moves: &[Move]) -> String {
    moves
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}
