package lsp

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"syscall"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/reviewls/reviewls/review"
)

// Initialize records the client's capabilities, folders and settings and
// advertises the server's features. Sessions are created in Initialized,
// when the client can receive messages.
func (s *server) Initialize(ctx context.Context, params *protocol.InitializeParams) (*protocol.InitializeResult, error) {
	st, err := parseSettings(params.InitializationOptions)
	if err != nil {
		// Keep going with defaults; Initialized tells the user.
		s.logger.Warn("bad initializationOptions", "err", err)
	}
	folders := params.WorkspaceFolders
	if len(folders) == 0 && params.RootURI != "" {
		folders = []protocol.WorkspaceFolder{{URI: string(params.RootURI), Name: "root"}}
	}
	if len(folders) == 0 && params.RootPath != "" {
		folders = []protocol.WorkspaceFolder{{URI: string(pathURI(params.RootPath)), Name: "root"}}
	}
	s.stateMu.Lock()
	s.state = stateInitialized
	s.caps = params.Capabilities
	s.settings = st
	s.settingsErr = err
	s.rootFolders = folders
	s.stateMu.Unlock()

	if pid := int(params.ProcessID); pid > 0 {
		s.wg.Go(func() { s.watchProcess(pid) })
	}
	return &protocol.InitializeResult{
		Capabilities: protocol.ServerCapabilities{
			TextDocumentSync: &protocol.TextDocumentSyncOptions{
				OpenClose: true,
				Change:    protocol.TextDocumentSyncKindIncremental,
				Save:      &protocol.SaveOptions{IncludeText: false},
			},
			HoverProvider: true,
			CodeActionProvider: &protocol.CodeActionOptions{
				CodeActionKinds: []protocol.CodeActionKind{protocol.QuickFix, protocol.Source, codeActionReviewNow, codeActionExplain, codeActionInvestigate},
			},
			CodeLensProvider:       &protocol.CodeLensOptions{},
			ExecuteCommandProvider: &protocol.ExecuteCommandOptions{Commands: commandNames()},
			Workspace: &protocol.ServerCapabilitiesWorkspace{
				WorkspaceFolders: &protocol.ServerCapabilitiesWorkspaceFolders{Supported: true, ChangeNotifications: true},
			},
		},
		ServerInfo: &protocol.ServerInfo{Name: "reviewls", Version: s.opts.Version},
	}, nil
}

// Initialized opens a session for every workspace folder inside a git
// repository and starts its first review. Folders outside a repository get
// one message and no errors.
func (s *server) Initialized(ctx context.Context, _ *protocol.InitializedParams) error {
	s.stateMu.Lock()
	folders, settingsErr := s.rootFolders, s.settingsErr
	s.stateMu.Unlock()
	if settingsErr != nil {
		s.showMessage(ctx, protocol.MessageTypeWarning, settingsErr.Error()+"; using defaults")
	}
	s.addFolders(ctx, folders)
	return nil
}

// addFolders opens sessions for folders, skipping folders already served.
func (s *server) addFolders(ctx context.Context, folders []protocol.WorkspaceFolder) {
	var notRepo []string
	for _, f := range folders {
		path, err := uriPath(protocol.DocumentURI(f.URI))
		if err != nil {
			s.logger.Warn("workspace folder", "uri", f.URI, "err", err)
			continue
		}
		if existing := s.sessionFor(path); existing != nil && existing.folder == path {
			continue
		}
		ss, err := s.newSession(path)
		if errors.Is(err, review.ErrNotRepository) {
			notRepo = append(notRepo, path)
			continue
		}
		if err != nil {
			s.logger.Warn("open workspace folder", "path", path, "err", err)
			s.showMessage(ctx, protocol.MessageTypeError, fmt.Sprintf("reviewls: %s: %v", path, err))
			continue
		}
		s.sessionsMu.Lock()
		select {
		case <-s.stop:
			// The server stopped while the folder opened: stopAll has
			// taken the sessions already.
			s.sessionsMu.Unlock()
			ss.close()
			return
		default:
		}
		s.setSessionsLocked(append(s.sessions, ss))
		s.sessionsMu.Unlock()
		s.logger.Info("session opened", "root", ss.root, "folder", path)
		ss.start()
	}
	if len(notRepo) > 0 {
		s.showMessage(ctx, protocol.MessageTypeInfo, fmt.Sprintf("reviewls: not a git repository, nothing to review: %s", strings.Join(notRepo, ", ")))
	}
}

// Shutdown stops all review work; the connection stays open until exit.
func (s *server) Shutdown(ctx context.Context) error {
	s.stateMu.Lock()
	s.state = stateShutdown
	s.stateMu.Unlock()
	s.stopAll()
	return nil
}

// Exit ends the server; exitHandler has already done it.
func (s *server) Exit(ctx context.Context) error {
	s.exit()
	return nil
}

// exit records whether the exit is clean (shutdown came first) and lets
// Serve return.
func (s *server) exit() {
	s.exitOnce.Do(func() {
		s.stateMu.Lock()
		s.exitClean = s.state == stateShutdown
		s.stateMu.Unlock()
		close(s.exited)
	})
}

// exitHandler acts on the exit notification as it is read, in order with
// the stream, rather than in a handler goroutine: a client that sends exit
// and closes stdin at once (vscode-languageclient) must still get a clean
// exit, not a race between the end of the stream and the handler.
func (s *server) exitHandler(next jsonrpc2.Handler) jsonrpc2.Handler {
	return func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		if req.Method() == protocol.MethodExit {
			s.exit()
			return nil
		}
		return next(ctx, reply, req)
	}
}

// watchProcess closes the connection when the client process dies.
func (s *server) watchProcess(pid int) {
	t := time.NewTicker(s.opts.ProcessPoll)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
			if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
				s.logger.Info("client process is gone; exiting", "pid", pid)
				go s.conn.Close()
				return
			}
		}
	}
}
