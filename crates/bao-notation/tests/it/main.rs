//! Integration tests of bao-notation, one module per concern.

/// Non-canonical inputs and their canonical form (`fixtures/format/`), idempotence, and
/// `write(parse(s)) == s` for canonical texts.
mod format;
/// `write_record_over`: a changed record written over its text.
mod keep;
/// The streaming reader, encodings, limits and hostile input.
mod reader;
/// Random records: `parse(write(r)) == r`.
mod roundtrip;
/// `SourceText`: indexed reading of spans for miette, windows in long lines.
mod source;
/// `stream`: chunks parsed on a pool, games' spans in their chunks.
mod stream;
/// One fixture per syntax code, with its rendered diagnostic (`fixtures/invalid/syntax/`).
mod syntax;
/// The visitor: its events rebuild what `parse_record` and `GameReader` give.
mod visit;

use std::path::Path;

/// The fixtures directory at the workspace root.
pub(crate) fn fixtures() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures"))
}
