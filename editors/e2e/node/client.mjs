// client.mjs: a headless LSP client for reviewls built on
// vscode-languageserver-protocol, the library under VS Code's language
// client. It starts `$REVIEWLS serve`, sends what VS Code sends, answers
// every server→client request and records everything the server says, so
// tests can wait on observed state (never on time) and inspect the raw
// traffic.

import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  createProtocolConnection, StreamMessageReader, StreamMessageWriter,
  InitializeRequest, InitializedNotification, ShutdownRequest, ExitNotification,
  DidOpenTextDocumentNotification, DidChangeTextDocumentNotification, DidChangeConfigurationNotification,
  PublishDiagnosticsNotification, LogMessageNotification, ShowMessageNotification,
  CodeActionRequest, CodeActionResolveRequest, ExecuteCommandRequest,
} from 'vscode-languageserver-protocol/node';

const here = dirname(fileURLToPath(import.meta.url));

// expected is editors/e2e/expected.json: what every editor test expects on
// the shared fixture.
export const expected = JSON.parse(readFileSync(join(here, '..', 'expected.json'), 'utf8'));

// DEFAULT_TIMEOUT_MS bounds every wait and request. Reviews of the fixture
// take milliseconds; the margin is for a loaded CI machine.
export const DEFAULT_TIMEOUT_MS = 15_000;

// EXIT_GRACE_MS is how long vscode-languageclient lets a server take to
// exit after shutdown/exit before it kills it.
export const EXIT_GRACE_MS = 2_000;

// reviewlsBinary returns $REVIEWLS, which run.sh always sets.
export function reviewlsBinary() {
  const bin = process.env.REVIEWLS;
  if (!bin) throw new Error('REVIEWLS is not set: point it at a reviewls binary (run.sh builds one)');
  return bin;
}

