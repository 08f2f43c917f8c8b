-- The :Reviewls* user commands. Each runs a reviewls command on the client
-- of the current buffer's repository, asynchronously; results are shown by
-- show.lua and server errors are notified at ERROR level.
local M = {}

local function notify(msg, level)
  vim.notify('reviewls: ' .. msg, level or vim.log.levels.INFO)
end

-- context returns the client for the current buffer and the arguments every
-- command takes ({uri} picks the repository), or nil after telling why.
local function context(reviewls)
  local bufnr = vim.api.nvim_get_current_buf()
  local client = reviewls.client_for(bufnr)
  if not client then
    notify('no reviewls language server for this buffer (it starts for files inside a git repository)', vim.log.levels.ERROR)
    return nil
  end
  local root = client.config.root_dir
  return client, bufnr, { uri = vim.uri_from_fname(root) }, root
end

-- relative returns the buffer's path relative to root, or nil.
local function relative(bufnr, root)
  local name = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(bufnr), ':p')
  if root and name:sub(1, #root + 1) == root .. '/' then
    return name:sub(#root + 2)
  end
  return nil
end

local function investigate(reviewls, client, bufnr, root, item, question)
  local function run(q)
    if not q or q == '' then
      return
    end
    reviewls.execute(client, 'reviewls.investigate', { uri = vim.uri_from_fname(root), item = item, question = q }, bufnr)
  end
  if question ~= '' then
    run(question)
  else
    vim.ui.input({ prompt = 'Investigate ' .. item .. ': ' }, run)
  end
end

function M.define(reviewls)
  local function simple(name, command)
    vim.api.nvim_create_user_command(name, function()
      local client, bufnr, arg = context(reviewls)
      if client then
        reviewls.execute(client, command, arg, bufnr)
      end
    end, { desc = 'reviewls: run ' .. command })
  end
  simple('ReviewlsReview', 'reviewls.review')
  simple('ReviewlsBoard', 'reviewls.board')
  simple('ReviewlsWalkthrough', 'reviewls.walkthrough')

  vim.api.nvim_create_user_command('ReviewlsExplain', function()
    local client, bufnr = context(reviewls)
    if not client then
      return
    end
    local row, col = unpack(vim.api.nvim_win_get_cursor(0))
    local line = vim.api.nvim_buf_get_lines(bufnr, row - 1, row, false)[1] or ''
    local position = { line = row - 1, character = reviewls.utf_offset(line, col, client.offset_encoding) }
    reviewls.execute(client, 'reviewls.explain', { uri = vim.uri_from_bufnr(bufnr), position = position }, bufnr)
  end, { desc = 'reviewls: explain the symbol under the cursor' })

  vim.api.nvim_create_user_command('ReviewlsInvestigate', function(cmd)
    local client, bufnr, arg, root = context(reviewls)
    if not client then
      return
    end
    local args = vim.trim(cmd.args or '')
    local item, question = args:match('^(board%-%d+)%s*(.*)$')
    if item then
      return investigate(reviewls, client, bufnr, root, item, question)
    end
    -- The item is the board item holding the current file.
    local rel = relative(bufnr, root)
    reviewls.execute(client, 'reviewls.board', arg, bufnr, function(_, board)
      for _, it in ipairs(board and board.items or {}) do
        if rel and vim.tbl_contains(it.files or {}, rel) then
          return investigate(reviewls, client, bufnr, root, it.id, args)
        end
      end
      notify(string.format('no board item holds %s; name one: :ReviewlsInvestigate board-N question', rel or 'this buffer'), vim.log.levels.ERROR)
    end)
  end, { nargs = '*', desc = 'reviewls: investigate a question about a board item ([board-N] question)' })

  vim.api.nvim_create_user_command('ReviewlsStart', function()
    reviewls.start(0)
  end, { desc = 'reviewls: attach the current buffer' })
  vim.api.nvim_create_user_command('ReviewlsStop', function()
    reviewls.stop()
  end, { desc = 'reviewls: stop the language servers' })
end

return M
