//! `bao/boardAt`: the board before and after the ply at the cursor, also at and after an
//! illegal ply (replayed as `bao check --assume-fixes` replays it: from the repair it
//! assumes, where one is clear), as data and as the text and SVG boards. Hover uses the
//! same ply on a move the plain replay did not play.

use bao_core::{Position, Side};
use bao_export::{board_svg, board_text, Overlay, SvgOptions, TextOptions};
use bao_notation::PositionString;
use bao_replay::{Assumption, Ply, Source};
use serde::{Deserialize, Serialize};

use crate::document::View;

/// `South` or `North`.
pub(crate) fn side_title(side: Side) -> &'static str {
    match side {
        Side::South => "South",
        Side::North => "North",
    }
}

/// The custom request's method.
pub(crate) const METHOD: &str = "bao/boardAt";

/// Its parameters: a text document and a position in it (as `textDocument/hover`'s).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Params {
    pub(crate) text_document: lsp_types::TextDocumentIdentifier,
    pub(crate) position: lsp_types::Position,
}

/// One board: the position as data and as pictures.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Board {
    /// The position string (`bao` position notation).
    position: String,
    /// The side to move (`South`, `North`), `null` when the game is over.
    to_move: Option<&'static str>,
    /// The text diagram (as `bao show` draws it).
    text: String,
    /// The SVG picture.
    svg: String,
}

/// An earlier repair the position relies on.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Assumed {
    /// Its ply (counted from 1).
    ply: usize,
    /// The move assumed there, as the record would write it.
    r#move: String,
}

/// The answer of `bao/boardAt`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct BoardAt {
    /// The ply's number in the game.
    ply: usize,
    /// The side whose move it is.
    mover: &'static str,
    /// The token as written.
    written: String,
    /// Whether the written move was played as written (a legal move where it stands, in
    /// the replay of the record as written).
    legal: bool,
    /// The move played at this ply, as the record would write it: the written one, or the
    /// repair assumed here; `null` when there is none.
    played: Option<String>,
    /// Whether `played` is a repair of the written move, assumed here.
    repaired: bool,
    /// The first repair the position relies on (`bao check --assume-fixes`'s), at this ply
    /// or an earlier one; `null` when the record replays as written up to here.
    assumes: Option<Assumed>,
    /// The board before the ply.
    before: Board,
    /// The board after it; `null` when no move is played here.
    after: Option<Board>,
    /// What the move did (laps, captures), when one is played.
    summary: Option<String>,
}

/// The ply at `offset` as a board shows it: the ply of the plain replay when it played the
/// written move; else the ply `--assume-fixes` replays there (a repair of this ply, or the
/// written move after an earlier repair), else the ply that was refused. With whether the
/// written move was legal and the record's spelling of moves.
pub(crate) struct PlyAt {
    /// The ply whose boards are shown.
    pub(crate) ply: Ply,
    /// The written move was played as written in the plain replay.
    pub(crate) legal: bool,
    /// The ply's move is a repair assumed here.
    pub(crate) repaired: bool,
    /// The token as written.
    pub(crate) written: String,
    /// The move played, as the record writes it.
    pub(crate) spelled: Option<String>,
    /// The first repair assumed, as the record writes it.
    pub(crate) assumes: Option<(Assumption, String)>,
}

/// The ply at a byte offset of the document (on a move token), if any.
pub(crate) fn ply_at(v: &View<'_>, offset: usize) -> Option<PlyAt> {
    let g = v.game_at(offset)?;
    let local = offset - g.base;
    let doc = g.doc()?;
    let node = doc.move_at(local)?;
    let written = node.text().unwrap_or_default().to_owned();
    if let Some((ply, played)) = node.played() {
        return Some(PlyAt {
            spelled: Some(doc.spell(&played.mv, &ply.before)),
            assumes: None,
            ply: ply.clone(),
            legal: true,
            repaired: false,
            written,
        });
    }
    // Not played as written: illegal here, or after an illegal ply. As `--assume-fixes`
    // replays it.
    let refused = node.ply().cloned();
    let ga = v.assumed_game_at(offset)?;
    let adoc = ga.doc()?;
    let anode = adoc.move_at(local)?;
    let played = anode
        .plies()
        .find(|p| p.played().is_some_and(|pl| pl.source == Source::Written))
        .or_else(|| anode.plies().find(|p| p.played().is_some()));
    let ply = played.or_else(|| anode.ply()).cloned().or(refused)?;
    let repaired = ply.played().is_some_and(|pl| pl.source != Source::Written);
    let spelled = ply.played().map(|pl| adoc.spell(&pl.mv, &ply.before));
    let assumes = ply.assumes.map(|a| {
        // The position before the assumed ply, to spell its move: the ply itself when it
        // is this one, else found by its number in the main line.
        let before = adoc
            .moves()
            .flat_map(|m| m.plies())
            .find(|p| p.number == a.ply)
            .map_or(ply.before, |p| p.before);
        (a, adoc.spell(&a.mv, &before))
    });
    Some(PlyAt {
        ply,
        legal: false,
        repaired,
        written,
        spelled,
        assumes,
    })
}

fn board(pos: &Position) -> Board {
    Board {
        position: PositionString::from(pos).to_string(),
        to_move: pos.outcome().is_none().then(|| side_title(pos.to_move())),
        text: board_text(pos, &TextOptions::default()),
        svg: board_svg(pos, &SvgOptions::default(), None),
    }
}

/// The answer of `bao/boardAt` at a byte offset: `None` off a move.
pub(crate) fn board_at(v: &View<'_>, offset: usize) -> Option<BoardAt> {
    let at = ply_at(v, offset)?;
    let ply = &at.ply;
    let played = ply.played();
    Some(BoardAt {
        ply: ply.number,
        mover: side_title(ply.mover()),
        written: at.written.clone(),
        legal: at.legal,
        played: at.spelled.clone(),
        repaired: at.repaired,
        assumes: at.assumes.as_ref().map(|(a, mv)| Assumed {
            ply: a.ply,
            r#move: mv.clone(),
        }),
        before: board(&ply.before),
        after: played.map(|p| board(&p.after)),
        summary: played
            .map(|p| Overlay::from_trace(&ply.before, &p.trace).summary(ply.before.rules())),
    })
}
