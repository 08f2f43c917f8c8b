package lens_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
)

// TestPassCap checks the per-file cap at the source: a rule that reports on
// every line of a 120-line file keeps the first findings of each severity
// up to the cap, counts the rest on the last one kept, never builds them,
// and never cuts a secret.
func TestPassCap(t *testing.T) {
	var b strings.Builder
	for i := range 120 {
		fmt.Fprintf(&b, "line %d\n", i+1)
	}
	f := review.UntrackedFile("a.txt", []byte(b.String()))
	cs := &review.ChangeSet{Files: []*review.File{f}}
	rule := &lens.Rule{
		RuleInfo: review.RuleInfo{ID: "standards/every-line", Perspective: review.Standards, Severity: review.SeverityLow, Summary: "every line"},
		Run: func(p *lens.Pass) {
			p.EachChanged(func(n int, line string) {
				r := lens.Report{Line: n, Match: line}
				switch {
				case n%10 == 0:
					r.Severity = review.SeverityHigh // 12 high, 108 low
				case n == 7 || n == 99:
					r.Secrets = []string{fmt.Sprintf("secret-%d", n)}
				}
				p.Report(r)
			})
		},
	}
	l := lens.New(review.Standards, rule)
	check := func(max int) []*review.Finding {
		t.Helper()
		got, err := l.Check(context.Background(), cs, nil, review.CheckOptions{Depth: review.DepthStandard, MaxPerFile: max})
		if err != nil {
			t.Fatal(err)
		}
		return got
	}

	if got := check(0); len(got) != 120 {
		t.Fatalf("no cap: %d findings, want 120", len(got))
	}
	got := check(5)
	var lines []int
	capped := map[int]int{}
	for _, f := range got {
		lines = append(lines, f.Span.StartLine)
		if f.Capped > 0 {
			capped[f.Span.StartLine] = f.Capped
		}
	}
	// Low: lines 1-5 kept, then the secrets at 7 and 99; high: 10-50.
	want := []int{1, 2, 3, 4, 5, 7, 10, 20, 30, 40, 50, 99}
	if fmt.Sprint(lines) != fmt.Sprint(want) {
		t.Errorf("kept lines %v, want %v", lines, want)
	}
	// 108 low findings of which 2 secrets: 106 counted, 5 kept, 101 cut;
	// 12 high, 5 kept, 7 cut.
	if wantCapped := map[int]int{5: 101, 50: 7}; fmt.Sprint(capped) != fmt.Sprint(wantCapped) {
		t.Errorf("cut counts by line %v, want %v", capped, wantCapped)
	}
}
