package engine

import (
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
