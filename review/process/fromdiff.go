package process

import (
	"bytes"
	"context"
	"fmt"

	"github.com/reviewls/reviewls/review"
)

// FromDiff keeps only findings whose file and lines resolve to the diff:
// the file is a reviewed changed file, the cited lines exist, and at least
// one of them was added or modified (every line of an untracked file
// counts), or the finding names where the change removed the code whose
// absence it reports (Finding.Removed). A secret in a changed file the
// review does not read (the engine's scan of every changed file, which
// keeps only values the base version does not hold) is kept too.
// Everything else is recorded in Rejected with its reason.
type FromDiff struct {
	ChangeSet *review.ChangeSet
	Rejected  []review.Rejected
}

var _ review.Processor = (*FromDiff)(nil)

// Name implements [review.Processor].
func (*FromDiff) Name() string { return "from_diff" }

// Process implements [review.Processor].
func (p *FromDiff) Process(_ context.Context, findings []*review.Finding) ([]*review.Finding, error) {
	p.Rejected = p.Rejected[:0]
	out := findings[:0]
	for _, f := range findings {
		if reason := p.reject(f); reason != "" {
			p.Rejected = append(p.Rejected, review.Rejected{Finding: f, Reason: reason})
			continue
		}
		out = append(out, f)
	}
	return out, nil
}

func (p *FromDiff) reject(f *review.Finding) string {
	switch {
	case f.RuleID == "" || f.Title == "" || f.Message == "":
		return "malformed finding: rule, title and message are required"
	case !f.Severity.Valid():
		return fmt.Sprintf("malformed finding: invalid severity %d", int(f.Severity))
	}
	file := p.ChangeSet.File(f.Span.Path)
	switch {
	case file == nil:
		return fmt.Sprintf("%s is not part of the diff", f.Span.Path)
	case !file.Reviewed() && f.IsSecret():
		// The secret scan of a file the review does not read: it cites
		// the line of a value the base version does not hold.
		return ""
	case !file.Reviewed():
		if file.Skip != "" {
			return fmt.Sprintf("%s is not reviewed (%s)", f.Span.Path, file.Skip)
		}
		return fmt.Sprintf("%s has no reviewed content (%s)", f.Span.Path, file.Status)
	}
	last := lineCounts.Of(file, func() int { return countLines(file.Content) })
	start, end := f.Span.StartLine, f.Span.Last()
	switch {
	case start < 1:
		return fmt.Sprintf("line %d is not a valid line", start)
	case end > last:
		return fmt.Sprintf("line %d is past the end of %s (%d lines)", end, f.Span.Path, last)
	}
	for n := start; n <= end; n++ {
		if file.Changed(n) {
			return ""
		}
	}
	if f.Removed > 0 && file.RemovedBefore(f.Removed) {
		return "" // the change made the cited code worse by removing lines
	}
	if start == end {
		return fmt.Sprintf("line %d of %s is not a changed line", start, f.Span.Path)
	}
	return fmt.Sprintf("lines %d-%d of %s contain no changed line", start, end, f.Span.Path)
}

// lineCounts memoises a file's line count on the file, which unchanged
// files share with the next run.
var lineCounts review.Memo[int]

// countLines counts lines the way review/lens splits them: a final line
// without a newline still counts.
func countLines(b []byte) int {
	n := bytes.Count(b, []byte{'\n'})
	if len(b) > 0 && b[len(b)-1] != '\n' {
		n++
	}
	return n
}
