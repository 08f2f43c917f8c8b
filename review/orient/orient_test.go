package orient

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reviewls/reviewls/review"
)

func changed(path string, status review.FileStatus, added, deleted int, lines ...int) *review.File {
	f := &review.File{Path: path, Status: status, Added: added, Deleted: deleted, Lines: map[int]review.LineState{}}
	for _, n := range lines {
		f.Lines[n] = review.LineUnstaged
	}
	return f
}

func TestAreasAndBoard(t *testing.T) {
	cs := &review.ChangeSet{Files: []*review.File{
		changed("README.md", review.StatusModified, 2, 1, 3),
		changed("go.mod", review.StatusModified, 1, 0, 5),
		changed("review/gitdiff/scan.go", review.StatusModified, 30, 2, 12, 13),
		changed("review/gitdiff/refresh.go", review.StatusUntracked, 80, 0, 1),
		changed("review/gitdiff/scan_test.go", review.StatusModified, 10, 0, 40),
		changed(".github/workflows/ci.yml", review.StatusAdded, 20, 0, 1),
		changed("main.go", review.StatusDeleted, 0, 9),
	}}
	cs.Sort()
	areas := Areas(cs, nil)
	var got []string
	for _, a := range areas {
		got = append(got, a.Kind+":"+a.Name+":"+strings.Join(a.Files, ","))
	}
	want := []string{
		"package:(root):main.go",
		"package:review/gitdiff:review/gitdiff/refresh.go,review/gitdiff/scan.go",
		"tests:tests:review/gitdiff/scan_test.go",
		"config:config:.github/workflows/ci.yml",
		"docs:docs:README.md",
		"dependencies:dependencies:go.mod",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("areas (-want +got):\n%s", diff)
	}
	board := Board(cs, areas)
	if len(board) != len(areas) {
		t.Fatalf("board has %d items for %d areas", len(board), len(areas))
	}
	pkg := board[1]
	if pkg.ID != "board-2" || pkg.Status != review.StatusPending || pkg.Register != review.Register2 {
		t.Errorf("item = %+v", pkg)
	}
	if diff := cmp.Diff([]string{"review/gitdiff/refresh.go:1", "review/gitdiff/scan.go:12"}, pkg.Links); diff != "" {
		t.Errorf("links (-want +got):\n%s", diff)
	}
	// The signal cites the strongest file and asks a question; a test
	// changed under the area, so it does not claim there is none.
	if !strings.Contains(pkg.PreliminarySignal, "review/gitdiff/refresh.go:1") || strings.Contains(pkg.PreliminarySignal, "no test") {
		t.Errorf("signal = %q", pkg.PreliminarySignal)
	}
	if pkg.Summary != "1 modified, 1 untracked in review/gitdiff (+110 −2)" {
		t.Errorf("summary = %q", pkg.Summary)
	}
	// A deleted file has no link to open.
	if len(board[0].Links) != 0 {
		t.Errorf("deleted file linked: %v", board[0].Links)
	}
	if !strings.Contains(board[0].PreliminarySignal, "no test in this area changed") {
		t.Errorf("root signal = %q", board[0].PreliminarySignal)
	}

	findings := []*review.Finding{{ID: "rv-1", Span: review.Span{Path: "review/gitdiff/scan.go", StartLine: 12}}}
	WalkBack(board, findings, true)
	if diff := cmp.Diff([]string{"rv-1"}, board[1].Findings); diff != "" {
		t.Errorf("walk-back (-want +got):\n%s", diff)
	}
	for _, it := range board {
		if it.Status != review.StatusComplete {
			t.Errorf("%s status %s after the sweep", it.ID, it.Status)
		}
	}
}
