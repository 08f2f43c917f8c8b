package security

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reviewls/reviewls/review"

	"github.com/reviewls/reviewls/review/lens/lenstest"
)

// TestActionsUnpinnedOncePerWorkflow checks the real shape of a branch
// that touches a workflow with many first-party tag pins: one Low finding
// for the file, not one Medium per line; a third-party action or a
// reusable workflow makes it Medium; pins on unchanged lines are not the
// change's.
func TestActionsUnpinnedOncePerWorkflow(t *testing.T) {
	steps := "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n"
	for i := 0; i < 9; i++ {
		steps += "      - uses: actions/checkout@v4\n      - uses: actions/setup-go@v5\n"
	}
	for _, c := range []struct {
		name, extra string
		want        review.Severity
	}{
		{"first-party only", "", review.SeverityLow},
		{"third-party action", "      - uses: golangci/golangci-lint-action@v6\n", review.SeverityMedium},
		{"reusable workflow", "  b:\n    uses: actions/reusable/.github/workflows/ci.yml@v1\n", review.SeverityMedium},
	} {
		got := lenstest.Check(t, ActionsUnpinned, lenstest.NewFile(".github/workflows/ci.yml", []byte(steps+c.extra)), 0, nil)
		if len(got) != 1 || got[0].Severity != c.want || got[0].Span.StartLine != 6 {
			t.Errorf("%s: got %d findings (%+v), want one %s on line 6", c.name, len(got), got, c.want)
		}
	}
	// Only the changed line counts.
	f := lenstest.Modified(".github/workflows/ci.yml", steps, steps+"      - uses: actions/cache@v4\n")
	got := lenstest.Check(t, ActionsUnpinned, f, 0, nil)
	if len(got) != 1 || !strings.Contains(got[0].Message, "resolve an action from mutable refs") || !strings.Contains(got[0].Message, "actions/cache@v4 (GitHub's own)") {
		t.Errorf("one added pin: got %+v", got)
	}
}

func TestWorldWritableFixes(t *testing.T) {
	for name, want := range map[string]int{"perms.go": 4, "perms.py": 4, "setup.sh": 2, "Dockerfile": 2} {
		src, err := os.ReadFile(filepath.Join("testdata/world-writable", name))
		if err != nil {
			t.Fatal(err)
		}
		if n := lenstest.CheckFixes(t, WorldWritable, lenstest.NewFile(name, src)); n != want {
			t.Errorf("%s: checked %d fixes, want %d", name, n, want)
		}
	}
}

func TestFixedMode(t *testing.T) {
	for lit, want := range map[string]string{"0o777": "0o755", "0777": "0755", "777": "755", "0666": "0644", "0x1ff": "0x1ed", "511": "493", "0O766": "0O744"} {
		var mode int64
		switch lit {
		case "0x1ff", "511":
			mode = 0o777
		case "0666":
			mode = 0o666
		case "0O766":
			mode = 0o766
		default:
			mode = 0o777
		}
		if got := fixedMode(lit, mode, lit == "777"); got != want {
			t.Errorf("fixedMode(%q) = %q, want %q", lit, got, want)
		}
	}
}
