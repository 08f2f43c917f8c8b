package main

import (
	"os"
	"os/exec"
	"strings"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	matrixCmds["gocache"] = cmdGoCache
}

// testGoCache is the Go build cache of the test process.
var testGoCache = sync.OnceValue(func() string {
	if c := os.Getenv("GOCACHE"); c != "" {
		return c
	}
	out, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
})

// cmdGoCache points the script's GOCACHE at the test process's build
// cache, so that a type-aware analysis in a script (whose HOME is
// private) loads the standard library's export data instead of
// compiling it.
//
//	gocache
func cmdGoCache(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: gocache")
	}
	c := testGoCache()
	if c == "" {
		ts.Fatalf("no Go build cache: go env GOCACHE failed")
	}
	ts.Setenv("GOCACHE", c)
}
