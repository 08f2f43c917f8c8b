package lsp

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"strings"
	"time"

	"go.lsp.dev/protocol"
)

// didChangeParams is textDocument/didChange with range-aware changes.
type didChangeParams struct {
	TextDocument   protocol.VersionedTextDocumentIdentifier `json:"textDocument"`
	ContentChanges []contentChange                          `json:"contentChanges"`
}

// modSource says where a modification came from.
type modSource int

const (
	fromEditor  modSource = iota // didOpen, didClose: an overlay came or went
	fromTyping                   // didChange: an overlay changed
	fromSave                     // didSave: the file on disk now matches the buffer
	fromWatcher                  // fsnotify or didChangeWatchedFiles
	fromGit                      // HEAD, the index or refs moved: rescan everything
	fromUser                     // a command asked for a review
	fromPoll                     // the watch-limit fallback's periodic rescan
)

// modification is one changed path of a session.
type modification struct {
	path string // repo-relative, slash-separated
	uri  protocol.DocumentURI
}

// DidOpen records the buffer and reviews it.
func (s *server) DidOpen(ctx context.Context, params *protocol.DidOpenTextDocumentParams) error {
	d := params.TextDocument
	s.docsMu.Lock()
	s.docs[d.URI] = &document{uri: d.URI, version: d.Version, languageID: string(d.LanguageID), text: []byte(d.Text)}
	s.docsMu.Unlock()
	return s.modified(d.URI, fromEditor)
}

func (s *server) didChange(ctx context.Context, params *didChangeParams) error {
	u := params.TextDocument.URI
	s.docsMu.Lock()
	d, ok := s.docs[u]
	if !ok {
		s.docsMu.Unlock()
		return fmt.Errorf("change to %s, which is not open", u)
	}
	text, err := applyChanges(d.text, params.ContentChanges)
	if err != nil {
		s.docsMu.Unlock()
		return err
	}
	d.setText(text)
	d.version = params.TextDocument.Version
	s.docsMu.Unlock()
	return s.modified(u, fromTyping)
}

// DidChange is never called: handle decodes didChange itself.
func (s *server) DidChange(ctx context.Context, params *protocol.DidChangeTextDocumentParams) error {
	return fmt.Errorf("didChange reached the protocol dispatcher")
}

// DidSave reviews the saved file: its buffer and the disk now agree.
func (s *server) DidSave(ctx context.Context, params *protocol.DidSaveTextDocumentParams) error {
	if params.Text != "" {
		s.docsMu.Lock()
		if d, ok := s.docs[params.TextDocument.URI]; ok {
			d.setText([]byte(params.Text))
		}
		s.docsMu.Unlock()
	}
	if ss, rel := s.sessionForURI(params.TextDocument.URI); ss != nil {
		ss.noteSaved(rel)
	}
	return s.modified(params.TextDocument.URI, fromSave)
}

// DidClose drops the buffer: the file on disk is reviewed again.
func (s *server) DidClose(ctx context.Context, params *protocol.DidCloseTextDocumentParams) error {
	s.docsMu.Lock()
	delete(s.docs, params.TextDocument.URI)
	s.docsMu.Unlock()
	return s.modified(params.TextDocument.URI, fromEditor)
}

// modified funnels a document change to its session.
func (s *server) modified(u protocol.DocumentURI, src modSource) error {
	ss, rel := s.sessionForURI(u)
	if ss == nil {
		return nil // outside every repository: nothing to review
	}
	ss.didModify(src, modification{path: rel, uri: u})
	return nil
}

// overlays returns the open documents of a session that differ from
// their file on disk as repo-relative path -> text, and the version of
// every open document. A buffer equal to the disk is no overlay: the
// review reads the file, and the type-aware analysis keeps using export
// data (any overlay makes go/packages type-check dependencies from
// source).
//
// Only the documents that may have moved are compared again: all of them
// for a full run, otherwise those whose text changed and those under a
// modified path. Any other document's file has not changed since its last
// comparison, or the watcher would have reported it, so a save costs
// one comparison, not one per open document.
func (s *server) overlays(ss *session, full bool, modified []string) (map[string][]byte, map[string]int32) {
	s.docsMu.Lock()
	defer s.docsMu.Unlock()
	texts := map[string][]byte{}
	versions := map[string]int32{}
	for u, d := range s.docs {
		owner, rel := s.ownerOf(u, d)
		if owner != ss {
			continue
		}
		versions[rel] = d.version
		if full || !d.compared || under(rel, modified) {
			d.clean, d.compared = d.onDisk(ss.absPath(rel)), true
		}
		if !d.clean {
			texts[rel] = d.text
		}
	}
	return texts, versions
}

// openText returns the text of the open document at the repo-relative
// path of session ss, and whether one is open.
func (s *server) openText(ss *session, path string) ([]byte, bool) {
	s.docsMu.Lock()
	defer s.docsMu.Unlock()
	for u, d := range s.docs {
		if owner, rel := s.ownerOf(u, d); owner == ss && rel == path {
			return d.text, true
		}
	}
	return nil, false
}

// setSessionsLocked replaces the sessions, which makes every document's
// cached owner stale. Requires sessionsMu.
func (s *server) setSessionsLocked(sessions []*session) {
	s.sessions = sessions
	s.sessionsGen.Add(1)
}

// ownerOf is sessionForURI for an open document, cached on it until the
// sessions change. Requires docsMu.
func (s *server) ownerOf(u protocol.DocumentURI, d *document) (*session, string) {
	// Read the generation first: a change after it makes the cache stale.
	gen := s.sessionsGen.Load()
	if d.ownerGen != gen {
		d.owner, d.rel = s.sessionForURI(u)
		d.ownerGen = gen
	}
	return d.owner, d.rel
}

// under reports whether rel is one of paths or inside one of them.
func under(rel string, paths []string) bool {
	for _, p := range paths {
		if rel == p || p == "" || strings.HasPrefix(rel, p+"/") {
			return true
		}
	}
	return false
}

// setText replaces the buffer's text.
func (d *document) setText(text []byte) {
	d.text, d.summed, d.compared = text, false, false
}

// racyStamp is how close to its reading a file's modification time makes
// the cached hash untrustworthy: a write within the same tick of the
// clock could keep size and time (git's racy-clean problem).
const racyStamp = time.Second

// onDisk reports whether the buffer holds exactly what the file at abs
// holds: the same size, then the same SHA-256. The file's hash is cached
// by its stamp (size and modification time), so comparing an unchanged
// file costs one stat and the buffer's hash is computed once per edit.
// Requires docsMu.
func (d *document) onDisk(abs string) bool {
	st, ok := stampOf(abs)
	if !ok || st.size != int64(len(d.text)) {
		return false
	}
	if d.disk != st || !st.mtime.Before(d.readAt.Add(-racyStamp)) {
		data, err := os.ReadFile(abs)
		if err != nil {
			return false
		}
		d.disk, d.diskSum, d.readAt = st, sha256.Sum256(data), time.Now()
	}
	if !d.summed {
		d.sum, d.summed = sha256.Sum256(d.text), true
	}
	return d.sum == d.diskSum
}

// document returns a copy of an open document's state.
func (s *server) document(u protocol.DocumentURI) (document, bool) {
	s.docsMu.Lock()
	defer s.docsMu.Unlock()
	d, ok := s.docs[u]
	if !ok {
		return document{}, false
	}
	return *d, true
}
