package functional

import (
	"os"
	"testing"

	"github.com/reviewls/reviewls/review/lens/lenstest"
)

func TestLostCancel(t *testing.T) {
	lenstest.Run(t, LostCancel, "testdata/lost-cancel")
}

func TestLostCancelFixes(t *testing.T) {
	content, err := os.ReadFile("testdata/lost-cancel/client.go")
	if err != nil {
		t.Fatal(err)
	}
	if n := lenstest.CheckFixes(t, LostCancel, lenstest.NewFile("client/client.go", content)); n == 0 {
		t.Error("no fix was checked")
	}
}
