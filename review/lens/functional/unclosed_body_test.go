package functional

import (
	"testing"

	"github.com/reviewls/reviewls/review/lens/lenstest"
)

// TestUnclosedBodyRemovedClose checks that a change removing the Close is
// reported on the call, whose line the change did not touch, with the line
// of the removal; a change elsewhere in the file is not.
func TestUnclosedBodyRemovedClose(t *testing.T) {
	head := "package p\n\nimport \"net/http\"\n\nfunc Ping(u string) error {\n\tresp, err := http.Get(u)\n\tif err != nil {\n\t\treturn err\n\t}\n"
	old := head + "\tdefer resp.Body.Close()\n\treturn nil\n}\n"
	got := lenstest.Check(t, UnclosedBody, lenstest.Modified("p/p.go", old, head+"\treturn nil\n}\n"), 0, nil)
	if len(got) != 1 || got[0].Span.StartLine != 6 || got[0].Removed != 10 {
		t.Fatalf("got %+v, want one finding on line 6 removed before line 10", got)
	}
	if same := lenstest.Check(t, UnclosedBody, lenstest.Modified("p/p.go", old, old+"\nfunc X() {}\n"), 0, nil); len(same) != 0 {
		t.Errorf("a change that keeps the Close: got %v", same)
	}
}
