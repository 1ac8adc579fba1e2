/**
 * Tree-sitter grammar for Bao records (`.bao`), spec/notation.md.
 *
 * The tokens are the notation's (§2): a token is a run of characters that are not
 * whitespace and not one of `{ } ( ) [ ] ; " $`, classified by its text. A word that is no
 * move, number, glyph or result is an `invalid_token` (the validator's `unexpected_token` or
 * `bad_move`), so that a record being typed still gets a tree without error nodes around it.
 * Comments are extras: they may stand anywhere, as in the notation.
 */
module.exports = grammar({
  name: 'bao',

  // Whitespace (spec §1: ASCII only) and a byte order mark (skipped at the start).
  extras: $ => [/[ \t\r\n\v\f\uFEFF]/, $.comment],

  rules: {
    source_file: $ => repeat($.game),

    // A game is its header (tag pairs), its movetext and its result (§3). A tag pair after
    // movetext starts the next game; so does anything after a result.
    game: $ => prec.right(choice(
      seq($.header, repeat($._element), optional($.result)),
      seq(repeat1($._element), optional($.result)),
      $.result,
    )),

    header: $ => prec.right(repeat1($.tag)),

    tag: $ => seq('[', field('name', $.tag_name), field('value', $.string), ']'),

    tag_name: _ => /[A-Za-z][A-Za-z0-9_]*/,

    // A string unclosed at the end of its line ends there (no token is read twice: a lexer
    // that looked ahead for the closing quote and went back would be quadratic on `"` x N).
    string: _ => token(seq('"', repeat(choice(/[^"\\\n]/, /\\[^\n]/)), optional('"'))),

    _element: $ => choice(
      $.move_number,
      $.move,
      $.nag,
      $.annotation,
      $.variation,
      $.invalid_token,
    ),

    // `12.` before South's move, `12...` before North's; it may be glued to its move.
    move_number: _ => /[0-9]+\.(\.\.)?/,

    // A pit (`A6`, K.I.B.A.'s and the namua's row-less `6`), a sign (`<` `>` or K.I.B.A.'s
    // `L` `R` in either case), takasa `*` or takasia-creating `**`, safari `+`, win `#`.
    move: _ => /[ABab]?[1-8][<>LRlr]?(\*\*?)?\+?#?/,

    // A glyph (glued to its move or standing alone) or a numeric NAG.
    nag: _ => choice(/!!|\?\?|!\?|\?!|!|\?/, /\$[0-9]+/),

    // A lap/capture annotation: `[xa5:3 A6 xa4:2]`, `[B2:2 cycle:1+228]`, `[]`.
    // Its text holds no `[`, `"` or line end, so the lexer's look-ahead for the `]` stops at
    // the next `[` (a tag's or another annotation's) and no byte is looked at twice.
    annotation: _ => token(prec(1, seq('[', /[^\[\]"\n]*/, ']'))),

    variation: $ => seq('(', repeat($._element), ')'),

    result: _ => choice('1-0', '0-1', '1/2-1/2', '*'),

    // Any other word (a token the validator reports): lowest precedence, so that a move
    // number glued to its move, a glyph glued to a move and a result are read first.
    invalid_token: _ => token(prec(-1, /[^ \t\r\n\v\f{}()\[\];"$]+/)),

    comment: _ => token(choice(
      // An unclosed brace comment runs to the end of the text (as the notation reads it,
      // `unterminated_comment`), without a look-ahead that would be read again.
      seq('{', /[^}]*/, optional('}')),
      seq(';', /[^\n]*/),
    )),
  },
});
