//go:build unix

package config

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"
)

// TestLoadNotRegular checks that a configuration that is a named pipe is
// an error naming it, not a read that waits forever for a writer.
func TestLoadNotRegular(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, FileName), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(dir, known)
	var ce *Error
	if !errors.As(err, &ce) || err.Error() != ".reviewls.yaml: not a regular file (a named pipe)" {
		t.Fatalf("Load of a named pipe: %v, want the *config.Error .reviewls.yaml: not a regular file (a named pipe)", err)
	}
}
