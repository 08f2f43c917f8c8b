import * as assert from 'node:assert/strict';
import { test } from 'node:test';

import { changedKeys, serverSettings, settingsPayload } from '../src/settings';

const from = (o: Record<string, unknown>) => (k: string) => o[k];

test('defaults send no settings, so the server and .reviewls.yaml decide', () => {
  const defaults = { path: '', scope: 'worktree', profile: '', depth: '', perspectives: [], base: '', quietWindow: 0, codeLens: 'symbols' };
  assert.deepEqual(settingsPayload(serverSettings(from(defaults))), { reviewls: { scope: 'worktree', codeLens: 'symbols' } });
  assert.deepEqual(settingsPayload(serverSettings(from({}))), { reviewls: {} });
});

test('every server setting is passed on under "reviewls", the binary path is not', () => {
  const got = settingsPayload(
    serverSettings(
      from({
        path: '/usr/local/bin/reviewls',
        scope: 'staged',
        profile: 'custom',
        depth: 'comprehensive',
        perspectives: ['security', 'readiness'],
        base: 'origin/main',
        quietWindow: 350,
      }),
    ),
  );
  assert.deepEqual(got, {
    reviewls: { scope: 'staged', profile: 'custom', depth: 'comprehensive', perspectives: ['security', 'readiness'], base: 'origin/main', quietWindow: 350 },
  });
  assert.equal(JSON.stringify(got).includes('/usr/local/bin'), false);
});

test('values are cleaned: trimmed, deduplicated, wrong types and non-positive windows dropped', () => {
  const got = serverSettings(from({ scope: ' staged ', depth: 7, profile: '  ', perspectives: ['security', ' security', 3, ''], quietWindow: -5 }));
  assert.deepEqual(got, { scope: 'staged', perspectives: ['security'] });
  assert.deepEqual(serverSettings(from({ quietWindow: 'fast' })), {});
  assert.deepEqual(serverSettings(from({ quietWindow: 120.4 })), { quietWindow: 120 });
  assert.deepEqual(serverSettings(from({ perspectives: 'security' })), {});
});

test('changedKeys names the settings whose values differ', () => {
  assert.deepEqual(changedKeys({ scope: 'staged', perspectives: ['a'] }, { scope: 'staged', perspectives: ['a'] }), []);
  assert.deepEqual(changedKeys({ scope: 'staged', perspectives: ['a'] }, { perspectives: ['a', 'b'], quietWindow: 10 }), ['scope', 'perspectives', 'quietWindow']);
});
