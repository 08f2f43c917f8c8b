// The end-to-end driver run by editors/e2e/vscode/run.sh inside a real VS
// Code extension host. extension.ts loads it only when REVIEWLS_E2E_OUT
// names the report file; REVIEWLS_E2E_EXPECTED names the fixture's
// expected.json. Every check waits on an observed condition with a
// deadline and records PASS/FAIL with the reason; the report is written
// once (atomically) at the end, and run.sh prints and judges it.
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { State } from 'vscode-languageclient/node';

import type { ItemNode } from './board';
import { errorMessage, Reviewls, cmd } from './extension';
import { statusText } from './status';

interface Expected {
  files: string[];
  diagnostics: { file: string; line: number; col: number; severity: number; rule: string; state: string }[];
  secret: { file: string; value: string; redacted: string; message: string; rationale: string };
  codeActions: { file: string; line: number; from: number; to: number; menu: string[] };
  fix: { file: string; line: number; text: string; clears: string };
  explain: { file: string; line: number; character: number; symbol: string; item: string; change: string; artifactDir: string };
  board: { id: string; area: string }[];
  decision: { recommendation: string; words: string };
}

interface Check {
  name: string;
  ok: boolean;
  detail: string;
  ms: number;
}

/** Failure marks a check failed with a specific reason. */
class Failure extends Error {}

function fail(msg: string): never {
  throw new Failure(msg);
}

