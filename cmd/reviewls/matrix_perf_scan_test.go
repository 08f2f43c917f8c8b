package main

import (
	"os"
	"path/filepath"
	"strconv"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	matrixCmds["perf_scan_truncate"] = cmdPerfScanTruncate
}

// cmdPerfScanTruncate cuts every file matching a glob (relative to the
// current directory) to its first n bytes, read-only files included (git
// writes packs and their indexes read-only).
//
//	perf_scan_truncate n glob
func cmdPerfScanTruncate(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: perf_scan_truncate n glob")
	}
	n, err := strconv.ParseInt(args[0], 10, 64)
	ts.Check(err)
	paths, err := filepath.Glob(ts.MkAbs(args[1]))
	ts.Check(err)
	if len(paths) == 0 {
		ts.Fatalf("no file matches %s", args[1])
	}
	for _, p := range paths {
		ts.Check(os.Chmod(p, 0o644))
		ts.Check(os.Truncate(p, n))
	}
}
