//! The fast path of movetext: runs of the common words (moves and move numbers).

use super::movetext::{give_move, MoveRead};
use super::parser::Parser;
use super::state::{Frame, Run, SKIP_REST};
use crate::ast::{sp, MoveNumber};
use crate::lexical::{fast_token, is_ws, FastToken};
use crate::span::Span;
use crate::steps::step;
use crate::visit::Visitor;

impl<'s> Parser<'s> {
    /// Reads a run of the common words from `at` (moves and move numbers as
    /// [`fast_token`] reads them, and the whitespace after them), as the movetext loop
    /// would, in the state `run` of that loop and its line stack; returns where the run
    /// stops (`at` when there is none). Anything unusual is left to the movetext loop.
    /// Inlined there, so that the state stays in registers on either side of the call.
    #[inline(always)]
    pub(super) fn fast_run<V: Visitor>(
        &mut self,
        v: &mut V,
        mut at: usize,
        run: &mut Run,
        stack: &mut [Frame],
    ) -> usize {
        let text: &'s [u8] = &self.bytes[..self.end];
        // In locals (registers) during the run.
        let Run {
            mut pending,
            mut last_end,
            mut plies_left,
            mut discard,
            mut over,
            mut begun,
            game_start,
        } = *run;
        loop {
            let Some((token, next)) = fast_token(text, at) else {
                // Whitespace still there after a word (a line end, blanks): skipped, and the
                // run goes on; anything else ends it.
                match text.get(at) {
                    Some(&c) if is_ws(c) => {
                        let from = at;
                        at += 1;
                        while at < text.len() && is_ws(text[at]) {
                            at += 1;
                        }
                        step(at - from);
                        continue;
                    }
                    _ => break,
                }
            };
            step(next - at + 1);
            match token {
                FastToken::Move((token, glyph, token_end, we)) => {
                    last_end = we;
                    let number = pending.take();
                    if discard == 0 {
                        if self.admit_move(&mut plies_left, Span::new(at, token_end)) {
                            if !begun {
                                begun = true;
                                v.begin_game(game_start);
                            }
                            give_move(
                                v,
                                stack,
                                MoveRead {
                                    number,
                                    token,
                                    glyph,
                                    start: at,
                                    token_end,
                                    end: we,
                                },
                            );
                            // Its annotation, when it follows at once and has the usual
                            // shape (else the movetext loop reads it).
                            if text.get(next) == Some(&b'[') {
                                let Some(end) = self.fast_annotation(next) else {
                                    at = next;
                                    break;
                                };
                                last_end = end;
                                if let Some(top) = stack.last_mut() {
                                    top.annotated();
                                }
                                v.annotation(&self.scratch.items, None, Span::new(next, end));
                                at = end + usize::from(text.get(end) == Some(&b' '));
                                continue;
                            }
                        } else {
                            over = true;
                            discard = SKIP_REST;
                        }
                    }
                }
                FastToken::Number(n, ne) => {
                    last_end = ne;
                    if let Some(n) = pending.take() {
                        self.orphan_number(n);
                    }
                    pending = Some(sp(
                        MoveNumber {
                            number: n,
                            ellipsis: false,
                        },
                        at,
                        ne,
                    ));
                }
            }
            at = next;
        }
        *run = Run {
            pending,
            last_end,
            plies_left,
            discard,
            over,
            begun,
            game_start,
        };
        at
    }
}
