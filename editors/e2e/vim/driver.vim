" driver.vim: drives `reviewls serve` from real Vim 9 + ALE (Debian's vim and
" vim-ale) on the shared fixture (editors/e2e/fixture.sh) and checks it against
" editors/e2e/expected.json. run.sh runs it as
"   vim -N -u NONE -i NONE -n -es -S driver.vim
" with E2E_REVIEWLS, E2E_REPO, E2E_EXPECTED, E2E_RESULTS and E2E_ALE_DIR set.
" Every check appends "PASS name (detail)" or "FAIL name: detail" to
" E2E_RESULTS; Vim exits 0 when all passed, 1 otherwise.
"
" ALE is a client with habits of its own: it sends whole-document didChange,
" a version counter shared by all buffers, no workspaceFolders, and it never
" answers server requests nor sends shutdown/exit; its loclist folds
" Information into 'W'. The raw publishDiagnostics are recorded beside it.

set nocompatible
" Buffers stay loaded when another is edited: ALE clamps a loclist to its
" buffer's lines.
set hidden
let s:t0 = reltime()
let s:results = []
let s:failed = 0
let s:raw = {}        " uri -> diagnostics of the latest publishDiagnostics
let s:texts = []      " every message the server sent, JSON-encoded
let s:responses = {}

function! s:ms() abort
  return float2nr(reltimefloat(reltime(s:t0)) * 1000)
endfunction

function! s:env(k) abort
  let l:v = getenv(a:k)
  if l:v is v:null || l:v ==# ''
    throw a:k . ' is not set'
  endif
  return l:v
endfunction

function! s:pass(name, detail) abort
  call add(s:results, printf('PASS %s (%s)', a:name, a:detail))
endfunction

function! s:fail(name, detail) abort
  call add(s:results, printf('FAIL %s: %s', a:name, a:detail))
  let s:failed += 1
endfunction

" check runs Fn and records its result: the detail it returns, or the
" exception it throws.
function! s:check(name, Fn) abort
  let l:start = s:ms()
  try
    let l:detail = a:Fn()
    call s:pass(a:name, printf('%s, %d ms', l:detail, s:ms() - l:start))
    return 1
  catch
    call s:fail(a:name, substitute(v:exception, '^Vim(\w\+):', '', ''))
    return 0
  endtry
endfunction

function! s:finish() abort
  call writefile(s:results, s:env('E2E_RESULTS'))
  silent! call ale#lsp#StopAll()
  execute s:failed ? 'cquit 1' : 'qall!'
endfunction

" wait lets Vim run channel callbacks (:sleep does, also in -es mode) until
" Pred holds or ms pass.
function! s:wait(ms, Pred) abort
  let l:deadline = s:ms() + a:ms
  while !a:Pred() && s:ms() < l:deadline
    sleep 20m
  endwhile
  return a:Pred()
endfunction

function! s:OnMessage(conn_id, message) abort
  call add(s:texts, json_encode(a:message))
  if get(a:message, 'method', '') ==# 'textDocument/publishDiagnostics'
    let s:raw[a:message.params.uri] = a:message.params.diagnostics
  endif
endfunction

function! s:OnStart(linter, details) abort
  call ale#lsp#RegisterCallback(a:details.connection_id, function('s:OnMessage'))
  let s:connected = 1
endfunction

function! s:OnResponse(key, response) abort
  let s:responses[a:key] = a:response
endfunction

" request sends a request on ALE's connection for bufnr and returns the whole
" response (result or error).
function! s:request(bufnr, method, params) abort
  let l:key = a:method . '#' . s:ms() . '#' . len(s:responses)
  call ale#lsp_linter#SendRequest(a:bufnr, 'reviewls', [0, a:method, a:params], function('s:OnResponse', [l:key]))
  if !s:wait(20000, {-> has_key(s:responses, l:key)})
    throw a:method . ': no response within 20 s'
  endif
  return remove(s:responses, l:key)
endfunction

function! s:command(bufnr, command, args) abort
  return s:request(a:bufnr, 'workspace/executeCommand', {'command': a:command, 'arguments': a:args})
endfunction

let s:filetypes = {'go': 'go', 'py': 'python', 'ts': 'typescript', 'mod': 'gomod'}
let s:languages = {'go': 'go', 'python': 'python', 'typescript': 'typescript', 'gomod': 'go.mod'}
let s:types = {1: 'E', 2: 'W', 3: 'W', 4: 'W'}

