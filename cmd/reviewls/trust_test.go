package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/reviewls/reviewls/lsp/lsptest"
	"github.com/reviewls/reviewls/review/engine"
	"github.com/reviewls/reviewls/review/reviewtest"
)

// TestServeUntrustedRunsNoTools drives `reviewls serve` under strace in a
// repository whose .reviewls.yaml asks for depth: comprehensive and whose
// change makes comprehensive the recommended depth: untrusted, the server
// says what it does not do, runs no program and opens no Internet socket
// (until now it ran go list, the compiler and the C toolchain as soon as a
// file was opened); trusted, it runs the analysis.
func TestServeUntrustedRunsNoTools(t *testing.T) {
	bin := buildBinary(t)
	user := filepath.Join(t.TempDir(), "config")
	t.Setenv("XDG_CONFIG_HOME", user)
	t.Setenv("HOME", t.TempDir())
	if c := testGoCache(); c != "" {
		t.Setenv("GOCACHE", c)
	}
	const base = "package creds\n\nimport \"fmt\"\n\n// Show prints a name.\nfunc Show(name string) {\n\tfmt.Println(name)\n}\n"
	dir := reviewtest.RepoFromArchive(t, &txtar.Archive{Files: []txtar.File{
		{Name: "base/go.mod", Data: []byte("module example.com/m\n\ngo 1.22\n")},
		{Name: "base/creds/creds.go", Data: []byte(base)},
		{Name: "base/.reviewls.yaml", Data: []byte("depth: comprehensive\n")},
	}}).Dir
	edit := strings.Replace(base, "fmt.Println(name)\n", "fmt.Println(name)\n\tfmt.Printf(\"%d items\\n\", name)\n", 1)
	serve := func(name string, await func(version uint32) []lsptest.Expectation) []string {
		t.Helper()
		trace := filepath.Join(t.TempDir(), name)
		env := lsptest.New(t, dir, lsptest.Config{Command: []string{"strace", "-f", "-qq", "-e", "trace=execve,connect,socket", "-o", trace, bin, "serve", "--quiet", "1ms"}})
		env.OpenFile("creds/creds.go")
		v := env.EditFile("creds/creds.go", edit)
		env.Await(await(uint32(v))...)
		env.Shutdown()
		log, err := os.ReadFile(trace)
		if err != nil {
			t.Fatal(err)
		}
		return toolsIn(string(log))
	}

	untrusted := func(uint32) []lsptest.Expectation {
		return []lsptest.Expectation{lsptest.MessageContaining("reviewls: .reviewls.yaml asks for depth: comprehensive (runs the Go toolchain); not done: this repository is not trusted"),
			lsptest.LogContaining("type-aware analysis skipped: not requested, and this repository is not trusted")}
	}
	if tools := serve("untrusted", untrusted); len(tools) > 0 {
		t.Errorf("serve ran tools or used the network in an untrusted repository:\n%s", strings.Join(tools, "\n"))
	}

	if _, _, err := engine.Trust(engine.UserDir(os.Getenv), dir); err != nil {
		t.Fatal(err)
	}
	tools := serve("trusted", func(v uint32) []lsptest.Expectation {
		return []lsptest.Expectation{lsptest.DiagnosticsAt("creds/creds.go", v, lsptest.WithCode("functional/go-analysis"))}
	})
	if !strings.Contains(strings.Join(tools, "\n"), "/go") {
		t.Errorf("serve did not run the go command in a trusted repository; it ran:\n%s", strings.Join(tools, "\n"))
	}
}
