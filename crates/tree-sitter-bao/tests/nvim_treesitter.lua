-- Run by tests/neovim.rs in a headless Neovim, with editors/neovim and a folder holding
-- parser/bao.so (the committed parser.c compiled) on 'runtimepath': opens $BAO_FILE, lets
-- the ftplugin start tree-sitter, and writes to $BAO_OUT what Neovim then has: whether the
-- highlighter is on, the syntax option, whether the tree has an error, and each capture of
-- the package's highlight query as `text=capture`, one a line.
vim.opt.runtimepath:append(os.getenv('BAO_NVIM'))
vim.opt.runtimepath:append(os.getenv('BAO_PARSER'))
vim.cmd('filetype plugin on')
vim.cmd('syntax on')
vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('BAO_FILE')))
-- (ftdetect/bao.vim of a folder added to 'runtimepath' after startup is not read: the
-- filetype is set as the detection would.)
vim.cmd('set filetype=bao')
-- The ftplugin starts tree-sitter once the FileType handlers are done (vim.schedule).
vim.wait(1000, function()
  return vim.treesitter.highlighter.active[vim.api.nvim_get_current_buf()] ~= nil
end)
local buf = vim.api.nvim_get_current_buf()
local out = {}
table.insert(out, 'highlighter=' .. tostring(vim.treesitter.highlighter.active[buf] ~= nil))
table.insert(out, 'syntax=' .. vim.bo[buf].syntax)
local parser = vim.treesitter.get_parser(buf, 'bao')
local tree = parser:parse()[1]
local root = tree:root()
table.insert(out, 'error=' .. tostring(root:has_error()))
local get_query = vim.treesitter.get_query or vim.treesitter.query.get
local query = get_query('bao', 'highlights')
for id, node in query:iter_captures(root, buf, 0, -1) do
  local sr, sc, er, ec = node:range()
  local text = vim.api.nvim_buf_get_text and table.concat(vim.api.nvim_buf_get_text(buf, sr, sc, er, ec, {}), '\n')
    or vim.treesitter.get_node_text(node, buf)
  table.insert(out, text .. '=' .. query.captures[id])
end
local folds = get_query('bao', 'folds')
local n = 0
for _ in folds:iter_captures(root, buf, 0, -1) do
  n = n + 1
end
table.insert(out, 'folds=' .. n)
vim.fn.writefile(out, os.getenv('BAO_OUT'))
vim.cmd('qa!')
