//! Integration tests of bao-core. One binary; a module per concern.

/// Every rule heading of spec/rules.md is covered by a test position or a named test.
mod coverage;
/// The fast legality test and traced play against `legal_moves` and `play_unchecked`.
mod fast_paths;
/// The crate's modules import one way (no circle of `crate::` paths).
/// Mancala World Problem 3: a never-ending move under each `endless_move` policy (G11, E3).
mod never_ending;
/// perft from every preset's start against tests/data/perft.txt, and hand counts.
mod perft;
/// Test positions of `tests/data/positions.jsonl` (rules-reference §5.3, Kete K2-K4, one or
/// more per rule of spec/rules.md).
mod positions;
/// Properties: random games keep every invariant, illegal moves get a rule, bad setups every reason.
mod properties;
/// Rule fixes of issue 14 (A.4 readings 6, 7, 11; the end of a game keeps no takasia),
/// each through every way of playing a move.
mod rule_fixes;
/// Position JSON helpers shared by the modules.
mod support;
