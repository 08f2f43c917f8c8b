package readiness

import (
	"testing"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens/lenstest"
)

func TestFocusedTestFixes(t *testing.T) {
	f := lenstest.Input(t, "testdata/focused-test/cart.test.ts", "cart.test.ts")
	if n := lenstest.CheckFixes(t, FocusedTest, f); n != 5 {
		t.Errorf("checked %d fixes, want 5", n)
	}
	for _, fd := range lenstest.Check(t, FocusedTest, f, 0, nil) {
		if fd.Severity != review.SeverityMedium || fd.RuleID != "readiness/focused-test" {
			t.Errorf("line %d: %s %s, want readiness/focused-test Medium", fd.Span.StartLine, fd.RuleID, fd.Severity)
		}
	}
	for _, fd := range lenstest.Check(t, SkippedTest, f, 0, nil) {
		if fd.Severity != review.SeverityLow || fd.RuleID != "readiness/skipped-test" || fd.Title != "Skipped test" {
			t.Errorf("line %d: %s %s %q, want readiness/skipped-test Low", fd.Span.StartLine, fd.RuleID, fd.Severity, fd.Title)
		}
	}
}
