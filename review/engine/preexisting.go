package engine

import (
	"context"
	"slices"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/process"
)

// Hold the line: a review reports what the change introduced. For each
// reviewed file with a base version (File.Base) and findings, the per-file
// rules of those findings run over that version with every line treated as
// changed, and a finding of the change whose fingerprint the base already
// has is pre-existing (process.Preexisting). The base side is cached per
// blob and rule, so a save re-runs only the current side and the rules
// that fired for the first time; the whole current file is checked only
// when a finding's fingerprint was known, and only with the rules of those
// findings.
//
// Not run on the base version:
//   - the expensive whole-package rules (functional/go-analysis at
//     comprehensive depth): they are cross-file, and process.FromDiff
//     already drops their findings on lines the change did not touch;
//   - the whole-change rules, which judge the change set as a whole (a
//     base version alone has nothing to compare);
//   - the model reviewer, whose grounding in the diff is its hold on the
//     line (only a baseline makes its findings pre-existing).

// wholeChange names the rules whose findings describe the whole change,
// not a line of a file: there is no base version of them.
var wholeChange = map[string]bool{
	"readiness/missing-test-change": true,
	"readiness/undocumented-change": true,
}

// maxBaseEntries bounds the base cache: each entry is a file's handful of
// fingerprints, and 4096 base blobs cover every file a long editing session
// touches across many HEAD moves; past it the cache starts over.
const maxBaseEntries = 4096

// baseKey identifies the base findings of one blob reviewed at one path
// (the new path of a rename: rules and fingerprints depend on it) and
// depth.
type baseKey struct {
	blob, path string
	depth      review.Depth
}

// baseCache holds the known fingerprints of base versions for one
// configuration (the rule set: enabled rules and their thresholds).
type baseCache struct {
	cfg   *review.Config
	known map[baseKey]*baseEntry
	// decided are the last run's per-file decisions, for its depth and
	// baseline.
	decided struct {
		depth    review.Depth
		baseline *review.Baseline
		d        *process.Decisions
	}
}

// baseEntry is what is known of one base version: the fingerprints of the
// findings of the rules run over it so far.
type baseEntry struct {
	ran   map[string]bool // rule IDs
	known map[string]process.Known
}

// preexisting returns the processor that sets aside the pre-existing
// findings of cs. Called with e.mu held, like everything it calls.
func (e *Engine) preexisting(cs *review.ChangeSet, depth review.Depth, cfg *review.Config, baseline *review.Baseline) *process.Preexisting {
	if e.base == nil || e.base.cfg != cfg || len(e.base.known) > maxBaseEntries {
		e.base = &baseCache{cfg: cfg, known: map[baseKey]*baseEntry{}}
	}
	if dd := &e.base.decided; dd.d == nil || dd.depth != depth || dd.baseline != baseline {
		dd.depth, dd.baseline, dd.d = depth, baseline, &process.Decisions{}
	}
	return &process.Preexisting{
		ChangeSet: cs,
		Decisions: e.base.decided.d,
		Known: func(ctx context.Context, f *review.File, rules map[string]bool) map[string]process.Known {
			return withBaseline(e.baseKnown(ctx, cs, f, depth, cfg, rules), baseline, f.Path)
		},
		Whole: func(ctx context.Context, f *review.File, rules map[string]bool) map[string]int {
			return e.wholeCounts(ctx, cs, f, depth, cfg, rules)
		},
	}
}

// baseKnown returns the fingerprints of the given rules' findings in f's
// base version, running over it only the rules not run before.
func (e *Engine) baseKnown(ctx context.Context, cs *review.ChangeSet, f *review.File, depth review.Depth, cfg *review.Config, rules map[string]bool) map[string]process.Known {
	if f.Base == "" {
		return nil
	}
	key := baseKey{f.Base, f.Path, depth}
	entry := e.base.known[key]
	if entry == nil {
		entry = &baseEntry{ran: map[string]bool{}, known: map[string]process.Known{}}
	}
	missing := map[string]bool{}
	for id := range rules {
		if !entry.ran[id] && !e.heavy[id] && !wholeChange[id] && !review.IsModelRule(id) {
			missing[id] = true
		}
	}
	if len(missing) == 0 {
		return entry.known
	}
	content, err := e.repo.ReadBlob(f.Base)
	if err != nil {
		// Without the base everything counts as new: the review says
		// too much rather than too little.
		e.logger.Warn("read base version", "path", f.Path, "err", err)
		return entry.known
	}
	skip := func(id string) bool { return !missing[id] }
	counts, measures, ok := e.fingerprints(ctx, cs, wholeFile(f.Path, review.LangUnknown, content), depth, cfg, skip, false)
	if !ok {
		return entry.known // cancelled or failed: not cached
	}
	for id, n := range counts {
		entry.known[id] = process.Known{Count: n, Measure: measures[id], Source: review.SourceBase, Base: n}
	}
	for id := range missing {
		entry.ran[id] = true
	}
	e.base.known[key] = entry
	return entry.known
}

