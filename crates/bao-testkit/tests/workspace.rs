//! Checks of the workspace as a whole, through the `cargo` that runs the tests (offline:
//! every package they read is in the lockfile and already downloaded by the build):
//!
//! - crates carry only what they use: the editor (`bao-lsp`) and the archive tools
//!   (`bao-archive`) build no PNG renderer, the club server (`bao-serve`) no command-line
//!   parser;
//! - `rust-version` of the workspace is what the lockfile really needs.

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

/// A `rust-version` (`1.88`, `1.88.0`) as numbers to compare.
fn version(v: &str) -> Vec<u64> {
    let mut parts: Vec<u64> = v
        .split('.')
        .map(|p| p.parse().unwrap_or_else(|_| panic!("a version: {v}")))
        .collect();
    while parts.len() < 3 {
        parts.push(0);
    }
    parts
}

/// The workspace's `rust-version` is the highest `rust-version` of the packages the
/// lockfile resolves for this machine (dependencies, build and dev-dependencies: CI builds
/// the tests and benches too), so it is neither a promise the lockfile breaks nor older
/// than it must be.
#[test]
fn rust_version_is_what_the_lockfile_needs() {
    let host = cargo(&["-vV"])
        .lines()
        .find_map(|l| l.strip_prefix("host: "))
        .expect("cargo -vV names the host")
        .to_owned();
    let metadata: serde_json::Value = serde_json::from_str(&cargo(&[
        "metadata",
        "--format-version",
        "1",
        "--offline",
        "--locked",
        "--filter-platform",
        &host,
    ]))
    .expect("cargo metadata is JSON");
    let members: Vec<&str> = metadata["workspace_members"]
        .as_array()
        .expect("workspace members")
        .iter()
        .filter_map(|m| m.as_str())
        .collect();
    let resolved: Vec<&str> = metadata["resolve"]["nodes"]
        .as_array()
        .expect("a resolved graph")
        .iter()
        .filter_map(|n| n["id"].as_str())
        .collect();
    let packages = metadata["packages"].as_array().expect("packages");
    let mut declared = Vec::new();
    let mut needed: Option<(Vec<u64>, String)> = None;
    for p in packages {
        let id = p["id"].as_str().expect("a package id");
        let Some(rust) = p["rust_version"].as_str() else {
            continue;
        };
        if members.contains(&id) {
            declared.push((p["name"].as_str().unwrap_or(id).to_owned(), rust.to_owned()));
        } else if resolved.contains(&id) {
            let v = version(rust);
            if needed.as_ref().is_none_or(|(n, _)| v > *n) {
                let who = format!(
                    "{} {} ({rust})",
                    p["name"].as_str().unwrap_or(id),
                    p["version"].as_str().unwrap_or("?")
                );
                needed = Some((v, who));
            }
        }
    }
    let (needed, who) = needed.expect("some dependency declares a rust-version");
    assert!(!declared.is_empty(), "the members declare a rust-version");
    for (name, rust) in &declared {
        assert_eq!(
            version(rust),
            needed,
            "{name} declares rust-version {rust}, the lockfile needs {who}: set \
             [workspace.package] rust-version (and the README) to it"
        );
    }
    // clippy's msrv and the README say the same.
    let clippy = std::fs::read_to_string(root().join("clippy.toml")).expect("clippy.toml");
    let msrv = clippy
        .lines()
        .find_map(|l| l.strip_prefix("msrv = "))
        .expect("clippy.toml sets msrv")
        .trim_matches('"');
    assert_eq!(
        version(msrv),
        needed,
        "clippy.toml's msrv {msrv}, the lockfile needs {who}"
    );
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let minor = format!("Rust 1.{} or newer", needed[1]);
    assert!(readme.contains(&minor), "README.md should say {minor:?}");
}
