import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';

import { installCommand, missingMessage, resolveBinary } from '../src/binary';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'reviewls-binary-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

function file(rel: string, mode: number): string {
  const p = path.join(tmp, rel);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, '#!/bin/sh\n');
  fs.chmodSync(p, mode);
  return p;
}

const noexec = file('a/reviewls', 0o644);
fs.mkdirSync(path.join(tmp, 'b/reviewls'), { recursive: true }); // a directory, not a binary
const good = file('c/reviewls', 0o755);
const gopathBin = file('gopath/bin/reviewls', 0o755);
const homeBin = file('home/go/bin/reviewls', 0o755);
const custom = file('tools/my-reviewls', 0o755);

test('the first executable reviewls on PATH wins; plain files and directories are skipped', () => {
  const PATH = [path.join(tmp, 'a'), path.join(tmp, 'b'), path.join(tmp, 'c')].join(':');
  const r = resolveBinary('', { PATH }, { platform: 'linux' });
  assert.equal(r.path, good);
  assert.deepEqual(r.tried, [noexec, path.join(tmp, 'b/reviewls'), good]);
  assert.equal(resolveBinary('reviewls', { PATH }, { platform: 'linux' }).path, good);
});

test('go install locations are searched after PATH', () => {
  assert.equal(resolveBinary('', { PATH: path.join(tmp, 'a'), GOPATH: path.join(tmp, 'gopath') }, { platform: 'linux' }).path, gopathBin);
  assert.equal(resolveBinary('', { PATH: '', HOME: path.join(tmp, 'home') }, { platform: 'linux' }).path, homeBin);
  assert.equal(resolveBinary('', { PATH: path.join(tmp, 'a'), GOBIN: path.join(tmp, 'c'), HOME: path.join(tmp, 'home') }, { platform: 'linux' }).path, good);
});

test('a path in the setting is used as is: absolute, ~/ or relative to the workspace', () => {
  assert.equal(resolveBinary(custom, { PATH: path.join(tmp, 'c') }, { platform: 'linux' }).path, custom);
  assert.equal(resolveBinary('~/go/bin/reviewls', { HOME: path.join(tmp, 'home') }, { platform: 'linux' }).path, homeBin);
  assert.equal(resolveBinary('./tools/my-reviewls', {}, { platform: 'linux', cwd: tmp }).path, custom);
  const r = resolveBinary(noexec, { PATH: path.join(tmp, 'c') }, { platform: 'linux' });
  assert.equal(r.path, undefined, 'a configured path that is not executable is not replaced by PATH');
  assert.deepEqual(r.tried, [noexec]);
});

test('windows looks for PATHEXT extensions', () => {
  const seen: string[] = [];
  const r = resolveBinary('', { PATH: 'C:\\bin;D:\\go\\bin', PATHEXT: '.EXE;.CMD' }, { platform: 'win32', isExecutable: (p) => (seen.push(p), p === 'D:\\go\\bin\\reviewls.EXE') });
  assert.equal(r.path, 'D:\\go\\bin\\reviewls.EXE');
  assert.deepEqual(seen, ['C:\\bin\\reviewls.EXE', 'C:\\bin\\reviewls.CMD', 'D:\\go\\bin\\reviewls.EXE']);
});

test('when nothing is found the message names the setting and the install command', () => {
  const r = resolveBinary('', { PATH: path.join(tmp, 'a') }, { platform: 'linux' });
  assert.equal(r.path, undefined);
  const msg = missingMessage('', r);
  assert.match(msg, /reviewls\.path is not set and "reviewls" is not on PATH/);
  assert.ok(msg.includes(noexec), msg);
  assert.ok(msg.includes(installCommand), msg);
  assert.equal(installCommand, 'go install ./cmd/reviewls');
  assert.ok(msg.includes('in a clone of reviewls'), msg);
  assert.match(missingMessage('/opt/nope', resolveBinary('/opt/nope', {}, { platform: 'linux' })), /reviewls\.path is "\/opt\/nope", which is not an executable file \(looked at \/opt\/nope\)/);
});
