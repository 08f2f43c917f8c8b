// Status-bar text for a review summary (the params of reviewls/didReview).
// No 'vscode' import: unit-tested under plain node.

/** Counts are the findings per severity. */
export interface Counts {
  critical: number;
  high: number;
  medium: number;
  low: number;
}

/** DidReview is the params of the server's reviewls/didReview notification. */
export interface DidReview {
  root: string;
  target?: string;
  branch?: string;
  files?: number;
  findings?: number;
  counts?: Partial<Counts>;
  verdict?: string;
  depth?: string;
  perspectives?: string[];
  artifactFolder?: string;
  currentPhase?: string;
  board?: { id: string; area: string; status: string }[];
}

const verdictIcons: Record<string, string> = {
  request_changes: '$(error)',
  approve_with_comments: '$(warning)',
  approve: '$(pass)',
};

/** verdictIcon is the codicon shown before a verdict. */
export function verdictIcon(verdict: string | undefined): string {
  return (verdict && verdictIcons[verdict]) || '$(question)';
}

/** countsText formats counts as "C1 H0 M2 L1"; missing counts are 0. */
export function countsText(c: Partial<Counts> | undefined): string {
  const n = (v: number | undefined) => (typeof v === 'number' ? v : 0);
  return `C${n(c?.critical)} H${n(c?.high)} M${n(c?.medium)} L${n(c?.low)}`;
}

/** statusText is the status-bar text, e.g. "$(error) request_changes  C1 H0 M2 L1". */
export function statusText(r: Pick<DidReview, 'verdict' | 'counts'>): string {
  return `${verdictIcon(r.verdict)} ${r.verdict || 'unknown'}  ${countsText(r.counts)}`;
}

/** statusTooltip describes the review: target, findings, depth, phase and the artifact folder. */
export function statusTooltip(r: DidReview): string {
  const lines = [`reviewls: ${r.verdict || 'unknown'} (${r.findings ?? 0} findings in ${r.files ?? 0} files)`];
  const target = [r.target, r.branch].filter(Boolean).join(' on ');
  if (target) {
    lines.push(`Target: ${target}`);
  }
  if (r.depth) {
    lines.push(`Depth: ${r.depth}${r.perspectives?.length ? ` · ${r.perspectives.join(', ')}` : ''}`);
  }
  if (r.currentPhase) {
    lines.push(`Phase: ${r.currentPhase}`);
  }
  lines.push(r.artifactFolder ? `Artifacts: ${r.artifactFolder}` : 'Artifacts: none yet (no changes)');
  lines.push('Click to show the dispatch board');
  return lines.join('\n');
}
