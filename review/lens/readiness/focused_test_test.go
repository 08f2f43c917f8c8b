package readiness

import (
	"os"
	"testing"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens/lenstest"
)

func TestFocusedTest(t *testing.T) {
	lenstest.Run(t, FocusedTest, "testdata/focused-test")
}

func TestFocusedTestFixes(t *testing.T) {
	src, err := os.ReadFile("testdata/focused-test/cart.test.ts")
	if err != nil {
		t.Fatal(err)
	}
	f := lenstest.NewFile("cart.test.ts", src)
	if n := lenstest.CheckFixes(t, FocusedTest, f); n != 5 {
		t.Errorf("checked %d fixes, want 5", n)
	}
	for _, fd := range lenstest.Check(t, FocusedTest, f, 0, nil) {
		want := review.SeverityLow
		if fd.Title == "Focused test" {
			want = review.SeverityMedium
		}
		if fd.Severity != want {
			t.Errorf("line %d: %s has severity %s, want %s", fd.Span.StartLine, fd.Title, fd.Severity, want)
		}
	}
}
