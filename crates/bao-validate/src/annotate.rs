//! Writing a fully annotated record from its replay, and annotation items as text.

use bao_notation::{Annotation, AnnotationItem, Element, Game, MoveItem, Record, Spanned};
use bao_replay::{Played, ReplayedGame};

/// Writes items as an annotation, `[xa5:3 A6:2]`.
#[must_use]
pub fn items_text(items: &[AnnotationItem]) -> String {
    let a = Annotation {
        items: items.iter().copied().map(Spanned::bare).collect(),
    };
    a.to_string()
}

/// The record with every replayed move annotated by the engine: its captures and lap ends,
/// `**` on a takasa that creates a takasia and `#` on a winning move (claims the engine
/// does not confirm are removed). Moves that could not be replayed are left as written.
#[must_use]
pub fn annotate_record(record: &Record, replayed: &[ReplayedGame]) -> Record {
    let mut out = record.clone();
    for (g, game) in out.games.iter_mut().enumerate() {
        if let Some(replayed) = replayed.get(g) {
            annotate_game(&mut game.value, replayed);
        }
    }
    out
}

/// Annotates one game in place from its replay, as [`annotate_record`] annotates each game
/// of a record (for a record annotated game by game from a stream).
pub fn annotate_game(game: &mut Game, replayed: &ReplayedGame) {
    let mut played: Vec<(usize, &Played)> = replayed
        .written_plies()
        .filter_map(|p| Some((p.span.start, p.played()?)))
        .collect();
    played.sort_by_key(|p| p.0);
    annotate_elements(&mut game.movetext, &played);
}

fn annotate_elements(elems: &mut [Spanned<Element>], played: &[(usize, &Played)]) {
    for e in elems {
        match &mut e.value {
            Element::Move(item) => annotate_item(item, played),
            Element::Variation(v) => annotate_elements(v, played),
            Element::Comment(_) => {}
        }
    }
}

fn annotate_item(item: &mut MoveItem, played: &[(usize, &Played)]) {
    let start = item.token.span.start;
    let Ok(i) = played.binary_search_by_key(&start, |p| p.0) else {
        return;
    };
    let p = played[i].1;
    let takasia = p.takasia().is_some();
    let token = &mut item.token.value;
    token.claims_takasia = takasia;
    if takasia {
        token.takasa = true;
    }
    token.claims_win = p.wins;
    item.annotation = (!p.items.is_empty()).then(|| {
        Spanned::bare(Annotation {
            items: p.items.iter().copied().map(Spanned::bare).collect(),
        })
    });
}
