package main

import (
	"bytes"
	"os"
	"strconv"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	matrixCmds["mkbin"] = cmdMkbin
}

// cmdMkbin writes a binary file (NUL bytes throughout) of the given size,
// which a txtar archive cannot carry.
//
//	mkbin path size
func cmdMkbin(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: mkbin path size")
	}
	n, err := strconv.Atoi(args[1])
	ts.Check(err)
	data := bytes.Repeat([]byte{0x7f, 'E', 'L', 'F', 0, 1, 2, 0}, n/8+1)[:n]
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), data, 0o644))
}
