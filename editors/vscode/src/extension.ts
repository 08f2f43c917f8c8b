// The reviewls extension: starts `reviewls serve` with vscode-languageclient
// and adds the review loop on top of what the client gives for free
// (diagnostics, code actions, code lenses, hover and the server's own
// reviewls.* commands): palette commands, the dispatch-board view and a
// status-bar item fed by the server's reviewls/didReview notification.
import * as path from 'path';
import * as vscode from 'vscode';
import {
  DidChangeConfigurationNotification,
  ExecuteCommandRequest,
  LanguageClient,
  LanguageClientOptions,
  ResponseError,
  ServerOptions,
  State,
} from 'vscode-languageclient/node';

import { explainAtArgs, explainItemArgs, investigateArgs, bookmarkArgs, emitArgs, loopArgs, relativeTo } from './args';
import { missingMessage, resolveBinary } from './binary';
import { BoardResult, ItemNode, itemForFile } from './board';
import { BoardProvider } from './boardView';
import { changedKeys, serverSettings, ServerSettings, settingsPayload } from './settings';
import { DidReview, statusText, statusTooltip } from './status';

/** Command ids of this extension. The server's own ids (reviewls.review, …) are registered by the language client. */
export const cmd = {
  review: 'reviewls.client.review',
  walkthrough: 'reviewls.client.walkthrough',
  board: 'reviewls.client.board',
  explain: 'reviewls.client.explain',
  investigate: 'reviewls.client.investigate',
  emit: 'reviewls.client.emit',
  boardExplain: 'reviewls.client.boardExplain',
  boardInvestigate: 'reviewls.client.boardInvestigate',
  boardBookmark: 'reviewls.client.boardBookmark',
} as const;

/** Server command ids (workspace/executeCommand). */
const server = {
  review: 'reviewls.review',
  walkthrough: 'reviewls.walkthrough',
  board: 'reviewls.board',
  bookmark: 'reviewls.bookmark',
  explain: 'reviewls.explain',
  investigate: 'reviewls.investigate',
  emit: 'reviewls.emit',
} as const;

const didReviewMethod = 'reviewls/didReview';
const boardViewId = 'reviewls.board';

