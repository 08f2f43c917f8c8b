-- reviewls: Neovim client for the reviewls code-review language server.
--
-- setup() starts one language client per git repository (the directory
-- holding `.git`, a file or a folder) for every file buffer inside one, and
-- defines the :Reviewls* commands. lspconfig() returns the same client
-- configuration for nvim-lspconfig, vim.lsp.config or vim.lsp.start.
--
-- Works on Neovim 0.7 (vim.lsp.start_client + buf_attach_client) and uses
-- vim.lsp.start where it exists (0.8+).
local compat = require('reviewls.compat')
local float = require('reviewls.float')
local show = require('reviewls.show')

local M = {}

local uv = vim.loop

-- The artifact folder the server writes into; its files are never attached.
local tracking_dir = '.copilot-tracking'

local defaults = {
  cmd = { 'reviewls', 'serve' },
  -- Server settings (scope, profile, depth, perspectives, quietWindow, base, codeLens),
  -- sent as initializationOptions and workspace/didChangeConfiguration.
  settings = {},
  -- nil: every filetype; else a list of filetypes to attach to.
  filetypes = nil,
  autostart = true,
  on_attach = nil,
  on_exit = nil,
  -- Extra client capabilities, merged over Neovim's defaults.
  capabilities = nil,
  -- Options of the floats that show findings: vim.diagnostic.open_float()
  -- (under the float options already set) and the hover. false: leave both
  -- as Neovim shows them.
  float = { border = 'rounded', max_width = 80 },
}

M.options = vim.deepcopy(defaults)

-- Client ids by repository root (0.7 keeps its own map; vim.lsp.start reuses
-- clients by name and root_dir itself).
local clients_by_root = {}
-- Commands whose binary is missing; each is reported once.
local missing_reported = {}
-- Latest reviewls/didReview summary by repository root (real path), and the
-- root of the most recent one.
local status_by_root = {}
local last_status_root = nil
-- Last result or error of each command: {seq, result, err}.
local last_by_command = {}
local seq = 0

local function notify(msg, level)
  vim.notify('reviewls: ' .. msg, level or vim.log.levels.INFO)
end

local function realpath(path)
  return uv.fs_realpath(path) or path
end

-- find_root returns the nearest directory at or above path's directory that
-- holds `.git` (a folder, or a file in worktrees and submodules), or nil.
function M.find_root(path)
  if not path or path == '' then
    return nil
  end
  local dir = vim.fn.fnamemodify(path, ':p')
  local stat = uv.fs_stat(dir)
  if not (stat and stat.type == 'directory') then
    dir = vim.fn.fnamemodify(dir, ':h')
  end
  dir = dir:gsub('(.)/$', '%1')
  while true do
    if uv.fs_stat((dir == '/' and '' or dir) .. '/.git') then
      return dir
    end
    local parent = vim.fn.fnamemodify(dir, ':h')
    if parent == dir then
      return nil
    end
    dir = parent
  end
end

