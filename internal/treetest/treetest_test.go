package treetest

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWrite(t *testing.T) {
	root := t.TempDir()
	Write(t, root, map[string]string{"a/b/c.txt": "c\n", "top": "t"})
	for p, want := range map[string]string{"a/b/c.txt": "c\n", "top": "t"} {
		got, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil || string(got) != want {
			t.Errorf("%s = %q, %v; want %q", p, got, err, want)
		}
	}
}
