package schemas

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestBinaryHasNoSchemaLibrary keeps github.com/santhosh-tekuri/jsonschema
// out of the reviewls binary, on every platform it ships for: the library
// is the oracle of the tests only (its package init alone cost each CLI
// process 14 ms and 21k allocations).
func TestBinaryHasNoSchemaLibrary(t *testing.T) {
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goBin); err != nil {
		if goBin, err = exec.LookPath("go"); err != nil {
			t.Fatalf("no go command: %v", err)
		}
	}
	for _, goos := range []string{"linux", "darwin", "windows"} {
		cmd := exec.Command(goBin, "list", "-deps", "github.com/reviewls/reviewls/cmd/reviewls")
		cmd.Env = append(os.Environ(), "GOOS="+goos)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("GOOS=%s go list -deps: %v\n%s", goos, err, stderr(err))
		}
		deps := strings.Fields(string(out))
		if !slices.Contains(deps, "github.com/reviewls/reviewls/schemas") {
			t.Fatalf("GOOS=%s go list -deps does not list the schemas package:\n%s", goos, out)
		}
		for _, d := range deps {
			if strings.HasPrefix(d, "github.com/santhosh-tekuri/") {
				t.Errorf("GOOS=%s: cmd/reviewls depends on %s", goos, d)
			}
		}
	}
}

func stderr(err error) string {
	if ee, ok := err.(*exec.ExitError); ok {
		return string(ee.Stderr)
	}
	return ""
}
