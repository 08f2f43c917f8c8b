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
  decision?: Decision;
}

/** Decision is the review decision: the recommendation in words, readiness, confidence and the open gaps. */
export interface Decision {
  recommendation: string;
  words: string;
  readiness?: string;
  confidence?: number;
  summary?: string;
  gaps?: { id: string; text: string; closure: string }[];
}

const recommendationIcons: Record<string, string> = {
  'accept-as-is': '$(pass)',
  'minor-changes': '$(warning)',
  'needs-more-work': '$(error)',
  'insufficient-but-promising': '$(error)',
  reject: '$(error)',
  null: '$(circle-slash)',
};

const verdictWords: Record<string, string> = {
  request_changes: 'Request changes',
  approve_with_comments: 'Approve with comments',
  approve: 'Approve',
};

/** confidenceText formats a confidence as "0.75" ("?" when missing). */
function confidenceText(c: number | undefined): string {
  return typeof c === 'number' ? c.toFixed(2) : '?';
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

/**
 * statusText is the status-bar text: the recommendation in words with the
 * confidence, then the counts, e.g. "$(error) Needs more work · 0.75  C1 H0 M2 L1";
 * the verdict in words when the server sent no decision.
 */
export function statusText(r: Pick<DidReview, 'verdict' | 'counts' | 'decision'>): string {
  const d = r.decision;
  if (d?.words) {
    return `${recommendationIcons[d.recommendation] ?? '$(question)'} ${d.words} · ${confidenceText(d.confidence)}  ${countsText(r.counts)}`;
  }
  return `${verdictIcon(r.verdict)} ${(r.verdict && verdictWords[r.verdict]) || 'unknown'}  ${countsText(r.counts)}`;
}

/**
 * statusTooltip describes the review: the decision (recommendation,
 * readiness, confidence, summary and what raises the confidence), the
 * verdict, target, depth, phase and the artifact folder.
 */
export function statusTooltip(r: DidReview): string {
  const lines: string[] = [];
  const d = r.decision;
  if (d?.words) {
    lines.push(`reviewls: ${d.words} (${d.recommendation}), verification ${d.readiness ?? '?'}, confidence ${confidenceText(d.confidence)}`);
    if (d.summary) {
      lines.push(d.summary);
    }
  }
  lines.push(`${d?.words ? 'Verdict' : 'reviewls'}: ${(r.verdict && verdictWords[r.verdict]) || 'unknown'} (${r.findings ?? 0} findings in ${r.files ?? 0} files)`);
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
  const gaps = d?.gaps ?? [];
  if (gaps.length) {
    lines.push('To raise the confidence:');
    for (const g of gaps.slice(0, 3)) {
      lines.push(`  ${g.closure} (${g.text})`);
    }
  }
  lines.push(r.artifactFolder ? `Artifacts: ${r.artifactFolder}` : 'Artifacts: none yet (no changes)');
  lines.push('Click to show the dispatch board');
  return lines.join('\n');
}
