import * as assert from 'node:assert/strict';
import { test } from 'node:test';

import { countsText, statusText, statusTooltip, verdictIcon } from '../src/status';

test('status text is the recommendation in words with the confidence, then the counts per severity', () => {
  const decision = (recommendation: string, words: string, confidence: number) => ({ recommendation, words, readiness: 'incomplete', confidence });
  assert.equal(
    statusText({ verdict: 'request_changes', counts: { critical: 1, high: 0, medium: 3, low: 1 }, decision: decision('needs-more-work', 'Needs more work', 0.75) }),
    '$(error) Needs more work · 0.75  C1 H0 M3 L1',
  );
  assert.equal(
    statusText({ verdict: 'approve_with_comments', counts: { low: 3 }, decision: decision('minor-changes', 'Minor changes', 0.8) }),
    '$(warning) Minor changes · 0.80  C0 H0 M0 L3',
  );
  assert.equal(statusText({ verdict: 'approve', counts: {}, decision: decision('accept-as-is', 'Accept as is', 0.7) }), '$(pass) Accept as is · 0.70  C0 H0 M0 L0');
  assert.equal(statusText({ verdict: 'approve', decision: decision('null', 'No source judgement', 0.4) }), '$(circle-slash) No source judgement · 0.40  C0 H0 M0 L0');
});

test('without a decision the status says the verdict in words', () => {
  assert.equal(statusText({ verdict: 'request_changes', counts: { critical: 1, high: 0, medium: 2, low: 1 } }), '$(error) Request changes  C1 H0 M2 L1');
  assert.equal(statusText({ verdict: 'approve_with_comments', counts: { critical: 0, high: 0, medium: 0, low: 3 } }), '$(warning) Approve with comments  C0 H0 M0 L3');
  assert.equal(statusText({ verdict: 'approve', counts: { critical: 0, high: 0, medium: 0, low: 0 } }), '$(pass) Approve  C0 H0 M0 L0');
});

test('the tooltip says the decision, its summary and what raises the confidence', () => {
  const tip = statusTooltip({
    root: 'file:///repo',
    verdict: 'approve',
    findings: 0,
    files: 1,
    decision: {
      recommendation: 'accept-as-is',
      words: 'Accept as is',
      readiness: 'incomplete',
      confidence: 0.75,
      summary: 'No source changes identified (1 of 1 changed files reviewed).',
      gaps: [{ id: 'type-aware-not-run', text: 'type-aware analysis not run', closure: 'reviewls review --depth comprehensive' }],
    },
  });
  assert.match(tip, /^reviewls: Accept as is \(accept-as-is\), verification incomplete, confidence 0\.75$/m);
  assert.match(tip, /^No source changes identified/m);
  assert.match(tip, /^Verdict: Approve \(0 findings in 1 files\)$/m);
  assert.match(tip, /^To raise the confidence:\n  reviewls review --depth comprehensive \(type-aware analysis not run\)$/m);
});

test('missing or unknown values still give a readable status', () => {
  assert.equal(countsText(undefined), 'C0 H0 M0 L0');
  assert.equal(countsText({ high: 2 }), 'C0 H2 M0 L0');
  assert.equal(verdictIcon('something_new'), '$(question)');
  assert.equal(statusText({}), '$(question) unknown  C0 H0 M0 L0');
  assert.equal(statusText({ verdict: 'approve', decision: { recommendation: 'something-new', words: 'Something new' } }), '$(question) Something new · ?  C0 H0 M0 L0');
});

test('the tooltip names the target, the depth and the artifact folder', () => {
  const tip = statusTooltip({
    root: 'file:///repo',
    target: 'working_tree',
    branch: 'main',
    files: 4,
    findings: 4,
    verdict: 'request_changes',
    depth: 'standard',
    perspectives: ['functional', 'security'],
    artifactFolder: '/repo/.copilot-tracking/reviews/code-reviews/main',
    currentPhase: 'orientation',
  });
  assert.match(tip, /^reviewls: Request changes \(4 findings in 4 files\)$/m);
  assert.match(tip, /^Target: working_tree on main$/m);
  assert.match(tip, /^Depth: standard · functional, security$/m);
  assert.match(tip, /^Artifacts: \/repo\/\.copilot-tracking\/reviews\/code-reviews\/main$/m);
  assert.match(statusTooltip({ root: 'file:///repo', verdict: 'approve' }), /^Artifacts: none yet/m);
});
