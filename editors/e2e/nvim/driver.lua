-- driver.lua: drives the reviewls Neovim plugin headlessly on the e2e
-- fixture and prints one "PASS name" or "FAIL name: reason" line per check.
-- run.sh starts it as
--   nvim --headless --clean -c 'luafile driver.lua'
-- (run.sh wraps it in pcall(dofile) so even a load error ends nvim)
-- with E2E_MODE (main | norepo | missing | lspconfig | render | model), E2E_PLUGIN (the
-- editors/nvim folder), E2E_REVIEWLS (server binary), E2E_REPO (fixture),
-- E2E_PLAIN (a folder outside any repository), E2E_EXPECTED
-- (expected.json) and E2E_REPORT (JSON report path). It always ends with
-- cquit: 0 when every check passed, 1 when one failed, 2 on a driver error.
-- render runs a second nvim (E2E_MODE=screen) in a terminal, so what it
-- shows is drawn on a real screen, and captures its floats (E2E_SCREEN_DIR
-- for their handshake, E2E_CAPTURES for the captured screens).
local uv = vim.loop
local t0 = uv.hrtime()
local function now()
  return math.floor((uv.hrtime() - t0) / 1e6)
end

local function env(k, d)
  local v = os.getenv(k)
  if v == nil or v == '' then
    return d
  end
  return v
end

local mode = env('E2E_MODE', 'main')
-- has('python3') in the Python ftplugin would start the Python provider
-- (over a second per run); the plugin does not need it.
vim.g.loaded_python3_provider = 0
local timeout_ms = tonumber(env('E2E_WAIT_MS', '20000'))
-- A review has settled when no publication arrived for this long.
local settle_ms = tonumber(env('E2E_SETTLE_MS', '500'))
local report = { mode = mode, nvim = tostring(vim.version().major .. '.' .. vim.version().minor .. '.' .. vim.version().patch), checks = {} }
local failures = 0

local function write_report()
  report.total_ms = now()
  local ok, s = pcall(vim.json.encode, report)
  if not ok then
    s = vim.json.encode({ mode = mode, checks = report.checks, encode_error = tostring(s) })
  end
  local f = io.open(env('E2E_REPORT', 'nvim-report.json'), 'w')
  if f then
    f:write(s, '\n')
    f:close()
  end
end

local function finish(code)
  pcall(write_report)
  -- Never let nvim's exit wait on a server that is still running.
  for _, c in ipairs(vim.lsp.get_active_clients()) do
    pcall(c.stop, true)
  end
  vim.cmd('cquit ' .. code)
end

-- fail aborts the current check with a reason (no traceback).
local function fail(fmt, ...)
  error({ reason = string.format(fmt, ...) }, 0)
end

local function check(name, fn)
  local started = now()
  local ok, err = xpcall(fn, function(e)
    if type(e) == 'table' and e.reason then
      return e.reason
    end
    return 'lua error: ' .. debug.traceback(tostring(e), 2)
  end)
  local entry = { name = name, ok = ok, ms = now() - started, reason = (not ok) and err or nil }
  table.insert(report.checks, entry)
  if ok then
    -- A check may return a detail to print.
    io.stdout:write('PASS ' .. name .. (type(err) == 'string' and ' (' .. err .. ')' or '') .. '\n')
  else
    failures = failures + 1
    io.stdout:write('FAIL ' .. name .. ': ' .. tostring(err):gsub('\n', '\n    ') .. '\n')
  end
  io.stdout:flush()
  return ok
end

local function wait(pred, what, ms)
  ms = ms or timeout_ms
  if not vim.wait(ms, pred, 10) then
    fail('timed out after %d ms waiting for %s', ms, what)
  end
end

local function read_file(path)
  local f = io.open(path, 'r')
  if not f then
    return nil
  end
  local s = f:read('*a')
  f:close()
  return s
end

local function realpath(p)
  return uv.fs_realpath(p) or p
end

local function window_showing(path)
  path = realpath(path)
  for _, w in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    local name = vim.api.nvim_buf_get_name(vim.api.nvim_win_get_buf(w))
    if name ~= '' and realpath(name) == path then
      return w
    end
  end
  return nil
end

-- started_clients counts the clients this nvim started, initialized or not
-- (get_active_clients leaves out those still initializing); ids count up
-- from 1 in a fresh nvim.
local function started_clients()
  local n = 0
  for id = 1, 20 do
    n = n + (vim.lsp.get_client_by_id(id) and 1 or 0)
  end
  return n
end

local function has(s, sub)
  return type(s) == 'string' and s:find(sub, 1, true) ~= nil
end

-- Notifications are recorded instead of printed.
local notes = {}
vim.notify = function(msg, level)
  table.insert(notes, { t_ms = now(), msg = tostring(msg), level = level or vim.log.levels.INFO })
end
report.notifications = notes

local function notes_at(level, since)
  local out = {}
  for i = (since or 0) + 1, #notes do
    if notes[i].level == level then
      table.insert(out, notes[i])
    end
  end
  return out
end

-- (parentheses: assert returns all its arguments, decode takes one)
local expected = vim.json.decode((assert(read_file(env('E2E_EXPECTED', '')), 'E2E_EXPECTED unreadable')))
local repo = realpath(env('E2E_REPO', ''))
local reviewls_bin = env('E2E_REVIEWLS', 'reviewls')

-- Every publishDiagnostics is recorded before the default handler runs;
-- latest holds the last one per URI.
local published, latest, last_pub_ms = {}, {}, nil
do
  local default = vim.lsp.handlers['textDocument/publishDiagnostics']
  vim.lsp.handlers['textDocument/publishDiagnostics'] = function(err, result, ctx, config)
    if result then
      table.insert(published, { t_ms = now(), uri = result.uri, version = result.version, diagnostics = result.diagnostics })
      latest[result.uri] = { version = result.version, diagnostics = result.diagnostics }
      last_pub_ms = now()
    end
    return default(err, result, ctx, config)
  end
