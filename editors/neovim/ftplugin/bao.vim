" Bao records: comments are `; ...` to the end of the line or `{ ... }`.
if exists('b:did_ftplugin')
  finish
endif
let b:did_ftplugin = 1
setlocal commentstring=;\ %s
setlocal comments=:;
" One fold per game (autoload/bao.vim), open when the file is opened.
setlocal foldmethod=expr foldexpr=bao#fold(v:lnum) foldlevel=99
" Tree-sitter highlighting (and folds from Neovim 0.10) when a `bao` parser is installed
" (lua/bao/treesitter.lua); otherwise the syntax file.
if has('nvim-0.7')
  " After the other FileType handlers (the syntax file is set by one of them).
  lua local b = vim.api.nvim_get_current_buf(); vim.schedule(function() if vim.api.nvim_buf_is_valid(b) then require("bao.treesitter").start(b) end end)
endif
let b:undo_ftplugin = 'setlocal commentstring< comments< foldmethod< foldexpr< foldlevel<'
