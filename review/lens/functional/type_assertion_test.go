package functional

import (
	"testing"

	"github.com/reviewls/reviewls/review/lens/lenstest"
)

func TestUncheckedTypeAssertion(t *testing.T) {
	lenstest.Run(t, UncheckedTypeAssertion, "testdata/unchecked-type-assertion")
}
