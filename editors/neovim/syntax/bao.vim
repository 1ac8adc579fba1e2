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
syntax match baoPit /\<[ABab][1-8]\>/ nextgroup=baoSign
syntax match baoSign /[<>LR]\?\(\*\*\|\*\)\?+\?#\?/ contained
syntax match baoNag /\$\d\+/
syntax match baoGlyph /[!?]\{1,2}/
syntax region baoAnnotation start=/\[\ze\s*x\?[ABab]\d/ end=/\]/ oneline
syntax match baoResult /\(1-0\|0-1\|1\/2-1\/2\|\*\)\s*$/
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
