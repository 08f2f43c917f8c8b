// Package treetest writes file trees for tests. Production code must not
// import it.
package treetest

import (
	"os"
	"path/filepath"
	"testing"
)

// WriteFile writes data to the file at the slash-separated path p below
// root, creating its directories. It fails tb on an error.
func WriteFile(tb testing.TB, root, p string, data []byte) {
	tb.Helper()
	full := filepath.Join(root, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(full, data, 0o644); err != nil {
		tb.Fatal(err)
	}
}

// Write writes files (slash-separated path -> content) below root.
func Write(tb testing.TB, root string, files map[string]string) {
	tb.Helper()
	for p, content := range files {
		WriteFile(tb, root, p, []byte(content))
	}
}
