package process

import (
	"context"
	"testing"

	"github.com/reviewls/reviewls/review"
)

// TestPreexistingDecisions checks that a run reuses the last run's
// decision for a file whose findings are the same values, and decides
// afresh when they are not.
func TestPreexistingDecisions(t *testing.T) {
	a := file("a.go", "package a\n", 1)
	b := file("b.go", "package b\n", 1)
	cs := changeSet(a, b)
	asked := map[string]int{}
	p := &Preexisting{
		ChangeSet: cs,
		Decisions: &Decisions{},
		Known: func(_ context.Context, f *review.File, _ map[string]bool) map[string]Known {
			asked[f.Path]++
			return map[string]Known{"old": {Count: 1, Source: review.SourceBase}}
		},
	}
	old := finding("readiness/todo", "a.go", 1, review.SeverityLow)
	old.ID = "old"
	fresh := finding("readiness/todo", "b.go", 1, review.SeverityLow)
	fresh.ID = "new"
	run := func(fs ...*review.Finding) []*review.Finding {
		t.Helper()
		out, err := p.Process(context.Background(), fs)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	for i := range 3 {
		if out := run(old, fresh); len(out) != 1 || out[0] != fresh || len(p.Found) != 1 || p.Found[0].Finding != old {
			t.Fatalf("run %d: kept %v, set aside %d; want only b.go's finding kept", i, ids(out), len(p.Found))
		}
	}
	if asked["a.go"] != 1 || asked["b.go"] != 1 {
		t.Errorf("Known asked %v over three runs of the same findings; want once per file", asked)
	}
	// A new finding value in a.go (its file re-checked) is decided again.
	again := *old
	if out := run(&again, fresh); len(out) != 1 || out[0] != fresh || len(p.Found) != 1 || p.Found[0].Finding != &again {
		t.Errorf("after a re-check: kept %v, set aside %d; want only b.go's finding kept", ids(out), len(p.Found))
	}
	if asked["a.go"] != 2 || asked["b.go"] != 1 {
		t.Errorf("Known asked %v; want a.go decided again, b.go reused", asked)
	}
}
