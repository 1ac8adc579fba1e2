//! TEMPORARY stand-in for the rules engine being written on `main`, with its announced API,
//! so that the `cli` branch builds until it merges `main`. Every method says "no engine".
//! Deleted by the merge of `main`.
#![allow(missing_docs, clippy::unused_self)]

use std::fmt;

use crate::position::{Outcome, Position};
use crate::types::{Move, MoveSpec};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NeverEnding {
    pub cycle_start_lap: u64,
    pub period: u64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IllegalMove {
    pub mv: String,
    pub rule: &'static str,
    pub message: String,
    pub never_ending: Option<NeverEnding>,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} ({})", self.mv, self.message, self.rule)
    }
}

impl std::error::Error for IllegalMove {}

#[derive(Debug, Clone, Default)]
pub struct MoveTrace;

fn no_engine(mv: String) -> IllegalMove {
    IllegalMove {
        mv,
        rule: "G0",
        message: "the rules engine is not merged yet".to_owned(),
        never_ending: None,
    }
}

impl Position {
    #[must_use]
    pub fn legal_moves(&self) -> Vec<Move> {
        Vec::new()
    }

    pub fn play(&self, mv: &Move) -> Result<(Position, MoveTrace), IllegalMove> {
        Err(no_engine(mv.to_string()))
    }

    pub fn resolve(&self, spec: &MoveSpec) -> Result<Move, IllegalMove> {
        Err(no_engine(spec.to_string()))
    }

    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        None
    }
}

#[must_use]
pub fn perft(_pos: &Position, _depth: u32) -> u64 {
    0
}
