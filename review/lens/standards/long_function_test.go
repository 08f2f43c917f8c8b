package standards

import (
	"fmt"
	"strings"
	"testing"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens/lenstest"
)

// TestLongFunctionAnchorAndThreshold checks that a long function is
// reported on its first changed line only when a line of it changed, and
// that the configured threshold applies.
func TestLongFunctionAnchorAndThreshold(t *testing.T) {
	var b strings.Builder
	b.WriteString("package p\n\nfunc F() {\n")
	for i := range 30 {
		fmt.Fprintf(&b, "\t_ = %d\n", i)
	}
	b.WriteString("}\n\nfunc G() {}\n")
	f := lenstest.NewFile("p.go", []byte(b.String()))
	cfg := &review.Config{FunctionLength: 20}
	f.Lines = map[int]review.LineState{12: review.LineUnstaged, 13: review.LineUnstaged}
	got := lenstest.Check(t, LongFunction, f, 0, cfg)
	if len(got) != 1 || got[0].Span.StartLine != 12 || got[0].Symbol != "F" {
		t.Fatalf("got %+v, want one finding on line 12 for F", got)
	}
	if got := lenstest.Check(t, LongFunction, f, 0, nil); len(got) != 0 {
		t.Errorf("default threshold: got %d findings, want 0", len(got))
	}
	f.Lines = map[int]review.LineState{37: review.LineUnstaged}
	if got := lenstest.Check(t, LongFunction, f, 0, cfg); len(got) != 0 {
		t.Errorf("change outside F: got %d findings, want 0", len(got))
	}
	if got := lenstest.Check(t, LongFunction, f, review.DepthBasic, cfg); len(got) != 0 {
		t.Errorf("depth basic: got %d findings, want 0", len(got))
	}
}
