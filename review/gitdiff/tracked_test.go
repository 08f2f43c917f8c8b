package gitdiff

import (
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// gitLsFiles returns `git ls-files` without submodules, without the paths
// filter leaves out, and with unmerged paths once (git lists every stage).
func gitLsFiles(t *testing.T, dir string, filter pathFilter) []string {
	t.Helper()
	gitlinks := map[string]bool{}
	for line := range strings.SplitSeq(runGit(t, dir, "ls-files", "-s", "-z"), "\x00") {
		// "<mode> <hash> <stage>\t<path>"
		if meta, p, ok := strings.Cut(line, "\t"); ok && strings.HasPrefix(meta, "160000 ") {
			gitlinks[p] = true
		}
	}
	var out []string
	for p := range strings.SplitSeq(strings.TrimSuffix(runGit(t, dir, "ls-files", "-z"), "\x00"), "\x00") {
		if p != "" && !gitlinks[p] && !filter.excluded(p) && (len(out) == 0 || out[len(out)-1] != p) {
			out = append(out, p)
		}
	}
	return out
}

func checkTracked(t *testing.T, r *Repo, dir string, ignore []string) {
	t.Helper()
	got, err := r.TrackedFiles()
	if err != nil {
		t.Fatal(err)
	}
	want := gitLsFiles(t, dir, newPathFilter(ignore, nil))
	if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("TrackedFiles differs from git ls-files (-git +TrackedFiles):\n%s", diff)
	}
}

func TestTrackedFiles(t *testing.T) {
	sub := initRepo(t)
	write(t, sub, map[string]string{"lib.go": "package lib\n"})
	commitAll(t, sub, "lib")

	dir := initRepo(t)
	write(t, dir, map[string]string{
		"a.txt": "base\n", "b.txt": "b\n", "d/e/f.go": "package f\n", "d/e.go": "package d\n",
		"with space.txt": "s\n", "ünï.txt": "u\n", "a-b/c.d": "c\n", "a0": "0\n",
		"vendor/x/y.go": "package y\n", "gen/z.pb.go": "package gen\n", "docs/r.md": "# r\n",
		"skip.txt": "s\n", "gone.txt": "g\n",
	})
	commitAll(t, dir, "init")
	runGit(t, dir, "-c", "protocol.file.allow=always", "submodule", "add", "-q", sub, "deps/lib")
	commitAll(t, dir, "submodule")
	runGit(t, dir, "checkout", "-q", "-b", "other")
	write(t, dir, map[string]string{"a.txt": "other\n"})
	commitAll(t, dir, "other")
	runGit(t, dir, "checkout", "-q", "main")
	write(t, dir, map[string]string{"a.txt": "main\n"})
	commitAll(t, dir, "main")
	mergeAllowingConflict(t, dir, "other")
	// Entries git lists: intent-to-add, skip-worktree, deleted from the
	// work tree but not from the index; reviewls's own folder, forced in.
	write(t, dir, map[string]string{"n.txt": "new\n", ".copilot-tracking/x.md": "x\n", "untracked.txt": "u\n"})
	runGit(t, dir, "add", "-N", "n.txt")
	runGit(t, dir, "add", "-f", ".copilot-tracking/x.md")
	runGit(t, dir, "update-index", "--skip-worktree", "skip.txt")
	remove(t, dir, "gone.txt")

	if out := runGit(t, dir, "ls-files", "-u"); !strings.Contains(out, "\ta.txt") {
		t.Fatalf("a.txt is not unmerged:\n%s", out)
	}

	// Read from the index file.
	r := open(t, dir, Options{})
	checkTracked(t, r, dir, nil)
	got, _ := r.TrackedFiles()
	for _, p := range got {
		if p == "deps/lib" || strings.HasPrefix(p, ".copilot-tracking") {
			t.Errorf("TrackedFiles lists %s", p)
		}
	}

	// From the cached index of a scan, and again after the index moved.
	scan(t, r, resolve(t, r, false, ""), nil)
	checkTracked(t, r, dir, nil)
	write(t, dir, map[string]string{"later.txt": "l\n"})
	runGit(t, dir, "add", "later.txt")
	if moved, err := r.Moved(); err != nil || !moved {
		t.Fatalf("Moved = %v, %v", moved, err)
	}
	checkTracked(t, r, dir, nil)

	// Options.Ignore.
	ignore := []string{"vendor/**", "**/*.pb.go", "docs/*.md", "a?txt", "d/**"}
	ri := open(t, dir, Options{Ignore: ignore})
	checkTracked(t, ri, dir, ignore)
	scan(t, ri, resolve(t, ri, false, ""), nil)
	checkTracked(t, ri, dir, ignore)
}

