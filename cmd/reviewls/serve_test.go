package main

import (
	"os/exec"
	"path/filepath"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/reviewls/reviewls/lsp/lsptest"
	"github.com/reviewls/reviewls/review/reviewtest"
)

// TestServeSmoke builds the reviewls binary and drives `reviewls serve`
// over its real stdin and stdout: a change made on disk shows as a
// diagnostic, and the server exits 0 after shutdown and exit.
func TestServeSmoke(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "reviewls")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	dir := reviewtest.RepoFromArchive(t, &txtar.Archive{Files: []txtar.File{{Name: "base/a.go", Data: []byte("package a\n")}}}).Dir
	env := lsptest.New(t, dir, lsptest.Config{Command: []string{bin, "serve", "--quiet", "1ms"}})
	env.OpenFile("a.go")
	v := env.EditFile("a.go", "package a\n\n// TODO: from the smoke test\n")
	env.Await(lsptest.DiagnosticsAt("a.go", uint32(v), lsptest.OnLines(3), lsptest.WithCode("readiness/todo-added")))
	env.Shutdown()
}
