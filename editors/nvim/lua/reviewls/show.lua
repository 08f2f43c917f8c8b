-- Showing what the server returns: files in a split, the board in the
-- quickfix list, summaries as notifications.
local M = {}

-- notify tells msg. An INFO message is cut to the command line's one
-- line (v:echospace): a longer echo would stop at "Press ENTER"; what it
-- would have said is in the window the command opened.
local function notify(msg, level)
  msg = 'reviewls: ' .. msg
  level = level or vim.log.levels.INFO
  local room = vim.v.echospace
  if level == vim.log.levels.INFO and room and room > 1 and vim.fn.strdisplaywidth(msg) > room then
    msg = vim.fn.strcharpart(msg, 0, room - 1)
    while vim.fn.strdisplaywidth(msg) > room - 1 do
      msg = vim.fn.strcharpart(msg, 0, vim.fn.strchars(msg) - 1)
    end
    msg = msg .. '…'
  end
  vim.notify(msg, level)
end

local function full(path)
  return vim.fn.fnamemodify(path, ':p')
end

-- one_line joins a possibly multi-line text into one line.
local function one_line(s)
  return (tostring(s or ''):gsub('%s*\n%s*', ' '))
end

-- open shows path in the current tab: in the window already showing it
-- (re-read from disk unless modified, since the server rewrites its
-- artifacts) or else in a new split. opts.focus = false keeps the cursor in
-- the current window; opts.selection is an LSP range to put the cursor on.
-- Both window/showDocument and the command's result call this, so an
-- explanation opens once whichever arrives first.
function M.open(path, opts)
  opts = opts or {}
  path = full(path)
  local prev = vim.api.nvim_get_current_win()
  local target
  for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    local name = vim.api.nvim_buf_get_name(vim.api.nvim_win_get_buf(win))
    if name ~= '' and full(name) == path then
      target = win
      break
    end
  end
  if target then
    vim.api.nvim_set_current_win(target)
    if not vim.bo.modified then
      vim.cmd('silent edit!')
    end
  else
    -- Do not split the quickfix list or a help window.
    if vim.bo.buftype ~= '' then
      vim.cmd('wincmd p')
    end
    vim.cmd('split ' .. vim.fn.fnameescape(path))
    target = vim.api.nvim_get_current_win()
  end
  local sel = opts.selection
  if type(sel) == 'table' and sel.start then
    local line = math.min(sel.start.line + 1, vim.api.nvim_buf_line_count(0))
    pcall(vim.api.nvim_win_set_cursor, target, { line, 0 })
  end
  if opts.focus == false and vim.api.nvim_win_is_valid(prev) then
    vim.api.nvim_set_current_win(prev)
  end
  return target
end

-- document answers window/showDocument: file URIs open in a split;
-- external ones go to vim.ui.open where it exists.
function M.document(params)
  if type(params) ~= 'table' or type(params.uri) ~= 'string' then
    return { success = false }
  end
  if params.external or not params.uri:match('^file:') then
    if vim.ui.open then
      return { success = pcall(vim.ui.open, params.uri) }
    end
    return { success = false }
  end
  local ok, err = pcall(M.open, vim.uri_to_fname(params.uri), { focus = params.takeFocus ~= false, selection = params.selection })
  if not ok then
    notify('cannot open ' .. params.uri .. ': ' .. tostring(err), vim.log.levels.ERROR)
  end
  return { success = ok }
end

-- board_items turns a reviewls.board result into quickfix items: one per
-- link ("file:line", relative to root), or one without a location for an
-- item that has no links. The item's first entry carries its summary and
-- preliminary signal (which leads with its worst finding); the entries of
-- its other files name only the file, so the list does not repeat one
-- long text per file.
function M.board_items(result, root)
  local items = {}
  for _, it in ipairs(result.items or {}) do
    local head = string.format('[%s] %s %s:', it.status or '?', it.id or '?', it.area or '?')
    local text = head .. ' ' .. one_line(it.summary)
    if it.preliminarySignal and it.preliminarySignal ~= '' then
      text = text .. ' / ' .. one_line(it.preliminarySignal)
    end
    local links = it.links or {}
    if #links == 0 then
      table.insert(items, { text = text, valid = 0 })
    end
    for i, link in ipairs(links) do
      local file, lnum = link:match('^(.-):(%d+)$')
      file = file or link
      local shown = file
      if root and not file:match('^/') then
        file = root .. '/' .. file
      end
      if i > 1 then
        text = string.format('%s %s changed (first change at line %s)', head, shown, lnum or '1')
      end
      table.insert(items, { filename = file, lnum = tonumber(lnum) or 1, col = 1, text = text })
    end
  end
  return items
end

local presenters = {}

presenters['reviewls.review'] = function(r)
  local c = r.counts or {}
  notify(string.format('%s: %d critical, %d high, %d medium, %d low (%d findings in %d files)', r.verdict or '?',
    c.critical or 0, c.high or 0, c.medium or 0, c.low or 0, r.findings or 0, r.files or 0))
end

presenters['reviewls.board'] = function(r, client)
  local root = client and client.config and client.config.root_dir
  vim.fn.setqflist({}, ' ', { title = 'reviewls board', items = M.board_items(r, root) })
  vim.cmd('copen')
end

presenters['reviewls.walkthrough'] = function(r)
  M.open(r.path)
end

presenters['reviewls.explain'] = function(r)
  M.open(r.path)
  notify(string.format('%s %s: %s', r.item or '?', r.symbol or '?', r.change or ''))
end

-- The answer is read in its split: the echo only says where it is.
presenters['reviewls.investigate'] = function(r)
  M.open(r.path)
  notify(string.format('%s %s: %s', r.item or '?', r.investigation or '?', vim.fn.fnamemodify(r.path or '', ':t')))
end

presenters['reviewls.bookmark'] = function(r)
  notify(string.format('%s: %s %s', r.item or '?', one_line(r.action), one_line(r.route)))
end

-- Review-level notes (a code lens's command): one line per note.
presenters['reviewls.notes'] = function(r)
  local notes = type(r.notes) == 'table' and r.notes or {}
  if #notes == 0 then
    notify('no review-level notes')
  end
  for _, n in ipairs(notes) do
    notify(string.format('note (%s): %s %s', n.kind or '?', one_line(n.message), one_line(n.suggestion)))
  end
end

-- result shows the result of a reviewls command run on client.
function M.result(command, result, client)
  local present = presenters[command]
  if present and type(result) == 'table' then
    present(result, client)
  elseif type(result) == 'table' and type(result.path) == 'string' then
    M.open(result.path)
  else
    notify(command .. ': done')
  end
end

return M
