package functional

import (
	"testing"

	"github.com/reviewls/reviewls/review/lens/lenstest"
)

func TestDeferInLoop(t *testing.T) {
	lenstest.Run(t, DeferInLoop, "testdata/defer-in-loop")
}
