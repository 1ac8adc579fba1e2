" Bao records: comments are `; ...` to the end of the line or `{ ... }`.
if exists('b:did_ftplugin')
  finish
endif
let b:did_ftplugin = 1
setlocal commentstring=;\ %s
setlocal comments=:;
" One fold per game (autoload/bao.vim), open when the file is opened.
setlocal foldmethod=expr foldexpr=bao#fold(v:lnum) foldlevel=99
let b:undo_ftplugin = 'setlocal commentstring< comments< foldmethod< foldexpr< foldlevel<'
