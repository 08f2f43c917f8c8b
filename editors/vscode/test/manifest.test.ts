// Checks of package.json and the module boundaries that no unit test of a
// single function would catch.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';

const root = path.join(__dirname, '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const compiled = (name: string) => fs.readFileSync(path.join(root, 'out', 'src', name), 'utf8');

test('contributed commands do not collide with the server commands the language client registers', () => {
  const ids: string[] = pkg.contributes.commands.map((c: { command: string }) => c.command);
  assert.ok(ids.length >= 6);
  for (const id of ids) {
    assert.match(id, /^reviewls\.client\.\w+$/);
  }
  const ext = compiled('extension.js');
  for (const id of ids) {
    assert.ok(ext.includes(`'${id}'`) || ext.includes(`"${id}"`), `${id} is contributed but never registered`);
  }
  const palette = pkg.contributes.commands.filter((c: { category?: string; command: string }) => c.category === 'reviewls').map((c: { title: string }) => c.title);
  for (const title of ['Review now', 'Show walkthrough', 'Show dispatch board', 'Explain symbol', 'Investigate…', 'Emit review']) {
    assert.ok(palette.includes(title), `palette lacks "reviewls: ${title}"`);
  }
});

test('settings and activation are declared', () => {
  const props = pkg.contributes.configuration.properties;
  for (const key of ['path', 'profile', 'depth', 'perspectives', 'quietWindow', 'scope']) {
    assert.ok(props[`reviewls.${key}`], `reviewls.${key} is not contributed`);
  }
  assert.deepEqual(props['reviewls.scope'].enum, ['worktree', 'staged']);
  assert.deepEqual(props['reviewls.scope'].enumDescriptions, ['Working tree (staged, unstaged and untracked)', 'Staged (what the next commit holds)']);
  assert.ok(pkg.activationEvents.includes('workspaceContains:.git'));
  assert.equal(pkg.contributes.views.reviewls[0].id, 'reviewls.board');
  assert.equal(pkg.publisher, 'reviewls');
  assert.equal(pkg.name, 'reviewls');
});

test('the unit-tested modules do not load vscode, and the server is not started with --stdio', () => {
  for (const name of ['settings.js', 'status.js', 'board.js', 'binary.js', 'args.js']) {
    assert.doesNotMatch(compiled(name), /require\("vscode"\)/, `${name} imports vscode`);
  }
  const ext = compiled('extension.js');
  assert.doesNotMatch(ext, /transport:/, "TransportKind.stdio appends --stdio to the arguments");
  assert.match(ext, /args: \['serve'\]/);
});
