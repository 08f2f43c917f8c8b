// Package process is the findings processor chain (golangci-lint's
// processors): raw findings from the lenses flow through an ordered list of
// named steps that validate them against the diff, apply suppressions,
// remove duplicates, sort and number them. Counts and the verdict are then
// computed from what survives.
package process

import (
	"context"
	"fmt"
	"slices"
	"sort"

	"github.com/reviewls/reviewls/review"
)

// Chain is an ordered list of processors plus what they set aside.
type Chain struct {
	Processors []review.Processor

	validate *FromDiff
	pre      *Preexisting
	suppress *Suppress
	cap      *Cap
}

// Default returns the standard chain for a change set. pre, when not nil,
// sets aside the pre-existing findings.
func Default(cs *review.ChangeSet, cfg *review.Config, pre *Preexisting) *Chain {
	v := &FromDiff{ChangeSet: cs}
	s := &Suppress{ChangeSet: cs}
	if cfg != nil {
		s.AllowSecrets = cfg.AllowSecrets
	}
	c := &Chain{validate: v, pre: pre, suppress: s, cap: &Cap{Max: cfg.FindingCaps().PerReview}}
	c.Processors = append(c.Processors, v) // first: nothing outside the diff may count or be reported
	if pre != nil {
		// After FromDiff: only the change's own lines are judged. Before
		// Suppress: a pre-existing secret holds no gate.
		c.Processors = append(c.Processors, pre)
	}
	c.Processors = append(c.Processors,
		s,                  // after FromDiff: an ignore comment only applies to valid findings
		&Dedupe{},          // after Suppress: a suppressed duplicate must not shadow a live one
		&Sort{},            // after Dedupe
		c.cap,              // after Sort: the most severe are kept
		&Number{Tag: true}, // after Cap: numbers follow the final order
	)
	return c
}

// Run passes findings through every processor in order.
func (c *Chain) Run(ctx context.Context, findings []*review.Finding) ([]*review.Finding, error) {
	var err error
	for _, p := range c.Processors {
		if findings, err = p.Process(ctx, findings); err != nil {
			return nil, fmt.Errorf("processor %s: %w", p.Name(), err)
		}
	}
	return findings, nil
}

// Rejected returns the findings FromDiff rejected.
func (c *Chain) Rejected() []review.Rejected {
	if c.validate == nil {
		return nil
	}
	return c.validate.Rejected
}

// PreExisting returns the findings Preexisting set aside, sorted like
// findings.
func (c *Chain) PreExisting() []review.PreExisting {
	if c.pre == nil {
		return nil
	}
	out := slices.Clone(c.pre.Found)
	sort.SliceStable(out, func(i, j int) bool { return Less(out[i].Finding, out[j].Finding) })
	return out
}

// Suppressed returns the findings Suppress silenced.
func (c *Chain) Suppressed() []review.Suppressed {
	if c.suppress == nil {
		return nil
	}
	return c.suppress.Suppressed
}

// Cut returns the findings Cap left out.
func (c *Chain) Cut() []review.Cut {
	if c.cap == nil {
		return nil
	}
	return c.cap.Cut
}

// Count returns the severity counts of findings.
func Count(findings []*review.Finding) review.Counts {
	var c review.Counts
	for _, f := range findings {
		c.Add(f.Severity)
	}
	return c
}
