//! A written move: resolved, refused with the validator's diagnostics, completed by a
//! question, played and written.

use std::sync::Arc;

use bao_core::{Move, Sign, Stage as GameStage};
use bao_notation::{write_record, Element, MoveItem, Spanned, WriteOptions};
use bao_validate::check_full;

use super::{result_of, Asking, Pending, Session, Stage};
use crate::error::SessionError;
use crate::game::read_move;
use crate::reply::{
    AnswerProblem, Choice, ChoiceOption, Decision, Ending, OptionKind, Played, Refusal, Reply,
};

/// The name an illegal move's report gives the text it shows: the move as typed.
pub(crate) const TYPED: &str = "typed";

impl Session {
    /// A line that should be a move.
    pub(super) fn try_move(
        &mut self,
        line: &str,
        out: &mut Vec<Reply>,
    ) -> Result<(), SessionError> {
        let item = match read_move(line) {
            Ok(item) => item,
            Err(refusal) => {
                out.push(Reply::Refused(refusal));
                return Ok(());
            }
        };
        let candidates = match self.within(|e| self.live().candidates(&item, e)) {
            Ok(c) => c,
            Err(u) => {
                out.push(over_budget(u));
                return Ok(());
            }
        };
        if candidates.is_empty() {
            self.explain_illegal(&item, out);
            return Ok(());
        }
        self.decide(item, candidates, out)
    }

    /// The validator's diagnostic for a move that is not legal here, as `bao check` would
    /// give it for the record with that move appended, and the legal moves.
    ///
    /// The report is shown against the move as typed, with its move number (`12... a6<`,
    /// named [`TYPED`]), not against a line of a record file that holds no such move.
    pub(super) fn explain_illegal(&self, item: &MoveItem, out: &mut Vec<Reply>) {
        let mut record = self.record.clone();
        // The move alone (its glyphs would follow it in the text).
        let mut typed = item.clone();
        typed.number = None;
        typed.nags.clear();
        if let Some(g) = record.games.get_mut(self.current()) {
            g.value.movetext.push(Spanned::bare(Element::Move(typed)));
        }
        let text = write_record(&record, &WriteOptions::default());
        let checked = check_full(&self.name, Arc::from(text), &self.check_options());
        // The move appended: the last of the game's main line.
        let range = checked
            .document(self.current())
            .and_then(|doc| doc.main().moves().last())
            .map_or(0..0, |m| m.token_span().range());
        let report = checked.report;
        let (turn, side) = (self.live().turn(), self.live().pos().to_move());
        let head = match side {
            bao_core::Side::South => format!("{turn}. "),
            bao_core::Side::North => format!("{turn}... "),
        };
        let report = report.excerpt(TYPED, &head, range);
        out.push(Reply::Illegal {
            written: item.token.value,
            report: (!report.diagnostics.is_empty()).then(|| Box::new(report)),
        });
        // The moves were just decided within the budget (no candidate among them).
        let legal = self.within(|e| e.legal_moves(self.live().pos()));
        out.push(Reply::Legal(legal.unwrap_or_default().to_vec()));
    }

    /// Settles the decisions a written move leaves open: the sign (kichwa or direction),
    /// then stop at the house or safari; plays the move once none is left.
    pub(super) fn decide(
        &mut self,
        item: MoveItem,
        moves: Vec<Move>,
        out: &mut Vec<Reply>,
    ) -> Result<(), SessionError> {
        let live = self.live();
        let pos = *live.pos();
        let mut signs: Vec<Sign> = moves.iter().map(|m| m.sign).collect();
        signs.dedup();
        let (decision, groups): (Decision, Vec<(OptionKind, Vec<Move>)>) = if signs.len() > 1 {
            let namua_capture = pos.stage() == GameStage::Namua && moves[0].is_capture();
            let groups = signs
                .iter()
                .map(|&s| {
                    let kind = match (namua_capture, s) {
                        (true, Sign::Left) => OptionKind::LeftKichwa,
                        (true, Sign::Right) => OptionKind::RightKichwa,
                        (false, Sign::Left) => OptionKind::Left,
                        (false, Sign::Right) => OptionKind::Right,
                    };
                    (
                        kind,
                        moves.iter().copied().filter(|m| m.sign == s).collect(),
                    )
                })
                .collect();
            let decision = if namua_capture {
                Decision::Kichwa
            } else {
                Decision::Direction
            };
            (decision, groups)
        } else if moves.len() > 1 {
            let groups = moves
                .iter()
                .map(|m| {
                    let kind = if m.is_safari() {
                        OptionKind::Safari
                    } else {
                        OptionKind::Stop
                    };
                    (kind, vec![*m])
                })
                .collect();
            (Decision::Safari, groups)
        } else {
            return self.play_move(&item, moves[0], out);
        };
        if self.options.asking == Asking::Never {
            out.push(Reply::Refused(Refusal::Undecided { candidates: moves }));
            return Ok(());
        }
        let options = groups
            .iter()
            .map(|(kind, group)| ChoiceOption {
                kind: *kind,
                shown: group[0],
                trace: pos.play_unchecked(&group[0]).1,
            })
            .collect();
        let choice = Choice {
            decision,
            pit: moves[0].pit,
            before: pos,
            rules: live.rules,
            options,
        };
        out.push(Reply::Choice(choice.clone()));
        self.stage = Stage::Choosing(Box::new(Pending {
            item,
            choice,
            groups: groups.into_iter().map(|(_, g)| g).collect(),
        }));
        Ok(())
    }

