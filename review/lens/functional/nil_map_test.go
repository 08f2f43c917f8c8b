package functional

import (
	"testing"

	"github.com/reviewls/reviewls/review/lens/lenstest"
)

func TestNilMapWriteFixes(t *testing.T) {
	if n := lenstest.CheckFixes(t, NilMapWrite, lenstest.Input(t, "testdata/nil-map-write/count.go", "count/count.go")); n == 0 {
		t.Error("no fix was checked")
	}
}
