package security

import (
	"testing"

	"github.com/reviewls/reviewls/review/lens/lenstest"
)

func TestUnsafeYAMLLoadFixes(t *testing.T) {
	if n := lenstest.CheckFixes(t, UnsafeYAMLLoad, lenstest.Input(t, "testdata/unsafe-yaml-load/config.py", "config.py")); n != 5 {
		t.Errorf("checked %d fixes, want 5", n)
	}
}