// wholeKey keys the memo, on a file, of the fingerprint counts of its
// whole content for a rule set, depth and configuration.
type wholeKey struct {
	rules string
	depth review.Depth
	cfg   *review.Config
}

// wholeResult is what wholeCounts memoises.
type wholeResult struct {
	counts map[string]int
	ok     bool
}

var wholeOf review.MemoBy[wholeKey, wholeResult]

// wholeCounts counts the fingerprints of the given rules' findings over
// the whole current content of f, memoised on f (an unchanged file is
// shared by the next change set).
func (e *Engine) wholeCounts(ctx context.Context, cs *review.ChangeSet, f *review.File, depth review.Depth, cfg *review.Config, rules map[string]bool) map[string]int {
	ids := make([]string, 0, len(rules))
	for id := range rules {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	key := wholeKey{strings.Join(ids, ","), depth, cfg}
	compute := func() wholeResult {
		counts, _, ok := e.fingerprints(ctx, cs, wholeFile(f.Path, f.Language, f.Content), depth, cfg, func(id string) bool { return !rules[id] }, true)
		return wholeResult{counts, ok}
	}
	r := wholeOf.Of(f, key, compute)
	if !r.ok && ctx.Err() == nil {
		// A memo computed under a cancelled context is incomplete.
		r = compute()
	}
	return r.counts
}

// fingerprints runs the rules not skipped over the single file f and
// counts its findings by [review.Finding.PreexistingKey] (a secret by its
// place and value), with the largest measure of each; byID counts secrets
// by their ID (their place) as well, which the baseline's entries name.
// The same rule on the same line and symbol counts once, as
// process.Dedupe keeps one. ok is false when the run was cancelled.
func (e *Engine) fingerprints(ctx context.Context, cs *review.ChangeSet, f *review.File, depth review.Depth, cfg *review.Config, skip func(string) bool, byID bool) (counts, measures map[string]int, ok bool) {
	one := &review.ChangeSet{Root: cs.Root, Target: cs.Target, Files: []*review.File{f}}
	opts := review.CheckOptions{Depth: depth, Config: cfg, Skip: skip}
	counts, measures = map[string]int{}, map[string]int{}
	type dup struct {
		rule, symbol string
		line         int
	}
	seen := map[dup]bool{}
	for _, l := range e.opts.Lenses {
		found, err := l.Check(ctx, one, nil, opts)
		if ctx.Err() != nil {
			return nil, nil, false
		}
		if err != nil {
			e.logger.Warn("check whole file", "path", f.Path, "check", l.Perspective(), "err", firstLine(err.Error()))
		}
		for _, fd := range found {
			d := dup{fd.RuleID, fd.Symbol, fd.Span.StartLine}
			if seen[d] || fd.Span.Path != f.Path {
				continue
			}
			seen[d] = true
			key := fd.PreexistingKey()
			counts[key]++
			measures[key] = max(measures[key], fd.Measure)
			if byID && key != fd.ID {
				counts[fd.ID]++
			}
		}
	}
	return counts, measures, true
}

// wholeFile returns a review file of content at path with every line
// changed, as an added file: the form in which the rules report all they
// find in it. An empty lang is detected from the path and content.
func wholeFile(path string, lang review.Language, content []byte) *review.File {
	if lang == review.LangUnknown {
		lang = review.DetectLanguage(path, content)
	}
	lines := lens.SplitLines(content)
	f := &review.File{Path: path, Status: review.StatusAdded, Language: lang, Content: content, Added: len(lines),
		Lines: make(map[int]review.LineState, len(lines))}
	if f.Content == nil {
		f.Content = []byte{}
	}
	h := review.Hunk{NewStart: 1, NewLines: len(lines), Lines: make([]string, len(lines))}
	for i, l := range lines {
		f.Lines[i+1] = review.LineUntracked
		h.Lines[i] = "+" + l
	}
	if len(lines) > 0 {
		f.Hunks = []review.Hunk{h}
	}
	return f
}
