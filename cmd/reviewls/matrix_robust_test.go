package main

import (
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	matrixCmds["writebytes"] = cmdWritebytes
	matrixCmds["exitcode"] = cmdExitcode
}

// cmdWritebytes writes a file whose name and content are Go string
// literals without the quotes, so that scripts can make what neither a
// txtar archive nor a script argument can carry: names with control
// characters, content without a final newline, other encodings. With
// -repeat the content is written n times.
//
//	writebytes [-repeat n] name content
func cmdWritebytes(ts *testscript.TestScript, neg bool, args []string) {
	n := 1
	if len(args) > 2 && args[0] == "-repeat" {
		var err error
		n, err = strconv.Atoi(args[1])
		ts.Check(err)
		args = args[2:]
	}
	if neg || len(args) != 2 {
		ts.Fatalf("usage: writebytes [-repeat n] name content")
	}
	data := strings.Repeat(unquote(ts, args[1]), n)
	ts.Check(os.WriteFile(ts.MkAbs(unquote(ts, args[0])), []byte(data), 0o644))
}

// unquote interprets s as the body of a Go string literal.
func unquote(ts *testscript.TestScript, s string) string {
	u, err := strconv.Unquote(`"` + strings.ReplaceAll(s, `"`, `\"`) + `"`)
	if err != nil {
		ts.Fatalf("%q: %v", s, err)
	}
	return u
}

// cmdExitcode runs a command, as exec does (its stdout and stderr are kept
// for the stdout and stderr checks), and fails unless it exits with the
// given status: exec and ! exec cannot tell exit 1 from exit 2.
//
//	exitcode status command args...
func cmdExitcode(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exitcode status command args...")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("%s: %v", args[1], err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited %d, want %d", args[1], got, want)
	}
}
