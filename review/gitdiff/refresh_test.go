package gitdiff

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reviewls/reviewls/review"
)

// TestRefreshEquivalence edits the work tree after a scan and checks that
// refreshing the touched paths gives what a fresh scan gives.
func TestRefreshEquivalence(t *testing.T) {
	tests := []struct {
		name    string
		edit    func(t *testing.T, dir string)
		paths   []string
		overlay map[string][]byte
	}{
		{"clean file modified", func(t *testing.T, dir string) {
			write(t, dir, map[string]string{"clean.go": "package a\n\nvar Y = 2\n"})
		}, []string{"clean.go"}, nil},
		{"modified file becomes clean", func(t *testing.T, dir string) {
			write(t, dir, map[string]string{"dirty.go": "package a\n"})
		}, []string{"dirty.go"}, nil},
		{"modified file modified again", func(t *testing.T, dir string) {
			write(t, dir, map[string]string{"both.go": "package a\n\nvar Staged = 1\n\nvar More = 3\n"})
		}, []string{"both.go"}, nil},
		{"new untracked file", func(t *testing.T, dir string) {
			write(t, dir, map[string]string{"sub/new.go": "package sub\n"})
		}, []string{"sub/new.go"}, nil},
		{"new ignored file", func(t *testing.T, dir string) {
			write(t, dir, map[string]string{"x.log": "log\n", "build/y.go": "package y\n"})
		}, []string{"x.log", "build/y.go"}, nil},
		{"untracked file removed", func(t *testing.T, dir string) {
			remove(t, dir, "untracked.txt")
		}, []string{"untracked.txt"}, nil},
		{"tracked file deleted", func(t *testing.T, dir string) {
			remove(t, dir, "clean.go")
		}, []string{"clean.go"}, nil},
		{"new directory", func(t *testing.T, dir string) {
			write(t, dir, map[string]string{"pkg/a.go": "package pkg\n", "pkg/deep/b.go": "package deep\n", "pkg/c.log": "ignored\n"})
		}, []string{"pkg"}, nil},
		{"tracked directory removed", func(t *testing.T, dir string) {
			remove(t, dir, "lib")
		}, []string{"lib"}, nil},
		{"tracked directory replaced by a file", func(t *testing.T, dir string) {
			remove(t, dir, "lib")
			write(t, dir, map[string]string{"lib": "a file now\n"})
		}, []string{"lib"}, nil},
		{"absolute path", func(t *testing.T, dir string) {
			write(t, dir, map[string]string{"lib/x.go": "package lib\n\nvar Z = 1\n"})
		}, nil, nil},
		{"overlay", func(t *testing.T, dir string) {}, []string{"clean.go", "new-buffer.go"}, map[string][]byte{
			"clean.go": []byte("package a\n\n// unsaved\n"), "new-buffer.go": []byte("package a\n"),
		}},
		{"untracked file in a tracked ignored directory", func(t *testing.T, dir string) {
			write(t, dir, map[string]string{"build/tracked/new.go": "package t\n"})
		}, []string{"build/tracked/new.go"}, nil},
		{"unchanged path", func(t *testing.T, dir string) {}, []string{"both.go"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := refreshRepo(t)
			r := open(t, dir, Options{})
			tg := resolve(t, r, false, "")
			prev := scan(t, r, tg, nil)

			tc.edit(t, dir)
			paths := tc.paths
			if paths == nil {
				paths = []string{filepath.Join(dir, "lib", "x.go")}
			}
			got, err := r.Refresh(t.Context(), prev, tc.overlay, paths...)
			if err != nil {
				t.Fatal(err)
			}
			want := scan(t, open(t, dir, Options{}), tg, tc.overlay)
			if diff := cmp.Diff(want, got, fileOpts); diff != "" {
				t.Errorf("Refresh differs from Scan (-scan +refresh):\n%s", diff)
			}
			// Files not refreshed are shared with prev.
			for _, f := range got.Files {
				if p := prev.File(f.Path); p != nil && !refreshed(f.Path, paths, dir) && p != f {
					t.Errorf("%s: not refreshed but not shared", f.Path)
				}
			}
		})
	}
}

