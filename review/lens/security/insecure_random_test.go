package security

import (
	"testing"

	"github.com/reviewls/reviewls/review/lens/lenstest"
)

func TestInsecureRandom(t *testing.T) {
	lenstest.Run(t, InsecureRandom, "testdata/insecure-random")
}
