// Scenario 6: settings from initializationOptions and from
// workspace/didChangeConfiguration, as VS Code sends its "reviewls"
// configuration section.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { expected } from './client.mjs';
import { assertOnlyExpected, changedFiles, finish, startWorkspace } from './workspace.mjs';

const staged = (d) => d.state === 'staged';

// messageNaming waits for a window/showMessage or window/logMessage error
// or warning that names the setting key and its bad value.
function messageNaming(c, key, value) {
  return c.waitFor(() => c.messages.find((m) => m.type <= 2 && m.message.includes(key) && m.message.includes(value)),
    `an error message naming ${key} and ${JSON.stringify(value)}`);
}

test('scope "staged" in initializationOptions reports only the staged finding', async (t) => {
  const c = await startWorkspace(t, { initializationOptions: { reviewls: { scope: 'staged' } }, open: false });
  await c.waitFor(() => c.reviews.length > 0, 'a reviewls/didReview');
  const res = await c.executeCommand('reviewls.review', [{}]);
  const want = expected.diagnostics.filter(staged);
  assert.equal(res.findings, want.length, 'findings');
  assert.equal(res.files, new Set(want.map((d) => d.file)).size, 'files: the staged ones');
  assertOnlyExpected(c, staged);
  const r = c.reviews.at(-1);
  assert.equal(r.findings, want.length, 'reviewls/didReview findings');
  assert.deepEqual(r.board.map((b) => b.area), ['app'], 'the board holds the staged area only');

  // Open buffers do not widen a staged review.
  for (const f of changedFiles) await c.open(f);
  await c.executeCommand('reviewls.review', [{}]);
  assertOnlyExpected(c, staged);
  await finish(c);
});

test('a bad setting is reported naming its key; the server keeps serving with valid settings', async (t) => {
  const c = await startWorkspace(t, { initializationOptions: { reviewls: { depth: 'deep' } }, open: false });
  await messageNaming(c, 'depth', 'deep');
  const res = await c.executeCommand('reviewls.review', [{}]);
  assert.match(res.depth, /^(basic|standard|comprehensive)$/, 'depth falls back to a valid one');
  assert.equal(res.findings, expected.diagnostics.length, 'the defaults review everything');
  assertOnlyExpected(c);

  // A bad value sent later leaves the settings as they were.
  await c.configure({ scope: 'everything' });
  await messageNaming(c, 'scope', 'everything');
  const same = await c.executeCommand('reviewls.review', [{}]);
  assert.deepEqual(same, res, 'review unchanged after a bad setting');

  // A good value sent later takes effect.
  await c.configure({ scope: 'staged' });
  const want = expected.diagnostics.filter(staged);
  await c.waitFor(() => c.reviews.at(-1)?.findings === want.length, 'a review with the staged findings only');
  assertOnlyExpected(c, staged);
  await finish(c);
});
