package security

import (
	"testing"

	"github.com/reviewls/reviewls/review/lens/lenstest"
)

func TestTLSVerifyDisabledFixes(t *testing.T) {
	total := 0
	for _, name := range []string{"client.go", "fetch.py"} {
		n := lenstest.CheckFixes(t, TLSVerifyDisabled, lenstest.Input(t, "testdata/tls-verify-disabled/"+name, "pkg/"+name))
		if n == 0 {
			t.Errorf("%s: no fix was checked", name)
		}
		total += n
	}
	if total < 6 {
		t.Errorf("checked %d fixes, want at least 6", total)
	}
}
