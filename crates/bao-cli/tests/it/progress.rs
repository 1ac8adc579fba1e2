//! Progress bars: drawn on a terminal, never written when stderr is piped, none with
//! `--quiet`.

use std::process::{Command, Stdio};

use crate::cmd::{output, root};

/// Bytes that only a drawn progress bar writes here: a carriage return and an escape
/// sequence (`\r\x1b[2K` clears the bar's line), and the bar's label.
fn has_bar_bytes(bytes: &[u8], label: &str) -> bool {
    bytes.contains(&b'\r')
        || bytes.contains(&0x1b)
        || String::from_utf8_lossy(bytes).contains(label)
}

#[test]
fn check_piped_writes_no_progress_bar() {
    let out = output(&["check", "fixtures/games"], "");
    assert_eq!(out.status.code(), Some(0));
    assert!(!has_bar_bytes(&out.stderr, "checking"), "{:?}", out.stderr);
    // Only the summary line.
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("bao check: ") && stderr.ends_with(": 0 errors, 0 warnings\n"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn check_quiet_writes_nothing_when_all_is_well() {
    let out = output(&["check", "--quiet", "fixtures/games"], "");
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Diagnostics are still printed.
    let bad = output(
        &[
            "--color",
            "never",
            "check",
            "-q",
            "fixtures/invalid/illegal",
        ],
        "",
    );
    assert_eq!(bad.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&bad.stderr);
    assert!(stderr.contains("bao::illegal::"), "{stderr}");
    assert!(!stderr.contains("bao check:"), "{stderr}");
}

#[test]
fn export_all_piped_writes_no_progress_bar() {
    let dir = tempfile::tempdir().unwrap();
    for format in ["svg", "png"] {
        let out_dir = dir.path().join(format);
        let out = output(
            &[
                "export",
                format,
                "fixtures/games/short_bao_hamna.bao",
                "--all",
                "-o",
                out_dir.to_str().unwrap(),
            ],
            "",
        );
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(out.stderr.is_empty(), "{:?}", out.stderr);
        assert!(out.stdout.is_empty());
        let mut names: Vec<String> = std::fs::read_dir(&out_dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        let expected: Vec<String> = (0..=5).map(|n| format!("ply-{n:03}.{format}")).collect();
        assert_eq!(names, expected);
    }
}

/// Runs `bao ARGS` with stdout and stderr on a pseudo-terminal (util-linux `script`) and
/// gives what the terminal showed.
fn on_a_terminal(args: &[&str]) -> Vec<u8> {
    let mut command = String::from(env!("CARGO_BIN_EXE_bao"));
    for a in args {
        command.push_str(" '");
        command.push_str(a);
        command.push('\'');
    }
    let out = Command::new("script")
        .args(["-q", "-e", "-c", &command, "/dev/null"])
        .current_dir(root())
        .env("TERM", "xterm")
        .env("BAO_LANG", "en")
        .env_remove("NO_COLOR")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .expect("util-linux `script` runs");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

#[test]
fn a_terminal_shows_the_bar_unless_quiet() {
    let shown = on_a_terminal(&["check", "fixtures/games"]);
    let text = String::from_utf8_lossy(&shown);
    assert!(has_bar_bytes(&shown, "checking"), "{text}");
    assert!(text.contains("checking ["), "{text}");
    assert!(text.contains("bao check: "), "{text}");

    let quiet = on_a_terminal(&["check", "--quiet", "fixtures/games"]);
    assert!(quiet.is_empty(), "{}", String::from_utf8_lossy(&quiet));

    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("svg");
    let export = on_a_terminal(&[
        "export",
        "svg",
        "fixtures/games/short_bao_hamna.bao",
        "--all",
        "-o",
        out_dir.to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&export);
    assert!(text.contains("exporting ["), "{text}");
    assert!(text.contains("/6"), "{text}");
}
