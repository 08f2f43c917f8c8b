package functional

import (
	"fmt"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
)

// MergeConflictMarker finds unresolved merge conflicts in changed lines.
var MergeConflictMarker = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "functional/merge-conflict-marker",
		Perspective: review.Functional,
		Category:    CatLogic,
		Severity:    review.SeverityCritical,
		Depth:       review.DepthBasic,
		Summary:     "Unresolved merge conflict",
		Doc: "Conflict markers (<<<<<<<, =======, >>>>>>>) left by a merge or rebase mean the file holds both sides " +
			"of a conflict: code does not compile or, worse, configuration and data files load with both versions. " +
			"Resolve the conflict and keep one version. A lone ======= line is only reported inside a conflict " +
			"block, so Markdown or reStructuredText heading underlines are not mistaken for markers, and markers " +
			"inside Markdown code fences are ignored.",
		Bad:  "<<<<<<< HEAD\ntimeout = 30\n=======\ntimeout = 60\n>>>>>>> feature",
		Good: "timeout = 60",
	},
	Run: runMergeConflictMarker,
}

type markerKind int

const (
	noMarker markerKind = iota
	markerOurs
	markerBase
	markerSep
	markerTheirs
)

func conflictMarker(line string) markerKind {
	if len(line) < 7 {
		return noMarker
	}
	rest := line[7:]
	spaced := rest == "" || rest[0] == ' ' || rest[0] == '\t'
	switch line[:7] {
	case "<<<<<<<":
		if spaced {
			return markerOurs
		}
	case "|||||||":
		if spaced {
			return markerBase
		}
	case "=======":
		if strings.TrimRight(rest, " \t") == "" {
			return markerSep
		}
	case ">>>>>>>":
		if spaced {
			return markerTheirs
		}
	}
	return noMarker
}

func runMergeConflictMarker(p *lens.Pass) {
	if !p.Contains("<<<<<<<") && !p.Contains(">>>>>>>") {
		return
	}
	lines := p.Lines()
	markdown := p.File.Language == review.LangMarkdown
	inFence := false
	open := 0 // line of the pending <<<<<<< marker, or 0
	report := func(start, end int, what string) {
		// Report once per block, anchored on its first changed marker line.
		for n := start; n <= end; n++ {
			if p.Changed(n) && conflictMarker(lines[n-1]) != noMarker {
				p.Report(lens.Report{
					Line: n, EndLine: end,
					Message: fmt.Sprintf("%s (lines %d-%d): the file still holds both sides of a merge. It will not build or will load both versions.", what, start, end),
					Code:    lines[start-1],
					Suggested: "Resolve the conflict: keep the intended version of the lines between the markers " +
						"and delete the <<<<<<<, ======= and >>>>>>> lines.",
				})
				return
			}
		}
	}
	for i, line := range lines {
		n := i + 1
		if markdown && strings.HasPrefix(strings.TrimSpace(line), "```") {
			inFence = !inFence
		}
		if inFence {
			continue
		}
		switch conflictMarker(line) {
		case markerOurs:
			if open > 0 {
				report(open, open, "Unterminated conflict marker")
			}
			open = n
		case markerTheirs:
			if open > 0 {
				report(open, n, "Unresolved merge conflict")
				open = 0
			} else {
				report(n, n, "Stray conflict marker")
			}
		}
	}
	if open > 0 {
		report(open, open, "Unterminated conflict marker")
	}
}
