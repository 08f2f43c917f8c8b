package process

import (
	"context"
	"testing"

	"github.com/reviewls/reviewls/review"
)

// TestFromDiffRemoved checks that a finding naming the removal it reports
// is kept on an unchanged line, and only where the change removed lines.
func TestFromDiffRemoved(t *testing.T) {
	f := &review.File{Path: "a.go", Status: review.StatusModified, Content: []byte("l1\nl2\nl3\n"), Lines: map[int]review.LineState{},
		Hunks: []review.Hunk{{OldStart: 1, OldLines: 4, NewStart: 1, NewLines: 3, Lines: []string{" l1", " l2", "-gone", " l3"}}}}
	cs := &review.ChangeSet{Files: []*review.File{f}}
	at := finding("functional/x", "a.go", 1, review.SeverityMedium)
	at.Removed = 3 // "gone" stood before new line 3
	wrong := finding("functional/x", "a.go", 1, review.SeverityMedium)
	wrong.Removed = 2
	got, err := (&FromDiff{ChangeSet: cs}).Process(context.Background(), []*review.Finding{at, wrong})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0] != at {
		t.Errorf("kept %v, want only the finding whose removal is in the diff", got)
	}
	if !f.RemovedBefore(3) || f.RemovedBefore(2) || f.RemovedBefore(4) {
		t.Error("RemovedBefore")
	}
}
