// Package lsptest drives the real reviewls language server from a fake
// client over an in-memory pipe, for tests. The fake client records what
// the server sends (diagnostics with their document versions, messages,
// progress, edits); tests act like an editor (open, edit, save, close) or
// like a user at a shell (write files, run git), then wait for an
// expected state with [Env.Await], never for a length of time. When a
// wait times out it reports the last state it saw.
//
// A test typically builds a repository with review/reviewtest, then:
//
//	env := lsptest.New(t, dir, lsptest.Config{})
//	env.OpenFile("a.go")
//	env.EditFile("a.go", "package a\n// TODO: x\n")
//	env.Await(lsptest.DiagnosticsAt("a.go", 2, lsptest.OnLines(2)))
//	env.Shutdown()
package lsptest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"go.uber.org/zap"

	"github.com/reviewls/reviewls/lsp"
)

// Config tunes an Env.
type Config struct {
	// Options are passed to lsp.Serve; a zero DiagnosticsDelay becomes 1ms
	// and a zero ArtifactDelay one hour (tests flush explicitly).
	Options lsp.Options
	// InitializationOptions are sent with initialize.
	InitializationOptions any
	// Folders are workspace folder paths; default the repository dir.
	Folders []string
	// NoProgress leaves workDoneProgress out of the client capabilities.
	NoProgress bool
	// Command, when set, runs this server binary (e.g. ["reviewls",
	// "serve"]) and speaks to it over its stdin and stdout instead of
	// running lsp.Serve in process. Its stderr goes to the test log.
	Command []string
	// Stderr, when set, receives the Command's stderr instead of the test
	// log.
	Stderr io.Writer
	// Wire, when set, receives a copy of every byte the server sends, as
	// framed on the stream: every response and notification, whether or
	// not the client records it. Writes come from the client's reading
	// goroutine; synchronise before reading what Wire holds.
	Wire io.Writer
}

// Env is a running server and its fake client.
type Env struct {
	T      testing.TB
	Ctx    context.Context
	Dir    string
	Server protocol.Server
	Client *Client

	conn     jsonrpc2.Conn
	served   chan error
	versions map[string]int32
}

// New starts the server on dir and initializes it.
func New(t testing.TB, dir string, cfg Config) *Env {
	t.Helper()
	opts := cfg.Options
	if opts.DiagnosticsDelay == 0 {
		opts.DiagnosticsDelay = time.Millisecond
	}
	if opts.ArtifactDelay == 0 {
		opts.ArtifactDelay = time.Hour
	}
	ctx, cancel := context.WithCancel(context.Background())
	env := &Env{T: t, Ctx: ctx, Dir: dir, Client: newClient(), served: make(chan error, 1), versions: map[string]int32{}}
	env.Client.state.Dir = dir
	var clientSide io.ReadWriteCloser
	if len(cfg.Command) > 0 {
		cmd := exec.CommandContext(ctx, cfg.Command[0], cfg.Command[1:]...)
		cmd.Dir = dir
		cmd.Stderr = testWriter{t}
		if cfg.Stderr != nil {
			cmd.Stderr = cfg.Stderr
		}
		stdin, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatalf("start %v: %v", cfg.Command, err)
		}
		clientSide = pipeRWC{stdout, stdin}
		go func() { env.served <- cmd.Wait() }()
	} else {
		serverSide, c := net.Pipe()
		clientSide = c
		go func() { env.served <- lsp.Serve(ctx, serverSide, opts) }()
	}
	if cfg.Wire != nil {
		clientSide = wireTap{clientSide, cfg.Wire}
	}
	env.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(clientSide))
	env.conn.Go(ctx, protocol.ClientHandler(env.Client, env.Client.custom))
	env.Server = protocol.ServerDispatcher(env.conn, zap.NewNop())
	t.Cleanup(func() {
		cancel()
		env.conn.Close()
		select {
		case <-env.served:
		case <-time.After(10 * time.Second):
			t.Errorf("server did not stop")
		}
	})

	folders := cfg.Folders
	if len(folders) == 0 {
		folders = []string{dir}
	}
	var wf []protocol.WorkspaceFolder
	for _, f := range folders {
		wf = append(wf, protocol.WorkspaceFolder{URI: string(uri.File(f)), Name: filepath.Base(f)})
	}
	caps := protocol.ClientCapabilities{
		Window: &protocol.WindowClientCapabilities{WorkDoneProgress: !cfg.NoProgress},
		TextDocument: &protocol.TextDocumentClientCapabilities{
			PublishDiagnostics: &protocol.PublishDiagnosticsClientCapabilities{VersionSupport: true},
		},
	}
	_, err := env.Server.Initialize(ctx, &protocol.InitializeParams{
		ProcessID:             int32(os.Getpid()),
		RootURI:               protocol.DocumentURI(uri.File(folders[0])),
		WorkspaceFolders:      wf,
		Capabilities:          caps,
		InitializationOptions: cfg.InitializationOptions,
	})
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	if err := env.Server.Initialized(ctx, &protocol.InitializedParams{}); err != nil {
		t.Fatalf("initialized: %v", err)
	}
	return env
}

