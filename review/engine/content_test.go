package engine

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/reviewtest"
)

// todoFile returns a Python file of n lines with a TODO on line 3.
func todoFile(n int, eol string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		if i == 3 {
			b.WriteString("# TODO: old" + eol)
			continue
		}
		b.WriteString("x = 1" + eol)
	}
	return b.String()
}

// TestReviewConvertedWorkTree checks a one-line edit of a CRLF work tree
// file under core.autocrlf=true: one changed line, the only finding on it.
func TestReviewConvertedWorkTree(t *testing.T) {
	dir := repo(t, map[string]string{"a.py": todoFile(10, "\n")})
	reviewtest.Git(t, dir, "config", "core.autocrlf", "true")
	// The work tree as a checkout with autocrlf writes it, then one edit.
	crlf := todoFile(10, "\r\n")
	write(t, dir, "a.py", []byte(crlf))
	if res := run(t, dir, review.Request{}); len(res.ChangeSet.Files) != 0 {
		t.Fatalf("CRLF checkout: files %v, want none", res.ChangeSet.Paths())
	}
	lines := strings.SplitAfter(crlf, "\r\n")
	lines[6] = "# TODO: new\r\n"
	write(t, dir, "a.py", []byte(strings.Join(lines, "")))
	res := run(t, dir, review.Request{})
	f := res.ChangeSet.File("a.py")
	if f == nil || f.Added != 1 || f.Deleted != 1 {
		t.Fatalf("a.py = %+v, want +1 -1", f)
	}
	if got, want := findingLines(res), []string{"readiness/todo-added@a.py:7"}; !slices.Equal(got, want) {
		t.Errorf("findings %v, want %v", got, want)
	}
}

// TestReviewRenames checks that a moved file is reviewed as a rename: the
// finding on the line the move changed, none on the lines it kept.
func TestReviewRenames(t *testing.T) {
	moved := func(s string) string { return strings.Replace(s, "x = 1\n", "# TODO: new\n", 1) }
	t.Run("git mv", func(t *testing.T) {
		dir := repo(t, map[string]string{"pkg/old.py": todoFile(10, "\n")})
		reviewtest.Git(t, dir, "mv", "pkg/old.py", "pkg/new.py")
		write(t, dir, "pkg/new.py", []byte(moved(todoFile(10, "\n"))))
		res := run(t, dir, review.Request{})
		if got, want := findingLines(res), []string{"readiness/todo-added@pkg/new.py:1"}; !slices.Equal(got, want) {
			t.Errorf("findings %v, want %v", got, want)
		}
		if f := res.ChangeSet.File("pkg/new.py"); f == nil || f.Status != review.StatusRenamed || f.OldPath != "pkg/old.py" {
			t.Errorf("files %v", res.ChangeSet.Paths())
		}
	})
	t.Run("moved without git", func(t *testing.T) {
		dir := repo(t, map[string]string{"pkg/old.py": todoFile(10, "\n")})
		if err := os.Remove(filepath.Join(dir, "pkg", "old.py")); err != nil {
			t.Fatal(err)
		}
		write(t, dir, "lib/old.py", []byte(moved(todoFile(10, "\n"))))
		res := run(t, dir, review.Request{})
		if got, want := findingLines(res), []string{"readiness/todo-added@lib/old.py:1"}; !slices.Equal(got, want) {
			t.Errorf("findings %v, want %v", got, want)
		}
		if f := res.ChangeSet.File("lib/old.py"); f == nil || f.Status != review.StatusRenamed || f.Similarity == 0 {
			t.Errorf("lib/old.py = %+v", f)
		}
	})
}

// TestRenamedFileHistory checks that the history signal of a renamed file
// counts the commits that touched its old path.
func TestRenamedFileHistory(t *testing.T) {
	dir := repo(t, map[string]string{"old.py": todoFile(10, "\n")})
	for _, s := range []string{"1", "2"} {
		write(t, dir, "old.py", []byte(todoFile(10, "\n")+"# v"+s+"\n"))
		reviewtest.Git(t, dir, "commit", "-q", "-am", "edit "+s)
	}
	reviewtest.Git(t, dir, "mv", "old.py", "new.py")
	res := run(t, dir, review.Request{})
	var ev string
	for _, e := range res.Risk.Evidence {
		if e.Signal == review.SignalHistory {
			ev = e.Evidence
		}
	}
	if !strings.Contains(ev, "new.py (3 commits)") {
		t.Errorf("history evidence %q, want new.py touched by the 3 commits of old.py", ev)
	}
}
