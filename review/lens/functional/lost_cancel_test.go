package functional

import (
	"testing"

	"github.com/reviewls/reviewls/review/lens/lenstest"
)

func TestLostCancelFixes(t *testing.T) {
	if n := lenstest.CheckFixes(t, LostCancel, lenstest.Input(t, "testdata/lost-cancel/client.go", "client/client.go")); n == 0 {
		t.Error("no fix was checked")
	}
}
