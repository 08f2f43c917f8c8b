// Scenario 4: the reviewls/didReview notification that drives an editor's
// status bar and board view.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { expected } from './client.mjs';
import { artifactFolder, changedFiles, finish, startWorkspace } from './workspace.mjs';

const severities = { Critical: 'critical', High: 'high', Medium: 'medium', Low: 'low' };
const lspSeverity = { critical: 1, high: 1, medium: 2, low: 3 };

// countsOf counts the published diagnostics like a review's counts.
function countsOf(c) {
  const counts = { critical: 0, high: 0, medium: 0, low: 0 };
  for (const ds of Object.values(c.published())) {
    for (const d of ds) {
      const k = severities[d.data.severity];
      assert.ok(k, `unknown data.severity ${d.data.severity}`);
      assert.equal(d.severity, lspSeverity[k], `${d.code}: LSP severity of ${d.data.severity}`);
      counts[k]++;
    }
  }
  return counts;
}

// assertConsistent checks a didReview against the published diagnostics.
function assertConsistent(c, r) {
  const counts = countsOf(c);
  assert.deepEqual(r.counts, counts, 'counts match the published diagnostics');
  assert.equal(r.findings, Object.values(counts).reduce((a, b) => a + b), 'findings match the published diagnostics');
  assert.match(r.verdict, /^(request_changes|approve_with_comments|approve)$/, 'verdict');
  if (counts.critical > 0) assert.equal(r.verdict, 'request_changes', 'a critical finding requests changes');
  if (r.findings === 0) assert.equal(r.verdict, 'approve', 'nothing found approves');
}

test('reviewls/didReview carries the verdict, counts consistent with the diagnostics, and the board', async (t) => {
  const c = await startWorkspace(t);
  const first = c.reviews.at(-1);
  assert.equal(first.root, pathToFileURL(c.repo).href, 'root');
  assert.equal(first.target, 'local_changes');
  assert.equal(first.branch, 'main');
  assert.equal(first.files, changedFiles.length, 'changed files');
  assert.equal(first.artifactFolder, artifactFolder(c.repo));
  assert.equal(first.findings, expected.diagnostics.length);
  assertConsistent(c, first);
  assert.match(first.depth, /^(basic|standard|comprehensive)$/);
  assert.ok(Array.isArray(first.perspectives) && first.perspectives.length > 0, 'perspectives');
  assert.equal(typeof first.currentPhase, 'string');
  assert.deepEqual(first.board, expected.board.map((b) => ({ ...b, status: 'pending' })), 'board');

  // The fix edit lowers the counts: a new announcement agrees with the
  // new diagnostics.
  const fix = expected.fix;
  const line = fix.line - 1;
  const old = c.text(fix.file).split('\n')[line];
  const n = c.reviews.length;
  const v = await c.edit(fix.file, [{ range: { start: { line, character: 0 }, end: { line, character: old.length } }, newText: fix.text }]);
  const after = await c.waitFor(() => c.diagnostics.get(c.uri(fix.file))?.version === v && c.reviews.length > n && c.reviews.at(-1),
    `a reviewls/didReview after ${fix.file} version ${v}`);
  assert.equal(after.findings, expected.diagnostics.length - 1);
  assert.equal(after.counts.medium, first.counts.medium - 1);
  assertConsistent(c, after);

  // A loop change (a bookmark) is announced too, with the new status.
  const m = c.reviews.length;
  const bm = await c.executeCommand('reviewls.bookmark', [{ item: 'board-2', question: 'Where does the uploader read the key?' }]);
  assert.equal(bm.item.status, 'in_progress');
  const loop = await c.waitFor(() => c.reviews.length > m && c.reviews.at(-1), 'a reviewls/didReview after the bookmark');
  assert.deepEqual(loop.board.map((b) => [b.id, b.status]), [['board-1', 'pending'], ['board-2', 'in_progress'], ['board-3', 'pending']]);
  assertConsistent(c, loop);

  await finish(c);
});
