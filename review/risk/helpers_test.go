package risk

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/reviewls/reviewls/internal/treetest"
	"github.com/reviewls/reviewls/review"
)

// file builds a changed file whose given lines are changed; with no lines
// listed, an added or untracked file has every line changed and a modified
// file has none.
func file(p string, status review.FileStatus, content string, changed ...int) *review.File {
	f := &review.File{Path: p, Status: status, Content: []byte(content), Lines: map[int]review.LineState{}}
	if len(changed) == 0 && (status == review.StatusAdded || status == review.StatusUntracked) {
		for i := 1; i <= strings.Count(content, "\n"); i++ {
			changed = append(changed, i)
		}
	}
	for _, n := range changed {
		f.Lines[n] = review.LineUnstaged
	}
	f.Added = len(changed)
	return f
}

// edit builds a modified file from a one-hunk diff: old lines are deleted,
// new lines added at line 1.
func edit(p string, oldLines, newLines []string) *review.File {
	h := review.Hunk{OldStart: 1, OldLines: len(oldLines), NewStart: 1, NewLines: len(newLines)}
	for _, l := range oldLines {
		h.Lines = append(h.Lines, "-"+l)
	}
	for _, l := range newLines {
		h.Lines = append(h.Lines, "+"+l)
	}
	f := &review.File{Path: p, Status: review.StatusModified, Hunks: []review.Hunk{h},
		Content: []byte(strings.Join(newLines, "\n") + "\n"), Lines: map[int]review.LineState{},
		Added: len(newLines), Deleted: len(oldLines)}
	for i := range newLines {
		f.Lines[i+1] = review.LineUnstaged
	}
	return f
}

// lines returns n lines of Go code.
func lines(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString("\tx := ")
		b.WriteString(strings.Repeat("1", i%5+1))
		b.WriteString("\n")
	}
	return b.String()
}

func changeSet(root string, files ...*review.File) *review.ChangeSet {
	cs := &review.ChangeSet{Root: root, Files: files}
	cs.Sort()
	return cs
}

// writeFile writes a file under root, creating directories, and sets its
// modification time.
func writeFile(t testing.TB, root, p, content string, mtime time.Time) {
	t.Helper()
	treetest.WriteFile(t, root, p, []byte(content))
	full := filepath.Join(root, filepath.FromSlash(p))
	if err := os.Chtimes(full, mtime, mtime); err != nil {
		t.Fatal(err)
	}
}

func evidence(r *review.Risk, s review.Signal) review.Evidence {
	for _, e := range r.Evidence {
		if e.Signal == s {
			return e
		}
	}
	return review.Evidence{}
}

func classesOf(r *review.Risk, p string) []string {
	for _, h := range r.Hotspots {
		if h.Path == p {
			return h.Classes
		}
	}
	return nil
}

func specialist(r *review.Risk, concern string) *review.SpecialistSignal {
	i := slices.IndexFunc(r.Specialist, func(s review.SpecialistSignal) bool { return s.Concern == concern })
	if i < 0 {
		return nil
	}
	return &r.Specialist[i]
}

// fullHistory is an available history that touches nothing.
var fullHistory = &review.History{Available: true, Limit: 100}

var (
	past   = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	future = time.Date(2025, 1, 2, 0, 0, 0, 0, time.UTC)
)

// wantContains fails unless s contains every substring of want.
func wantContains(t *testing.T, what, s string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(s, w) {
			t.Errorf("%s = %q\nwant it to contain %q", what, s, w)
		}
	}
}

func wantNotContains(t *testing.T, what, s string, bad ...string) {
	t.Helper()
	for _, w := range bad {
		if strings.Contains(s, w) {
			t.Errorf("%s = %q\nwant it not to contain %q", what, s, w)
		}
	}
}
