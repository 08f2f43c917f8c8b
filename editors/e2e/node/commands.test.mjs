// Scenario 5: every reviewls.* command advertised in initialize, run the
// way VS Code runs a registered command (workspace/executeCommand), with
// good and with bad arguments.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ResponseError } from 'vscode-languageserver-protocol/node';
import { expected } from './client.mjs';
import {
  artifactFolder, assertOnlyExpected, board, boardState, changedFiles, finish, startWorkspace, statuses,
} from './workspace.mjs';

const commands = [
  'reviewls.review', 'reviewls.walkthrough', 'reviewls.board', 'reviewls.bookmark', 'reviewls.explain',
  'reviewls.investigate', 'reviewls.selectPerspectives', 'reviewls.setDepth', 'reviewls.sweep', 'reviewls.emit',
  'reviewls.notes',
];

const ex = expected.explain;
const perspectives = /^(functional|standards|accessibility|security|readiness)$/;

// expectedCounts derives a review's counts from expected.json's LSP
// severities: Error is critical or high, Warning medium, Information low.
function expectedCounts(keep = () => true) {
  const ds = expected.diagnostics.filter(keep);
  const n = (s) => ds.filter((d) => d.severity === s).length;
  return { errors: n(1), medium: n(2), low: n(3) };
}

function assertSummary(res, { findings, counts }) {
  for (const k of ['target', 'branch', 'files', 'findings', 'counts', 'verdict', 'depth', 'perspectives', 'artifactFolder']) {
    assert.ok(k in res, `result has ${k}: ${JSON.stringify(res)}`);
  }
  assert.equal(res.target, 'local_changes');
  assert.equal(res.branch, 'main');
  assert.equal(res.files, changedFiles.length, 'files');
  assert.equal(res.findings, findings, 'findings');
  assert.deepEqual({ errors: res.counts.critical + res.counts.high, medium: res.counts.medium, low: res.counts.low }, counts, 'counts');
  assert.match(res.verdict, /^(request_changes|approve_with_comments|approve)$/);
  assert.match(res.depth, /^(basic|standard|comprehensive)$/);
  for (const p of res.perspectives) assert.match(p, perspectives);
  assert.ok(existsSync(res.artifactFolder), `${res.artifactFolder} exists`);
}

