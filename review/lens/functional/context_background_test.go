package functional

import (
	"testing"

	"github.com/reviewls/reviewls/review/lens/lenstest"
)

func TestContextBackgroundFixes(t *testing.T) {
	if n := lenstest.CheckFixes(t, ContextBackground, lenstest.Input(t, "testdata/context-background/store.go", "store/store.go")); n == 0 {
		t.Error("no fix was checked")
	}
}

// TestContextBackgroundSpansLines: a call split over lines is cited from
// its first line to its last (found by fuzzing: the end column of the last
// line was given to the first).
func TestContextBackgroundSpansLines(t *testing.T) {
	src := "package p\n\nimport \"context\"\n\nfunc f(ctx context.Context) error {\n\treturn run(context.Background(), context.Background(\n\t))\n}\n\nfunc run(a, b context.Context) error { return nil }\n"
	got := lenstest.Check(t, ContextBackground, lenstest.NewFile("p.go", []byte(src)), 0, nil)
	if len(got) != 2 {
		t.Fatalf("got %d findings, want 2", len(got))
	}
	if s := got[1].Span; s.StartLine != 6 || s.StartCol != 35 || s.EndLine != 7 || s.EndCol != 3 {
		t.Errorf("span %d:%d-%d:%d, want 6:35-7:3", s.StartLine, s.StartCol, s.EndLine, s.EndCol)
	}
}