// URI returns the file URI of a repo-relative path.
func (e *Env) URI(path string) protocol.DocumentURI {
	return protocol.DocumentURI(uri.File(filepath.Join(e.Dir, filepath.FromSlash(path))))
}

// ReadFile returns a file of the work tree.
func (e *Env) ReadFile(path string) string {
	e.T.Helper()
	data, err := os.ReadFile(filepath.Join(e.Dir, filepath.FromSlash(path)))
	if err != nil {
		e.T.Fatal(err)
	}
	return string(data)
}

// WriteFile writes a file of the work tree, as another program would.
func (e *Env) WriteFile(path, content string) {
	e.T.Helper()
	full := filepath.Join(e.Dir, filepath.FromSlash(path))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		e.T.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
		e.T.Fatal(err)
	}
}

// Git runs the git binary in the repository with an isolated, fixed
// environment and returns its output.
func (e *Env) Git(args ...string) string {
	e.T.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = e.Dir
	home := e.T.TempDir()
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=lsptest", "GIT_AUTHOR_EMAIL=lsptest@example.com",
		"GIT_COMMITTER_NAME=lsptest", "GIT_COMMITTER_EMAIL=lsptest@example.com")
	out, err := cmd.CombinedOutput()
	if err != nil {
		e.T.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// Version returns the editor version of an open document.
func (e *Env) Version(path string) int32 { return e.versions[path] }

// OpenFile opens a file as the editor shows it on disk; its version is 1.
func (e *Env) OpenFile(path string) {
	e.T.Helper()
	e.versions[path] = 1
	err := e.Server.DidOpen(e.Ctx, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: e.URI(path), LanguageID: protocol.LanguageIdentifier(languageID(path)), Version: 1, Text: e.ReadFile(path),
	}})
	if err != nil {
		e.T.Fatalf("didOpen %s: %v", path, err)
	}
}

func languageID(path string) string {
	switch filepath.Ext(path) {
	case ".go":
		return "go"
	case ".py":
		return "python"
	case ".ts":
		return "typescript"
	case ".js":
		return "javascript"
	}
	return "plaintext"
}

// EditFile replaces the buffer's whole text (an unsaved edit).
func (e *Env) EditFile(path, text string) int32 {
	e.T.Helper()
	return e.change(path, map[string]any{"text": text})
}

// Edit applies one incremental change: replace the range with text.
func (e *Env) Edit(path string, r protocol.Range, text string) int32 {
	e.T.Helper()
	return e.change(path, map[string]any{"range": r, "text": text})
}

func (e *Env) change(path string, change map[string]any) int32 {
	e.T.Helper()
	e.versions[path]++
	v := e.versions[path]
	params := map[string]any{
		"textDocument":   map[string]any{"uri": e.URI(path), "version": v},
		"contentChanges": []any{change},
	}
	if err := e.conn.Notify(e.Ctx, protocol.MethodTextDocumentDidChange, params); err != nil {
		e.T.Fatalf("didChange %s: %v", path, err)
	}
	return v
}

// SaveFile writes text to disk and sends didSave.
func (e *Env) SaveFile(path, text string) {
	e.T.Helper()
	e.WriteFile(path, text)
	if err := e.Server.DidSave(e.Ctx, &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: e.URI(path)}}); err != nil {
		e.T.Fatalf("didSave %s: %v", path, err)
	}
}

// CloseFile closes the buffer.
func (e *Env) CloseFile(path string) {
	e.T.Helper()
	delete(e.versions, path)
	if err := e.Server.DidClose(e.Ctx, &protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: e.URI(path)}}); err != nil {
		e.T.Fatalf("didClose %s: %v", path, err)
	}
}

// ExecuteCommand runs a workspace command and decodes its result into out
// (which may be nil).
func (e *Env) ExecuteCommand(command string, out any, args ...any) error {
	e.T.Helper()
	var raw json.RawMessage
	err := protocol.Call(e.Ctx, e.conn, protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{Command: command, Arguments: args}, &raw)
	if err != nil {
		return err
	}
	if out != nil {
		return json.Unmarshal(raw, out)
	}
	return nil
}

// CodeActions returns the code actions at a range of a file.
func (e *Env) CodeActions(path string, r protocol.Range, only ...protocol.CodeActionKind) []protocol.CodeAction {
	e.T.Helper()
	actions, err := e.Server.CodeAction(e.Ctx, &protocol.CodeActionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: e.URI(path)},
		Range:        r,
		Context:      protocol.CodeActionContext{Diagnostics: e.Client.Diagnostics(e.URI(path)), Only: only},
	})
	if err != nil {
		e.T.Fatalf("codeAction %s: %v", path, err)
	}
	return actions
}

