package main

import (
	"path/filepath"
	"regexp"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	matrixCmds["notools"] = cmdNoTools
}

// straceExec matches a successful execve in an strace -f log, capturing
// the program's path.
var straceExec = regexp.MustCompile(`execve\("([^"]*)", .*\) = 0`)

// straceNet matches a network socket or connection in an strace log:
// an Internet socket, or a connect to an Internet address.
var straceNet = regexp.MustCompile(`socket\(AF_INET6?[,)]|connect\(.*sa_family=AF_INET6?[,}]`)

// toolsIn returns what an strace -f log (strace -f -e
// trace=execve,connect,socket) shows reviewls doing beyond itself: the
// programs it ran, and its network sockets and connections.
func toolsIn(log string) []string {
	var out []string
	for _, line := range strings.Split(log, "\n") {
		if m := straceExec.FindStringSubmatch(line); m != nil && filepath.Base(m[1]) != "reviewls" {
			out = append(out, "ran "+m[1])
		}
		if straceNet.MatchString(line) {
			out = append(out, "network: "+strings.TrimSpace(line))
		}
	}
	return out
}

// cmdNoTools checks an strace log of a reviewls run: it fails when the run
// started any program but reviewls (go, gcc, cc1, as, ld, git...) or
// opened an Internet socket; negated, when it did neither.
//
//	notools TRACE
func cmdNoTools(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: notools TRACE")
	}
	log := ts.ReadFile(args[0])
	if !strings.Contains(log, "execve(") {
		ts.Fatalf("%s is not an strace log of execve calls", args[0])
	}
	tools := toolsIn(log)
	switch {
	case !neg && len(tools) > 0:
		ts.Fatalf("reviewls ran tools or used the network:\n%s", strings.Join(tools, "\n"))
	case neg && len(tools) == 0:
		ts.Fatalf("reviewls ran no tool")
	}
	if neg {
		ts.Logf("reviewls ran:\n%s", strings.Join(tools, "\n"))
	}
}
