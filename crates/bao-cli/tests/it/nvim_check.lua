-- Run by tests/it/lsp.rs in a headless Neovim (0.7 or later): the editors/neovim setup
-- attaches `bao lsp` to a record, then the diagnostics, a hover and a completion read
-- through Neovim's own LSP client are written as JSON to $BAO_OUT.
local out = os.getenv('BAO_OUT')
local function finish(result)
  vim.fn.writefile({ vim.fn.json_encode(result) }, out)
  vim.cmd('qa!')
end

local ok, err = pcall(function()
  vim.opt.runtimepath:append(os.getenv('BAO_NVIM'))
  -- --clean turned filetype detection on before the runtimepath held editors/neovim.
  vim.cmd('runtime! ftdetect/*.vim')
  require('bao').setup({ cmd = { os.getenv('BAO'), 'lsp' } })
  vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('BAO_FILE')))
  local buf = vim.api.nvim_get_current_buf()
  local result = { filetype = vim.bo[buf].filetype }
  vim.wait(20000, function()
    return #vim.diagnostic.get(buf) > 0
  end, 50)
  result.diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(result.diagnostics, { lnum = d.lnum, col = d.col, code = d.code, message = d.message })
  end
  local uri = vim.uri_from_bufnr(buf)
  local function ask(method, line, character)
    local answers = vim.lsp.buf_request_sync(buf, method,
      { textDocument = { uri = uri }, position = { line = line, character = character } }, 20000)
    for _, a in pairs(answers or {}) do
      if a.result then
        return a.result
      end
    end
    return vim.NIL
  end
  result.omnifunc = vim.bo[buf].omnifunc
  result.k = vim.fn.maparg('K', 'n')
  result.hover = ask('textDocument/hover', tonumber(os.getenv('BAO_HOVER_LINE')), 4)
  result.completion = ask('textDocument/completion', tonumber(os.getenv('BAO_COMPLETE_LINE')), 0)
  finish(result)
end)
if not ok then
  finish({ error = tostring(err) })
end
