" Vim syntax file for Bao records (.bao, spec/notation.md).
if exists('b:current_syntax')
  finish
endif

" Tag pairs: [Name "value"]
syntax match baoTagName /\[\s*\zs[A-Za-z][A-Za-z0-9_]*/ contained
syntax region baoTagValue start=/"/ skip=/\\"/ end=/"/ contained
syntax match baoTag /^\s*\[[A-Za-z][A-Za-z0-9_]*\s*".*"\s*\]/ contains=baoTagName,baoTagValue

" Movetext
syntax match baoMoveNumber /\<\d\+\.\(\.\.\)\?/
" A pit, then its sign and marks: `A6<*`, K.I.B.A.'s `A6L*`, `a6R`, `a5l`, `A8+`, and a pit
" alone (`a8`). The pit ends at a sign, a mark, a glyph or the word's end.
syntax match baoPit /\<[ABab][1-8]\ze\%([<>LRlr*+#!?]\|\>\)/ nextgroup=baoSign
syntax match baoSign /[<>LRlr]\?\%(\*\*\|\*\)\?+\?#\?/ contained
syntax match baoNag /\$\d\+/
syntax match baoGlyph /[!?]\{1,2}/
syntax region baoAnnotation start=/\[\ze\s*x\?[ABab]\d/ end=/\]/ oneline
" A result stands alone between blanks (a `*` after a move is its takasa mark).
syntax match baoResult /\%(^\|\s\)\zs\%(1-0\|0-1\|1\/2-1\/2\|\*\)\ze\%(\s\|$\)/
syntax region baoVariation start=/(/ end=/)/ transparent contains=ALLBUT,baoTag,baoTagName,baoTagValue

" Comments
syntax region baoComment start=/{/ end=/}/
syntax match baoLineComment /;.*$/

highlight default link baoTagName Identifier
highlight default link baoTagValue String
highlight default link baoMoveNumber Number
highlight default link baoPit Constant
highlight default link baoSign Operator
highlight default link baoNag Special
highlight default link baoGlyph Special
highlight default link baoAnnotation PreProc
highlight default link baoResult Keyword
highlight default link baoComment Comment
highlight default link baoLineComment Comment

let b:current_syntax = 'bao'
