//! `bao check`'s diagnostics as the protocol's: the same code, message, help and rule link.

use std::str::FromStr;

use bao_validate::AnyDiagnostic;
use lsp_types::{
    CodeDescription, Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, Location,
    NumberOrString, Range, Uri,
};
use miette::Diagnostic as _;

use crate::text::LineIndex;

/// The protocol's form of a diagnostic: the message, then the help on a line of its own
/// (`help: ...`); the code, its rule link as `codeDescription`; secondary labels as related
/// information.
pub(crate) fn to_lsp(uri: &Uri, text: &str, index: &LineIndex, d: &AnyDiagnostic) -> Diagnostic {
    let range = d
        .span()
        .map_or_else(Range::default, |s| index.range(text, s.start, s.end));
    let mut message = d.to_string();
    if let Some(help) = miette::Diagnostic::help(d) {
        message.push_str("\nhelp: ");
        message.push_str(&help.to_string());
    }
    let href = d.url().and_then(|u| Uri::from_str(&u.to_string()).ok());
    let related: Vec<DiagnosticRelatedInformation> = d
        .labels()
        .into_iter()
        .flatten()
        .filter(|l| !l.primary())
        .map(|l| DiagnosticRelatedInformation {
            location: Location::new(
                uri.clone(),
                index.range(text, l.offset(), l.offset() + l.len()),
            ),
            message: l.label().unwrap_or("here").to_owned(),
        })
        .collect();
    Diagnostic {
        range,
        severity: Some(if d.is_error() {
            DiagnosticSeverity::ERROR
        } else {
            DiagnosticSeverity::WARNING
        }),
        code: Some(NumberOrString::String(d.code().to_owned())),
        code_description: href.map(|href| CodeDescription { href }),
        source: Some("bao".to_owned()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        tags: None,
        data: None,
    }
}
