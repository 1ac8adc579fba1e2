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

local function attach(bufnr, opts)
  local config = {
    name = 'bao',
    cmd = opts.cmd,
    root_dir = root_dir(bufnr),
    init_options = opts.init_options,
    on_attach = opts.on_attach,
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

function M.setup(user)
  local opts = vim.tbl_deep_extend('force', defaults, user or {})
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
