package tracking

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestOpen(t *testing.T) {
	root := t.TempDir()
	if _, err := Open(root, false); err == nil {
		t.Error("Open without create succeeded on a work tree without .copilot-tracking")
	}
	r, err := Open(root, true)
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	if fi, err := os.Stat(filepath.Join(root, Dir)); err != nil || !fi.IsDir() {
		t.Fatalf("Open(create) left %v, %v", fi, err)
	}

	for name, make := range map[string]func(p string) error{
		"a file":          func(p string) error { return os.WriteFile(p, nil, 0o644) },
		"a symbolic link": func(p string) error { return os.Symlink(t.TempDir(), p) },
	} {
		root := t.TempDir()
		if err := make(filepath.Join(root, Dir)); err != nil {
			t.Fatal(err)
		}
		if _, err := Open(root, true); err == nil || !strings.Contains(err.Error(), "is not a directory") {
			t.Errorf("%s: Open = %v, want a refusal", name, err)
		}
	}
}
