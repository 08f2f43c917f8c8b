package security

import (
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
)

// ActionsUnpinned finds GitHub Actions referenced by a mutable tag or
// branch instead of a commit.
var ActionsUnpinned = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "security/actions-unpinned",
		Perspective: review.Security,
		Category:    CatData,
		Severity:    review.SeverityMedium,
		Languages:   []string{review.LangActions, review.LangYAML},
		Depth:       review.DepthBasic,
		Skill:       "CWE-829",
		Summary:     "Action not pinned to a commit SHA",
		Doc: "`uses: owner/repo@v4` (or @main) resolves a tag or branch that the action's owner, or whoever compromises " +
			"the action's repository, can move at any time; the new code then runs in the job with its token and " +
			"secrets, as happened with tj-actions/changed-files in 2025. Pin the full 40-character commit SHA and keep the " +
			"version in a comment (`uses: actions/checkout@<sha> # v4.2.2`), and let Dependabot or Renovate update it. " +
			"Local actions (./path), Docker images pinned by digest (docker://image@sha256:...) and full commit SHAs " +
			"are not reported. There is no automatic fix: resolving a tag to a SHA needs the network. In plain YAML " +
			"files only composite actions (action.yml) are checked.",
		Bad:  "- uses: actions/checkout@v4",
		Good: "- uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2",
	},
	Run: runActionsUnpinned,
}

var (
	usesRE    = regexp.MustCompile(`^\s*(?:-\s+)?uses\s*:\s*["']?([^"'\s#]+)`)
	commitSHA = regexp.MustCompile(`^[0-9a-fA-F]{40}$`)
)

func runActionsUnpinned(p *lens.Pass) {
	if p.File.Language == review.LangYAML {
		if base := path.Base(p.File.Path); base != "action.yml" && base != "action.yaml" {
			return
		}
	}
	if !p.Contains("uses") {
		return
	}
	p.EachChanged(func(n int, line string) {
		if !strings.Contains(line, "uses") {
			return
		}
		m := usesRE.FindStringSubmatchIndex(line)
		if m == nil {
			return
		}
		ref := line[m[2]:m[3]]
		var why string
		switch {
		case strings.HasPrefix(ref, "./") || strings.HasPrefix(ref, "../"):
			return
		case strings.HasPrefix(ref, "docker://"):
			if strings.Contains(ref, "@sha256:") {
				return
			}
			why = fmt.Sprintf("the image %s is resolved by tag, which its publisher can repoint", strings.TrimPrefix(ref, "docker://"))
		default:
			at := strings.LastIndex(ref, "@")
			if at < 0 || commitSHA.MatchString(ref[at+1:]) {
				return
			}
			why = fmt.Sprintf("%s is resolved from the mutable ref %q, which the action's owner, or anyone who compromises "+
				"its repository, can move to new code", ref[:at], ref[at+1:])
		}
		p.Report(lens.Report{
			Line: n, Col: m[2] + 1, EndCol: m[3] + 1,
			Message: fmt.Sprintf("%s; that code then runs in this job with its token and secrets.", why),
			Suggested: "Pin the full 40-character commit SHA and keep the version as a comment (uses: owner/repo@<sha> # v1.2.3); " +
				"let Dependabot or Renovate keep it current.",
		})
	})
}
