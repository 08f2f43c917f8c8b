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
		Languages:   []review.Language{review.LangActions, review.LangYAML},
		Depth:       review.DepthBasic,
		Skill:       "CWE-829",
		Summary:     "Action not pinned to a commit SHA",
		Doc: "`uses: owner/repo@v4` (or @main) resolves a tag or branch that the action's owner, or whoever compromises " +
			"the action's repository, can move at any time; the new code then runs in the job with its token and " +
			"secrets, as happened with tj-actions/changed-files in 2025. Pin the full 40-character commit SHA and keep the " +
			"version in a comment (`uses: actions/checkout@<sha> # v4.2.2`), and let Dependabot or Renovate update it. " +
			"Reported once per workflow file, on its first changed unpinned `uses:`, listing every unpinned one the change " +
			"adds: Medium when one of them is third-party (any owner but GitHub's own actions/ and github/, a reusable " +
			"workflow owner/repo/.github/workflows/x.yml@ref, a Docker image by tag), Low when all are GitHub's own " +
			"actions, whose tags GitHub controls. Local actions (./path), Docker images pinned by digest " +
			"(docker://image@sha256:...) and full commit SHAs are not reported. There is no automatic fix: resolving a " +
			"tag to a SHA needs the network. In plain YAML files only composite actions (action.yml) are checked.",
		Bad:  "- uses: actions/checkout@v4",
		Good: "- uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2",
	},
	Run: runActionsUnpinned,
}

var (
	usesRE    = regexp.MustCompile(`^\s*(?:-\s+)?uses\s*:\s*["']?([^"'\s#]+)`)
	commitSHA = regexp.MustCompile(`^[0-9a-fA-F]{40}$`)
)

// unpinnedUse is one `uses:` of a changed line that resolves a mutable
// ref.
type unpinnedUse struct {
	line, col, end int
	ref            string
	thirdParty     bool
}

func runActionsUnpinned(p *lens.Pass) {
	if p.File.Language == review.LangYAML {
		if base := path.Base(p.File.Path); base != "action.yml" && base != "action.yaml" {
			return
		}
	}
	if !p.Contains("uses") {
		return
	}
	var uses []unpinnedUse
	p.EachChanged(func(n int, line string) {
		if !strings.Contains(line, "uses") {
			return
		}
		m := usesRE.FindStringSubmatchIndex(line)
		if m == nil {
			return
		}
		ref := line[m[2]:m[3]]
		u := unpinnedUse{line: n, col: m[2] + 1, end: m[3] + 1, ref: ref, thirdParty: true}
		switch {
		case strings.HasPrefix(ref, "./") || strings.HasPrefix(ref, "../"):
			return
		case strings.HasPrefix(ref, "docker://"):
			if strings.Contains(ref, "@sha256:") {
				return
			}
		default:
			at := strings.LastIndex(ref, "@")
			if at < 0 || commitSHA.MatchString(ref[at+1:]) {
				return
			}
			// GitHub's own actions; a reusable workflow is a whole
			// repository's jobs, third-party whoever owns it.
			u.thirdParty = !(strings.HasPrefix(ref, "actions/") || strings.HasPrefix(ref, "github/")) ||
				strings.Contains(ref, "/.github/workflows/")
		}
		uses = append(uses, u)
	})
	if len(uses) == 0 {
		return
	}
	var third, first []string
	for _, u := range uses {
		if u.thirdParty {
			third = append(third, u.ref)
		} else {
			first = append(first, u.ref)
		}
	}
	sev := review.SeverityLow
	var lists []string
	if len(third) > 0 {
		sev = review.SeverityMedium
		lists = append(lists, strings.Join(third, ", ")+" (third-party)")
	}
	if len(first) > 0 {
		lists = append(lists, strings.Join(first, ", ")+" (GitHub's own)")
	}
	what := "an action"
	if len(uses) > 1 {
		what = fmt.Sprintf("%d actions", len(uses))
	}
	u := uses[0]
	p.Report(lens.Report{
		Line: u.line, Col: u.col, EndCol: u.end, Severity: sev,
		Message: fmt.Sprintf("The change makes this workflow resolve %s from mutable refs (tags, branches, image tags) that "+
			"their owners, or anyone who compromises their repositories, can move to new code: %s; that code then runs "+
			"in its jobs with their tokens and secrets.", what, strings.Join(lists, "; ")),
		Suggested: "Pin each to its full 40-character commit SHA and keep the version as a comment (uses: owner/repo@<sha> # v1.2.3); " +
			"let Dependabot or Renovate keep them current.",
	})
}
