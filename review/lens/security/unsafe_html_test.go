package security

import (
	"testing"

	"github.com/reviewls/reviewls/review/lens/lenstest"
)

func TestUnsafeHTML(t *testing.T) {
	lenstest.Run(t, UnsafeHTML, "testdata/unsafe-html")
}
