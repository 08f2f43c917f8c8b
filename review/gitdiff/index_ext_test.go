package gitdiff

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// checkEntries compares the entries of the repository's index, as the Repo
// reads it, with `git ls-files --stage`.
func checkEntries(t *testing.T, dir string) {
	t.Helper()
	r := open(t, dir, Options{})
	idx, err := r.readIndex()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(lsFilesStage(t, dir), stageLines(idx)); diff != "" {
		t.Errorf("entries (-git +read):\n%s", diff)
	}
}

// stageLines renders the entries of idx as `git ls-files --stage` does.
func stageLines(idx *index) []string {
	var out []string
	for _, e := range idx.entries {
		out = append(out, fmt.Sprintf("%o %s %d\t%s", e.mode, e.hash, e.stage, e.name))
	}
	return out
}

// lsFilesStage runs `git ls-files --stage` in dir.
func lsFilesStage(t *testing.T, dir string) []string {
	t.Helper()
	return strings.Split(strings.TrimSpace(runGit(t, dir, "ls-files", "--stage")), "\n")
}

func TestSplitIndex(t *testing.T) {
	for _, version := range []string{"2", "3", "4"} {
		t.Run("v"+version, func(t *testing.T) {
			dir := initRepo(t)
			files := map[string]string{}
			for i := range 40 {
				files[fmt.Sprintf("d%d/f%02d.txt", i%4, i)] = fmt.Sprintf("%d\n", i)
			}
			write(t, dir, files)
			runGit(t, dir, "update-index", "--index-version", version)
			commitAll(t, dir, "init")
			runGit(t, dir, "update-index", "--split-index")
			shared, _ := filepath.Glob(filepath.Join(dir, ".git", "sharedindex.*"))
			if len(shared) == 0 {
				t.Fatal("no shared index written")
			}

			// Replaced (staged edits), deleted, added and intent-to-add
			// entries, then an unstaged edit and an untracked file.
			write(t, dir, map[string]string{"d0/f00.txt": "edit\n", "d1/f05.txt": "edit\n", "new/a.txt": "a\n", "d2/g.txt": "g\n", "ita.txt": "i\n"})
			runGit(t, dir, "add", "d0/f00.txt", "d1/f05.txt", "new/a.txt", "d2/g.txt")
			runGit(t, dir, "rm", "-q", "--cached", "d3/f03.txt", "d3/f07.txt")
			runGit(t, dir, "add", "-N", "ita.txt")
			write(t, dir, map[string]string{"d1/f09.txt": "unstaged\n", "untracked.txt": "u\n"})
			data, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
			if err != nil {
				t.Fatal(err)
			}
			idx, err := parseIndex(data)
			if err != nil || idx.link == nil {
				t.Fatalf("the index is not split: %v", err)
			}
			// Both kinds of split entries: replacements (nameless) and
			// additions.
			replaced := 0
			for _, e := range idx.entries {
				if e.name == "" {
					replaced++
				}
			}
			if replaced == 0 || replaced == len(idx.entries) {
				t.Fatalf("split index of %d entries, %d replacements", len(idx.entries), replaced)
			}
			checkEntries(t, dir)
			checkStatus(t, dir)

			// A commit, and more changes on top of the same shared index.
			commitAll(t, dir, "second")
			write(t, dir, map[string]string{"d0/f04.txt": "again\n"})
			runGit(t, dir, "add", "d0/f04.txt")
			checkEntries(t, dir)
			checkStatus(t, dir)
		})
	}
}

func TestSplitIndexErrors(t *testing.T) {
	dir := initRepo(t)
	write(t, dir, map[string]string{"a.txt": "a\n", "b.txt": "b\n"})
	commitAll(t, dir, "init")
	runGit(t, dir, "update-index", "--split-index")
	write(t, dir, map[string]string{"a.txt": "a2\n"})
	runGit(t, dir, "add", "a.txt")
	shared, _ := filepath.Glob(filepath.Join(dir, ".git", "sharedindex.*"))
	if len(shared) != 1 {
		t.Fatalf("shared indexes %v", shared)
	}
	data, err := os.ReadFile(shared[0])
	if err != nil {
		t.Fatal(err)
	}

	// A shared index that is not the one named.
	if err := os.WriteFile(shared[0], append(data[:len(data)-1:len(data)-1], data[len(data)-1]^1), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir, Options{}); err != nil {
		t.Fatal(err)
	}
	r := open(t, dir, Options{})
	_, err = r.Status(t.Context(), resolve(t, r, false, ""))
	if err == nil || !strings.Contains(err.Error(), "does not hold shared index") {
		t.Errorf("Status with a wrong shared index = %v", err)
	}
	// A missing one.
	remove(t, dir, strings.TrimPrefix(shared[0], dir+"/"))
	_, err = r.Status(t.Context(), resolve(t, r, false, ""))
	if err == nil || !strings.Contains(err.Error(), "shared index") || !strings.Contains(err.Error(), "is missing") {
		t.Errorf("Status without the shared index = %v", err)
	}
}

