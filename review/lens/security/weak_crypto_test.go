package security

import (
	"testing"

	"github.com/reviewls/reviewls/review/lens/lenstest"
)

func TestWeakCrypto(t *testing.T) {
	lenstest.Run(t, WeakCrypto, "testdata/weak-crypto")
}
