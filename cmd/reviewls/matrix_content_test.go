package main

import (
	"bytes"
	"os"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	matrixCmds["crlf"] = cmdCRLF
	matrixCmds["editline"] = cmdEditLine
	matrixCmds["wbytes"] = cmdWBytes
}

// cmdCRLF rewrites files with CRLF line endings, as a checkout with
// core.autocrlf does (txtar files carry LF).
//
//	crlf path...
func cmdCRLF(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: crlf path...")
	}
	for _, p := range args {
		data, err := os.ReadFile(ts.MkAbs(p))
		ts.Check(err)
		data = bytes.ReplaceAll(bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n")), []byte("\n"), []byte("\r\n"))
		ts.Check(os.WriteFile(ts.MkAbs(p), data, 0o644))
	}
}

// cmdEditLine replaces the text of line n (1-based) of a file and keeps
// the line's ending, CRLF or LF.
//
//	editline path n text
func cmdEditLine(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: editline path n text")
	}
	n, err := strconv.Atoi(args[1])
	ts.Check(err)
	data, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	lines := strings.SplitAfter(string(data), "\n")
	if n < 1 || n > len(lines) || lines[n-1] == "" {
		ts.Fatalf("%s has no line %d", args[0], n)
	}
	eol := "\n"
	if strings.HasSuffix(lines[n-1], "\r\n") {
		eol = "\r\n"
	}
	lines[n-1] = args[2] + eol
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(strings.Join(lines, "")), 0o644))
}

// cmdWBytes writes a file whose content is given as a Go string literal,
// for bytes a txtar file cannot carry (a lone CR, mixed line endings).
//
//	wbytes path "content"
func cmdWBytes(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: wbytes path \"go string\"")
	}
	s, err := strconv.Unquote(`"` + args[1] + `"`)
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(s), 0o644))
}
