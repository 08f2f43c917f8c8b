// The dispatch board's tree model, built from the result of the server's
// reviewls.board command. No 'vscode' import: unit-tested under plain node;
// boardView.ts turns these nodes into TreeItems.

/** BoardItem is one item of reviewls.board's result. */
export interface BoardItem {
  id: string;
  area: string;
  status: string;
  register?: string;
  summary?: string;
  preliminarySignal?: string;
  links?: string[];
  selectableSymbols?: string[];
  files?: string[];
  findings?: string[];
  explained?: string[];
  investigated?: string[];
}

/** BoardResult is the result of reviewls.board. */
export interface BoardResult {
  path: string;
  currentPhase?: string;
  items?: BoardItem[];
  markdown?: string;
}

/** LinkNode is a child of an item: a changed file and a line to open (1-based). */
export interface LinkNode {
  kind: 'link';
  item: string;
  label: string;
  file: string;
  line: number;
}

/** ItemNode is a top-level node of the board view. */
export interface ItemNode {
  kind: 'item';
  id: string;
  area: string;
  status: string;
  label: string;
  description: string;
  icon: string;
  tooltip: string;
  symbols: string[];
  files: string[];
  links: LinkNode[];
}

export type BoardNode = ItemNode | LinkNode;

const statusIcons: Record<string, string> = {
  pending: 'circle-outline',
  in_progress: 'sync',
  complete: 'pass',
};

/** statusIcon is the codicon id of an item status. */
export function statusIcon(status: string): string {
  return statusIcons[status] ?? 'question';
}

/**
 * parseLink splits a repo-relative "file:line" link at its last colon.
 * A link without a line number (or with line 0) opens the file at line 1.
 */
export function parseLink(link: string): { file: string; line: number } {
  const m = /^(.*):(\d+)$/.exec(link);
  if (m && m[1] !== '') {
    return { file: m[1], line: Math.max(1, Number(m[2])) };
  }
  return { file: link, line: 1 };
}

/** itemTooltip is the item's summary followed by its preliminary signal. */
export function itemTooltip(it: BoardItem): string {
  const parts = [it.summary?.trim(), it.preliminarySignal?.trim() ? `Preliminary signal: ${it.preliminarySignal.trim()}` : ''];
  return parts.filter(Boolean).join('\n\n') || `${it.id} (${it.area})`;
}

/** boardModel turns the board result into the view's top-level nodes, in board order. */
export function boardModel(result: BoardResult | undefined | null): ItemNode[] {
  return (result?.items ?? []).map((it) => ({
    kind: 'item',
    id: it.id,
    area: it.area,
    status: it.status,
    label: `${it.id}  ${it.area}`,
    description: it.status,
    icon: statusIcon(it.status),
    tooltip: itemTooltip(it),
    symbols: it.selectableSymbols ?? [],
    files: it.files ?? [],
    links: (it.links ?? []).map((l) => ({ kind: 'link', item: it.id, label: l, ...parseLink(l) })),
  }));
}

/**
 * itemForFile returns the id of the item whose changed files hold rel (a
 * repo-relative path with forward slashes), or undefined when none or
 * several do.
 */
export function itemForFile(items: ItemNode[], rel: string): string | undefined {
  const hits = items.filter((it) => it.files.includes(rel) || it.links.some((l) => l.file === rel));
  return hits.length === 1 ? hits[0].id : undefined;
}
