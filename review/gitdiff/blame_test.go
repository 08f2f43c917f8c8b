package gitdiff

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/reviewtest"
)

// commitDated stages everything and commits with author and committer
// time 1e9 + n minutes, and author name author ("" for the fixed one).
func commitDated(t testing.TB, dir string, n int, author, msg string) {
	t.Helper()
	date := fmt.Sprintf("%d +0000", 1_000_000_000+60*n)
	env := []string{"GIT_AUTHOR_DATE=" + date, "GIT_COMMITTER_DATE=" + date}
	if author != "" {
		env = append(env, "GIT_AUTHOR_NAME="+author)
	}
	runGit(t, dir, "add", "-A")
	reviewtest.GitEnv(t, dir, env, "commit", "-q", "--allow-empty", "-m", msg)
}

// gitBlame returns the origin of every line of path at rev by `git blame
// --first-parent --line-porcelain`, as LineHistory should report it: lines
// blamed on a shallow boundary commit, or on a commit outside the first
// limit commits of the first-parent history of rev (when limit > 0), are
// unknown.
func gitBlame(t *testing.T, dir, rev, path string, limit int) []LineOrigin {
	t.Helper()
	out := runGit(t, dir, "blame", "--first-parent", "--line-porcelain", rev, "--", path)
	var hashes []string
	header := true
	for line := range strings.SplitSeq(out, "\n") {
		switch {
		case header && len(line) >= 40:
			hashes = append(hashes, line[:40])
			header = false
		case strings.HasPrefix(line, "\t"):
			header = true
		}
	}
	unknown := map[string]bool{}
	if b, err := os.ReadFile(filepath.Join(dir, ".git", "shallow")); err == nil {
		for h := range strings.FieldsSeq(string(b)) {
			unknown[h] = true
		}
	}
	var examined map[string]bool
	if limit > 0 {
		examined = map[string]bool{}
		for h := range strings.FieldsSeq(runGit(t, dir, "rev-list", "--first-parent", "-n", fmt.Sprint(limit), rev)) {
			examined[h] = true
		}
	}
	commits := map[string]LineOrigin{}
	var want []LineOrigin
	for i, h := range hashes {
		o := LineOrigin{Line: i + 1}
		if !unknown[h] && (examined == nil || examined[h]) {
			c, ok := commits[h]
			if !ok {
				f := strings.Split(runGit(t, dir, "log", "-1", "--format=%an%x00%at%x00%s", h), "\x00")
				var when int64
				fmt.Sscan(f[1], &when)
				c = LineOrigin{Commit: h, Author: f[0], When: when, Subject: strings.TrimSpace(f[2])}
				commits[h] = c
			}
			o.Commit, o.Author, o.When, o.Subject = c.Commit, c.Author, c.When, c.Subject
		}
		want = append(want, o)
	}
	return want
}

// checkLineHistory compares LineHistory for every line of path at base
// (plus lines out of range) with git blame.
func checkLineHistory(t *testing.T, r *Repo, dir, base, path string, limit int) {
	t.Helper()
	sha := strings.TrimSpace(runGit(t, dir, "rev-parse", base))
	want := gitBlame(t, dir, sha, path, limit)
	lines := []int{0, len(want) + 1}
	for i := range want {
		lines = append(lines, len(want)-i)
	}
	got, err := r.LineHistory(t.Context(), review.Target{BaseSHA: sha}, path, lines, limit)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("LineHistory(%s at %s, limit %d) differs from git blame (-git +LineHistory):\n%s", path, base, limit, diff)
	}
}

