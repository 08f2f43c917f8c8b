package functional

import (
	"testing"

	"github.com/reviewls/reviewls/review/lens/lenstest"
)

func TestBareExceptFixes(t *testing.T) {
	f := lenstest.NewFile("handlers.py", scriptTestdata(t, "testdata/bare-except/handlers.py"))
	if n := lenstest.CheckFixes(t, BareExcept, f); n != 2 {
		t.Errorf("checked %d fixes, want 2", n)
	}
}