-- status returns a statusline string such as
-- "reviewls: Needs more work 0.75 1C 0H 2M 1L" (the recommendation in
-- words, the confidence, the counts) for the repository of bufnr (the
-- current buffer by default; for a buffer outside any repository, the
-- latest review), or "" before the first review.
local root_of_name = {}
-- verdict_words says a verdict in words when a server sent no decision.
local verdict_words = {
  request_changes = 'Request changes',
  approve_with_comments = 'Approve with comments',
  approve = 'Approve',
}
function M.status(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  -- Statuslines call this on every redraw: remember each buffer's root.
  local name = vim.api.nvim_buf_get_name(bufnr)
  local root = root_of_name[name]
  if root == nil then
    root = M.find_root(name)
    root = root and realpath(root) or false
    root_of_name[name] = root
  end
  local s
  if root then
    s = status_by_root[root]
  elseif last_status_root then
    s = status_by_root[last_status_root]
  end
  if not s then
    return ''
  end
  local c = s.counts or {}
  local counts = string.format('%dC %dH %dM %dL', c.critical or 0, c.high or 0, c.medium or 0, c.low or 0)
  local d = s.decision
  if type(d) == 'table' and d.words then
    return string.format('reviewls: %s %.2f %s', d.words, tonumber(d.confidence) or 0, counts)
  end
  return string.format('reviewls: %s %s', verdict_words[s.verdict] or s.verdict or '?', counts)
end

-- last returns the last outcome of a reviewls command run through this
-- plugin ({seq = n, result = ..., err = ...}; seq grows with every outcome),
-- or nil.
function M.last(command)
  return last_by_command[command]
end

local function record(command, result, err)
  seq = seq + 1
  last_by_command[command] = { seq = seq, result = result, err = err }
end

-- configure replaces the server settings and sends them to every running
-- client.
function M.configure(settings)
  M.options.settings = settings or {}
  for _, client in ipairs(M.clients()) do
    compat.notify(client, 'workspace/didChangeConfiguration', { settings = { reviewls = M.options.settings } })
  end
end

-- clients returns the running reviewls clients, including those still
-- initializing (which 0.7's get_active_clients leaves out).
function M.clients()
  local out, seen = {}, {}
  for _, client in ipairs(compat.get_clients()) do
    if client.name == 'reviewls' then
      table.insert(out, client)
      seen[client.id] = true
    end
  end
  for _, id in pairs(clients_by_root) do
    local client = vim.lsp.get_client_by_id(id)
    if client and not seen[id] and not compat.is_stopped(client) then
      table.insert(out, client)
    end
  end
  return out
end

-- client_for returns the reviewls client for bufnr: the one attached to it,
-- else the one whose root holds the buffer or the working directory, else the
-- only one running.
function M.client_for(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local all = M.clients()
  for _, client in ipairs(all) do
    if compat.is_attached(bufnr, client.id) then
      return client
    end
  end
  for _, path in ipairs({ vim.api.nvim_buf_get_name(bufnr), vim.fn.getcwd() }) do
    local root = M.find_root(path)
    for _, client in ipairs(all) do
      if root and client.config.root_dir == root then
        return client
      end
    end
  end
  if #all == 1 then
    return all[1]
  end
  return nil
end

-- settle records a command's outcome and returns its result, or shows its
-- error with the server's message and returns false.
local function settle(command, err, result)
  if err then
    record(command, nil, err)
    notify(string.format('%s: %s', command, err.message or vim.inspect(err)), vim.log.levels.ERROR)
    return false
  end
  if result == vim.NIL then
    result = nil
  end
  record(command, result, nil)
  return true, result
end

-- execute runs a reviewls command on client: the result goes to on_result
-- (default: show it), an error is shown with the server's message.
function M.execute(client, command, arg, bufnr, on_result)
  local params = { command = command, arguments = { arg or vim.empty_dict() } }
  local ok = compat.request(client, 'workspace/executeCommand', params, function(err, result)
    local done, value = settle(command, err, result)
    if done then
      local present = on_result or show.result
      present(command, value, client)
    end
  end, bufnr)
  if not ok then
    notify(command .. ': the language server is not running', vim.log.levels.ERROR)
  end
end

-- Client-side handlers for the commands of code actions and code lenses:
-- Neovim calls these instead of sending workspace/executeCommand itself, so
-- each result is shown (explanations and investigations open in a split).
local function client_commands()
  local cmds = {}
  for _, name in ipairs({ 'reviewls.review', 'reviewls.walkthrough', 'reviewls.board', 'reviewls.bookmark', 'reviewls.explain', 'reviewls.sweep', 'reviewls.notes' }) do
    cmds[name] = function(command, ctx)
      local client = vim.lsp.get_client_by_id(ctx.client_id)
      if client then
        M.execute(client, command.command, (command.arguments or {})[1], ctx.bufnr)
      end
    end
  end
  -- Investigate asks for the question, offering the server's default.
  cmds['reviewls.investigate'] = function(command, ctx)
    local client = vim.lsp.get_client_by_id(ctx.client_id)
    local arg = vim.deepcopy((command.arguments or {})[1] or {})
    if not client then
      return
    end
    vim.ui.input({ prompt = 'Investigate ' .. tostring(arg.item) .. ': ', default = arg.question }, function(q)
      if q and q ~= '' then
        arg.question = q
        M.execute(client, command.command, arg, ctx.bufnr)
      end
    end)
  end
  return cmds
end

local handlers = {
  -- Neovim 0.7 has no window/showDocument handler; later versions open the
  -- document in the current window. reviewls uses its own everywhere: the
  -- file opens in a split, shared with the command result (see show.lua).
  ['window/showDocument'] = function(_, params)
    return show.document(params)
  end,
  ['reviewls/didReview'] = function(_, params)
    if type(params) ~= 'table' or type(params.root) ~= 'string' then
      return
    end
    local root = realpath(vim.uri_to_fname(params.root))
    status_by_root[root] = params
    last_status_root = root
    pcall(vim.cmd, 'redrawstatus!')
    if vim.fn.exists('#User#ReviewlsStatus') == 1 then
      vim.cmd('doautocmd <nomodeline> User ReviewlsStatus')
    end
  end,
  -- Results of workspace/executeCommand requests sent without a handler
  -- (e.g. vim.lsp.buf.execute_command): shown like the plugin's own.
  ['workspace/executeCommand'] = function(err, result, ctx)
    local command = ctx and ctx.params and ctx.params.command or 'workspace/executeCommand'
    local done, value = settle(command, err, result)
    local client = done and ctx and vim.lsp.get_client_by_id(ctx.client_id)
    if client and type(command) == 'string' and command:match('^reviewls%.') then
      show.result(command, value, client)
    end
  end,
}

local function capabilities(extra)
  local caps = vim.lsp.protocol.make_client_capabilities()
  caps = vim.tbl_deep_extend('force', caps, extra or {})
  caps.window = caps.window or {}
  caps.window.showDocument = { support = true }
  return caps
end

-- root_dir resolves the repository root for nvim-lspconfig (fname[, bufnr]
-- → root) and for vim.lsp.config (bufnr, on_dir).
local function root_dir(a, b)
  if type(a) == 'number' and type(b) == 'function' then
    local root = M.find_root(vim.api.nvim_buf_get_name(a))
    if root then
      b(root)
    end
    return
  end
  return M.find_root(a)
end

-- lspconfig returns the client configuration. Without opts.bufnr, root_dir
-- is a function (nvim-lspconfig, vim.lsp.config); with it, root_dir is that
-- buffer's repository root (nil outside a repository) for vim.lsp.start.
-- Other opts override setup()'s options.
function M.lspconfig(opts)
  opts = vim.tbl_extend('force', M.options, opts or {})
  local settings = opts.settings or {}
  local user_on_exit = opts.on_exit
  local config = {
    name = 'reviewls',
    cmd = opts.cmd,
    filetypes = opts.filetypes,
    root_markers = { '.git' },
    root_dir = root_dir,
    -- An empty Lua table would be sent as [] rather than {}.
    init_options = next(settings) and settings or nil,
    settings = { reviewls = next(settings) and settings or vim.empty_dict() },
    capabilities = capabilities(opts.capabilities),
    handlers = vim.tbl_extend('force', handlers, { ['textDocument/hover'] = float.hover(opts.float) }),
    commands = client_commands(),
    on_attach = opts.on_attach,
    on_init = function(client)
      -- Neovim 0.8+ sends the settings after initialize by itself.
      if vim.fn.has('nvim-0.8') == 0 and next(settings) then
        compat.notify(client, 'workspace/didChangeConfiguration', { settings = { reviewls = settings } })
      end
    end,
    on_exit = function(code, signal, client_id)
      -- Runs in a libuv callback: defer anything that touches the editor.
      vim.schedule(function()
        for root, id in pairs(clients_by_root) do
          if id == client_id then
            clients_by_root[root] = nil
          end
        end
        if code ~= 0 and signal == 0 then
          notify(string.format('the language server (%s) exited with code %d; :LspLog has its messages', table.concat(opts.cmd, ' '), code), vim.log.levels.ERROR)
        end
        if user_on_exit then
          user_on_exit(code, signal, client_id)
        end
      end)
    end,
  }
  if opts.bufnr then
    config.root_dir = M.find_root(vim.api.nvim_buf_get_name(opts.bufnr))
  end
  return config
end

local function wanted(bufnr)
  if not vim.api.nvim_buf_is_valid(bufnr) or vim.bo[bufnr].buftype ~= '' then
    return nil
  end
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name == '' then
    return nil
  end
  local fts = M.options.filetypes
  if fts and not vim.tbl_contains(fts, vim.bo[bufnr].filetype) then
    return nil
  end
  local root = M.find_root(name)
  if not root then
    return nil
  end
  local path = vim.fn.fnamemodify(name, ':p')
  if path:sub(1, #root + #tracking_dir + 2) == root .. '/' .. tracking_dir .. '/' then
    return nil
  end
  return root
end

local function executable(cmd)
  if type(cmd) ~= 'table' or type(cmd[1]) ~= 'string' then
    return false
  end
  if vim.fn.executable(cmd[1]) == 1 then
    return true
  end
  if not missing_reported[cmd[1]] then
    missing_reported[cmd[1]] = true
    notify(string.format("cannot start the language server: '%s' is not an executable file or not on $PATH. "
      .. "Install it (go install ./cmd/reviewls in a clone of reviewls) or set cmd in require('reviewls').setup{}", cmd[1]),
      vim.log.levels.ERROR)
  end
  return false
end

-- start attaches bufnr (default: current) to the client of its repository,
-- starting the client when needed. It returns the client id, or nil when the
-- buffer is not in a git repository, not wanted, or the server cannot start.
function M.start(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local root = wanted(bufnr)
  if not root or not executable(M.options.cmd) then
    return nil
  end
  local config = M.lspconfig()
  config.root_dir = root
  config.workspace_folders = { { uri = vim.uri_from_fname(root), name = vim.fn.fnamemodify(root, ':t') } }
  if vim.lsp.start then
    local ok, id = pcall(vim.lsp.start, config, { bufnr = bufnr })
    if not ok then
      notify('cannot start the language server: ' .. tostring(id), vim.log.levels.ERROR)
      return nil
    end
    return id
  end
  local id = clients_by_root[root]
  local client = id and vim.lsp.get_client_by_id(id)
  if not client or compat.is_stopped(client) then
    id = vim.lsp.start_client(config)
    if not id then
      notify('cannot start the language server: ' .. table.concat(M.options.cmd, ' '), vim.log.levels.ERROR)
      return nil
    end
    clients_by_root[root] = id
  end
  if not vim.lsp.buf_is_attached(bufnr, id) then
    vim.lsp.buf_attach_client(bufnr, id)
  end
  return id
end

-- stop stops every reviewls client (shutdown, then exit).
function M.stop()
  for _, client in ipairs(M.clients()) do
    compat.stop(client)
  end
end

-- setup configures the plugin, defines the :Reviewls* commands and, unless
-- autostart is false, attaches every file buffer inside a git repository.
function M.setup(opts)
  M.options = vim.tbl_extend('force', vim.deepcopy(defaults), opts or {})
  require('reviewls.commands').define(M)
  float.setup(M.options.float)
  local group = vim.api.nvim_create_augroup('reviewls', { clear = true })
  if M.options.autostart == false then
    return
  end
  vim.api.nvim_create_autocmd({ 'BufReadPost', 'BufNewFile', 'FileType' }, {
    group = group,
    callback = function(args)
      M.start(args.buf)
    end,
  })
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) then
      M.start(bufnr)
    end
  end
end

-- utf_offset converts a 0-based byte column of line into the character
-- offset of the given encoding ('utf-16' by default, 'utf-8' or 'utf-32').
function M.utf_offset(line, byte_col, encoding)
  encoding = encoding or 'utf-16'
  if encoding == 'utf-8' then
    return byte_col
  end
  local units, i = 0, 1
  local n = math.min(byte_col, #line)
  while i <= n do
    local b = line:byte(i)
    local len = b >= 0xF0 and 4 or b >= 0xE0 and 3 or b >= 0xC0 and 2 or 1
    units = units + ((len == 4 and encoding == 'utf-16') and 2 or 1)
    i = i + len
  end
  return units
end

return M