// lineHistoryRepo builds a history of ten commits (one a merge) touching
// different lines of a few files.
func lineHistoryRepo(t *testing.T) string {
	t.Helper()
	dir := initRepo(t)
	a := []string{
		"package a", "", "func one() int {", "\treturn 1", "}", "",
		"func two() int {", "\treturn 2", "}", "", "func three() int {", "\treturn 3", "}",
	}
	text := func(lines []string) string { return strings.Join(lines, "\n") + "\n" }
	write(t, dir, map[string]string{
		"a.go":     text(a),
		"b.txt":    "b1\nb2\nb3\nb4\n",
		"d/c.txt":  "c1\nc2\nc3\nc4\nc5\n",
		"other.md": "o\n",
	})
	commitDated(t, dir, 1, "", "root")

	a[3] = "\treturn 11"
	write(t, dir, map[string]string{"a.go": text(a)})
	commitDated(t, dir, 2, "Ann", "edit one")

	a = append([]string{"// Package a.", "//"}, a...)
	write(t, dir, map[string]string{"a.go": text(a), "b.txt": "b1\nB2\nb3\nb4\n"})
	commitDated(t, dir, 3, "Bob", "insert above")

	write(t, dir, map[string]string{"other.md": "o2\n"})
	commitDated(t, dir, 4, "", "touch other")

	remove(t, dir, "b.txt")
	commitDated(t, dir, 5, "", "delete b")

	write(t, dir, map[string]string{"b.txt": "b1\nnew\nb3\n"})
	commitDated(t, dir, 6, "", "re-add b")

	gitMv(t, dir, "d/c.txt", "e/c.txt")
	commitDated(t, dir, 7, "", "rename c")

	runGit(t, dir, "checkout", "-q", "-b", "side")
	side := append([]string(nil), a...)
	side[len(side)-2] = "\treturn 33"
	write(t, dir, map[string]string{"a.go": text(side)})
	commitDated(t, dir, 8, "Sid", "side edit")
	runGit(t, dir, "checkout", "-q", "main")
	a[5] = "\treturn 111"
	write(t, dir, map[string]string{"a.go": text(a)})
	commitDated(t, dir, 9, "", "main edit")
	reviewtest.GitEnv(t, dir, []string{"GIT_AUTHOR_DATE=1000000600 +0000", "GIT_COMMITTER_DATE=1000000600 +0000"},
		"merge", "-q", "--no-ff", "-m", "merge side", "side")
	a = strings.Split(strings.TrimSuffix(readFile(t, dir, "a.go"), "\n"), "\n")

	// Delete a function, add one with the same closing lines, and edit c.
	a = append(a[:8], a[12:]...)
	a = append(a, "", "func four() int {", "\treturn 4", "}")
	write(t, dir, map[string]string{"a.go": text(a), "e/c.txt": "c1\nC2\nc3\nc4\nc5\n"})
	commitDated(t, dir, 11, "", "edit c")

	a = append(a, "", "func five() int {", "\treturn 5", "}")
	write(t, dir, map[string]string{"a.go": text(a)})
	commitDated(t, dir, 12, "", "append")
	return dir
}

// gitMv runs git mv, creating the destination's directory.
func gitMv(t *testing.T, dir, from, to string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, filepath.FromSlash(to))), 0o755); err != nil {
		t.Fatal(err)
	}
	runGit(t, dir, "mv", from, to)
}

