// workspace.mjs: test helpers shared by the *.test.mjs files: a fresh
// fixture with a server session on it, the expected diagnostics in a
// comparable form, and the checks every session ends with.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Client, expected, makeFixture } from './client.mjs';

// changedFiles are the fixture's changed files, the ones an editor opens.
export const changedFiles = [...new Set(expected.diagnostics.map((d) => d.file))];

// artifactFolder is where the server writes the review of the fixture.
export function artifactFolder(repo) {
  return join(repo, expected.explain.artifactDir);
}

// startWorkspace builds a fixture, starts a server on it and registers
// their cleanup on the test. With open, it sends didOpen for the changed
// files and waits until each of them was published at version 1 and a
// review was announced.
export async function startWorkspace(t, { initializationOptions, open = true } = {}) {
  const fx = makeFixture();
  let c;
  // The server goes first: it must not write into a removed fixture.
  t.after(async () => {
    await c?.kill();
    fx.cleanup();
  });
  c = await Client.start({ repo: fx.repo, env: fx.env, initializationOptions });
  if (open) {
    for (const f of changedFiles) await c.open(f);
    await c.waitFor(() => c.reviews.length > 0 && changedFiles.every((f) => c.diagnostics.get(c.uri(f))?.version === 1),
      'diagnostics of every opened file at version 1 and a reviewls/didReview');
  }
  return c;
}

// summarize reduces a diagnostic to what expected.json describes (the
// fixture is ASCII: UTF-16 characters are bytes).
export function summarize(file, d) {
  return { file, line: d.range.start.line + 1, col: d.range.start.character + 1, severity: d.severity, rule: d.code, state: d.data?.lineState };
}

function order(a, b) {
  return a.file.localeCompare(b.file) || a.line - b.line || a.rule.localeCompare(b.rule);
}

// expectedDiagnostics is expected.json's list, sorted, optionally filtered.
export function expectedDiagnostics(keep = () => true) {
  return expected.diagnostics.filter(keep).map(({ file, line, col, severity, rule, state }) => ({ file, line, col, severity, rule, state })).sort(order);
}

// publishedDiagnostics is the latest diagnostics of every file, summarized
// and sorted.
export function publishedDiagnostics(c) {
  return Object.entries(c.published()).flatMap(([file, ds]) => ds.map((d) => summarize(file, d))).sort(order);
}

// assertDiagnosticShape checks the fields every reviewls diagnostic has.
export function assertDiagnosticShape(file, d) {
  const where = `${file}:${d.range.start.line + 1} ${d.code}`;
  assert.equal(d.source, 'reviewls', `${where}: source`);
  assert.equal(d.range.end.line, d.range.start.line, `${where}: the range stays on its changed line`);
  assert.match(d.codeDescription?.href ?? '', /^https?:\/\/\S+$/, `${where}: codeDescription.href`);
  assert.equal(typeof d.message, 'string', `${where}: message`);
  assert.ok(d.message.length > 0, `${where}: message is empty`);
  assert.equal(d.data?.rule, d.code, `${where}: data.rule`);
  assert.match(d.data?.id ?? '', /\S/, `${where}: data.id`);
  assert.match(d.data?.perspective ?? '', /^(functional|standards|accessibility|security|readiness)$/, `${where}: data.perspective`);
  assert.match(d.data?.lineState ?? '', /^(staged|unstaged|untracked)$/, `${where}: data.lineState`);
  assert.ok((d.data?.rationale ?? '').length > d.message.length, `${where}: data.rationale says more than the headline`);
}

// assertOnlyExpected checks that the latest diagnostics are exactly
// expected.json's (optionally filtered) and well formed.
export function assertOnlyExpected(c, keep) {
  assert.deepEqual(publishedDiagnostics(c), expectedDiagnostics(keep), 'published diagnostics differ from expected.json');
  for (const [file, ds] of Object.entries(c.published())) for (const d of ds) assertDiagnosticShape(file, d);
}

// finish stops the session as VS Code does and checks the shutdown
// response and that the server never sent the fixture's secret. The exit
// status is shutdown.test.mjs's subject; here it is only returned.
export async function finish(c) {
  const exit = await c.shutdown();
  assert.equal(exit.result, null, 'shutdown result');
  assertNoSecret(c);
  return exit;
}

// assertNoSecret checks the raw server output for the fixture's secret;
// the failure quotes where it appeared, with the secret masked.
export function assertNoSecret(c) {
  const raw = Buffer.concat(c.raw).toString('utf8');
  const at = raw.indexOf(expected.secret.value);
  if (at < 0) return;
  const start = raw.lastIndexOf('Content-Length', at);
  const context = raw.slice(Math.max(start, at - 400), at + 200).replaceAll(expected.secret.value, '<SECRET>');
  assert.fail(`the secret appears unredacted in the server's output (${raw.split(expected.secret.value).length - 1} times), first here: ${context}`);
}

// boardState is the part of a reviewls.board result commands may change.
export function boardState(board) {
  return {
    currentPhase: board.currentPhase,
    phaseGates: board.phaseGates,
    items: board.items.map(({ id, area, status, explained, investigated, findings }) => ({ id, area, status, explained, investigated, findings })),
    nextActions: board.nextActions,
  };
}

// board runs reviewls.board.
export function board(c) {
  return c.executeCommand('reviewls.board', [{}]);
}

// statuses maps board item ids to their status.
export function statuses(b) {
  return Object.fromEntries(b.items.map((it) => [it.id, it.status]));
}
