//! Integration tests of the `bao` binary: each runs the built binary on fixtures and
//! snapshots its stdout, stderr and exit code together (`insta`, reviewed with
//! `cargo insta review`).
//!
//! Modules:
//! - `check`: `bao check` and `bao annotate`;
//! - `cmd`: running the binary and rendering a run for a snapshot (helpers, no tests);
//! - `export`: `bao export json|svg|png`, invalid records, `--ply` out of range, `-o`;
//! - `hostile`: hostile input through `bao check` (`fixtures/hostile/` and big generated cases);
//! - `import`: `bao import json`, the round trip through `bao export json`;
//! - `nothing_lost`: every command that writes, killed mid-run, leaves old or new files;
//! - `show`: `bao show`;
//! - `replay`: `bao replay` on `fixtures/replay/*.jsonl` and on stdin;
//! - `perft`: `bao perft`;
//! - `usage`: arguments, exit code 2 for usage and I/O errors.

mod check;
mod cmd;
mod export;
mod hostile;
mod import;
mod nothing_lost;
mod perft;
mod replay;
mod show;
mod usage;
