package engine

import (
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
)

// TestIncrementalRunWithoutLastRunSkipsHeavyRules checks that a run naming
// paths on an engine that has not run yet (the language server answering
// a save before its first full review) skips the expensive whole-package
// rules, as incremental runs do, while a full run keeps them.
func TestIncrementalRunWithoutLastRunSkipsHeavyRules(t *testing.T) {
	dir := repo(t, map[string]string{"a.go": "package a\n"})
	write(t, dir, "a.go", []byte("package a\n\nfunc A() {}\n"))
	var heavyRuns atomic.Int32
	heavy := &lens.Rule{
		RuleInfo: review.RuleInfo{ID: "functional/heavy", Perspective: review.Functional, Severity: review.SeverityLow,
			Depth: review.DepthComprehensive, CrossFile: true},
		Run: func(*lens.Pass) { heavyRuns.Add(1) },
	}
	open := func() *Engine {
		eng, err := Open(dir, Options{Lenses: []review.Lens{lens.New(review.Functional, heavy)}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { eng.Close() })
		return eng
	}
	req := review.Request{Dir: dir, Depth: review.DepthComprehensive, Paths: []string{"a.go"}}
	res, err := open().Run(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	if res.ChangeSet.File("a.go") == nil {
		t.Fatalf("a.go not reviewed: %+v", res.ChangeSet.Files)
	}
	if n := heavyRuns.Load(); n != 0 {
		t.Errorf("the heavy rule ran %d times on an incremental run without a last run, want 0", n)
	}
	req.Paths = nil
	if _, err := open().Run(t.Context(), req); err != nil {
		t.Fatal(err)
	}
	if heavyRuns.Load() == 0 {
		t.Error("the heavy rule did not run on a full run")
	}
}

// TestBaseRunsOnlyTheRulesThatFired checks that the base version of a file
// is checked only with the rules of the file's findings, each at most once
// per base blob: a save pays for the rules that fired, not for all of them.
func TestBaseRunsOnlyTheRulesThatFired(t *testing.T) {
	const base = "package a\n\n// A! B!\nfunc A() {}\n"
	dir := repo(t, map[string]string{"a.go": base})
	write(t, dir, "a.go", []byte(base+"\n// A! again\nfunc B() {}\n"))
	var onBase sync.Map // rule ID -> *atomic.Int32
	marker := func(id, mark string) *lens.Rule {
		return &lens.Rule{
			RuleInfo: review.RuleInfo{ID: id, Perspective: review.Functional, Severity: review.SeverityLow, Depth: review.DepthBasic},
			Run: func(p *lens.Pass) {
				if string(p.File.Content) == base {
					n, _ := onBase.LoadOrStore(id, new(atomic.Int32))
					n.(*atomic.Int32).Add(1)
				}
				for i, line := range lens.Lines(p.File) {
					if strings.Contains(line, mark) && p.Changed(i+1) {
						p.Report(lens.Report{Line: i + 1, Title: "marked " + mark, Message: "The line is marked " + mark + "."})
					}
				}
			},
		}
	}
	eng, err := Open(dir, Options{Lenses: []review.Lens{lens.New(review.Functional, marker("functional/mark-a", "A!"), marker("functional/mark-b", "B!"))}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	runs := func(id string) int32 {
		if n, ok := onBase.Load(id); ok {
			return n.(*atomic.Int32).Load()
		}
		return 0
	}
	for range 2 {
		res, err := eng.Run(t.Context(), review.Request{Dir: dir, Depth: review.DepthStandard, Profile: review.ProfileCustom,
			Perspectives: []review.Perspective{review.Functional}})
		if err != nil {
			t.Fatal(err)
		}
		if got := ofRule(res.Findings, "functional/mark-a"); len(got) != 1 {
			t.Errorf("mark-a findings %v, want the added line's", got)
		}
	}
	if a, b := runs("functional/mark-a"), runs("functional/mark-b"); a != 1 || b != 0 {
		t.Errorf("on the base version mark-a ran %d times and mark-b %d times over two reviews, want 1 and 0", a, b)
	}
}

// TestDeferredOrientation checks that a run asked to defer its orientation
// returns its findings with the orientation pending, that Orient completes
// it as a run without deferral would have, and that a result the engine
// has run past is stale.
func TestDeferredOrientation(t *testing.T) {
	dir := repo(t, map[string]string{"a.go": "package a\n\nfunc A() {}\n"})
	write(t, dir, "a.go", []byte("package a\n\nfunc A() {}\n\n// TODO: later\nfunc B() {}\n"))
	eng, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	req := review.Request{Dir: dir, Mode: review.ModeInteractive}
	whole, err := eng.Run(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	if len(whole.Board) == 0 || len(whole.Findings) == 0 {
		t.Fatalf("the whole run has %d board items and %d findings; the test needs some", len(whole.Board), len(whole.Findings))
	}
	req.DeferOrientation = true
	res, err := eng.Run(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	if !res.OrientationPending || res.Board != nil || res.Walkthrough != nil || len(res.Findings) != len(whole.Findings) {
		t.Fatalf("deferred run: pending %v, board %v, walkthrough %v, %d findings (want pending, none, none, %d)",
			res.OrientationPending, res.Board, res.Walkthrough, len(res.Findings), len(whole.Findings))
	}
	if err := eng.Orient(t.Context(), res); err != nil {
		t.Fatal(err)
	}
	if res.OrientationPending || len(res.Board) != len(whole.Board) || res.Walkthrough == nil || len(res.Notes) != len(whole.Notes) {
		t.Errorf("oriented: pending %v, %d board items (want %d), walkthrough %v, %d notes (want %d)",
			res.OrientationPending, len(res.Board), len(whole.Board), res.Walkthrough != nil, len(res.Notes), len(whole.Notes))
	}

	stale, err := eng.Run(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Run(t.Context(), req); err != nil {
		t.Fatal(err)
	}
	if err := eng.Orient(t.Context(), stale); !errors.Is(err, ErrStale) {
		t.Errorf("Orient of a result the engine ran past = %v, want ErrStale", err)
	}
}
