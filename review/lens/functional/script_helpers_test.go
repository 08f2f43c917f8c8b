package functional

import (
	"os"
	"testing"
)

// scriptTestdata returns the content of a test input.
func scriptTestdata(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
