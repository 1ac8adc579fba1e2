//! Writing a fully annotated record from its replay, and annotation items as text.

use bao_notation::{
    Annotation, AnnotationItem, Directions, Element, Game, MoveItem, PitRef, Record, Spanned,
};
use bao_replay::{Played, Ply, ReplayedGame};

/// Writes items as an annotation, `[xa5:3 A6:2]`.
#[must_use]
pub fn items_text(items: &[AnnotationItem]) -> String {
    let a = Annotation {
        items: items.iter().copied().map(Spanned::bare).collect(),
        cycle: None,
    };
    a.to_string()
}

/// The record with every replayed move annotated by the engine: its captures and lap ends
/// (a never-ending move's up to its cycle, then the cycle item `cycle:L+P`),
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
    item.annotation = p.annotation().map(Spanned::bare);
}

/// The record with every replayed move spelled out: its row letter, sign, `*` and `+` as
/// the engine played it (forced signs and `*` filled in; claims and annotations kept). With
/// `to_mover`, a game written under a `Directions` tag other than `mover` whose every move
/// replayed gets the canonical mover's-seat signs and loses the tag; otherwise signs stay in
/// the game's convention. Moves that could not be replayed are left as written.
#[must_use]
pub fn spelled_out_record(record: &Record, replayed: &[ReplayedGame], to_mover: bool) -> Record {
    let mut out = record.clone();
    for (g, game) in out.games.iter_mut().enumerate() {
        let Some(replayed) = replayed.get(g) else {
            continue;
        };
        let Some(opening) = replayed.opening() else {
            continue;
        };
        let mut plies: Vec<(usize, &Ply)> = replayed
            .written_plies()
            .map(|p| (p.span.start, p))
            .collect();
        plies.sort_by_key(|p| p.0);
        let written = count_moves(&game.value.movetext);
        let convert = to_mover && opening.directions != Directions::Mover && plies.len() == written;
        let directions = if convert {
            Directions::Mover
        } else {
            opening.directions
        };
        spell_elements(&mut game.value.movetext, &plies, directions);
        if convert {
            game.value
                .tags
                .retain(|t| t.value.name.value != "Directions");
        }
    }
    out
}

fn count_moves(elems: &[Spanned<Element>]) -> usize {
    elems
        .iter()
        .map(|e| match &e.value {
            Element::Move(_) => 1,
            Element::Variation(v) => count_moves(v),
            Element::Comment(_) => 0,
        })
        .sum()
}

fn spell_elements(elems: &mut [Spanned<Element>], plies: &[(usize, &Ply)], d: Directions) {
    for e in elems {
        match &mut e.value {
            Element::Move(item) => {
                let start = item.token.span.start;
                let Ok(i) = plies.binary_search_by_key(&start, |p| p.0) else {
                    continue;
                };
                let ply = plies[i].1;
                let Some(p) = ply.played() else { continue };
                let token = &mut item.token.value;
                token.pit = PitRef::Pit(p.mv.pit);
                token.sign = Some(d.written_sign(&p.mv, &ply.before));
                token.takasa = p.mv.is_takasa();
                token.claims_takasia &= token.takasa;
                token.safari = p.mv.is_safari();
            }
            Element::Variation(v) => spell_elements(v, plies, d),
            Element::Comment(_) => {}
        }
    }
}
