package process

import (
	"context"
	"maps"
	"slices"
	"sort"

	"github.com/reviewls/reviewls/review"
)

// Known is what was known of one fingerprint in a file before the change:
// how many findings carried it, the largest measure among them (measuring
// rules), and where they were found.
type Known struct {
	Count   int
	Measure int
	// Source is [review.SourceBase] or [review.SourceBaseline].
	Source string
	// Base is how many of Count the base version alone has: a finding
	// that cites a secret is pre-existing by these only, as a baseline
	// never covers a secret.
	Base int
}

// Preexisting sets aside the findings the change did not introduce (hold
// the line): a finding whose fingerprint was already known in its file —
// found in the file's base version, or recorded in the baseline — is
// pre-existing, not a finding of the review. Counting is a multiset: when
// the whole current file carries a fingerprint H times and it was known K
// times, H-K of the change's findings with it are new (a third copy of a
// pattern that existed twice is one new finding). A measuring finding
// (Measure > 0) whose value grew by [review.GrowthFactor] over the known
// one stays, as updated.
//
// The rest of the chain never sees what it sets aside, so a pre-existing
// finding has no diagnostic, no verdict weight and no gate effect, a
// secret's included: it must run before Suppress. A secret is pre-existing
// only when the base version has it: a baseline never covers one.
type Preexisting struct {
	// Known returns the fingerprints of the given rules' findings known in
	// a reviewed file before the change (the rules of the file's findings:
	// no other fingerprint can match); nil when nothing was known (an
	// added file). The base version's are keyed by
	// [review.Finding.PreexistingKey], so a secret is pre-existing only
	// when the base held the same value; the baseline's by ID.
	Known func(ctx context.Context, f *review.File, rules map[string]bool) map[string]Known
	// Whole counts, for the given rules, the fingerprints of the findings
	// of the whole current file, every line treated as changed, by
	// PreexistingKey and, for secrets, by ID too. It is called only for
	// files where a finding's fingerprint was known.
	Whole func(ctx context.Context, f *review.File, rules map[string]bool) map[string]int
	// ChangeSet resolves a finding's path to its file.
	ChangeSet *review.ChangeSet
	// Decisions, when set, carries each file's decision from one run to
	// the next: a file whose findings are those it had then (the same
	// values, in order) is decided as then, without Known or Whole. Its
	// owner keeps one per configuration, depth and baseline.
	Decisions *Decisions

	// Found are the findings set aside, in the order they came.
	Found []review.PreExisting
}

var _ review.Processor = (*Preexisting)(nil)

// Name implements [review.Processor].
func (*Preexisting) Name() string { return "preexisting" }

// Process implements [review.Processor].
func (p *Preexisting) Process(ctx context.Context, findings []*review.Finding) ([]*review.Finding, error) {
	p.Found = p.Found[:0]
	byFile := map[string][]*review.Finding{}
	var order []string
	for _, f := range findings {
		if _, ok := byFile[f.Span.Path]; !ok {
			order = append(order, f.Span.Path)
		}
		byFile[f.Span.Path] = append(byFile[f.Span.Path], f)
	}
	pre := map[*review.Finding]string{}
	next := map[*review.File]decision{}
	for _, path := range order {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		file, fs := p.ChangeSet.File(path), byFile[path]
		if p.Decisions == nil || file == nil {
			p.file(ctx, file, fs, pre)
			continue
		}
		d, ok := p.Decisions.last[file]
		if !ok || !slices.Equal(d.findings, fs) {
			p.file(ctx, file, fs, pre)
			d = decision{findings: fs, sources: make([]string, len(fs))}
			for i, f := range fs {
				d.sources[i] = pre[f]
			}
		}
		for i, f := range fs {
			if d.sources[i] != "" {
				pre[f] = d.sources[i]
			}
		}
		next[file] = d
	}
	if p.Decisions != nil {
		p.Decisions.last = next
	}
	out := findings[:0]
	for _, f := range findings {
		if src, ok := pre[f]; ok {
			f.Baseline = review.BaselineUnchanged
			p.Found = append(p.Found, review.PreExisting{Finding: f, Source: src})
			continue
		}
		if f.Baseline == "" {
			f.Baseline = review.BaselineNew
		}
		out = append(out, f)
	}
	return out, nil
}

// Decisions are the per-file decisions of a [Preexisting] run, for the
// next run to reuse. The zero value is ready to use.
type Decisions struct {
	last map[*review.File]decision
}

// decision is which of a file's findings were pre-existing: sources[i] is
// the source of findings[i], "" when it is new.
type decision struct {
	findings []*review.Finding
	sources  []string
}

// file decides which of the findings of one file are pre-existing,
// recording them in pre with their source.
func (p *Preexisting) file(ctx context.Context, file *review.File, findings []*review.Finding, pre map[*review.Finding]string) {
	if file == nil || p.Known == nil {
		return
	}
	asked := map[string]bool{}
	for _, f := range findings {
		asked[f.RuleID] = true
	}
	known := p.Known(ctx, file, asked)
	if len(known) == 0 {
		return
	}
	groups := map[string][]*review.Finding{}
	rules := map[string]bool{}
	for _, f := range findings {
		// A secret is keyed by its values: only the base version holds
		// them, and a baseline never covers a secret.
		key := f.PreexistingKey()
		k, ok := known[key]
		if ok && f.IsSecret() && k.Source != review.SourceBase {
			if k.Base == 0 {
				continue
			}
			// known is the caller's: the secret's own count goes in a copy.
			known = maps.Clone(known)
			k = Known{Count: k.Base, Measure: k.Measure, Source: review.SourceBase, Base: k.Base}
			known[key] = k
		}
		if !ok {
			continue
		}
		if f.Measure > 0 && k.Measure > 0 && float64(f.Measure) >= review.GrowthFactor*float64(k.Measure) {
			f.Baseline = review.BaselineUpdated
			continue
		}
		groups[key] = append(groups[key], f)
		rules[f.RuleID] = true
	}
	if len(groups) == 0 {
		return
	}
	var whole map[string]int
	if p.Whole != nil {
		whole = p.Whole(ctx, file, rules)
	}
	for id, fs := range groups {
		sort.SliceStable(fs, func(i, j int) bool { return fs[i].Span.StartLine < fs[j].Span.StartLine })
		// The whole file has at least the copies the change reports; a
		// rule that reports differently with every line changed must not
		// make a known finding look new, nor hide a new one.
		h := max(whole[id], len(fs))
		fresh := max(0, h-known[id].Count)
		// Which copy is the new one cannot be told from counts: the last
		// ones in the file's order are kept, so the choice is stable.
		for _, f := range fs[:max(0, len(fs)-fresh)] {
			pre[f] = known[id].Source
		}
	}
}
