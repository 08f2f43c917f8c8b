// Arguments of the server's workspace/executeCommand commands. The server
// takes ONE JSON object and rejects unknown fields, so these builders send
// exactly the documented fields. No 'vscode' import: unit-tested under node.

/** Position is an LSP position: 0-based line and UTF-16 code-unit character. */
export interface Position {
  line: number;
  character: number;
}

/**
 * explainAtArgs explains the symbol at a position of a document. VS Code's
 * Position.character already counts UTF-16 code units, the LSP default
 * encoding, so it is passed on unchanged; only line and character are
 * copied (a vscode.Position carries more than that).
 */
export function explainAtArgs(uri: string, pos: Position): [{ uri: string; position: Position }] {
  return [{ uri, position: { line: pos.line, character: pos.character } }];
}

/** explainItemArgs explains a symbol of a board item; root picks the repository. */
export function explainItemArgs(item: string, symbol: string, root?: string): [{ item: string; symbol: string; uri?: string }] {
  return [withRoot({ item, symbol }, root)];
}

/** investigateArgs investigates a question about a board item. */
export function investigateArgs(item: string, question: string, root?: string): [{ item: string; question: string; uri?: string }] {
  return [withRoot({ item, question }, root)];
}

/** bookmarkArgs bookmarks a board item. */
export function bookmarkArgs(item: string, root?: string): [{ item: string; uri?: string }] {
  return [withRoot({ item }, root)];
}

/** emitArgs asks the server to emit (confirm) or skip emitting the review. */
export function emitArgs(confirm: boolean, root?: string): [{ confirm: boolean; uri?: string }] {
  return [withRoot({ confirm }, root)];
}

/** loopArgs are the arguments of review, walkthrough, board and sweep. */
export function loopArgs(root?: string): [{ uri?: string }] {
  return [withRoot({}, root)];
}

function withRoot<T extends object>(o: T, root: string | undefined): T & { uri?: string } {
  return root ? { ...o, uri: root } : o;
}

/**
 * relativeTo returns the path of file below dir with forward slashes, or
 * undefined when file is not inside dir. Both are file-system paths.
 */
export function relativeTo(dir: string, file: string): string | undefined {
  const d = dir.replace(/\\/g, '/').replace(/\/+$/, '');
  const f = file.replace(/\\/g, '/');
  if (f.startsWith(d + '/')) {
    return f.slice(d.length + 1);
  }
  return undefined;
}
