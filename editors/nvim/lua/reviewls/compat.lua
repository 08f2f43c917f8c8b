-- Client API differences between Neovim 0.7 and later versions: 0.11 made
-- client methods take self (client:request), 0.10 added vim.lsp.get_clients.
local M = {}

local methods = vim.fn.has('nvim-0.11') == 1

function M.get_clients()
  if vim.lsp.get_clients then
    return vim.lsp.get_clients()
  end
  return vim.lsp.get_active_clients()
end

function M.is_attached(bufnr, client_id)
  return vim.lsp.buf_is_attached(bufnr, client_id)
end

function M.request(client, method, params, handler, bufnr)
  if methods then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
end

function M.notify(client, method, params)
  if methods then
    return client:notify(method, params)
  end
  return client.notify(method, params)
end

function M.stop(client, force)
  if methods then
    return client:stop(force)
  end
  return client.stop(force)
end

function M.is_stopped(client)
  if methods then
    return client:is_stopped()
  end
  return client.is_stopped()
end

return M
