package lsp_test

import (
	"strings"
	"testing"
	"time"

	"go.lsp.dev/uri"

	"github.com/reviewls/reviewls/lsp"
)

// TestWrongParamTypes sends every method the server handles (and one it
// does not implement) params that do not decode into the method's type:
// each is answered InvalidParams, not a parse error, and the server keeps
// serving. Notifications are sent as calls here, so their answer is seen.
func TestWrongParamTypes(t *testing.T) {
	dir := repo(t, map[string]string{"a.go": "package a\n"})
	a := string(uri.File(dir + "/a.go"))
	c := newRawClient(t, lsp.Options{DiagnosticsDelay: time.Millisecond, ArtifactDelay: time.Hour})
	id := 100
	expectInvalid := func(method string, params any) {
		t.Helper()
		id++
		c.send(map[string]any{"id": id, "method": method, "params": params})
		resp := c.read()
		if code := errCode(t, resp); code != -32602 {
			t.Errorf("%s %v: code %v, want -32602 (InvalidParams): %v", method, params, code, resp)
		}
		if msg := resp["error"].(map[string]any)["message"].(string); strings.Contains(msg, "AKIA") {
			t.Errorf("%s: the error quotes the params: %s", method, msg)
		}
	}

	expectInvalid("initialize", map[string]any{"processId": "x", "rootUri": string(uri.File(dir)), "capabilities": map[string]any{}})
	expectInvalid("initialize", 5)
	c.initialize(dir) // the bad initialize changed nothing

	doc := map[string]any{"uri": a}
	for _, tc := range []struct {
		method string
		params any
	}{
		{"initialized", "x"},
		{"shutdown", map[string]any{"now": true}},
		{"textDocument/didOpen", map[string]any{"textDocument": 5}},
		{"textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": a, "version": "one", "text": ""}}},
		{"textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": 5}, "contentChanges": []any{}}},
		{"textDocument/didChange", map[string]any{"textDocument": doc, "contentChanges": "all"}},
		{"textDocument/didSave", map[string]any{"textDocument": []any{}, "text": 1}},
		{"textDocument/didClose", map[string]any{"textDocument": "x"}},
		{"textDocument/hover", map[string]any{"textDocument": doc, "position": "x"}},
		{"textDocument/hover", map[string]any{"textDocument": doc, "position": map[string]any{"line": -1.5}}},
		{"textDocument/codeAction", map[string]any{"textDocument": doc, "range": 5, "context": map[string]any{}}},
		{"textDocument/codeLens", map[string]any{"textDocument": 5}},
		// The decoding error would quote the command after arguments.
		{"workspace/executeCommand", map[string]any{"arguments": 5, "command": "AKIAIOSFODNN7EXAMPLE"}},
		{"workspace/executeCommand", map[string]any{"command": 5}},
		{"workspace/executeCommand", map[string]any{"command": "reviewls.review", "arguments": []any{5}}},
		{"workspace/didChangeConfiguration", "x"},
		{"workspace/didChangeWatchedFiles", map[string]any{"changes": 5}},
		{"workspace/didChangeWorkspaceFolders", map[string]any{"event": []any{}}},
		{"$/cancelRequest", map[string]any{"id": map[string]any{}}},
		{"$/cancelRequest", map[string]any{"id": true}},
		{"textDocument/completion", "x"}, // not implemented, but the params are checked first
	} {
		expectInvalid(tc.method, tc.params)
	}

	// The same as notifications get no answer and change nothing.
	c.send(map[string]any{"method": "textDocument/didOpen", "params": map[string]any{"textDocument": 5}})
	c.send(map[string]any{"method": "$/cancelRequest", "params": map[string]any{"id": true}})

	// Still serving, and params that do fit work.
	c.send(map[string]any{"id": 2, "method": "textDocument/hover", "params": map[string]any{"textDocument": doc, "position": map[string]any{"line": 0, "character": 0}}})
	if resp := c.read(); resp["error"] != nil {
		t.Errorf("hover with good params: %v", resp)
	}
	// Omitted params are null params: an unknown method is unknown.
	c.send(map[string]any{"id": 3, "method": "reviewls/frobnicate"})
	if code := errCode(t, c.read()); code != -32601 {
		t.Errorf("unknown method without params: code %v, want -32601 (MethodNotFound)", code)
	}
	c.shutdown(4)
	c.exit()
}

// TestNotificationOutsideSession checks notifications before initialize
// and after shutdown: they are dropped, and the server neither crashes
// (jsonrpc2 panics on a message never replied to) nor stops serving.
func TestNotificationOutsideSession(t *testing.T) {
	dir := repo(t, map[string]string{"a.go": "package a\n"})
	c := newRawClient(t, lsp.Options{})
	c.send(map[string]any{"method": "workspace/didChangeConfiguration", "params": map[string]any{"settings": map[string]any{}}})
	c.send(map[string]any{"method": "$/setTrace", "params": map[string]any{"value": "off"}})
	c.initialize(dir)
	c.shutdown(2)
	c.send(map[string]any{"method": "textDocument/didClose", "params": map[string]any{"textDocument": map[string]any{"uri": "file:///x"}}})
	c.send(map[string]any{"id": 3, "method": "textDocument/hover", "params": map[string]any{}})
	if code := errCode(t, c.read()); code != -32600 {
		t.Errorf("request after shutdown: code %v, want -32600 (InvalidRequest)", code)
	}
	c.exit()
}

// shutdown sends shutdown as request id and expects a success.
func (c *rawClient) shutdown(id int) {
	c.t.Helper()
	c.send(map[string]any{"id": id, "method": "shutdown"})
	if resp := c.read(); resp["error"] != nil {
		c.t.Fatalf("shutdown: %v", resp)
	}
}

// exit sends exit and expects Serve to return nil (after a shutdown).
func (c *rawClient) exit() {
	c.t.Helper()
	c.send(map[string]any{"method": "exit"})
	select {
	case err := <-c.served:
		if err != nil {
			c.t.Errorf("Serve after shutdown+exit = %v, want nil", err)
		}
	case <-time.After(10 * time.Second):
		c.t.Fatal("server did not exit")
	}
}