func readFile(t *testing.T, dir, p string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestLineHistory(t *testing.T) {
	dir := lineHistoryRepo(t)
	r := open(t, dir, Options{})
	files := []string{"a.go", "b.txt", "e/c.txt", "other.md"}
	for _, p := range files {
		for _, limit := range []int{0, 1, 2, 3, 5, 8} {
			checkLineHistory(t, r, dir, "HEAD", p, limit)
		}
	}
	// An older base; before the rename and the re-addition.
	checkLineHistory(t, r, dir, "HEAD~2", "a.go", 0)
	checkLineHistory(t, r, dir, "HEAD~2^2", "a.go", 0)
	checkLineHistory(t, r, dir, "HEAD~5", "d/c.txt", 0)
	checkLineHistory(t, r, dir, "HEAD~7", "b.txt", 0)

	// A local review's target (its base is HEAD), lines in any order,
	// repeated or out of range. The line from the side branch has its
	// origin in the merge.
	all := gitBlame(t, dir, "HEAD", "a.go", 0)
	merged := slices.IndexFunc(all, func(o LineOrigin) bool { return o.Subject == "merge side" }) + 1
	if merged == 0 {
		t.Fatalf("git blames no line of a.go on the merge: %+v", all)
	}
	tg := resolve(t, r, false, "")
	got, err := r.LineHistory(t.Context(), tg, "a.go", []int{merged, 1, merged, -3, 1000, 3}, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []LineOrigin{all[0], all[2], all[merged-1]}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("LineHistory(a.go: %d, 1, %[1]d, -3, 1000, 3) (-want +got):\n%s", merged, diff)
	}

	// No such file at the base: nothing.
	for _, p := range []string{"nope.txt", "e", "d/c.txt", "../a.go", ".git/HEAD", ""} {
		if got, err := r.LineHistory(t.Context(), tg, p, []int{1}, 0); err != nil || len(got) != 0 {
			t.Errorf("LineHistory(%q) = %+v, %v", p, got, err)
		}
	}
}

// TestLineHistoryConcurrent runs LineHistory beside scans and
// TrackedFiles on one Repo (for the race detector), and checks that a
// cancelled context stops it.
func TestLineHistoryConcurrent(t *testing.T) {
	dir := lineHistoryRepo(t)
	r := open(t, dir, Options{})
	tg := resolve(t, r, false, "")
	want, err := r.LineHistory(t.Context(), tg, "a.go", []int{1, 3, 6}, 0)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			got, err := r.LineHistory(t.Context(), tg, "a.go", []int{1, 3, 6}, 0)
			if err != nil || !cmp.Equal(want, got) {
				t.Errorf("concurrent LineHistory = %+v, %v", got, err)
			}
		})
		wg.Go(func() {
			if _, err := r.Scan(t.Context(), tg, nil); err != nil {
				t.Error(err)
			}
			if _, err := r.TrackedFiles(); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()

	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := r.LineHistory(ctx, tg, "a.go", []int{1}, 0); !errors.Is(err, context.Canceled) {
		t.Errorf("LineHistory with a cancelled context: %v", err)
	}
}

func TestLineHistoryShallow(t *testing.T) {
	dir := lineHistoryRepo(t)
	for _, depth := range []int{1, 2, 4} {
		clone := filepath.Join(t.TempDir(), "clone")
		runGit(t, dir, "clone", "-q", "--depth", fmt.Sprint(depth), "file://"+dir, clone)
		r := open(t, clone, Options{})
		for _, p := range []string{"a.go", "e/c.txt"} {
			checkLineHistory(t, r, clone, "HEAD", p, 0)
			checkLineHistory(t, r, clone, "HEAD", p, 1)
		}
	}
}

func TestLineHistoryUnborn(t *testing.T) {
	dir := initRepo(t)
	write(t, dir, map[string]string{"a.txt": "a\n"})
	runGit(t, dir, "add", "a.txt")
	r := open(t, dir, Options{})
	tg := resolve(t, r, false, "")
	if !tg.Unborn {
		t.Fatalf("target %+v is not unborn", tg)
	}
	if got, err := r.LineHistory(t.Context(), tg, "a.txt", []int{1}, 0); err != nil || len(got) != 0 {
		t.Errorf("LineHistory on an unborn HEAD = %+v, %v", got, err)
	}
}

// TestLineHistoryRenames checks the documented limits: an exact rename is
// followed (as git blame does), a rename with edits is not (git blame
// follows it, detecting similar content).
func TestLineHistoryRenames(t *testing.T) {
	dir := initRepo(t)
	write(t, dir, map[string]string{"old/x.txt": "1\n2\n3\n4\n5\n6\n", "keep.txt": "k\n"})
	commitDated(t, dir, 1, "", "root")
	gitMv(t, dir, "old/x.txt", "new/y.txt")
	commitDated(t, dir, 2, "", "exact rename")
	checkLineHistory(t, open(t, dir, Options{}), dir, "HEAD", "new/y.txt", 0)

	gitMv(t, dir, "new/y.txt", "z.txt")
	write(t, dir, map[string]string{"z.txt": "1\n2\n3\n4\n5\nsix\n"})
	commitDated(t, dir, 3, "", "rename with an edit")
	r := open(t, dir, Options{})
	got, err := r.LineHistory(t.Context(), resolve(t, r, false, ""), "z.txt", []int{1, 6}, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range got {
		if o.Subject != "rename with an edit" {
			t.Errorf("line %d: origin %q, want the renaming commit", o.Line, o.Subject)
		}
	}
}

// TestLineHistoryLineEnds checks lines that differ only in their end: a
// final newline added or removed, a CR before the newline.
func TestLineHistoryLineEnds(t *testing.T) {
	dir := initRepo(t)
	for i, content := range []string{"a\nb\nc", "a\nb\nc\n", "a\r\nb\nc\nd", "a\r\nb\r\nc\nd\n", "x\na\r\nb\r\nc\nd"} {
		write(t, dir, map[string]string{"f.txt": content})
		commitDated(t, dir, i, "", fmt.Sprint("version ", i))
	}
	checkLineHistory(t, open(t, dir, Options{}), dir, "HEAD", "f.txt", 0)
}

// TestLineHistoryRandom compares LineHistory with git blame on files
// edited at random (seeded) over 25 commits, with lines drawn from a small
// vocabulary so that the diffs have ambiguous alignments to get right.
func TestLineHistoryRandom(t *testing.T) {
	vocab := []string{"}", "", "\treturn nil", "\tif err != nil {", "x := 1", "y := 2", "// c", "func f() {"}
	for seed := range int64(6) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewSource(seed))
			dir := initRepo(t)
			var lines []string
			for range 30 {
				lines = append(lines, vocab[rng.Intn(len(vocab))])
			}
			for c := range 25 {
				if c > 0 {
					for range 1 + rng.Intn(3) {
						i := rng.Intn(len(lines) + 1)
						switch op := rng.Intn(3); {
						case op == 0 || len(lines) < 5:
							lines = append(lines[:i], append([]string{vocab[rng.Intn(len(vocab))]}, lines[i:]...)...)
						case op == 1 && i < len(lines):
							lines = append(lines[:i], lines[i+1:]...)
						case i < len(lines):
							lines[i] = fmt.Sprintf("line %d.%d", c, i)
						}
					}
				}
				write(t, dir, map[string]string{"sub/f.go": strings.Join(lines, "\n") + "\n", "n.txt": fmt.Sprint(c)})
				commitDated(t, dir, c, "", fmt.Sprintf("commit %d", c))
			}
			r := open(t, dir, Options{})
			checkLineHistory(t, r, dir, "HEAD", "sub/f.go", 0)
			checkLineHistory(t, r, dir, "HEAD", "sub/f.go", 10)
		})
	}
}

