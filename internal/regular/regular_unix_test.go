//go:build unix

package regular

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestReadFile reads regular files, directly and through a link, and
// refuses a named pipe (which would block), a link to one, a directory
// and a device, naming each.
func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, []byte("data"), 0o644); err != nil {
		t.Fatal(err)
	}
	pipe := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"to-file": file, "to-pipe": pipe} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"file", "to-file"} {
		data, err := ReadFile(filepath.Join(dir, name))
		if err != nil || string(data) != "data" {
			t.Errorf("ReadFile(%s) = %q, %v", name, data, err)
		}
	}
	for path, kind := range map[string]string{
		pipe:                          "a named pipe",
		filepath.Join(dir, "to-pipe"): "a named pipe",
		dir:                           "a directory",
		"/dev/null":                   "a device",
	} {
		_, err := ReadFile(path)
		if want := path + " is not a regular file (" + kind + ")"; err == nil || err.Error() != want {
			t.Errorf("ReadFile(%s) error = %v, want %q", path, err, want)
		}
		if !errors.Is(err, ErrNotRegular) {
			t.Errorf("ReadFile(%s) error %v is not ErrNotRegular", path, err)
		}
	}
	if _, err := ReadFile(filepath.Join(dir, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ReadFile(missing) error = %v, want ErrNotExist", err)
	}
}
