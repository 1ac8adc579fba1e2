" Folding of Bao records: one fold per game, from its first tag line (a tag line after a line
" that is no tag line) to the line before the next game's.
function! bao#fold(lnum) abort
  let line = getline(a:lnum)
  if line =~# '^\s*\[\s*\a\w*\s*"' && (a:lnum == 1 || getline(a:lnum - 1) !~# '^\s*\[\s*\a\w*\s*"')
    return '>1'
  endif
  return '='
endfunction
