package security

import (
	"os"
	"testing"

	"github.com/reviewls/reviewls/review/lens/lenstest"
)

func TestUnsafeYAMLLoad(t *testing.T) {
	lenstest.Run(t, UnsafeYAMLLoad, "testdata/unsafe-yaml-load")
}

func TestUnsafeYAMLLoadFixes(t *testing.T) {
	src, err := os.ReadFile("testdata/unsafe-yaml-load/config.py")
	if err != nil {
		t.Fatal(err)
	}
	if n := lenstest.CheckFixes(t, UnsafeYAMLLoad, lenstest.NewFile("config.py", src)); n != 5 {
		t.Errorf("checked %d fixes, want 5", n)
	}
}

func TestUnsafeDeserialization(t *testing.T) {
	lenstest.Run(t, UnsafeDeserialization, "testdata/unsafe-deserialization")
}
