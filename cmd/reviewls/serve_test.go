package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"golang.org/x/tools/txtar"

	"github.com/reviewls/reviewls/lsp/lsptest"
	"github.com/reviewls/reviewls/review/reviewtest"
)

// TestServeSmoke builds the reviewls binary and drives `reviewls serve`
// over its real stdin and stdout: a change made on disk shows as a
// diagnostic, and the server exits 0 after shutdown and exit.
func TestServeSmoke(t *testing.T) {
	bin := buildBinary(t)
	dir := reviewtest.RepoFromArchive(t, &txtar.Archive{Files: []txtar.File{{Name: "base/a.go", Data: []byte("package a\n")}}}).Dir
	for _, tc := range []struct {
		flags []string
		logs  bool
	}{{nil, false}, {[]string{"--log-level", "info"}, true}} {
		var stderr lockedBuffer
		env := lsptest.New(t, dir, lsptest.Config{Command: append([]string{bin, "serve", "--quiet", "1ms"}, tc.flags...), Stderr: &stderr})
		// VS Code sends $/setTrace on every start: accepted, not an error.
		if err := env.Server.SetTrace(env.Ctx, &protocol.SetTraceParams{Value: protocol.TraceVerbose}); err != nil {
			t.Errorf("$/setTrace: %v", err)
		}
		env.OpenFile("a.go")
		v := env.EditFile("a.go", "package a\n\n// TODO: from the smoke test\n")
		env.Await(lsptest.DiagnosticsAt("a.go", uint32(v), lsptest.OnLines(3), lsptest.WithCode("readiness/todo-added")))
		env.Shutdown()
		// Editors show the server's stderr as errors: by default it says
		// nothing on a healthy session; --log-level info tells more.
		switch got := string(stderr.Bytes()); {
		case !tc.logs && got != "":
			t.Errorf("serve: stderr of a healthy session:\n%s", got)
		case tc.logs && !strings.Contains(got, "level=INFO"):
			t.Errorf("serve %v: no INFO lines on stderr:\n%s", tc.flags, got)
		}
		for _, m := range env.State().Logs {
			if strings.Contains(m.Message, "setTrace") || strings.Contains(m.Message, "SetTrace") {
				t.Errorf("the client was told about $/setTrace: %q", m.Message)
			}
		}
	}
}

// buildBinary builds the reviewls binary into a temporary directory.
func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "reviewls")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestServeExit checks the exit notification the way editors send it:
// vscode-languageclient writes exit and closes stdin at once, Neovim and
// others may keep stdin open. Both must end the process with status 0.
func TestServeExit(t *testing.T) {
	bin := buildBinary(t)
	dir := reviewtest.RepoFromArchive(t, &txtar.Archive{Files: []txtar.File{{Name: "base/a.go", Data: []byte("package a\n")}}}).Dir
	for _, keepOpen := range []bool{false, true} {
		runs := 10
		if keepOpen {
			runs = 1
		}
		for i := range runs {
			p := startServe(t, bin, dir)
			p.send(`{"jsonrpc":"2.0","id":2,"method":"shutdown"}`)
			awaitReply(t, p.out, 2)
			p.send(`{"jsonrpc":"2.0","method":"exit"}`)
			if !keepOpen {
				p.stdin.Close()
			}
			go io.Copy(io.Discard, p.out)
			done := make(chan error, 1)
			go func() { done <- p.cmd.Wait() }()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("keepOpen=%v run %d: server exited with %v, want status 0", keepOpen, i, err)
				}
			case <-time.After(10 * time.Second):
				p.cmd.Process.Kill()
				t.Fatalf("keepOpen=%v: server still running 10s after exit", keepOpen)
			}
			p.stdin.Close()
		}
	}
}

// TestServeDeepMessage sends `reviewls serve` a 4 MB request nested two
// million levels deep, which overflowed the decoder's stack and ended the
// process: the server answers it with an error and serves on.
func TestServeDeepMessage(t *testing.T) {
	bin := buildBinary(t)
	dir := reviewtest.RepoFromArchive(t, &txtar.Archive{Files: []txtar.File{{Name: "base/a.go", Data: []byte("package a\n")}}}).Dir
	p := startServe(t, bin, dir)
	defer p.cmd.Process.Kill()
	p.send(`{"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":` + strings.Repeat("[", 2_000_000) + strings.Repeat("]", 2_000_000) + `}`)
	awaitReply(t, p.out, 2)
	p.send(`{"jsonrpc":"2.0","id":3,"method":"shutdown"}`)
	awaitReply(t, p.out, 3)
	p.send(`{"jsonrpc":"2.0","method":"exit"}`)
	p.stdin.Close()
	go io.Copy(io.Discard, p.out)
	if err := p.cmd.Wait(); err != nil {
		t.Errorf("server exited with %v, want status 0", err)
	}
}

// serveProcess is a `reviewls serve` process driven by hand.
type serveProcess struct {
	t     *testing.T
	cmd   *exec.Cmd
	stdin io.WriteCloser
	out   *bufio.Reader
}

// startServe starts `bin serve` and initializes it on dir.
func startServe(t *testing.T, bin, dir string) *serveProcess {
	t.Helper()
	cmd := exec.Command(bin, "serve")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &serveProcess{t: t, cmd: cmd, stdin: stdin, out: bufio.NewReader(stdout)}
	p.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":%q,"capabilities":{}}}`, "file://"+dir))
	awaitReply(t, p.out, 1)
	p.send(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)
	return p
}

// send writes msg to the server in a frame.
func (p *serveProcess) send(msg string) {
	p.t.Helper()
	if _, err := fmt.Fprintf(p.stdin, "Content-Length: %d\r\n\r\n%s", len(msg), msg); err != nil {
		p.t.Fatal(err)
	}
}

// awaitReply reads frames until the response with the given id.
func awaitReply(t *testing.T, r *bufio.Reader, id int) {
	t.Helper()
	for {
		var n int
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				t.Fatalf("reading the reply to %d: %v", id, err)
			}
			if line == "\r\n" {
				break
			}
			fmt.Sscanf(line, "Content-Length: %d", &n)
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(r, body); err != nil {
			t.Fatal(err)
		}
		var msg struct {
			ID     *int   `json:"id"`
			Method string `json:"method"`
		}
		if json.Unmarshal(body, &msg) == nil && msg.ID != nil && *msg.ID == id && msg.Method == "" {
			return
		}
	}
}
