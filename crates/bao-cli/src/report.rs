//! Diagnostics rendered for people: the graphical handler under `--color` (coloured only
//! for a terminal, unless `NO_COLOR`), a whole report ([`render`]), the diagnostics of a
//! report about no file ([`render_diagnostics`]), and a streamed file's report held until
//! its summary line is known ([`HumanOut`]). Every command that prints diagnostics uses it.

use std::io::{IsTerminal, Seek, SeekFrom, Write};

use bao_validate::stream::CheckedPiece;
use bao_validate::CheckReport;
use miette::{GraphicalReportHandler, GraphicalTheme};

use crate::context::Color;
use crate::error::CliError;

/// Where a rendered report is written: the stream decides whether `--color auto` colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stream {
    /// Standard output (`bao record`'s answers to a move).
    Stdout,
    /// Standard error (every command's diagnostics).
    Stderr,
}

/// Whether what goes to `stream` is coloured under `--color`: `auto` colours a terminal,
/// unless `NO_COLOR` is set.
pub(crate) fn colours(color: Color, stream: Stream) -> bool {
    match color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && match stream {
                    Stream::Stdout => std::io::stdout().is_terminal(),
                    Stream::Stderr => std::io::stderr().is_terminal(),
                }
        }
    }
}

/// The graphical handler for reports on stderr under `--color`.
pub(crate) fn handler(color: Color) -> GraphicalReportHandler {
    handler_for(colours(color, Stream::Stderr))
}

/// The one graphical handler of reports, coloured or not.
pub(crate) fn handler_for(colour: bool) -> GraphicalReportHandler {
    let theme = if colour {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    GraphicalReportHandler::new_themed(theme).with_links(false)
}

/// Renders a report for people, for stderr.
pub(crate) fn render(report: &CheckReport, color: Color) -> String {
    render_to(report, color, Stream::Stderr)
}

/// Renders a report for people, coloured as `stream` wants it.
pub(crate) fn render_to(report: &CheckReport, color: Color, stream: Stream) -> String {
    let mut out = String::new();
    let _ = handler_for(colours(color, stream)).render_report(&mut out, report);
    out
}

/// Renders the diagnostics of a report without its summary line (`name: 1 error, ...`),
/// for a report that is about no file: a streamed piece, a move typed at `bao record`.
pub(crate) fn render_diagnostics(
    report: &dyn miette::Diagnostic,
    handler: &GraphicalReportHandler,
) -> String {
    let mut text = String::new();
    let _ = handler.render_report(&mut text, report);
    // The report's own line first, then its diagnostics as a report draws them.
    let related = text.find('\n').map_or("", |i| &text[i + 1..]);
    related.to_owned()
}

/// The human report of a streamed file: its pieces are rendered as they come, and printed
/// after the file's summary line (which needs the totals) once the file is done. Beyond
/// [`HumanOut::IN_MEMORY`] bytes the rendered text goes to a temporary file.
#[derive(Debug, Default)]
pub(crate) struct HumanOut {
    text: String,
    spill: Option<std::fs::File>,
}

impl HumanOut {
    const IN_MEMORY: usize = 8 << 20;

    /// Renders a piece's diagnostics and keeps them.
    pub(crate) fn piece(
        &mut self,
        piece: &CheckedPiece,
        handler: &GraphicalReportHandler,
    ) -> Result<(), CliError> {
        self.push(&render_diagnostics(piece, handler))
            .map_err(|e| CliError::io("cannot write a temporary file", e))
    }

    /// Prints the file's report (its summary line, then its diagnostics) to stderr, as
    /// [`render`] prints a whole file's, when it has diagnostics.
    pub(crate) fn print_report(
        self,
        report: &CheckReport,
        handler: &GraphicalReportHandler,
    ) -> Result<(), CliError> {
        if report.stats.errors + report.stats.warnings == 0 {
            return Ok(());
        }
        let mut header = String::new();
        let _ = handler.render_report(&mut header, report);
        self.print(&header)
            .map_err(|e| CliError::io("cannot write to stderr", e))
    }

    fn push(&mut self, piece: &str) -> std::io::Result<()> {
        self.text.push_str(piece);
        if self.text.len() > Self::IN_MEMORY {
            let file = match &mut self.spill {
                Some(f) => f,
                None => self.spill.insert(tempfile::tempfile()?),
            };
            file.write_all(self.text.as_bytes())?;
            self.text.clear();
        }
        Ok(())
    }

    /// Writes the header, then what was rendered, to stderr.
    fn print(self, header: &str) -> std::io::Result<()> {
        let stderr = std::io::stderr();
        let mut err = stderr.lock();
        err.write_all(header.as_bytes())?;
        if let Some(mut f) = self.spill {
            f.seek(SeekFrom::Start(0))?;
            std::io::copy(&mut f, &mut err)?;
        }
        err.write_all(self.text.as_bytes())?;
        err.flush()
    }
}
