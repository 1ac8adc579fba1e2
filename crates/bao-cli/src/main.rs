//! The `bao` command.
fn main() {}