func refreshed(p string, paths []string, dir string) bool {
	for _, q := range paths {
		if rel, err := filepath.Rel(dir, q); err == nil && filepath.IsAbs(q) {
			q = filepath.ToSlash(rel)
		}
		if p == q || len(p) > len(q) && p[:len(q)+1] == q+"/" {
			return true
		}
	}
	return false
}

// refreshRepo builds the repository the Refresh tests start from.
func refreshRepo(t *testing.T) string {
	dir := initRepo(t)
	write(t, dir, map[string]string{
		".gitignore":         "*.log\nbuild/\n",
		"clean.go":           "package a\n",
		"dirty.go":           "package a\n",
		"both.go":            "package a\n",
		"lib/x.go":           "package lib\n",
		"lib/y.go":           "package lib\n",
		"build/tracked/t.go": "package t\n",
	})
	runGit(t, dir, "add", "-A")
	runGit(t, dir, "add", "-f", "build/tracked/t.go")
	runGit(t, dir, "commit", "-q", "-m", "init")
	write(t, dir, map[string]string{"both.go": "package a\n\nvar Staged = 1\n"})
	runGit(t, dir, "add", "both.go")
	write(t, dir, map[string]string{
		"both.go":       "package a\n\nvar Staged = 1\n\nvar Unstaged = 2\n",
		"dirty.go":      "package a\n\nvar X = 1\n",
		"untracked.txt": "u\n",
	})
	return dir
}

func TestRefreshFallsBackWhenIndexOrHeadMoves(t *testing.T) {
	dir := refreshRepo(t)
	r := open(t, dir, Options{})
	if moved, err := r.Moved(); err != nil || !moved {
		t.Fatalf("Moved before any scan = %v, %v; want true", moved, err)
	}
	tg := resolve(t, r, false, "")
	prev := scan(t, r, tg, nil)
	if moved, err := r.Moved(); err != nil || moved {
		t.Fatalf("Moved right after a scan = %v, %v", moved, err)
	}
	if moved, err := r.MovedFrom(tg); err != nil || moved {
		t.Fatalf("MovedFrom the scanned target = %v, %v", moved, err)
	}
	detached := tg
	detached.Detached, detached.HeadRef, detached.Branch = true, "HEAD", ""
	if moved, _ := r.MovedFrom(detached); !moved {
		t.Errorf("MovedFrom a detached HEAD at the same commit = false")
	}

	// git add moves the index: the refresh of an unrelated path still
	// sees the newly staged file.
	runGit(t, dir, "add", "dirty.go")
	if moved, _ := r.Moved(); !moved {
		t.Fatalf("Moved after git add = false")
	}
	got, err := r.Refresh(t.Context(), prev, nil, "clean.go")
	if err != nil {
		t.Fatal(err)
	}
	if f := got.File("dirty.go"); f == nil || !f.Staged || f.Unstaged {
		t.Errorf("after git add, dirty.go = %+v", f)
	}

	// A commit moves HEAD: the refresh reviews the new HEAD.
	runGit(t, dir, "commit", "-q", "-m", "more")
	if moved, err := r.MovedFrom(resolve(t, r, false, "")); err != nil || !moved {
		t.Errorf("MovedFrom the new HEAD after a commit = %v, %v", moved, err)
	}
	got, err = r.Refresh(t.Context(), got, nil, "clean.go")
	if err != nil {
		t.Fatal(err)
	}
	head := runGit(t, dir, "rev-parse", "HEAD")
	if got.Target.HeadSHA+"\n" != head || got.Target.BaseSHA != got.Target.HeadSHA {
		t.Errorf("target after commit = %+v, HEAD %s", got.Target, head)
	}
	want := scan(t, open(t, dir, Options{}), resolve(t, r, false, ""), nil)
	if diff := cmp.Diff(want, got, fileOpts); diff != "" {
		t.Errorf("Refresh after commit differs from Scan (-scan +refresh):\n%s", diff)
	}

	// Editing a .gitignore changes what is ignored anywhere.
	write(t, dir, map[string]string{".gitignore": "build/\n", "x.log": "now listed\n"})
	got, err = r.Refresh(t.Context(), got, nil, ".gitignore")
	if err != nil {
		t.Fatal(err)
	}
	if got.File("x.log") == nil {
		t.Errorf("x.log not listed after un-ignoring *.log: %v", got.Paths())
	}
}

