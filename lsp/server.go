package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"go.uber.org/zap"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/engine"
)

// Options configures the server. The zero value is usable.
type Options struct {
	// Logger receives the server's logs; nil discards them. Warnings and
	// errors are also sent to the client as window/logMessage.
	Logger *slog.Logger
	// DiagnosticsDelay is the quiet window between the last change and
	// the review it triggers; 0 means DefaultDiagnosticsDelay. Tests use a
	// tiny value.
	DiagnosticsDelay time.Duration
	// ArtifactDelay is how long a review must stay current before the
	// server writes the artifact folder; 0 means DefaultArtifactDelay.
	ArtifactDelay time.Duration
	// AnalysisDelay is how long the session must stay quiet after a
	// published review before its type-aware analysis starts; 0 means
	// DefaultAnalysisDelay.
	AnalysisDelay time.Duration
	// ModelDelay is how long the session must stay quiet after a
	// published review before the model is asked; 0 means
	// DefaultModelDelay.
	ModelDelay time.Duration
	// PollInterval is how often the server rescans when the file watcher
	// could not watch everything (the OS watch limit); 0 means
	// DefaultPollInterval.
	PollInterval time.Duration
	// ProcessPoll is how often the server checks that the client process
	// is alive; 0 means DefaultProcessPoll.
	ProcessPoll time.Duration
	// Version is reported in serverInfo and written to artifacts.
	Version string
	// NoWatch disables the fsnotify watcher (the client's
	// didChangeWatchedFiles events still work).
	NoWatch bool
	// GitEnv is the git environment every session opens its repository
	// with, a workspace folder taking the place of git's current
	// directory: `reviewls serve` passes the process's
	// ([engine.ProcessEnv]), so $GIT_DIR, $GIT_WORK_TREE and
	// $GIT_INDEX_FILE apply to the server as to the CLI. The zero value
	// discovers each folder's repository.
	GitEnv engine.Env
	// UserDir is the user's reviewls folder ([engine.UserDir]): the user
	// configuration file, below the editor's settings and above each
	// repository's .reviewls.yaml, and the repositories the user trusted
	// to run tools. "" reads none and trusts no repository.
	UserDir string
}

const (
	// DefaultDiagnosticsDelay is short enough that findings appear while
	// the user pauses typing, and long enough that a burst of keystrokes
	// (or a git command touching many files) costs one review.
	DefaultDiagnosticsDelay = 200 * time.Millisecond
	// DefaultArtifactDelay keeps typing from rewriting the artifact folder
	// on every keystroke: it is written once the review has been stable for
	// two seconds.
	DefaultArtifactDelay = 2 * time.Second
	// DefaultAnalysisDelay keeps the type-aware analysis (a go/packages
	// load: hundreds of milliseconds of both cores on a large module)
	// from running between the saves of a burst, where each save would
	// cancel it and it would only slow their reviews down.
	DefaultAnalysisDelay = time.Second
	// DefaultPollInterval is the rescan period when the watch limit was
	// hit: a full status scan of a large repository takes a few hundred
	// milliseconds, so every five seconds keeps the cost below 10%.
	DefaultPollInterval = 5 * time.Second
	// DefaultProcessPoll checks the client process every two seconds, as
	// gopls does: cheap, and an orphaned server lingers at most that long.
	DefaultProcessPoll = 2 * time.Second
)

func (o *Options) withDefaults() Options {
	c := *o
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if c.DiagnosticsDelay <= 0 {
		c.DiagnosticsDelay = DefaultDiagnosticsDelay
	}
	if c.ArtifactDelay <= 0 {
		c.ArtifactDelay = DefaultArtifactDelay
	}
	if c.AnalysisDelay <= 0 {
		c.AnalysisDelay = DefaultAnalysisDelay
	}
	if c.PollInterval <= 0 {
		c.PollInterval = DefaultPollInterval
	}
	if c.ProcessPoll <= 0 {
		c.ProcessPoll = DefaultProcessPoll
	}
	if c.Version == "" {
		c.Version = "devel"
	}
	return c
}