test('every advertised command with good arguments', async (t) => {
  const c = await startWorkspace(t);
  const folder = artifactFolder(c.repo);
  const run = (cmd, arg) => c.executeCommand(cmd, [arg]);

  await t.test('initialize advertises exactly the reviewls commands', () => {
    assert.deepEqual([...c.init.capabilities.executeCommandProvider.commands].sort(), [...commands].sort());
  });

  await t.test('reviewls.review', async () => {
    const res = await run('reviewls.review', {});
    assertSummary(res, { findings: expected.diagnostics.length, counts: expectedCounts() });
    assert.equal(res.artifactFolder, folder);
    assert.equal(res.verdict, 'request_changes', 'a critical finding requests changes');
  });

  await t.test('reviewls.walkthrough', async () => {
    const res = await run('reviewls.walkthrough', {});
    assert.equal(res.path, join(folder, 'walkthrough.md'));
    assert.ok(existsSync(res.path), `${res.path} exists`);
    for (const f of changedFiles) assert.ok(res.markdown.includes(f), `walkthrough mentions ${f}`);
    assert.equal(readFileSync(res.path, 'utf8'), res.markdown, 'walkthrough.md holds the markdown returned');
  });

  await t.test('reviewls.board', async () => {
    const b = await board(c);
    assert.equal(b.path, join(folder, 'dispatch-board.md'));
    assert.ok(existsSync(b.path), `${b.path} exists`);
    assert.equal(typeof b.currentPhase, 'string');
    assert.deepEqual(Object.keys(b.phaseGates).sort(), ['emissionReady', 'humanAccepted', 'orientationConfirmed', 'walkbackComplete']);
    assert.equal(b.phaseGates.orientationConfirmed, true, 'showing the board confirms orientation');
    assert.deepEqual(b.items.map(({ id, area }) => ({ id, area })), expected.board);
    const ids = new Set();
    for (const it of b.items) {
      assert.equal(it.status, 'pending', `${it.id} status`);
      assert.match(it.register, /\S/);
      assert.match(it.summary, /\S/);
      assert.ok(it.files.length > 0, `${it.id} has files`);
      for (const l of it.links) {
        assert.match(l, /^[\w./-]+:\d+$/, `${it.id} link ${l}`);
        assert.ok(it.files.includes(l.slice(0, l.lastIndexOf(':'))), `${it.id} link ${l} is in one of its files`);
      }
      it.findings.forEach((f) => ids.add(f));
    }
    assert.deepEqual(b.items.flatMap((it) => it.files).sort(), [...changedFiles].sort(), 'the items cover the changed files');
    const published = Object.values(c.published()).flat().map((d) => d.data.id).sort();
    assert.deepEqual([...ids].sort(), published, 'the items hold the published findings');
    assert.ok(b.items.find((it) => it.id === ex.item).selectableSymbols.includes(ex.symbol), `${ex.item} offers ${ex.symbol}`);
    assert.ok(Array.isArray(b.nextActions));
    for (const it of b.items) assert.ok(b.markdown.includes(it.id), `board markdown lists ${it.id}`);
  });

  await t.test('reviewls.bookmark', async () => {
    const question = 'Where does the uploader read the key?';
    const res = await run('reviewls.bookmark', { item: 'board-2', question });
    assert.equal(res.item.id, 'board-2');
    assert.equal(res.item.status, 'in_progress');
    assert.equal(res.action.kind, 'bookmark');
    assert.equal(res.action.target, 'board-2');
    assert.equal(res.action.reason, question);
    assert.match(res.route, /^(explain|investigate)$/);
    const b = await board(c);
    assert.deepEqual(statuses(b), { 'board-1': 'pending', 'board-2': 'in_progress', 'board-3': 'pending' });
    assert.ok(b.nextActions.some((a) => a.id === res.action.id), 'the bookmark is a next action');
  });

  await t.test('reviewls.explain {item, symbol}', async () => {
    const res = await run('reviewls.explain', { item: ex.item, symbol: ex.symbol });
    assert.deepEqual({ item: res.item, symbol: res.symbol, change: res.change }, { item: ex.item, symbol: ex.symbol, change: ex.change });
    assert.equal(res.path, join(folder, 'explanations', `${ex.item}-${ex.symbol}.md`));
    assert.ok(existsSync(res.path), `${res.path} exists`);
    assert.ok(res.markdown.includes(ex.symbol));
    const b = await board(c);
    assert.deepEqual(b.items.find((it) => it.id === ex.item).explained, [`explanations/${ex.item}-${ex.symbol}.md`]);
    assert.deepEqual(statuses(b), { 'board-1': 'in_progress', 'board-2': 'in_progress', 'board-3': 'pending' }, 'explaining starts the item');
  });

  await t.test('reviewls.investigate', async () => {
    const res = await run('reviewls.investigate', { item: 'board-3', question: 'Can the debugger statement reach production?' });
    assert.equal(res.item, 'board-3');
    assert.equal(res.investigation, 'board-3-001');
    assert.equal(res.path, join(folder, 'walkback', 'board-3-001-register-2.md'));
    assert.ok(existsSync(res.path), `${res.path} exists`);
    assert.match(res.perspective, perspectives);
    assert.ok(res.checklist.length > 0, 'checklist');
    assert.match(res.conclusion, /\S/);
    assert.ok(Array.isArray(res.followOn));
    assert.match(res.markdown, /\S/);
    await c.waitFor(() => c.requests.some((r) => r.method === 'window/showDocument' && fileURLToPath(r.params.uri) === res.path),
      `window/showDocument for ${res.path}`);
    const b = await board(c);
    // Investigated, but its debugger finding is still open: an item with
    // an open finding is never complete.
    assert.deepEqual(statuses(b), { 'board-1': 'in_progress', 'board-2': 'in_progress', 'board-3': 'in_progress' });
    assert.deepEqual(b.items.find((it) => it.id === 'board-3').investigated.length, 1, 'board-3 records the investigation');
  });

  await t.test('reviewls.selectPerspectives', async () => {
    const security = (d) => d.rule.startsWith('security/');
    const res = await run('reviewls.selectPerspectives', { perspectives: ['security'] });
    assertSummary(res, { findings: expected.diagnostics.filter(security).length, counts: expectedCounts(security) });
    assert.deepEqual(res.perspectives, ['security']);
    // The review behind the result published its diagnostics first.
    assertOnlyExpected(c, security);
    const later = await run('reviewls.review', {});
    assert.deepEqual(later.perspectives, ['security'], 'a later review keeps the perspectives');
    assert.equal(later.findings, res.findings);
  });

  await t.test('reviewls.setDepth', async () => {
    const before = await run('reviewls.review', {});
    const depth = before.depth === 'basic' ? 'standard' : 'basic';
    const res = await run('reviewls.setDepth', { depth, rationale: 'a quick pass over a small change' });
    assert.equal(res.depth, depth);
    const later = await run('reviewls.review', {});
    assert.equal(later.depth, depth, 'a later review keeps the depth');
    assert.deepEqual(later.perspectives, ['security'], 'and the perspectives');
  });

  await t.test('reviewls.sweep', async () => {
    const res = await run('reviewls.sweep', {});
    assert.ok(res.board, 'sweep returns the board');
    assert.equal(res.depth, (await run('reviewls.review', {})).depth);
    assert.equal(res.board.phaseGates.walkbackComplete, true, 'walkback complete');
    // Only security is selected now: board-2's secret is still open, so it
    // stays in progress; the others have no open finding left.
    assert.deepEqual(statuses(res.board), { 'board-1': 'complete', 'board-2': 'in_progress', 'board-3': 'complete' });
    assert.deepEqual(statuses(await board(c)), statuses(res.board), 'reviewls.board agrees');
  });

  await t.test('reviewls.emit', async () => {
    const path = join(folder, 'emission-record.json');
    const skipped = await run('reviewls.emit', { confirm: false });
    assert.equal(skipped.path, path);
    assert.equal(skipped.record.status, 'skipped');
    assert.equal(skipped.emissionReady, false);
    assert.equal(JSON.parse(readFileSync(path, 'utf8')).status, 'skipped', 'emission-record.json says skipped');
    assert.equal((await board(c)).phaseGates.emissionReady, false);

    const done = await run('reviewls.emit', { confirm: true });
    assert.equal(done.path, path);
    assert.equal(done.record.status, 'completed');
    assert.equal(done.emissionReady, true);
    assert.equal(JSON.parse(readFileSync(path, 'utf8')).status, 'completed', 'emission-record.json says completed');
    assert.equal((await board(c)).phaseGates.emissionReady, true);
  });

  await t.test('reviewls.notes', async () => {
    const res = await run('reviewls.notes', {});
    assert.ok(Array.isArray(res.notes), 'notes is a list');
    for (const n of res.notes) assert.match(n.kind, /^(missing-tests|undocumented-api)$/);
  });

  await finish(c);
});