end

-- window/showDocument requests the plugin answered: {uri, success}.
local shown = {}
local function watch_show_document()
  local show = require('reviewls.show')
  local document = show.document
  show.document = function(params)
    local res = document(params)
    table.insert(shown, { uri = params.uri, success = res and res.success })
    return res
  end
end

-- settle waits for pred and then for a quiet period without publications.
local function settle(pred, what)
  wait(function()
    return pred() and last_pub_ms ~= nil and now() - last_pub_ms >= settle_ms
  end, what .. ' (then ' .. settle_ms .. ' ms without publications)')
end

local function rel_of_uri(uri)
  local p = realpath(vim.uri_to_fname(uri))
  if p:sub(1, #repo + 1) == repo .. '/' then
    return p:sub(#repo + 2)
  end
  return p
end

-- The published diagnostic set as sorted "file:line:col:severity:rule:state"
-- (the fixture is ASCII: a UTF-16 character is a byte).
local function published_set()
  local out = {}
  for uri, pub in pairs(latest) do
    for _, d in ipairs(pub.diagnostics) do
      table.insert(out, string.format('%s:%d:%d:%d:%s:%s', rel_of_uri(uri), d.range.start.line + 1, d.range.start.character + 1,
        d.severity or 0, tostring(d.code), tostring(d.data and d.data.lineState)))
    end
  end
  table.sort(out)
  return out
end

local function expected_set(drop)
  local out = {}
  for _, d in ipairs(expected.diagnostics) do
    if not (drop and d.file == drop.file and d.rule == drop.rule) then
      table.insert(out, string.format('%s:%d:%d:%d:%s:%s', d.file, d.line, d.col, d.severity, d.rule, d.state))
    end
  end
  table.sort(out)
  return out
end

-- diff fails with what is missing and what is unexpected.
local function same_set(what, want, got)
  local w, g = {}, {}
  for _, s in ipairs(want) do
    w[s] = true
  end
  for _, s in ipairs(got) do
    g[s] = true
  end
  local missing, extra = {}, {}
  for _, s in ipairs(want) do
    if not g[s] then
      table.insert(missing, s)
    end
  end
  for _, s in ipairs(got) do
    if not w[s] then
      table.insert(extra, s)
    end
  end
  if #missing > 0 or #extra > 0 or #want ~= #got then
    fail('%s differ: missing [%s], unexpected [%s] (got %d, want %d)', what, table.concat(missing, ', '),
      table.concat(extra, ', '), #got, #want)
  end
end

-- Neovim's own view (vim.diagnostic) as sorted "file:line:col:severity".
local function nvim_set()
  local out = {}
  for _, d in ipairs(vim.diagnostic.get()) do
    local name = vim.api.nvim_buf_get_name(d.bufnr)
    table.insert(out, string.format('%s:%d:%d:%d', rel_of_uri(vim.uri_from_fname(name)), d.lnum + 1, d.col + 1, d.severity))
  end
  table.sort(out)
  return out
end

local function short(set)
  local out = {}
  for _, s in ipairs(set) do
    table.insert(out, (s:match('^([^:]+:%d+:%d+:%d+)')))
  end
  table.sort(out)
  return out
end

local function assert_no_secret(what, text)
  if has(text, expected.secret.value) then
    fail('%s contains the secret value', what)
  end
end

------------------------------------------------------------------------------

local reviewls

local function load_plugin()
  vim.opt.runtimepath:prepend(env('E2E_PLUGIN', ''))
  reviewls = require('reviewls')
  watch_show_document()
end

-- command_result runs an Ex command and waits for the plugin's next outcome
-- of a reviewls command.
local function command_result(excmd, command)
  local before = reviewls.last(command)
  local before_seq = before and before.seq or 0
  vim.cmd(excmd)
  wait(function()
    local l = reviewls.last(command)
    return l and l.seq > before_seq
  end, 'the result of ' .. command .. ' after :' .. excmd)
  local l = reviewls.last(command)
  if l.err then
    fail(':%s: server error %s: %s', excmd, tostring(l.err.code), tostring(l.err.message))
  end
  return l.result
end

local function main_mode()
  load_plugin()
  local exit_info
  reviewls.setup({
    cmd = { reviewls_bin, 'serve' },
    on_exit = function(code, signal)
      exit_info = { code = code, signal = signal, t_ms = now() }
    end,
  })
  local bufs = {}
  local open = { 'app/store.go', 'app/handler.py', 'config/creds.go', 'web/debug.ts', 'web/cart.ts' }
  local client

  local ok = check('attach', function()
    for _, f in ipairs(open) do
      vim.cmd('edit ' .. vim.fn.fnameescape(repo .. '/' .. f))
      bufs[f] = vim.api.nvim_get_current_buf()
    end
    wait(function() return #vim.lsp.get_active_clients() > 0 end, 'an initialized client')
    local clients = reviewls.clients()
    if #clients ~= 1 or #vim.lsp.get_active_clients() ~= 1 then
      fail('%d reviewls clients, want one for the repository', #clients)
    end
    client = clients[1]
    if realpath(client.config.root_dir) ~= repo then
      fail('client root %s, want %s', client.config.root_dir, repo)
    end
    for f, b in pairs(bufs) do
      if not vim.lsp.buf_is_attached(b, client.id) then
        fail('%s is not attached to the client', f)
      end
    end
    report.timings_initialized_ms = now()
  end)
  if not ok then
    return
  end

  check('diagnostics', function()
    settle(function() return reviewls.status() ~= '' end, 'diagnostics and reviewls/didReview')
    report.first_diagnostics_ms = published[1] and published[1].t_ms
    local got = published_set()
    report.diagnostics = got
    same_set('published diagnostics', expected_set(), got)
    same_set("Neovim's diagnostics (vim.diagnostic.get)", short(expected_set()), nvim_set())
    -- The secret never appears in any publication; its diagnostic's
    -- message is the headline, marked critical.
    assert_no_secret('a publishDiagnostics', vim.json.encode(published))
    local cited = false
    for uri, pub in pairs(latest) do
      if rel_of_uri(uri) == expected.secret.file then
        for _, d in ipairs(pub.diagnostics) do
          cited = cited or d.message == expected.secret.message
        end
      end
    end
    if not cited then
      fail('no diagnostic of %s says %q', expected.secret.file, expected.secret.message)
    end
  end)

  local ex = expected.explain
  local explanation = realpath(repo .. '/' .. ex.artifactDir) .. '/explanations/' .. ex.item .. '-' .. ex.symbol .. '.md'
  check('code-action-explain', function()
    vim.cmd('edit ' .. vim.fn.fnameescape(repo .. '/' .. ex.file))
    local text = vim.api.nvim_buf_get_lines(0, ex.line - 1, ex.line, false)[1]
    vim.api.nvim_win_set_cursor(0, { ex.line, vim.str_byteindex(text, ex.character, true) })
    local title = 'reviewls: Explain ' .. vim.fn.expand('<cword>')
    local offered, picked
    vim.ui.select = function(items, _, on_choice)
      offered = {}
      for _, it in ipairs(items) do
        local action = it.action or it[2] -- {action=, ctx=} in 0.10+, {client_id, action} before
        local cmd = type(action.command) == 'table' and action.command.command or action.command
        table.insert(offered, { title = action.title, kind = action.kind, command = cmd })
        if cmd == 'reviewls.explain' and not picked then
          picked = it
        end
      end
      on_choice(picked)
    end
    local before = reviewls.last('reviewls.explain')
    vim.lsp.buf.code_action()
    wait(function() return offered ~= nil end, 'the code action list')
    report.code_actions = offered
    local titles = {}
    for _, a in ipairs(offered) do
      titles[a.title] = a.command
    end
    if titles[title] ~= 'reviewls.explain' then
      fail('no code action %q with command reviewls.explain among %s', title, vim.inspect(vim.tbl_keys(titles)))
    end
    wait(function()
      local l = reviewls.last('reviewls.explain')
      return l and l.seq > (before and before.seq or 0)
    end, 'the reviewls.explain result')
    local l = reviewls.last('reviewls.explain')
    if l.err then
      fail('reviewls.explain failed: %s', l.err.message)
    end
    local r = l.result
    report.explain_result = { item = r.item, symbol = r.symbol, change = r.change, path = r.path }
    if r.item ~= ex.item or r.symbol ~= ex.symbol or r.change ~= ex.change then
      fail('explained %s %s (%s), want %s %s (%s)', tostring(r.item), tostring(r.symbol), tostring(r.change), ex.item, ex.symbol, ex.change)
    end
    if realpath(r.path) ~= explanation then
      fail('explanation path %s, want %s', tostring(r.path), explanation)
    end
    local body = read_file(explanation)
    if not body then
      fail('%s does not exist', explanation)
    end
    for what, s in pairs({ ['explanation file'] = body, ['returned markdown'] = r.markdown }) do
      if not (has(s, ex.symbol) and has(s, ex.change)) then
        fail('the %s does not mention %q and %q', what, ex.symbol, ex.change)
      end
      assert_no_secret('the ' .. what, s)
    end
    wait(function() return window_showing(explanation) ~= nil end, 'a window showing ' .. explanation)
    -- The server also asked to show it (window/showDocument); the plugin
    -- opened the same window, not a second one.
    local want_uri = vim.uri_from_fname(explanation)
    wait(function()
      for _, s in ipairs(shown) do
        if realpath(vim.uri_to_fname(s.uri)) == explanation and s.success then
          return true
        end
      end
      return false
    end, 'a successful window/showDocument for ' .. want_uri)
    local n = 0
    for _, w in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
      local name = vim.api.nvim_buf_get_name(vim.api.nvim_win_get_buf(w))
      n = n + ((name ~= '' and realpath(name) == explanation) and 1 or 0)
    end
    if n ~= 1 then
      fail('%d windows show the explanation, want 1', n)
    end
    report.show_document = shown
  end)

  check('board-quickfix', function()
    local r = command_result('ReviewlsBoard', 'reviewls.board')
    wait(function() return vim.fn.getqflist({ title = 0 }).title == 'reviewls board' end, 'the quickfix title')
    local qfwin = false
    for _, w in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
      qfwin = qfwin or vim.fn.getwininfo(w)[1].quickfix == 1
    end
    if not qfwin then
      fail('the quickfix window is not open')
    end
    local statuses = {}
    for _, it in ipairs(r.items or {}) do
      statuses[it.id] = it.status
    end
    local qf = vim.fn.getqflist()
    report.quickfix = {}
    local links = 0
    for _, it in ipairs(r.items or {}) do
      links = links + math.max(#(it.links or {}), 1)
    end
    if #qf ~= links then
      fail('%d quickfix entries, want one per board link (%d)', #qf, links)
    end
    -- Only an item's first entry carries its signal; the others are one
    -- short line per file.
    for _, it in ipairs(r.items or {}) do
      local n = 0
      for _, e in ipairs(qf) do
        if e.text:match('^%[[%w_]+%] ' .. vim.pesc(it.id) .. ' ') then
          n = n + 1
          if n > 1 and it.preliminarySignal and has(e.text, it.preliminarySignal) then
            fail('entry %q repeats the signal of %s', e.text, it.id)
          end
        end
      end
    end
    for _, want in ipairs(expected.board) do
      local n = 0
      for _, e in ipairs(qf) do
        local status = e.text:match('^%[([%w_]+)%] ' .. vim.pesc(want.id) .. ' ' .. vim.pesc(want.area) .. ':')
        if status then
          n = n + 1
          if status ~= statuses[want.id] or not vim.tbl_contains({ 'pending', 'in_progress', 'complete' }, status) then
            fail('entry %q: status %s, server says %s', e.text, status, tostring(statuses[want.id]))
          end
          local file = realpath(vim.api.nvim_buf_get_name(e.bufnr))
          local lines = vim.fn.filereadable(file) == 1 and vim.fn.readfile(file) or nil
          if e.bufnr == 0 or file:sub(1, #repo + 1) ~= repo .. '/' or not lines then
            fail('entry %q links to %q, not a fixture file', e.text, file)
          end
          if e.lnum < 1 or e.lnum > #lines then
            fail('entry %q: line %d outside %s (%d lines)', e.text, e.lnum, file, #lines)
          end
          table.insert(report.quickfix, string.format('%s:%d %s', file:sub(#repo + 2), e.lnum, e.text))
        end
      end
      if n == 0 then
        fail('no quickfix entry "[status] %s %s: ..."', want.id, want.area)
      end
    end
  end)

  check('walkthrough', function()
    local before = {}
    for _, w in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
      before[w] = vim.api.nvim_win_get_buf(w)
    end
    local r = command_result('ReviewlsWalkthrough', 'reviewls.walkthrough')
    local want = realpath(repo .. '/' .. ex.artifactDir) .. '/walkthrough.md'
    if realpath(r.path or '') ~= want then
      fail('walkthrough path %s, want %s', tostring(r.path), want)
    end
    local body = read_file(want)
    if not body or #body == 0 then
      fail('%s is missing or empty', want)
    end
    local win
    wait(function()
      win = window_showing(want)
      return win ~= nil
    end, 'a window showing walkthrough.md')
    if before[win] then
      fail('walkthrough.md replaced an existing window instead of opening a split')
    end
    for w, b in pairs(before) do
      if not vim.api.nvim_win_is_valid(w) or vim.api.nvim_win_get_buf(w) ~= b then
        fail('opening walkthrough.md changed window %d', w)
      end
    end
    -- The server's own artifacts are never sent to it as documents.
    for _, b in ipairs(vim.api.nvim_list_bufs()) do
      local name = vim.api.nvim_buf_get_name(b)
      if has(name, '/.copilot-tracking/') and vim.lsp.buf_is_attached(b, client.id) then
        fail('artifact %s is attached to the client', name)
      end
    end
  end)

  check('unsaved-fix', function()
    local fix = expected.fix
    local buf = bufs[fix.file]
    local uri = vim.uri_from_bufnr(buf)
    vim.api.nvim_buf_set_lines(buf, fix.line - 1, fix.line, false, { fix.text })
    local version = vim.api.nvim_buf_get_changedtick(buf)
    local ok = pcall(settle, function()
      return latest[uri] and latest[uri].version == version
    end, 'a publication for the edited buffer')
    if not ok then
      fail('no publication for %s at version %d; its diagnostics: %s', fix.file, version, vim.inspect(published_set()))
    end
    same_set('diagnostics after the unsaved fix', expected_set({ file = fix.file, rule = fix.clears }), published_set())
    same_set("Neovim's diagnostics after the fix", short(expected_set({ file = fix.file, rule = fix.clears })), nvim_set())
    if not vim.bo[buf].modified or not has(read_file(repo .. '/' .. fix.file), 'except:') then
      fail('the fix should stay unsaved: modified=%s', tostring(vim.bo[buf].modified))
    end
  end)

  check('statusline', function()
    -- Counts follow the diagnostics: Critical/High are errors, Medium
    -- warnings, Low information.
    local want = { 0, 0, 0 }
    for _, d in ipairs(expected.diagnostics) do
      if not (d.file == expected.fix.file and d.rule == expected.fix.clears) then
        want[d.severity] = want[d.severity] + 1
      end
    end
    -- The recommendation in words and the confidence lead.
    local words = expected.decision.words
    local got
    local ok = vim.wait(timeout_ms, function()
      local w, conf, c, h, m, l = reviewls.status():match('^reviewls: (.-) (%d%.%d%d) (%d+)C (%d+)H (%d+)M (%d+)L$')
      got = { w = w, ch = tonumber(c or -1) + tonumber(h or -1), m = tonumber(m), l = tonumber(l) }
      return w == words and tonumber(conf) > 0 and got.ch == want[1] and got.m == want[2] and got.l == want[3]
    end, 10)
    report.status = reviewls.status()
    if not ok then
      fail('status() is %q, want %q, a confidence, critical+high %d, medium %d, low %d', reviewls.status(), words, want[1], want[2], want[3])
    end
  end)

  check('explain-command', function()
    -- Characters before the cursor that take 2 bytes/1 UTF-16 unit and
    -- 4 bytes/2 units: a byte or UTF-32 column would land on another word.
    local buf = bufs[ex.file]
    vim.api.nvim_set_current_win(window_showing(repo .. '/' .. ex.file) or vim.api.nvim_get_current_win())
    vim.api.nvim_set_current_buf(buf)
    local text = vim.api.nvim_buf_get_lines(buf, ex.line - 1, ex.line, false)[1]
    local name = ex.symbol:match('[^.]+$')
    local at = text:find(') ' .. name .. '(', 1, true)
    if not at then
      fail('line %d of %s has no ") %s("', ex.line, ex.file, name)
    end
    local edited = text:sub(1, at - 1) .. ' /* é😀😀😀😀 */' .. text:sub(at)
    vim.api.nvim_buf_set_lines(buf, ex.line - 1, ex.line, false, { edited })
    local uri = vim.uri_from_bufnr(buf)
    local version = vim.api.nvim_buf_get_changedtick(buf)
    settle(function() return latest[uri] and latest[uri].version == version end, 'the review of the edited ' .. ex.file)
    local col = edited:find(') ' .. name .. '(', 1, true) + 1 -- 0-based byte column of the name
    vim.api.nvim_win_set_cursor(0, { ex.line, col })
    local r = command_result('ReviewlsExplain', 'reviewls.explain')
    report.explain_command = { item = r.item, symbol = r.symbol, change = r.change, path = r.path, utf16 = reviewls.utf_offset(edited, col), byte = col }
    if r.symbol ~= ex.symbol or r.item ~= ex.item then
      fail('explained %s %s at the cursor, want %s %s', tostring(r.item), tostring(r.symbol), ex.item, ex.symbol)
    end
    wait(function() return window_showing(r.path) ~= nil end, 'a window showing ' .. tostring(r.path))
    -- The same request with the byte column must not find the symbol, or
    -- this check could not tell a wrong conversion apart.
    local res = client.request_sync('workspace/executeCommand', { command = 'reviewls.explain',
      arguments = { { uri = uri, position = { line = ex.line - 1, character = col } } } }, timeout_ms, buf)
    if res and res.result and res.result ~= vim.NIL and res.result.symbol == ex.symbol then
      fail('control: the byte column %d also explains %s; the check cannot detect a wrong conversion', col, ex.symbol)
    end
    vim.api.nvim_buf_call(buf, function() vim.cmd('silent undo') end)
    if vim.api.nvim_buf_get_lines(buf, ex.line - 1, ex.line, false)[1] ~= text then
      fail('undo did not restore line %d of %s', ex.line, ex.file)
    end
  end)

  check('investigate', function()
    vim.api.nvim_set_current_win(window_showing(repo .. '/' .. ex.file) or vim.api.nvim_get_current_win())
    vim.api.nvim_set_current_buf(bufs[ex.file])
    local since = #notes
    local r = command_result('ReviewlsInvestigate Does Get still return an empty string for a missing key?', 'reviewls.investigate')
    if r.item ~= ex.item then
      fail('investigated %s, want the item of %s (%s)', tostring(r.item), ex.file, ex.item)
    end
    if not (r.path and vim.fn.filereadable(r.path) == 1) then
      fail('investigation file %s missing', tostring(r.path))
    end
    local win
    wait(function()
      win = window_showing(r.path)
      return win ~= nil
    end, 'a window showing ' .. r.path)
    -- The answer is read in the split; the echo is one line that fits the
    -- command line, so Neovim never stops at "Press ENTER".
    local shown_text = table.concat(vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(win), 0, -1, false), '\n')
    local conclusion = vim.trim(tostring(r.conclusion or ''))
    if conclusion == '' or not has(shown_text, conclusion:sub(1, 40)) then
      fail('the split does not show the conclusion %q', conclusion)
    end
    for _, n in ipairs(notes_at(vim.log.levels.INFO, since)) do
      if has(n.msg, '\n') or vim.fn.strdisplaywidth(n.msg) > vim.v.echospace then
        fail('the echo %q takes more than the command line (%d columns): Neovim would ask to press ENTER', n.msg, vim.v.echospace)
      end
    end
    report.investigate_echo = notes_at(vim.log.levels.INFO, since)
    local r2 = command_result('ReviewlsInvestigate ' .. expected.board[2].id .. ' Is the key rotated?', 'reviewls.investigate')
    if r2.item ~= expected.board[2].id then
      fail(':ReviewlsInvestigate %s ... investigated %s', expected.board[2].id, tostring(r2.item))
    end
    assert_no_secret('the investigation of ' .. r2.item, r2.markdown)
    report.investigations = { r.path, r2.path }
  end)

  check('bad-request', function()
    local since = #notes
    local before = reviewls.last('reviewls.investigate')
    vim.cmd('ReviewlsInvestigate board-99 why?')
    wait(function()
      local l = reviewls.last('reviewls.investigate')
      return l.seq > before.seq
    end, 'the answer to reviewls.investigate board-99')
    local l = reviewls.last('reviewls.investigate')
    if not l.err or l.err.code ~= -32602 then
      fail('reviewls.investigate board-99 gave %s, want an InvalidParams error', vim.inspect(l))
    end
    local errors = notes_at(vim.log.levels.ERROR, since)
    if #errors ~= 1 or not has(errors[1].msg, 'unknown board item "board-99"') then
      fail('want one ERROR notification with the server message, got %s', vim.inspect(errors))
    end
    -- The session continues: a review still runs and is echoed.
    since = #notes
    local r = command_result('ReviewlsReview', 'reviewls.review')
    local c = r.counts or {}
    local echoed
    for _, n in ipairs(notes_at(vim.log.levels.INFO, since)) do
      if has(n.msg, r.verdict) and has(n.msg, c.critical .. ' critical') and has(n.msg, c.high .. ' high')
        and has(n.msg, c.medium .. ' medium') and has(n.msg, c.low .. ' low') then
        echoed = n.msg
      end
    end
    if not echoed then
      fail(':ReviewlsReview did not echo verdict %s and counts %s: %s', tostring(r.verdict), vim.inspect(c), vim.inspect(notes_at(vim.log.levels.INFO, since)))
    end
    report.review_echo = echoed
  end)

  check('secret-fix', function()
    -- The secret's quick fix in a file with one import: "os" joins it in
    -- one import block, as goimports would add it.
    local file = expected.secret.file
    local buf = bufs[file]
    vim.api.nvim_set_current_win(window_showing(repo .. '/' .. file) or vim.api.nvim_get_current_win())
    vim.api.nvim_set_current_buf(buf)
    local old = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
    local at
    for i, l in ipairs(old) do
      at = at or (has(l, expected.secret.value) and i)
    end
    local lines = { old[1], '', 'import "fmt"' }
    vim.list_extend(lines, vim.list_slice(old, 2))
    vim.list_extend(lines, { '', 'var _ = fmt.Sprint' })
    vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
    at = at + 2
    local uri = vim.uri_from_bufnr(buf)
    local version = vim.api.nvim_buf_get_changedtick(buf)
    settle(function()
      local pub = latest[uri]
      if not (pub and pub.version == version) then
        return false
      end
      for _, d in ipairs(pub.diagnostics) do
        if d.code == 'security/hardcoded-secret' and d.range.start.line == at - 1 then
          return true
        end
      end
      return false
    end, 'the secret on line ' .. at .. ' of the edited ' .. file)
    vim.api.nvim_win_set_cursor(0, { at, lines[at]:find(expected.secret.value, 1, true) - 1 })
    local offered, picked
    vim.ui.select = function(items, _, on_choice)
      offered = {}
      for _, it in ipairs(items) do
        local action = it.action or it[2]
        table.insert(offered, action.title)
        if not picked and action.title:find('^reviewls: Read the secret from the environment') then
          picked = it
        end
      end
      on_choice(picked)
    end
    vim.lsp.buf.code_action()
    wait(function() return offered ~= nil end, 'the code action list')
    if not picked then
      fail('no "reviewls: Read the secret from the environment" action among %s', vim.inspect(offered))
    end
    wait(function() return vim.api.nvim_buf_get_changedtick(buf) ~= version end, 'the fix to change the buffer')
    local text = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n') .. '\n'
    report.secret_fix = text
    local decls = 0
    for _ in text:gmatch('\nimport ') do
      decls = decls + 1
    end
    if decls ~= 1 or not has(text, 'import (\n\t"fmt"\n\t"os"\n)\n') or has(text, expected.secret.value) then
      fail('after the fix %s reads %s, want one import block holding "fmt" and "os", and no secret', file, vim.inspect(text))
    end
    local formatted = vim.fn.system({ 'gofmt' }, text)
    if vim.v.shell_error ~= 0 or formatted ~= text then
      fail('gofmt %s the fixed %s: %s', vim.v.shell_error ~= 0 and 'rejects' or 'changes', file, vim.inspect(formatted))
    end
    return picked and (picked.action or picked[2]).title
  end)

  check('shutdown', function()
    local since = #notes
    reviewls.stop()
    wait(function() return exit_info ~= nil end, 'the server to exit after shutdown/exit', 10000)
    report.server_exit = exit_info
    if exit_info.code ~= 0 or exit_info.signal ~= 0 then
      fail('server exited with code %d, signal %d', exit_info.code, exit_info.signal)
    end
    if #reviewls.clients() ~= 0 then
      fail('%d reviewls clients still running', #reviewls.clients())
    end
    local errors = notes_at(vim.log.levels.ERROR, since)
    if #errors > 0 then
      fail('stopping notified errors: %s', vim.inspect(errors))
    end
  end)

  check('no-stray-errors', function()
    local stray = {}
    for _, n in ipairs(notes_at(vim.log.levels.ERROR)) do
      if not has(n.msg, 'board-99') then
        table.insert(stray, n.msg)
      end
    end
    if #stray > 0 then
      fail('unexpected ERROR notifications: %s', table.concat(stray, ' | '))
    end
  end)
end

-- A buffer outside any git repository starts no client.
local function norepo_mode()
  load_plugin()
  reviewls.setup({ cmd = { reviewls_bin, 'serve' } })
  check('outside-repository', function()
    local plain = realpath(env('E2E_PLAIN', ''))
    if reviewls.find_root(plain .. '/notes.go') then
      fail('precondition: %s is inside a git repository', plain)
    end
    vim.cmd('edit ' .. vim.fn.fnameescape(plain .. '/notes.go'))
    if started_clients() ~= 0 then
      fail('%d clients started for a file outside any repository', started_clients())
    end
    if #notes ~= 0 then
      fail('opening the file notified: %s', vim.inspect(notes))
    end
    -- A command there says why nothing happens.
    vim.cmd('ReviewlsBoard')
    local errors = notes_at(vim.log.levels.ERROR)
    if #errors ~= 1 or not has(errors[1].msg, 'git repository') then
      fail(':ReviewlsBoard outside a repository notified %s', vim.inspect(notes))
    end
  end)
end

-- A missing binary gives one clear error, however many buffers open.
local function missing_mode()
  load_plugin()
  local bogus = env('E2E_MISSING', '/nonexistent/reviewls')
  reviewls.setup({ cmd = { bogus, 'serve' } })
  check('missing-binary', function()
    for _, f in ipairs({ 'app/store.go', 'app/handler.py', 'web/debug.ts' }) do
      vim.cmd('edit ' .. vim.fn.fnameescape(repo .. '/' .. f))
    end
    if started_clients() ~= 0 then
      fail('%d clients started with a missing binary', started_clients())
    end
    if #notes ~= 1 or notes[1].level ~= vim.log.levels.ERROR or not has(notes[1].msg, bogus) then
      fail('want one ERROR notification naming %s, got %s', bogus, vim.inspect(notes))
    end
    report.missing_message = notes[1].msg
  end)
end

-- The lspconfig() table alone makes a working client (what users of
-- nvim-lspconfig or vim.lsp.start get), and root_dir answers every form.
local function lspconfig_mode()
  load_plugin()
  check('lspconfig-table', function()
    local file = repo .. '/' .. expected.explain.file
    vim.cmd('edit ' .. vim.fn.fnameescape(file))
    local buf = vim.api.nvim_get_current_buf()
    if started_clients() ~= 0 then
      fail('a client started without setup()')
    end
    local cfg = reviewls.lspconfig({ cmd = { reviewls_bin, 'serve' } })
    if type(cfg.root_dir) ~= 'function' or realpath(cfg.root_dir(file) or '') ~= repo then
      fail('lspconfig().root_dir(%q) = %s, want %s', file, tostring(type(cfg.root_dir) == 'function' and cfg.root_dir(file)), repo)
    end
    if cfg.root_dir(env('E2E_PLAIN', '') .. '/notes.go') ~= nil then
      fail('root_dir outside a repository is not nil')
    end
    local via_callback
    cfg.root_dir(buf, function(root) via_callback = root end)
    if realpath(via_callback or '') ~= repo then
      fail('root_dir(bufnr, on_dir) gave %s', tostring(via_callback))
    end
    local exit_info
    local started = reviewls.lspconfig({ bufnr = buf, cmd = { reviewls_bin, 'serve' }, settings = { quietWindow = 50 },
      on_exit = function(code, signal) exit_info = { code = code, signal = signal } end })
    if realpath(started.root_dir or '') ~= repo then
      fail('lspconfig{bufnr}.root_dir = %s', tostring(started.root_dir))
    end
    local id = vim.lsp.start_client(started)
    vim.lsp.buf_attach_client(buf, id)
    settle(function() return reviewls.status() ~= '' end, 'reviewls/didReview through the lspconfig handlers')
    local want = {}
    for _, d in ipairs(expected.diagnostics) do
      if d.file == expected.explain.file then
        table.insert(want, d.line)
      end
    end
    local got = {}
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      table.insert(got, d.lnum + 1)
    end
    if vim.inspect(got) ~= vim.inspect(want) then
      fail('diagnostic lines of %s: %s, want %s', expected.explain.file, vim.inspect(got), vim.inspect(want))
    end
    vim.lsp.get_client_by_id(id).stop()
    wait(function() return exit_info ~= nil end, 'the server to exit', 10000)
    if exit_info.code ~= 0 then
      fail('server exited with code %d', exit_info.code)
    end
  end)
end

-- The floats on a real screen. render (this nvim, headless) runs a second
-- nvim in a terminal (E2E_MODE=screen, which draws), and the terminal's
-- buffer is that nvim's screen. screen opens the secret's diagnostic float,
-- then the hover there; after each it echoes "e2e: NAME shown" and waits
-- for render's NAME.seen in E2E_SCREEN_DIR. render waits for the echo on
-- the screen, finds the bordered box and checks what it holds;
-- E2E_CAPTURES gets the screens.
local screen_dir = env('E2E_SCREEN_DIR', '')
local function mark(name, text)
  local f = assert(io.open(screen_dir .. '/' .. name, 'w'))
  f:write(text or '')
  f:close()
end
local function marked(name)
  return uv.fs_stat(screen_dir .. '/' .. name) ~= nil
end

local secret_diag
for _, d in ipairs(expected.diagnostics) do
  secret_diag = secret_diag or (d.rule == 'security/hardcoded-secret' and d)
end

-- shown draws the screen with NAME's float, then echoes that it is there.
local function shown(name)
  vim.cmd('redraw')
  vim.api.nvim_echo({ { 'e2e: ' .. name .. ' shown' } }, false, {})
  vim.cmd('redraw')
end

local function screen_mode()
  local ok, err = xpcall(function()
    load_plugin()
    reviewls.setup({ cmd = { reviewls_bin, 'serve' } })
    vim.cmd('edit ' .. vim.fn.fnameescape(repo .. '/' .. secret_diag.file))
    local buf = vim.api.nvim_get_current_buf()
    wait(function() return #vim.diagnostic.get(buf, { lnum = secret_diag.line - 1 }) > 0 end, 'the secret\'s diagnostic')
    vim.api.nvim_win_set_cursor(0, { secret_diag.line, secret_diag.col - 1 })
    local _, win = vim.diagnostic.open_float()
    if not win then
      fail('vim.diagnostic.open_float() opened nothing')
    end
    shown('float')
    wait(function() return marked('float.seen') end, 'the capture of the float', 60000)
    vim.api.nvim_win_close(win, true)
    vim.lsp.buf.hover()
    wait(function()
      for _, w in ipairs(vim.api.nvim_list_wins()) do
        if vim.api.nvim_win_get_config(w).relative ~= '' then
          return true
        end
      end
      return false
    end, 'the hover float')
    shown('hover')
    wait(function() return marked('hover.seen') end, 'the capture of the hover', 60000)
  end, function(e)
    return type(e) == 'table' and e.reason or debug.traceback(tostring(e), 2)
  end)
  if not ok then
    mark('error', tostring(err))
  end
  reviewls.stop()
  vim.wait(5000, function() return #reviewls.clients() == 0 end, 10)
  vim.cmd('qall!')
end

-- box finds the bordered float on a screen (lines of characters): its
-- size (border included) and the text inside it, row by row, or nil.
local function box(screen)
  for top, line in ipairs(screen) do
    local chars = vim.fn.split(line, '\\zs')
    local left = vim.fn.index(chars, '╭')
    local right = vim.fn.index(chars, '╮')
    if left >= 0 and right > left then
      local rows = {}
      for r = top + 1, #screen do
        local c = vim.fn.split(screen[r], '\\zs')
        if c[left + 1] == '╰' then
          return { width = right - left + 1, height = #rows + 2, rows = rows, top = top, left = left }
        end
        if c[left + 1] ~= '│' then
          break
        end
        table.insert(rows, table.concat(vim.list_slice(c, left + 2, right)))
      end
    end
  end
  return nil
end

-- squeeze joins a box's rows into its text: a row that wraps continues on
-- the next, a shorter one was padded with blanks.
local function squeeze(rows)
  return (table.concat(rows):gsub('%s+', ' '))
end

local function render_mode()
  local captures = env('E2E_CAPTURES', '')
  vim.fn.mkdir(captures, 'p')
  -- Wider than the float may be, so an unwrapped text would show.
  vim.o.columns, vim.o.lines = 160, 40
  local script = env('E2E_DRIVER', '')
  local job = vim.fn.termopen({ 'nvim', '--clean', '-c',
    string.format("lua local ok, e = pcall(dofile, %q) if not ok then io.open(%q, 'w'):write(tostring(e)) vim.cmd('qall!') end", script, screen_dir .. '/error') },
    { env = { E2E_MODE = 'screen', E2E_REPORT = screen_dir .. '/report.json' } })
  local term = vim.api.nvim_get_current_buf()
  local function screen()
    return vim.api.nvim_buf_get_lines(term, 0, -1, false)
  end
  -- capture waits until the screen nvim says it shows NAME, saves the
  -- screen and lets the screen nvim go on.
  local function capture(name)
    local echo = 'e2e: ' .. name .. ' shown'
    wait(function()
      return marked('error') or vim.tbl_contains(vim.tbl_map(function(l) return has(l, echo) end, screen()), true)
    end, 'the screen nvim to show the ' .. name, 60000)
    if marked('error') then
      fail('the screen nvim failed: %s', read_file(screen_dir .. '/error'))
    end
    local b = box(screen())
    local file = captures .. '/' .. name .. '.txt'
    local f = assert(io.open(file, 'w'))
    f:write(table.concat(screen(), '\n'), '\n')
    f:close()
    mark(name .. '.seen')
    if not b then
      fail('no bordered float on the screen (%s)', file)
    end
    report[name] = b
    return b, file
  end
  local redacted_rationale = expected.secret.rationale

  -- framed captures NAME's float and checks what every float must be: no
  -- secret, at most 80 columns and its border. It returns the float's text,
  -- the screen's file and the check's detail.
  local function framed(name)
    local b, file = capture(name)
    local text = squeeze(b.rows)
    assert_no_secret('the ' .. name, text)
    if b.width > 82 then
      fail('the %s is %d columns wide, want at most 80 and its border (%s)', name, b.width, file)
    end
    return text, file, string.format('%dx%d, %s', b.width, b.height, file)
  end

  check('float', function()
    local text, file, detail = framed('float')
    for _, want in ipairs({ expected.secret.message, secret_diag.rule, redacted_rationale }) do
      if not has(text, want) then
        fail('the float does not show %q; it shows %q (%s)', want, text, file)
      end
    end
    return detail
  end)

  check('hover', function()
    local text, file, detail = framed('hover')
    -- It leads with the finding: the rationale, not the rule's documentation.
    if not vim.startswith(vim.trim(text), redacted_rationale) then
      fail('the hover does not lead with the rationale %q: %q (%s)', redacted_rationale, text, file)
    end
    return detail
  end)
  vim.fn.jobwait({ job }, 10000)
  pcall(vim.fn.jobstop, job)
end

-- model: the model reviewer's second wave, against the scripted model
-- server run.sh starts (editors/e2e/llmtest): its base URL is
-- E2E_MODEL_URL, its request events are appended to E2E_MODEL_EVENTS,
-- and it hangs a request that holds E2E_MODEL_HANG until the client
-- cancels it. It answers every other request with one candidate on line
-- 11 of app/store.go.
local function model_events()
  local out = {}
  for line in (read_file(env('E2E_MODEL_EVENTS', '')) or ''):gmatch('[^\n]+') do
    table.insert(out, line)
  end
  return out
end

local function model_mode()
  load_plugin()
  reviewls.setup({
    cmd = { reviewls_bin, 'serve' },
    settings = { model = { endpoint = env('E2E_MODEL_URL', ''), name = 'e2e-model', context = 8192 } },
  })
  local file = 'app/store.go'
  local function codes(p)
    local out = {}
    for _, d in ipairs(p.diagnostics) do
      out[tostring(d.code)] = d
    end
    return out
  end
  local function latest_codes()
    for uri, p in pairs(latest) do
      if rel_of_uri(uri) == file then
        return codes(p)
      end
    end
    return {}
  end

  check('model-second-wave', function()
    vim.cmd('edit ' .. vim.fn.fnameescape(repo .. '/' .. file))
    wait(function() return latest_codes()['functional/model'] ~= nil end, 'the model diagnostic on ' .. file)
    -- The rule diagnostics were published first, without the model's.
    local first_rule, first_model
    for i, p in ipairs(published) do
      if rel_of_uri(p.uri) == file then
        local c = codes(p)
        if c['functional/model'] then
          first_model = first_model or i
        elseif c['readiness/todo-added'] then
          first_rule = first_rule or i
        end
      end
    end
    if not first_rule or first_rule > first_model then
      fail('the rule diagnostics were not published before the model\'s (first rule-only publication %s, first with the model %s)',
        tostring(first_rule), tostring(first_model))
    end
    local d = latest_codes()['functional/model']
    if d.range.start.line + 1 ~= 11 or not (d.data and d.data.model == 'e2e-model') then
      fail('the model diagnostic is on line %d with data %s, want line 11 naming e2e-model', d.range.start.line + 1, vim.inspect(d.data))
    end
    return string.format("rule diagnostics at %d ms, the model's at %d ms", published[first_rule].t_ms, published[first_model].t_ms)
  end)

  check('model-cancel', function()
    local buf = vim.api.nvim_get_current_buf()
    -- An unsaved line the model server hangs on, reviewed now: the
    -- second wave asks the model about the buffer, and the request hangs.
    vim.api.nvim_buf_set_lines(buf, -1, -1, false, { '// ' .. env('E2E_MODEL_HANG', '') })
    vim.cmd('ReviewlsReview')
    local hung
    wait(function()
      for _, e in ipairs(model_events()) do
        hung = e:match('^hang (%d+)$') or hung
      end
      return hung ~= nil
    end, 'the model request holding the edit to hang')
    local before = #model_events()
    for _, e in ipairs(model_events()) do
      if e == 'cancelled ' .. hung then
        fail('request %s was cancelled before the edit', hung)
      end
    end
    local edited = now()
    vim.api.nvim_buf_set_lines(buf, -1, -1, false, { '// typing' })
    wait(function()
      local events = model_events()
      for i = before + 1, #events do
        if events[i] == 'cancelled ' .. hung then
          return true
        end
      end
      return false
    end, 'the edit to cancel model request ' .. hung)
    return string.format('request %s cancelled %d ms after the edit', hung, now() - edited)
  end)
end

local modes = { main = main_mode, norepo = norepo_mode, missing = missing_mode, lspconfig = lspconfig_mode, render = render_mode, screen = screen_mode, model = model_mode }
local ok, err = xpcall(function()
  assert(modes[mode], 'unknown E2E_MODE ' .. mode)()
end, debug.traceback)
if not ok then
  report.driver_error = err
  io.stdout:write('FAIL driver-' .. mode .. ': ' .. tostring(err):gsub('\n', '\n    ') .. '\n')
  finish(2)
end
finish(failures == 0 and 0 or 1)