// exitReadGrace is how long Serve waits, after the exit notification, for
// the client to close the server's stdin.
const exitReadGrace = 100 * time.Millisecond

// ErrExitWithoutShutdown is returned by Serve when the client sent exit
// without shutdown, or the stream ended before a clean exit; the process
// should exit with status 1 (LSP spec).
var ErrExitWithoutShutdown = errors.New("exit without shutdown")

// Serve runs the language server on rwc until the client exits or ctx is
// done. It returns nil after shutdown+exit.
func Serve(ctx context.Context, rwc io.ReadWriteCloser, opts Options) error {
	opts = opts.withDefaults()
	s := newServer(opts)
	st := newStream(rwc, func(err error) { s.logger.Warn("malformed JSON-RPC message", "err", err) })
	st.redact = s.redactMessage
	conn := jsonrpc2.NewConn(st)
	s.conn = conn
	s.client = protocol.ClientDispatcher(conn, zap.NewNop())
	conn.Go(ctx, wireErrors(s.exitHandler(s.cancelHandler(asyncHandler(jsonrpc2.ReplyHandler(s.handle))))))
	select {
	case <-conn.Done():
	case <-s.exited:
		// Exit now, even if the client keeps stdin open (ALE and Eglot
		// do): a read from a pipe does not stop when the file is closed,
		// so the reader gets a moment to see the end of stdin from
		// clients that close it, and is then left behind.
		conn.Close()
		select {
		case <-conn.Done():
		case <-time.After(exitReadGrace):
		}
	case <-ctx.Done():
		conn.Close()
		<-conn.Done()
	}
	s.stopAll()
	s.stateMu.Lock()
	clean := s.exitClean
	s.stateMu.Unlock()
	if !clean {
		return ErrExitWithoutShutdown
	}
	return nil
}

type serverState int

const (
	stateCreated serverState = iota
	stateInitialized
	stateShutdown
)

// server implements protocol.Server. Handlers turn parameters into session
// calls and results back into protocol types; the review itself happens in
// sessions.
type server struct {
	opts   Options
	logger *slog.Logger
	conn   jsonrpc2.Conn
	client protocol.Client

	// stateMu guards state, exitClean, caps, settings and rootFolders.
	stateMu     sync.Mutex
	state       serverState
	exitClean   bool
	caps        protocol.ClientCapabilities
	settings    settings
	settingsErr error
	rootFolders []protocol.WorkspaceFolder

	// docsMu guards docs.
	docsMu sync.Mutex
	docs   map[protocol.DocumentURI]*document

	// sessionsMu guards sessions; sessionsGen counts their changes, so
	// that a document's cached owner (document.owner) is known stale.
	sessionsMu  sync.Mutex
	sessions    []*session
	sessionsGen atomic.Uint64

	// redMu guards redactors, each session's current redactor; red is
	// their union with the secret detector, which every outgoing message
	// passes (see redactMessage).
	redMu     sync.Mutex
	redactors map[*session]*review.Redactor
	red       atomic.Pointer[review.Redactor]

	// shownMu guards shown, the messages showMessageOnce already showed.
	shownMu sync.Mutex
	shown   map[string]bool

	stop     chan struct{} // closed by stopAll
	exited   chan struct{} // closed by the exit notification
	exitOnce sync.Once
	stopOnce sync.Once
	wg       sync.WaitGroup
}

// document is an open editor buffer.
type document struct {
	uri        protocol.DocumentURI
	version    int32
	languageID string
	text       []byte
	// sum is the hash of text once computed (summed); disk is the file
	// as last compared, diskSum its hash, read at readAt (see onDisk).
	sum     [32]byte
	summed  bool
	disk    fileStamp
	diskSum [32]byte
	readAt  time.Time
	// clean is the verdict of the last comparison with the disk, valid
	// while compared is set: until the text changes, or the file is
	// reported modified (see server.overlays).
	clean, compared bool
	// owner and rel are the session the document belongs to and its path
	// there, as of sessions generation ownerGen (see server.ownerOf).
	owner    *session
	rel      string
	ownerGen uint64
}

