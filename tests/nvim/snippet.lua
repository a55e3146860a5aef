-- One editor-setup snippet of docs/editor-setup.md, run as a user's init.lua would run it:
-- loads $SYNCDEF_SNIPPET, opens $SYNCDEF_NVIM_FILE (a definition under a `catalog/` folder,
-- with a misspelt module, `syncdef` on the PATH) and waits for the server's SD601.
-- Prints `ran<TAB>SD601` when the snippet attached the server, or `skipped<TAB>why` when the
-- snippet needs an API this Neovim does not have (it is then only loaded, for its syntax).
-- Exit status 1, with the reason on stderr, when the snippet fails.
local snippet = os.getenv('SYNCDEF_SNIPPET')
local file = os.getenv('SYNCDEF_NVIM_FILE')

local function fail(reason)
  io.stderr:write('tests/nvim/snippet.lua: ' .. reason .. '\n')
  vim.cmd('cquit 1')
end

local handle = io.open(snippet, 'r')
if not handle then
  return fail('cannot read ' .. snippet)
end
local text = handle:read('*a')
handle:close()
local chunk, syntax = loadstring(text, snippet)
if not chunk then
  return fail('the snippet is not Lua: ' .. syntax)
end

-- What each snippet may need, and whether this Neovim has it.
local needs = {
  { 'vim.lsp.config', function() return vim.lsp.config ~= nil end, 'Neovim 0.11' },
  { "require('lspconfig", function() return pcall(require, 'lspconfig') end, 'the nvim-lspconfig plugin' },
  { 'vim.lsp.start(', function() return vim.lsp.start ~= nil end, 'Neovim 0.8' },
  { 'vim.fs.', function() return vim.fs ~= nil end, 'Neovim 0.8' },
}
for _, need in ipairs(needs) do
  if text:find(need[1], 1, true) and not need[2]() then
    local v = vim.version()
    io.stdout:write(string.format('skipped\tneeds %s (this is %d.%d.%d)\n', need[3], v.major, v.minor, v.patch))
    vim.cmd('qall!')
    return
  end
end

local ok, problem = pcall(chunk)
if not ok then
  return fail('the snippet failed: ' .. tostring(problem))
end
vim.cmd('edit ' .. vim.fn.fnameescape(file))
local buf = vim.api.nvim_get_current_buf()
local function reported()
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if tostring(d.code) == 'SD601' then
      return true
    end
  end
  return false
end
if not vim.wait(30000, reported, 50) then
  return fail('no SD601 from the server the snippet should have started')
end
io.stdout:write('ran\tSD601\n')
vim.cmd('qall!')
