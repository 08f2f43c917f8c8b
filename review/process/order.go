package process

import (
	"context"
	"sort"

	"github.com/reviewls/reviewls/review"
)

// Dedupe removes repeated reports of one defect: the same rule at the same
// file, line and symbol (two rules flagging one defect at an identical file
// and symbol are different findings unless they share the rule). Of two
// duplicates the more severe one is kept.
type Dedupe struct{}

var _ review.Processor = (*Dedupe)(nil)

// Name implements [review.Processor].
func (*Dedupe) Name() string { return "dedupe" }

type dedupeKey struct {
	rule, path, symbol string
	line               int
}

// Process implements [review.Processor].
func (*Dedupe) Process(_ context.Context, findings []*review.Finding) ([]*review.Finding, error) {
	index := map[dedupeKey]int{}
	out := findings[:0]
	for _, f := range findings {
		k := dedupeKey{f.RuleID, f.Span.Path, f.Symbol, f.Span.StartLine}
		if i, ok := index[k]; ok {
			if f.Severity > out[i].Severity {
				out[i] = f
			}
			continue
		}
		index[k] = len(out)
		out = append(out, f)
	}
	return out, nil
}

// Sort orders findings by severity (Critical first), then perspective in
// canonical order, then path, line, column and rule: a total order, so
// reports are deterministic.
type Sort struct{}

var _ review.Processor = (*Sort)(nil)

// Name implements [review.Processor].
func (*Sort) Name() string { return "sort" }

// Process implements [review.Processor].
func (*Sort) Process(_ context.Context, findings []*review.Finding) ([]*review.Finding, error) {
	sort.SliceStable(findings, func(i, j int) bool { return Less(findings[i], findings[j]) })
	return findings, nil
}

// Less is the report order of findings.
func Less(a, b *review.Finding) bool {
	switch {
	case a.Severity != b.Severity:
		return a.Severity > b.Severity
	case a.Perspective != b.Perspective:
		return a.Perspective.Index() < b.Perspective.Index()
	case a.Span.Path != b.Span.Path:
		return a.Span.Path < b.Span.Path
	case a.Span.StartLine != b.Span.StartLine:
		return a.Span.StartLine < b.Span.StartLine
	case a.Span.StartCol != b.Span.StartCol:
		return a.Span.StartCol < b.Span.StartCol
	}
	return a.RuleID < b.RuleID
}

// Number renumbers findings from 1 in their current order. With Tag set it
// also returns tagged copies whose titles carry their perspective
// ("[Security] Hardcoded AWS access key ID"), as the merged report does;
// the lens's own findings are left untouched.
type Number struct {
	Tag bool
}

var _ review.Processor = (*Number)(nil)

// Name implements [review.Processor].
func (*Number) Name() string { return "number" }

// Process implements [review.Processor].
func (p *Number) Process(_ context.Context, findings []*review.Finding) ([]*review.Finding, error) {
	for i, f := range findings {
		if p.Tag {
			c := *f
			c.Title = "[" + f.Perspective.Title() + "] " + f.Title
			f = &c
			findings[i] = f
		}
		f.Number = i + 1
	}
	return findings, nil
}
