-- How reviewls findings read in Neovim's floats: vim.diagnostic.open_float()
-- shows a reviewls diagnostic as its headline, its rule and its rationale
-- (the server sends the rationale in the diagnostic's data), and the hover
-- opens in the same kind of float, bordered and wrapped.
local M = {}

-- The format function installed in vim.diagnostic.config().float, and the
-- one it found there, which it keeps for the other diagnostics.
local installed, user_format
-- The width the float's text is wrapped at (its max_width), or nil.
local float_width

-- open_float() numbers the diagnostics of a line ("1. "), and indents their
-- further lines as far.
local prefix_width = 3

-- wrap breaks line at blanks into lines of at most width display cells
-- (a longer word, such as a URL, keeps a line of its own), each indented
-- like line. Neovim wraps a float's lines at any character.
function M.wrap(line, width)
  if not width or vim.fn.strdisplaywidth(line) <= width then
    return { line }
  end
  local indent = line:match('^%s*')
  local out, cur = {}, ''
  for word in line:gmatch('%S+') do
    local next_line = cur == '' and indent .. word or cur .. ' ' .. word
    if cur ~= '' and vim.fn.strdisplaywidth(next_line) > width then
      table.insert(out, cur)
      next_line = indent .. word
    end
    cur = next_line
  end
  table.insert(out, cur)
  return out
end

-- wrap_markdown wraps the lines of a markdown text at width, leaving code
-- blocks as they are.
function M.wrap_markdown(lines, width)
  local out, code = {}, false
  for _, line in ipairs(lines) do
    if line:match('^%s*```') then
      code = not code
    end
    vim.list_extend(out, code and { line } or M.wrap(line, width))
  end
  return out
end

-- lsp_data returns the data of the LSP diagnostic behind d (0.7 keeps the
-- fields it does not map in user_data.lsp; later versions the whole
-- diagnostic), or nil.
local function lsp_data(d)
  local lsp = type(d.user_data) == 'table' and d.user_data.lsp
  return type(lsp) == 'table' and type(lsp.data) == 'table' and lsp.data or nil
end

-- text returns what the float shows of a diagnostic: for a reviewls one its
-- headline, rule and rationale, one a line; for another what the user's
-- format (or Neovim) would show.
function M.text(d)
  local data = lsp_data(d)
  if d.source ~= 'reviewls' or not data then
    if user_format then
      return user_format(d)
    end
    return d.message
  end
  local lines = { d.message }
  local rule = d.code or data.rule
  if rule and rule ~= vim.NIL then
    table.insert(lines, tostring(rule))
  end
  if type(data.rationale) == 'string' and data.rationale ~= '' then
    vim.list_extend(lines, M.wrap(data.rationale, float_width and float_width - prefix_width))
  end
  return table.concat(lines, '\n')
end

-- setup makes opts (e.g. {border = 'rounded', max_width = 80}) the
-- defaults of vim.diagnostic.open_float(), under any float options the user
-- set, and installs the format of reviewls diagnostics. opts false leaves
-- the diagnostic configuration alone.
function M.setup(opts)
  if not opts then
    return
  end
  local cur = vim.diagnostic.config().float
  cur = type(cur) == 'table' and vim.deepcopy(cur) or {}
  if cur.format ~= installed then
    user_format = cur.format
  end
  local float = vim.tbl_extend('keep', cur, opts)
  float_width = float.max_width
  installed = M.text
  float.format = installed
  vim.diagnostic.config({ float = float })
end

-- hover returns the client's textDocument/hover handler: Neovim's, in a
-- float with opts, its text wrapped at words to opts.max_width; nil for
-- opts false, and from Neovim 0.11 on, whose vim.lsp.buf.hover() takes no
-- handler (it takes its options, and 'winborder').
function M.hover(opts)
  if not opts or vim.fn.has('nvim-0.11') == 1 then
    return nil
  end
  return function(err, result, ctx)
    if type(result) == 'table' and result.contents and opts.max_width then
      local lines = vim.lsp.util.convert_input_to_markdown_lines(result.contents)
      local value = table.concat(M.wrap_markdown(lines, opts.max_width), '\n')
      result = vim.tbl_extend('force', result, { contents = { kind = 'markdown', value = value } })
    end
    return vim.lsp.handlers.hover(err, result, ctx, vim.deepcopy(opts))
  end
end

return M
