package readiness

import (
	"os"
	"testing"

	"github.com/reviewls/reviewls/review/lens/lenstest"
)

func TestLocalReplace(t *testing.T) {
	lenstest.Run(t, LocalReplace, "testdata/local-replace")
}

func TestLocalReplaceFixes(t *testing.T) {
	content, err := os.ReadFile("testdata/local-replace/go.mod")
	if err != nil {
		t.Fatal(err)
	}
	if n := lenstest.CheckFixes(t, LocalReplace, lenstest.NewFile("go.mod", content)); n != 2 {
		t.Errorf("checked %d fixes, want 2", n)
	}
}
