//! Checks of the workspace as a whole, through the `cargo` that runs the tests (offline:
//! every package they read is in the lockfile and already downloaded by the build):
//!
//! - crates carry only what they use: the editor (`bao-lsp`) and the archive tools
//!   (`bao-archive`) build no PNG renderer, the club server (`bao-serve`) no command-line
//!   parser.

use std::path::PathBuf;
use std::process::Command;

/// The workspace's root (this crate is `crates/bao-testkit`).
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `cargo` (the one running the tests), in the workspace's root, with `args`; its stdout.
fn cargo(args: &[&str]) -> String {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .args(args)
        .current_dir(root())
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("cargo writes UTF-8")
}

/// The names of the packages a workspace member builds for its library and binaries
/// (normal dependencies, for this machine), itself included.
fn normal_dependencies(package: &str) -> Vec<String> {
    let tree = cargo(&[
        "tree",
        "--offline",
        "--locked",
        "-p",
        package,
        "-e",
        "normal",
        "--prefix",
        "none",
        "--format",
        "{p}",
    ]);
    tree.lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_owned)
        .collect()
}

#[test]
fn only_the_command_line_builds_the_png_renderer_and_clap() {
    let cli = normal_dependencies("bao-cli");
    // The check reads the tree right: the command line has both.
    assert!(cli.iter().any(|p| p == "resvg"), "{cli:?}");
    assert!(cli.iter().any(|p| p == "clap"), "{cli:?}");
    for (package, unwanted) in [
        ("bao-lsp", "resvg"),
        ("bao-archive", "resvg"),
        ("bao-serve", "clap"),
        ("bao-serve", "resvg"),
        ("bao-session", "clap"),
    ] {
        let deps = normal_dependencies(package);
        assert!(
            deps.iter().any(|p| p == package),
            "{package} is missing from its own tree: {deps:?}"
        );
        assert!(
            !deps.iter().any(|p| p == unwanted),
            "{package} builds {unwanted} again (`cargo tree -p {package} -e normal -i {unwanted}` \
             shows through which crate)"
        );
    }
}
