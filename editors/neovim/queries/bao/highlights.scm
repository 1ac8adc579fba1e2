; Highlights of Bao records (.bao): the capture names of tree-sitter's highlighter and
; Neovim. editors/helix/queries/bao/highlights.scm has the same patterns with Helix's names.

(tag_name) @tag
(tag value: (string) @string)
(tag [ "[" "]" ] @punctuation.bracket)

(move_number) @number
(move) @constant
(nag) @attribute
(annotation) @string.special
(result) @keyword

(variation [ "(" ")" ] @punctuation.bracket)

(comment) @comment
(invalid_token) @error