    /// The answer to a move's open decision: the number, the key, or the move itself.
    pub(super) fn choose(
        &mut self,
        answer: &str,
        out: &mut Vec<Reply>,
    ) -> Result<(), SessionError> {
        let Stage::Choosing(pending) = &self.stage else {
            return Ok(());
        };
        let a = answer.trim();
        if a.is_empty() {
            self.stage = Stage::Moves;
            out.push(Reply::MoveCancelled);
            return Ok(());
        }
        let lower = a.to_ascii_lowercase();
        let pending = pending.clone();
        let hit = pending
            .choice
            .options
            .iter()
            .zip(&pending.groups)
            .enumerate()
            .find(|(i, (option, group))| {
                lower == (i + 1).to_string()
                    || option.kind.answers_to(&lower)
                    || group.iter().any(|m| m.to_string().eq_ignore_ascii_case(a))
            })
            .map(|(_, (_, group))| group.clone());
        let Some(group) = hit else {
            if self.drop_question(answer, out)? {
                return Ok(());
            }
            out.push(Reply::BadAnswer(AnswerProblem::NoSuchOption {
                count: pending.choice.options.len(),
            }));
            return Ok(());
        };
        let item = pending.item.clone();
        self.stage = Stage::Moves;
        self.decide(item, group, out)
    }

    /// Plays a legal move, writes it, then reports it.
    pub(super) fn play_move(
        &mut self,
        item: &MoveItem,
        mv: Move,
        out: &mut Vec<Reply>,
    ) -> Result<(), SessionError> {
        let live = self.live();
        let before = *live.pos();
        let rules = live.rules;
        // The move and the end test of the position after it (has the side to move next a
        // legal move?) are decided before anything is written.
        let (next, trace) = match self.within(|e| e.play(&before, &mv)) {
            Ok(played) => played.map_err(SessionError::Engine)?,
            Err(u) => {
                out.push(over_budget(u));
                return Ok(());
            }
        };
        // Written as the record writes its moves: the sign in its Directions, a `*` only
        // where its notation has them or the move needs one.
        let directions = live.directions;
        let mut token = bao_replay::spell_token(&mv, &before, directions, self.notation);
        token.claims_takasia = trace.takasia_set().is_some();
        token.claims_win = trace.outcome.is_some_and(|o| o.winner == Some(trace.mover));
        let mut new = MoveItem::new(token);
        new.nags.clone_from(&item.nags);
        self.game_mut()
            .movetext
            .push(Spanned::bare(Element::Move(new)));
        // The caller's comment after the ply (a clock), in the same write; not after a ply
        // that ends the game.
        if let Some(note) = self.note.take().filter(|_| trace.outcome.is_none()) {
            self.game_mut()
                .movetext
                .push(Spanned::bare(Element::Comment(
                    bao_notation::Comment::brace(&note),
                )));
        }
        if let Some(live) = &mut self.live {
            live.positions.push(next);
        }
        let outcome = trace.outcome;
        let played = Reply::Played(Played {
            before,
            trace: trace.into_trace(),
            rules,
        });
        if let Some(o) = outcome {
            let (result, ending) = (result_of(o.winner), Ending::Rules(o.reason));
            self.write_result(result, ending);
            self.save()?;
            out.push(played);
            out.push(self.game_over(result, ending));
            return self.after_game(out);
        }
        self.save()?;
        out.push(played);
        out.push(self.board());
        Ok(())
    }
}

/// The refusal of a move left undecided within the session's lap budget.
pub(super) fn over_budget(u: bao_core::Undecided) -> Reply {
    Reply::Refused(Refusal::LapBudget {
        laps_run: u.laps_run,
    })
}
