package standards

import (
	"testing"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens/lenstest"
)

func TestCommentedOutCodeFixes(t *testing.T) {
	for _, name := range []string{"retry.go", "jobs.py", "cart.ts", "deploy.sh"} {
		if n := lenstest.CheckFixes(t, CommentedOutCode, lenstest.Input(t, "testdata/commented-out-code/"+name, name)); n != 1 {
			t.Errorf("%s: checked %d fixes, want 1", name, n)
		}
	}
}

// TestCommentedOutCodeUnchanged checks that a block only partly added is
// not reported.
func TestCommentedOutCodeUnchanged(t *testing.T) {
	f := lenstest.NewFile("a.js", []byte("// a();\n// b();\n// c();\nd();\n"))
	f.Lines = map[int]review.LineState{2: review.LineUnstaged, 3: review.LineUnstaged}
	if got := lenstest.Check(t, CommentedOutCode, f, 0, nil); len(got) != 0 {
		t.Errorf("got %d findings, want 0", len(got))
	}
}
