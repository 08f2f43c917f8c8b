package main

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/reviewls/reviewls/schemas"
)

func init() {
	matrixCmds["writebytes"] = cmdWritebytes
	matrixCmds["exitcode"] = cmdExitcode
	matrixCmds["schemavalid"] = cmdSchemavalid
	matrixCmds["sarifvalid"] = cmdSarifvalid
	matrixCmds["prdiff"] = cmdPrdiff
}

// cmdWritebytes writes a file whose name and content are Go string
// literals without the quotes, so that scripts can make what neither a
// txtar archive nor a script argument can carry: names with control
// characters, content without a final newline, other encodings. With
// -repeat the content is written n times; with -append it is added to
// the end of the file (a large file that carries a line of its own).
//
//	writebytes [-append] [-repeat n] name content
func cmdWritebytes(ts *testscript.TestScript, neg bool, args []string) {
	n := 1
	flag := os.O_CREATE | os.O_WRONLY | os.O_TRUNC
	if len(args) > 2 && args[0] == "-append" {
		flag = os.O_CREATE | os.O_WRONLY | os.O_APPEND
		args = args[1:]
	}
	if len(args) > 2 && args[0] == "-repeat" {
		var err error
		n, err = strconv.Atoi(args[1])
		ts.Check(err)
		args = args[2:]
	}
	if neg || len(args) != 2 {
		ts.Fatalf("usage: writebytes [-append] [-repeat n] name content")
	}
	f, err := os.OpenFile(ts.MkAbs(unquote(ts, args[0])), flag, 0o644)
	ts.Check(err)
	_, err = f.WriteString(strings.Repeat(unquote(ts, args[1]), n))
	ts.Check(err)
	ts.Check(f.Close())
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

// cmdSchemavalid validates a JSON document against an embedded schema.
//
//	schemavalid schema file
func cmdSchemavalid(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: schemavalid schema file")
	}
	if err := schemas.Validate(args[0], []byte(ts.ReadFile(args[1]))); err != nil {
		ts.Fatalf("%s: %v", args[1], err)
	}
}

// cmdSarifvalid checks the SARIF 2.1.0 shape of a log (there is no SARIF
// schema in schemas/): the version, exactly one run with its tool's name,
// and a results array of the given length.
//
//	sarifvalid file results
func cmdSarifvalid(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: sarifvalid file results")
	}
	want, err := strconv.Atoi(args[1])
	ts.Check(err)
	var log struct {
		Schema  string `json:"$schema"`
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name  string `json:"name"`
					Rules *[]any `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results *[]any `json:"results"`
		} `json:"runs"`
	}
	ts.Check(json.Unmarshal([]byte(ts.ReadFile(args[0])), &log))
	switch {
	case log.Version != "2.1.0" || !strings.Contains(log.Schema, "sarif-2.1.0"):
		ts.Fatalf("%s: version %q, $schema %q, want 2.1.0", args[0], log.Version, log.Schema)
	case len(log.Runs) != 1:
		ts.Fatalf("%s: %d runs, want 1", args[0], len(log.Runs))
	case log.Runs[0].Tool.Driver.Name == "" || log.Runs[0].Tool.Driver.Rules == nil:
		ts.Fatalf("%s: the run has no tool.driver name or rules", args[0])
	case log.Runs[0].Results == nil || len(*log.Runs[0].Results) != want:
		ts.Fatalf("%s: results %v, want an array of %d", args[0], log.Runs[0].Results, want)
	}
}

// cmdPrdiff writes the unified diff that pr-reference.xml carries in
// <full_diff> to a file, for comparison with git diff.
//
//	prdiff xml out
func cmdPrdiff(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: prdiff xml out")
	}
	xml := ts.ReadFile(args[0])
	_, body, ok := strings.Cut(xml, "<full_diff>\n<![CDATA[\n")
	if !ok {
		ts.Fatalf("%s: no diff in <full_diff>", args[0])
	}
	body, _, ok = strings.Cut(body, "]]>\n  </full_diff>")
	if !ok {
		ts.Fatalf("%s: <full_diff> does not end", args[0])
	}
	body = strings.ReplaceAll(body, "]]]]><![CDATA[>", "]]>")
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(body), 0o644))
}
