//! `bao completions SHELL` and `bao man`.

use crate::cmd::{output, run};

/// The commands every completion script and the main manual page must name.
const COMMANDS: [&str; 16] = [
    "check",
    "annotate",
    "replay",
    "export",
    "import",
    "filter",
    "dedupe",
    "split",
    "stats",
    "show",
    "perft",
    "fmt",
    "new",
    "legal",
    "completions",
    "man",
];

#[test]
fn completion_scripts_name_every_command() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = output(&["completions", shell], "");
        assert_eq!(out.status.code(), Some(0), "{shell}");
        assert!(out.stderr.is_empty(), "{shell}");
        let script = String::from_utf8(out.stdout).unwrap();
        for command in COMMANDS {
            assert!(script.contains(command), "{shell}: no `{command}`");
        }
        // Options of subcommands are there too (fish writes them `-l ply`).
        for word in ["ply", "position", "format", "force"] {
            assert!(script.contains(word), "{shell}: no `{word}`");
        }
    }
    let bash = String::from_utf8(output(&["completions", "bash"], "").stdout).unwrap();
    assert!(bash.contains("complete -F _bao"), "{bash}");
    let zsh = String::from_utf8(output(&["completions", "zsh"], "").stdout).unwrap();
    assert!(zsh.starts_with("#compdef bao"), "{zsh}");
}

#[test]
fn an_unknown_shell_exits_2() {
    insta::assert_snapshot!(run(&["completions", "tcsh"], ""));
}

/// Checks the shape of a roff manual page: only requests the man macros know, a title
/// first, then NAME and SYNOPSIS; gives the text of the NAME section.
fn check_roff(page: &str, title: &str) -> String {
    const REQUESTS: [&str; 15] = [
        ".ie", ".el", ".TH", ".SH", ".SS", ".TP", ".IP", ".PP", ".RS", ".RE", ".br", ".B", ".I",
        ".nf", ".fi",
    ];
    let mut sections = Vec::new();
    let mut name = String::new();
    for line in page.lines() {
        if let Some(rest) = line.strip_prefix('.') {
            let request = format!(".{}", rest.split_whitespace().next().unwrap_or(""));
            assert!(REQUESTS.contains(&request.as_str()), "{title}: {line}");
            if let Some(section) = line.strip_prefix(".SH ") {
                sections.push(section.to_owned());
            }
        } else if sections.last().is_some_and(|s| s == "NAME") {
            name.push_str(line);
        }
    }
    let th = page
        .lines()
        .find(|l| l.starts_with(".TH"))
        .expect("a .TH line");
    assert!(th.starts_with(&format!(".TH {title} 1 ")), "{th}");
    assert_eq!(
        sections.first().map(String::as_str),
        Some("NAME"),
        "{title}"
    );
    assert_eq!(
        sections.get(1).map(String::as_str),
        Some("SYNOPSIS"),
        "{title}"
    );
    name
}

#[test]
fn man_prints_the_main_page() {
    let out = output(&["man"], "");
    assert_eq!(out.status.code(), Some(0));
    let page = String::from_utf8(out.stdout).unwrap();
    let name = check_roff(&page, "bao");
    assert!(name.starts_with("bao \\- Bao"), "{name}");
    for command in COMMANDS {
        assert!(page.contains(command), "no `{command}`");
    }
    let sub = String::from_utf8(output(&["man", "export", "svg"], "").stdout).unwrap();
    let name = check_roff(&sub, "bao-export-svg");
    assert!(
        name.starts_with("bao\\-export\\-svg \\- An SVG diagram"),
        "{name}"
    );
}

#[test]
fn man_writes_one_page_per_command() {
    let dir = tempfile::tempdir().unwrap();
    let out = output(&["man", "-o", dir.path().to_str().unwrap()], "");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for command in COMMANDS {
        assert!(names.contains(&format!("bao-{command}.1")), "{names:?}");
    }
    for page in [
        "bao.1",
        "bao-export-json.1",
        "bao-export-svg.1",
        "bao-import-json.1",
        "bao-import-abstractplay.1",
        "bao-export-abstractplay.1",
    ] {
        assert!(names.contains(&page.to_owned()), "{names:?}");
    }
    assert!(!names.iter().any(|n| n.contains("help")), "{names:?}");
    for name in &names {
        let page = std::fs::read_to_string(dir.path().join(name)).unwrap();
        check_roff(&page, name.strip_suffix(".1").unwrap());
    }
}

#[test]
fn man_of_an_unknown_command_exits_2() {
    // Not a snapshot: the list of commands grows.
    let out = output(&["--color", "never", "man", "frobnicate"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("no manual page for `frobnicate`; the commands are check,"),
        "{stderr}"
    );
}
