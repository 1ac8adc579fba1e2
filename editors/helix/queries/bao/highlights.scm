; Highlights of Bao records (.bao) in Helix: editors/tree-sitter-bao/queries/highlights.scm
; with Helix's scope names (copy this folder to ~/.config/helix/runtime/queries/bao).

(tag_name) @tag
(tag value: (string) @string)
(tag [ "[" "]" ] @punctuation.bracket)

(move_number) @constant.numeric.integer
(move) @constant
(nag) @attribute
(annotation) @string.special
(result) @keyword

(variation [ "(" ")" ] @punctuation.bracket)

(comment) @comment
(invalid_token) @error
