package functional

import (
	"testing"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens/lenstest"
)

// TestMergeConflictMarkerUnchangedLines checks that a conflict block whose
// marker lines are all unchanged is not reported.
func TestMergeConflictMarkerUnchangedLines(t *testing.T) {
	f := lenstest.NewFile("a.txt", []byte("<<<<<<< HEAD\na\n=======\nb\n>>>>>>> x\n"))
	f.Lines = map[int]review.LineState{2: review.LineUnstaged}
	if got := lenstest.Check(t, MergeConflictMarker, f, 0, nil); len(got) != 0 {
		t.Errorf("got %d findings on a block with unchanged markers, want 0", len(got))
	}
	f.Lines = map[int]review.LineState{5: review.LineStaged}
	got := lenstest.Check(t, MergeConflictMarker, f, 0, nil)
	if len(got) != 1 || got[0].Span.StartLine != 5 || got[0].Span.EndLine != 5 {
		t.Fatalf("got %+v, want one finding on the changed marker line 5", got)
	}
	if got[0].LineState != review.LineStaged {
		t.Errorf("LineState = %q, want staged", got[0].LineState)
	}
}
