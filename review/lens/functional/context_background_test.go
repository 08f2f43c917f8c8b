package functional

import (
	"os"
	"testing"

	"github.com/reviewls/reviewls/review/lens/lenstest"
)

func TestContextBackground(t *testing.T) {
	lenstest.Run(t, ContextBackground, "testdata/context-background")
}

func TestContextBackgroundFixes(t *testing.T) {
	content, err := os.ReadFile("testdata/context-background/store.go")
	if err != nil {
		t.Fatal(err)
	}
	if n := lenstest.CheckFixes(t, ContextBackground, lenstest.NewFile("store/store.go", content)); n == 0 {
		t.Error("no fix was checked")
	}
}
