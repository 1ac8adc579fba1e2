//! The Neovim package (editors/neovim) with the tree-sitter grammar: the committed parser
//! compiled as Neovim loads parsers (`parser/bao.so` on 'runtimepath'), a record opened in a
//! headless Neovim, and what Neovim then highlights, read back through the package's query.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn neovim_highlights_a_record_through_the_grammar() {
    let Some(nvim) = ["/usr/bin/nvim", "/usr/local/bin/nvim"]
        .into_iter()
        .map(Path::new)
        .find(|p| p.exists())
    else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI is set but nvim is missing: install the Debian package neovim (.ci/run does)"
        );
        eprintln!("skipped: the Neovim test needs nvim (apt-get install neovim)");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    // The parser as nvim-treesitter's `:TSInstall bao` builds it.
    let grammar = root().join("editors/tree-sitter-bao/src");
    std::fs::create_dir(dir.path().join("parser")).unwrap();
    let so = dir.path().join("parser/bao.so");
    let cc = std::env::var_os("CC").unwrap_or_else(|| "cc".into());
    let status = Command::new(cc)
        .args(["-shared", "-fPIC", "-O1", "-std=c11", "-I"])
        .arg(&grammar)
        .arg(grammar.join("parser.c"))
        .arg("-o")
        .arg(&so)
        .status()
        .expect("a C compiler (cc) runs");
    assert!(status.success());
    let record = dir.path().join("game.bao");
    std::fs::write(
        &record,
        "[Event \"x\"]\n\n1. A6L* a6R 2. a5l $14 (2. A7>* a7<*) {ok} A8+ [xa5:3] 1-0\n",
    )
    .unwrap();
    let out = dir.path().join("out.txt");
    let status = Command::new(nvim)
        .args(["--headless", "--clean", "-n", "-i", "NONE", "-c"])
        .arg(format!(
            "luafile {}",
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/nvim_treesitter.lua")
                .display()
        ))
        .env("BAO_NVIM", root().join("editors/neovim"))
        .env("BAO_PARSER", dir.path())
        .env("BAO_FILE", &record)
        .env("BAO_OUT", &out)
        .env("HOME", dir.path())
        .env("XDG_STATE_HOME", dir.path())
        .env("XDG_DATA_HOME", dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let got = std::fs::read_to_string(&out).unwrap();
    let lines: Vec<&str> = got.lines().collect();
    // Tree-sitter took over from the syntax file.
    assert_eq!(
        lines[..3],
        ["highlighter=true", "syntax=", "error=false"],
        "{got}"
    );
    let captures = &lines[3..lines.len() - 1];
    assert_eq!(
        captures,
        [
            "[=punctuation.bracket",
            "Event=tag",
            "\"x\"=string",
            "]=punctuation.bracket",
            "1.=number",
            "A6L*=constant",
            "a6R=constant",
            "2.=number",
            "a5l=constant",
            "$14=attribute",
            "(=punctuation.bracket",
            "2.=number",
            "A7>*=constant",
            "a7<*=constant",
            ")=punctuation.bracket",
            "{ok}=comment",
            "A8+=constant",
            "[xa5:3]=string.special",
            "1-0=keyword",
        ],
        "{got}"
    );
    // The game, the variation and the comment fold.
    assert_eq!(lines[lines.len() - 1], "folds=3", "{got}");
}
