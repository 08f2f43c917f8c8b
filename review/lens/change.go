package lens

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"

	"github.com/reviewls/reviewls/review"
)

// ChangePass is a whole-change rule (one whose [review.RuleInfo.Note] is
// set) applied to a change set. It reports review-level notes, never line
// findings.
type ChangePass struct {
	Ctx       context.Context
	Rule      *Rule
	ChangeSet *review.ChangeSet
	Depth     review.Depth
	Config    *review.Config

	notes []review.Note
}

// Files returns the reviewed files of the change set whose language the
// rule applies to, in path order.
func (p *ChangePass) Files() []*review.File {
	var out []*review.File
	for _, f := range p.ChangeSet.Reviewed() {
		if p.Rule.Applies(f.Language, p.Depth) {
			out = append(out, f)
		}
	}
	return out
}

// File returns a pass of the rule over one file of the change set, to read
// its lines and changed lines with the per-file helpers. Findings reported
// on it are discarded.
func (p *ChangePass) File(f *review.File) *Pass {
	return &Pass{Ctx: p.Ctx, Rule: p.Rule, File: f, ChangeSet: p.ChangeSet, Depth: p.Depth, Config: p.Config}
}

// Note records a note of the rule's kind about paths.
func (p *ChangePass) Note(message, suggested string, paths ...string) {
	paths = slices.Clone(paths)
	slices.Sort(paths)
	p.notes = append(p.notes, review.Note{
		Kind:        p.Rule.Note,
		Rule:        p.Rule.ID,
		Perspective: p.Rule.Perspective,
		Message:     message,
		Suggested:   suggested,
		Paths:       slices.Compact(paths),
	})
}

// Notes runs the lens's whole-change rules over cs. A rule that panics is
// reported as an error naming it; the other rules still run.
func (l *lensImpl) Notes(ctx context.Context, cs *review.ChangeSet, opts review.CheckOptions) ([]review.Note, error) {
	depth := opts.Depth
	if !depth.Valid() {
		depth = review.DepthStandard
	}
	var (
		out  []review.Note
		errs []error
	)
	for _, r := range l.rules {
		if r.Change == nil || opts.Config.Rule(r.ID).Off || opts.Skip != nil && opts.Skip(r.ID) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return out, err
		}
		p := &ChangePass{Ctx: ctx, Rule: r, ChangeSet: cs, Depth: depth, Config: opts.Config}
		if err := runChangeSafe(p); err != nil {
			errs = append(errs, err)
		}
		out = append(out, p.notes...)
	}
	return out, errors.Join(errs...)
}

func runChangeSafe(p *ChangePass) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("rule %s panicked: %v\n%s", p.Rule.ID, r, debug.Stack())
		}
	}()
	p.Rule.Change(p)
	return nil
}