// Each bad call: the command, its argument list, and what the message
// must name.
const good = {
  'reviewls.review': {},
  'reviewls.walkthrough': {},
  'reviewls.board': {},
  'reviewls.bookmark': { item: 'board-1' },
  'reviewls.explain': { item: ex.item, symbol: ex.symbol },
  'reviewls.investigate': { item: 'board-1', question: 'Is Get safe for missing keys?' },
  'reviewls.selectPerspectives': { perspectives: ['security'] },
  'reviewls.setDepth': { depth: 'basic', rationale: 'small change' },
  'reviewls.sweep': {},
  'reviewls.emit': { confirm: false },
  'reviewls.notes': {},
};
const badCalls = [
  ['unknown item', 'reviewls.bookmark', [{ item: 'board-99' }], /board-99/],
  ['unknown item', 'reviewls.explain', [{ item: 'board-99', symbol: ex.symbol }], /board-99/],
  ['unknown item', 'reviewls.investigate', [{ item: 'board-99', question: 'Why?' }], /board-99/],
  ['unknown symbol', 'reviewls.explain', [{ item: ex.item, symbol: 'Store.Missing' }], /Store\.Missing/],
  ['unknown perspective', 'reviewls.selectPerspectives', [{ perspectives: ['security', 'style'] }], /style/],
  ['bad depth', 'reviewls.setDepth', [{ depth: 'deep', rationale: 'r' }], /deep/],
  ['missing item', 'reviewls.bookmark', [{}], /item/],
  ['missing symbol', 'reviewls.explain', [{ item: ex.item }], /symbol/],
  ['missing question', 'reviewls.investigate', [{ item: 'board-1' }], /question/],
  ['missing perspectives', 'reviewls.selectPerspectives', [{}], /perspectives/],
  ['missing depth', 'reviewls.setDepth', [{ rationale: 'r' }], /depth/],
  ['missing rationale', 'reviewls.setDepth', [{ depth: 'basic' }], /rationale/],
  ['missing confirm', 'reviewls.emit', [{}], /confirm/],
  ...commands.map((cmd) => ['unknown field', cmd, [{ ...good[cmd], colour: 'blue' }], /colour/]),
  ...commands.map((cmd) => ['non-object argument', cmd, ['board-1'], /object|cannot unmarshal string/]),
];

