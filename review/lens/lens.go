// Package lens runs rules over the changed files of a review. A rule is a
// [review.RuleInfo] plus a function over a [Pass]; a perspective package
// (review/lens/security, ...) declares its rules and wraps them with [New]
// into a [review.Lens].
//
// Rules see one file at a time. They read its lines through the pass, ask
// which lines changed, and report findings anchored to changed lines; the
// processor chain later rejects anything that is not. Parsed forms of a file
// (lines, Go syntax trees) are memoised on the [review.File], so the rules of
// all perspectives share one parse even when lenses run concurrently.
package lens

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/reviewls/reviewls/internal/parallel"
	"github.com/reviewls/reviewls/review"
)

// Rule is one check of the catalog.
type Rule struct {
	review.RuleInfo
	// Run inspects p.File and reports findings through p.Report.
	Run func(p *Pass)
	// Change, set instead of Run on a whole-change rule (RuleInfo.Note),
	// inspects the change set and reports notes through p.Note.
	Change func(p *ChangePass)
}

// Applies reports whether the rule runs on a file of language lang at depth d.
func (r *Rule) Applies(lang review.Language, d review.Depth) bool {
	if r.Depth.Valid() && d.Valid() && r.Depth > d {
		return false
	}
	return len(r.Languages) == 0 || slices.Contains(r.Languages, lang)
}

// JSLangs are the JavaScript and TypeScript languages, those [review.Language.IsJS]
// accepts. Rules share the slice: do not modify it.
var JSLangs = []review.Language{review.LangJavaScript, review.LangJSX, review.LangTypeScript, review.LangTSX}

type lensImpl struct {
	perspective review.Perspective
	rules       []*Rule
}

// New returns the lens of perspective p made of rules. It panics if a rule
// belongs to another perspective, its id does not start with
// "<perspective>/", or it does not have exactly one of Run and Change
// (Change exactly when it produces notes), since that is a programming
// error in the catalog.
func New(p review.Perspective, rules ...*Rule) review.Lens {
	for _, r := range rules {
		if r.Perspective != p || !strings.HasPrefix(r.ID, string(p)+"/") {
			panic(fmt.Sprintf("lens %s: rule %s belongs to perspective %q", p, r.ID, r.Perspective))
		}
		if (r.Run == nil) == (r.Change == nil) || (r.Change != nil) != (r.Note != "") {
			panic(fmt.Sprintf("lens %s: rule %s needs Run, or Change with a note kind", p, r.ID))
		}
	}
	return &lensImpl{perspective: p, rules: rules}
}

func (l *lensImpl) Perspective() review.Perspective { return l.perspective }

func (l *lensImpl) Rules() []review.RuleInfo {
	out := make([]review.RuleInfo, len(l.rules))
	for i, r := range l.rules {
		out[i] = r.RuleInfo
	}
	return out
}

var _ review.NoteLens = (*lensImpl)(nil)

// Check runs every applicable line rule on every reviewed file. A rule that
// panics is reported as an error naming the rule and the file; the other
// rules still run.
func (l *lensImpl) Check(ctx context.Context, cs *review.ChangeSet, files []*review.File, opts review.CheckOptions) ([]*review.Finding, error) {
	all := cs.Reviewed()
	if files == nil {
		files = all
	}
	depth := opts.Depth
	if !depth.Valid() {
		depth = review.DepthStandard
	}
	// Each file's findings in its own slot, the files spread over the
	// cores: the output is in file order, then rule order, whatever ran
	// first.
	run := func(f *review.File, crossFile bool) (found []*review.Finding, errs []error) {
		for _, r := range l.rules {
			if r.Run == nil || r.CrossFile != crossFile || !r.Applies(f.Language, depth) || opts.Config.Rule(r.ID).Off || opts.Skip != nil && opts.Skip(r.ID) {
				continue
			}
			p := &Pass{Ctx: ctx, Rule: r, File: f, ChangeSet: cs, Depth: depth, Config: opts.Config, Max: opts.MaxPerFile}
			if err := runSafe(p); err != nil {
				errs = append(errs, err)
			}
			found = append(found, p.Findings()...)
		}
		return found, errs
	}
	var out []*review.Finding
	var errs []error
	cross := all
	if opts.Cross != nil {
		cross = opts.Cross
	}
	for _, pass := range []struct {
		files     []*review.File
		crossFile bool
	}{{files, false}, {cross, true}} {
		found := make([][]*review.Finding, len(pass.files))
		failed := make([][]error, len(pass.files))
		parallel.Each(len(pass.files), func() bool { return ctx.Err() != nil }, func(i int) {
			if f := pass.files[i]; f.Reviewed() {
				found[i], failed[i] = run(f, pass.crossFile)
			}
		})
		for i := range pass.files {
			out = append(out, found[i]...)
			errs = append(errs, failed[i]...)
		}
		if err := ctx.Err(); err != nil {
			return out, err
		}
	}
	return out, errors.Join(errs...)
}

// runSafe runs one rule on one file, turning a panic into an error that
// names the check (golangci-lint's runLinterSafe).
func runSafe(p *Pass) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("rule %s on %s panicked: %v\n%s", p.Rule.ID, p.File.Path, r, debug.Stack())
		}
	}()
	p.Rule.Run(p)
	return nil
}
