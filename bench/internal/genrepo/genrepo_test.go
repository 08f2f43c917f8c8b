package genrepo

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// status returns the lines of git status --porcelain of r.
func status(t *testing.T, r *Repo) []string {
	t.Helper()
	out, err := r.Output("status", "--porcelain", "--untracked-files=all")
	if err != nil {
		t.Fatal(err)
	}
	return strings.FieldsFunc(string(out), func(c rune) bool { return c == '\n' })
}

func TestChangeModifiesAndAddsCompilableFiles(t *testing.T) {
	r, err := Generate(t.TempDir(), 40, 8, 3)
	if err != nil {
		t.Fatal(err)
	}
	paths, err := r.Change(10, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) != 10 || len(slices.Compact(slices.Clone(paths))) != 10 {
		t.Fatalf("Change(10, 2) modified %v, want 10 distinct paths", paths)
	}
	var modified, added []string
	for _, line := range status(t, r) {
		switch {
		case strings.HasPrefix(line, " M "):
			modified = append(modified, line[3:])
		case strings.HasPrefix(line, "?? "):
			added = append(added, line[3:])
		default:
			t.Errorf("unexpected status line %q", line)
		}
	}
	slices.Sort(paths)
	if !slices.Equal(modified, paths) {
		t.Errorf("git status modified = %v, want %v", modified, paths)
	}
	if len(added) != 2 {
		t.Fatalf("git status untracked = %v, want 2 files", added)
	}
	for _, p := range append(modified, added...) {
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(r.Root, p), nil, 0)
		if err != nil {
			t.Errorf("changed file does not parse: %v", err)
			continue
		}
		if f.Name.Name != "leaf" {
			t.Errorf("%s: package %s, want leaf (copied from its neighbours)", p, f.Name.Name)
		}
	}

	if err := r.Reset(); err != nil {
		t.Fatal(err)
	}
	if s := status(t, r); len(s) != 0 {
		t.Errorf("after Reset, git status = %v, want clean", s)
	}
	if _, err := r.Change(41, 0); err == nil {
		t.Error("Change of more files than the repository has: no error")
	}
}

func TestCloneLeavesTheSourceAlone(t *testing.T) {
	src, err := Generate(t.TempDir(), 12, 3, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"vendor/dep/dep.go", "pkg00/a_test.go", "pkg00/testdata/x.go", ".github/tool.go", "README.md"} {
		if err := src.Write(p, "package x\n"); err != nil {
			t.Fatal(err)
		}
	}
	if err := src.Git("add", "-A"); err != nil {
		t.Fatal(err)
	}
	if err := src.Git("commit", "-q", "-m", "more"); err != nil {
		t.Fatal(err)
	}

	c, err := Clone(src.Root, filepath.Join(t.TempDir(), "clone"))
	if err != nil {
		t.Fatal(err)
	}
	want := slices.Clone(src.Tracked)
	slices.Sort(want)
	if !slices.Equal(c.Tracked, want) {
		t.Errorf("clone's editable Go files = %v, want the package files only %v", c.Tracked, want)
	}
	if _, err := c.Change(4, 2); err != nil {
		t.Fatal(err)
	}
	if err := c.Write(".copilot-tracking/reviews/x.md", "artifact\n"); err != nil {
		t.Fatal(err)
	}
	if s := status(t, c); len(s) != 6 {
		t.Errorf("clone status = %v, want 4 modified and 2 untracked, the artifact folder excluded", s)
	}
	if s := status(t, src); len(s) != 0 {
		t.Errorf("source status = %v after changing the clone, want clean", s)
	}
	if _, err := os.Stat(filepath.Join(src.Root, ".copilot-tracking")); !os.IsNotExist(err) {
		t.Errorf("source has an artifact folder: %v", err)
	}
}