/** Reviewls owns the language client and the UI built on it. */
export class Reviewls implements vscode.Disposable {
  client: LanguageClient | undefined;
  /** startError says why the server is not running, when it is not. */
  startError: string | undefined;
  /** lastError is the last command failure shown to the user. */
  lastError: string | undefined;
  readonly output = vscode.window.createOutputChannel('reviewls', { log: true });
  readonly status = vscode.window.createStatusBarItem('reviewls.status', vscode.StatusBarAlignment.Left, 10);
  readonly board: BoardProvider;
  /** reviews holds the last reviewls/didReview of each repository, by root URI. */
  readonly reviews = new Map<string, DidReview>();
  private lastRoot: string | undefined;
  private settings: ServerSettings = {};
  private readonly reviewListeners = new Set<(r: DidReview) => void>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly context: vscode.ExtensionContext) {
    this.board = new BoardProvider(this);
    this.status.name = 'reviewls';
    this.status.command = cmd.board;
    this.setStatus('$(loading~spin) reviewls', 'reviewls: starting the language server');
    this.status.show();
    this.disposables.push(
      this.output,
      this.status,
      vscode.window.registerTreeDataProvider(boardViewId, this.board),
      vscode.window.onDidChangeActiveTextEditor(() => this.updateStatus()),
      vscode.workspace.onDidChangeConfiguration((e) => this.configurationChanged(e)),
    );
    this.registerCommands();
  }

  dispose(): void {
    void this.stop();
    for (const d of this.disposables) {
      d.dispose();
    }
  }

  /** start resolves the binary and starts the client; failures are shown, never thrown. */
  async start(): Promise<void> {
    this.startError = undefined;
    const cfg = vscode.workspace.getConfiguration('reviewls');
    const setting = cfg.get<string>('path', '');
    const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const found = resolveBinary(setting, process.env, { cwd });
    if (!found.path) {
      this.failStart(missingMessage(setting, found), true);
      return;
    }
    this.settings = this.readSettings();
    const serverOptions: ServerOptions = {
      // No transport option: stdio pipes are the default, and TransportKind.stdio
      // would append --stdio to the arguments.
      command: found.path,
      args: ['serve'],
      options: cwd ? { cwd } : undefined,
    };
    const clientOptions: LanguageClientOptions = {
      // The server reviews changed files of any language.
      documentSelector: [{ scheme: 'file' }],
      initializationOptions: settingsPayload(this.settings),
      outputChannel: this.output,
      middleware: {
        window: {
          // Explanations, investigations and other artifacts are markdown:
          // show them rendered instead of as source.
          showDocument: async (params, token, next) => {
            if (!params.external && params.uri.toLowerCase().endsWith('.md')) {
              const shown = await this.showMarkdown(vscode.Uri.parse(params.uri));
              return { success: shown };
            }
            return next(params, token);
          },
        },
        // Loop commands run from code actions and lenses change the board.
        executeCommand: async (command, args, next) => {
          try {
            return await next(command, args);
          } finally {
            this.board.refresh();
          }
        },
      },
    };
    const client = new LanguageClient('reviewls', 'reviewls', serverOptions, clientOptions);
    client.onNotification(didReviewMethod, (p: DidReview) => this.didReview(p));
    this.client = client;
    this.output.appendLine(`starting ${found.path} serve`);
    try {
      await client.start();
    } catch (e) {
      this.failStart(`reviewls: the language server ${found.path} did not start: ${errorMessage(e)}`, false);
      return;
    }
    this.setStatus('$(loading~spin) reviewls', 'reviewls: reviewing…');
    this.board.refresh();
  }

  async stop(): Promise<void> {
    const c = this.client;
    this.client = undefined;
    if (c && c.state !== State.Stopped) {
      await c.stop().catch((e) => this.output.appendLine(`stop: ${errorMessage(e)}`));
    }
  }

  private failStart(msg: string, missing: boolean): void {
    this.startError = msg;
    this.output.appendLine(msg);
    this.setStatus('$(error) reviewls', msg);
    const open = 'Open Settings';
    void vscode.window.showErrorMessage(msg, ...(missing ? [open] : [])).then((choice) => {
      if (choice === open) {
        void vscode.commands.executeCommand('workbench.action.openSettings', 'reviewls.path');
      }
    });
  }

  /** running reports whether requests can be sent. */
  running(): boolean {
    return this.client?.state === State.Running;
  }

  /**
   * exec sends workspace/executeCommand and returns the result; it throws
   * the server's error. Callers that show errors themselves use run.
   */
  async exec<T>(command: string, args: unknown[]): Promise<T> {
    const c = this.client;
    if (!c || !this.running()) {
      throw new Error(this.startError ?? 'the language server is not running');
    }
    return (await c.sendRequest(ExecuteCommandRequest.type, { command, arguments: args })) as T;
  }

  /** run is exec that shows a failure with the server's message and returns undefined. */
  async run<T>(command: string, args: unknown[]): Promise<T | undefined> {
    try {
      return await this.exec<T>(command, args);
    } catch (e) {
      const msg = `reviewls: ${command} failed: ${errorMessage(e)}`;
      this.lastError = msg;
      this.output.appendLine(msg);
      void vscode.window.showErrorMessage(msg);
      return undefined;
    }
  }

  /** root is the repository (as the server's URI) the active editor belongs to, else the last reviewed one. */
  root(): string | undefined {
    const doc = vscode.window.activeTextEditor?.document;
    if (doc?.uri.scheme === 'file') {
      const r = this.rootOf(doc.uri.fsPath);
      if (r) {
        return r;
      }
    }
    return this.lastRoot;
  }

  /** rootOf returns the known repository root URI holding the file at fsPath. */
  rootOf(fsPath: string): string | undefined {
    let best: string | undefined;
    for (const r of this.reviews.keys()) {
      const dir = vscode.Uri.parse(r).fsPath;
      if (relativeTo(dir, fsPath) !== undefined && (!best || r.length > best.length)) {
        best = r;
      }
    }
    return best;
  }

  /** onDidReview registers a listener for reviewls/didReview (used by the e2e driver). */
  onDidReview(f: (r: DidReview) => void): vscode.Disposable {
    this.reviewListeners.add(f);
    return new vscode.Disposable(() => this.reviewListeners.delete(f));
  }

  private didReview(p: DidReview): void {
    this.reviews.set(p.root, p);
    this.lastRoot = p.root;
    this.updateStatus();
    this.board.refresh();
    for (const f of this.reviewListeners) {
      f(p);
    }
  }

  private updateStatus(): void {
    const root = this.root();
    const r = root ? this.reviews.get(root) : undefined;
    if (r) {
      this.setStatus(statusText(r), statusTooltip(r));
    }
  }

  private setStatus(text: string, tooltip: string): void {
    this.status.text = text;
    this.status.tooltip = tooltip;
  }

  private readSettings(): ServerSettings {
    const cfg = vscode.workspace.getConfiguration('reviewls');
    return serverSettings((k) => cfg.get(k));
  }

  private async configurationChanged(e: vscode.ConfigurationChangeEvent): Promise<void> {
    if (e.affectsConfiguration('reviewls.path')) {
      await this.stop();
      await this.start();
      return;
    }
    if (!e.affectsConfiguration('reviewls')) {
      return;
    }
    const next = this.readSettings();
    if (changedKeys(this.settings, next).length === 0) {
      return;
    }
    this.settings = next;
    if (this.client && this.running()) {
      await this.client.sendNotification(DidChangeConfigurationNotification.type, { settings: settingsPayload(next) });
    }
  }

  /** showMarkdown opens a markdown file as a rendered preview (as text when the preview is unavailable). */
  async showMarkdown(uri: vscode.Uri): Promise<boolean> {
    try {
      await vscode.commands.executeCommand('markdown.showPreview', uri);
      return true;
    } catch (e) {
      this.output.appendLine(`markdown.showPreview ${uri.toString()}: ${errorMessage(e)}`);
    }
    try {
      await vscode.window.showTextDocument(uri, { preview: true });
      return true;
    } catch {
      return false;
    }
  }

  private registerCommands(): void {
    const reg = (id: string, f: (...args: any[]) => unknown) => this.disposables.push(vscode.commands.registerCommand(id, f));
    reg(cmd.review, () => this.reviewNow());
    reg(cmd.walkthrough, () => this.walkthrough());
    reg(cmd.board, () => this.showBoard());
    reg(cmd.explain, () => this.explainAtCursor());
    reg(cmd.investigate, (node?: ItemNode) => this.investigate(node));
    reg(cmd.emit, () => this.emit());
    reg(cmd.boardExplain, (node?: ItemNode) => this.explainItem(node));
    reg(cmd.boardInvestigate, (node?: ItemNode) => this.investigate(node));
    reg(cmd.boardBookmark, (node?: ItemNode) => this.bookmark(node));
  }

  async reviewNow(): Promise<unknown> {
    const res = await this.run<DidReview>(server.review, loopArgs(this.root()));
    this.board.refresh();
    if (res) {
      void vscode.window.setStatusBarMessage(`reviewls: ${res.decision?.words ?? res.verdict}, ${res.findings ?? 0} findings`, 5000);
    }
    return res;
  }

  async walkthrough(): Promise<unknown> {
    const res = await this.run<{ path: string }>(server.walkthrough, loopArgs(this.root()));
    if (res?.path) {
      await this.showMarkdown(vscode.Uri.file(res.path));
    }
    return res;
  }

  async showBoard(): Promise<unknown> {
    await vscode.commands.executeCommand(`${boardViewId}.focus`).then(undefined, () => undefined);
    const res = await this.run<BoardResult>(server.board, loopArgs(this.root()));
    this.board.refresh();
    if (res?.path) {
      await this.showMarkdown(vscode.Uri.file(res.path));
    }
    return res;
  }

  /** runAndShow runs a loop command that writes a document, refreshes the board and opens the document. */
  private async runAndShow(command: string, args: unknown[]): Promise<unknown> {
    const res = await this.run<{ path: string }>(command, args);
    this.board.refresh();
    if (res?.path) {
      await this.showMarkdown(vscode.Uri.file(res.path));
    }
    return res;
  }

  async explainAtCursor(): Promise<unknown> {
    const editor = vscode.window.activeTextEditor;
    if (!editor || editor.document.uri.scheme !== 'file') {
      void vscode.window.showErrorMessage('reviewls: Explain symbol needs a file editor with the cursor on a changed symbol');
      return undefined;
    }
    return this.runAndShow(server.explain, explainAtArgs(editor.document.uri.toString(), editor.selection.active));
  }

  async explainItem(node?: ItemNode): Promise<unknown> {
    const item = node ?? (await this.pickItem('Explain a symbol of which board item?'));
    if (!item) {
      return undefined;
    }
    if (item.symbols.length === 0) {
      void vscode.window.showInformationMessage(`reviewls: ${item.id} (${item.area}) has no changed symbols to explain`);
      return undefined;
    }
    const symbol = await vscode.window.showQuickPick(item.symbols, { title: `Explain a symbol of ${item.id} (${item.area})` });
    if (!symbol) {
      return undefined;
    }
    return this.runAndShow(server.explain, explainItemArgs(item.id, symbol, this.root()));
  }

  async investigate(node?: ItemNode): Promise<unknown> {
    let id = node?.id;
    if (!id) {
      id = await this.itemOfActiveFile();
    }
    if (!id) {
      id = (await this.pickItem('Investigate which board item?'))?.id;
    }
    if (!id) {
      return undefined;
    }
    const question = await vscode.window.showInputBox({
      title: `Investigate ${id}`,
      prompt: 'What should the investigation answer?',
      placeHolder: 'e.g. Can Get be called with a missing key?',
      validateInput: (v) => (v.trim() === '' ? 'Ask a question' : undefined),
    });
    if (!question) {
      return undefined;
    }
    return this.runAndShow(server.investigate, investigateArgs(id, question.trim(), this.root()));
  }

  async bookmark(node?: ItemNode): Promise<unknown> {
    const item = node ?? (await this.pickItem('Bookmark which board item?'));
    if (!item) {
      return undefined;
    }
    const res = await this.run<{ route?: string }>(server.bookmark, bookmarkArgs(item.id, this.root()));
    this.board.refresh();
    if (res) {
      void vscode.window.showInformationMessage(`reviewls: bookmarked ${item.id}${res.route ? ` (${res.route})` : ''}`);
    }
    return res;
  }

  async emit(): Promise<unknown> {
    const emitLabel = 'Emit';
    const skipLabel = 'Skip emission';
    const choice = await vscode.window.showWarningMessage(
      'Emit this review?',
      { modal: true, detail: 'Emission records the review as final in the artifact folder; nothing leaves the repository.' },
      emitLabel,
      skipLabel,
    );
    if (!choice) {
      return undefined;
    }
    const res = await this.run<{ path: string; emissionReady?: boolean }>(server.emit, emitArgs(choice === emitLabel, this.root()));
    this.board.refresh();
    if (res) {
      void vscode.window.showInformationMessage(`reviewls: emission ${choice === emitLabel ? 'recorded' : 'skipped'} in ${res.path}`);
    }
    return res;
  }

  /** itemOfActiveFile is the board item whose changed files hold the active editor's file. */
  private async itemOfActiveFile(): Promise<string | undefined> {
    const doc = vscode.window.activeTextEditor?.document;
    const root = doc?.uri.scheme === 'file' ? this.rootOf(doc.uri.fsPath) : undefined;
    if (!doc || !root) {
      return undefined;
    }
    const rel = relativeTo(vscode.Uri.parse(root).fsPath, doc.uri.fsPath);
    const items = await this.board.items();
    return rel === undefined ? undefined : itemForFile(items, rel);
  }

  private async pickItem(title: string): Promise<ItemNode | undefined> {
    const items = await this.board.items();
    if (items.length === 0) {
      void vscode.window.showInformationMessage('reviewls: the dispatch board is empty');
      return undefined;
    }
    const pick = await vscode.window.showQuickPick(
      items.map((it) => ({ label: it.id, description: `${it.area} · ${it.status}`, detail: it.tooltip.split('\n')[0], node: it })),
      { title },
    );
    return pick?.node;
  }

  /** fileUri is the URI of a repo-relative path in the current repository. */
  fileUri(rel: string): vscode.Uri | undefined {
    const root = this.root() ?? vscode.workspace.workspaceFolders?.[0]?.uri.toString();
    return root ? vscode.Uri.file(path.join(vscode.Uri.parse(root).fsPath, ...rel.split('/'))) : undefined;
  }
}

/** errorMessage is the message of a JSON-RPC error (the server's text) or any other error. */
export function errorMessage(e: unknown): string {
  if (e instanceof ResponseError) {
    return e.message;
  }
  if (e instanceof Error) {
    return e.message;
  }
  return String(e);
}

let instance: Reviewls | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<Reviewls> {
  const ctl = new Reviewls(context);
  instance = ctl;
  context.subscriptions.push(ctl);
  // Activation does not wait for the server: start shows its own errors.
  const started = ctl.start();
  // The end-to-end driver exists only for editors/e2e/vscode/run.sh: it is
  // loaded when the extension host's environment names a report file.
  const out = process.env.REVIEWLS_E2E_OUT;
  if (out) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const e2e = require('./e2e') as typeof import('./e2e');
    void started.then(() => e2e.drive(ctl, out));
  }
  return ctl;
}

export async function deactivate(): Promise<void> {
  await instance?.stop();
  instance = undefined;
}
