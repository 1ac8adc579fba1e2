-- bao.nvim: the `bao lsp` language server for Bao records (.bao) in Neovim.
--
--   require('bao').setup()                       -- `bao` on PATH
--   require('bao').setup({ cmd = { '/path/to/bao', 'lsp' },
--                          init_options = { inlayHints = true, lapBudget = 100000 } })
--
-- Neovim 0.8 and later start the server with vim.lsp.start; 0.7 with vim.lsp.start_client
-- and vim.lsp.buf_attach_client (one client shared by every .bao buffer).
local M = {}

local defaults = {
  cmd = { 'bao', 'lsp' },
  init_options = {},
}

local client_id = nil

local function root_dir(bufnr)
  local name = vim.api.nvim_buf_get_name(bufnr)
  local dir = vim.fn.fnamemodify(name, ':p:h')
  if dir == '' then
    return vim.loop.cwd()
  end
  return dir
end

-- What every Neovim from 0.7 gets in a .bao buffer the server attached to: completion by
-- omnifunc (<C-x><C-o>) and `K` for the hover (Neovim 0.10 and later set both themselves;
-- a mapping the user made is kept).
local function buffer_setup(client, bufnr)
  vim.api.nvim_buf_set_option(bufnr, 'omnifunc', 'v:lua.vim.lsp.omnifunc')
  if vim.fn.maparg('K', 'n') == '' or vim.fn.maparg('K', 'n'):match('lsp') then
    vim.api.nvim_buf_set_keymap(bufnr, 'n', 'K', '<Cmd>lua vim.lsp.buf.hover()<CR>',
      { noremap = true, silent = true, desc = 'bao: the hover' })
  end
end

local function attach(bufnr, opts)
  local config = {
    name = 'bao',
    cmd = opts.cmd,
    root_dir = root_dir(bufnr),
    init_options = opts.init_options,
    on_attach = function(client, buf)
      buffer_setup(client, buf)
      if opts.on_attach then
        opts.on_attach(client, buf)
      end
    end,
  }
  if vim.lsp.start then
    vim.lsp.start(config, { bufnr = bufnr })
    return
  end
  if client_id == nil or vim.lsp.get_client_by_id(client_id) == nil then
    client_id = vim.lsp.start_client(config)
  end
  if client_id then
    vim.lsp.buf_attach_client(bufnr, client_id)
  end
end

-- The board beside the cursor: a side window that shows, for the move under the cursor,
-- the boards before and after it (the server's `bao/boardAt`), also at and after an illegal
-- move (as `bao check --assume-fixes` replays the game). :BaoBoard opens and closes it.
local board = { buf = nil, win = nil, source = nil }

local function board_lines(r)
  if r == nil or r == vim.NIL then
    return { 'No move under the cursor.' }
  end
  local head = string.format('Ply %d, %s: %s', r.ply, r.mover, r.written)
  local lines = { head }
  if not r.legal then
    if r.repaired then
      table.insert(lines, string.format('not legal here; played: %s (the repair)', r.played))
    elseif r.played ~= nil and r.played ~= vim.NIL then
      table.insert(lines, 'after an illegal move')
    else
      table.insert(lines, 'not legal here; no clear repair')
    end
  end
  if r.assumes ~= nil and r.assumes ~= vim.NIL then
    table.insert(lines, string.format('assuming %s at ply %d (--assume-fixes)', r.assumes.move, r.assumes.ply))
  end
  if r.summary ~= nil and r.summary ~= vim.NIL then
    table.insert(lines, r.summary)
  end
  local function add(title, b)
    table.insert(lines, '')
    table.insert(lines, title)
    for l in vim.gsplit(b.text, '\n', true) do
      if l ~= '' then
        table.insert(lines, l)
      end
    end
  end
  add('Before:', r.before)
  if r.after ~= nil and r.after ~= vim.NIL then
    add('After:', r.after)
  end
  return lines
end

local function board_show(lines)
  if board.buf == nil or not vim.api.nvim_buf_is_valid(board.buf) then
    return
  end
  vim.api.nvim_buf_set_option(board.buf, 'modifiable', true)
  vim.api.nvim_buf_set_lines(board.buf, 0, -1, false, lines)
  vim.api.nvim_buf_set_option(board.buf, 'modifiable', false)
end

-- Asks the board at the cursor of the current window (a .bao buffer) and shows it.
function M.board_refresh()
  local buf = vim.api.nvim_get_current_buf()
  if board.win == nil or not vim.api.nvim_win_is_valid(board.win) or buf == board.buf then
    return
  end
  if vim.bo[buf].filetype ~= 'bao' then
    return
  end
  board.source = buf
  local params = vim.lsp.util.make_position_params()
  vim.lsp.buf_request(buf, 'bao/boardAt', params, function(err, result)
    -- Neovim 0.5.1 and later: (err, result, ctx, config).
    if err then
      board_show({ 'bao/boardAt: ' .. (err.message or tostring(err)) })
      return
    end
    board_show(board_lines(result))
  end)
end

-- Opens the side window (and follows the cursor in .bao buffers); closes it if open.
function M.board_toggle()
  if board.win ~= nil and vim.api.nvim_win_is_valid(board.win) then
    vim.api.nvim_win_close(board.win, true)
    board.win = nil
    return
  end
  local from = vim.api.nvim_get_current_win()
  if board.buf == nil or not vim.api.nvim_buf_is_valid(board.buf) then
    board.buf = vim.api.nvim_create_buf(false, true)
    vim.api.nvim_buf_set_name(board.buf, 'bao-board')
    vim.api.nvim_buf_set_option(board.buf, 'bufhidden', 'hide')
  end
  vim.cmd('botright vsplit')
  board.win = vim.api.nvim_get_current_win()
  vim.api.nvim_win_set_buf(board.win, board.buf)
  vim.api.nvim_win_set_width(board.win, 46)
  vim.api.nvim_win_set_option(board.win, 'number', false)
  vim.api.nvim_win_set_option(board.win, 'wrap', false)
  vim.api.nvim_set_current_win(from)
  local group = vim.api.nvim_create_augroup('bao_board', { clear = true })
  vim.api.nvim_create_autocmd({ 'CursorMoved', 'CursorMovedI', 'BufEnter' }, {
    group = group,
    pattern = '*.bao',
    callback = function()
      M.board_refresh()
    end,
  })
  M.board_refresh()
end

-- The text shown in the side window (for tests and scripts).
function M.board_text()
  if board.buf == nil or not vim.api.nvim_buf_is_valid(board.buf) then
    return {}
  end
  return vim.api.nvim_buf_get_lines(board.buf, 0, -1, false)
end

function M.setup(user)
  local opts = vim.tbl_deep_extend('force', defaults, user or {})
  vim.api.nvim_create_user_command('BaoBoard', function()
    M.board_toggle()
  end, { desc = 'The board at the cursor, beside the record (bao/boardAt)' })
  local group = vim.api.nvim_create_augroup('bao_lsp', { clear = true })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = 'bao',
    callback = function(args)
      attach(args.buf, opts)
    end,
  })
  -- Buffers already open.
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(buf) and vim.bo[buf].filetype == 'bao' then
      attach(buf, opts)
    end
  end
end

return M
