package artifacts

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/reviewls/reviewls/review"
)

// NotShown is what the finding caps left out of a review (a local
// extension of the merged report): the total and, by cap, rule and file,
// how many.
type NotShown struct {
	Count int      `json:"count"`
	Cuts  []CutRow `json:"cuts"`
}

// CutRow is one cap's cut of one rule in one file.
type CutRow struct {
	Cap    review.Cap `json:"cap"`
	Limit  int        `json:"limit"`
	RuleID string     `json:"rule_id"`
	File   string     `json:"file"`
	Count  int        `json:"count"`
}

// notShown converts a run's cuts; nil when nothing was cut.
func notShown(res *review.Result) *NotShown {
	if len(res.Cut) == 0 {
		return nil
	}
	n := &NotShown{Count: res.CutCount()}
	for _, c := range res.Cut {
		n.Cuts = append(n.Cuts, CutRow{Cap: c.Cap, Limit: c.Limit, RuleID: c.Rule, File: c.Path, Count: c.Count})
	}
	return n
}

// CutSummary says in one sentence how many findings the caps left out and
// which caps did (the terminal report, review.md, the server's log):
// "412,300 findings not shown: 411,300 past the per-file cap of 50
// findings of one rule in one file, 1,000 past the per-review cap of
// 1,000 findings; max-findings in .reviewls.yaml sets the caps (0: no
// cap)". It is "" when nothing was cut.
func CutSummary(cuts []review.Cut) string {
	by := map[review.Cap]int{}
	limit := map[review.Cap]int{}
	total := 0
	for _, c := range cuts {
		by[c.Cap] += c.Count
		limit[c.Cap] = c.Limit
		total += c.Count
	}
	if total == 0 {
		return ""
	}
	var parts []string
	if n := by[review.CapPerFile]; n > 0 {
		parts = append(parts, fmt.Sprintf("%s past the per-file cap of %s findings of one rule in one file", thousands(n), thousands(limit[review.CapPerFile])))
	}
	if n := by[review.CapPerReview]; n > 0 {
		parts = append(parts, fmt.Sprintf("%s past the per-review cap of %s findings", thousands(n), thousands(limit[review.CapPerReview])))
	}
	noun := "findings"
	if total == 1 {
		noun = "finding"
	}
	return fmt.Sprintf("%s %s not shown: %s; max-findings in .reviewls.yaml sets the caps (0: no cap)",
		thousands(total), noun, strings.Join(parts, ", "))
}

// thousands formats n with commas between groups of three digits.
func thousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}
