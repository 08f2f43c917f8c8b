package functional

import (
	"testing"

	"github.com/reviewls/reviewls/review/lens/lenstest"
)

func TestIsLiteralFixes(t *testing.T) {
	if n := lenstest.CheckFixes(t, IsLiteral, lenstest.Input(t, "testdata/is-literal/status.py", "status.py")); n != 6 {
		t.Errorf("checked %d fixes, want 6", n)
	}
}
