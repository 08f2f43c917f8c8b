// Scenario 2: the "Explain" code action at the explain target, executed the
// way VS Code executes a code action's command.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expected } from './client.mjs';
import { artifactFolder, board, finish, startWorkspace } from './workspace.mjs';

test('Explain code action: reviewls.explain writes the explanation and asks the editor to show it', async (t) => {
  const c = await startWorkspace(t);
  const ex = expected.explain;
  const pos = { line: ex.line - 1, character: ex.character };

  // VS Code asks for code actions at the cursor with the diagnostics there
  // (none on this line).
  const actions = await c.codeActions(ex.file, { start: pos, end: pos });
  const name = ex.symbol.split('.').pop();
  const explain = actions.find((a) => a.command?.command === 'reviewls.explain');
  assert.ok(explain, `no reviewls.explain action among ${JSON.stringify(actions.map((a) => a.title))}`);
  assert.equal(explain.title, `reviewls: Explain ${name}`);
  assert.equal(explain.kind, 'refactor.reviewls.explain');
  assert.ok(actions.some((a) => a.command?.command === 'reviewls.investigate' && a.kind === 'refactor.reviewls.investigate'), 'Investigate action');
  assert.ok(actions.some((a) => a.command?.command === 'reviewls.review' && a.kind === 'source.reviewls.review'), 'Review now action');

  const res = await c.executeCommand(explain.command.command, explain.command.arguments);
  const path = join(artifactFolder(c.repo), 'explanations', `${ex.item}-${ex.symbol}.md`);
  assert.equal(res.symbol, ex.symbol);
  assert.equal(res.item, ex.item);
  assert.equal(res.change, ex.change);
  assert.equal(res.path, path);
  assert.ok(existsSync(path), `${path} exists`);
  assert.equal(readFileSync(path, 'utf8'), res.markdown, 'the file holds the markdown returned');
  assert.ok(res.markdown.includes(ex.symbol), 'the markdown mentions the symbol');
  assert.ok(Array.isArray(res.followOn), 'followOn is a list');

  // The editor is asked to open the explanation.
  const shown = await c.waitFor(() => c.requests.find((r) => r.method === 'window/showDocument' && fileURLToPath(r.params.uri) === path),
    `window/showDocument for ${path}`);
  assert.equal(shown.params.external ?? false, false, 'shown inside the editor');

  // The board records the explanation.
  const b = await board(c);
  const item = b.items.find((it) => it.id === ex.item);
  assert.deepEqual(item.explained, [`explanations/${ex.item}-${ex.symbol}.md`]);

  await finish(c);
});