test('bad arguments: InvalidParams naming the problem, nothing changes', async (t) => {
  const c = await startWorkspace(t);
  await c.executeCommand('reviewls.bookmark', [{ item: 'board-2', question: 'Who reads the key?' }]);
  const state = async () => {
    const r = await c.executeCommand('reviewls.review', [{}]);
    return { board: boardState(await board(c)), depth: r.depth, perspectives: r.perspectives, findings: r.findings };
  };

  // Each case compares the state after it with the state after the case
  // before (unchanged, unless that case failed).
  let before = await state();
  const unchanged = async () => {
    const after = await state();
    const was = before;
    before = after;
    assert.deepEqual(after, was, 'state changed');
  };

  for (const [problem, cmd, args, names] of badCalls) {
    await t.test(`${cmd} ${JSON.stringify(args)} (${problem})`, async () => {
      const err = await c.executeCommand(cmd, args).then((res) => ({ accepted: res }), (e) => e);
      try {
        assert.ok(err instanceof ResponseError, `want an error response, got ${JSON.stringify(err).slice(0, 300)}`);
        assert.equal(err.code, -32602, `code (message: ${err.message})`);
        assert.match(err.message, names);
      } finally {
        await unchanged();
      }
    });
  }

  await t.test('unknown command', async () => {
    const err = await c.executeCommand('reviewls.nope', [{}]).then((res) => ({ accepted: res }), (e) => e);
    assert.ok(err instanceof ResponseError, `want an error response, got ${JSON.stringify(err)}`);
    assert.match(err.message, /reviewls\.nope/);
    await unchanged();
  });

  await t.test('unknown method: MethodNotFound, server still serving', async () => {
    const err = await c.request('reviewls/nope', {}).then((res) => ({ accepted: res }), (e) => e);
    assert.ok(err instanceof ResponseError, `want an error response, got ${JSON.stringify(err)}`);
    assert.equal(err.code, -32601);
    const b = await board(c);
    assert.deepEqual(b.items.map((it) => it.id), expected.board.map((it) => it.id));
    const pos = { line: ex.line - 1, character: ex.character };
    const actions = await c.codeActions(ex.file, { start: pos, end: pos });
    assert.ok(actions.some((a) => a.command?.command === 'reviewls.explain'), 'code actions still answered');
  });

  await finish(c);
});
