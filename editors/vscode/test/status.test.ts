import * as assert from 'node:assert/strict';
import { test } from 'node:test';

import { countsText, statusText, statusTooltip, verdictIcon } from '../src/status';

test('status text is the verdict icon, the verdict and the counts per severity', () => {
  assert.equal(statusText({ verdict: 'request_changes', counts: { critical: 1, high: 0, medium: 2, low: 1 } }), '$(error) request_changes  C1 H0 M2 L1');
  assert.equal(statusText({ verdict: 'approve_with_comments', counts: { critical: 0, high: 0, medium: 0, low: 3 } }), '$(warning) approve_with_comments  C0 H0 M0 L3');
  assert.equal(statusText({ verdict: 'approve', counts: { critical: 0, high: 0, medium: 0, low: 0 } }), '$(pass) approve  C0 H0 M0 L0');
});

test('missing or unknown values still give a readable status', () => {
  assert.equal(countsText(undefined), 'C0 H0 M0 L0');
  assert.equal(countsText({ high: 2 }), 'C0 H2 M0 L0');
  assert.equal(verdictIcon('something_new'), '$(question)');
  assert.equal(statusText({}), '$(question) unknown  C0 H0 M0 L0');
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
  assert.match(tip, /^reviewls: request_changes \(4 findings in 4 files\)$/m);
  assert.match(tip, /^Target: working_tree on main$/m);
  assert.match(tip, /^Depth: standard · functional, security$/m);
  assert.match(tip, /^Artifacts: \/repo\/\.copilot-tracking\/reviews\/code-reviews\/main$/m);
  assert.match(statusTooltip({ root: 'file:///repo', verdict: 'approve' }), /^Artifacts: none yet/m);
});
