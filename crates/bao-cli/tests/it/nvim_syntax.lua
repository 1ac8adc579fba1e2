-- Run by tests/it/lsp.rs in a headless Neovim: the editors/neovim syntax file on the lines
-- of $BAO_LINES (separated by `|`); each character's syntax group (blanks left out) is
-- written, a line of `char=group` words for each line, to $BAO_OUT.
vim.opt.runtimepath:append(os.getenv('BAO_NVIM'))
vim.cmd('syntax on')
local lines = vim.split(os.getenv('BAO_LINES'), '|', true)
vim.api.nvim_buf_set_lines(0, 0, -1, false, lines)
vim.cmd('set filetype=bao')
local out = {}
for l = 1, #lines do
  local line = vim.fn.getline(l)
  local names = {}
  for c = 1, #line do
    if line:sub(c, c) ~= ' ' then
      table.insert(names, line:sub(c, c) .. '=' .. vim.fn.synIDattr(vim.fn.synID(l, c, 1), 'name'))
    end
  end
  table.insert(out, table.concat(names, ' '))
end
-- The folds of a record of two games (ftplugin/bao.vim): each line's fold start, the last
-- line written.
vim.cmd('enew')
vim.api.nvim_buf_set_lines(0, 0, -1, false, {
  '[Event "a"]', '[Site "x"]', '', '1. A6<* *', '', '[Event "b"]', '', '1. A6<* *',
})
vim.cmd('set filetype=bao')
vim.cmd('normal! zM')
local closed = {}
for l = 1, 8 do
  table.insert(closed, tostring(vim.fn.foldclosed(l)))
end
table.insert(out, table.concat(closed, ' '))
vim.fn.writefile(out, os.getenv('BAO_OUT'))
vim.cmd('qa!')
