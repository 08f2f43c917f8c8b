package security

import (
	"testing"

	"github.com/reviewls/reviewls/review/lens/lenstest"
)

// TestPathTraversalRemovedCheck checks that deleting the containment
// check is reported on the join, with the line of the removal.
func TestPathTraversalRemovedCheck(t *testing.T) {
	head := "import os\n\n\ndef untar(tar, location):\n    for member in tar.getmembers():\n        path = os.path.join(location, member.name)\n"
	old := head + "        if not is_within_directory(location, path):\n            raise ValueError(path)\n        tar.extract(member, path)\n"
	got := lenstest.Check(t, PathTraversal, lenstest.Modified("u.py", old, head+"        tar.extract(member, path)\n"), 0, nil)
	if len(got) != 1 || got[0].Span.StartLine != 6 || got[0].Removed != 7 {
		t.Fatalf("got %+v, want one finding on line 6 removed before line 7", got)
	}
}
