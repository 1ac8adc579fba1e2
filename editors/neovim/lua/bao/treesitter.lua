-- Tree-sitter for Bao records: the grammar of editors/tree-sitter-bao, when a `bao` parser
-- is installed; otherwise the syntax file (syntax/bao.vim) and its folds stay.
--
-- Where the parser comes from:
--   * nvim-treesitter (either branch): `:TSInstall bao` builds it from editors/tree-sitter-bao
--     of this checkout (registered below when nvim-treesitter is there);
--   * or by hand: `cc -shared -fPIC -O2 -I src src/parser.c -o ~/.local/share/nvim/site/parser/bao.so`
--     in editors/tree-sitter-bao (any `parser/bao.so` on 'runtimepath').
-- The queries are this package's queries/bao (copies of the grammar's).
local M = {}

-- editors/tree-sitter-bao of the checkout this file is in (editors/neovim/lua/bao/).
local function grammar_dir()
  local source = debug.getinfo(1, 'S').source
  if source:sub(1, 1) ~= '@' then
    return nil
  end
  local dir = vim.fn.fnamemodify(source:sub(2), ':p:h:h:h:h') .. '/tree-sitter-bao'
  if vim.fn.filereadable(dir .. '/src/parser.c') == 1 then
    return dir
  end
  return nil
end

-- Tells nvim-treesitter where the grammar is, so that `:TSInstall bao` can build it.
local registered = false
local function register()
  if registered then
    return
  end
  registered = true
  local ok, parsers = pcall(require, 'nvim-treesitter.parsers')
  local dir = grammar_dir()
  if not ok or type(parsers) ~= 'table' or dir == nil then
    return
  end
  if type(parsers.get_parser_configs) == 'function' then
    -- The `master` branch.
    local configs = parsers.get_parser_configs()
    if configs.bao == nil then
      configs.bao = {
        install_info = { url = dir, files = { 'src/parser.c' } },
        filetype = 'bao',
      }
    end
  elseif parsers.bao == nil then
    -- The `main` branch: a table of parsers by name.
    parsers.bao = { install_info = { path = dir } }
  end
end

-- Whether a `bao` parser can be loaded (0.9 and later: language.add; 0.7, 0.8:
-- require_language).
function M.available()
  local ts = vim.treesitter
  if ts == nil then
    return false
  end
  if ts.language and ts.language.add then
    local ok, res, err = pcall(ts.language.add, 'bao')
    return ok and res ~= false and err == nil
  end
  local require_language = ts.require_language or (ts.language and ts.language.require_language)
  if require_language then
    local ok, res = pcall(require_language, 'bao', nil, true)
    return ok and res == true
  end
  return false
end

-- Starts tree-sitter highlighting (and, from 0.10, its folds: games, variations, comments)
-- in `buf` when a parser is there; returns whether it did.
function M.start(buf)
  register()
  if not M.available() then
    return false
  end
  local ts = vim.treesitter
  if ts.start then
    -- 0.8 and later; this turns the syntax file off.
    ts.start(buf, 'bao')
  else
    -- 0.7.
    ts.highlighter.new(ts.get_parser(buf, 'bao'))
    vim.api.nvim_buf_set_option(buf, 'syntax', '')
  end
  if ts.foldexpr and buf == vim.api.nvim_get_current_buf() then
    vim.wo.foldexpr = 'v:lua.vim.treesitter.foldexpr()'
  end
  return true
end

return M
