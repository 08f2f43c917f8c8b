package standards

import (
	"testing"

	"github.com/reviewls/reviewls/review/lens/lenstest"
)

func TestIgnoreWithoutReason(t *testing.T) {
	lenstest.Run(t, IgnoreWithoutReason, "testdata/ignore-without-reason")
}
