package lsp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/uri"

	"github.com/reviewls/reviewls/lsp"
)

// rawClient speaks JSON-RPC by hand, to send what no well-behaved client
// would.
type rawClient struct {
	t      *testing.T
	conn   net.Conn
	in     *bufio.Reader
	served chan error
}

func newRawClient(t *testing.T, opts lsp.Options) *rawClient {
	server, client := net.Pipe()
	c := &rawClient{t: t, conn: client, in: bufio.NewReader(client), served: make(chan error, 1)}
	go func() { c.served <- lsp.Serve(context.Background(), server, opts) }()
	t.Cleanup(func() { client.Close() })
	return c
}

func (c *rawClient) writeRaw(s string) {
	c.t.Helper()
	if _, err := io.WriteString(c.conn, s); err != nil {
		c.t.Fatal(err)
	}
}

func (c *rawClient) send(msg map[string]any) {
	c.t.Helper()
	msg["jsonrpc"] = "2.0"
	data, _ := json.Marshal(msg)
	c.writeRaw(fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(data), data))
}

// read returns the next message from the server that is a response (it
// skips server notifications and requests, answering requests with null).
func (c *rawClient) read() map[string]any {
	c.t.Helper()
	for {
		length := 0
		for {
			line, err := c.in.ReadString('\n')
			if err != nil {
				c.t.Fatalf("read header: %v", err)
			}
			line = strings.TrimSpace(line)
			if line == "" {
				break
			}
			if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
				length, _ = strconv.Atoi(v)
			}
		}
		body := make([]byte, length)
		if _, err := io.ReadFull(c.in, body); err != nil {
			c.t.Fatalf("read body: %v", err)
		}
		var msg map[string]any
		if err := json.Unmarshal(body, &msg); err != nil {
			c.t.Fatalf("bad message from server: %s", body)
		}
		_, hasMethod := msg["method"]
		if !hasMethod {
			return msg
		}
		if id, ok := msg["id"]; ok { // a request from the server
			c.send(map[string]any{"id": id, "result": nil})
		}
	}
}

func errCode(t *testing.T, msg map[string]any) float64 {
	t.Helper()
	e, ok := msg["error"].(map[string]any)
	if !ok {
		t.Fatalf("want an error response, got %v", msg)
	}
	return e["code"].(float64)
}

func (c *rawClient) initialize(dir string) {
	c.t.Helper()
	c.send(map[string]any{"id": 1, "method": "initialize", "params": map[string]any{
		"processId": nil, "rootUri": string(uri.File(dir)), "capabilities": map[string]any{},
	}})
	if resp := c.read(); resp["result"] == nil {
		c.t.Fatalf("initialize: %v", resp)
	}
	c.send(map[string]any{"method": "initialized", "params": map[string]any{}})
}

// TestProtocolErrors checks the server's answers to protocol misuse, and
// that it keeps serving after each.
func TestProtocolErrors(t *testing.T) {
	dir := repo(t, map[string]string{"a.go": "package a\n"})
	c := newRawClient(t, lsp.Options{DiagnosticsDelay: time.Millisecond})

	// A request before initialize.
	c.send(map[string]any{"id": 1, "method": "textDocument/hover", "params": map[string]any{}})
	if code := errCode(t, c.read()); code != -32002 {
		t.Errorf("request before initialize: code %v, want -32002 (ServerNotInitialized)", code)
	}
	// A malformed frame: not JSON.
	c.writeRaw("Content-Length: 9\r\n\r\n{not json")
	if code := errCode(t, c.read()); code != -32700 {
		t.Errorf("malformed body: code %v, want -32700 (ParseError)", code)
	}
	// A header without Content-Length.
	c.writeRaw("Content-Type: x\r\n\r\n")
	if code := errCode(t, c.read()); code != -32700 {
		t.Errorf("missing Content-Length: code %v, want -32700", code)
	}
	c.initialize(dir)
	// An unknown method.
	c.send(map[string]any{"id": 2, "method": "reviewls/frobnicate", "params": map[string]any{}})
	if code := errCode(t, c.read()); code != -32601 {
		t.Errorf("unknown method: code %v, want -32601 (MethodNotFound)", code)
	}
	// Bad params for a known method.
	c.send(map[string]any{"id": 3, "method": "textDocument/hover", "params": "nope"})
	if code := errCode(t, c.read()); code != -32700 && code != -32602 {
		t.Errorf("bad params: code %v, want a parse or invalid-params error", code)
	}
	// An unknown command.
	c.send(map[string]any{"id": 4, "method": "workspace/executeCommand", "params": map[string]any{"command": "reviewls.nope"}})
	if code := errCode(t, c.read()); code != -32602 {
		t.Errorf("unknown command: code %v, want -32602 (InvalidParams)", code)
	}
	// Still serving: a real request works, then a clean exit.
	c.shutdown(5)
	c.send(map[string]any{"id": 6, "method": "textDocument/hover", "params": map[string]any{}})
	if code := errCode(t, c.read()); code != -32600 {
		t.Errorf("request after shutdown: code %v, want -32600 (InvalidRequest)", code)
	}
	c.exit()
}

