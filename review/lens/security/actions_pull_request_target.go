package security

import (
	"fmt"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// ActionsPullRequestTarget finds pull_request_target workflows that check
// out the pull request's code (a "pwn request").
var ActionsPullRequestTarget = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "security/actions-pull-request-target",
		Perspective: review.Security,
		Category:    CatAuth,
		Severity:    review.SeverityCritical,
		Languages:   []review.Language{review.LangActions},
		Depth:       review.DepthBasic,
		Skill:       "CWE-829",
		Summary:     "pull_request_target workflow checks out untrusted pull request code",
		Doc: "A workflow triggered by pull_request_target runs in the context of the base repository, with a token " +
			"that can write to it and with its secrets, even for pull requests from forks. Checking out the pull " +
			"request's head (actions/checkout with `ref: ${{ github.event.pull_request.head.sha }}`, `head.ref`, " +
			"`github.head_ref` or `refs/pull/...`, or `gh pr checkout` / `git fetch ... pull/` in a run step) and then " +
			"building, testing or installing it runs the attacker's code with those privileges: any fork can push to " +
			"the repository, poison caches and releases, or steal secrets. Use the pull_request trigger for untrusted " +
			"code, or split the work: an unprivileged pull_request workflow builds and uploads an artifact, and a " +
			"workflow_run workflow consumes it. pull_request_target workflows that check out only the base branch " +
			"(labelling, commenting) are not reported.",
		Bad:  "on: pull_request_target\njobs:\n  test:\n    steps:\n      - uses: actions/checkout@<sha>\n        with:\n          ref: ${{ github.event.pull_request.head.sha }}\n      - run: npm ci && npm test",
		Good: "on: pull_request\njobs:\n  test:\n    permissions: { contents: read }\n    steps:\n      - uses: actions/checkout@<sha>\n      - run: npm ci && npm test",
	},
	Run: runActionsPullRequestTarget,
}

var (
	prHeadRefRE = regexp.MustCompile(`github\.event\.pull_request\.head\.(?:sha|ref)|github\.head_ref|refs/pull/|github\.event\.pull_request\.merge_commit_sha|github\.event\.pull_request\.head\.repo\.full_name`)
	prRunFetch  = regexp.MustCompile(`\bgh\s+pr\s+checkout\b|\bgit\s+fetch\b[^\n]*\bpull/|\bgit\s+checkout\b[^\n]*\$\{\{\s*github\.(?:event\.pull_request\.head|head_ref)`)
)

func runActionsPullRequestTarget(p *lens.Pass) {
	if !p.Contains("pull_request_target") {
		return
	}
	root := syntax.YAML(p.File)
	_, on := syntax.YAMLKey(root, "on")
	trigger := prTargetTrigger(on)
	if trigger == nil {
		return
	}
	_, jobs := syntax.YAMLKey(root, "jobs")
	syntax.YAMLPairs(jobs, func(jobKey, job *yaml.Node) {
		_, steps := syntax.YAMLKey(job, "steps")
		if steps == nil || steps.Kind != yaml.SequenceNode {
			return
		}
		for _, step := range steps.Content {
			var how string
			var lines []int
			usesKey, uses := syntax.YAMLKey(step, "uses")
			if uses != nil && strings.HasPrefix(uses.Value, "actions/checkout@") {
				_, with := syntax.YAMLKey(step, "with")
				for _, key := range []string{"ref", "repository"} {
					k, v := syntax.YAMLKey(with, key)
					if v != nil && prHeadRefRE.MatchString(v.Value) {
						how = fmt.Sprintf("actions/checkout with %s: %s", key, strings.TrimSpace(v.Value))
						lines = append(lines, k.Line)
					}
				}
				if how != "" {
					lines = append(lines, usesKey.Line)
				}
			}
			if runKey, run := syntax.YAMLKey(step, "run"); run != nil {
				if m := prRunFetch.FindStringIndex(run.Value); m != nil {
					how = fmt.Sprintf("`%s` in a run step", lens.Snippet(run.Value[m[0]:m[1]]))
					lines = append(lines, run.Line+strings.Count(run.Value[:m[0]], "\n")+blockOffset(run), runKey.Line)
				}
			}
			if how == "" {
				continue
			}
			lines = append(lines, trigger.Line)
			anchor := 0
			for _, l := range lines {
				if p.Changed(l) {
					anchor = l
					break
				}
			}
			if anchor == 0 {
				continue
			}
			p.Report(lens.Report{
				Line: anchor, Symbol: "jobs." + jobKey.Value,
				Message: fmt.Sprintf("Job %s runs on pull_request_target (line %d), with a write token and the repository's "+
					"secrets, and checks out the pull request's code (%s): a pull request from any fork runs its own code "+
					"with those privileges and can push to the repository or steal the secrets.", jobKey.Value, trigger.Line, how),
				Suggested: "Use the pull_request trigger for untrusted code; if privileges are needed, build in an unprivileged " +
					"pull_request workflow and consume its artifact from a workflow_run workflow, never checking out the head.",
			})
		}
	})
}

// prTargetTrigger returns the node naming pull_request_target in the on:
// value, or nil.
func prTargetTrigger(on *yaml.Node) *yaml.Node {
	if on == nil {
		return nil
	}
	switch on.Kind {
	case yaml.ScalarNode:
		if on.Value == "pull_request_target" {
			return on
		}
	case yaml.SequenceNode:
		for _, n := range on.Content {
			if n.Value == "pull_request_target" {
				return n
			}
		}
	case yaml.MappingNode:
		if k, _ := syntax.YAMLKey(on, "pull_request_target"); k != nil {
			return k
		}
	}
	return nil
}

// blockOffset is 1 for a block scalar (run: |), whose text starts on the
// line after the node's position, and 0 otherwise.
func blockOffset(n *yaml.Node) int {
	if n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return 1
	}
	return 0
}
