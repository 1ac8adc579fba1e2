//! Compiles the committed generated parser of editors/tree-sitter-bao (no generator needed).

use std::path::PathBuf;

fn main() {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../editors/tree-sitter-bao/src");
    println!("cargo:rerun-if-changed={}", src.join("parser.c").display());
    println!(
        "cargo:rerun-if-changed={}",
        src.join("tree_sitter/parser.h").display()
    );
    cc::Build::new()
        .std("c11")
        .include(&src)
        .file(src.join("parser.c"))
        .warnings(false)
        .compile("tree-sitter-bao");
}
