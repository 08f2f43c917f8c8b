package security

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/reviewls/reviewls/review/lens/lenstest"
)

func TestActionsPullRequestTarget(t *testing.T) {
	lenstest.Run(t, ActionsPullRequestTarget, "testdata/actions-pull-request-target")
}

func TestActionsUnpinned(t *testing.T) {
	lenstest.Run(t, ActionsUnpinned, "testdata/actions-unpinned")
}

func TestCurlPipeShell(t *testing.T) {
	lenstest.Run(t, CurlPipeShell, "testdata/curl-pipe-shell")
}

func TestWorldWritable(t *testing.T) {
	lenstest.Run(t, WorldWritable, "testdata/world-writable")
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
