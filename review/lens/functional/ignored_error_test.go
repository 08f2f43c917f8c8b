package functional

import (
	"testing"

	"github.com/reviewls/reviewls/review/lens/lenstest"
)

func TestIgnoredError(t *testing.T) {
	lenstest.Run(t, IgnoredError, "testdata/ignored-error")
}
