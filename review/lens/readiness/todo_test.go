package readiness

import (
	"testing"

	"github.com/reviewls/reviewls/review/lens/lenstest"
)

func TestTodoAdded(t *testing.T) {
	lenstest.Run(t, TodoAdded, "testdata/todo-added")
}
