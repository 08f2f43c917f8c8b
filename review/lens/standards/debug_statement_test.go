package standards

import (
	"testing"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens/lenstest"
)

func TestDebugStatementFixes(t *testing.T) {
	for name, want := range map[string]int{"lib/models.py": 5, "lib/cart.ts": 3, "lib/checkout.ts": 1} {
		if n := lenstest.CheckFixes(t, DebugStatement, lenstest.Input(t, "testdata/debug-statement/"+name, name)); n != want {
			t.Errorf("%s: checked %d fixes, want %d", name, n, want)
		}
	}
}

// TestDebugStatementFixKeepsBlocks checks that a print alone in its block
// becomes pass, and that a statement after a bare if gets no fix.
func TestDebugStatementFixKeepsBlocks(t *testing.T) {
	f := lenstest.NewFile("m.py", []byte("def f(x):\n    if x:\n        print(x)\n    return x\n"))
	got := lenstest.Check(t, DebugStatement, f, 0, nil)
	if len(got) != 1 || got[0].Fix == nil {
		t.Fatalf("got %d findings, want 1 with a fix", len(got))
	}
	fixed, err := review.ApplyEdits(f.Content, got[0].Fix.Edits)
	if err != nil {
		t.Fatal(err)
	}
	if want := "def f(x):\n    if x:\n        pass\n    return x\n"; string(fixed) != want {
		t.Errorf("fixed = %q, want %q", fixed, want)
	}
	g := lenstest.NewFile("v.js", []byte("function f(x) {\n  if (x)\n    console.log(x);\n  return x;\n}\n"))
	if got := lenstest.Check(t, DebugStatement, g, 0, nil); len(got) != 1 || got[0].Fix != nil {
		t.Errorf("got %+v, want one finding without a fix", got)
	}
}
