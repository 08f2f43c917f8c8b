package process

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reviewls/reviewls/review"
)

// TestCap checks the per-review cap: the first findings in the chain's
// order are kept, a secret is never cut nor counted, and what is cut is
// tallied by rule and file.
func TestCap(t *testing.T) {
	secret := finding("security/hardcoded-secret", "z.go", 9, review.SeverityCritical)
	secret.Secrets = []string{"AKIAEXAMPLEEXAMPLE12"}
	in := []*review.Finding{
		finding("functional/x", "a.go", 1, review.SeverityHigh),
		finding("standards/y", "a.go", 2, review.SeverityLow),
		finding("standards/y", "b.go", 3, review.SeverityLow),
		secret,
		finding("standards/y", "a.go", 4, review.SeverityLow),
		finding("standards/y", "a.go", 5, review.SeverityLow),
	}
	c := &Cap{Max: 2}
	got, err := c.Process(context.Background(), append([]*review.Finding(nil), in...))
	if err != nil {
		t.Fatal(err)
	}
	assertSame(t, []string{"functional/x@a.go:1", "standards/y@a.go:2", "security/hardcoded-secret@z.go:9"}, got)
	want := []review.Cut{
		{Cap: review.CapPerReview, Limit: 2, Rule: "standards/y", Path: "a.go", Count: 2},
		{Cap: review.CapPerReview, Limit: 2, Rule: "standards/y", Path: "b.go", Count: 1},
	}
	if diff := cmp.Diff(want, c.Cut); diff != "" {
		t.Errorf("cut (-want +got):\n%s", diff)
	}

	none := &Cap{}
	if got, _ := none.Process(context.Background(), append([]*review.Finding(nil), in...)); len(got) != len(in) || none.Cut != nil {
		t.Errorf("no cap: %d findings kept of %d, cut %v", len(got), len(in), none.Cut)
	}
}

// TestCapInChain checks that the default chain cuts after sorting: the
// most severe findings are kept whatever order they came in.
func TestCapInChain(t *testing.T) {
	cs := changeSet(file("a.go", "l1\nl2\nl3\n", 1, 2, 3))
	cfg := &review.Config{MaxFindings: review.FindingCaps{PerReview: 1}}
	c := Default(cs, cfg, nil)
	got, err := c.Run(context.Background(), []*review.Finding{
		finding("standards/y", "a.go", 1, review.SeverityLow),
		finding("functional/x", "a.go", 3, review.SeverityHigh),
	})
	if err != nil {
		t.Fatal(err)
	}
	assertSame(t, []string{"functional/x@a.go:3"}, got)
	if want := []review.Cut{{Cap: review.CapPerReview, Limit: 1, Rule: "standards/y", Path: "a.go", Count: 1}}; !cmp.Equal(want, c.Cut()) {
		t.Errorf("cut %v, want %v", c.Cut(), want)
	}
}

func TestCapped(t *testing.T) {
	a := finding("standards/y", "a.go", 5, review.SeverityLow)
	a.Capped = 30
	b := finding("standards/y", "a.go", 9, review.SeverityHigh)
	b.Capped = 4
	got := Capped([]*review.Finding{finding("standards/y", "a.go", 1, review.SeverityLow), a, b}, review.CapPerFile, 5)
	want := []review.Cut{{Cap: review.CapPerFile, Limit: 5, Rule: "standards/y", Path: "a.go", Count: 34}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Capped (-want +got):\n%s", diff)
	}
}
