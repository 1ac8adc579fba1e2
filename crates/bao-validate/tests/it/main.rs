//! Integration tests of bao-validate, one module per concern.

use std::path::Path;

/// The fixtures directory at the workspace root.
pub(crate) fn fixtures() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures"))
}

#[test]
fn fixtures_dir_exists() {
    assert!(fixtures().join("oracle").is_dir());
}
