//! Integration tests of bao-archive.

mod ap;
mod archive;

/// The repository's root (fixtures are read from there).
fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}
