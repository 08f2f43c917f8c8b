package risk

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/reviewls/reviewls/review"
)

// Attention-cue limits of the history signal.
const (
	// maxChurned is how many most-churned changed files are named: enough
	// to direct attention, few enough to read at a glance.
	maxChurned = 3
	// maxPartners is how many co-change partners are named, for the same
	// reason.
	maxPartners = 3
	// minCoChanges is how often an unchanged file must have changed
	// together with the changed files to be named: once is coincidence.
	minCoChanges = 2
)

type pathCount struct {
	path string
	n    int
}

// historyEvidence builds the history entry. Churn and co-change are
// attention cues only: they never say a file is buggy or that an untouched
// partner was forgotten (§3.2).
func historyEvidence(hist *review.History, files []*fileFacts) review.Evidence {
	e := review.Evidence{Signal: review.SignalHistory, Availability: review.Unavailable}
	switch {
	case hist == nil:
		e.Evidence = "history was not read for this review"
		return e
	case !hist.Available:
		reason := hist.Reason
		if reason == "" && hist.Shallow {
			reason = "shallow clone"
		}
		if reason == "" {
			reason = "history is not accessible"
		}
		e.Evidence = "history unavailable: " + reason
		return e
	}
	e.Availability = review.Observed
	window := hist.Limit
	if window <= 0 {
		window = len(hist.Commits)
	}
	// Old paths of renames share the history of their new paths.
	alias := map[string]string{}
	for _, ff := range files {
		alias[ff.path] = ff.path
		if ff.f.OldPath != "" {
			alias[ff.f.OldPath] = ff.path
		}
	}
	churn := map[string]int{}
	partners := map[string]int{}
	touching := 0
	for _, c := range hist.Commits {
		var hit []string
		for _, p := range c.Paths {
			if q, ok := alias[p]; ok && !slices.Contains(hit, q) {
				hit = append(hit, q)
			}
		}
		if len(hit) == 0 {
			continue
		}
		touching++
		for _, q := range hit {
			churn[q]++
		}
		for _, p := range c.Paths {
			if _, ok := alias[p]; !ok {
				partners[p]++
			}
		}
	}
	var b strings.Builder
	if touching == 0 {
		fmt.Fprintf(&b, "no prior commits touch these paths in the last %d commits", window)
	} else {
		fmt.Fprintf(&b, "%s of the last %d touch the changed paths; most churned: %s",
			plural(touching, "commit"), window, formatCounts(top(churn, maxChurned, 1), "commit"))
		if ps := top(partners, maxPartners, minCoChanges); len(ps) > 0 {
			fmt.Fprintf(&b, "; often changed with (not in this change): %s", formatCounts(ps, "commit"))
		}
		b.WriteString(" (attention cues, not evidence of defects)")
	}
	if hist.Shallow {
		b.WriteString("; shallow clone: older history is missing")
	}
	e.Evidence = b.String()
	return e
}

// top returns the at most n entries of m with a count of at least
// atLeast, highest count first, then by path.
func top(m map[string]int, n, atLeast int) []pathCount {
	var out []pathCount
	for p, c := range m {
		if c >= atLeast {
			out = append(out, pathCount{p, c})
		}
	}
	slices.SortFunc(out, func(a, b pathCount) int {
		if a.n != b.n {
			return b.n - a.n
		}
		return cmp.Compare(a.path, b.path)
	})
	if len(out) > n {
		out = out[:n]
	}
	return out
}

func formatCounts(pcs []pathCount, unit string) string {
	parts := make([]string, len(pcs))
	for i, pc := range pcs {
		parts[i] = fmt.Sprintf("%s (%s)", pc.path, plural(pc.n, unit))
	}
	return strings.Join(parts, ", ")
}
