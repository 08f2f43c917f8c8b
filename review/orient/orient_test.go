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
	cs := &review.ChangeSet{Root: "/src/reviewls", Files: []*review.File{
		changed("README.md", review.StatusModified, 2, 1, 3),
		changed("go.mod", review.StatusModified, 1, 0, 5),
		changed("review/gitdiff/scan.go", review.StatusModified, 30, 2, 12, 13),
		changed("review/gitdiff/refresh.go", review.StatusUntracked, 80, 0, 1),
		changed("review/gitdiff/scan_test.go", review.StatusModified, 10, 0, 40),
		changed(".github/workflows/ci.yml", review.StatusAdded, 20, 0, 1),
		changed("main.go", review.StatusDeleted, 0, 9),
		changed("args_test.go", review.StatusModified, 4, 0, 7),
		changed("py/cart.py", review.StatusModified, 3, 1, 2),
		changed("py/tests/test_cart.py", review.StatusModified, 5, 0, 9),
		changed("web/src/cart.ts", review.StatusModified, 3, 1, 2),
		changed("web/src/cart.test.ts", review.StatusAdded, 9, 0, 1),
		changed("e2e/test_smoke.py", review.StatusAdded, 9, 0, 1),
	}}
	cs.Sort()
	areas := Areas(cs, nil)
	var got []string
	for _, a := range areas {
		got = append(got, a.Kind+":"+a.Name+":"+strings.Join(a.Files, ","))
	}
	// The root directory's area is named after the repository (no go.mod
	// here), never "(root)"; each test goes with the source it tests.
	want := []string{
		"package:py:py/cart.py,py/tests/test_cart.py",
		"package:review/gitdiff:review/gitdiff/refresh.go,review/gitdiff/scan.go,review/gitdiff/scan_test.go",
		"package:reviewls:args_test.go,main.go",
		"package:web/src:web/src/cart.test.ts,web/src/cart.ts",
		"tests:tests:e2e/test_smoke.py",
		"config:config:.github/workflows/ci.yml",
		"docs:docs:README.md",
		"dependencies:dependencies:go.mod",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("areas (-want +got):\n%s", diff)
	}
	board := Board(cs, areas, nil)
	if len(board) != len(areas) {
		t.Fatalf("board has %d items for %d areas", len(board), len(areas))
	}
	pkg := board[1]
	root := board[2]
	if pkg.ID != "board-2" || pkg.Status != review.StatusPending || pkg.Register != review.Register2 {
		t.Errorf("item = %+v", pkg)
	}
	if diff := cmp.Diff([]string{"review/gitdiff/refresh.go:1", "review/gitdiff/scan.go:12", "review/gitdiff/scan_test.go:40"}, pkg.Links); diff != "" {
		t.Errorf("links (-want +got):\n%s", diff)
	}
	// The signal cites the strongest file and asks a question; a test
	// changed under the area, so it does not claim there is none.
	if !strings.Contains(pkg.PreliminarySignal, "review/gitdiff/refresh.go:1") || strings.Contains(pkg.PreliminarySignal, "no test") {
		t.Errorf("signal = %q", pkg.PreliminarySignal)
	}
	if pkg.Summary != "2 modified, 1 untracked in review/gitdiff (+120 −2)" {
		t.Errorf("summary = %q", pkg.Summary)
	}
	// A deleted file has no link to open; args_test.go changed with the
	// root package, so its signal does not say no test changed.
	if diff := cmp.Diff([]string{"args_test.go:7"}, root.Links); diff != "" {
		t.Errorf("root links (-want +got):\n%s", diff)
	}
	if strings.Contains(root.PreliminarySignal, "no test") || !strings.Contains(root.PreliminarySignal, "deletes main.go") {
		t.Errorf("root signal = %q", root.PreliminarySignal)
	}

	findings := []*review.Finding{
		{ID: "rv-1", Severity: review.SeverityHigh, Title: "Unchecked error", Span: review.Span{Path: "review/gitdiff/scan.go", StartLine: 12}},
		{ID: "rv-2", Severity: review.SeverityCritical, Title: "Hardcoded GitHub token", Span: review.Span{Path: "review/gitdiff/refresh.go", StartLine: 3}},
		{ID: "rv-3", Severity: review.SeverityHigh, Title: "Path traversal", Span: review.Span{Path: "review/gitdiff/scan.go", StartLine: 13}},
		{ID: "rv-4", Severity: review.SeverityLow, Title: "Debug print", Span: review.Span{Path: "review/gitdiff/scan.go", StartLine: 20}},
	}
	WalkBack(board, findings)
	if diff := cmp.Diff([]string{"rv-1", "rv-2", "rv-3", "rv-4"}, board[1].Findings); diff != "" {
		t.Errorf("walk-back (-want +got):\n%s", diff)
	}
	// The signal leads with the worst finding and the counts.
	if want := "1 critical: Hardcoded GitHub token at review/gitdiff/refresh.go:3; 2 high, 1 low. The change "; !strings.HasPrefix(board[1].PreliminarySignal, want) {
		t.Errorf("signal = %q, want it to start %q", board[1].PreliminarySignal, want)
	}
	// Finding findings inspects nothing: every item stays pending.
	for _, it := range board {
		if it.Status != review.StatusPending {
			t.Errorf("%s status %s after the walk-back of findings", it.ID, it.Status)
		}
	}
}

// TestRootNameFromModule checks that the root area takes the last element
// of the module path, without a major version suffix.
func TestRootNameFromModule(t *testing.T) {
	for mod, want := range map[string]string{"module example.com/tool\n": "tool", "module github.com/a/widget/v2\n\ngo 1.22\n": "widget"} {
		gomod := &review.File{Path: "go.mod", Status: review.StatusModified, Content: []byte(mod), Lines: map[int]review.LineState{}}
		cs := &review.ChangeSet{Root: "/src/repo", Files: []*review.File{gomod}}
		if got := RootName(cs); got != want {
			t.Errorf("RootName(%q) = %q, want %q", mod, got, want)
		}
	}
}
