package readiness

import (
	"slices"
	"testing"

	"github.com/reviewls/reviewls/review/lens/lenstest"
)

// TestTodoAddedEdited checks that a TODO the change only edits (cobra's
// "Fix some typos" reworded two) is not added, while a new one in the same
// change is. One it keeps word for word beside changed code (the FIXME) is
// reported here and left to the differential review, which finds it in
// the base version.
func TestTodoAddedEdited(t *testing.T) {
	const old = "package a\n\n// TODO: currently PersistentPreRun* defined in parent doesnt run\nfunc F() int { return 1 } // FIXME: overflow\n"
	const new = "package a\n\n// TODO: currently PersistentPreRun* defined in parent does not run\nfunc F() int { return 2 } // FIXME: overflow\n\n// TODO: and a new one\nfunc G() {}\n"
	got := lenstest.Check(t, TodoAdded, lenstest.Modified("a.go", old, new), 0, nil)
	var lines []int
	for _, f := range got {
		lines = append(lines, f.Span.StartLine)
	}
	if !slices.Equal(lines, []int{4, 6}) {
		t.Errorf("findings on lines %v, want 4 (kept, for the engine) and 6 (new)", lines)
	}
}