" loclist is ALE's list for the file, from the reviewls linter only.
function! s:loclist(rel) abort
  let l:info = get(g:ale_buffer_info, bufnr(s:repo . '/' . a:rel), {})
  return filter(deepcopy(get(l:info, 'loclist', [])), {_, d -> get(d, 'linter_name', '') ==# 'reviewls'})
endfunction

" shown lists the diagnostics Vim shows for the file as
" "line:col:type:code" (1-based; the fixture is ASCII, so ALE's byte column
" is the CLI's).
function! s:shown(rel) abort
  return sort(map(s:loclist(a:rel), {_, d -> printf('%d:%d:%s:%s', d.lnum, d.col, d.type, get(d, 'code', ''))}))
endfunction

function! s:wanted_shown(rel) abort
  let l:want = filter(copy(s:expected.diagnostics), {_, d -> d.file ==# a:rel})
  return sort(map(l:want, {_, d -> printf('%d:%d:%s:%s', d.line, d.col, s:types[d.severity], d.rule)}))
endfunction

function! s:uri(rel) abort
  return ale#path#ToFileURI(s:repo . '/' . a:rel)
endfunction

function! s:CheckDiagnostics() abort
  let l:All = {-> empty(filter(copy(s:expected.files), {_, f -> s:shown(f) != s:wanted_shown(f)}))}
  call s:wait(30000, l:All)
  call s:wait(500, {-> 0}) " late re-publishes
  let l:wrong = []
  for l:f in s:expected.files
    " What Vim shows (ALE's loclist, 1-based lines)...
    if s:shown(l:f) != s:wanted_shown(l:f)
      call add(l:wrong, printf('%s shows [%s], want [%s]', l:f, join(s:shown(l:f), ' '), join(s:wanted_shown(l:f), ' ')))
    endif
    " ...and what the server sent, with the exact severity.
    let l:want = filter(copy(s:expected.diagnostics), {_, d -> d.file ==# l:f})
    let l:want = sort(map(l:want, {_, d -> printf('%d:%d:%s:%s', d.line - 1, d.severity, d.rule, d.state)}))
    let l:got = sort(map(deepcopy(get(s:raw, s:uri(l:f), [])),
    \ {_, d -> printf('%d:%d:%s:%s', d.range.start.line, d.severity, get(d, 'code', ''), get(get(d, 'data', {}), 'lineState', ''))}))
    if l:got != l:want
      call add(l:wrong, printf('%s: server published [%s], want [%s] (0-based line:severity:code:state)', l:f, join(l:got, ' '), join(l:want, ' ')))
    endif
    for l:d in get(s:raw, s:uri(l:f), [])
      if get(l:d, 'source', '') !=# 'reviewls'
        call add(l:wrong, printf('%s: diagnostic source %s, want reviewls', l:f, string(get(l:d, 'source', ''))))
      endif
    endfor
  endfor
  if !empty(l:wrong)
    throw join(l:wrong, '; ')
  endif
  return printf('%d diagnostics on their lines in %d files, nothing elsewhere', len(s:expected.diagnostics), len(s:expected.files))
endfunction

function! s:CheckSecret() abort
  let l:secret = s:expected.secret
  let l:all = join(s:texts, "\n")
  if stridx(l:all, l:secret.value) >= 0
    throw 'the secret appears in a server message'
  endif
  let l:shown = join(map(s:loclist(l:secret.file), {_, d -> d.text}), ' ')
  if stridx(l:shown, l:secret.message) < 0
    throw printf('%s shows "%s", want the headline %s', l:secret.file, l:shown, l:secret.message)
  endif
  return printf('%d messages checked; %s shows %s', len(s:texts), l:secret.file, l:secret.message)
endfunction

function! s:CheckExplain() abort
  let l:ex = s:expected.explain
  let l:buf = bufnr(s:repo . '/' . l:ex.file)
  let l:pos = {'line': l:ex.line - 1, 'character': l:ex.character}
  let l:r = s:request(l:buf, 'textDocument/codeAction', {'textDocument': {'uri': s:uri(l:ex.file)},
  \ 'range': {'start': l:pos, 'end': l:pos}, 'context': {'diagnostics': []}})
  if has_key(l:r, 'error')
    throw 'codeAction: ' . l:r.error.message
  endif
  let l:actions = type(get(l:r, 'result', v:null)) == v:t_list ? l:r.result : []
  let l:hit = {}
  for l:a in l:actions
    let l:c = get(l:a, 'command', {})
    if type(l:c) == v:t_dict && get(l:c, 'command', '') ==# 'reviewls.explain'
      let l:hit = l:a
      break
    endif
  endfor
  if empty(l:hit)
    throw printf('action missing: no reviewls.explain among [%s] at %s:%d:%d', join(map(copy(l:actions), {_, a -> a.title}), ', '), l:ex.file, l:ex.line, l:ex.character)
  endif
  let l:r = s:command(l:buf, l:hit.command.command, get(l:hit.command, 'arguments', []))
  if has_key(l:r, 'error')
    throw 'command error: reviewls.explain: ' . l:r.error.message
  endif
  let l:res = l:r.result
  let l:file = printf('%s/%s/explanations/%s-%s.md', s:repo, l:ex.artifactDir, l:ex.item, l:ex.symbol)
  if get(l:res, 'symbol', '') !=# l:ex.symbol || get(l:res, 'item', '') !=# l:ex.item
    throw printf('explained %s of %s, want %s of %s', get(l:res, 'symbol', ''), get(l:res, 'item', ''), l:ex.symbol, l:ex.item)
  endif
  if !filereadable(l:file)
    throw 'the explanation artifact was not written: ' . l:file
  endif
  if join(readfile(l:file), "\n") !=# substitute(get(l:res, 'markdown', ''), '\n$', '', '')
    throw 'the returned markdown differs from ' . l:file
  endif
  if stridx(l:res.markdown, l:ex.change) < 0
    throw printf('the explanation does not say "%s"', l:ex.change)
  endif
  return printf('"%s" -> %s (%s), %s', l:hit.title, l:res.symbol, l:ex.change, fnamemodify(l:file, ':t'))
endfunction

function! s:CheckFix() abort
  let l:fx = s:expected.fix
  let l:buf = bufnr(s:repo . '/' . l:fx.file)
  execute 'buffer ' . l:buf
  call setline(l:fx.line, l:fx.text)
  ALELint
  let l:Gone = {-> empty(filter(s:loclist(l:fx.file), {_, d -> get(d, 'code', '') ==# l:fx.clears}))}
  if !s:wait(20000, l:Gone)
    throw printf('%s still shown on %s:%d after the buffer edit', l:fx.clears, l:fx.file, l:fx.line)
  endif
  " Only that finding goes: the other files keep theirs.
  let l:others = filter(copy(s:expected.files), {_, f -> f !=# l:fx.file && s:shown(f) != s:wanted_shown(f)})
  if !empty(l:others)
    throw 'the edit changed the diagnostics of ' . join(l:others, ', ')
  endif
  if filereadable(s:repo . '/' . l:fx.file) && readfile(s:repo . '/' . l:fx.file)[l:fx.line - 1] ==# l:fx.text
    throw 'the file on disk changed: the edit was meant to stay unsaved'
  endif
  return printf('%s cleared in the unsaved buffer', l:fx.clears)
endfunction

function! s:CheckBadArgument() abort
  let l:buf = bufnr(s:repo . '/' . s:expected.explain.file)
  let l:r = s:command(l:buf, 'reviewls.investigate', [{'item': 'board-99', 'question': 'why?'}])
  if !has_key(l:r, 'error')
    throw 'reviewls.investigate on board-99 succeeded: ' . json_encode(l:r.result)
  endif
  if stridx(l:r.error.message, 'board-99') < 0
    throw 'the error does not name board-99: ' . l:r.error.message
  endif
  let l:b = s:command(l:buf, 'reviewls.board', [])
  if has_key(l:b, 'error')
    throw 'command error: reviewls.board after the bad request: ' . l:b.error.message
  endif
  let l:ids = map(copy(get(l:b.result, 'items', [])), {_, it -> it.id . ':' . it.area})
  let l:want = map(copy(s:expected.board), {_, it -> it.id . ':' . it.area})
  if l:ids != l:want
    throw printf('reviewls.board lists [%s], want [%s]', join(l:ids, ' '), join(l:want, ' '))
  endif
  return printf('error %d "%s"; the board still lists %s', l:r.error.code, l:r.error.message, join(l:ids, ' '))
endfunction

function! s:CheckShutdown() abort
  let l:buf = bufnr(s:repo . '/' . s:expected.explain.file)
  let l:jobs = filter(job_info(), {_, j -> job_status(j) ==# 'run'})
  if len(l:jobs) != 1
    throw printf('%d server jobs running, want 1 (one per repository)', len(l:jobs))
  endif
  " ALE never sends shutdown/exit itself (ale#lsp#StopAll stops the job).
  let l:r = s:request(l:buf, 'shutdown', v:null)
  if has_key(l:r, 'error')
    throw 'shutdown: ' . l:r.error.message
  endif
  call ale#lsp_linter#SendRequest(l:buf, 'reviewls', [1, 'exit'])
  if !s:wait(5000, {-> job_status(l:jobs[0]) !=# 'run'})
    throw 'server did not exit within 5 s of exit'
  endif
  let l:code = job_info(l:jobs[0]).exitval
  if l:code != 0
    throw printf('server did not exit 0 after shutdown/exit: exit status %d', l:code)
  endif
  return 'exit status 0'
endfunction

function! s:main() abort
  let s:repo = s:env('E2E_REPO')
  let s:expected = json_decode(join(readfile(s:env('E2E_EXPECTED')), "\n"))
  let l:server = s:env('E2E_REVIEWLS')
  " ALE silently skips a linter whose executable is missing.
  if !executable(l:server)
    throw 'server did not start: not executable: ' . l:server
  endif

  execute 'set runtimepath^=' . fnameescape(s:env('E2E_ALE_DIR'))
  let g:ale_linters_explicit = 1
  let g:ale_lint_on_enter = 0
  let g:ale_lint_on_text_changed = 'never'
  let g:ale_lint_on_insert_leave = 0
  let g:ale_lint_on_save = 0
  let g:ale_lint_on_filetype_changed = 0
  let g:ale_set_signs = 0
  let g:ale_set_highlights = 0
  let g:ale_echo_cursor = 0
  let g:ale_virtualtext_cursor = 'disabled'
  let g:ale_set_loclist = 0
  let g:ale_set_quickfix = 0
  runtime plugin/ale.vim
  let g:ale_linters = {}
  for l:ft in keys(s:languages)
    call ale#linter#Define(l:ft, {
    \ 'name': 'reviewls',
    \ 'lsp': 'stdio',
    \ 'executable': l:server,
    \ 'command': ale#Escape(l:server) . ' serve',
    \ 'project_root': s:repo,
    \ 'language': s:languages[l:ft],
    \})
    let g:ale_linters[l:ft] = ['reviewls']
  endfor
  execute 'cd ' . fnameescape(s:repo)

  " Record every server message on ALE's connection (registered when it
  " initializes, before any notification can arrive).
  let s:connected = 0
  let l:first = s:repo . '/' . s:expected.files[0]
  execute 'edit ' . fnameescape(l:first)
  let &l:filetype = s:filetypes[fnamemodify(l:first, ':e')]
  let l:linter = filter(ale#linter#GetAll([&l:filetype]), {_, l -> l.name ==# 'reviewls'})[0]
  call ale#lsp_linter#StartLSP(bufnr('%'), l:linter, function('s:OnStart'))
  if !s:wait(20000, {-> s:connected})
    throw 'server did not start: ALE got no initialize response within 20 s'
  endif

  let l:start = s:ms()
  for l:f in s:expected.files
    execute 'edit ' . fnameescape(s:repo . '/' . l:f)
    let &l:filetype = s:filetypes[fnamemodify(l:f, ':e')]
    ALELint
  endfor
  call s:pass('start', printf('ALE started %s serve, %d files opened, %d ms', fnamemodify(l:server, ':t'), len(s:expected.files), s:ms() - l:start))

  call s:check('diagnostics', function('s:CheckDiagnostics'))
  call s:check('secret-redacted', function('s:CheckSecret'))
  call s:check('code-action-explain', function('s:CheckExplain'))
  call s:check('unsaved-fix', function('s:CheckFix'))
  call s:check('bad-argument', function('s:CheckBadArgument'))
  call s:check('shutdown', function('s:CheckShutdown'))
endfunction

try
  call s:main()
catch
  call s:fail('driver', v:exception . ' @ ' . v:throwpoint)
endtry
call s:finish()
