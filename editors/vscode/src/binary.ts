// Finding the reviewls binary. No 'vscode' import: unit-tested under plain
// node with a fake file system.
import * as fs from 'fs';
import * as path from 'path';

/** installCommand is how users get the binary (the module is not published: it builds from a clone). */
export const installCommand = 'go install ./cmd/reviewls';

/** Resolution is the binary found (path) and every candidate looked at. */
export interface Resolution {
  path?: string;
  tried: string[];
}

/** isExecutableFile reports whether p is a regular file the user may execute. */
export function isExecutableFile(p: string): boolean {
  try {
    if (!fs.statSync(p).isFile()) {
      return false;
    }
    fs.accessSync(p, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * resolveBinary finds the server binary. A setting holding a path (it has a
 * separator or starts with ~) is used as is: "~/" means the home directory,
 * and a relative path is taken from cwd (the first workspace folder). A
 * bare name, or an empty setting meaning "reviewls", is searched on PATH
 * and then where `go install` puts binaries ($GOBIN, each $GOPATH/bin,
 * ~/go/bin), which editors started from a desktop often lack on PATH.
 */
export function resolveBinary(
  setting: string | undefined,
  env: NodeJS.ProcessEnv,
  opts: { platform?: NodeJS.Platform; cwd?: string; isExecutable?: (p: string) => boolean } = {},
): Resolution {
  const platform = opts.platform ?? process.platform;
  const p = platform === 'win32' ? path.win32 : path.posix;
  const isExec = opts.isExecutable ?? isExecutableFile;
  const home = env.HOME || env.USERPROFILE || '';
  const name = (setting ?? '').trim() || 'reviewls';
  const tried: string[] = [];
  const check = (candidate: string): string | undefined => {
    if (!tried.includes(candidate)) {
      tried.push(candidate);
    }
    return isExec(candidate) ? candidate : undefined;
  };

  if (name.includes('/') || (platform === 'win32' && name.includes('\\')) || name.startsWith('~')) {
    let full = name;
    if (full === '~' || full.startsWith('~/')) {
      full = p.join(home, full.slice(1));
    }
    if (!p.isAbsolute(full)) {
      full = p.resolve(opts.cwd ?? '', full);
    }
    return { path: check(full), tried };
  }

  const exts = platform === 'win32' && !/\.[^.\\/]+$/.test(name) ? (env.PATHEXT || '.EXE;.CMD;.BAT;.COM').split(';').filter(Boolean) : [''];
  const sep = platform === 'win32' ? ';' : ':';
  const dirs = (env.PATH ?? env.Path ?? '').split(sep).filter(Boolean);
  if (env.GOBIN) {
    dirs.push(env.GOBIN);
  }
  for (const gp of (env.GOPATH ?? '').split(sep).filter(Boolean)) {
    dirs.push(p.join(gp, 'bin'));
  }
  if (home) {
    dirs.push(p.join(home, 'go', 'bin'));
  }
  for (const dir of dirs) {
    for (const ext of exts) {
      const found = check(p.join(dir, name + ext));
      if (found) {
        return { path: found, tried };
      }
    }
  }
  return { tried };
}

/** missingMessage is the error shown when no binary was found. */
export function missingMessage(setting: string | undefined, r: Resolution): string {
  const s = (setting ?? '').trim();
  const where = s ? `reviewls.path is "${s}", which is not an executable file` : 'reviewls.path is not set and "reviewls" is not on PATH';
  const looked = r.tried.length ? ` (looked at ${r.tried.slice(0, 6).join(', ')}${r.tried.length > 6 ? ', …' : ''})` : '';
  return `reviewls: cannot start the language server: ${where}${looked}. Install it with \`${installCommand}\` in a clone of reviewls, or set reviewls.path to the binary.`;
}