func newServer(opts Options) *server {
	s := &server{
		opts:   opts,
		docs:   map[protocol.DocumentURI]*document{},
		stop:   make(chan struct{}),
		exited: make(chan struct{}),
	}
	s.logger = slog.New(&clientLog{inner: opts.Logger.Handler(), srv: s}).With("component", "lsp")
	return s
}

var _ protocol.Server = (*server)(nil)

// handle checks the lifecycle state and dispatches a message.
func (s *server) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	_, isCall := req.(*jsonrpc2.Call)
	s.stateMu.Lock()
	state := s.state
	s.stateMu.Unlock()
	method := req.Method()
	switch {
	case method == protocol.MethodInitialize:
		if state != stateCreated {
			return reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "initialize may be sent only once"))
		}
	case method == protocol.MethodExit:
	case state == stateCreated:
		if isCall {
			return reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.ServerNotInitialized, "the server is not initialized: send initialize first"))
		}
		// A dropped notification is still "replied" (a no-op on the wire):
		// jsonrpc2.ReplyHandler panics on a message never replied to.
		s.logger.Debug("notification before initialize dropped", "method", method)
		return reply(ctx, nil, nil)
	case state == stateShutdown:
		if isCall {
			return reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "the server is shutting down"))
		}
		return reply(ctx, nil, nil)
	case method == protocol.MethodTextDocumentDidChange:
		// Decoded here: protocol's change event cannot tell a missing range
		// (full text) from an insertion at 0:0.
		var params didChangeParams
		if err := json.Unmarshal(req.Params(), &params); err != nil {
			return reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "didChange: "+err.Error()))
		}
		if err := s.didChange(ctx, &params); err != nil {
			s.logger.Warn("didChange", "uri", params.TextDocument.URI, "err", err)
		}
		return reply(ctx, nil, nil)
	}
	if len(req.Params()) == 0 && method != protocol.MethodShutdown {
		// Omitted params are null params: protocol's dispatcher would
		// call an omitted object a parse error, and would answer an
		// unknown method without params that way instead of
		// MethodNotFound.
		req = withNullParams(req)
	}
	return protocol.ServerHandler(s, jsonrpc2.MethodNotFoundHandler)(ctx, s.replier(method, isCall, reply), req)
}

// withNullParams is req with params null.
func withNullParams(req jsonrpc2.Request) jsonrpc2.Request {
	null := json.RawMessage("null")
	if call, ok := req.(*jsonrpc2.Call); ok {
		if c, err := jsonrpc2.NewCall(call.ID(), call.Method(), null); err == nil {
			return c
		}
		return req
	}
	if n, err := jsonrpc2.NewNotification(req.Method(), null); err == nil {
		return n
	}
	return req
}

// replier logs errors of notifications, which jsonrpc2 drops.
func (s *server) replier(method string, isCall bool, reply jsonrpc2.Replier) jsonrpc2.Replier {
	return func(ctx context.Context, result any, err error) error {
		if err != nil && !isCall {
			s.logger.Warn("notification failed", "method", method, "err", wireError(err))
		}
		return reply(ctx, result, err)
	}
}

// wireErrors gives every error a handler replies with its JSON-RPC code
// (see wireError); it wraps the whole handler chain, so the errors of
// protocol's cancel and dispatch layers are covered too.
func wireErrors(next jsonrpc2.Handler) jsonrpc2.Handler {
	return func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		return next(ctx, func(ctx context.Context, result any, err error) error {
			if err != nil {
				err = wireError(err)
			}
			return reply(ctx, result, err)
		}, req)
	}
}