// BenchmarkLineHistory asks for 10 lines of a file whose 200 commits of
// history (made with git fast-import, among 2000 other files) each changed
// another line: the walk goes back to the root, diffing at every commit.
func BenchmarkLineHistory(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "repo")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	runGit(b, dir, "init", "-q")
	const commits, files, size = 200, 2000, 500
	target := benchDir(7, files) + "/target.go"
	text := make([]string, size)
	for i := range text {
		text[i] = fmt.Sprintf("\tline(%d)\n", i)
	}
	var stream strings.Builder
	blob := func(p, content string) {
		fmt.Fprintf(&stream, "M 100644 inline %s\ndata %d\n%s\n", p, len(content), content)
	}
	for c := range commits {
		fmt.Fprintf(&stream, "commit refs/heads/main\ncommitter t <t@t> %d +0000\ndata 9\ncommit %02d\n", 1000000+c, c%100)
		if c == 0 {
			for f := range files {
				blob(fmt.Sprintf("%s/f%d.txt", benchDir(f, files), f), fmt.Sprintf("file %d\n", f))
			}
		} else {
			// 37 is prime to size: each commit changes a line never
			// changed before.
			text[c*37%size] = fmt.Sprintf("\tchanged(%d)\n", c)
			f := c * 7919 % files
			blob(fmt.Sprintf("%s/f%d.txt", benchDir(f, files), f), fmt.Sprintf("file %d version %d\n", f, c))
		}
		blob(target, strings.Join(text, ""))
	}
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(stream.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("fast-import: %v\n%s", err, out)
	}
	runGit(b, dir, "reset", "-q", "--hard", "main")
	runGit(b, dir, "gc", "-q")
	r := open(b, dir, Options{})
	tg := resolve(b, r, false, "")
	// Lines 2..11 (0-based 1..10) are never changed: their origin is the
	// root commit, 200 commits back.
	lines := []int{2, 3, 4, 5, 6, 7, 8, 9, 10, 11}
	b.Run("LineHistory", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			got, err := r.LineHistory(b.Context(), tg, target, lines, 0)
			if err != nil {
				b.Fatal(err)
			}
			if len(got) != len(lines) || got[0].Subject != "commit 00" {
				b.Fatalf("LineHistory = %+v", got)
			}
		}
	})
	// The git binary on the same question, for comparison (it includes
	// starting the process).
	b.Run("git", func(b *testing.B) {
		for b.Loop() {
			runGit(b, dir, "blame", "--first-parent", "-s", "-L", "2,11", "--", target)
		}
	})
}
