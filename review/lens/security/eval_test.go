package security

import (
	"testing"

	"github.com/reviewls/reviewls/review/lens/lenstest"
)

func TestEval(t *testing.T) {
	lenstest.Run(t, Eval, "testdata/eval")
}
