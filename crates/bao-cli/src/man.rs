//! `bao man`: manual pages in roff (`clap_mangen`).
//!
//! Without `-o` one page goes to stdout: `bao(1)`, or with `COMMAND` (`bao man export svg`)
//! that command's page. With `-o DIR` the main page and one page per subcommand
//! (`bao.1`, `bao-check.1`, `bao-export-svg.1`, ...) are written into `DIR`, each atomically.

use std::io::Write;
use std::path::PathBuf;

use clap::CommandFactory;

use crate::error::CliError;
use crate::export::write_atomic;
use crate::{Cli, Context, Status};

/// Arguments of `bao man`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Write every page into this directory (created if missing) instead of one to stdout.
    #[arg(short, long, value_name = "DIR", conflicts_with = "command")]
    output: Option<PathBuf>,
    /// The command whose page goes to stdout (`export svg`); default: `bao` itself.
    #[arg(value_name = "COMMAND")]
    command: Vec<String>,
}

/// Every page: `(file name, roff text)`, the main page first, then the subcommands depth
/// first in the order of `bao --help`.
pub(crate) fn pages() -> Result<Vec<(String, Vec<u8>)>, CliError> {
    fn walk(cmd: &clap::Command, out: &mut Vec<(String, Vec<u8>)>) -> Result<(), CliError> {
        let man = clap_mangen::Man::new(cmd.clone());
        let mut text = Vec::new();
        man.render(&mut text)
            .map_err(|e| CliError::Internal(format!("cannot render a manual page: {e}")))?;
        out.push((man.get_filename(), text));
        for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
            walk(sub, out)?;
        }
        Ok(())
    }
    let mut cmd = Cli::command().disable_help_subcommand(true);
    cmd.build();
    let mut out = Vec::new();
    walk(&cmd, &mut out)?;
    Ok(out)
}

/// Runs `bao man`.
pub(crate) fn run(args: &Args, _ctx: &Context) -> Result<Status, CliError> {
    let pages = pages()?;
    if let Some(dir) = &args.output {
        std::fs::create_dir_all(dir)
            .map_err(|e| CliError::io(format!("cannot create {}", dir.display()), e))?;
        for (name, text) in &pages {
            write_atomic(&dir.join(name), text)?;
        }
        return Ok(Status::Success);
    }
    let mut stem = String::from("bao");
    for word in &args.command {
        stem.push('-');
        stem.push_str(word);
    }
    let file = format!("{stem}.1");
    let Some((_, text)) = pages.iter().find(|(name, _)| *name == file) else {
        return Err(CliError::Usage(format!(
            "no manual page for `{}`; the commands are {}",
            args.command.join(" "),
            pages
                .iter()
                .filter_map(|(n, _)| n.strip_prefix("bao-")?.strip_suffix(".1"))
                .map(|n| n.replace('-', " "))
                .collect::<Vec<_>>()
                .join(", ")
        )));
    };
    let mut out = std::io::stdout().lock();
    out.write_all(text)
        .and_then(|()| out.flush())
        .map_err(|e| CliError::io("cannot write to stdout", e))?;
    Ok(Status::Success)
}
