//! Running the `bao` binary from the repository root and rendering what it did.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The repository root (fixture paths in arguments are relative to it).
pub(crate) fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs `bao ARGS` with `stdin` and renders exit code, stdout and stderr for a snapshot.
/// The environment is pinned so that colours and terminal detection do not vary.
pub(crate) fn run(args: &[&str], stdin: &str) -> String {
    render(&output(args, stdin))
}

/// Renders exit code, stdout and stderr of a run for a snapshot.
pub(crate) fn render(out: &std::process::Output) -> String {
    format!(
        "exit: {}\n--- stdout\n{}--- stderr\n{}",
        out.status
            .code()
            .map_or_else(|| "killed".to_owned(), |c| c.to_string()),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    )
}

/// Runs `bao ARGS` with `stdin` in the repository root, the terminal, locale and colour
/// variables pinned, and gives the raw output, for tests that look at bytes or exit codes.
pub(crate) fn output(args: &[&str], stdin: &str) -> std::process::Output {
    output_in(&root(), args, stdin)
}

/// [`output`], run in `dir`.
pub(crate) fn output_in(dir: &Path, args: &[&str], stdin: &str) -> std::process::Output {
    output_with(dir, args, stdin, &[])
}

/// [`output_in`], with these variables set too (`RAYON_NUM_THREADS`; `LANG`, which they
/// override).
pub(crate) fn output_with(
    dir: &Path,
    args: &[&str],
    stdin: &str,
    vars: &[(&str, &str)],
) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bao"))
        .args(args)
        .current_dir(dir)
        .env("TERM", "xterm")
        .env("LANG", "C.UTF-8")
        // English whatever the machine's locale (issue 34: the catalogue follows LANG).
        .env("BAO_LANG", "en")
        .env_remove("LC_ALL")
        .env_remove("LC_CTYPE")
        .env_remove("NO_COLOR")
        .env_remove("NO_GRAPHICS")
        .env_remove("FORCE_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("COLUMNS")
        .env_remove("LC_MESSAGES")
        // After the pins: a test may set `LANG` (and empty `BAO_LANG`) on purpose.
        .envs(vars.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the bao binary runs");
    // A command may end without reading its input (`bao record` on an invalid file): the
    // pipe is then closed under the writer, which is no failure of the test.
    match child
        .stdin
        .take()
        .expect("piped stdin")
        .write_all(stdin.as_bytes())
    {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => panic!("stdin is written: {e}"),
        _ => {}
    }
    child.wait_with_output().expect("bao finishes")
}
