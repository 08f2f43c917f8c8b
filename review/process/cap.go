package process

import (
	"context"
	"sort"

	"github.com/reviewls/reviewls/review"
)

// Cap keeps at most Max findings of a review (golangci-lint's
// max-issues-per-linter, over the whole review): the first ones in the
// chain's order, which after Sort are the most severe, so a gate sees the
// worst of what was cut. A finding that carries a secret is never cut and
// does not count (a gate must see every secret; they are few).
type Cap struct {
	// Max is the most findings kept; 0 means no cap.
	Max int

	// Cut are the findings left out, by rule and file.
	Cut []review.Cut
}

var _ review.Processor = (*Cap)(nil)

// Name implements [review.Processor].
func (*Cap) Name() string { return "cap" }

// Process implements [review.Processor].
func (c *Cap) Process(_ context.Context, findings []*review.Finding) ([]*review.Finding, error) {
	c.Cut = nil
	if c.Max <= 0 {
		return findings, nil
	}
	var tally cutTally
	out, n := findings[:0], 0
	for _, f := range findings {
		if f.IsSecret() {
			out = append(out, f)
			continue
		}
		if n == c.Max {
			tally.add(f.RuleID, f.Span.Path, 1)
			continue
		}
		n++
		out = append(out, f)
	}
	c.Cut = tally.cuts(review.CapPerReview, c.Max)
	return out, nil
}

// Capped returns what the lenses' cap of limit findings of one rule in one
// file (set by cap c) left out of the raw findings of a run, from the
// counts they left on the last finding they kept ([review.Finding.Capped]).
// It reads the findings before the chain, which may drop the finding that
// carries a count.
func Capped(findings []*review.Finding, c review.Cap, limit int) []review.Cut {
	var tally cutTally
	for _, f := range findings {
		if f.Capped > 0 {
			tally.add(f.RuleID, f.Span.Path, f.Capped)
		}
	}
	return tally.cuts(c, limit)
}

// cutTally sums the findings a cap left out by rule and file.
type cutTally map[[2]string]int

func (t *cutTally) add(rule, path string, n int) {
	if *t == nil {
		*t = cutTally{}
	}
	(*t)[[2]string{rule, path}] += n
}

// cuts returns the tally sorted by file, then rule.
func (t cutTally) cuts(c review.Cap, limit int) []review.Cut {
	var out []review.Cut
	for k, n := range t {
		out = append(out, review.Cut{Cap: c, Limit: limit, Rule: k[0], Path: k[1], Count: n})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		return out[i].Rule < out[j].Rule
	})
	return out
}