func TestTrackedFilesUnbornAndEmpty(t *testing.T) {
	dir := initRepo(t)
	r := open(t, dir, Options{})
	if got, err := r.TrackedFiles(); err != nil || len(got) != 0 {
		t.Errorf("TrackedFiles of an empty repository = %q, %v", got, err)
	}
	write(t, dir, map[string]string{"a.txt": "a\n", "b/c.txt": "c\n"})
	runGit(t, dir, "add", "-A")
	checkTracked(t, r, dir, nil)
	scan(t, r, resolve(t, r, false, ""), nil)
	checkTracked(t, r, dir, nil)
}

// TestGlobFilter checks that the per-directory shortcuts of globFilter
// decide as pathFilter does.
func TestGlobFilter(t *testing.T) {
	globs := []string{
		"vendor/**", "**/*.pb.go", "docs/*.md", "a?txt", "**/testdata/**", "*.lock",
		"{build,dist}/**", "**/gen", "src/**/x.go", "**/[a-c].txt", "**/*.{js,ts}", "x/**/y/**",
		"**/Makefile", "*/*_test.go", `a\\*b`, "**/*", "src/", "**", "x*/**", "*.txt/**",
	}
	parts := []string{"vendor", "docs", "testdata", "build", "dist", "gen", "src", "x", "y", "a", "b.txt", "a.txt", "f.pb.go", "r.md", "go.lock", "m.js", "n.ts", "x.go", ".copilot-tracking",
		"Makefile", "a_test.go", "a*b", `a\\*b`, "xy", "t.txt"}
	rng := rand.New(rand.NewSource(1))
	for range 300 {
		ignore := []string{}
		for _, g := range globs {
			if rng.Intn(3) == 0 {
				ignore = append(ignore, g)
			}
		}
		want, got := newPathFilter(ignore, nil), newGlobFilter(ignore)
		for range 50 {
			n := 1 + rng.Intn(4)
			var p []string
			for range n {
				p = append(p, parts[rng.Intn(len(parts))])
			}
			path := strings.Join(p, "/")
			k := strings.LastIndexByte(path, '/')
			dir, last := path[:max(k, 0)], path[k+1:]
			if w, g := want.excluded(path), got.dirExcluded(dir) || got.fileExcluded(path, last); w != g {
				t.Errorf("globs %q, path %s: excluded %v, want %v", ignore, path, g, w)
			}
		}
	}
}

// BenchmarkTrackedFiles lists the files of a 40,000-entry index (written
// by git update-index from generated names, without a work tree), read
// from the file and from the cached state of a scan, with and without
// ignore globs.
func BenchmarkTrackedFiles(b *testing.B) {
	const n = 40000
	dir := filepath.Join(b.TempDir(), "repo")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	runGit(b, dir, "init", "-q")
	blob := strings.TrimSpace(runGit(b, dir, "hash-object", "-w", "--stdin"))
	var list strings.Builder
	for i := range n {
		fmt.Fprintf(&list, "100644 %s\t%s/file%d.go\n", blob, benchDir(i, n), i)
	}
	cmd := exec.Command("git", "update-index", "--index-info")
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(list.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("update-index: %v\n%s", err, out)
	}
	ignore := []string{"pkg07/**", "**/*.pb.go", "**/testdata/**"}
	for _, tc := range []struct {
		name   string
		ignore []string
	}{{"plain", nil}, {"ignore", ignore}} {
		b.Run(tc.name+"/read", func(b *testing.B) {
			r := open(b, dir, Options{Ignore: tc.ignore})
			b.ReportAllocs()
			for b.Loop() {
				if got, err := r.TrackedFiles(); err != nil || len(got) < n*9/10 {
					b.Fatalf("%d files, %v", len(got), err)
				}
			}
		})
		b.Run(tc.name+"/cached", func(b *testing.B) {
			r := open(b, dir, Options{Ignore: tc.ignore})
			// The state of a staged scan: the index, without the walk.
			if _, err := r.Status(b.Context(), resolve(b, r, true, "")); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if got, err := r.TrackedFiles(); err != nil || len(got) < n*9/10 {
					b.Fatalf("%d files, %v", len(got), err)
				}
			}
		})
	}
}

