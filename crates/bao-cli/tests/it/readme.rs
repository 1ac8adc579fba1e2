//! README.md cannot rot: the blocks it marks are what `bao` does today.
//!
//! A marker is an HTML comment on the line before a fenced block or a picture:
//! - `<!-- readme-test output: bao ARGS -->`: the fenced block below is what `bao ARGS`
//!   prints (stdout, then stderr);
//! - `<!-- readme-test record -->`: the fenced block below is a record that `bao check`
//!   accepts without errors or warnings and that is in canonical form;
//! - `<!-- readme-test file: PATH: bao ARGS -->`: the file PATH (from the repository root)
//!   holds what `bao ARGS` prints on stdout.
//!
//! ARGS are split at spaces. On a failure the message shows what to paste.

use crate::cmd::{output, root};

/// A marker and the fenced block after it.
struct Marked {
    /// What follows `readme-test `.
    marker: String,
    /// The lines of the next fenced block, each with its newline (empty if none follows).
    block: String,
}

fn marked() -> Vec<Marked> {
    let text = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(marker) = line
            .strip_prefix("<!-- readme-test ")
            .and_then(|m| m.strip_suffix(" -->"))
        else {
            continue;
        };
        let mut block = String::new();
        if lines.get(i + 1).is_some_and(|l| l.starts_with("```")) {
            for l in &lines[i + 2..] {
                if l.starts_with("```") {
                    break;
                }
                block.push_str(l);
                block.push('\n');
            }
        }
        out.push(Marked {
            marker: marker.to_owned(),
            block,
        });
    }
    out
}

/// Runs `bao ARGS` (ARGS as written after `bao `) and gives stdout, stderr and the status.
fn bao(command: &str) -> (String, String, Option<i32>) {
    let args: Vec<&str> = command
        .strip_prefix("bao ")
        .unwrap_or_else(|| panic!("`{command}` does not start with `bao `"))
        .split(' ')
        .collect();
    let out = output(&args, "");
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.code(),
    )
}

#[test]
fn pasted_outputs_are_what_bao_prints() {
    let mut seen = 0;
    for m in marked() {
        let Some(command) = m.marker.strip_prefix("output: ") else {
            continue;
        };
        seen += 1;
        let (stdout, stderr, _) = bao(command);
        let now = format!("{stdout}{stderr}");
        assert!(!m.block.is_empty(), "no fenced block after `{}`", m.marker);
        assert!(
            m.block == now,
            "README.md: the block after `{command}` is out of date; paste this:\n{now}"
        );
    }
    assert!(seen > 0, "README.md has no `readme-test output:` marker");
}

#[test]
fn the_example_record_checks_clean_and_is_canonical() {
    let mut seen = 0;
    for m in marked().into_iter().filter(|m| m.marker == "record") {
        seen += 1;
        assert!(!m.block.is_empty(), "no fenced block after a record marker");
        let check = output(&["--color", "never", "check", "-"], &m.block);
        let stderr = String::from_utf8_lossy(&check.stderr);
        assert_eq!(check.status.code(), Some(0), "{stderr}");
        assert!(stderr.ends_with(": 0 errors, 0 warnings\n"), "{stderr}");
        assert!(
            !stderr.contains(" 0 plies"),
            "the example has no moves: {stderr}"
        );
        let fmt = output(&["fmt", "-"], &m.block);
        assert_eq!(
            String::from_utf8_lossy(&fmt.stdout),
            m.block,
            "the example record is not in canonical form"
        );
    }
    assert!(seen > 0, "README.md has no `readme-test record` marker");
}

#[test]
fn generated_files_are_up_to_date() {
    let mut seen = 0;
    for m in marked() {
        let Some(rest) = m.marker.strip_prefix("file: ") else {
            continue;
        };
        seen += 1;
        let (path, command) = rest
            .split_once(": ")
            .unwrap_or_else(|| panic!("`{}` is not `file: PATH: bao ARGS`", m.marker));
        let (stdout, stderr, status) = bao(command);
        assert_eq!(status, Some(0), "{command}: {stderr}");
        let file =
            std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert!(
            file == stdout,
            "{path} is out of date; regenerate it with `{} -o {path}`",
            command.replacen("bao ", "cargo run -q -p bao-cli -- ", 1)
        );
    }
    assert!(seen > 0, "README.md has no `readme-test file:` marker");
}

#[test]
fn the_quick_start_is_two_commands() {
    let text = std::fs::read_to_string(root().join("README.md")).unwrap();
    let section = text
        .split("\n## Quick start\n")
        .nth(1)
        .expect("a Quick start section")
        .split("\n## ")
        .next()
        .unwrap();
    let block = section
        .split("```sh\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("one sh block");
    assert_eq!(section.matches("```sh").count(), 1, "{section}");
    assert_eq!(block.lines().count(), 2, "{block}");
}
