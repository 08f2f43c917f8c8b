//go:build unix

package config

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/reviewls/reviewls/review"
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

// TestLoadBounded checks that a configuration over MaxSize is an error
// naming the limit, read no further than the limit (the file is sparse: a
// read of all of it would take 2 GiB), and that one of MaxSize is read.
func TestLoadBounded(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, FileName)
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(2 << 30); err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, err = Load(dir, known)
	var ce *Error
	if !errors.As(err, &ce) || err.Error() != ".reviewls.yaml: larger than 1024 KiB, the most a configuration file may hold" {
		t.Fatalf("Load of a 2 GiB file: %v, want the size error", err)
	}
	if err := os.Truncate(name, MaxSize+1); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(dir, known); err == nil || !strings.Contains(err.Error(), "larger than 1024 KiB") {
		t.Fatalf("Load of MaxSize+1 bytes: %v, want the size error", err)
	}
	data := append([]byte("depth: basic\n"), bytes.Repeat([]byte("#\n"), (MaxSize-13)/2)...)
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if cfg, err := Load(dir, known); err != nil || cfg.Depth != review.DepthBasic {
		t.Fatalf("Load of %d bytes = %+v, %v", len(data), cfg, err)
	}
}

// TestLoadSymlink checks that a configuration that is a symbolic link out
// of the work tree is refused, naming the file, and one that stays in it
// is read.
func TestLoadSymlink(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(outside, []byte("depth: comprehensive\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(dir, FileName)); err != nil {
		t.Fatal(err)
	}
	_, err := Load(dir, known)
	var ce *Error
	if !errors.As(err, &ce) || err.Error() != ".reviewls.yaml: a symbolic link out of the work tree (refused: the configuration must be the repository's own file)" {
		t.Fatalf("Load through a link out of the work tree: %v, want a refusal", err)
	}
	if err := os.Remove(filepath.Join(dir, FileName)); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "ci"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ci", "reviewls.yaml"), []byte("depth: basic\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("ci/reviewls.yaml", filepath.Join(dir, FileName)); err != nil {
		t.Fatal(err)
	}
	if cfg, err := Load(dir, known); err != nil || cfg.Depth != review.DepthBasic {
		t.Fatalf("Load through a link inside the work tree = %+v, %v", cfg, err)
	}
}
