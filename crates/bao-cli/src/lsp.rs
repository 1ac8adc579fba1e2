//! `bao lsp`: the language server for `.bao` records, over stdin and stdout (`bao-lsp`).
//!
//! An editor starts it and speaks the Language Server Protocol with it; settings come in the
//! client's `initializationOptions` (`lapBudget`, `inlayHints`, `semanticTokensFullLimit`).
//! Exit 0 after the client's
//! `shutdown` and `exit` (or when it closes stdin); 1 on `exit` without `shutdown`; 2 with a
//! message when the input breaks (a header that cannot be read) or the client breaks the
//! protocol.

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
    // No transparent huge pages: with the allocator's arena marked for them each of the
    // server's threads made a whole 2 MiB page resident (a 20 MB archive's `didOpen` peaked
    // 17 MB higher; BENCHMARKS.md, issue 33).
    crate::pages::small_pages();
    match bao_lsp::run_stdio() {
        Ok(()) => Ok(Status::Success),
        // The protocol's exit code 1.
        Err(e @ bao_lsp::ServerError::ExitWithoutShutdown) => {
            eprintln!("bao lsp: {e}");
            Ok(Status::Invalid)
        }
        // A broken header, a connection that broke: exit 2 with the message.
        Err(bao_lsp::ServerError::Io(e)) => Err(CliError::io("bao lsp", e)),
        Err(e) => Err(CliError::io("bao lsp", std::io::Error::other(e))),
    }
}
