package functional

import (
	"testing"

	"github.com/reviewls/reviewls/review/lens/lenstest"
)

func TestFloatingPromiseFixes(t *testing.T) {
	for _, name := range []string{"service.js", "page.tsx"} {
		f := lenstest.NewFile(name, scriptTestdata(t, "testdata/floating-promise/"+name))
		if n := lenstest.CheckFixes(t, FloatingPromise, f); n == 0 {
			t.Errorf("%s: no fixes checked", name)
		}
	}
}

func TestAsyncForEachFixes(t *testing.T) {
	f := lenstest.NewFile("jobs.js", scriptTestdata(t, "testdata/async-foreach/jobs.js"))
	if n := lenstest.CheckFixes(t, AsyncForEach, f); n != 2 {
		t.Errorf("checked %d fixes, want 2 (the forEach statements in the async function)", n)
	}
}
