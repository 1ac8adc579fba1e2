//! Integration tests of the `bao` binary: each runs the built binary on fixtures and
//! snapshots its stdout, stderr and exit code together (`insta`, reviewed with
//! `cargo insta review`).
//!
//! Modules:
//! - `analyse`: `bao analyse`: the planted blunder, the annotated record checks clean;
//! - `browser`: a small WebDriver client for chromedriver and the viewer's browser test;
//! - `check`: `bao check` and `bao annotate`;
//! - `cmd`: running the binary and rendering a run for a snapshot (helpers, no tests);
//! - `export`: `bao export json|svg|png`, invalid records, `--ply` out of range, `-o`;
//! - `html`: `bao export html`: the page, `-o`, invalid records, the browser test;
//! - `hostile`: hostile input through `bao check` (`fixtures/hostile/` and big generated cases);
//! - `import`: `bao import json`, the round trip through `bao export json`;
//! - `nothing_lost`: every command that writes, killed mid-run, leaves old or new files;
//! - `show`: `bao show`;
//! - `replay`: `bao replay` on `fixtures/replay/*.jsonl` and on stdin;
//! - `perft`: `bao perft`;
//! - `usage`: arguments, exit code 2 for usage and I/O errors;
//! - `new`: `bao new` templates, `--force`, bad option values;
//! - `legal`: `bao legal` on records and position strings, text and JSON;
//! - `progress`: progress bars on a terminal (through `script`), none when piped or `--quiet`;
//! - `engine`: `bao engine` sessions, `stop`, a referee game against a random mover;
//! - `solve`: `bao solve` on the puzzles of `fixtures/analysis/`;
//! - `completions`: `bao completions SHELL` and `bao man`;
//! - `readme`: the README's example record and pasted outputs are what `bao` does today;
//! - `record`: `bao record` on a pseudo-terminal (expectrl + vt100 screens) and piped.

mod analyse;
mod browser;
mod check;
mod cmd;
mod completions;
mod engine;
mod export;
mod hostile;
mod html;
mod import;
mod legal;
mod new;
mod nothing_lost;
mod perft;
mod progress;
mod readme;
mod record;
mod replay;
mod show;
mod solve;
mod usage;
