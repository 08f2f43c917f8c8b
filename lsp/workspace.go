package lsp

import (
	"context"
	"path/filepath"
	"strings"
	"time"

	"go.lsp.dev/protocol"

	"github.com/reviewls/reviewls/artifacts"
)

// currentSettings returns the client settings in effect.
func (s *server) currentSettings() settings {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	return s.settings
}

// quiet returns the debounce delay in effect.
func (s *server) quiet() time.Duration {
	return s.currentSettings().quiet(s.opts.DiagnosticsDelay)
}

// showMessageOnce shows an error message the first time it occurs, so a
// failure that repeats on every keystroke is shown once (and logged every
// time).
func (s *server) showMessageOnce(msg string) { s.showOnce(protocol.MessageTypeError, msg) }

// showOnce shows a message of type typ the first time it occurs.
func (s *server) showOnce(typ protocol.MessageType, msg string) {
	s.shownMu.Lock()
	if s.shown == nil {
		s.shown = map[string]bool{}
	}
	seen := s.shown[msg]
	s.shown[msg] = true
	s.shownMu.Unlock()
	if !seen {
		s.showMessage(context.Background(), typ, msg)
	}
}

// DidChangeConfiguration applies new settings and reviews again.
func (s *server) DidChangeConfiguration(ctx context.Context, params *protocol.DidChangeConfigurationParams) error {
	st, err := parseSettings(params.Settings)
	if err != nil {
		s.showMessage(ctx, protocol.MessageTypeWarning, err.Error()+"; settings unchanged")
		return nil
	}
	s.stateMu.Lock()
	s.settings = st
	s.stateMu.Unlock()
	for _, ss := range s.allSessions() {
		ss.didModify(fromUser)
	}
	return nil
}

// DidChangeWatchedFiles feeds the client's file events into the same
// funnel as fsnotify's, deduplicated with them.
func (s *server) DidChangeWatchedFiles(ctx context.Context, params *protocol.DidChangeWatchedFilesParams) error {
	bySession := map[*session][]fileEvent{}
	for _, c := range params.Changes {
		p, err := uriPath(c.URI)
		if err != nil {
			continue
		}
		ss := s.sessionFor(p)
		if ss == nil {
			continue
		}
		kind := eventChanged
		switch c.Type {
		case protocol.FileChangeTypeCreated:
			kind = eventCreated
		case protocol.FileChangeTypeDeleted:
			kind = eventDeleted
		}
		bySession[ss] = append(bySession[ss], ss.classify(fileEvent{Path: p, Kind: kind}))
	}
	for ss, evs := range bySession {
		ss.addEvents(evs)
	}
	return nil
}

// DidChangeWorkspaceFolders opens sessions for added folders and closes
// (and clears the diagnostics of) removed ones.
func (s *server) DidChangeWorkspaceFolders(ctx context.Context, params *protocol.DidChangeWorkspaceFoldersParams) error {
	for _, f := range params.Event.Removed {
		p, err := uriPath(protocol.DocumentURI(f.URI))
		if err != nil {
			continue
		}
		s.sessionsMu.Lock()
		var kept []*session
		var gone []*session
		for _, ss := range s.sessions {
			if ss.folder == p {
				gone = append(gone, ss)
			} else {
				kept = append(kept, ss)
			}
		}
		s.setSessionsLocked(kept)
		s.sessionsMu.Unlock()
		for _, ss := range gone {
			ss.close()
			ss.pub.clear()
		}
	}
	s.addFolders(ctx, params.Event.Added)
	return nil
}

// allSessions returns a snapshot of the sessions.
func (s *server) allSessions() []*session {
	s.sessionsMu.Lock()
	defer s.sessionsMu.Unlock()
	return append([]*session(nil), s.sessions...)
}

// classify marks git-internal and artifact events of the session.
func (ss *session) classify(ev fileEvent) fileEvent {
	repo := ss.eng.Repo()
	for _, dir := range []string{repo.GitDir(), repo.CommonDir()} {
		if rel, err := filepath.Rel(dir, ev.Path); err == nil && !strings.HasPrefix(rel, "..") {
			rel = filepath.ToSlash(rel)
			if rel == "HEAD" || rel == "index" || rel == "packed-refs" || strings.HasPrefix(rel, "refs/") {
				ev.Git = true
			}
			return ev
		}
	}
	if rel, err := filepath.Rel(filepath.Join(ss.root, filepath.FromSlash(artifacts.ReviewsDir)), ev.Path); err == nil && !strings.HasPrefix(rel, "..") {
		ev.Artifact = true
	}
	return ev
}
