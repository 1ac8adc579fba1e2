//! `bao completions SHELL`: a shell completion script on stdout (`clap_complete`).

use std::io::Write;

use clap_complete::Shell;

use crate::context::{Context, Status};
use crate::error::CliError;

/// Arguments of `bao completions`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    bao completions bash > ~/.local/share/bash-completion/completions/bao\n  \
    bao completions zsh > ~/.zfunc/_bao\n  \
    bao completions fish > ~/.config/fish/completions/bao.fish")]
pub(crate) struct Args {
    /// The shell.
    #[arg(value_enum)]
    shell: Shell,
}

/// The completion script for `shell` of the command line `cli` (`bao`'s, from main.rs).
pub(crate) fn script(shell: Shell, mut cli: clap::Command) -> Vec<u8> {
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut cli, "bao", &mut out);
    out
}

/// Runs `bao completions` for the command line `cli`.
pub(crate) fn run(args: &Args, _ctx: &Context, cli: clap::Command) -> Result<Status, CliError> {
    // Generated into memory first: the generator cannot report a failed write (a closed
    // pipe) other than by panicking.
    let text = script(args.shell, cli);
    let mut out = std::io::stdout().lock();
    out.write_all(&text)
        .and_then(|()| out.flush())
        .map_err(|e| CliError::io("cannot write to stdout", e))?;
    Ok(Status::Success)
}