// wireError gives every error a JSON-RPC code: jsonrpc2 errors keep
// theirs (also when wrapped), cancellations become RequestCancelled, and
// anything else InternalError with its message. The wire encoding would
// send a plain error as code 0.
//
// protocol's dispatcher reports params it cannot decode into the method's
// type as a parse error (formatted with ErrParse, not wrapping it). The
// stream only passes on messages that are well-formed JSON, so such an
// error is always params of the wrong shape: InvalidParams.
func wireError(err error) error {
	var je *jsonrpc2.Error
	switch {
	case errors.As(err, &je):
		if error(je) == err {
			return err
		}
		return jsonrpc2.NewError(je.Code, err.Error())
	case strings.HasPrefix(err.Error(), jsonrpc2.ErrParse.Error()):
		detail := strings.TrimPrefix(strings.TrimPrefix(err.Error(), jsonrpc2.ErrParse.Error()), ": ")
		return jsonrpc2.NewError(jsonrpc2.InvalidParams, "invalid params: "+withoutInput(detail))
	case errors.Is(err, context.Canceled):
		return protocol.ErrRequestCancelled
	}
	return jsonrpc2.NewError(jsonrpc2.InternalError, err.Error())
}

// withoutInput drops the piece of the input a JSON decoding error quotes
// (`cannot unmarshal "…" into …`): it can hold anything the client sent,
// a secret in a document's text included, and the error is logged.
func withoutInput(msg string) string {
	const from, to = `cannot unmarshal "`, `" into `
	i := strings.Index(msg, from)
	if i < 0 {
		return msg
	}
	j := strings.LastIndex(msg, to)
	if j < i+len(from)-1 {
		return msg
	}
	return msg[:i] + "cannot unmarshal into " + msg[j+len(to):]
}

// Request answers methods the protocol package does not know.
func (s *server) Request(ctx context.Context, method string, params any) (any, error) {
	return nil, jsonrpc2.NewError(jsonrpc2.MethodNotFound, "method not found: "+method)
}

// stopAll stops every session and background goroutine and waits for them.
func (s *server) stopAll() {
	s.stopOnce.Do(func() {
		close(s.stop)
		s.sessionsMu.Lock()
		sessions := s.sessions
		s.setSessionsLocked(nil)
		s.sessionsMu.Unlock()
		for _, ss := range sessions {
			ss.close()
		}
	})
	s.wg.Wait()
}

// showMessage shows a message to the user; errors are logged.
func (s *server) showMessage(ctx context.Context, typ protocol.MessageType, msg string) {
	if err := s.client.ShowMessage(ctx, &protocol.ShowMessageParams{Type: typ, Message: msg}); err != nil {
		s.logger.Warn("showMessage", "err", err)
	}
}

// uriPath converts a file URI to an absolute path.
func uriPath(u protocol.DocumentURI) (string, error) {
	parsed, err := url.Parse(string(u))
	if err != nil {
		return "", fmt.Errorf("parse uri %q: %w", u, err)
	}
	if parsed.Scheme != "file" {
		return "", fmt.Errorf("uri %q: not a file uri", u)
	}
	return filepath.Clean(uri.URI(u).Filename()), nil
}

// pathURI converts an absolute path to a file URI.
func pathURI(path string) protocol.DocumentURI {
	return protocol.DocumentURI(uri.File(path))
}

// session returns the session whose root contains path, the deepest one
// when folders nest.
func (s *server) sessionFor(path string) *session {
	s.sessionsMu.Lock()
	defer s.sessionsMu.Unlock()
	var best *session
	for _, ss := range s.sessions {
		if path == ss.root || strings.HasPrefix(path, ss.root+string(filepath.Separator)) {
			if best == nil || len(ss.root) > len(best.root) {
				best = ss
			}
		}
	}
	return best
}

// sessionForURI is sessionFor for a document URI; it returns the session
// and the repo-relative slash path.
func (s *server) sessionForURI(u protocol.DocumentURI) (*session, string) {
	p, err := uriPath(u)
	if err != nil {
		return nil, ""
	}
	ss := s.sessionFor(p)
	if ss == nil {
		return nil, ""
	}
	rel, err := filepath.Rel(ss.root, p)
	if err != nil {
		return nil, ""
	}
	return ss, filepath.ToSlash(rel)
}

// severity maps a finding severity to an LSP diagnostic severity.
func severity(s review.Severity) protocol.DiagnosticSeverity {
	switch s {
	case review.SeverityCritical, review.SeverityHigh:
		return protocol.DiagnosticSeverityError
	case review.SeverityMedium:
		return protocol.DiagnosticSeverityWarning
	}
	return protocol.DiagnosticSeverityInformation
}
