package functional

import (
	"os"
	"testing"

	"github.com/reviewls/reviewls/review/lens/lenstest"
)

func TestNilMapWrite(t *testing.T) {
	lenstest.Run(t, NilMapWrite, "testdata/nil-map-write")
}

func TestNilMapWriteFixes(t *testing.T) {
	content, err := os.ReadFile("testdata/nil-map-write/count.go")
	if err != nil {
		t.Fatal(err)
	}
	if n := lenstest.CheckFixes(t, NilMapWrite, lenstest.NewFile("count/count.go", content)); n == 0 {
		t.Error("no fix was checked")
	}
}
