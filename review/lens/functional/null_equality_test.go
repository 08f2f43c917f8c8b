package functional

import (
	"testing"

	"github.com/reviewls/reviewls/review/lens/lenstest"
)

func TestNullEqualityFixes(t *testing.T) {
	for _, name := range []string{"checks.js", "view.tsx"} {
		f := lenstest.NewFile(name, scriptTestdata(t, "testdata/null-equality/"+name))
		if n := lenstest.CheckFixes(t, NullEquality, f); n == 0 {
			t.Errorf("%s: no fixes checked", name)
		}
	}
}