export async function drive(ctl: Reviewls, out: string): Promise<void> {
  const t0 = Date.now();
  // Each check waits at most this long, so one failure leaves time for the rest (shutdown included).
  const perCheck = Number(process.env.REVIEWLS_E2E_CHECK_TIMEOUT_MS || 30000);
  const checks: Check[] = [];
  const report: Record<string, unknown> = { vscode: vscode.version, checks };
  const check = async (name: string, f: (deadline: number) => Promise<string>): Promise<boolean> => {
    const start = Date.now();
    try {
      const detail = await f(start + perCheck);
      checks.push({ name, ok: true, detail, ms: Date.now() - start });
      return true;
    } catch (e) {
      checks.push({ name, ok: false, detail: e instanceof Failure ? e.message : `error: ${errorMessage(e)}`, ms: Date.now() - start });
      return false;
    }
  };
  try {
    const expected = JSON.parse(fs.readFileSync(process.env.REVIEWLS_E2E_EXPECTED ?? '', 'utf8')) as Expected;
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? fail('no workspace folder is open');
    const fileUri = (rel: string) => vscode.Uri.file(path.join(folder, ...rel.split('/')));
    const seen: string[] = []; // every text the server produced, searched for the secret

    await check('activate', async (deadline) => {
      const ext = vscode.extensions.getExtension('reviewls.reviewls') ?? fail('extension reviewls.reviewls is not installed');
      await until(deadline, () => ext.isActive, 'the extension to be active');
      return `reviewls.reviewls ${ext.packageJSON.version} active in VS Code ${vscode.version}`;
    });

    const serverUp = await check('server-start', async () => {
      // drive runs once start has settled: the client runs or startError says why not.
      if (!ctl.running()) {
        fail(ctl.startError ?? `client state ${ctl.client?.state}`);
      }
      const cmds = ctl.client?.initializeResult?.capabilities.executeCommandProvider?.commands ?? [];
      for (const c of ['reviewls.review', 'reviewls.board', 'reviewls.explain']) {
        if (!cmds.includes(c)) {
          fail(`initialize result does not advertise ${c} (got ${JSON.stringify(cmds)})`);
        }
      }
      const registered = await vscode.commands.getCommands(true);
      if (!registered.includes('reviewls.explain')) {
        fail('the language client did not register the server command reviewls.explain');
      }
      return `${ctl.client?.initializeResult?.serverInfo?.name ?? 'server'} running, ${cmds.length} commands advertised`;
    });
    if (!serverUp) {
      return;
    }

    await check('diagnostics', async (deadline) => {
      // Only app/store.go is opened: the server publishes for unopened changed files too.
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(fileUri(expected.explain.file)));
      let problems: string[] = [];
      await untilEvent(deadline, vscode.languages.onDidChangeDiagnostics, () => {
        problems = diagnosticProblems(expected, fileUri);
        return problems.length === 0;
      }).catch(() => fail(problems.join('; ')));
      for (const f of expected.files) {
        for (const d of vscode.languages.getDiagnostics(fileUri(f))) {
          seen.push(d.message);
        }
      }
      return `${expected.diagnostics.length} diagnostics as expected.json says, none elsewhere in ${expected.files.length} files`;
    });

    await check('board-view', async (deadline) => {
      const want = expected.board.map((b) => `${b.id}:${b.area}`).join(' ');
      let got = '';
      let items: ItemNode[] = [];
      await untilAsync(deadline, async () => {
        items = (await withDeadline(deadline, ctl.board.getChildren(), 'the board view')) as ItemNode[];
        got = items.map((it) => `${it.id}:${it.area}`).join(' ');
        return got === want;
      }).catch(() => fail(`board view lists [${got}], want [${want}]`));
      for (const it of items) {
        seen.push(it.tooltip);
        if (!['circle-outline', 'sync', 'pass'].includes(it.icon) || it.description !== it.status) {
          fail(`${it.id}: status ${it.status} shown as icon ${it.icon}, description ${it.description}`);
        }
      }
      const links = items.flatMap((it) => it.links);
      if (links.length === 0 || links.some((l) => !(l.line >= 1) || !fs.existsSync(path.join(folder, l.file)))) {
        fail(`links do not name existing files with lines: ${JSON.stringify(links)}`);
      }
      return `[${got}], ${links.length} links`;
    });

    const ex = expected.explain;
    const exUri = fileUri(ex.file);
    const exPos = new vscode.Position(ex.line - 1, ex.character);
    await check('code-action', async (deadline) => {
      const actions =
        (await withDeadline(
          deadline,
          vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>('vscode.executeCodeActionProvider', exUri, new vscode.Range(exPos, exPos)),
          'code actions',
        )) ?? [];
      const commandOf = (a: vscode.CodeAction | vscode.Command) => ('command' in a && typeof a.command === 'string' ? (a as vscode.Command) : (a as vscode.CodeAction).command);
      const hit = actions.find((a) => commandOf(a)?.command === 'reviewls.explain');
      if (!hit) {
        fail(`no code action with command reviewls.explain at ${ex.file}:${ex.line}:${ex.character} (got ${actions.map((a) => a.title).join(', ') || 'none'})`);
      }
      const name = ex.symbol.split('.').pop();
      if (hit.title !== `reviewls: Explain ${name}`) {
        fail(`the reviewls.explain action is titled "${hit.title}", want "reviewls: Explain ${name}"`);
      }
      const arg = commandOf(hit)?.arguments?.[0] as { uri?: string; position?: { line: number; character: number } } | undefined;
      if (!arg || arg.position?.line !== ex.line - 1 || arg.position?.character !== ex.character || vscode.Uri.parse(arg.uri ?? '').fsPath !== exUri.fsPath) {
        fail(`"${hit.title}" carries arguments ${JSON.stringify(arg)}`);
      }
      return `"${hit.title}" → reviewls.explain ${JSON.stringify(arg.position)}`;
    });

    await check('explain-command', async (deadline) => {
      const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(exUri));
      editor.selection = new vscode.Selection(exPos, exPos);
      const res = (await withDeadline(deadline, vscode.commands.executeCommand(cmd.explain), cmd.explain)) as { item?: string; symbol?: string; change?: string; path?: string; markdown?: string } | undefined;
      if (!res) {
        fail(`${cmd.explain} returned nothing: ${ctl.lastError ?? 'no error shown'}`);
      }
      seen.push(JSON.stringify(res));
      const file = path.join(folder, ex.artifactDir, 'explanations', `${ex.item}-${ex.symbol}.md`);
      if (res.item !== ex.item || res.symbol !== ex.symbol || res.change !== ex.change) {
        fail(`result {item: ${res.item}, symbol: ${res.symbol}, change: ${res.change}}, want {${ex.item}, ${ex.symbol}, ${ex.change}}`);
      }
      if (res.path !== file || !fs.existsSync(file)) {
        fail(`explanation file ${file} missing (result path ${res.path})`);
      }
      return `${res.item} ${res.symbol} (${res.change}) → ${path.relative(folder, file)}`;
    });

    await check('status-bar', async (deadline) => {
      const sev = (n: number) => expected.diagnostics.filter((d) => d.severity === n).length;
      // The recommendation in words, the confidence, the counts.
      const want = expected.decision.words;
      const re = /^\$\(([\w-]+)\) (.+) · (\d\.\d\d)  C(\d+) H(\d+) M(\d+) L(\d+)$/;
      let text = '';
      await untilEvent(deadline, (f) => ctl.onDidReview(f), () => {
        text = ctl.status.text;
        const m = re.exec(text);
        return !!m && m[2] === want && +m[4] + +m[5] === sev(1) && +m[6] === sev(2) && +m[7] === sev(3);
      }).catch(() => fail(`status bar shows "${text}", want "${want} · <confidence>" with C+H=${sev(1)} M=${sev(2)} L=${sev(3)}`));
      const last = [...ctl.reviews.values()].pop();
      if (!last || statusText(last) !== text || last.decision?.recommendation !== expected.decision.recommendation) {
        fail(`status bar "${text}" is not the last reviewls/didReview (${JSON.stringify(last)})`);
      }
      const tip = String(ctl.status.tooltip);
      if (!tip.includes(path.join(folder, ex.artifactDir)) || !tip.includes(`reviewls: ${want} (${expected.decision.recommendation})`) || !tip.includes('To raise the confidence:')) {
        fail(`tooltip does not say the decision and the artifact folder: ${tip}`);
      }
      return text;
    });

    await check('review-command', async (deadline) => {
      const res = (await withDeadline(deadline, vscode.commands.executeCommand(cmd.review), cmd.review)) as { verdict?: string; findings?: number; artifactFolder?: string } | undefined;
      if (!res) {
        fail(`${cmd.review} returned nothing: ${ctl.lastError ?? 'no error shown'}`);
      }
      seen.push(JSON.stringify(res));
      if (res.findings !== expected.diagnostics.length || res.artifactFolder !== path.join(folder, ex.artifactDir)) {
        fail(`result ${JSON.stringify(res)}: want ${expected.diagnostics.length} findings in ${ex.artifactDir}`);
      }
      return `${res.verdict}, ${res.findings} findings`;
    });

    // Screenshots, taken by editors/e2e/vscode/shoot.mjs through the
    // browser's DevTools protocol when this driver asks (REVIEWLS_E2E_SHOTS).
    const shots = process.env.REVIEWLS_E2E_SHOTS;
    if (shots) {
      await screenshots(shots, ctl, expected, fileUri, check);
    }

    await check('secret-redacted', async () => {
      const leaks = seen.filter((s) => s.includes(expected.secret.value));
      if (leaks.length) {
        fail(`the secret appears in ${leaks.length} server texts, e.g. ${leaks[0].slice(0, 200)}`);
      }
      const secretDiag = vscode.languages.getDiagnostics(fileUri(expected.secret.file)).map((d) => d.message).join(' ');
      if (!secretDiag.includes(expected.secret.message)) {
        fail(`the ${expected.secret.file} diagnostic does not show the headline ${expected.secret.message}: ${secretDiag}`);
      }
      return `${seen.length} texts checked; ${expected.secret.file} shows ${expected.secret.message}`;
    });

    await check('unsaved-fix', async (deadline) => {
      const fx = expected.fix;
      const uri = fileUri(fx.file);
      const doc = await vscode.workspace.openTextDocument(uri);
      const editor = await vscode.window.showTextDocument(doc);
      const line = doc.lineAt(fx.line - 1).range;
      if (!(await editor.edit((b) => b.replace(line, fx.text)))) {
        fail('the edit was not applied');
      }
      const has = () => vscode.languages.getDiagnostics(uri).some((d) => codeOf(d) === fx.clears);
      await untilEvent(deadline, vscode.languages.onDidChangeDiagnostics, () => !has()).catch(() => fail(`${fx.clears} is still reported after the unsaved edit`));
      if (!doc.isDirty) {
        fail('the document was saved; the fix should be reviewed unsaved');
      }
      // The notification follows the review: one fewer finding of the fixed severity.
      const want = expected.diagnostics.filter((d) => d.rule !== fx.clears).length;
      await untilEvent(deadline, (f) => ctl.onDidReview(f), () => [...ctl.reviews.values()].pop()?.findings === want).catch(() =>
        fail(`reviewls/didReview still reports ${[...ctl.reviews.values()].pop()?.findings} findings, want ${want}`),
      );
      return `${fx.clears} cleared in the unsaved buffer; status bar now "${ctl.status.text}"`;
    });

    await check('shutdown', async (deadline) => {
      const client = ctl.client ?? fail('no client');
      await withDeadline(deadline, client.stop(), 'shutdown and exit');
      if (client.state !== State.Stopped) {
        fail(`client state ${client.state} after stop`);
      }
      return 'shutdown + exit answered';
    });
  } catch (e) {
    checks.push({ name: 'driver', ok: false, detail: errorMessage(e), ms: Date.now() - t0 });
  } finally {
    report.elapsed_ms = Date.now() - t0;
    report.ok = checks.length > 0 && checks.every((c) => c.ok);
    const tmp = `${out}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(report, null, 1) + '\n');
    fs.renameSync(tmp, out);
  }
}

interface Wait {
  selector: string;
  min?: number;
  max?: number;
  texts?: string[];
  once?: string[];
  order?: string[];
  fits?: boolean;
}

/**
 * screenshots shows (a) the squiggles of an error and a warning, (b) the
 * hover over the error, (c) the code action menu over a finding and a
 * symbol, (d) the Problems panel and (e) the board view with the status
 * bar's recommendation in words, and has shoot.mjs capture each once the
 * workbench's DOM shows it.
 */
async function screenshots(
  dir: string,
  ctl: Reviewls,
  expected: Expected,
  fileUri: (rel: string) => vscode.Uri,
  check: (name: string, f: (deadline: number) => Promise<string>) => Promise<boolean>,
): Promise<void> {
  const shoot = async (name: string, deadline: number, wait: Wait[]): Promise<string> => {
    const req = path.join(dir, `${name}.request.json`);
    const res = path.join(dir, `${name}.result.json`);
    fs.writeFileSync(`${req}.tmp`, JSON.stringify({ name, deadline_ms: Math.max(1000, remaining(deadline) - 3000), wait }));
    fs.renameSync(`${req}.tmp`, req);
    await until(deadline, () => fs.existsSync(res), `shoot.mjs to capture ${name} (is it running? see shoot.log)`);
    const r = JSON.parse(fs.readFileSync(res, 'utf8')) as { ok: boolean; detail: string };
    if (!r.ok) {
      fail(r.detail);
    }
    return r.detail;
  };
  const diag = (sev: number) => expected.diagnostics.find((d) => d.severity === sev) ?? fail(`expected.json has no diagnostic of severity ${sev}`);
  const err = diag(1);
  const warn = diag(2);
  const errUri = fileUri(err.file);
  // The reviewls diagnostic at an expected line, as VS Code holds it.
  const shown = (d: Expected['diagnostics'][number]) =>
    vscode.languages.getDiagnostics(fileUri(d.file)).find((x) => x.source === 'reviewls' && codeOf(x) === d.rule && x.range.start.line === d.line - 1) ??
    fail(`no ${d.rule} diagnostic on ${d.file}:${d.line}`);

  // The chat side bar would leave the editors too narrow for the flagged lines.
  await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar').then(undefined, () => undefined);
  // An editor's DOM carries its document's URI.
  const editorOf = (f: string) => `[data-uri$="/${f}"]`;

  await check('screenshot-squiggles', async (deadline) => {
    // The error's file on the left, the warning's on the right.
    const left = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(errUri), vscode.ViewColumn.One);
    const right = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(fileUri(warn.file)), vscode.ViewColumn.Two);
    left.revealRange(shown(err).range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    right.revealRange(shown(warn).range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    return shoot('squiggles', deadline, [
      { selector: `${editorOf(err.file)} .squiggly-error` },
      { selector: `${editorOf(warn.file)} .squiggly-warning` },
    ]);
  });

  await check('screenshot-hover', async (deadline) => {
    const d = shown(err);
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(errUri), vscode.ViewColumn.One);
    editor.selection = new vscode.Selection(d.range.start, d.range.start);
    await vscode.commands.executeCommand('editor.action.showHover');
    // One box: the diagnostic's headline and source(code) once (VS Code's
    // part), then the server's: the rationale, the fix, "More". All of it
    // shows: nothing is cut off behind a scroll bar.
    const headline = d.message.replace(/ \[critical\]$/, '');
    // The error is the secret (expected.json has one error).
    const rationale = expected.secret.rationale;
    return shoot('hover', deadline, [
      { selector: '.monaco-hover', texts: [d.message, rationale, 'Fix:', 'More'], once: [headline, err.rule], order: [headline, err.rule, rationale, 'Fix:', 'More'] },
      { selector: '.monaco-hover .monaco-hover-content', fits: true },
    ]);
  });

  await check('screenshot-actions', async (deadline) => {
    await vscode.commands.executeCommand('editor.action.hideHover');
    const ca = expected.codeActions;
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(fileUri(ca.file)), vscode.ViewColumn.One);
    editor.selection = new vscode.Selection(ca.line - 1, ca.from, ca.line - 1, ca.to);
    await vscode.commands.executeCommand('editor.action.quickFix');
    // The menu lists reviewls's actions, told apart by their "reviewls: "
    // titles, in the groups and the order the READMEs give.
    return shoot('actions', deadline, [{ selector: '.action-widget', order: ca.menu }]);
  });

  await check('screenshot-problems', async (deadline) => {
    await vscode.commands.executeCommand('hideCodeActionWidget');
    await vscode.commands.executeCommand('editor.action.hideHover');
    await vscode.commands.executeCommand('workbench.actions.view.problems');
    const files = new Set(expected.diagnostics.map((d) => d.file)).size;
    // Each row ends with where the finding starts, the CLI's line:col.
    return shoot('problems', deadline, [
      {
        selector: '.markers-panel .monaco-list-row',
        min: files + expected.diagnostics.length,
        texts: ['reviewls', ...expected.diagnostics.flatMap((d) => [d.rule, `[Ln ${d.line}, Col ${d.col}]`])],
      },
      { selector: '.monaco-hover', min: 0, max: 0 },
      { selector: '.action-widget', min: 0, max: 0 },
    ]);
  });

  await check('screenshot-board', async (deadline) => {
    await vscode.commands.executeCommand('reviewls.board.focus');
    // Each item's row shows its id, area and status.
    const items = await ctl.board.items();
    // The status bar at the bottom says the recommendation in words.
    return shoot('board', deadline, [
      { selector: '.part.sidebar .monaco-list-row', min: expected.board.length, texts: items.flatMap((it) => [it.id, it.area, it.status]) },
      { selector: '.part.statusbar .statusbar-item', texts: [`${expected.decision.words} · `] },
    ]);
  });
}

function codeOf(d: vscode.Diagnostic): string {
  return typeof d.code === 'object' ? String(d.code.value) : String(d.code);
}

/** diagnosticProblems compares the reviewls diagnostics of the expected files with expected.json. */
function diagnosticProblems(expected: Expected, fileUri: (rel: string) => vscode.Uri): string[] {
  const problems: string[] = [];
  for (const f of expected.files) {
    const got = vscode.languages.getDiagnostics(fileUri(f)).filter((d) => d.source === 'reviewls');
    const want = expected.diagnostics.filter((d) => d.file === f);
    for (const w of want) {
      // vscode.DiagnosticSeverity is 0-based (Error = 0); LSP's is 1-based.
      // The fixture is ASCII: a UTF-16 character is a byte, col is 1-based.
      const hit = got.find((d) => codeOf(d) === w.rule && d.range.start.line === w.line - 1 && d.severity === w.severity - 1);
      if (!hit) {
        problems.push(`${f}:${w.line}: no ${w.rule} (severity ${w.severity}) diagnostic`);
      } else if (hit.range.start.character !== w.col - 1) {
        problems.push(`${f}:${w.line}: ${w.rule} starts at column ${hit.range.start.character + 1}, want ${w.col}`);
      }
    }
    for (const d of got) {
      if (!want.some((w) => codeOf(d) === w.rule && d.range.start.line === w.line - 1)) {
        problems.push(`${f}:${d.range.start.line + 1}: unexpected ${codeOf(d)}`);
      }
    }
  }
  return problems;
}

function remaining(deadline: number): number {
  return Math.max(0, deadline - Date.now());
}

/** until polls an in-process condition that has no change event (extension activation) until the deadline. */
async function until(deadline: number, cond: () => boolean, what: string): Promise<void> {
  while (!cond()) {
    if (Date.now() >= deadline) {
      throw new Failure(`timed out waiting for ${what}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** untilAsync retries an asynchronous probe (a server round trip) until it holds or the deadline passes. */
async function untilAsync(deadline: number, cond: () => Promise<boolean>): Promise<void> {
  while (!(await cond())) {
    if (Date.now() >= deadline) {
      throw new Failure('timed out');
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** untilEvent re-evaluates cond on every event until it holds or the deadline passes. */
function untilEvent<T>(deadline: number, event: vscode.Event<T>, cond: () => boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    if (cond()) {
      return resolve();
    }
    const timer = setTimeout(() => {
      sub.dispose();
      cond() ? resolve() : reject(new Failure('timed out'));
    }, remaining(deadline));
    const sub = event(() => {
      if (cond()) {
        clearTimeout(timer);
        sub.dispose();
        resolve();
      }
    });
  });
}

function withDeadline<T>(deadline: number, p: Thenable<T>, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Failure(`timed out waiting for ${what}`)), remaining(deadline));
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}
