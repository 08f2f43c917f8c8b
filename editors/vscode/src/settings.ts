// Package-free helpers for the reviewls.* settings: what the server gets as
// initializationOptions and in workspace/didChangeConfiguration. This file
// does not import 'vscode', so the unit tests run under plain node.

/** ServerSettings are the settings the server understands (lsp/settings.go). */
export interface ServerSettings {
  scope?: string;
  profile?: string;
  depth?: string;
  perspectives?: string[];
  base?: string;
  quietWindow?: number;
  codeLens?: string;
}

/** Keys of the reviewls configuration section that are sent to the server. */
export const serverKeys = ['scope', 'profile', 'depth', 'perspectives', 'base', 'quietWindow', 'codeLens'] as const;

/**
 * serverSettings picks the server's settings out of the reviewls section,
 * read through get (e.g. `k => vscode.workspace.getConfiguration('reviewls').get(k)`).
 * Unset values (empty strings, empty lists, a quiet window of 0) are left
 * out so the server keeps its own defaults and .reviewls.yaml applies;
 * values of the wrong type are dropped rather than sent.
 */
export function serverSettings(get: (key: string) => unknown): ServerSettings {
  const out: ServerSettings = {};
  for (const key of ['scope', 'profile', 'depth', 'base', 'codeLens'] as const) {
    const v = get(key);
    if (typeof v === 'string' && v.trim() !== '') {
      out[key] = v.trim();
    }
  }
  const persp = get('perspectives');
  if (Array.isArray(persp)) {
    const list = [...new Set(persp.filter((p): p is string => typeof p === 'string' && p.trim() !== '').map((p) => p.trim()))];
    if (list.length > 0) {
      out.perspectives = list;
    }
  }
  const quiet = get('quietWindow');
  if (typeof quiet === 'number' && Number.isFinite(quiet) && quiet > 0) {
    out.quietWindow = Math.round(quiet);
  }
  return out;
}

/** settingsPayload wraps settings the way the server reads them: {reviewls: {...}}. */
export function settingsPayload(s: ServerSettings): { reviewls: ServerSettings } {
  return { reviewls: s };
}

/** changedKeys lists the reviewls keys whose value differs between a and b. */
export function changedKeys(a: ServerSettings, b: ServerSettings): string[] {
  return serverKeys.filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
}