// Hover returns the hover at a position.
func (e *Env) Hover(path string, p protocol.Position) *protocol.Hover {
	e.T.Helper()
	h, err := e.Server.Hover(e.Ctx, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: e.URI(path)}, Position: p,
	}})
	if err != nil {
		e.T.Fatalf("hover %s: %v", path, err)
	}
	return h
}

// Shutdown sends shutdown and exit and waits for the server to return
// cleanly.
func (e *Env) Shutdown() {
	e.T.Helper()
	if err := e.Server.Shutdown(e.Ctx); err != nil {
		e.T.Fatalf("shutdown: %v", err)
	}
	if err := e.Server.Exit(e.Ctx); err != nil {
		e.T.Fatalf("exit: %v", err)
	}
	select {
	case err := <-e.served:
		e.served <- err // for Cleanup
		if err != nil {
			e.T.Fatalf("server exited with %v after shutdown and exit", err)
		}
	case <-time.After(10 * time.Second):
		e.T.Fatalf("server did not exit after shutdown and exit")
	}
}

// Expectation is a condition on the client's observed state; it returns
// whether it holds and a description for failure messages.
type Expectation func(s *State) (bool, string)

// Await waits until every expectation holds, or fails the test with the
// last state seen when the deadline (30s, or the test's) passes.
func (e *Env) Await(exps ...Expectation) {
	e.T.Helper()
	ctx, cancel := context.WithTimeout(e.Ctx, 30*time.Second)
	defer cancel()
	if d, ok := e.T.(interface{ Deadline() (time.Time, bool) }); ok {
		if dl, ok := d.Deadline(); ok {
			var c2 context.CancelFunc
			ctx, c2 = context.WithDeadline(ctx, dl.Add(-2*time.Second))
			defer c2()
		}
	}
	for {
		st, changed := e.Client.snapshot()
		var unmet []string
		for _, exp := range exps {
			if ok, desc := exp(st); !ok {
				unmet = append(unmet, desc)
			}
		}
		if len(unmet) == 0 {
			return
		}
		select {
		case <-changed:
		case <-ctx.Done():
			e.T.Fatalf("timed out waiting for:\n  %s\nlast state:\n%s", strings.Join(unmet, "\n  "), st)
		}
	}
}

// State is what the fake client has observed.
type State struct {
	// Diagnostics holds the last publication per URI.
	Diagnostics map[protocol.DocumentURI]Publication
	// Publications counts publications per URI.
	Publications map[protocol.DocumentURI]int
	Messages     []protocol.ShowMessageParams
	Logs         []protocol.LogMessageParams
	Progress     []protocol.ProgressParams
	// Reviews holds the reviewls/didReview notifications, in order.
	Reviews []json.RawMessage
	Dir     string
}

// Publication is one publishDiagnostics.
type Publication struct {
	Version     uint32
	Diagnostics []protocol.Diagnostic
}

func (s *State) String() string {
	var b strings.Builder
	var uris []string
	for u := range s.Diagnostics {
		uris = append(uris, string(u))
	}
	sort.Strings(uris)
	for _, u := range uris {
		p := s.Diagnostics[protocol.DocumentURI(u)]
		rel := strings.TrimPrefix(uri.URI(u).Filename(), s.Dir+string(filepath.Separator))
		fmt.Fprintf(&b, "  %s v%d (%d publications):\n", rel, p.Version, s.Publications[protocol.DocumentURI(u)])
		for _, d := range p.Diagnostics {
			fmt.Fprintf(&b, "    %d:%d %v %v %s\n", d.Range.Start.Line+1, d.Range.Start.Character, d.Severity, d.Code, d.Message)
		}
	}
	for _, m := range s.Messages {
		fmt.Fprintf(&b, "  message: %s\n", m.Message)
	}
	return b.String()
}

// pipeRWC joins a process's stdout (read) and stdin (write, close).
type pipeRWC struct {
	io.Reader
	io.WriteCloser
}

// wireTap copies what the client reads from the server to w.
type wireTap struct {
	io.ReadWriteCloser
	w io.Writer
}

func (t wireTap) Read(p []byte) (int, error) {
	n, err := t.ReadWriteCloser.Read(p)
	if n > 0 {
		t.w.Write(p[:n])
	}
	return n, err
}

// testWriter sends a server process's stderr to the test log.
type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Logf("server: %s", strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// State returns a copy of what the client has observed so far.
func (e *Env) State() *State {
	s, _ := e.Client.snapshot()
	return s
}
