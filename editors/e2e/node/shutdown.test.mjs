// Scenario 7: shutdown + exit ends the server with status 0.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EXIT_GRACE_MS } from './client.mjs';
import { finish, startWorkspace } from './workspace.mjs';

// stops is how many sessions the VS Code stop sequence runs on: the exit
// notification and the end of stdin arrive together, so an ordering bug
// shows only in some runs.
const stops = 10;

test(`shutdown, exit and end of stdin (vscode-languageclient's stop): exit status 0, ${stops} times`, async (t) => {
  const exits = [];
  for (let i = 0; i < stops; i++) {
    const c = await startWorkspace(t, { open: i === 0 });
    const exit = await finish(c);
    exits.push({ code: exit.code, signal: exit.signal, lingered: exit.lingered, log: exit.code === 0 ? '' : c.stderr.slice(-600) });
  }
  const bad = exits.filter((e) => e.code !== 0 || e.signal !== null || e.lingered);
  assert.deepEqual(bad, [], `${bad.length} of ${stops} stops did not exit 0 within ${EXIT_GRACE_MS} ms`);
});

test('shutdown and exit with stdin left open: the server exits with status 0 by itself', async (t) => {
  const c = await startWorkspace(t, { open: false });
  await c.waitFor(() => c.reviews.length > 0, 'a reviewls/didReview');
  const exit = await c.shutdown({ closeStdin: false });
  assert.equal(exit.result, null, 'shutdown result');
  assert.equal(exit.lingered, false,
    `the server still ran ${EXIT_GRACE_MS} ms after the exit notification; once stdin closed it exited with ${JSON.stringify({ code: exit.code, signal: exit.signal })}`);
  assert.deepEqual({ code: exit.code, signal: exit.signal }, { code: 0, signal: null });
});