// makeFixture builds the shared fixture (editors/e2e/fixture.sh) in a fresh
// temp dir with its own HOME and XDG dirs, and returns its paths. The
// caller removes dir.
export function makeFixture(prefix = 'reviewls-node-') {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const repo = join(dir, 'repo');
  const home = join(dir, 'home');
  for (const d of ['', '.config', '.local/share', '.cache', '.local/state']) mkdirSync(join(home, d), { recursive: true });
  execFileSync(join(here, '..', 'fixture.sh'), [repo], { timeout: 30_000, stdio: ['ignore', 'ignore', 'pipe'] });
  const env = {
    ...process.env, HOME: home, GIT_CONFIG_NOSYSTEM: '1',
    XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.local/share'),
    XDG_CACHE_HOME: join(home, '.cache'), XDG_STATE_HOME: join(home, '.local/state'),
  };
  return { dir, repo, env, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

// languageIds maps file extensions to the languageId VS Code sends.
const languageIds = { '.go': 'go', '.py': 'python', '.ts': 'typescript', '.mod': 'go.mod' };

export function languageId(path) {
  const ext = path.slice(path.lastIndexOf('.'));
  return languageIds[ext] ?? 'plaintext';
}

// clientCapabilities are the parts of VS Code's client capabilities the
// server looks at.
export const clientCapabilities = {
  workspace: {
    applyEdit: true,
    workspaceEdit: { documentChanges: true, resourceOperations: ['create', 'rename', 'delete'] },
    didChangeConfiguration: { dynamicRegistration: true },
    didChangeWatchedFiles: { dynamicRegistration: true, relativePatternSupport: true },
    executeCommand: { dynamicRegistration: true },
    configuration: true,
    workspaceFolders: true,
  },
  textDocument: {
    synchronization: { dynamicRegistration: true, willSave: true, willSaveWaitUntil: true, didSave: true },
    hover: { dynamicRegistration: true, contentFormat: ['markdown', 'plaintext'] },
    publishDiagnostics: {
      relatedInformation: true, versionSupport: true, codeDescriptionSupport: true, dataSupport: true,
      tagSupport: { valueSet: [1, 2] },
    },
    codeAction: {
      dynamicRegistration: true, isPreferredSupport: true, disabledSupport: true, dataSupport: true,
      honorsChangeAnnotations: true,
      resolveSupport: { properties: ['edit'] },
      codeActionLiteralSupport: { codeActionKind: { valueSet: [
        '', 'quickfix', 'refactor', 'refactor.extract', 'refactor.inline', 'refactor.rewrite',
        'source', 'source.organizeImports', 'source.fixAll'] } },
    },
    codeLens: { dynamicRegistration: true },
  },
  window: {
    workDoneProgress: true,
    showMessage: { messageActionItem: { additionalPropertiesSupport: true } },
    showDocument: { support: true },
  },
  general: { positionEncodings: ['utf-16'] },
};

// Client is one running `reviewls serve` and the connection to it.
//
// Recorded state (append-only, in arrival order):
//   raw           every byte the server wrote to stdout
//   requests      server→client requests {method, params}
//   publications  publishDiagnostics params
//   diagnostics   uri → latest publishDiagnostics params
//   reviews       reviewls/didReview params
//   messages      window/showMessage and window/logMessage {kind, type, message}
export class Client {
  // start spawns the server in repo, initializes it with rootUri and
  // workspaceFolders set to repo and sends initialized.
  static async start({ repo, env, initializationOptions, timeoutMs = DEFAULT_TIMEOUT_MS }) {
    const c = new Client(repo, timeoutMs);
    c.settings = initializationOptions?.reviewls ?? {};
    c.spawn(env);
    const folderUri = pathToFileURL(repo).href;
    const init = c.within(c.conn.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      clientInfo: { name: 'reviewls-e2e-node (vscode-languageserver-protocol)', version: '1' },
      locale: 'en',
      rootPath: repo,
      rootUri: folderUri,
      workspaceFolders: [{ uri: folderUri, name: basename(repo) }],
      capabilities: clientCapabilities,
      initializationOptions,
      trace: 'off',
    }), 'initialize');
    try {
      c.init = await init;
    } catch (err) {
      // A server that dies at once fails the write (EPIPE) before its exit
      // is seen: name the exit too.
      const exit = await c.exitWithin(EXIT_GRACE_MS);
      const how = exit ? `; server exited ${JSON.stringify(exit)}` : '';
      await c.kill();
      const first = err.message.split('\n')[0];
      const what = first.startsWith('initialize') ? first : `initialize: ${first}`;
      throw new Error(`${what}${how}; server stderr: ${c.stderr.slice(-1500) || '(empty)'}`);
    }
    await c.conn.sendNotification(InitializedNotification.type, {});
    return c;
  }

  constructor(repo, timeoutMs) {
    this.repo = repo;
    this.timeoutMs = timeoutMs;
    this.raw = [];
    this.stderr = '';
    this.requests = [];
    this.publications = [];
    this.diagnostics = new Map();
    this.reviews = [];
    this.messages = [];
    this.docs = new Map(); // uri → {version, text} of open documents
    this.waiters = new Set();
    this.exit = null;
  }

  spawn(env) {
    this.proc = spawn(reviewlsBinary(), ['serve'], { cwd: this.repo, env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.exited = new Promise((resolve) => {
      this.proc.on('error', (err) => { this.exit = { code: null, signal: null, error: String(err) }; resolve(this.exit); this.notify(); });
      // close, not exit: stdout is fully read by then.
      this.proc.on('close', (code, signal) => { this.exit = { code, signal }; resolve(this.exit); this.notify(); });
    });
    this.proc.stdin.on('error', () => {}); // EPIPE after the server died: reported through exit
    this.proc.stderr.on('data', (d) => { this.stderr = (this.stderr + d).slice(-200_000); });
    // The raw tap sees the same chunks the message reader parses.
    this.proc.stdout.on('data', (d) => { this.raw.push(d); });
    this.conn = createProtocolConnection(new StreamMessageReader(this.proc.stdout), new StreamMessageWriter(this.proc.stdin));
    this.conn.onNotification(PublishDiagnosticsNotification.type, (p) => {
      this.publications.push(p);
      this.diagnostics.set(p.uri, p);
      this.notify();
    });
    this.conn.onNotification('reviewls/didReview', (p) => { this.reviews.push(p); this.notify(); });
    this.conn.onNotification(ShowMessageNotification.type, (p) => { this.messages.push({ kind: 'show', ...p }); this.notify(); });
    this.conn.onNotification(LogMessageNotification.type, (p) => { this.messages.push({ kind: 'log', ...p }); this.notify(); });
    // Every server→client request is recorded and answered as VS Code would.
    this.conn.onRequest((method, params) => {
      this.requests.push({ method, params });
      this.notify();
      switch (method) {
        case 'workspace/configuration': return (params?.items ?? []).map((it) => (it.section === 'reviewls' ? this.settings : null));
        case 'workspace/workspaceFolders': return [{ uri: pathToFileURL(this.repo).href, name: basename(this.repo) }];
        case 'workspace/applyEdit': return { applied: true };
        case 'window/showDocument': return { success: true };
        default: return null; // window/workDoneProgress/create, client/registerCapability, ...
      }
    });
    this.conn.onError(([err]) => { this.connError = String(err); });
    this.conn.listen();
  }

  // notify re-evaluates the pending waits after something was recorded.
  notify() {
    for (const w of this.waiters) w();
  }

  // waitFor resolves with pred's first truthy result, evaluated now and
  // after every recorded event; it rejects when the deadline passes or the
  // server exits, naming what it waited for and what it last saw.
  waitFor(pred, what, { timeoutMs = this.timeoutMs } = {}) {
    return new Promise((resolve, reject) => {
      let timer;
      const done = (fn, v) => { clearTimeout(timer); this.waiters.delete(check); fn(v); };
      const check = () => {
        let v;
        try { v = pred(); } catch (err) { return done(reject, err); }
        if (v) return done(resolve, v);
        if (this.exit) return done(reject, new Error(`waiting for ${what}: server exited ${JSON.stringify(this.exit)}\n${this.describe()}`));
      };
      timer = setTimeout(() => done(reject, new Error(`waiting for ${what}: no match within ${timeoutMs} ms\n${this.describe()}`)), timeoutMs);
      this.waiters.add(check);
      check();
    });
  }

  // within bounds a request by the client's deadline and fails early when
  // the server exits.
  within(promise, what, timeoutMs = this.timeoutMs) {
    let timer;
    const deadline = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no answer within ${timeoutMs} ms\n${this.describe()}`)), timeoutMs);
    });
    const died = this.exited.then((e) => { throw new Error(`${what}: server exited ${JSON.stringify(e)}\n${this.describe()}`); });
    return Promise.race([promise, deadline, died]).finally(() => clearTimeout(timer));
  }

  // describe summarizes the recorded state for failure messages.
  describe() {
    const diags = [...this.diagnostics.values()].map((p) => `  ${this.rel(p.uri)} v${p.version ?? '-'}: ${p.diagnostics.map((d) => `${d.range.start.line + 1}:${d.code}`).join(', ') || '(none)'}`);
    const msgs = this.messages.slice(-5).map((m) => `  ${m.kind}[${m.type}] ${m.message}`);
    return [
      'latest diagnostics:', ...(diags.length ? diags : ['  (none)']),
      `reviews: ${this.reviews.length}; server requests: ${this.requests.map((r) => r.method).join(', ') || '(none)'}`,
      'last messages:', ...(msgs.length ? msgs : ['  (none)']),
      `server stderr (tail):\n${this.stderr.slice(-1500)}`,
    ].join('\n');
  }

  uri(rel) {
    return pathToFileURL(join(this.repo, rel)).href;
  }

  rel(uri) {
    const root = pathToFileURL(this.repo).href + '/';
    return uri.startsWith(root) ? decodeURIComponent(uri.slice(root.length)) : uri;
  }

  // open sends didOpen for a repo-relative file with its text on disk.
  async open(rel) {
    const uri = this.uri(rel);
    const text = readFileSync(join(this.repo, rel), 'utf8');
    this.docs.set(uri, { version: 1, text });
    await this.conn.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId: languageId(rel), version: 1, text },
    });
    return uri;
  }

  // edit applies TextEdits to an open document and sends them as one
  // incremental didChange; it returns the new version.
  async edit(rel, edits) {
    const uri = this.uri(rel);
    const doc = this.docs.get(uri);
    if (!doc) throw new Error(`edit: ${rel} is not open`);
    // Content changes apply in order; send them last-first so earlier
    // ranges stay valid, as VS Code does for a multi-cursor edit.
    const ordered = [...edits].sort((a, b) => compare(b.range.start, a.range.start));
    let text = doc.text;
    for (const e of ordered) text = applyEdit(text, e);
    doc.text = text;
    doc.version++;
    await this.conn.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version: doc.version },
      contentChanges: ordered.map((e) => ({ range: e.range, text: e.newText })),
    });
    return doc.version;
  }

  // configure changes the "reviewls" settings as VS Code does: it answers
  // workspace/configuration with them from now on and sends
  // didChangeConfiguration.
  async configure(settings) {
    this.settings = settings;
    await this.conn.sendNotification(DidChangeConfigurationNotification.type, { settings: { reviewls: settings } });
  }

  text(rel) {
    return this.docs.get(this.uri(rel))?.text;
  }

  codeActions(rel, range, { diagnostics = [], only } = {}) {
    const context = { diagnostics, triggerKind: 1 };
    if (only) context.only = only;
    return this.within(this.conn.sendRequest(CodeActionRequest.type, { textDocument: { uri: this.uri(rel) }, range, context }), 'textDocument/codeAction');
  }

  resolveCodeAction(action) {
    return this.within(this.conn.sendRequest(CodeActionResolveRequest.type, action), 'codeAction/resolve');
  }

  executeCommand(command, args) {
    return this.within(this.conn.sendRequest(ExecuteCommandRequest.type, { command, arguments: args }), `workspace/executeCommand ${command}`);
  }

  request(method, params) {
    return this.within(this.conn.sendRequest(method, params), method);
  }

  // published returns the latest diagnostics of every uri, by
  // repo-relative path, leaving out empty lists.
  published() {
    const out = {};
    for (const [uri, p] of this.diagnostics) if (p.diagnostics.length) out[this.rel(uri)] = p.diagnostics;
    return out;
  }

  // frames decodes the raw server output into its JSON-RPC messages; call
  // it after the server exited: bytes left over are an error.
  frames() {
    const buf = Buffer.concat(this.raw);
    const out = [];
    let at = 0;
    while (at < buf.length) {
      const end = buf.indexOf('\r\n\r\n', at);
      if (end < 0) break;
      const m = /Content-Length: *(\d+)/i.exec(buf.subarray(at, end).toString('ascii'));
      if (!m) throw new Error(`bad frame header at byte ${at}: ${buf.subarray(at, end)}`);
      const start = end + 4;
      const len = Number(m[1]);
      if (start + len > buf.length) break;
      out.push(JSON.parse(buf.subarray(start, start + len).toString('utf8')));
      at = start + len;
    }
    if (at !== buf.length) throw new Error(`server output ends in a partial frame: ${buf.length - at} bytes after the last message`);
    return out;
  }

  // shutdown stops the server as vscode-languageclient does: shutdown,
  // exit, then end the stream to the server's stdin; a server still alive
  // EXIT_GRACE_MS later is killed, as VS Code kills it. With closeStdin
  // false the stream stays open (the LSP spec asks the server to exit on
  // the exit notification alone); a server that lingers then gets its
  // stdin closed after all, so the exit code is still known.
  // It resolves with {result, code, signal, lingered}: result is the
  // shutdown response, lingered says the server outlived the grace period.
  async shutdown({ closeStdin = true } = {}) {
    const result = await this.within(this.conn.sendRequest(ShutdownRequest.type), 'shutdown');
    await this.conn.sendNotification(ExitNotification.type);
    if (closeStdin) this.conn.end();
    let exit = await this.exitWithin(EXIT_GRACE_MS);
    const lingered = !exit;
    if (!exit && !closeStdin) {
      this.conn.end();
      exit = await this.exitWithin(EXIT_GRACE_MS);
    }
    if (!exit) {
      this.proc.kill('SIGKILL');
      exit = await this.exited;
    }
    this.conn.dispose();
    return { result, code: exit.code, signal: exit.signal, lingered };
  }

  // exitWithin resolves with the process's exit, or null when it still
  // runs after ms.
  exitWithin(ms) {
    let timer;
    return Promise.race([
      this.exited,
      new Promise((resolve) => { timer = setTimeout(() => resolve(null), ms); }),
    ]).finally(() => clearTimeout(timer));
  }

  // kill ends the server if it still runs (test cleanup).
  async kill() {
    if (!this.exit) {
      this.proc.kill('SIGKILL');
      await this.exited;
    }
    this.conn.dispose();
  }
}

function compare(a, b) {
  return a.line - b.line || a.character - b.character;
}

// offsetAt converts an LSP position (UTF-16, like JS strings) to an offset.
export function offsetAt(text, pos) {
  let at = 0;
  for (let line = 0; line < pos.line; line++) {
    const nl = text.indexOf('\n', at);
    if (nl < 0) return text.length;
    at = nl + 1;
  }
  const nl = text.indexOf('\n', at);
  const lineEnd = nl < 0 ? text.length : nl;
  return Math.min(at + pos.character, lineEnd);
}

export function applyEdit(text, { range, newText }) {
  return text.slice(0, offsetAt(text, range.start)) + newText + text.slice(offsetAt(text, range.end));
}

// editsFor returns the TextEdits a WorkspaceEdit makes to uri, from
// changes or documentChanges.
export function editsFor(workspaceEdit, uri) {
  const out = [...(workspaceEdit?.changes?.[uri] ?? [])];
  for (const dc of workspaceEdit?.documentChanges ?? []) {
    if (dc.textDocument?.uri === uri) out.push(...dc.edits);
  }
  return out;
}
