-- Run by tests/it/lsp.rs in a headless Neovim (0.7 or later): the editors/neovim setup
-- attaches `bao lsp` to a record, :BaoBoard opens the side window, and the cursor is put on
-- each move of $BAO_CURSORS ("line,column;…", 0-based); after each the side window's text
-- (once it shows another ply) is written, all of them as JSON to $BAO_OUT.
local out = os.getenv('BAO_OUT')
local function finish(result)
  vim.fn.writefile({ vim.fn.json_encode(result) }, out)
  vim.cmd('qa!')
end

local ok, err = pcall(function()
  vim.opt.runtimepath:append(os.getenv('BAO_NVIM'))
  vim.cmd('runtime! ftdetect/*.vim')
  local bao = require('bao')
  bao.setup({ cmd = { os.getenv('BAO'), 'lsp' } })
  vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('BAO_FILE')))
  local buf = vim.api.nvim_get_current_buf()
  -- The server is running once the record's diagnostics are in.
  vim.wait(20000, function()
    return #vim.diagnostic.get(buf) > 0
  end, 50)
  local result = { windows_before = #vim.api.nvim_list_wins() }
  vim.cmd('BaoBoard')
  result.windows = #vim.api.nvim_list_wins()
  result.boards = {}
  local shown = ''
  for spec in vim.gsplit(os.getenv('BAO_CURSORS'), ';', true) do
    local line, col = spec:match('(%d+),(%d+)')
    vim.api.nvim_win_set_cursor(0, { tonumber(line) + 1, tonumber(col) })
    vim.cmd('doautocmd CursorMoved')
    vim.wait(20000, function()
      local first = bao.board_text()[1] or ''
      return first:match('^Ply') ~= nil and first ~= shown
    end, 20)
    local text = bao.board_text()
    shown = text[1] or ''
    table.insert(result.boards, text)
  end
  finish(result)
end)
if not ok then
  finish({ error = tostring(err) })
end
