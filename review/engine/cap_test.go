package engine

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reviewls/reviewls/review"
)

// TestFindingCaps reviews a flood of findings (two a line: a debug
// statement and a TODO) under the default caps, a per-review cap, no cap,
// and an incremental run under other caps than the last run's.
func TestFindingCaps(t *testing.T) {
	dir := repo(t, map[string]string{"a.go": "package a\n"})
	write(t, dir, "flood.js", []byte(strings.Repeat("console.log(\"x\"); // TODO\n", 70)))
	write(t, dir, "few.js", []byte(strings.Repeat("console.log(\"x\"); // TODO\n", 3)))

	res := run(t, dir, review.Request{})
	if got := len(res.Findings); got != 2*50+2*3 {
		t.Errorf("default caps: %d findings, want 106", got)
	}
	want := []review.Cut{
		{Cap: review.CapPerFile, Limit: 50, Rule: "readiness/todo-added", Path: "flood.js", Count: 20},
		{Cap: review.CapPerFile, Limit: 50, Rule: "standards/debug-statement", Path: "flood.js", Count: 20},
	}
	if diff := cmp.Diff(want, res.Cut); diff != "" {
		t.Errorf("default caps: cut (-want +got):\n%s", diff)
	}

	res = run(t, dir, review.Request{Config: &review.Config{MaxFindings: review.FindingCaps{PerFile: -1, PerReview: 10}}})
	if len(res.Findings) != 10 || res.CutCount() != 146-10 || res.Counts.Total() != 10 {
		t.Errorf("per-review cap of 10: %d findings, %d cut, counts %+v; want 10, 136", len(res.Findings), res.CutCount(), res.Counts)
	}
	for _, c := range res.Cut {
		if c.Cap != review.CapPerReview || c.Limit != 10 {
			t.Errorf("per-review cap of 10: cut %+v", c)
		}
	}

	unlimited := &review.Config{MaxFindings: review.FindingCaps{PerFile: -1, PerReview: -1}}
	if res := run(t, dir, review.Request{Config: unlimited}); len(res.Findings) != 146 || res.Cut != nil {
		t.Errorf("no cap: %d findings, cut %v; want 146, none", len(res.Findings), res.Cut)
	}

	// The findings of flood.js cached by a run under the default caps are
	// not those of a run without caps.
	eng, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	if _, err := eng.Run(t.Context(), review.Request{Dir: dir}); err != nil {
		t.Fatal(err)
	}
	write(t, dir, "few.js", []byte("console.log(\"y\");\n"))
	inc, err := eng.Run(t.Context(), review.Request{Dir: dir, Paths: []string{"few.js"}, Config: unlimited})
	if err != nil {
		t.Fatal(err)
	}
	if len(inc.Findings) != 141 || inc.Cut != nil {
		t.Errorf("incremental run without caps: %d findings, cut %v; want 141, none", len(inc.Findings), inc.Cut)
	}
}
