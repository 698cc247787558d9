-- Neovim's own LSP client against cuda-roofline-lsp, headless (Neovim 0.7,
-- Debian 12's). Opens a copy of the bundled naive GEMM, waits for the
-- diagnostics, hovers on the kernel, rewrites the thread mapping to the
-- coalesced one and waits for the warning to go. Prints one line per step
-- ("nvim-lsp: ..."), then quits with status 0, or 1 at the first failure.
-- Environment: ROOFLINE_LSP (the server), ROOFLINE_FILE (the copy to open).
local server = os.getenv('ROOFLINE_LSP')
local file = os.getenv('ROOFLINE_FILE')

local function out(msg)
  io.stdout:write('nvim-lsp: ' .. msg .. '\n')
  io.stdout:flush()
end

local function fail(msg)
  out('FAILED: ' .. msg)
  vim.cmd('cquit 1')
end

local function uncoalesced(bufnr)
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    if d.code == 'roofline-uncoalesced-access' then
      table.insert(found, d)
    end
  end
  table.sort(found, function(a, b)
    return a.lnum < b.lnum or (a.lnum == b.lnum and a.col < b.col)
  end)
  return found
end

vim.cmd('edit ' .. vim.fn.fnameescape(file))
local bufnr = vim.api.nvim_get_current_buf()
local client_id = vim.lsp.start_client({
  name = 'cuda-roofline',
  cmd = { server },
  root_dir = vim.fn.fnamemodify(file, ':h'),
  flags = { debounce_text_changes = 0 },
})
if not client_id then
  fail('the server did not start')
end
vim.lsp.buf_attach_client(bufnr, client_id)

-- 1. Diagnostics: the load of A[row * K + k] (line 15, column 14) and the
-- load and store of C are uncoalesced.
if not vim.wait(120000, function() return #uncoalesced(bufnr) > 0 end, 100) then
  fail('no uncoalesced-access diagnostic within 120 s')
end
local first = uncoalesced(bufnr)[1]
out(string.format('diagnostic %s at %d:%d (%s): %s', first.code,
  first.lnum + 1, first.col + 1, vim.diagnostic.severity[first.severity],
  first.message))

-- 2. Hover on the kernel's name (line 8, column 17).
local params = {
  textDocument = { uri = vim.uri_from_bufnr(bufnr) },
  position = { line = 7, character = 18 },
}
local replies = vim.lsp.buf_request_sync(bufnr, 'textDocument/hover', params, 60000)
local text
for _, r in pairs(replies or {}) do
  if r.result and r.result.contents then
    text = r.result.contents.value
  end
end
if not text then
  fail('no hover on the kernel')
end
for line in text:gmatch('[^\n]+') do
  if line:match('^  flops fp32') or line:match('^  global load bytes') then
    out('hover ' .. line:gsub('%s+', ' '))
  end
end

-- 3. Thread x indexes the column, y the row: every access is coalesced or
-- a broadcast, and the warnings go.
local lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
for i, l in ipairs(lines) do
  if l:match('int row = blockIdx%.x %* BX %+ threadIdx%.x;') then
    lines[i] = '  int row = blockIdx.y * BY + threadIdx.y;'
  elseif l:match('int col = blockIdx%.y %* BY %+ threadIdx%.y;') then
    lines[i] = '  int col = blockIdx.x * BX + threadIdx.x;'
  end
end
vim.api.nvim_buf_set_lines(bufnr, 0, -1, false, lines)
if not vim.wait(120000, function() return #uncoalesced(bufnr) == 0 end, 100) then
  fail('the uncoalesced-access diagnostics stayed after the edit')
end
out('after the edit: ' .. #uncoalesced(bufnr) .. ' uncoalesced-access diagnostics')
vim.lsp.stop_client(client_id)
vim.cmd('qall!')
