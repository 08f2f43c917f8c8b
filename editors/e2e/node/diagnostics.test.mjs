// Scenario 1: open the fixture as VS Code does and get exactly the expected
// diagnostics; the secret never leaves the server unredacted.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { expected } from './client.mjs';
import {
  assertOnlyExpected, changedFiles, expectedDiagnostics, finish, publishedDiagnostics, startWorkspace, summarize,
} from './workspace.mjs';

test('opening the changed files publishes exactly the expected diagnostics; the secret stays redacted', async (t) => {
  const c = await startWorkspace(t);

  const sync = c.init.capabilities.textDocumentSync;
  assert.equal(sync?.openClose, true, 'textDocumentSync.openClose');
  assert.equal(sync?.change, 2, 'textDocumentSync.change is Incremental');

  // The organic publications, as they arrived after didOpen.
  assertOnlyExpected(c);
  for (const f of changedFiles) assert.equal(c.diagnostics.get(c.uri(f)).version, 1, `${f}: published with the document version`);

  // No publication in the whole session said anything else, not even for
  // a moment (files never opened included).
  const want = JSON.stringify(expectedDiagnostics());
  for (const p of c.publications) {
    for (const d of p.diagnostics) {
      const s = summarize(c.rel(p.uri), d);
      assert.ok(want.includes(JSON.stringify(s)), `unexpected diagnostic published: ${JSON.stringify(s)}`);
    }
  }

  // reviewls.review runs a review synchronously: its publications precede
  // its response, so afterwards the diagnostics are settled.
  const res = await c.executeCommand('reviewls.review', [{}]);
  assert.equal(res.findings, expected.diagnostics.length, 'reviewls.review findings');
  assertOnlyExpected(c);

  // The secret finding: its message is the headline, marked critical.
  const creds = c.published()[expected.secret.file];
  assert.ok(creds?.some((d) => d.message === expected.secret.message), `the ${expected.secret.file} diagnostic shows ${expected.secret.message}`);

  // More traffic that quotes the finding: hover, code actions, walkthrough.
  const secretDiag = creds.find((d) => d.code === 'security/hardcoded-secret');
  const hover = await c.request('textDocument/hover', { textDocument: { uri: c.uri(expected.secret.file) }, position: secretDiag.range.start });
  assert.ok(JSON.stringify(hover).includes(expected.secret.redacted), 'hover on the secret shows its redacted form');
  const actions = await c.codeActions(expected.secret.file, secretDiag.range, { diagnostics: [secretDiag] });
  // The real fix (read it from the environment) comes first and is
  // preferred; the ignore action is last, never preferred, and says that
  // it still blocks commits.
  assert.ok(actions[0]?.isPreferred && actions[0].title.startsWith('reviewls: Read the secret from the environment'), `the environment fix comes first: ${JSON.stringify(actions.map((a) => a.title))}`);
  const ignore = actions.findIndex((a) => a.kind === 'quickfix' && a.title === 'reviewls: Ignore this secret on this line (still blocks commits)');
  assert.ok(ignore > 0 && ignore === actions.length - 1 && !actions[ignore].isPreferred, `the ignore action for the secret is last and not preferred: ${JSON.stringify(actions.map((a) => a.title))}`);
  const walk = await c.executeCommand('reviewls.walkthrough', [{}]);
  assert.ok(walk.markdown.includes(expected.secret.redacted), 'walkthrough shows the redacted secret');

  await finish(c);

  // The raw bytes the server wrote, all of them, decode into JSON-RPC
  // messages; the secret is in none of them, its redacted form is.
  const raw = Buffer.concat(c.raw);
  const frames = c.frames();
  assert.ok(frames.length > 10, `${frames.length} messages decoded`);
  assert.equal(raw.includes(expected.secret.value), false, 'the secret appears in the raw server output');
  assert.ok(frames.some((m) => JSON.stringify(m).includes(expected.secret.redacted)), 'the redacted form appears in the server output');
  assert.equal(c.stderr.includes(expected.secret.value), false, 'the secret appears in the server log');
  assert.deepEqual(publishedDiagnostics(c), expectedDiagnostics(), 'diagnostics after shutdown');
});
