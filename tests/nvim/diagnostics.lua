-- Neovim's built-in LSP client against `syncdef lsp`: opens the definition named by
-- $SYNCDEF_NVIM_FILE (it has a misspelt module), prints the diagnostics it receives, then edits
-- the buffer (Neovim sends the edit as an incremental didChange) and prints them again.
-- Each line: `phase<TAB>line:column<TAB>code<TAB>message`. Exit status 0 when both phases got
-- diagnostics, 1 otherwise, with the reason on stderr.
local bin = os.getenv('SYNCDEF_NVIM_BIN')
local file = os.getenv('SYNCDEF_NVIM_FILE')

local function fail(reason)
  io.stderr:write('tests/nvim: ' .. reason .. '\n')
  vim.cmd('cquit 1')
end

local function print_diagnostics(phase, buf)
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    local message = d.message:gsub('\n', ' ')
    io.stdout:write(string.format('%s\t%d:%d\t%s\t%s\n', phase, d.lnum + 1, d.col + 1, tostring(d.code), message))
  end
end

vim.cmd('edit ' .. vim.fn.fnameescape(file))
local buf = vim.api.nvim_get_current_buf()
local config = { name = 'syncdef', cmd = { bin, 'lsp' }, root_dir = vim.fn.fnamemodify(file, ':h') }
if vim.lsp.start then
  -- Neovim 0.8 and later.
  vim.lsp.start(config)
else
  local id = vim.lsp.start_client(config)
  if not id then
    return fail('the client could not start ' .. bin)
  end
  vim.lsp.buf_attach_client(buf, id)
end

local function codes()
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    out[tostring(d.code)] = true
  end
  return out
end

if not vim.wait(30000, function() return codes()['SD601'] end, 50) then
  return fail('no SD601 diagnostic after opening the file')
end
print_diagnostics('open', buf)

-- Fix the module and misspell an operation path: the diagnostics follow the edits.
local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
for i, line in ipairs(lines) do
  local s, e = line:find('Acounts', 1, true)
  if s then
    vim.api.nvim_buf_set_text(buf, i - 1, s - 1, i - 1, e, { 'Accounts' })
  end
  local p = line:find('create: /invoice/post', 1, true)
  if p then
    local at = p + #'create: /'
    vim.api.nvim_buf_set_text(buf, i - 1, at - 1, i - 1, at - 1 + #'invoice', { 'invioce' })
  end
end
local changed = function()
  local c = codes()
  return c['SD202'] and not c['SD601']
end
if not vim.wait(30000, changed, 50) then
  print_diagnostics('stale', buf)
  return fail('the diagnostics did not follow the edit (SD202 expected, SD601 gone)')
end
print_diagnostics('change', buf)
vim.cmd('qall!')
