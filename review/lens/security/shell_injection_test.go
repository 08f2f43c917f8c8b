package security

import (
	"testing"

	"github.com/reviewls/reviewls/review/lens/lenstest"
)

func TestShellInjection(t *testing.T) {
	lenstest.Run(t, ShellInjection, "testdata/shell-injection")
}
