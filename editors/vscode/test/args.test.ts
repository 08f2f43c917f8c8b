import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';

import { bookmarkArgs, emitArgs, explainAtArgs, explainItemArgs, investigateArgs, loopArgs, relativeTo } from '../src/args';

// The shared fixture's explain target (editors/e2e/expected.json).
const expected = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'e2e', 'expected.json'), 'utf8'));

test('explain at a position sends exactly {uri, position} with the 0-based position', () => {
  const ex = expected.explain;
  const uri = 'file:///tmp/fixture/' + ex.file;
  // A vscode.Position carries more than line and character; only those go out.
  const vscodeLike = { line: ex.line - 1, character: ex.character, isBefore: () => false, translate: () => null };
  const args = explainAtArgs(uri, vscodeLike);
  assert.deepEqual(JSON.parse(JSON.stringify(args)), [{ uri, position: { line: ex.line - 1, character: ex.character } }]);
  assert.deepEqual(Object.keys(args[0]), ['uri', 'position']);
});

test('explain positions stay in UTF-16 code units, as VS Code gives them', () => {
  // An astral character before the symbol: 2 UTF-16 units, 1 code point, 4 UTF-8 bytes.
  const text = '\tlabel := "📦"; s.Get(key)';
  const utf16 = text.indexOf('Get');
  const codePoints = [...text.slice(0, utf16)].length;
  const bytes = Buffer.byteLength(text.slice(0, utf16), 'utf8');
  assert.notEqual(utf16, codePoints);
  assert.notEqual(utf16, bytes);
  const [arg] = explainAtArgs('file:///x.go', { line: 3, character: utf16 });
  assert.equal(arg.position.character, utf16);
});

test('item commands send the documented fields, and the repository only when known', () => {
  assert.deepEqual(explainItemArgs('board-1', 'Store.Get'), [{ item: 'board-1', symbol: 'Store.Get' }]);
  assert.deepEqual(explainItemArgs('board-1', 'Store.Get', 'file:///repo'), [{ item: 'board-1', symbol: 'Store.Get', uri: 'file:///repo' }]);
  assert.deepEqual(investigateArgs('board-2', 'Is the key real?'), [{ item: 'board-2', question: 'Is the key real?' }]);
  assert.deepEqual(bookmarkArgs('board-3', 'file:///repo'), [{ item: 'board-3', uri: 'file:///repo' }]);
  assert.deepEqual(emitArgs(true), [{ confirm: true }]);
  assert.deepEqual(emitArgs(false, 'file:///repo'), [{ confirm: false, uri: 'file:///repo' }]);
  assert.deepEqual(loopArgs(), [{}]);
  assert.deepEqual(loopArgs('file:///repo'), [{ uri: 'file:///repo' }]);
});

test('relativeTo gives repo-relative paths with forward slashes', () => {
  assert.equal(relativeTo('/repo', '/repo/app/store.go'), 'app/store.go');
  assert.equal(relativeTo('/repo/', '/repo/app/store.go'), 'app/store.go');
  assert.equal(relativeTo('/repo', '/repository/app/store.go'), undefined);
  assert.equal(relativeTo('C:\\repo', 'C:\\repo\\app\\store.go'), 'app/store.go');
});