func TestRefreshStagedTarget(t *testing.T) {
	dir := refreshRepo(t)
	r := open(t, dir, Options{})
	tg := resolve(t, r, true, "")
	prev := scan(t, r, tg, nil)
	write(t, dir, map[string]string{"clean.go": "package a\n\nvar W = 1\n"})
	got, err := r.Refresh(t.Context(), prev, nil, "clean.go")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(prev.Paths(), got.Paths()); diff != "" {
		t.Errorf("a work tree edit changed a staged review (-prev +got):\n%s", diff)
	}
}

// TestConcurrentUse runs scans, refreshes and history walks on one Repo at
// once; run with -race.
func TestConcurrentUse(t *testing.T) {
	dir := refreshRepo(t)
	r := open(t, dir, Options{})
	tg := resolve(t, r, false, "")
	prev := scan(t, r, tg, nil)
	var wg sync.WaitGroup
	errs := make(chan error, 32)
	for i := range 8 {
		wg.Go(func() {
			var err error
			switch i % 4 {
			case 0:
				_, err = r.Scan(t.Context(), tg, nil)
			case 1:
				_, err = r.Refresh(t.Context(), prev, nil, "both.go", "lib")
			case 2:
				_, err = r.History(t.Context(), []string{"both.go", "lib"}, 10)
			default:
				_, err = r.ReadBase(t.Context(), tg, "both.go")
				if _, merr := r.Moved(); merr != nil {
					err = merr
				}
			}
			if err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestRefreshNoPrevious(t *testing.T) {
	r := open(t, refreshRepo(t), Options{})
	if _, err := r.Refresh(t.Context(), nil, nil, "a"); err == nil {
		t.Error("Refresh(nil) succeeded")
	}
	// Without a cached scan Refresh scans.
	tg := resolve(t, r, false, "")
	cs, err := r.Refresh(t.Context(), &review.ChangeSet{Target: tg}, nil, "clean.go")
	if err != nil || len(cs.Files) == 0 {
		t.Errorf("Refresh without a scan = %v, %v", cs, err)
	}
	if _, err := os.Stat(filepath.Join(r.Root(), "both.go")); err != nil {
		t.Fatal(err)
	}
}

func TestRefreshUnmergedAndSubmodule(t *testing.T) {
	sub := initRepo(t)
	write(t, sub, map[string]string{"lib.go": "package lib\n"})
	commitAll(t, sub, "lib")

	dir := initRepo(t)
	write(t, dir, map[string]string{"d/a.txt": "base\n", "d/b.txt": "b\n"})
	commitAll(t, dir, "init")
	runGit(t, dir, "-c", "protocol.file.allow=always", "submodule", "add", "-q", sub, "deps/lib")
	commitAll(t, dir, "submodule")
	runGit(t, dir, "checkout", "-q", "-b", "other")
	write(t, dir, map[string]string{"d/a.txt": "other\n"})
	commitAll(t, dir, "other")
	runGit(t, dir, "checkout", "-q", "main")
	write(t, dir, map[string]string{"d/a.txt": "main\n"})
	commitAll(t, dir, "main")
	mergeAllowingConflict(t, dir, "other")

	r := open(t, dir, Options{})
	tg := resolve(t, r, false, "")
	prev := scan(t, r, tg, nil)
	if f := prev.File("d/a.txt"); f == nil || !f.Unstaged || f.Content == nil {
		t.Fatalf("unmerged file = %+v", f)
	}
	write(t, dir, map[string]string{"d/a.txt": "resolved\n"})
	subDir := filepath.Join(dir, "deps", "lib")
	write(t, subDir, map[string]string{"lib.go": "package lib\n\nvar V = 1\n"})
	commitAll(t, subDir, "V")

	got, err := r.Refresh(t.Context(), prev, nil, "d", "deps/lib")
	if err != nil {
		t.Fatal(err)
	}
	want := scan(t, open(t, dir, Options{}), tg, nil)
	if diff := cmp.Diff(want, got, fileOpts); diff != "" {
		t.Errorf("Refresh differs from Scan (-scan +refresh):\n%s", diff)
	}
	if got.File("deps/lib") == nil || got.File("deps/lib").Skip != review.SkipSubmodule {
		t.Errorf("submodule not refreshed: %v", got.Paths())
	}
}
