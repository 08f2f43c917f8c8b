package store

import (
	"os"
	"os/exec"
	"runtime"
	"testing"
)

func TestFlaky(t *testing.T) {
	t.Skip("flaky on CI") // want "Skipped test"
	t.Log("never runs")
}

func TestOld(tt *testing.T) {
	tt.SkipNow() // want "TestOld is skipped unconditionally"
}

// Near misses: none of these is reported.
func TestShort(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	if runtime.GOOS == "windows" {
		t.Skipf("not on %s", runtime.GOOS)
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	t.Run("sub", func(t *testing.T) { t.Skip("sub") })
}

func TestEnv(t *testing.T) {
	if os.Getenv("INTEGRATION") == "" {
		t.Skip("set INTEGRATION=1 to run")
	}
}
