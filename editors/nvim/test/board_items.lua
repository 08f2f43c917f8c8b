-- Unit test of show.board_items, without a server:
--   nvim --headless -u NONE -c 'luafile editors/nvim/test/board_items.lua'
-- prints PASS, or FAIL lines and exits 1.
local dir = debug.getinfo(1, 'S').source:sub(2):match('(.*)/') or '.'
package.path = dir .. '/../lua/?.lua;' .. dir .. '/../lua/?/init.lua;' .. package.path
local show = require('reviewls.show')
local items = show.board_items({ items = { { id = 'board-1', area = 'tool', status = 'pending', summary = '2 modified in tool (+12 −3)',
  preliminarySignal = '1 critical: Hardcoded GitHub token at args.go:8. The change modifies args.go',
  links = { 'args.go:3', 'args_test.go:10' } } } }, '/repo')
local fail = false
local function check(ok, msg) if not ok then print('FAIL ' .. msg); fail = true end end
check(#items == 2, 'two entries')
check(items[1].text:find('1 critical: Hardcoded GitHub token at args.go:8', 1, true), 'first entry leads with the critical finding: ' .. items[1].text)
check(items[2].text == '[pending] board-1 tool: args_test.go changed (first change at line 10)', 'second entry is a per-file line: ' .. items[2].text)
check(items[2].filename == '/repo/args_test.go' and items[2].lnum == 10, 'second entry location')
if fail then os.exit(1) end print("PASS") os.exit(0)
