package engine

import (
	"context"
	"errors"
	"path"
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

	// A newer edit cancels the orientation: the result stays pending
	// and can still be oriented.
	res, err = eng.Run(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	cancelled, cancel := context.WithCancel(t.Context())
	cancel()
	if err := eng.Orient(cancelled, res); !errors.Is(err, context.Canceled) || !res.OrientationPending {
		t.Errorf("Orient with a cancelled context = %v, pending %v; want context.Canceled and still pending", err, res.OrientationPending)
	}
	if err := eng.Orient(t.Context(), res); err != nil || res.OrientationPending || len(res.Board) != len(whole.Board) {
		t.Errorf("Orient after a cancelled one = %v, pending %v, %d board items; want nil, oriented, %d", err, res.OrientationPending, len(res.Board), len(whole.Board))
	}
}

// TestCrossFileFindingsReused checks that a save reruns the cross-file
// rules only on the saved file when none of their declared inputs
// changed, keeping the other files' findings, and on every file when one
// did (or when a cross-file rule declares no inputs).
func TestCrossFileFindingsReused(t *testing.T) {
	const mod = "module example.com/m\n\ngo 1.21\n"
	dir := repo(t, map[string]string{"go.mod": mod, "a.go": "package m\n", "b.go": "package m\n"})
	write(t, dir, "a.go", []byte("package m\n\n// X!\nfunc A() {}\n"))
	write(t, dir, "b.go", []byte("package m\n\nfunc B() {}\n"))
	cross := func(id string, runs *sync.Map, inputs ...string) *lens.Rule {
		return &lens.Rule{
			RuleInfo: review.RuleInfo{ID: id, Perspective: review.Functional, Severity: review.SeverityLow,
				Depth: review.DepthBasic, CrossFile: true, Inputs: inputs},
			Run: func(p *lens.Pass) {
				if p.File.Base != "" {
					// A changed file, not a version checked for
					// pre-existing findings.
					n, _ := runs.LoadOrStore(p.File.Path, new(atomic.Int32))
					n.(*atomic.Int32).Add(1)
				}
				// The finding depends on go.mod, as loop-var-capture's does.
				if mod := lens.GoModuleOf(p.ChangeSet, p.File.Path); mod != nil && mod.GoMinor() < 22 {
					for i, line := range lens.Lines(p.File) {
						if strings.Contains(line, "X!") {
							p.Report(lens.Report{Line: i + 1, Title: "marked", Message: "The line is marked with go " + mod.GoVersion + "."})
						}
					}
				}
			},
		}
	}
	count := func(runs *sync.Map, path string) int32 {
		if n, ok := runs.Load(path); ok {
			return n.(*atomic.Int32).Load()
		}
		return 0
	}
	for _, tc := range []struct {
		name   string
		inputs []string
		// reused says whether a.go is left alone when b.go is saved.
		reused bool
	}{{"declared inputs", []string{"go.mod"}, true}, {"no inputs", nil, false}} {
		t.Run(tc.name, func(t *testing.T) {
			runs := &sync.Map{}
			eng, err := Open(dir, Options{Lenses: []review.Lens{lens.New(review.Functional, cross("functional/cross", runs, tc.inputs...))}})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { eng.Close() })
			req := review.Request{Dir: dir, Depth: review.DepthStandard, Profile: review.ProfileCustom,
				Perspectives: []review.Perspective{review.Functional}}
			run := func(paths ...string) *review.Result {
				t.Helper()
				req.Paths = paths
				res, err := eng.Run(t.Context(), req)
				if err != nil {
					t.Fatal(err)
				}
				return res
			}
			run()
			write(t, dir, "b.go", []byte("package m\n\nfunc B() { _ = 1 }\n"))
			res := run("b.go")
			want := int32(2)
			if tc.reused {
				want = 1
			}
			if got := count(runs, "a.go"); got != want {
				t.Errorf("after a save of b.go the rule ran %d times on a.go, want %d", got, want)
			}
			if got := ofRule(res.Findings, "functional/cross"); len(got) != 1 {
				t.Errorf("findings after the save of b.go: %v, want a.go's", got)
			}
			// go.mod is an input: its change reaches a.go's finding.
			write(t, dir, "go.mod", []byte("module example.com/m\n\ngo 1.22\n"))
			res = run("go.mod")
			if got := ofRule(res.Findings, "functional/cross"); len(got) != 0 {
				t.Errorf("findings after go.mod moved to go 1.22: %v, want none", got)
			}
			write(t, dir, "go.mod", []byte(mod))
		})
	}
}

// TestCrossFileRulesDeclareInputs checks that every cross-file line rule
// of the catalog but the whole-package ones names its inputs: one that
// does not makes every save rerun the cross-file rules on every changed
// file.
func TestCrossFileRulesDeclareInputs(t *testing.T) {
	for _, r := range Rules() {
		if r.CrossFile && r.Depth != review.DepthComprehensive && r.Note == "" && len(r.Inputs) == 0 {
			t.Errorf("%s is cross-file and declares no Inputs", r.ID)
		}
		for _, pat := range r.Inputs {
			if _, err := path.Match(pat, "x"); err != nil || strings.Contains(pat, "/") {
				t.Errorf("%s: input %q is not a base-name pattern", r.ID, pat)
			}
		}
	}
	eng, err := Open(repo(t, map[string]string{"a.go": "package a\n"}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	if eng.crossInputs == nil {
		t.Error("the default catalog's cross-file findings are never reused")
	}
}
