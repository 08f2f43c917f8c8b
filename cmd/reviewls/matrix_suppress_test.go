package main

import (
	"os"
	"regexp"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	matrixCmds["allowprinted"] = cmdAllowPrinted
}

// printedFingerprintRE is a line of the allow-secrets list a blocked
// review prints.
var printedFingerprintRE = regexp.MustCompile(`(?m)^ +- ([a-z]+/[a-z0-9-]+:\S+:[0-9a-f]{16})$`)

// cmdAllowPrinted does what a user does with a blocked commit's advice: it
// copies the fingerprints printed in the named output (a file, or stdout
// or stderr of the last command) into an allow-secrets list appended to a
// config file. It fails when the output prints none.
//
//	allowprinted output config
func cmdAllowPrinted(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: allowprinted output config")
	}
	ms := printedFingerprintRE.FindAllStringSubmatch(ts.ReadFile(args[0]), -1)
	if len(ms) == 0 {
		ts.Fatalf("%s prints no fingerprint to allow", args[0])
	}
	var b strings.Builder
	b.WriteString("allow-secrets:\n")
	for _, m := range ms {
		b.WriteString("  - " + m[1] + "\n")
	}
	path := ts.MkAbs(args[1])
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	ts.Check(err)
	_, err = f.WriteString(b.String())
	ts.Check(err)
	ts.Check(f.Close())
}