// TestCommittedFiles checks the listing behind baselines against `git
// ls-tree -r HEAD`: the committed tree, whatever the index and the work
// tree hold; submodules, ignored paths and reviewls's own folder left out;
// and the content read from the commit, with a review's skips.
func TestCommittedFiles(t *testing.T) {
	sub := initRepo(t)
	write(t, sub, map[string]string{"lib.go": "package lib\n"})
	commitAll(t, sub, "lib")

	dir := initRepo(t)
	r := open(t, dir, Options{})
	if got, err := r.CommittedFiles(t.Context(), ""); err != nil || len(got) != 0 {
		t.Errorf("CommittedFiles of an unborn HEAD = %v, %v", got, err)
	}
	write(t, dir, map[string]string{
		"a.txt": "committed\n", "a-b/c.d": "c\n", "a/b.txt": "b\n", "a.b/c": "c\n", "vendor/v.go": "package v\n",
		"gen.go": "// Code generated by x. DO NOT EDIT.\n\npackage gen\n", "bin.dat": "\x00\x01",
		".copilot-tracking/x.md": "x\n", "docs/r.md": "# r\n",
	})
	if err := os.Symlink("a.txt", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	runGit(t, dir, "add", "-A")
	runGit(t, dir, "add", "-f", ".copilot-tracking/x.md")
	runGit(t, dir, "commit", "-q", "-m", "init")
	runGit(t, dir, "-c", "protocol.file.allow=always", "submodule", "add", "-q", sub, "deps/lib")
	commitAll(t, dir, "submodule")
	// Staged and work tree edits are not committed.
	write(t, dir, map[string]string{"a.txt": "staged\n", "new.txt": "staged\n"})
	runGit(t, dir, "add", "a.txt", "new.txt")
	write(t, dir, map[string]string{"a.txt": "work tree\n"})
	remove(t, dir, "a-b/c.d")

	head := strings.TrimSpace(runGit(t, dir, "rev-parse", "HEAD"))
	for _, ignore := range [][]string{nil, {"docs/**", "a?txt"}} {
		r := open(t, dir, Options{Ignore: ignore})
		files, err := r.CommittedFiles(t.Context(), head)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		read := map[string]*TrackedFile{}
		for _, f := range files {
			got = append(got, f.Path)
			if read[f.Path], err = r.ReadCommitted(f); err != nil {
				t.Fatal(err)
			}
		}
		filter := newPathFilter(ignore, nil)
		var want []string
		for line := range strings.SplitSeq(strings.TrimSuffix(runGit(t, dir, "ls-tree", "-r", "-z", "HEAD"), "\x00"), "\x00") {
			// "<mode> <type> <hash>\t<path>"
			meta, p, _ := strings.Cut(line, "\t")
			if !strings.HasPrefix(meta, "160000 ") && !filter.excluded(p) {
				want = append(want, p)
			}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("ignore %q: CommittedFiles differs from git ls-tree (-git +CommittedFiles):\n%s", ignore, diff)
		}
		if f := read["a.txt"]; ignore == nil && (f == nil || string(f.Content) != "committed\n") {
			t.Errorf("a.txt read as %+v, want the committed content", f)
		}
		for p, skip := range map[string]string{"vendor/v.go": "vendored", "gen.go": "generated", "bin.dat": "binary", "link": "symlink"} {
			if f := read[p]; f == nil || f.Content != nil || !strings.Contains(f.Skip.String(), skip) {
				t.Errorf("%s read as %+v, want skipped as %s", p, f, skip)
			}
		}
	}
}
