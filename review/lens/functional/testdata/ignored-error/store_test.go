package store

import (
	"os"
	"testing"
)

func TestCleanup(t *testing.T) {
	// Cleanup in tests is conventionally best effort.
	os.Remove("testdata/out.json")
	os.Setenv("STORE_DEBUG", "1")
	os.WriteFile("testdata/in.json", nil, 0o644) // want "os.WriteFile is dropped"
}
