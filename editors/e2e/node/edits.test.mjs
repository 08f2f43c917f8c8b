// Scenario 3: unsaved edits reach the review through incremental
// didChange, and a quick fix's edit, applied by the editor, clears its
// finding.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { expected, editsFor } from './client.mjs';
import { assertDiagnosticShape, finish, startWorkspace } from './workspace.mjs';

test('incremental edits: the fix text clears bare-except; a quick fix clears the debug statement', async (t) => {
  const c = await startWorkspace(t);
  const fix = expected.fix;
  const before = c.published();

  // Replace line fix.line of the buffer (unsaved) with the fix text.
  const line = fix.line - 1;
  const old = c.text(fix.file).split('\n')[line];
  const v = await c.edit(fix.file, [{ range: { start: { line, character: 0 }, end: { line, character: old.length } }, newText: fix.text }]);
  assert.equal(c.text(fix.file).split('\n')[line], fix.text);
  const pub = await c.waitFor(() => {
    const p = c.diagnostics.get(c.uri(fix.file));
    return p?.version === v && p;
  }, `${fix.file} published at version ${v}`);
  assert.deepEqual(pub.diagnostics.filter((d) => d.code === fix.clears), [], `${fix.clears} is gone`);
  assert.deepEqual(pub.diagnostics, before[fix.file].filter((d) => d.code !== fix.clears), `${fix.file} keeps its other diagnostics`);
  for (const [file, ds] of Object.entries(before)) {
    if (file !== fix.file) assert.deepEqual(c.published()[file], ds, `${file} keeps its diagnostics`);
  }

  // The quick fix of the debug statement, as the lightbulb offers it.
  const target = expected.diagnostics.find((d) => d.rule === 'standards/debug-statement');
  const diag = c.published()[target.file].find((d) => d.code === target.rule);
  assertDiagnosticShape(target.file, diag);
  const actions = await c.codeActions(target.file, diag.range, { diagnostics: [diag] });
  const quickfixes = actions.filter((a) => a.kind === 'quickfix');
  assert.ok(quickfixes.some((a) => a.title === `reviewls: Ignore ${target.rule} on this line`), 'Ignore action');
  let action = quickfixes.find((a) => !a.title.startsWith('reviewls: Ignore ') && a.diagnostics?.some((d) => d.code === target.rule));
  assert.ok(action, `no fix for ${target.rule} among ${JSON.stringify(actions.map((a) => `${a.kind}: ${a.title}`))}`);
  assert.equal(action.isPreferred, true, 'the fix is the preferred action');
  if (!action.edit && action.data !== undefined) action = await c.resolveCodeAction(action);
  const edits = editsFor(action.edit, c.uri(target.file));
  assert.ok(edits.length > 0, `the fix "${action.title}" has edits for ${target.file}`);

  // VS Code applies the edit to the buffer, which sends didChange.
  const fixedVersion = await c.edit(target.file, edits);
  assert.ok(!c.text(target.file).includes('debugger'), `the fixed buffer:\n${c.text(target.file)}`);
  const fixed = await c.waitFor(() => {
    const p = c.diagnostics.get(c.uri(target.file));
    return p?.version === fixedVersion && p;
  }, `${target.file} published at version ${fixedVersion}`);
  assert.deepEqual(fixed.diagnostics.filter((d) => d.code === target.rule), [], `${target.rule} is gone`);

  // What remains: the findings neither edit touched.
  const remaining = Object.entries(c.published()).flatMap(([file, ds]) => ds.map((d) => `${file}:${d.range.start.line + 1} ${d.code}`)).sort();
  const want = expected.diagnostics.filter((d) => d.rule !== fix.clears && d.rule !== target.rule).map((d) => `${d.file}:${d.line} ${d.rule}`).sort();
  assert.deepEqual(remaining, want);

  await finish(c);
});
