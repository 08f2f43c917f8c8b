package readiness

import (
	"testing"

	"github.com/reviewls/reviewls/review/lens/lenstest"
)

func TestTodoAdded(t *testing.T) {
	lenstest.Run(t, TodoAdded, "testdata/todo-added")
}

// TestTodoAddedEdited checks that a TODO the change only edits (cobra's
// "Fix some typos" reworded two) or keeps beside changed code is not
// added, while a new one in the same change is.
func TestTodoAddedEdited(t *testing.T) {
	const old = "package a\n\n// TODO: currently PersistentPreRun* defined in parent doesnt run\nfunc F() int { return 1 } // FIXME: overflow\n"
	const new = "package a\n\n// TODO: currently PersistentPreRun* defined in parent does not run\nfunc F() int { return 2 } // FIXME: overflow\n\n// TODO: and a new one\nfunc G() {}\n"
	got := lenstest.Check(t, TodoAdded, lenstest.Modified("a.go", old, new), 0, nil)
	if len(got) != 1 || got[0].Span.StartLine != 6 {
		t.Errorf("got %+v, want one finding on line 6", got)
	}
}
