// The dispatch-board tree view: items of reviewls.board with their status,
// and under each item the changed files' links, which open the file at the
// line.
import * as vscode from 'vscode';

import { loopArgs } from './args';
import { BoardNode, BoardResult, boardModel, ItemNode } from './board';
import type { Reviewls } from './extension';

export class BoardProvider implements vscode.TreeDataProvider<BoardNode> {
  private readonly changed = new vscode.EventEmitter<BoardNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private cache: ItemNode[] | undefined;

  constructor(private readonly ctl: Reviewls) {}

  /** refresh drops the cached board; the view asks for it again. */
  refresh(): void {
    this.cache = undefined;
    this.changed.fire(undefined);
  }

  /** items returns the board's items, asking the server when nothing is cached. */
  async items(): Promise<ItemNode[]> {
    if (this.cache) {
      return this.cache;
    }
    if (!this.ctl.running()) {
      return [];
    }
    try {
      const res = await this.ctl.exec<BoardResult>('reviewls.board', loopArgs(this.ctl.root()));
      this.cache = boardModel(res);
    } catch (e) {
      // No changes, or no repository: the view shows its welcome text.
      this.ctl.output.appendLine(`reviewls.board: ${e instanceof Error ? e.message : String(e)}`);
      return [];
    }
    return this.cache;
  }

  async getChildren(node?: BoardNode): Promise<BoardNode[]> {
    if (!node) {
      return this.items();
    }
    return node.kind === 'item' ? node.links : [];
  }

  getTreeItem(node: BoardNode): vscode.TreeItem {
    if (node.kind === 'item') {
      const t = new vscode.TreeItem(node.label, node.links.length ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
      t.id = node.id;
      t.description = node.description;
      t.tooltip = new vscode.MarkdownString(undefined, true);
      t.tooltip.appendText(node.tooltip);
      t.iconPath = new vscode.ThemeIcon(node.icon);
      t.contextValue = 'reviewls.boardItem';
      return t;
    }
    const t = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.None);
    t.id = `${node.item}/${node.label}`;
    t.iconPath = vscode.ThemeIcon.File;
    t.contextValue = 'reviewls.boardLink';
    const uri = this.ctl.fileUri(node.file);
    if (uri) {
      t.resourceUri = uri;
      const pos = new vscode.Position(node.line - 1, 0);
      t.command = { command: 'vscode.open', title: 'Open', arguments: [uri, { selection: new vscode.Range(pos, pos) }] };
    }
    return t;
  }
}
