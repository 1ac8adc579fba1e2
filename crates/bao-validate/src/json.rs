//! The JSON form of a diagnostic, as `bao check --format json` writes it (`spec/json.md`).

use miette::Diagnostic;
use serde_json::{json, Value};

use crate::diagnostic::{AnyDiagnostic, CheckReport, Rewrite};
use crate::stream::CheckedPiece;
use crate::suggest::{Repair, Suggestion};

/// One `diagnostic` message of `bao check --format json`: code, severity, message, help,
/// url, file, game, ply, line and column (1-based), byte span, and the labels.
#[must_use]
pub fn diagnostic_json(report: &CheckReport, d: &AnyDiagnostic) -> Value {
    diagnostic_json_in(&report.name, &|at| report.line_col(at), d)
}

/// [`diagnostic_json`] for a file shown as `name`, with `line_col` giving the line and
/// column of an offset.
fn diagnostic_json_in(
    name: &str,
    line_col: &dyn Fn(usize) -> (usize, usize),
    d: &AnyDiagnostic,
) -> Value {
    let span = d.span();
    let (line, column) = span.map_or((None, None), |s| {
        let (l, c) = line_col(s.start);
        (Some(l), Some(c))
    });
    let (game, ply, assumes, fix) = match d {
        AnyDiagnostic::Check(c) => (
            Some(c.game),
            c.ply,
            c.assumes
                .map(|a| json!({"ply": a.ply, "move": a.mv.to_string()})),
            c.fix.map(|m| m.to_string()),
        ),
        AnyDiagnostic::Syntax(_) => (None, None, None, None),
    };
    let repair = match d {
        AnyDiagnostic::Check(c) => c
            .repair
            .as_ref()
            .and_then(repair_json)
            .or_else(|| c.rewrite.map(rewrite_json)),
        AnyDiagnostic::Syntax(_) => None,
    };
    let labels: Vec<Value> = d
        .labels()
        .into_iter()
        .flatten()
        .map(|l| {
            json!({
                "label": l.label(),
                "primary": l.primary(),
                "offset": l.offset(),
                "length": l.len(),
            })
        })
        .collect();
    let mut v = json!({
        "type": "diagnostic",
        "data": {
            "file": name,
            "code": d.code(),
            "severity": if d.is_error() { "error" } else { "warning" },
            "message": d.to_string(),
            "help": Diagnostic::help(d).map(|h| h.to_string()),
            "url": Diagnostic::url(d).map(|u| u.to_string()),
            "game": game,
            "ply": ply,
            "line": line,
            "column": column,
            "span": span.map(|s| json!({"offset": s.start, "length": s.len()})),
            "labels": labels,
            "fix": fix,
            "assumes": assumes,
        }
    });
    // Present only for a swap, an insertion, an earlier ply or a renumber, so that older
    // readers see no change.
    if let Some(r) = repair {
        v["data"]["repair"] = r;
    }
    v
}

/// `{"kind": "swap", "ply", "with_ply", "move"}`, `{"kind": "insert", "ply", "move",
/// "then"}`, `{"kind": "delete", "ply", "move"}` (`move`: the next written move, played in
/// its place) or `{"kind": "earlier", "ply", "move", "written"}`; `None` for a replaced move
/// (that is `fix`).
fn repair_json(s: &Suggestion) -> Option<Value> {
    match s.repair {
        Repair::Replace => None,
        Repair::Swap {
            ply,
            with_ply,
            written,
        } => Some(json!({
            "kind": "swap",
            "ply": ply,
            "with_ply": with_ply,
            "move": s.mv.to_string(),
            "then": written.to_string(),
        })),
        Repair::Insert { ply, written } => Some(json!({
            "kind": "insert",
            "ply": ply,
            "move": s.mv.to_string(),
            "then": written.to_string(),
        })),
        Repair::Delete { ply } => Some(json!({
            "kind": "delete",
            "ply": ply,
            "move": s.mv.to_string(),
        })),
        Repair::Earlier { ply, written } => Some(json!({
            "kind": "earlier",
            "ply": ply,
            "move": s.mv.to_string(),
            "written": written.to_string(),
        })),
    }
}

/// `{"kind": "renumber", "number": "2."}`: the number the primary span is rewritten as.
fn rewrite_json(r: Rewrite) -> Value {
    match r {
        Rewrite::Renumber { number } => json!({
            "kind": "renumber",
            "number": number.to_string(),
        }),
        Rewrite::Result { result } => json!({
            "kind": "result",
            "result": result.to_string(),
        }),
    }
}

/// Every diagnostic of a report, then a `file` message with its counts.
#[must_use]
pub fn report_json(report: &CheckReport) -> Vec<Value> {
    let mut out: Vec<Value> = report
        .diagnostics
        .iter()
        .map(|d| diagnostic_json(report, d))
        .collect();
    out.push(file_json(report));
    out
}

/// The `diagnostic` messages of a piece of a streamed check ([`crate::stream`]).
#[must_use]
pub fn piece_json(piece: &CheckedPiece) -> Vec<Value> {
    piece
        .diagnostics
        .iter()
        .map(|d| diagnostic_json_in(piece.name(), &|at| piece.line_col(at), d))
        .collect()
}

/// The `file` message of a report: its name and counts.
#[must_use]
pub fn file_json(report: &CheckReport) -> Value {
    json!({
        "type": "file",
        "data": {
            "file": report.name,
            "ok": report.is_valid(),
            "games": report.stats.games,
            "plies": report.stats.plies,
            "errors": report.stats.errors,
            "warnings": report.stats.warnings,
        }
    })
}
