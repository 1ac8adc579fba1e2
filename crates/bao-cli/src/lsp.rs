//! `bao lsp`: the language server for `.bao` records, over stdin and stdout (`bao-lsp`).
//!
//! An editor starts it and speaks the Language Server Protocol with it; settings come in the
//! client's `initializationOptions` (`lapBudget`, `inlayHints`, `semanticTokensFullLimit`).
//! Exit 0 after the client's
//! `shutdown` and `exit` (or when it closes stdin); 2 when the connection breaks.

use crate::context::{Context, Status};
use crate::error::CliError;

/// Arguments of `bao lsp` (none: it speaks over stdio).
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Accepted and ignored: the server always speaks over stdin and stdout (editors that
    /// pass `--stdio` start it unchanged).
    #[arg(long)]
    stdio: bool,
}

/// Runs `bao lsp`.
pub(crate) fn run(args: &Args, _ctx: &Context) -> Result<Status, CliError> {
    let _ = args.stdio;
    bao_lsp::run_stdio().map_err(|e| {
        CliError::io(
            "bao lsp",
            std::io::Error::new(std::io::ErrorKind::BrokenPipe, e),
        )
    })?;
    Ok(Status::Success)
}
