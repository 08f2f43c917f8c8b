package readiness

import (
	"testing"

	"github.com/reviewls/reviewls/review/lens/lenstest"
)

func TestLocalReplaceFixes(t *testing.T) {
	if n := lenstest.CheckFixes(t, LocalReplace, lenstest.Input(t, "testdata/local-replace/go.mod", "go.mod")); n != 2 {
		t.Errorf("checked %d fixes, want 2", n)
	}
}
