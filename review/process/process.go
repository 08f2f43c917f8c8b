// Package process is the findings processor chain (golangci-lint's
// processors): raw findings from the lenses flow through an ordered list of
// named steps that validate them against the diff, apply suppressions,
// remove duplicates, sort and number them. Counts and the verdict are then
// computed from what survives.
package process

import (
	"context"
	"fmt"

	"github.com/reviewls/reviewls/review"
)

// Chain is an ordered list of processors plus what they set aside.
type Chain struct {
	Processors []review.Processor

	validate *FromDiff
	suppress *Suppress
}

// Default returns the standard chain for a change set.
func Default(cs *review.ChangeSet, cfg *review.Config) *Chain {
	v := &FromDiff{ChangeSet: cs}
	s := &Suppress{ChangeSet: cs}
	if cfg != nil {
		s.AllowSecrets = cfg.AllowSecrets
	}
	return &Chain{
		Processors: []review.Processor{
			v,                  // first: nothing outside the diff may count or be reported
			s,                  // after FromDiff: an ignore comment only applies to valid findings
			&Dedupe{},          // after Suppress: a suppressed duplicate must not shadow a live one
			&Sort{},            // after Dedupe
			&Number{Tag: true}, // after Sort: numbers follow the final order
		},
		validate: v,
		suppress: s,
	}
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

// Suppressed returns the findings Suppress silenced.
func (c *Chain) Suppressed() []review.Suppressed {
	if c.suppress == nil {
		return nil
	}
	return c.suppress.Suppressed
}

// Count returns the severity counts of findings.
func Count(findings []*review.Finding) review.Counts {
	var c review.Counts
	for _, f := range findings {
		c.Add(f.Severity)
	}
	return c
}