func TestSparseIndex(t *testing.T) {
	dir := initRepo(t)
	write(t, dir, map[string]string{
		"top.txt": "t\n", "in/a.txt": "a\n", "in/sub/b.txt": "b\n",
		"far/c.txt": "c\n", "far/deep/d.txt": "d\n", "other/e.txt": "e\n",
	})
	symlink(t, dir, "c.txt", "far/link")
	commitAll(t, dir, "init")
	write(t, dir, map[string]string{"far/c.txt": "c2\n", "other/e.txt": "e2\n"})
	commitAll(t, dir, "change outside the cone")
	runGit(t, dir, "sparse-checkout", "init", "--cone", "--sparse-index")
	runGit(t, dir, "sparse-checkout", "set", "in")
	if _, err := os.Stat(filepath.Join(dir, "far")); !os.IsNotExist(err) {
		t.Fatalf("far/ still checked out: %v", err)
	}
	data, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	if idx, err := parseIndex(data); err != nil || !idx.sparse {
		t.Fatalf("the index is not sparse: %v", err)
	}

	// The files outside the cone are tracked, not checked out, and not
	// deleted.
	write(t, dir, map[string]string{"in/a.txt": "a2\n", "in/new.txt": "n\n"})
	checkEntries(t, dir)
	checkStatus(t, dir)
	r := open(t, dir, Options{})
	files, err := r.TrackedFiles()
	if err != nil || !cmp.Equal(files, []string{"far/c.txt", "far/deep/d.txt", "far/link", "in/a.txt", "in/sub/b.txt", "other/e.txt", "top.txt"}) {
		t.Errorf("TrackedFiles = %v, %v", files, err)
	}

	// A branch diff reviews the committed change outside the cone from
	// the index, as git diff does.
	cs := scan(t, r, resolve(t, r, false, "HEAD~1"), nil)
	got := map[string]string{}
	for _, f := range cs.Files {
		got[f.Path] = fmt.Sprintf("%s +%d -%d %q", f.Status, f.Added, f.Deleted, f.Skip)
		if f.Path == "far/c.txt" && string(f.Content) != "c2\n" {
			t.Errorf("far/c.txt content %q", f.Content)
		}
	}
	want := map[string]string{
		"in/a.txt":    `modified +1 -1 ""`,
		"in/new.txt":  `untracked +1 -0 ""`,
		"other/e.txt": `modified +1 -1 ""`,
		"far/c.txt":   `modified +1 -1 ""`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("branch diff (-want +got):\n%s", diff)
	}
}

func TestSparseCheckoutWithoutSparseIndex(t *testing.T) {
	// Cone mode with a full index: skip-worktree entries outside the cone
	// are not deleted, and a branch diff reads them from the index.
	dir := initRepo(t)
	write(t, dir, map[string]string{"in/a.txt": "a\n", "far/c.txt": "c\n"})
	commitAll(t, dir, "init")
	write(t, dir, map[string]string{"far/c.txt": "c2\n"})
	commitAll(t, dir, "change outside the cone")
	runGit(t, dir, "sparse-checkout", "set", "--cone", "in")
	checkStatus(t, dir)
	r := open(t, dir, Options{})
	cs := scan(t, r, resolve(t, r, false, "HEAD~1"), nil)
	if len(cs.Files) != 1 || cs.Files[0].Path != "far/c.txt" || cs.Files[0].Skip != "" || string(cs.Files[0].Content) != "c2\n" {
		t.Errorf("branch diff %+v", cs.Files)
	}
}

func TestParseLinkTruncated(t *testing.T) {
	// An empty bitmap is 12 bytes: bit count, word count 0, last-RLW
	// position. Cut anywhere, a link extension is an error, never a read
	// past its end.
	link := make([]byte, 20)
	empty := []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}
	link = append(append(link, empty...), empty...)
	if l, err := parseLink(link); err != nil || len(l.del) != 0 || len(l.repl) != 0 {
		t.Fatalf("parseLink of two empty bitmaps = %+v, %v", l, err)
	}
	for n := 21; n < len(link); n++ {
		if _, err := parseLink(link[:n]); err == nil {
			t.Errorf("parseLink of %d of %d bytes: no error", n, len(link))
		}
	}
}

func TestEWAHEach(t *testing.T) {
	// Bits 1 and 3 of a literal word, a run of 64 set bits, then bit 0 of
	// a literal: positions 1, 3, 64-127, 128.
	w := ewah{1 << 33, 0b1010, 1 | 1<<1 | 1<<33, 1}
	var got []int
	if err := w.each(129, func(pos int) error { got = append(got, pos); return nil }); err != nil {
		t.Fatal(err)
	}
	want := []int{1, 3}
	for i := 64; i < 128; i++ {
		want = append(want, i)
	}
	want = append(want, 128)
	if !cmp.Equal(got, want) {
		t.Errorf("bits %v, want %v", got, want)
	}
	// A bit past the entries, a run past them, literals past the words.
	for _, bad := range []ewah{{1 << 33, 1 << 20}, {1 | 100<<1}, {5 << 33, 0}} {
		if err := bad.each(16, func(int) error { return nil }); err == nil {
			t.Errorf("each(%x) accepted", []uint64(bad))
		}
	}
	// A run of zeros past the end is harmless.
	if err := (ewah{1000 << 1}).each(16, func(int) error { t.Fatal("no bit is set"); return nil }); err != nil {
		t.Errorf("zero run: %v", err)
	}
}
