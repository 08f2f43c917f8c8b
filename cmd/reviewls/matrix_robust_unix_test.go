//go:build unix

package main

import (
	"net"
	"syscall"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	matrixCmds["mkfifo"] = cmdMkfifo
	matrixCmds["mksock"] = cmdMksock
}

// cmdMkfifo makes named pipes.
//
//	mkfifo path...
func cmdMkfifo(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: mkfifo path...")
	}
	for _, a := range args {
		ts.Check(syscall.Mkfifo(ts.MkAbs(a), 0o644))
	}
}

// cmdMksock leaves a Unix domain socket at path (nothing listens on it).
//
//	mksock path
func cmdMksock(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: mksock path")
	}
	l, err := net.ListenUnix("unix", &net.UnixAddr{Name: ts.MkAbs(args[0]), Net: "unix"})
	ts.Check(err)
	l.SetUnlinkOnClose(false)
	ts.Check(l.Close())
}
