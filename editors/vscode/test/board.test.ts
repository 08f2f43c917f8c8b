import * as assert from 'node:assert/strict';
import { test } from 'node:test';

import { boardModel, itemForFile, parseLink, statusIcon } from '../src/board';

// The shape of reviewls.board's result (lsp/loop_commands.go, review/orient.go).
const result = {
  path: '/repo/.copilot-tracking/reviews/code-reviews/main/dispatch-board.md',
  currentPhase: 'dispatch',
  items: [
    {
      id: 'board-1',
      area: 'app',
      status: 'in_progress',
      register: 'R1',
      summary: 'app: 2 files changed',
      preliminarySignal: 'Store.Get body changed',
      links: ['app/store.go:11', 'app/handler.py:2'],
      selectableSymbols: ['Store.Get', 'load'],
      files: ['app/store.go', 'app/handler.py'],
      findings: ['F-001'],
      explained: [],
      investigated: [],
    },
    { id: 'board-2', area: 'config', status: 'pending', summary: 'config: 1 file', preliminarySignal: '', links: ['config/creds.go:1'], selectableSymbols: [], files: ['config/creds.go'] },
    { id: 'board-3', area: 'web', status: 'complete', summary: '', links: [], files: ['web/debug.ts'] },
  ],
};

test('board items become nodes with status icons, status descriptions and tooltips', () => {
  const nodes = boardModel(result);
  assert.deepEqual(
    nodes.map((n) => [n.id, n.label, n.icon, n.description]),
    [
      ['board-1', 'board-1  app', 'sync', 'in_progress'],
      ['board-2', 'board-2  config', 'circle-outline', 'pending'],
      ['board-3', 'board-3  web', 'pass', 'complete'],
    ],
  );
  assert.equal(nodes[0].tooltip, 'app: 2 files changed\n\nPreliminary signal: Store.Get body changed');
  assert.equal(nodes[1].tooltip, 'config: 1 file');
  assert.equal(nodes[2].tooltip, 'board-3 (web)');
  assert.deepEqual(nodes[0].symbols, ['Store.Get', 'load']);
  assert.deepEqual(nodes[2].symbols, []);
});

test('links become children holding the file and the 1-based line', () => {
  const [app, config, web] = boardModel(result);
  assert.deepEqual(app.links, [
    { kind: 'link', item: 'board-1', label: 'app/store.go:11', file: 'app/store.go', line: 11 },
    { kind: 'link', item: 'board-1', label: 'app/handler.py:2', file: 'app/handler.py', line: 2 },
  ]);
  assert.deepEqual(config.links.map((l) => [l.file, l.line]), [['config/creds.go', 1]]);
  assert.deepEqual(web.links, []);
});

test('parseLink splits at the last colon and defaults to line 1', () => {
  assert.deepEqual(parseLink('a:b/c.go:12'), { file: 'a:b/c.go', line: 12 });
  assert.deepEqual(parseLink('README.md'), { file: 'README.md', line: 1 });
  assert.deepEqual(parseLink('x.go:0'), { file: 'x.go', line: 1 });
  assert.deepEqual(parseLink('dir/x.go:7:'), { file: 'dir/x.go:7:', line: 1 });
});

test('unknown statuses and empty results do not break the view', () => {
  assert.equal(statusIcon('blocked'), 'question');
  assert.deepEqual(boardModel(undefined), []);
  assert.deepEqual(boardModel({ path: '/x' }), []);
});

test('itemForFile finds the one item holding a file', () => {
  const nodes = boardModel(result);
  assert.equal(itemForFile(nodes, 'app/handler.py'), 'board-1');
  assert.equal(itemForFile(nodes, 'web/debug.ts'), 'board-3');
  assert.equal(itemForFile(nodes, 'web/cart.ts'), undefined);
});