// TestHostileMessages checks that the real server survives messages it
// must not decode: two million levels of nesting (which overflowed the
// decoder's stack and killed the server) and a body over the size limit.
// A request gets InvalidRequest under its id, a notification is dropped,
// and the next request is answered.
func TestHostileMessages(t *testing.T) {
	dir := repo(t, map[string]string{"a.go": "package a\n"})
	c := newRawClient(t, lsp.Options{DiagnosticsDelay: time.Millisecond})
	c.initialize(dir)
	nested := strings.Repeat("[", 2_000_000) + strings.Repeat("]", 2_000_000)
	const limit = 64 << 20 // 64 MiB and one byte, sent in pieces
	head := `{"jsonrpc":"2.0","id":8,"method":"textDocument/didOpen","params":"`
	pad := strings.Repeat("x", 1<<20)
	// The server writes (its log, its answers) while these arrive: write
	// them as a client does, beside the reading.
	wrote := make(chan error, 1)
	go func() {
		var err error
		put := func(s string) {
			if err == nil {
				_, err = io.WriteString(c.conn, s)
			}
		}
		for _, body := range []string{
			`{"jsonrpc":"2.0","method":"textDocument/didChange","params":` + nested + `}`,
			`{"jsonrpc":"2.0","id":7,"method":"textDocument/hover","params":` + nested + `}`,
		} {
			put(fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body))
		}
		put(fmt.Sprintf("Content-Length: %d\r\n\r\n%s", limit+1, head))
		for left := limit + 1 - len(head); left > 0; left -= len(pad) {
			put(pad[:min(left, len(pad))])
		}
		wrote <- err
	}()
	resp := c.read()
	if code := errCode(t, resp); code != -32600 || resp["id"] != 7.0 {
		t.Errorf("deep request: %v, want InvalidRequest (-32600) for id 7", resp)
	}
	resp = c.read()
	if code := errCode(t, resp); code != -32600 || resp["id"] != 8.0 {
		t.Errorf("oversized request: %v, want InvalidRequest (-32600) for id 8", resp)
	}
	if err := <-wrote; err != nil {
		t.Fatal(err)
	}

	// Still serving.
	c.send(map[string]any{"id": 9, "method": "workspace/executeCommand", "params": map[string]any{"command": "reviewls.nope"}})
	if resp := c.read(); errCode(t, resp) != -32602 || resp["id"] != 9.0 {
		t.Errorf("next request: %v, want its InvalidParams answer", resp)
	}
	c.shutdown(10)
	c.exit()
}

func TestExitWithoutShutdown(t *testing.T) {
	dir := repo(t, map[string]string{"a.go": "package a\n"})
	c := newRawClient(t, lsp.Options{})
	c.initialize(dir)
	c.send(map[string]any{"method": "exit"})
	select {
	case err := <-c.served:
		if !errors.Is(err, lsp.ErrExitWithoutShutdown) {
			t.Errorf("Serve = %v, want ErrExitWithoutShutdown", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("server did not exit")
	}
}

// TestClientProcessDies checks that the server exits when the process
// named in initialize's processId is gone.
func TestClientProcessDies(t *testing.T) {
	dir := repo(t, map[string]string{"a.go": "package a\n"})
	proc := exec.Command("sleep", "600")
	if err := proc.Start(); err != nil {
		t.Fatal(err)
	}
	c := newRawClient(t, lsp.Options{ProcessPoll: 5 * time.Millisecond})
	c.send(map[string]any{"id": 1, "method": "initialize", "params": map[string]any{
		"processId": proc.Process.Pid, "rootUri": string(uri.File(dir)), "capabilities": map[string]any{},
	}})
	c.read()
	proc.Process.Kill()
	proc.Wait()
	select {
	case <-c.served:
	case <-time.After(10 * time.Second):
		t.Fatal("server still running after its client process died")
	}
}
