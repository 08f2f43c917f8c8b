package readiness

import (
	"testing"

	"github.com/reviewls/reviewls/review/lens/lenstest"
)

// TestRules runs every file rule of the perspective on its test inputs,
// testdata/<rule name>, checking their want annotations.
func TestRules(t *testing.T) { lenstest.RunRules(t, Rules()) }
